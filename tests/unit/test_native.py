"""The C accelerator (worker/clean/_native.c) equals the Python reference: segmentations and fingerprints.

Every test here runs the C code and the Python code on the same input and compares all fields. They are
skipped when the accelerator is not active, except under REQUIRE_NATIVE_CORE=1 (set by `make test`, so
CI), where an inactive accelerator is a failure.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import zlib
from array import array
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from tests.unit.cleankit import html_trees
from worker.clean import classify, dom, guard, idents, lang, native, quality, render, wordmodel
from worker.clean import fingerprint as fp
from worker.clean import heuristics as h
from worker.clean import score as sc
from worker.clean import segment as sg
from worker.clean import sitememory as sm
from worker.clean import template as tm
from worker.clean.meta import collect
from worker.clean.meta import header as hd
from worker.clean.meta import marked as mk
from worker.clean.meta import select as sl
from worker.clean.meta import text as mt
from worker.clean.meta.marked import Marks
from worker.clean.options import Budget, OverBudget, TooManyNodes
from worker.clean.pipeline import clean_page
from worker.clean.segment import Segmentation, segment, segment_python
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.models import Page, Quality

REQUIRED = os.environ.get("REQUIRE_NATIVE_CORE") == "1"
ACTIVE = set(native.status().values()) == {"native"}
needs_native = pytest.mark.skipif(not ACTIVE, reason=f"native accelerator not active: {native.status()}")
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
NO_LIMIT = float("inf")


def test_the_accelerator_is_active_where_it_must_be() -> None:
    if not REQUIRED:
        pytest.skip("REQUIRE_NATIVE_CORE is not set")
    assert ACTIVE, (
        f"native accelerator not active: {native.status()}; `make install` builds it (needs a C compiler "
        "and the Python headers)"
    )


def _columns(seg: Segmentation) -> dict[str, object]:
    return {f.name: getattr(seg, f.name) for f in fields(seg)}


def _both(html: str | bytes, max_nodes: int = 1 << 62) -> tuple[Segmentation, Segmentation]:
    body = LexborHTMLParser(html).body
    assert body is not None
    return segment(body, Budget(NO_LIMIT), max_nodes), segment_python(body, Budget(NO_LIMIT), max_nodes)


def _assert_same(html: str | bytes) -> Segmentation:
    ours, ref = _both(html)
    assert _columns(ours) == _columns(ref)
    got = fp.fingerprint_segmentation(ours)
    want = fp.fingerprint_segmentation_python(ref)
    assert (got.elems, got.text_fps, got.elem_paths) == (want.elems, want.text_fps, want.elem_paths)
    assert sc.score(ours) == sc.score_python(ref, idents.ident_flags_python(ref.classes, ref.ids))
    return ours


# The scorer's sentence marks: ASCII ones by a table, the rest by a search of the sorted marks; a block
# holding each one alone (or none, or a character next to one), Latin, CJK and Thai text around it.
@needs_native
@pytest.mark.parametrize("around", ["words and more", "\u6f22\u5b57\u304b\u306a", "\u0e44\u0e17\u0e22 x"])
def test_every_sentence_mark_scores_alike(around: str) -> None:
    marks = sorted(c for c in map(chr, range(0x10000)) if h.SENTENCE_PUNCT.fullmatch(c))
    near = ["-", "/", "\u00b7", "\u2019", "\u3000", "+", "a"]
    items = "".join(f"<p>{around} {c} {around}</p><li><a href=x>{around}</a>{c}</li>" for c in marks + near)
    _assert_same(f"<html><body><div>{items}</div></body></html>")


# Generated pages: every branch of the walk, with text and attribute values that stress the details.
# (runs of sixteen and more: the C walk's vector steps over indentation and over words between single spaces)
SPACES = ["", " ", "  ", "\n", "\t", "\u00a0", "\u2003", "\u3000", "\x0b", "\x1c", "\u200b", "\r\n ",
          " " * 17, "\t\n\x0c\r \x1c\x1d\x1e\x1f" * 2]  # fmt: skip
WORDS = [
    "the",
    "news",
    "über",
    "Straße",
    "día",
    "漢字",
    "😀",
    "1999",
    "٣٤",
    "©",
    "&amp;",
    "&#0;",
    "\x00",
    "x",
    "a run of words past sixteen bytes",
    "x y z w v u t s r q p o",
    "\x08\x0e\x7f",
]
TEXT = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SPACES)), max_size=8).map("".join)
TAGS = st.sampled_from(
    ["div", "p", "span", "a", "b", "li", "ul", "h2", "td", "tr", "table", "blockquote", "pre", "section",
     "font", "em", "my-widget", "foo", "article", "nav", "center", "dd"]
)  # fmt: skip


def attribute_list(pairs: list[tuple[str, str | None]]) -> str:
    """An element's attributes as written in a start tag: a name alone when it has no value."""
    return "".join(f" {k}" if v is None else f' {k}="{v}"' for k, v in pairs)


ATTR_VALUES = st.sampled_from(
    ["", "x", "content main", "x sr-only", "Hidden", "HIDDEN", "d-none y", "post-12", "screen-reader-text",
     "none", "hidey", "true", "TRUE", "\u212arue", "display:none", "Display : NONE", "visibility: hidden",
     "color: red", "dİsplay:none", "display:\u00a0none", "über", "nav menu", "comments", "entry-content",
     "sidebar widget", "header article-header"]
)  # fmt: skip
ATTR_NAMES = st.sampled_from(
    ["class", "id", "style", "hidden", "aria-hidden", "href", "CLASS", "data-x", "title"]
)
ATTRS = st.lists(
    st.tuples(ATTR_NAMES, st.one_of(st.none(), ATTR_VALUES)), max_size=3, unique_by=lambda kv: kv[0].lower()
).map(attribute_list)
LEAF = st.one_of(
    TEXT,
    st.sampled_from(
        ["<br>", "<br><br>", "<br> <br>", "<br hidden>", '<img alt="alt" src="x">', "<wbr>", "<hr>",
         "<script>no()</script>", "<style>p{}</style>", "<!-- no -->", "<button>no</button>",
         "<select><option>no</option></select>", "<svg><text>no</text></svg>", "<textarea>no</textarea>",
         '<input value="no">', "<template><p>no</p></template>", "<noscript>no</noscript>"]
    ),
)  # fmt: skip
TREES = html_trees(LEAF, TAGS, ATTRS)


@needs_native
@settings(max_examples=400)
@given(st.lists(TREES, min_size=1, max_size=4))
def test_generated_pages_give_the_same_segmentation_and_fingerprints(parts: list[str]) -> None:
    _assert_same("<html><body>" + "".join(parts) + "</body></html>")


@needs_native
@settings(max_examples=50)
@given(st.sampled_from(["div", "b", "span", "p", "li"]), st.integers(0, 12), TREES)
def test_nesting_past_max_depth_reads_the_rest_as_inline_text(tag: str, extra: int, inner: str) -> None:
    depth = h.MAX_DEPTH - 6 + extra
    _assert_same(
        f"<body>{f'<{tag}>' * depth}{inner}<a>link</a><br><br>tail{f'</{tag}>' * depth}<p>after</p></body>"
    )


@needs_native
@given(st.binary(max_size=200))
def test_bytes_that_are_not_utf8_give_the_python_walks_result(junk: bytes) -> None:
    # lexbor passes undecodable bytes through; the C walk hands such a page to the Python walk.
    _assert_same(b"<body><p>a " + junk + b" b</p><div>" + junk + b"</div></body>")


@needs_native
@pytest.mark.parametrize("limit", [1, 5, 60, 127, 128, 129, 300])
def test_the_node_limit_raises_alike(limit: int) -> None:
    html = "<body>" + "<div><span>x</span><b>y</b></div>" * 60 + "<div>" * 450 + "<i>z</i>" * 20 + "</body>"
    errors = []
    for walk in (segment, segment_python):
        body = LexborHTMLParser(html).body
        assert body is not None
        try:
            walk(body, Budget(NO_LIMIT), limit)
            errors.append("")
        except TooManyNodes as exc:
            errors.append(str(exc))
    assert errors[0] == errors[1]


@needs_native
def test_the_budget_is_checked_with_the_budgets_own_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 1.0
        return ticks[0]

    monkeypatch.setattr(Budget, "clock", staticmethod(clock))
    monkeypatch.setattr(Budget, "wall", staticmethod(clock))
    budget = Budget(3000.0)  # three ticks of this clock
    body = LexborHTMLParser("<body>" + "<p>x</p>" * (5 * h.DEADLINE_EVERY) + "</body>").body
    assert body is not None
    with pytest.raises(OverBudget, match="segment"):
        segment(body, budget)
    assert ticks[0] > 3


@needs_native
def test_the_root_is_any_element() -> None:
    tree = LexborHTMLParser("<!doctype html><html><body><a href='/'>in <p>a</p> link</a></body></html>")
    for node in (tree.root, tree.body, tree.css_first("a"), tree.css_first("p")):
        assert node is not None
        got, want = segment(node, Budget(NO_LIMIT)), segment_python(node, Budget(NO_LIMIT))
        assert _columns(got) == _columns(want)


@needs_native
def test_python_only_runs_the_reference() -> None:
    accelerated = (sg._accel, fp._accel, sm._count_page, sm._template, sm._prune, guard._scan)
    with native.python_only():
        assert (sg._accel, fp._accel) == (None, None)
        assert (sm._count_page, sm._template, sm._prune) == (
            sm._count_page_python,
            sm._template_python,
            sm._prune_python,
        )
        assert (guard._scan, guard._nesting_counts) == (guard._scan_python, guard._nesting_counts_python)
        assert idents.ident_flags is idents.ident_flags_python
        assert (lang.stop_hits, quality._counts) == (lang.stop_hits_python, quality.count_python)
        assert quality._per_text is quality.per_text_python
        assert render.quality_dict is render.quality_dict_python
        assert sc._accel is None
        assert guard._count_attributes is guard._count_attributes_python
        assert mk.marked is mk.marked_python
        assert sl.select is sl.select_python
        assert mk.unmarked_text is mk.unmarked_text_python
        assert collect._in_comment is collect.in_comment_python
        assert (hd._after, hd._before) == (hd._after_python, hd._before_python)
        assert dom.utf8 is dom.utf8_python
        assert mt._date_starts is mt.date_starts_python
        assert classify._repeated_quotes is classify.repeated_quotes_python
    assert dom.utf8 is not dom.utf8_python
    assert classify._repeated_quotes is not classify.repeated_quotes_python
    assert mt._date_starts is not mt.date_starts_python
    assert mk.marked is not mk.marked_python
    assert sl.select is not sl.select_python
    assert mk.unmarked_text is not mk.unmarked_text_python
    assert collect._in_comment is not collect.in_comment_python
    assert hd._after is not hd._after_python
    assert sc._accel is not None
    assert guard._count_attributes is not guard._count_attributes_python
    assert idents.ident_flags is not idents.ident_flags_python
    assert (lang.stop_hits, quality._counts) != (lang.stop_hits_python, quality.count_python)
    assert quality._per_text is not quality.per_text_python
    assert render.quality_dict is not render.quality_dict_python
    assert (sg._accel, fp._accel, sm._count_page, sm._template, sm._prune, guard._scan) == accelerated
    assert sm._count_page is not sm._count_page_python
    assert guard._scan is not guard._scan_python


# Fingerprints: the hashes of normalised block texts, alone.
FOLDED = st.lists(
    st.text(st.characters(exclude_categories=("Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=12), max_size=6
).map(" ".join)

# Mostly ASCII texts (read eight characters a step) with digits, capitals and their neighbours anywhere,
# and now and then a character that makes the text one (é, ß, \xa0) or two (’, ٣, Σ) bytes a character.
ASCII_FOLDED = st.tuples(
    st.text(st.sampled_from("aqz AQZ 059 /:@[`{-."), max_size=90),
    st.sampled_from(["", "é", "\xdf", "\xa0", "’", "\u0663", "Σ"]),
    st.integers(0, 90),
).map(lambda t: " ".join((t[0][: t[2]] + t[1] + t[0][t[2] :]).split()))


def test_no_character_below_the_arabic_indic_zero_is_a_digit_beyond_ascii() -> None:
    # The C normalisation asks for a decimal digit only from U+0660 on (FIRST_DECIMAL_BEYOND_ASCII).
    assert min(c for c in range(0x80, 0x110000) if chr(c).isdecimal()) == 0x660


@needs_native
@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(
            FOLDED,
            ASCII_FOLDED,
            st.sampled_from(["\ud800", "\udfff x", "A\u0660Z", "\u212a", "İ"]),
        ),
        max_size=8,
    )
)
def test_text_hashes_equal_pythons(texts: list[str]) -> None:
    assert native._native.text_hashes(texts) == [fp.block_hash(fp.normalise(t)) for t in texts]


@needs_native
@given(st.binary(max_size=20000))
def test_crc32_and_adler32_are_zlibs(data: bytes) -> None:
    # Through a text: latin-1 characters below 0x80 normalise to themselves when they are not digits or
    # capitals, so the bytes reach the hashes unchanged.
    text = data.translate(None, b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ").decode("latin-1")
    norm = fp.normalise(text)
    if " ".join(text.split()) != text:
        return
    assert native._native.text_hashes([text]) == [zlib.crc32(norm) << 32 | zlib.adler32(norm)]


@needs_native
@settings(max_examples=200)
@given(
    st.text(st.sampled_from("abcxyzABZ09 .,;-/:@[`{\u00e9\u00ff\u2019\u0663\u03a3"), max_size=700),
    st.integers(1, 12),
)
def test_long_texts_hash_as_zlib(text: str, repeat: int) -> None:
    # Long texts take the vector paths (16 characters a step; CRC folded 64 bytes a step, Adler-32 32 bytes
    # a step, with NMAX passed at 5552 bytes): every length around those steps, in both storage kinds.
    folded = " ".join((text * repeat).split())
    norm = fp.normalise(folded)
    assert native._native.text_hashes([folded]) == [zlib.crc32(norm) << 32 | zlib.adler32(norm)]


@needs_native
def test_fingerprints_of_columns_that_are_no_segmentation_fall_back() -> None:
    seg = Segmentation(["body", "div"], ["", ""], ["", ""], [-1, 0], [0, 0], [1, 7], [2, 2],
                       ["x"], ["paragraph"], [1], [1], [1], [0], [0])  # fmt: skip
    assert (
        native._native.fingerprint(
            seg.texts, seg.tags, seg.classes, seg.ids, seg.parents, seg.firsts, seg.ends
        )
        is None
    )


@needs_native
@pytest.mark.parametrize("bad", [-1, -(2**30), 2**30, 2**40, 2**70])
def test_fingerprints_decline_an_index_out_of_range_of_any_size(bad: int) -> None:
    # Indices of one 30-bit digit are read in place (small_int), the rest through PyLong_AsSsize_t: both
    # must decline what is out of range, and a valid page must not depend on which path read it.
    seg = Segmentation(["body", "div"], ["", ""], ["", ""], [-1, 0], [0, 0], [1, bad], [1, 1],
                       ["x"], ["paragraph"], [1], [1], [1], [0], [0])  # fmt: skip
    columns = (seg.texts, seg.tags, seg.classes, seg.ids, seg.parents, seg.firsts, seg.ends)
    assert native._native.fingerprint(*columns) is None
    good = (seg.texts, seg.tags, seg.classes, seg.ids, seg.parents, seg.firsts, [1, 0])
    assert native._native.fingerprint(*good) is not None


@needs_native
def test_a_page_repeating_fingerprints_counts_each_once() -> None:
    # Tracked ones are counted once a page (a mark per tracked index), untracked ones listed once (repeats
    # dropped after their sort), as the Python set does.
    page = array("Q", [9, 5, 9, 2**64 - 1, 5, 0, 7, 7, 2**64 - 1, 9])
    ours = (array("Q", [7, 3]), array("f", [1.0, 2.0]))
    ref = (array("Q", [7, 3]), array("f", [1.0, 2.0]))
    got = sm._count_page(*ours, page, 0.5)
    assert list(got) == [5, 9, 2**64 - 1]
    assert got == sm._count_page_python(*ref, page, 0.5)
    assert ours == ref == (array("Q", [7, 3]), array("f", [1.5, 2.0]))


@needs_native
def test_the_signature_memo_does_not_change_fingerprints() -> None:
    html = (
        '<body><div id="a1" class="post x"><p>one</p></div><div id="nav" class="menu"><p>two</p></div></body>'
    )
    ours, ref = _both(html)
    first = fp.fingerprint_segmentation(ours).text_fps
    fp.clear_memo()
    assert (
        fp.fingerprint_segmentation(ours).text_fps
        == first
        == fp.fingerprint_segmentation_python(ref).text_fps
    )


# Signatures: tags, classes and ids of stable and generated tokens, any case, beyond ASCII.
TOKENS = st.one_of(
    st.sampled_from(
        ["nav", "Main", "sc-AxjAm", "bdVaJa", "post-12", "a" * 40, "a" * 41, "_x", "-", "K\u212a"]
    ),
    st.text(st.characters(codec="utf-8"), max_size=6),
)
SPACED = st.lists(st.tuples(TOKENS, st.sampled_from([" ", "  ", "\t", "\n", "\x1c"])), max_size=5).map(
    lambda parts: "".join(t + sep for t, sep in parts)
)


@needs_native
@settings(max_examples=400)
@given(st.sampled_from(["html", "body", "div", "my-el", "d\u00efv"]), SPACED, TOKENS)
def test_signature_hashes_equal_pythons(tag: str, cls: str, id_attr: str) -> None:
    key = (tag, cls, id_attr)
    assert native._native.signature(*key) == fp._signature_hash(key)


@needs_native
def test_an_id_ending_in_a_newline_fingerprints_alike() -> None:
    ours, ref = _both('<body><div id="nav\n" class="Menu x1"><p>one two three</p></div></body>')
    assert fp.fingerprint_segmentation(ours).text_fps == fp.fingerprint_segmentation_python(ref).text_fps


# The site memory's counting on its arrays.
U64 = st.integers(0, 2**64 - 1)
FLOAT32 = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]), st.floats(0, 2.0**100, width=32))


@needs_native
@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.one_of(U64, st.integers(0, 40)), FLOAT32), max_size=80),
    st.one_of(
        st.sets(st.one_of(U64, st.integers(0, 40)), max_size=60),
        st.lists(st.one_of(U64, st.integers(0, 40)), max_size=90).map(lambda v: array("Q", v)),
    ),
    st.floats(1.0, 2.0**64),
    st.floats(0, 1e30),
    st.integers(1, 80),
)
def test_site_counts_equal_pythons(
    tracked: list[tuple[int, float]], page: set[int] | array[int], unit: float, bar: float, keep: int
) -> None:
    # A page as a set, or as an array('Q') that repeats fingerprints and holds 0 (PageFingerprints').
    fps, counts = [fp for fp, _ in tracked], [c for _, c in tracked]
    ours, ref = (array("Q", fps), array("f", counts)), (array("Q", fps), array("f", counts))
    assert sm._count_page(*ours, page, unit) == sm._count_page_python(*ref, page, unit)
    assert ours == ref
    assert sm._template(*ours, bar) == sm._template_python(*ref, bar)
    if keep < len(fps):
        assert sm._prune(*ours, keep) == sm._prune_python(*ref, keep)


@needs_native
@settings(max_examples=150)
@given(
    st.lists(
        st.one_of(U64, st.integers(0, 2**20), U64.map(lambda x: x | 2**63), U64.map(lambda x: x >> 40)),
        max_size=1500,
    ),
    st.lists(U64, max_size=100),
)
def test_a_pages_many_new_fingerprints_come_back_sorted_alike(page: list[int], tracked: list[int]) -> None:
    # Hundreds of new fingerprints (a site's first page holds ~270) take the C bucket sort: spread over
    # 64 bits, crowded at either end, or small; some of them already tracked.
    fps = array("Q", tracked + page[::7])
    counts = array("f", [1.0] * len(fps))
    ours, ref = (array("Q", fps), array("f", counts)), (array("Q", fps), array("f", counts))
    new = sm._count_page(*ours, array("Q", page), 0.5)
    assert new == sm._count_page_python(*ref, array("Q", page), 0.5)
    assert ours == ref
    assert list(new) == sorted(set(page) - set(fps) - {0})


@needs_native
@settings(max_examples=40)
@given(st.lists(st.sets(st.integers(1, 300), max_size=80), min_size=1, max_size=60), st.integers(8, 64))
def test_a_site_memory_learns_alike_on_both_paths(pages: list[set[int]], cap: int) -> None:
    config = MemoryConfig(max_fingerprints=cap, half_life=5.0)

    def learn() -> tuple[bytes | None, list[frozenset[int]]]:
        memory = SiteMemory(config)
        templates = []
        for i, page in enumerate(pages):
            state = memory.observe("site", f"https://site/{i % 40}", {fp * 7919 for fp in page})
            templates.append(state.template(0.6))
        return memory.dump("site"), templates

    ours = learn()
    with native.python_only():
        assert learn() == ours


# The structure positions of a page's blocks: counted into the site's arrays, and its article slots.
@st.composite
def _page_blocks(draw: st.DrawFn) -> tuple[array[int], list[int], list[int], list[int]]:
    """(paths, parents, owners, kept) of a page: element paths (0 and repeats among them, one more for
    <body>'s parent -1), parents, each block's element, kept blocks (repeats, negative indices too)."""
    n = draw(st.integers(1, 30))
    paths = array("Q", draw(st.lists(st.one_of(U64, st.integers(0, 3)), min_size=n + 1, max_size=n + 1)))
    parents = [-1] + [draw(st.integers(-1, i - 1)) for i in range(1, n)]
    owners = draw(st.lists(st.integers(0, n - 1), max_size=60))
    kept = draw(st.lists(st.integers(-len(owners), len(owners) - 1), max_size=20)) if owners else []
    return paths, parents, owners, kept


@needs_native
@settings(max_examples=300)
@given(
    _page_blocks(),
    st.lists(st.tuples(st.one_of(U64, st.integers(0, 3)), FLOAT32, FLOAT32), max_size=70),
    st.floats(1.0, 2.0**64),
)
def test_page_positions_are_counted_as_pythons(
    page: tuple[array[int], list[int], list[int], list[int]],
    tracked: list[tuple[int, float, float]],
    unit: float,
) -> None:
    columns = ([p for p, _, _ in tracked], [s for _, s, _ in tracked], [k for _, _, k in tracked])
    ours = (array("Q", columns[0]), array("f", columns[1]), array("f", columns[2]))
    ref = (array("Q", columns[0]), array("f", columns[1]), array("f", columns[2]))
    assert list(sm._page_positions(*page, *ours, unit)) == sm._page_positions_python(*page, *ref, unit)
    assert ours == ref


@needs_native
@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.one_of(U64, st.integers(0, 3)), FLOAT32, FLOAT32), max_size=70),
    st.floats(0.0, 2.0**64),
    st.floats(0.0, 1.0),
)
def test_article_slots_are_pythons(tracked: list[tuple[int, float, float]], bar: float, share: float) -> None:
    columns = (array("Q", [p for p, _, _ in tracked]), array("f", [k for _, k, _ in tracked]))
    seen = array("f", [s for _, _, s in tracked])
    got = sm._kept_positions(*columns, seen, bar, share)
    assert got == sm._kept_positions_python(*columns, seen, bar, share)


@needs_native
@settings(max_examples=300)
@given(_page_blocks(), st.data())
def test_blocks_at_article_slots_are_pythons(
    page: tuple[array[int], list[int], list[int], list[int]], data: st.DataObject
) -> None:
    paths = page[0]
    slots = frozenset(data.draw(st.lists(st.one_of(st.sampled_from(paths), U64), max_size=4)))
    got, want = tm._slot_blocks(*page, slots), tm._slot_blocks_python(*page, slots)
    assert got == want
    assert (got is page[3]) == (want is page[3])  # no block at a slot: density's own list


@needs_native
@settings(max_examples=300)
@given(st.data())
def test_template_strips_are_pythons(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 40))
    firsts = data.draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    ends = data.draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    elems = sorted(data.draw(st.sets(st.integers(0, n - 1))))
    small = st.integers(0, 12)
    text_fps = data.draw(st.lists(st.one_of(small, U64), min_size=len(elems), max_size=len(elems)))
    site = data.draw(st.lists(st.tuples(st.one_of(small, U64), FLOAT32), max_size=60))
    columns = (array("Q", [fp for fp, _ in site]), array("f", [c for _, c in site]))
    bar = data.draw(st.one_of(st.sampled_from([0.0, 1.0, 2.0]), st.floats(0, 2.0**100)))
    page = (array("q", elems), array("Q", text_fps), firsts, ends)
    assert tm._template_strips(*columns, bar, *page) == tm._template_strips_python(*columns, bar, *page)


ATTRIBUTE = st.text(st.sampled_from("ab-_ 1239\t\u00a0\u3000\u0663\u0664\u0665\uff11\u00e9X"), max_size=12)


@needs_native
@settings(max_examples=300)
@given(st.data())
def test_stable_paths_are_pythons(data: st.DataObject) -> None:
    # Ids and classes with runs of digits (ASCII, Arabic-Indic, fullwidth), whitespace of every kind.
    n = data.draw(st.integers(1, 20))
    tags = data.draw(
        st.lists(st.sampled_from(["html", "body", "div", "p", "section"]), min_size=n, max_size=n)
    )
    ids = data.draw(st.lists(ATTRIBUTE, min_size=n, max_size=n))
    classes = data.draw(st.lists(ATTRIBUTE, min_size=n, max_size=n))
    parents = [-1] + [data.draw(st.integers(-1, i - 1)) for i in range(1, n)]
    zero = [0] * n
    seg = Segmentation(tags, classes, ids, parents, zero, zero, zero, [], [], [], [], [], [], [])
    for elem in range(-1, n):
        assert sg.stable_path(seg, elem) == sg.stable_path_python(seg, elem)


@needs_native
def test_deep_stable_paths_and_parts_narrower_than_their_str_are_pythons() -> None:
    # 100 nested elements, an id that is ASCII once stripped of a no-break space (a part narrower than
    # its str), an id and a class beyond Latin-1.
    n = 100
    tags = ["html", "body", *(["div", "section", "p"] * 33)][:n]
    ids = ["", "\u00a0main\u00a0", "\u0645\u062a\u0646", *([""] * (n - 3))]
    classes = ["", "x", "\u00e9t\u00e9 b", *(f"c{'abcdefgh'[i % 8]} d" for i in range(n - 3))]
    parents = list(range(-1, n - 1))
    zero = [0] * n
    seg = Segmentation(tags, classes, ids, parents, zero, zero, zero, [], [], [], [], [], [], [])
    for elem in (-1, 0, 1, 2, 3, 63, 64, 65, n - 1):
        assert sg.stable_path(seg, elem) == sg.stable_path_python(seg, elem)
    assert sg.stable_path(seg, 1) == "html>body#main"  # the stored part is ASCII, as str would make it
    assert sg.stable_path(seg, 1).isascii()


@needs_native
def test_a_page_of_more_keys_than_the_c_page_table_fingerprints_as_python() -> None:
    # 400 elements over 300 distinct (tag, class, id) keys, each repeated by other elements: the C code's
    # per-page table of 128 keys by address collides and is overwritten, and must still sign as Python.
    names = ["".join("abcdefghij"[int(d)] for d in str(i)) for i in range(300)]
    divs = (
        f'<div class="k{names[i % 300]} z"><p id="i{names[i * 7 % 300]}">t {i}</p></div>' for i in range(400)
    )
    html = "<body>" + "".join(divs) + "</body>"
    _assert_same(html)
    fp.clear_memo()
    _assert_same(html)


@needs_native
def test_an_index_out_of_range_leaves_block_positions_to_python() -> None:
    paths, nothing = array("Q", [1, 2, 3]), (array("Q"), array("f"), array("f"))
    assert native._native.learn_positions(paths, [-1, 0], [0, 5], [], *nothing, 1.0) is None
    assert native._native.slot_blocks(paths, [-1, 0], [0, 5], [], frozenset({1})) is None
    with pytest.raises(IndexError):
        sm._page_positions(paths, [-1, 0], [0, 5], [], *nothing, 1.0)
    with pytest.raises(IndexError):
        tm._slot_blocks(paths, [-1, 0], [0, 5], [], frozenset({1}))


@needs_native
def test_unequal_position_columns_leave_the_article_slots_to_python() -> None:
    columns = (array("Q", [1, 2]), array("f", [1.0]), array("f", [1.0, 1.0]))
    assert native._native.kept_positions(*columns, 0.0, 0.0) is None
    with pytest.raises(ValueError, match="zip"):
        sm._kept_positions(*columns, 0.0, 0.0)


# Pieces of dates and of what _DATE_START tells apart: digit runs of every length around a year's, a year
# inside a longer run before 年, words of 2 to 13 letters before ". 3", " 3", ".3", letters beyond ASCII and
# Latin-1, "\u00b2" (a digit re's \d leaves out: a letter to [^\W\d_]), "\u0663" (a decimal digit, no
# [0-9]), "_".
DATE_START_PIECES = ["1", "12", "123", "2019", "20193", "12019年", "2019 年", "年", " ", ". ", ".", "3 ",
                     "ab ", "May ", "Sept. ", "abcdefghijkl ", "abcdefghijklm ", "Dezember", "\u00e9t\u00e9 ",
                     "\u00b2", "\u0663", "_", "\u03a9\u03bc ", "\U0001f600", "x", "-", "/"]  # fmt: skip


@needs_native
@settings(max_examples=1000)
@given(
    st.lists(st.sampled_from(DATE_START_PIECES), max_size=12).map("".join),
    st.integers(0, 12),
    st.integers(0, 12),
    st.integers(0, 80),
)
def test_date_starts_equal_the_regexs(text: str, lead: int, cut: int, last: int) -> None:
    start = min(lead, len(text))
    end = max(start, len(text) - cut)
    assert mt._date_starts(text, start, end, last) == mt.date_starts_python(text, start, end, last)


# Forum threads for the repeated quotes' 4-gram sets: posts of few distinct words (so 4-grams repeat),
# quotes of them (whole, cut, or spaced and cased otherwise), words beyond ASCII (lower-casing that
# lengthens, "ſ", final sigmas, "²", "_", emoji, CJK) in every storage kind, kept entries listed twice.
_QUOTE_WORDS = st.sampled_from(
    ["the", "river", "Rose", "RIVER", "bridge", "x", "2019", "İstanbul", "ſtreet", "ΣΊΣΥΦΟΣ", "x²", "a_b",
     "caf\u00e9", "\U0001f600", "新しい", "--", "...", "!", "\n", "İxİyİzİw"]
)  # fmt: skip
_POSTS = st.lists(st.lists(_QUOTE_WORDS, max_size=12).map(" ".join), min_size=1, max_size=6)


@st.composite
def _thread(draw: st.DrawFn) -> tuple[list[str], list[int], list[int], float]:
    texts = draw(_POSTS)
    for _ in range(draw(st.integers(0, 3))):
        quoted = draw(st.sampled_from(texts))
        cut = draw(st.integers(0, len(quoted)))
        head = draw(st.sampled_from(["Originally posted by Ann ", "quote: ", ""]))
        texts.append(
            head + draw(st.sampled_from([quoted, quoted[cut:], quoted.upper(), quoted.replace(" ", "  ")]))
        )
    index = st.integers(0, len(texts) - 1)
    kept = draw(st.lists(index, max_size=10))
    quotes = draw(st.lists(st.sampled_from(kept) if kept else index, max_size=4))
    return texts, kept, quotes, draw(st.sampled_from([0.5, 0.0, 0.25, 1.0]))


@needs_native
@settings(max_examples=500)
@given(_thread())
def test_repeated_quotes_equal_the_python_sets(thread: tuple[list[str], list[int], list[int], float]) -> None:
    assert classify._repeated_quotes(*thread) == classify.repeated_quotes_python(*thread)


# A page's UTF-8 for lexbor.
@needs_native
@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(
            st.text(st.sampled_from("ab <>\n"), min_size=1, max_size=40),  # ASCII runs, some past four units
            st.text(max_size=8),  # anything but surrogates: every storage kind and UTF-8 length
            st.sampled_from(["\x7f", "\x80", "\u07ff", "\u0800", "\uffff", "\U00010000", "\U0010ffff"]),
        ),
        max_size=12,
    ).map("".join)
)
def test_utf8_equals_str_encode(text: str) -> None:
    assert dom.utf8(text) == text.encode("utf-8")


# The vector steps (64 and 32 code units of a 2-byte str with AVX2, 32 and 16 without; 16 bytes of a
# Latin-1 str): a character past ASCII at every offset of long ASCII runs, in every storage kind, and at
# both ends.
@needs_native
@pytest.mark.parametrize("other", ["\xe9", "\xa0\xff", "\u2019", "\u20ac\xe9", "\U0001f600"])
def test_utf8_of_long_ascii_runs_with_one_other_character_anywhere(other: str) -> None:
    for size in (15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 128, 129):
        for at in range(size + 1):
            text = "a" * at + other + "<b>" * (size - at)
            assert dom.utf8(text) == text.encode("utf-8"), (size, at)
            assert dom.utf8(text + "x" * size + other) == (text + "x" * size + other).encode("utf-8")


@needs_native
def test_a_lone_surrogate_is_left_to_str_encode() -> None:
    assert native._native.utf8("ok \ud800 then") is None
    with pytest.raises(UnicodeEncodeError):
        dom.utf8("ok \ud800 then")


# The guard's scans: tags of every kind tier 3 tells apart (void, formatting, other, end, no tag), names
# cut by `<` or by characters beyond ASCII, long tags and runs without `>` from `<`, `</`, `<!` or text.
PIECES = st.one_of(
    st.sampled_from(
        [
            *("<div>", "</div>", "<", ">", "</", "<option>", "<OPTION>", "<Option>", "<b>", "<!--", "-->"),
            *("<br>", "<BR/>", "<hr", "<brx>", "</b>", "</A>", "<strong>", "<a<b", "</1", "<=", "x<y", "\n"),
            *("<img\t", "<meta ", "<Embed>", "<i\u212a>", "<s\x00>"),
        ]
    ),
    st.builds(
        lambda k, c: "<p " + f"a{c}=1 " * k + ">", st.integers(0, 300), st.sampled_from(["", "é", "一", "😀"])
    ),
    st.builds(lambda k, c: c * k, st.integers(1, 3000), st.sampled_from(["x", "é", "一", "😀", " ", "a>"])),
)


@needs_native
@settings(max_examples=300)
@given(st.lists(PIECES, max_size=60).map("".join))
def test_guard_scans_equal_pythons(markup: str) -> None:
    assert guard._scan(markup) == guard._scan_python(markup)
    assert guard._nesting_counts(markup) == guard._nesting_counts_python(markup)
    verdict = guard.check(markup, 5000)
    with native.python_only():
        assert guard.check(markup, 5000) == verdict


# The walk appends printable ASCII a run at a time (sixteen bytes a step) and ASCII whitespace a run at a
# time: runs of every length around the sixteen-byte steps, cut by each kind of character the runs stop
# at (whitespace, NUL, another control, DEL, beyond ASCII), inside and outside links.
@needs_native
@pytest.mark.parametrize(
    "cut", [" ", "\t\n  ", "\x00", "\x01", "\x1c", "\x7f", "\xe9", "\u3000", "\U0001f600"]
)
def test_ascii_runs_of_every_length_segment_alike(cut: str) -> None:
    texts = ["a" * k + cut + "B" * (40 - k) for k in range(41)]
    items = "".join(f"<p>{t}</p><p>x<a href=y>{t} {t}</a>{t}</p><p>{cut}{t}{cut}</p>" for t in texts)
    ours = _assert_same(f"<html><body><div>{items}</div></body></html>")
    assert len(ours.texts) == 3 * len(texts)
    assert "B" * 40 in ours.texts[0]


# A class is hidden only when it holds one of the hints; the hints are found by their first byte, two of them
# by "s": a class holding one after a false start of the other is hidden on both paths.
@needs_native
@pytest.mark.parametrize(
    "cls", ["sr-x screen-reader-text", "scr sr-only", "s sr-onl sr-only", "no nonex d-none"]
)
def test_a_hidden_class_after_a_near_hint_is_hidden_alike(cls: str) -> None:
    ours = _assert_same(f'<html><body><p>kept</p><div class="{cls}"><p>gone</p></div></body></html>')
    assert ours.texts == ["kept"]


# The hints are looked for sixteen positions a step by their first two bytes, the last sixteen byte by byte: a
# hidden token (or a near miss, "hi"/"no"/"sr"/"sc" alone) at every offset of a long class, across a step's
# end, is found (or not) on both paths.
@needs_native
@pytest.mark.parametrize(
    "token", ["hidden", "hide", "d-none", "sr-only", "screen-reader-text", "hi no sr sc"]
)
def test_a_hidden_token_at_every_offset_of_a_long_class_is_found_alike(token: str) -> None:
    for k in range(40):
        cls = "a" * k + " " + token + " " + "b" * (40 - k)
        ours = _assert_same(f'<html><body><p>kept</p><div class="{cls}"><p>gone</p></div></body></html>')
        assert ours.texts == (["kept", "gone"] if token == "hi no sr sc" else ["kept"]), k


# The class/id flags: words of the tables, cut and joined at the places the rules look at.
IDENT_WORDS = sorted(
    h.CONTENT_MARKERS | h.BAD_EXACT | h.POST_MARKERS
    | {*h.COMMENT_TOKEN_PREFIXES, *h.STRONG_BAD_PREFIXES, *h.WEAK_BAD_PREFIXES, *h.GOOD_TOKEN_PREFIXES}
    | {*h.POST_MARKER_PREFIXES, *h.CAPTION_PREFIXES}
    | {"post-12", "post-", "x", "row", "Nav", "ÜBER", "\u0130d", "σς"}
)  # fmt: skip
IDENT_PIECES = st.one_of(
    st.sampled_from(IDENT_WORDS),
    st.sampled_from(["-", "_", " ", "\t", "\x1c", "7", "A"]),
    st.text(max_size=3),
)
IDENTS = st.lists(IDENT_PIECES, max_size=8).map("".join)


@needs_native
@settings(max_examples=400)
@given(st.lists(st.tuples(IDENTS, IDENTS), max_size=12))
def test_class_id_flags_equal_pythons(pairs: list[tuple[str, str]]) -> None:
    classes, ids = [c for c, _ in pairs], [i for _, i in pairs]
    assert idents.ident_flags(classes, ids) == idents.ident_flags_python(classes, ids)


@needs_native
@settings(max_examples=200)
@given(st.lists(st.tuples(IDENTS, IDENTS), min_size=1, max_size=6), st.lists(st.integers(0, 5), max_size=40))
def test_class_id_flags_of_repeated_pairs_equal_pythons(pairs: list[tuple[str, str]], at: list[int]) -> None:
    # a page repeats its pairs as equal strs that are distinct objects (each read from its own element)
    chosen = [pairs[k % len(pairs)] for k in at]
    classes, ids = ["".join(list(c)) for c, _ in chosen], ["".join(list(i)) for _, i in chosen]
    assert idents.ident_flags(classes, ids) == idents.ident_flags_python(classes, ids)


@needs_native
def test_class_id_flags_are_kept_per_pair_not_per_joined_string() -> None:
    # the kept pairs are the class's and the id's bytes one after the other: where the class ends matters
    pairs = [("hentr", "y"), ("hentry", ""), ("", "hentry"), ("h", "entry"), ("hentr", "y")]
    for order in (pairs, pairs[::-1]):
        classes, ids = [c for c, _ in order], [i for _, i in order]
        assert idents.ident_flags(classes, ids) == idents.ident_flags_python(classes, ids)


@needs_native
def test_class_id_flags_stay_pythons_when_the_kept_pairs_are_emptied() -> None:
    # more distinct pairs than the C table keeps (it is emptied when half of its 32,768 slots are used)
    words = ("nav", "entry-content", "comment-list", "hentry", "x")
    classes = [f"w{k} {words[k % 5]}" for k in range(40_000)]
    ids = [("", "main", "post-7")[k % 3] for k in range(40_000)]
    for _ in range(2):
        assert idents.ident_flags(classes, ids) == idents.ident_flags_python(classes, ids)


@needs_native
def test_class_id_flags_of_a_huge_attribute_come_from_the_reference() -> None:
    huge = "main-nav " * 1000 + "hentry"
    assert idents.ident_flags([huge, "x" * 5000], ["", "comments"]) == bytes(
        [idents.GOOD | idents.POST, idents.COMMENT]
    )


@needs_native
def test_class_id_flags_beyond_ascii_take_every_bit_of_the_reference() -> None:
    # a class beyond ASCII is flagged by the Python reference, whose gallery bit (32) the C code once refused
    assert idents.ident_flags(["slides-\u00fc menu"], [""]) == bytes([idents.BAD | idents.GALLERY])


# Word counts: texts of stopwords, symbols, digits, apostrophes and characters whose case mapping is odd.
WORD_PIECES = st.one_of(
    st.sampled_from(sorted(lang.STOPWORDS["en"] | lang.STOPWORDS["de"])),
    st.sampled_from([*quality.SYMBOLS, "’", "'", "\x01", "\x03", "İ", "Σ", "ß", "٣", "7", "\u2003", "\x1c"]),
    st.text(max_size=4),
)
TEXTS = st.lists(st.lists(WORD_PIECES, max_size=12).map(" ".join).map(str.strip), max_size=6)


@needs_native
def test_the_classification_canaries_hold_a_languages_scaled_good_stopword_share() -> None:
    from worker.clean import classify

    english, polish = h.STOPWORD_GOOD_SHARE["en"], h.STOPWORD_GOOD_SHARE["pl"]
    assert polish != english
    canaries = native._decide_canaries()
    scaled = [args for args in canaries if args[-1] == polish]
    assert scaled
    assert any(args[-1] == english for args in canaries)
    # the scaled share decides a canary otherwise than the English one, and C decides every canary alike
    assert any(classify.decide_python(*a) != classify.decide_python(*a[:-1], english) for a in scaled)
    for args in canaries:
        assert classify._decide(*args) == classify.decide_python(*args)


@needs_native
def test_a_good_stopword_share_other_than_a_float_is_left_to_python() -> None:
    text = "The council met on Tuesday and agreed that the old bridge would be closed until spring."
    cols = ([text], ["paragraph"], [len(text)], [16], [0], [0.0], [5], [0], [0], None, None)
    assert native._native.decide(*cols, 0.22) == ([0], 1)
    assert native._native.decide(*cols, None) == ([0], 1)
    for good_share in ((0.15, 0.22), [0.22], (0.22,), 0, 1, "pl"):
        assert native._native.decide(*cols, good_share) is None, good_share


@needs_native
def test_stop_hits_read_each_stoplist_table_they_are_given() -> None:
    # the C code keeps one table of the last lists_of: another dict (or the same one grown) is read anew
    ext = native._native
    assert ext.stop_hits(["a b a", "c"], {"a": (0,)}, 1) == ([3, 1], [2, 0])
    table = {"b": (0, 1), "a": ()}
    assert ext.stop_hits(["a b a", "c"], table, 2) == ([3, 1], [1, 1, 0, 0])
    table["c"] = (1,)
    assert ext.stop_hits(["a b a", "c"], table, 2) == ([3, 1], [1, 1, 0, 1])
    assert lang.stop_hits(["the cat", "der Hund"]) == lang.stop_hits_python(["the cat", "der Hund"])


@needs_native
@settings(max_examples=300)
@given(TEXTS)
def test_word_counts_equal_pythons(texts: list[str]) -> None:
    assert lang.stop_hits(texts) == lang.stop_hits_python(texts)
    texts = [t for t in texts if t]
    stoplist = lang.STOPWORDS["en"]
    zipf = {w: 1.0 + len(w) / 7.0 for w in sorted(stoplist)[::2]}
    for table, model in ((None, None), (stoplist, zipf)):
        assert quality._counts(texts, table, model) == quality.count_python(texts, table, model)
        counts = quality.Counts(*quality._counts(texts, table, model))
        built, want = quality._per_text(counts), quality.per_text_python(counts)
        assert built == want
        assert all(type(q) is Quality for q in built)


@needs_native
@settings(max_examples=100)
@given(st.lists(st.lists(st.sampled_from(sorted(wordmodel.zipf_table("de") or ["x"])[::75]), max_size=12)))
def test_word_counts_in_a_real_model_equal_pythons(words: list[list[str]]) -> None:
    # the C tables hold the stoplist and the Zipf model of a language as read from wordfreq's data
    texts = [" ".join(w).title() for w in words if w]
    stoplist, zipf = lang.STOPWORDS["de"], wordmodel.zipf_table("de")
    assert quality._counts(texts, stoplist, zipf) == quality.count_python(texts, stoplist, zipf)


@needs_native
def test_word_tables_are_read_per_pair_and_again_when_they_grow() -> None:
    model = {"cat": 4.5, "dog": 4.0}
    counts = native._native.quality_counts
    assert counts(["Cat dog cow"], None, model)[7] == [8.5]
    assert counts(["Cat dog cow"], frozenset({"cow"}), model)[5] == [1]
    model["cow"] = 3.0
    assert counts(["Cat dog cow"], None, model)[7] == [11.5]
    with pytest.raises(TypeError, match="float"):
        counts(["a"], None, {"a": 1})


# The guard's attribute count of a long tag.
ATTRIBUTE_PIECES = st.one_of(
    st.sampled_from(["a", "data-x", " ", "=", " = ", '"', "'", "/", ">", "\t", "\u3000", "\u00a0", 'x"y']),
    st.text(max_size=3),
)


@needs_native
@settings(max_examples=400)
@given(st.lists(ATTRIBUTE_PIECES, max_size=30).map("".join), st.integers(0, 5), st.integers(0, 5))
def test_attribute_counts_equal_pythons(text: str, lo: int, cut: int) -> None:
    close = max(lo, len(text) - cut)
    assert guard._count_attributes(text, lo, close) == guard._count_attributes_python(text, lo, close)


# The checks that keep a wrong accelerator off.
def test_a_walk_that_differs_from_the_reference_is_turned_off() -> None:
    if native._native is None:
        pytest.skip("not built")

    def wrong(body: object, budget: Budget, max_nodes: int = 1 << 62) -> Segmentation:
        seg = segment_python(body, budget, max_nodes)  # type: ignore[arg-type]
        seg.chars = [c + 1 for c in seg.chars]
        return seg

    problem = native._check_segment(sg._TABLES, Segmentation, wrong)
    assert problem is not None
    assert "chars" in problem


def test_a_field_the_c_walk_does_not_fill_turns_it_off() -> None:
    if native._native is None:
        pytest.skip("not built")

    @dataclass
    class Wider(Segmentation):
        comments: list[int]

    problem = native._check_segment(sg._TABLES, Wider, segment_python)
    assert problem is not None
    assert "comments" in problem


# The shared pages, when ../shared is there: every page, both paths, every field.
DATASETS = ("scrapinghub_aeb", "dragnet", "cleaneval_dev", "trafilatura_eval", "htmldate_eval")


@needs_native
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data is absent")
def test_every_shared_page_segments_fingerprints_flags_and_scores_alike() -> None:
    pages = 0
    for name in DATASETS:
        path = SHARED / name / "pages.jsonl.gz"
        if not path.exists():
            continue
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                html = json.loads(line).get("html")
                if not html:
                    continue
                tree = dom.parse(html)
                if tree.body is None:
                    continue
                ours, ref = segment(tree.body, Budget(NO_LIMIT)), segment_python(tree.body, Budget(NO_LIMIT))
                assert _columns(ours) == _columns(ref), (name, pages)
                flags = idents.ident_flags(ours.classes, ours.ids)
                assert flags == idents.ident_flags_python(ours.classes, ours.ids), (name, pages)
                assert sc.score(ours) == sc.score_python(ref, flags), (name, pages)
                got, want = fp.fingerprint_segmentation(ours), fp.fingerprint_segmentation_python(ref)
                assert (got.elems, got.text_fps, got.elem_paths) == (
                    want.elems,
                    want.text_fps,
                    want.elem_paths,
                ), (
                    name,
                    pages,
                )
                pages += 1
    assert pages > 1000


@needs_native
def test_a_site_cleans_alike_on_both_paths() -> None:
    article = (
        "<p>The council said on Tuesday that the bridge would open in spring, after two years of delays.</p>"
    )
    nav = '<nav><ul><li><a href="/">Home</a></li><li><a href="/n">News</a></li></ul></nav>'
    bodies = [f"{nav}<div class='post'><h1>Story {i}</h1>{article * (i % 3 + 1)}</div>" for i in range(8)]
    pages = [
        Page(id=str(i), url=f"https://ex.org/{i}", site="ex.org", html=f"<html><body>{body}</body></html>")
        for i, body in enumerate(bodies)
    ]
    native_docs = [clean_page(p, memory) for memory in [SiteMemory()] for p in pages]
    with native.python_only():
        python_docs = [clean_page(p, memory) for memory in [SiteMemory()] for p in pages]
    strip = [(d.text, d.method, d.blocks, d.template) for d in native_docs]
    assert strip == [(d.text, d.method, d.blocks, d.template) for d in python_docs]


def test_a_stage_whose_check_fails_or_raises_is_off_with_the_reason(caplog: pytest.LogCaptureFixture) -> None:
    before = native.status()
    try:
        with caplog.at_level("WARNING", logger="worker.clean.native"):
            assert not native._passes("probe", "probe off", lambda: "fields differ")
            assert native.status()["probe"] == "fields differ"

            def broken() -> str | None:
                raise ValueError("bad layout")

            assert not native._passes("probe", "probe off", broken)
            assert native.status()["probe"] == "ValueError: bad layout"
        assert [r.getMessage() for r in caplog.records] == [
            "probe off: fields differ",
            "probe off: ValueError: bad layout",
        ]
        assert native._passes("probe", "probe off", lambda: None)
        assert native.status()["probe"] == "native"
    finally:
        native._STATUS.clear()
        native._STATUS.update(before)


# Marked elements (worker/clean/meta/marked.py): the metadata's scans that need strings, not nodes.
# (repeated and cut words, and a value longer than any buffer the scan might fold it in)
MARK_WORDS = ["date", "DATE", "upDated", "meta", "post-meta published", "Zeit time", "bylineX", "dÄte", "x",
              "datedate", "dat", "tim", "x" * 520 + "Time"]  # fmt: skip
MARK_ATTRS = st.lists(
    st.tuples(st.sampled_from(["class", "id", "title"]), st.one_of(st.none(), st.sampled_from(MARK_WORDS))),
    max_size=3,
    unique_by=lambda kv: kv[0],
).map(attribute_list)
MARK_LEAF = st.one_of(
    TEXT,
    st.sampled_from(
        ["<script>s()</script>", "<style>p{}</style>", "<noscript>n</noscript>", "<!-- c -->",
         "<template><p class=date>t</p></template>", "<svg><script>q</script><style>z</style></svg>",
         "<time>3 May</time>"]
    ),
)  # fmt: skip
MARK_TREES = html_trees(MARK_LEAF, st.sampled_from(["div", "p", "span", "noscript", "time", "a"]), MARK_ATTRS)
MARKS = [
    collect.DATE_MARKS,
    collect.SKIPPED_MARKS,
    Marks(("time", "script"), ("meta", "meta"), ("date", "x")),
]


@needs_native
@settings(max_examples=300)
@given(
    st.lists(MARK_TREES, min_size=1, max_size=4),
    MARK_ATTRS,
    st.sampled_from(MARKS),
    st.integers(0, 14),
    st.integers(0, 40),
)
def test_marked_elements_equal_lexbors_css_scan(
    parts: list[str], body_attrs: str, marks: Marks, limit: int, max_chars: int
) -> None:
    body = LexborHTMLParser(f"<html><body{body_attrs}>{''.join(parts)}</body></html>").body
    assert body is not None
    assert mk.marked(body, marks, limit, max_chars) == mk.marked_python(body, marks, limit, max_chars)
    assert mk.marked(body, marks, 1 << 62, 1 << 62) == mk.marked_python(body, marks, 1 << 62, 1 << 62)


@needs_native
def test_an_element_is_marked_once_per_word_it_holds() -> None:
    body = LexborHTMLParser('<body><p class="post-meta published" id="date">x</p></body>').body
    assert body is not None
    assert mk.marked(body, collect.DATE_MARKS, 12, 800) == [("post-meta published", "date", "x")] * 3
    assert mk.marked(body, collect.DATE_MARKS, 2, 800) == [("post-meta published", "date", "x")] * 2
    assert mk.marked(body, collect.DATE_MARKS, 12, 0) == [("post-meta published", "date", None)] * 3


# The walks from the headline (worker/clean/meta/header.py), from every element of generated pages.
HEADER_LEAF = st.one_of(
    TEXT,
    st.sampled_from(
        ["<h1>Title <small>02.02.2022</small></h1>", "<nav><a>Home</a> 1.1.2020</nav>", "<br>",
         "<script>x()</script>", "<!-- c -->", "<svg><text>no</text></svg>", "<template>t</template>",
         "By Jane | 3 May 2020"]
    ),
)  # fmt: skip
HEADER_TREES = html_trees(
    HEADER_LEAF, st.sampled_from(["div", "p", "span", "nav", "h1", "style"]), st.just("")
)


@needs_native
@settings(max_examples=200)
@given(st.lists(HEADER_TREES, min_size=1, max_size=4), st.sampled_from([0, 1, 9, 40, 150, 500]))
def test_header_walks_equal_pythons(parts: list[str], limit: int) -> None:
    body = LexborHTMLParser(f"<html><body>{''.join(parts)}</body></html>").body
    assert body is not None
    for node in native._nodes(body):
        assert hd._after(node, limit) == hd._after_python(node, limit)
        assert hd._before(node, limit) == hd._before_python(node, limit)


@needs_native
def test_every_character_that_lower_changes_is_lowered_before_it_is_counted() -> None:
    # the C passes skip str.lower for a text whose characters beyond ASCII lower() leaves alike: every code
    # point it changes must make them lower the text (a token holding it then matches its lower case)
    changed = [chr(c) for c in range(128, sys.maxunicode + 1) if chr(c).lower() != chr(c)]
    texts = [f"Xa{c}b" for c in changed]
    model = {f"xa{c.lower()}b": 1.0 + k / 4096 for k, c in enumerate(changed)}
    assert quality._counts(texts, None, model) == quality.count_python(texts, None, model)
    table = {f"xa{c.lower()}b": (0,) for c in changed}
    _, hits = native._native.stop_hits(texts, table, 1)
    assert hits == [sum(w in table for w in t.lower().split()) for t in texts]
    assert all(hits)


# The selection of elements (worker/clean/meta/select.py): the metadata's scans of <head> and <body>, whose
# nodes the dispatch reads. Attributes and values in every case and shape the tests look at: words across
# whitespace lexbor splits at and that it does not (\v, \xa0), substrings, valueless and empty attributes.
SELECT_VALUES = ["author", "Author", "AUTHOR", "x author", "author\ty", "x\vauthor", "authors", "\xa0author",
                 "application/ld+json", "LD+JSON", "ld+jso", "", "k\u212author",
                 # past the sixteen bytes the word test reads a step: before, across and after the step's end
                 "entry-meta by-author author", "aaaaaaaaaaaaa author", "aaaaaaaaaaaaaaaaAuthor",
                 "aaaaaaaaaaaaaaaaaaaauthor", "post-author-name vcard",
                 "a a a a a a a a a a a a a author x"]  # fmt: skip
SELECT_ATTRS = st.lists(
    st.tuples(
        st.sampled_from(["class", "rel", "type", "itemprop", "property", "content", "title", "data-x", "id"]),
        st.one_of(st.none(), st.sampled_from(SELECT_VALUES)),
    ),
    max_size=4,
).map(attribute_list)
SELECT_LEAF = st.one_of(
    TEXT,
    st.sampled_from(
        ["<meta name=a content=b>", '<link rel="canonical">', "<title>t</title>", "<!-- c -->",
         "<template><p class=author>t</p></template>", '<svg><a rel="AUTHOR">s</a><title>x</title></svg>',
         "<math><mi class=author>m</mi></math>", "<time>3 May</time>"]
    ),
)  # fmt: skip
SELECT_TREES = html_trees(
    SELECT_LEAF,
    st.sampled_from(["div", "a", "meta", "script", "time", "abbr", "h1", "link", "title", "span", "svg"]),
    SELECT_ATTRS,
)
SELECTORS = [
    collect.HEAD,
    collect.BODY,
    sl.Selector(
        (
            sl.Compound(attrs=(sl.Attr("type", "~=", "author"), sl.Attr("data-x", "*=", "auth"))),
            sl.Compound("span", (sl.Attr("id", "*=", "AUTH", any_case=True),), cls="Author"),
            sl.Compound(attrs=(sl.Attr("rel", "*=", "author"),)),
        )
    ),
]


@needs_native
@settings(max_examples=300)
@given(
    st.lists(SELECT_TREES, min_size=1, max_size=4),
    st.sampled_from(
        ["", "<!DOCTYPE html>", '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">']
    ),
    SELECT_ATTRS,
    st.sampled_from(SELECTORS),
)
def test_selected_elements_equal_lexbors_css_scan(
    parts: list[str], doctype: str, body_attrs: str, selector: sl.Selector
) -> None:
    tree = LexborHTMLParser(
        f"{doctype}<html><head>{''.join(parts)}</head><body{body_attrs}>{''.join(parts)}</body></html>"
    )
    for root in (tree.head, tree.body, tree.root):
        assert root is not None
        got, want = sl.select(root, selector), sl.select_python(root, selector)
        assert [n.mem_id for n in got] == [n.mem_id for n in want]
        assert all(n.parser is tree and n.attributes == w.attributes for n, w in zip(got, want, strict=True))


# The class word test reads sixteen bytes a step: "author" starting at every offset around a step's end, as
# the whole value, after a word and before one.
@needs_native
@pytest.mark.parametrize("before", ["", "x ", "Author-", "a"])
def test_a_class_word_at_every_offset_is_selected_as_lexbor_selects_it(before: str) -> None:
    classes = [f"{'a' * k} {before}author{tail}" for k in range(24) for tail in ("", " x", "s")]
    items = "".join(f'<p class="{c}">t</p>' for c in classes)
    body = LexborHTMLParser(f"<html><body>{items}</body></html>").body
    assert body is not None
    got, want = sl.select(body, collect.BODY), sl.select_python(body, collect.BODY)
    assert [n.mem_id for n in got] == [n.mem_id for n in want]
    assert len(got) == (48 if before in ("", "x ") else 0)


@needs_native
def test_an_element_is_selected_once_per_compound_that_names_it() -> None:
    body = LexborHTMLParser('<body><meta itemprop="x" property="y" content="z"></body>').body
    assert body is not None
    assert [n.tag for n in sl.select(body, collect.BODY)] == ["meta"] * 3


# The scans that read <meta> elements in C (worker/clean/meta/collect.py's scan): keys of every attribute
# that names one, in any case, with whitespace of every kind, schema.org's prefixes, characters beyond ASCII
# whose lower case is ASCII, keys the tables read and keys they do not; contents valueless and empty.
META_KEYS = ["og:title", " OG:Title\t", "description", "author", "date", "\x1cdate\x1f", "\u00a0date", "",
             "viewport", "schema:datePublished", "http://schema.org/dateModified", "https://schema.org/x:y/z",
             "\u212aeywords", "\u0130mage", "keywords", "article:published_time", "SCHEMA:headline",
             "k" * 300]  # fmt: skip
META_ATTRS = st.lists(
    st.tuples(
        st.sampled_from(["property", "name", "itemprop", "http-equiv", "content", "class", "rel"]),
        st.one_of(
            st.none(), st.sampled_from([*META_KEYS, "2020-01-02", "author", "datePublished", "HEADLINE"])
        ),
    ),
    max_size=5,
).map(attribute_list)
META_TREES = html_trees(
    st.one_of(TEXT, st.sampled_from(["<title>t</title>", '<link rel="canonical" href=x>', "<!-- c -->"])),
    st.sampled_from(["meta", "span", "time", "h1", "svg", "a"]),
    META_ATTRS,
)


@needs_native
@settings(max_examples=300)
@given(
    st.lists(META_TREES, min_size=1, max_size=4),
    st.sampled_from(["", "<!DOCTYPE html>"]),
    st.sampled_from([collect.HEAD, collect.BODY]),
)
def test_scanned_metas_equal_pythons(parts: list[str], doctype: str, selector: sl.Selector) -> None:
    tree = LexborHTMLParser(
        f"{doctype}<html><head>{''.join(parts)}</head><body>{''.join(parts)}</body></html>"
    )
    for root in (tree.head, tree.body, tree.root):
        assert root is not None
        got, want = collect.scan(root, selector), collect.scan_python(root, selector)
        assert [g if isinstance(g, tuple) else g.mem_id for g in got] == [
            w if isinstance(w, tuple) else w.mem_id for w in want
        ]


@needs_native
def test_a_meta_is_read_once_per_compound_that_names_it_and_only_for_a_key_that_is_read() -> None:
    body = LexborHTMLParser(
        '<body><meta itemprop="x" property="schema:datePublished" content="2020">'
        '<meta name=viewport content=w><meta name=" Schema:Description " content="d"></body>'
    ).body
    assert body is not None
    assert collect.scan(body, collect.BODY) == [("datepublished", "2020")] * 3 + [("description", "d")]


@needs_native
def test_an_element_is_scanned_only_when_its_itemprop_is_read_or_its_tag_is() -> None:
    body = LexborHTMLParser(
        '<body><span itemprop="name">n</span><span itemprop="DatePublished">d</span>'
        '<time itemprop="x">t</time><p class="author" itemprop="url">u</p><p itemprop>v</p></body>'
    ).body
    assert body is not None
    # the <time> twice: as a <time> and as an element with an itemprop
    assert [n.text() for n in collect.scan(body, collect.BODY)] == ["d", "t", "t"]


def test_a_selector_names_standard_tags_only() -> None:
    with pytest.raises(ValueError, match="no standard tag"):
        sl.Selector((sl.Compound("x-custom"),)).native_args()


# The text without marked elements' (worker/clean/meta/marked.py's unmarked_text, the text fallback's
# visible text): scripts whose text is also written outside them, short and empty ones, nesting.
UNMARK_LEAF = st.one_of(
    TEXT,
    st.sampled_from(
        ["<script>var x = 1;</script>", "var x = 1;", "<style>p{}</style>", "<script>ab</script>",
         "<noscript><p>no script</p></noscript>", "<svg><style>svg style</style></svg>", "<!-- c -->",
         "<template>t</template>", " \u3000\n", "über 漢字 😀", "<script></script>", "<br>",
         # text holding a script's ";{}=" bytes, or its start, without its text, or with it shifted
         "var y = 1;", "var x", "x = 2; var x = 1;", "<script>{a; b = 2}</script>", "{a; b = 2}", "{a; b"]
    ),
)  # fmt: skip
UNMARK_TREES = html_trees(UNMARK_LEAF, st.sampled_from(["div", "p", "span", "script", "style"]), st.just(""))


@needs_native
@settings(max_examples=300)
@given(
    st.lists(UNMARK_TREES, min_size=1, max_size=4), st.sampled_from([collect.SKIPPED_MARKS, Marks(("p",))])
)
def test_text_without_marked_elements_equals_pythons(parts: list[str], marks: Marks) -> None:
    body = LexborHTMLParser(f"<html><body>{''.join(parts)}</body></html>").body
    assert body is not None
    for node in native._nodes(body):
        assert mk.unmarked_text(node, marks) == mk.unmarked_text_python(node, marks)


@needs_native
def test_text_that_is_not_utf8_is_left_to_the_reference() -> None:
    body = LexborHTMLParser(b"<body><p>caf\xe9</p><script>var x = 10;</script>tail</body>").body
    assert body is not None
    assert mk.unmarked_text(body, collect.SKIPPED_MARKS) == mk.unmarked_text_python(
        body, collect.SKIPPED_MARKS
    )
    assert mk.unmarked_text(body, collect.SKIPPED_MARKS) == "caf\ufffd tail"


def test_words_in_class_or_id_are_not_cut_out_of_a_text() -> None:
    body = LexborHTMLParser("<body><p class=date>x</p></body>").body
    assert body is not None
    if mk.unmarked_text is not mk.unmarked_text_python:
        with pytest.raises(ValueError, match="only tags"):
            mk.unmarked_text(body, collect.DATE_MARKS)


# Ancestors named like a comment (worker/clean/meta/collect.py's _in_comment), from every node.
ANCESTOR_ATTRS = st.lists(
    st.tuples(
        st.sampled_from(["class", "id", "title"]),
        st.one_of(
            st.none(),
            st.sampled_from(["comment", "x-COMMENTS", "Comm ent", "\u0130", "\u212acomment", "", "c"]),
        ),
    ),
    max_size=3,
    unique_by=lambda kv: kv[0],
).map(attribute_list)
ANCESTOR_TREES = html_trees(
    st.sampled_from(["<time>1</time>", "x", "<!-- c -->"]),
    st.sampled_from(["div", "p", "li"]),
    ANCESTOR_ATTRS,
)


@needs_native
@settings(max_examples=200)
@given(st.lists(ANCESTOR_TREES, min_size=1, max_size=4), ANCESTOR_ATTRS)
def test_ancestors_named_like_a_comment_equal_pythons(parts: list[str], root_attrs: str) -> None:
    tree = LexborHTMLParser(f"<html{root_attrs}><body{root_attrs}>{''.join(parts)}</body></html>")
    assert tree.root is not None
    for node in native._nodes(tree.root):
        assert collect._in_comment(node) == collect.in_comment_python(node)


def _guard_scans_with(nesting: native.NestingCounts) -> native.NestingCounts:
    """The nesting counts guard_scans picks when `nesting` is the Python reference."""
    return native.guard_scans(
        guard._scan_python,
        nesting,
        guard._count_attributes_python,
        guard.LONG_TAG_CHARS,
        guard.ATTRIBUTE_PROBE_CHARS,
        guard.NEVER_OPEN,
        guard.FORMATTING_NAMES,
        guard.OPTION_SPELLINGS,
    )[1]


def _off_when(wrong: Callable[[str], bool]) -> native.NestingCounts:
    def nesting(markup: str) -> tuple[int, int, int]:
        steps, elements, options = guard._nesting_counts_python(markup)
        return steps + wrong(markup), elements, options

    return nesting


@needs_native
@pytest.mark.parametrize(
    "wrong",
    [
        lambda m: any(ord(c) > 0xFFFF for c in m),  # 4-byte strs only
        lambda m: any(0xFF < ord(c) <= 0xFFFF for c in m) and "<b" in m,  # 2-byte strs only
        lambda m: m.endswith("</"),  # a tag cut by the end, in the tail loop
        lambda m: "<option<option" in m,  # spellings without `>`
        lambda m: m.count("</p>") > 40,  # end tags below depth 0, many
    ],
)
def test_the_guard_canaries_catch_a_nesting_count_that_differs(
    wrong: Callable[[str], bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The nesting counts are compared on samples of the long canaries (native.NESTING_SAMPLE_CHARS).
    monkeypatch.setitem(native._STATUS, "guard", "native")
    assert _guard_scans_with(guard._nesting_counts_python) is not guard._nesting_counts_python
    assert _guard_scans_with(off := _off_when(wrong)) is off
    assert native._STATUS["guard"] != "native"


def test_a_nesting_sample_keeps_the_head_and_the_tail() -> None:
    n = native.NESTING_SAMPLE_CHARS
    assert native._nesting_sample("<b>" * 10) == "<b>" * 10
    text = "a" * n + "b" * n
    assert native._nesting_sample(text) == "a" * (n // 2) + "b" * (n // 2)


IDENT_TABLES = idents.TABLES


def test_the_class_id_canaries_look_every_word_up_and_read_every_table_every_way() -> None:
    pairs = set(native._ident_canaries(IDENT_TABLES))
    in_c = native.IDENT_READINGS[:-1]  # the last: beyond ASCII, the C code asks the reference
    for table in IDENT_TABLES:
        for word in table:  # every word looked up by the C code, in some shape and reading
            texts = [shape.format(word, word) for shape in native.IDENT_SHAPES]
            assert any(reading(text) in pairs for text in texts for reading in in_c), word
        for reading in native.IDENT_READINGS:
            texts = [shape.format(w, w) for w in table for shape in native.IDENT_SHAPES]
            assert any(reading(text) in pairs for text in texts), (sorted(table)[:3], reading(""))


@needs_native
def test_the_header_canaries_compare_each_walk_at_its_shipped_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(native._STATUS, "header", "native")

    def walks(after_at: int, before_at: int) -> tuple[native.HeaderWalk, native.HeaderWalk]:
        def after(node: LexborNode, limit: int) -> str:
            return hd._after_python(node, limit) + ("!" if limit == after_at else "")

        def before(node: LexborNode, limit: int) -> str:
            return hd._before_python(node, limit) + ("!" if limit == before_at else "")

        return after, before

    def chosen(
        after: native.HeaderWalk, before: native.HeaderWalk
    ) -> tuple[native.HeaderWalk, native.HeaderWalk]:
        skipped, stops = tuple(sorted(hd._SKIPPED_TAGS)), tuple(sorted(hd._STOP_TAGS))
        return native.header_walks(after, before, hd.HEADER_NODES_MAX, skipped, stops, (500, 150))

    assert chosen(hd._after_python, hd._before_python) != (hd._after_python, hd._before_python)
    for wrong in (walks(500, -1), walks(-1, 150), walks(7, -1), walks(-1, 0)):
        assert chosen(*wrong) == wrong


def test_the_selection_canaries_read_their_own_pages_every_way_and_the_trees_from_the_root() -> None:
    pages = native._tree_canaries(native.SELECT_CANARIES)
    own = len(native.SELECT_CANARIES)
    roots = [(tree, root.tag) for tree, root in native._canary_roots(pages, own)]
    assert len(roots) == 5 * own + len(pages) - own  # each mode from the root, one from head and body too
    assert sorted(tag for _, tag in roots[:5]) == ["body", "head", "html", "html", "html"]
    assert len({id(tree) for tree, _ in roots[: 5 * own]}) == 3 * own  # three modes
    assert all(tag == "html" for _, tag in roots[5 * own :])


@needs_native
@pytest.mark.parametrize(
    "wrong",
    [
        lambda root, limit, max_chars: limit == 1,  # a limit, on MARK_CANARIES
        lambda root, limit, max_chars: max_chars == 2,  # a text cut inside a character
        lambda root, limit, max_chars: root.tag == "body",  # from the body
        lambda root, limit, max_chars: root.css_first("title") is not None,  # a page of the segmentation's
    ],
)
def test_the_marked_element_canaries_catch_a_scan_that_differs(
    wrong: Callable[[LexborNode, int, int], bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(native._STATUS, "marked", "native")

    def reference(root: LexborNode, marks: Marks, limit: int, max_chars: int) -> list[mk.Marked]:
        got = mk.marked_python(root, marks, limit, max_chars)
        return got[1:] if got and wrong(root, limit, max_chars) else got

    assert native.marker(mk.marked_python, mk._CANARY_MARKS) is not mk.marked_python
    assert native.marker(reference, mk._CANARY_MARKS) is reference


def test_the_elements_made_in_one_document_have_create_tag_s_tag_ids() -> None:
    # the tag ids the cleaning core reads at import come from elements of one document (native.element),
    # not from create_tag's document for each: a standard tag's id is the same either way
    from selectolax.lexbor import create_tag

    from worker.clean.meta.select import STANDARD_TAG_IDS as STANDARD_IDS

    names = (
        h.BLOCK_TAGS | h.VOID_TAGS | (h.REMOVE_TAGS - {"-comment"}) | {"html", "body", "head", "td", "image"}
    )
    for name in sorted(names):
        made = native.element(name)
        assert made.tag == name == create_tag(name).tag
        assert made.tag_id == create_tag(name).tag_id < STANDARD_IDS, name
    assert native.element("div") is native.element("div")
    # a custom element's id is no standard one in either way (meta.select refuses it)
    assert native.element("my-widget").tag_id >= STANDARD_IDS
    assert create_tag("my-widget").tag_id >= STANDARD_IDS


# --- instances of the models' slotted dataclasses made in C (native.instance_maker, instances_maker) ---


def _same_fields(got: object, want: object) -> bool:
    names = [f.name for f in fields(want)]  # type: ignore[arg-type]
    return type(got) is type(want) and all(getattr(got, n) is getattr(want, n) for n in names)


@needs_native
def test_instance_makers_make_what_init_makes() -> None:
    from datetime import date

    from worker.clean import guard, pipeline, posts
    from worker.clean.meta import choose, dates, text
    from worker.models import NO_METADATA, Block, DocStats, Document, FoundDate, Post, TemplateInfo

    q = Quality(3, 4.0, 0.0, 0.0, None, 1.0, None)
    stats = DocStats(1, 2, 3, 4, 5.0, 6, 7)
    rows = (
        (pipeline._new_stats, DocStats, (1, 2, 3, 4, 5.0, 6, 7)),
        (dates._new_stamp, dates.Stamp, (date(2021, 3, 4), None, 0, None)),
        (dates._new_stamp, dates.Stamp, (date(2021, 3, 4), 13, 5, -120)),
        (text._new_text_date, text.TextDate, (date(2021, 3, 4), 17, "")),
        (choose._new_found, FoundDate, ("2021-03-04", "text:first")),
        (guard._new_verdict, guard.Verdict, ("parse", "<p>page</p>", "")),
        (quality._new_quality, Quality, (12, 4.5, 0.1, 0.0, None, 0.5, None)),
        (pipeline._new_info, TemplateInfo, (7, 3, None)),
        (posts._new_post, Post, ("Body.", None, "Jane Doe", None)),
        (
            pipeline._new_document,
            Document,
            (
                *("i", None, None, "", "t", (Block("paragraph", "t", q),), "density", stats, None, None),
                *("text", None, None, None, {"a": "b"}, NO_METADATA, (), (), q),
            ),
        ),
    )
    for make, cls, values in rows:
        assert _same_fields(make(*values), cls(*values)), cls
        named = dict(zip([f.name for f in fields(cls)], values, strict=True))
        assert _same_fields(make(**named), cls(**named)), cls
    # the plain defaults filled in, a default_factory's field given
    short = {"id": "i", "url": None, "site": None, "title": "", "text": "t", "blocks": (), "method": "d"}
    extra: dict[str, str] = {}
    made = pipeline._new_document(**short, stats=stats, extra=extra)
    assert _same_fields(made, Document(**short, stats=stats, extra=extra))
    assert _same_fields(pipeline._new_info(7, blocks_stripped=3), TemplateInfo(7, 3))
    kinds, texts, quals = ["heading", "paragraph"], ["T", "Body."], [None, q]
    got = pipeline._blocks((kinds, texts, quals))
    want = [Block(*row) for row in zip(kinds, texts, quals, strict=True)]
    assert len(got) == len(want)
    assert all(_same_fields(g, w) for g, w in zip(got, want, strict=True))
    assert pipeline._blocks(([], [], [])) == []


@needs_native
def test_instance_makers_refuse_what_they_cannot_make() -> None:
    from worker.clean import _native as ext
    from worker.models import Block, DocStats

    members = tuple(Block.__dict__[n] for n in ("kind", "text", "quality"))
    required = (members, members, members)  # no field has a default
    with pytest.raises(ValueError, match="differ in length"):
        ext.instances(Block, members, (["a"], ["b", "c"], [None]))
    with pytest.raises(TypeError, match="no slot of the class"):
        ext.instances(DocStats, members, (["a"], ["b"], [None]))
    with pytest.raises(TypeError, match="field 'quality' not given"):
        ext.instance(Block, members, required, "a", "b")
    with pytest.raises(TypeError, match="values for"):
        ext.instance(Block, members, required, "a", "b", None, None)
    with pytest.raises(TypeError, match="no field 'colour'"):
        ext.instance(Block, members, required, "a", "b", None, colour=1)
    with pytest.raises(TypeError, match="field 'text' given twice"):
        ext.instance(Block, members, required, "a", "b", None, text="c")
    with pytest.raises(TypeError, match="no slot of the class"):
        ext.instance(DocStats, members, required, "a", "b", None)
    # a keyword built at run time (not interned) is compared, not only tested by identity
    name = "".join(["qual", "ity"])
    made = ext.instance(Block, members, required, "a", "b", **{name: None})
    assert made == Block("a", "b", None)

    @dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("negative")

    before = dict(native._STATUS)
    try:
        make = native.instance_maker(Checked, (1,))
        assert make is Checked  # a class whose __init__ does more than set its fields is made by it
        assert native._STATUS["instance.Checked"] != "native"
    finally:
        native._STATUS.clear()
        native._STATUS.update(before)
