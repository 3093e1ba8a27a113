"""The speed-only paths of the cleaner give the same results as the plain ones."""

from __future__ import annotations

from selectolax.lexbor import LexborNode

from worker.clean import dom
from worker.clean.blocks import segment

PAGE = (
    "<html><head><title>T</title><script>var x = 1;</script><style>p {}</style></head><body>"
    "<!-- a comment --><div hidden><p>hidden <script>y()</script></p></div>"
    "<p>Kept <b>text</b><!-- inline comment --> here.<noscript>no js</noscript></p>"
    "<svg><title>icon</title><script>z()</script></svg>"
    "<p style='display: none'>gone<iframe src='x'></iframe></p><button>Click</button>"
    "<p>caf\u00e9 \u4e2d\u6587</p></body></html>"
)


def test_preclean_with_nodes_from_count_nodes_matches_plain_preclean() -> None:
    plain = dom.parse(PAGE)
    dom.preclean(plain)
    fast = dom.parse(PAGE)
    doomed: list[LexborNode] = []
    assert dom.count_nodes(fast, 10_000, doomed) == dom.count_nodes(dom.parse(PAGE), 10_000)
    assert {n.tag for n in doomed} == {"script", "style", "-comment", "noscript", "svg", "iframe", "button"}
    dom.preclean(fast, doomed)
    assert fast.html == plain.html
    assert "Kept" in (fast.html or "")
    assert "gone" not in (fast.html or "")


def test_parse_of_utf8_bytes_matches_parse_of_text() -> None:
    assert dom.parse(PAGE.encode("utf-8")).html == dom.parse(PAGE).html


def test_whitespace_nodes_between_inline_elements_count_as_written() -> None:
    # The walker skips whitespace-only text nodes while no text is pending; inside a run of inline
    # text they separate words and count, as written, towards the link characters.
    tree = dom.parse("<html><body>\n  <p>\n <a><b>foo</b>\n  <i>bar</i></a> baz</p>\n</body></html>")
    dom.preclean(tree)
    assert tree.body is not None
    (block,) = segment(tree.body, deadline=float("inf")).blocks
    assert block.text == "foo bar baz"
    assert (block.words, block.link_words, block.chars, block.link_chars) == (3, 2, 11, 9)
