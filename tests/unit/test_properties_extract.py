"""Property tests: extraction never raises and never invents text.

"Visible text" here: the text nodes under <body> in document order, outside elements that are never text
(scripts, styles, widgets) or hidden, with every <br> read as a space, whitespace folded. Blocks
are contiguous runs of those text nodes (block boundaries only ever split runs), so every block must be a
substring of it. Text planted in scripts, styles and hidden elements must never come out.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from tests.unit.cleankit import hidden_by_attribute, html_trees
from worker.clean import dom
from worker.clean import heuristics as h
from worker.clean.options import Budget, CleanOptions
from worker.clean.pipeline import clean_page, extract
from worker.clean.segment import segment
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.models import Page

SECRET = "zqxhiddenzqx"

WORDS = st.sampled_from(
    [
        "the",
        "a",
        "news",
        "and",
        "of",
        "Home",
        "more",
        "über",
        "día",
        "réponse",
        "1999",
        "©",
        "&amp;",
        "&lt;",
        " ",
        "\n",
    ]
)
TEXT = st.lists(WORDS, min_size=0, max_size=30).map(" ".join)
CONTAINERS = st.sampled_from(
    [
        "div", "p", "span", "a", "b", "li", "ul", "h2", "td", "tr", "table", "blockquote", "pre", "article",
        "section", "nav", "footer", "font", "em", "form", "header", "aside",
    ]
)  # fmt: skip
ATTRS = st.sampled_from(
    [
        "",
        ' class="content"',
        ' class="sidebar"',
        ' id="comments"',
        ' class="share-bar"',
        ' href="/x"',
        ' id="main"',
    ]
)
HIDDEN = st.sampled_from(
    [
        f"<script>var s = '{SECRET}';</script>",
        f"<style>.{SECRET} {{}}</style>",
        f"<div hidden>{SECRET}</div>",
        f'<p style="display:none">{SECRET}</p>',
        f'<span aria-hidden="true">{SECRET}</span>',
        f"<noscript>{SECRET}</noscript>",
        f"<!-- {SECRET} -->",
        f"<textarea>{SECRET}</textarea>",
    ]
)


LEAF = st.one_of(TEXT, st.just("<br>"), st.just("<br><br>"), st.just('<img alt="alt text" src="x">'), HIDDEN)
TREES = html_trees(LEAF, CONTAINERS, ATTRS, max_children=6, max_leaves=60)


def _run(html: str, options: CleanOptions | None = None) -> tuple[LexborHTMLParser, list[str]]:
    tree = dom.parse(html)
    if tree.body is None:
        return tree, []
    budget = Budget(float("inf"))
    return tree, extract(segment(tree.body, budget), options or CleanOptions(), None, budget).texts


def _visible(tree: LexborHTMLParser) -> str:
    parts: list[str] = []

    def read(node: LexborNode) -> None:
        for child in node.iter(include_text=True):
            if child.tag == "-text":
                parts.append(child.text_content or "")
            elif child.tag == "br":
                parts.append(" ")
            elif (child.tag or "") not in h.REMOVE_TAGS and not hidden_by_attribute(child):
                read(child)

    if tree.body is not None:
        read(tree.body)
    return dom.fold("".join(parts))


@given(st.text(max_size=2000))
def test_arbitrary_strings_never_raise(text: str) -> None:
    _run(text)
    # not_html: a text whose head is >1% binary-data controls ("\x1f") is refused by design (binary_share)
    assert clean_page(Page(id="p", html=text)).error in (None, "empty_input", "too_many_nodes", "not_html")


@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    _run(data.decode("utf-8", "surrogateescape"))
    _run(data.decode("latin-1"))


@given(TREES, st.booleans())
def test_blocks_are_visible_text_and_hidden_text_never_leaks(body: str, keep_comments: bool) -> None:
    tree, blocks = _run(f"<html><body>{body}</body></html>", CleanOptions(keep_comments=keep_comments))
    visible = _visible(tree)
    for text in blocks:
        assert text
        assert text == dom.fold(text)
        assert text in visible
        assert SECRET not in text
        assert "alt text" not in text


@given(st.lists(TREES, min_size=1, max_size=4))
def test_unbalanced_and_concatenated_markup_never_raises(parts: list[str]) -> None:
    # Drop every other closing tag: lexbor repairs it, extraction must cope with the repair.
    html = "".join(p.replace("</div>", "", 1) for p in parts)
    _run(html)


@given(st.lists(TREES, min_size=1, max_size=6))
def test_a_site_of_generated_pages_cleans_without_errors(bodies: list[str]) -> None:
    # The template memory plans and strips on pages it has seen part of: never an error, never new text.
    memory = SiteMemory(MemoryConfig(min_pages=2))
    for i, body in enumerate([*bodies, *bodies]):  # every page twice, under another URL the second time
        html = f"<html><body>{body}</body></html>"
        doc = clean_page(
            Page(id=str(i), html=html, url=f"https://example.org/{i}", site="example.org"), memory
        )
        assert doc.error is None, doc.error_detail
        assert SECRET not in doc.text
