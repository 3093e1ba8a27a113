"""Subtree fingerprints: equal for the same block on two pages, different when text or tag path changes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from worker.clean.fingerprint import (
    PageFingerprints,
    _elem_signature,
    _normalise_blocks,
    block_hash,
    fingerprint,
    normalise,
    signature,
    signature_of,
    stable_token,
)
from worker.clean.sitememory import SiteMemory


def _fps(html: str) -> PageFingerprints:
    body = LexborHTMLParser(html).body
    assert body is not None
    return fingerprint(body)


def _fp_of(fps: PageFingerprints, path_end: str) -> int:
    hits = [fp for fp, path in zip(fps.text_fps, fps.paths, strict=True) if path.endswith(path_end)]
    assert len(hits) == 1, (path_end, fps.paths)
    return hits[0]


NAV = '<ul id="nav"><li><a href="/">Home</a></li><li><a href="/about">About us</a></li></ul>'


def page(article: str, nav: str = NAV, body_class: str = "post-1", extra: str = "") -> str:
    return (
        f'<html><body class="{body_class}"><div id="header">{nav}</div>{extra}'
        f'<div class="content"><p>{article}</p></div></body></html>'
    )


def test_hash_is_stable_across_processes() -> None:
    # Snapshots in the changelog outlive processes: the hash must never depend on PYTHONHASHSEED.
    assert block_hash(b"abc") == 0x352441C2024D0127


def test_same_subtree_on_two_pages_hashes_equal() -> None:
    a = _fps(page("First article text.", body_class="postid-12 category-news"))
    b = _fps(page("A different article.", body_class="postid-99 category-sport", extra="<div>ad</div>"))
    assert _fp_of(a, "div#header>ul#nav") == _fp_of(b, "div#header>ul#nav")
    assert _fp_of(a, "div#header") == _fp_of(b, "div#header")
    assert _fp_of(a, "div.content>p") != _fp_of(b, "div.content>p")


def test_changed_text_changes_the_fingerprint() -> None:
    other_nav = NAV.replace("About us", "Contact")
    a, b = _fps(page("x")), _fps(page("x", nav=other_nav))
    assert _fp_of(a, "ul#nav") != _fp_of(b, "ul#nav")


def test_changed_tag_path_changes_the_fingerprint() -> None:
    moved = page("x").replace('<div id="header">', '<div id="footer">')
    a, b = _fps(page("x")), _fps(moved)
    assert _fp_of(a, "div#header>ul#nav") != _fp_of(b, "div#footer>ul#nav")


def test_case_whitespace_and_digits_are_folded() -> None:
    a = _fps(page("x", nav='<div class="count">Page 1 of 5   COMMENTS</div>'))
    b = _fps(page("x", nav='<div class="count">page 12 of\n7 comments</div>'))
    assert _fp_of(a, "div.count") == _fp_of(b, "div.count")
    assert normalise("  Hello\n\tWORLD 2024 ") == b"hello world "


def test_generated_class_tokens_are_dropped() -> None:
    assert stable_token("sidebar")
    assert stable_token("main-nav")
    assert stable_token("entry_content")
    assert not stable_token("css-1x2y3z")
    assert not stable_token("post-123")
    assert not stable_token("sc-bdVaJa")
    assert not stable_token("nav\n")  # the whole token, as the C fingerprints read it
    a = _fps(page("x", nav='<div class="widget css-1ab2">Recent posts</div>'))
    b = _fps(page("x", nav='<div class="widget css-9zz8">Recent posts</div>'))
    assert _fp_of(a, "div.widget") == _fp_of(b, "div.widget")


def test_body_classes_and_positions_do_not_enter_the_path() -> None:
    body = LexborHTMLParser('<body class="single postid-7"><div id="x" class="a b c">t</div></body>').body
    assert body is not None
    assert signature(body) == "body"
    fps = fingerprint(body)
    assert fps.paths == ["body", "body>div#x.a.b"]  # at most two stable class tokens, sorted


def test_inline_elements_count_for_their_block_and_textless_elements_are_skipped() -> None:
    fps = _fps('<body><p>Hello <a href="#">big</a> <b>world</b></p><div><img src="x"></div></body>')
    assert fps.paths == ["body", "body>p"]
    plain = _fps("<body><p>hello big world</p><div></div></body>")
    assert fps.text_fps == plain.text_fps  # the inline markup is part of the paragraph's one block


def test_each_fingerprint_counts_once_per_page() -> None:
    fps = _fps("<body><p>Share</p><p>Share</p><p>Share</p></body>")
    assert len(fps.text_fps) == 4
    state = SiteMemory().observe("s", "u", fps.observed())
    assert len(state.fps) == 2  # body + one "Share" paragraph
    assert state.share(fps.text_fps[1]) == 1.0  # on the site's one page: counted once, not three times


def test_records_are_in_document_order() -> None:
    fps = _fps("<body><div><p>a</p><p>b</p></div><p>c</p></body>")
    assert fps.paths == ["body", "body>div", "body>div>p", "body>div>p", "body>p"]
    assert list(fps.elems) == sorted(fps.elems)


def test_block_order_inside_an_element_does_not_matter_but_each_block_counts() -> None:
    menu = '<ul id="m"><li>{}</li><li>{}</li></ul>'
    a = _fps(page("x", nav=menu.format("Home", "About")))
    b = _fps(page("x", nav=menu.format("About", "Home")))
    c = _fps(page("x", nav=menu.format("Home", "Home")))
    assert _fp_of(a, "ul#m") == _fp_of(b, "ul#m")  # a reordered menu is still the menu
    assert _fp_of(a, "ul#m") != _fp_of(c, "ul#m")


# The page-at-once fast paths must agree exactly with the per-block definitions they replace.
_TEXT = st.text(alphabet=st.sampled_from([*"aZ0123 9xΣσςΟΔ٣٤１２İK\u212a-é", "\ud800"]), max_size=12).map(
    lambda t: " ".join(t.split())
)


@given(st.lists(_TEXT, max_size=6))
def test_page_normalisation_equals_per_block_normalise(texts: list[str]) -> None:
    assert _normalise_blocks(texts) == [normalise(t) for t in texts]


def test_only_ascii_is_case_folded_and_digits_of_any_script_are_left_out() -> None:
    # No str.lower: its final-sigma rule differs between compiled and interpreted Python, and a fingerprint
    # must be the same in every worker sharing a changelog.
    texts = ["ΟΔΟΣ Ας", "page ٣ of 12", "x 0012 y", "HeLLo"]
    assert _normalise_blocks(texts) == [normalise(t) for t in texts]
    assert _normalise_blocks(texts) == ["ΟΔΟΣ Ας".encode(), b"page  of ", b"x  y", b"hello"]


_TOKEN = st.text(alphabet=st.sampled_from(list("abAB_-1zZé\u212a")), min_size=1, max_size=6)


@given(
    st.sampled_from(["div", "body", "p"]),
    st.lists(_TOKEN, max_size=5),
    st.sampled_from(["", "Nav", "x y", " "]),
)
def test_signature_short_cut_equals_signature_of(tag: str, classes: list[str], id_attr: str) -> None:
    cls = " ".join(classes)
    assert _elem_signature(tag, cls, id_attr) == signature_of(tag, id_attr, cls.lower().split())


def test_fingerprint_values_are_pinned() -> None:
    # Fingerprints are persisted in snapshots: a change here must bump sitememory's snapshot version.
    fps = _fps(page("Some text 2024."))
    assert fps.text_fps[fps.paths.index("body>div.content>p")] == 8357761843764524103


def test_a_one_block_element_hashes_its_block_with_block_hash() -> None:
    # fingerprint_segmentation spells block_hash as C-level maps: the two must stay one definition.
    a = _fps("<body><p>Hello World 42</p></body>")
    b = _fps("<body><p>hello   world 7</p></body>")
    assert a.text_fps == b.text_fps
    sig_part = a.text_fps[1] ^ block_hash(b"hello world ")
    assert sig_part == _fps("<body><p>other</p></body>").text_fps[1] ^ block_hash(b"other")


def test_path_fingerprints_are_the_structure_position_whatever_the_text() -> None:
    def path_fp(fps: PageFingerprints, path_end: str) -> int:
        hits = [fp for fp, path in zip(fps.path_fps, fps.paths, strict=True) if path.endswith(path_end)]
        assert len(hits) == 1, (path_end, fps.paths)
        return hits[0]

    a = _fps(page("First article text.", body_class="postid-12"))
    b = _fps(page("A different article.", body_class="postid-99", nav=NAV.replace("About us", "Contact")))
    assert path_fp(a, "div.content>p") == path_fp(b, "div.content>p")  # new text, same slot
    assert path_fp(a, "ul#nav") == path_fp(b, "ul#nav")
    assert path_fp(a, "div.content>p") != path_fp(a, "div.content")
    moved = _fps(page("First article text.").replace('class="content"', 'class="sidebar"'))
    assert path_fp(a, "div.content>p") != path_fp(moved, "div.sidebar>p")
