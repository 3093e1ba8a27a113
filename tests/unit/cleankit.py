"""Small pages and helpers shared by the tests of the cleaning stages."""

from __future__ import annotations

from hypothesis import strategies as st
from selectolax.lexbor import LexborNode

from worker.clean import dom
from worker.clean.options import Budget
from worker.clean.segment import Segmentation, segment

PROSE = (
    "The council said on Tuesday that the new bridge would open in the spring, after two years of "
    "delays that were caused by the weather and by a shortage of steel."
)
PROSE2 = (
    "Residents who live near the river have complained about the noise, and some of them say that "
    "they were never asked what they thought about the project before it began."
)
PROSE3 = (
    "A spokesman for the builder told reporters that the work was now on schedule and that the "
    "final cost would be close to the budget which was agreed in the first place."
)
NAV = "<nav><ul>" + "".join(f'<li><a href="/{i}">Section {i}</a></li>' for i in range(8)) + "</ul></nav>"
SIDEBAR = (
    '<div class="sidebar"><h3>Most read</h3><ul>'
    + "".join(f'<li><a href="/s{i}">Another story headline number {i}</a></li>' for i in range(6))
    + "</ul></div>"
)


def seg_of(html: str) -> Segmentation:
    """The segmentation of a page (a whole document, or the inside of <body>)."""
    tree = dom.parse(html if "<body" in html else f"<html><body>{html}</body></html>")
    assert tree.body is not None
    return segment(tree.body, Budget(float("inf")))


def elem(seg: Segmentation, tag: str, ident: str = "") -> int:
    """The one element with this tag (and this id or first class, when given)."""
    hits = [
        i
        for i, t in enumerate(seg.tags)
        if t == tag and (not ident or ident in (seg.ids[i], seg.first_class(i)))
    ]
    assert len(hits) == 1, (tag, ident, hits)
    return hits[0]


def hidden_by_attribute(node: LexborNode) -> bool:
    """Hidden by attribute or inline style, as a browser reads them (the tests' own definition)."""
    attrs = node.attributes
    style = "".join((attrs.get("style") or "").split()).lower()
    return (
        "hidden" in attrs
        or (attrs.get("aria-hidden") or "").lower() == "true"
        or "display:none" in style
        or "visibility:hidden" in style
    )


def html_trees(
    leaf: st.SearchStrategy[str],
    tags: st.SearchStrategy[str],
    attrs: st.SearchStrategy[str],
    *,
    max_children: int = 5,
    max_leaves: int = 40,
) -> st.SearchStrategy[str]:
    """Generated HTML: `leaf` snippets nested in elements of `tags` carrying `attrs` (property tests)."""
    return st.recursive(
        leaf,
        lambda inner: st.builds(
            lambda kids, tag, attr: f"<{tag}{attr}>{''.join(kids)}</{tag}>",
            st.lists(inner, max_size=max_children),
            tags,
            attrs,
        ),
        max_leaves=max_leaves,
    )
