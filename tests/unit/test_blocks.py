"""Segmentation into text blocks and their shallow features."""

from __future__ import annotations

from worker.clean import dom
from worker.clean.blocks import RawBlock, Segmentation, segment, stable_path


def _seg(body_html: str) -> Segmentation:
    tree = dom.parse(f"<html><body>{body_html}</body></html>")
    dom.preclean(tree)
    assert tree.body is not None
    return segment(tree.body, deadline=float("inf"))


def _texts(body_html: str) -> list[str]:
    return [b.text for b in _seg(body_html).blocks]


def _one(body_html: str) -> RawBlock:
    blocks = _seg(body_html).blocks
    assert len(blocks) == 1, blocks
    return blocks[0]


def test_block_tags_split_and_inline_tags_join() -> None:
    assert _texts("<div>Intro <b>bold</b><i>it</i> end<p>Para  one</p>tail</div>") == [
        "Intro boldit end",
        "Para one",
        "tail",
    ]


def test_double_br_splits_single_br_joins() -> None:
    assert _texts("<p>line one<br>line two<br> <br>next para</p>") == ["line one line two", "next para"]


def test_whitespace_is_folded() -> None:
    assert _texts("<p>\n  a\t\tb \u00a0 c\n</p>") == ["a b c"]


def test_kinds_come_from_the_innermost_kind_tag() -> None:
    seg = _seg(
        "<h2>Head</h2><ul><li>item</li></ul><blockquote><p>quoted</p></blockquote>"
        "<pre><code>x = 1</code></pre><table><tr><td>cell</td></tr></table><p>plain</p>"
        "<ul><li><h3>heading in item</h3></li></ul>"
    )
    assert [(b.kind, b.text) for b in seg.blocks] == [
        ("heading", "Head"),
        ("list_item", "item"),
        ("quote", "quoted"),
        ("code", "x = 1"),
        ("table_cell", "cell"),
        ("paragraph", "plain"),
        ("heading", "heading in item"),
    ]
    assert seg.blocks[0].heading
    assert not seg.blocks[1].heading


def test_link_density_counts_words_inside_links() -> None:
    b = _one('<p>one two three <a href="#">four five</a> six <a href="#">seven</a> eight</p>')
    assert (b.words, b.link_words) == (8, 3)
    assert b.link_density == 3 / 8
    assert _one('<p><a href="/">Home</a></p>').link_density == 1.0
    assert _one("<p>no links here</p>").link_density == 0.0


def test_character_counts_and_images_alt_out_of_text() -> None:
    b = _one('<p>caf\u00e9 <img alt="ALT TEXT" src="x.png"> ok</p>')
    assert b.text == "caf\u00e9 ok"
    assert b.chars == len("caf\u00e9 ok")


def test_element_ranges_cover_their_blocks() -> None:
    seg = _seg('<div id="a"><p>one</p><p>two</p></div><div id="b"><p>three</p></div>')
    by_id = {e.id_attr: e for e in seg.elems if e.id_attr}
    assert (by_id["a"].first_block, by_id["a"].end_block) == (0, 2)
    assert (by_id["b"].first_block, by_id["b"].end_block) == (2, 3)
    assert seg.elems[0].tag == "body"
    assert (seg.elems[0].first_block, seg.elems[0].end_block) == (0, 3)


def test_stable_path_keeps_handwritten_ids_and_classes() -> None:
    seg = _seg(
        '<div id="main"><article class="post x"><p>t</p></article><div id="ad-123"><p>u</p></div></div>'
    )
    paths = [stable_path(seg.elems, b.elem) for b in seg.blocks]
    assert paths == ["html>body>div#main>article.post>p", "html>body>div#main>div>p"]


def test_deep_nesting_does_not_recurse() -> None:
    texts = _texts("<div>" * 3000 + "deep" + "</div>" * 3000)
    assert texts == ["deep"]


def test_blocks_hidden_by_framework_classes_are_skipped() -> None:
    assert _texts('<p>shown</p><div class="intro sr-only"><p>gone</p></div><p class="d-none">gone</p>') == [
        "shown"
    ]
    assert _texts('<p class="none-of-these">kept</p><p class="hiddenness">kept too</p>') == [
        "kept",
        "kept too",
    ]
