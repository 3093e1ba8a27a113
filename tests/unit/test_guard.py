"""Guards before the parser: hostile markup is flattened (or refused) before lexbor sees it, real markup is
left alone, and the flat rewrite is something lexbor parses in linear time."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from worker.clean import guard
from worker.clean.pipeline import clean_page
from worker.models import Page
from worker.sample import sample_pages

PROSE = "<p>Plenty of words in a sentence that reads like prose, with commas, and a full stop.</p>"


def depth_of(markup: str) -> int:
    tree = LexborHTMLParser(markup)
    deepest = 0
    stack = [(tree.root, 1)] if tree.root is not None else []
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        child = node.child
        while child is not None:
            if child.tag not in ("-text", "-comment"):
                stack.append((child, depth + 1))
            child = child.next
    return deepest


# Each family is past a limit at n = 16,000 (see the table in worker/clean/guard.py).
HOSTILE: dict[str, Callable[[int], str]] = {
    "nested divs": lambda n: "<div>" * n + PROSE,
    "closed nested divs": lambda n: "<div>" * n + PROSE + "</div>" * n,
    "nested lists": lambda n: "<ul><li>" * (n // 2) + PROSE,
    "unclosed inline": lambda n: "".join(f"<{t}>" for t in ("b", "i", "span", "font") * (n // 4)) + PROSE,
    "formatting with attributes": lambda n: "".join(f"<b id={k}>" for k in range(n)) + PROSE,
    "stray end tags": lambda n: "<span>" * (n // 2) + "</i>" * (n // 2) + PROSE,
    "links around blocks": lambda n: "<a href=x><div>" * (n // 2) + PROSE,
    "a long select": lambda n: "<select>" + "<option>x</option>" * n + "</select>" + PROSE,
    "rebuilt formatting": lambda n: "<p>" + "".join(f"<b id={k}>" for k in range(256)) + "</p><p>x" * n,
    "many attributes": lambda n: "<div " + " ".join(f"a{k}" for k in range(n)) + ">" + PROSE + "</div>",
}


@pytest.mark.parametrize("family", sorted(HOSTILE))
def test_hostile_markup_is_flattened_and_keeps_its_text(family: str) -> None:
    markup = HOSTILE[family](16_000)
    verdict = guard.check(markup, max_nodes=200_000)
    assert verdict.action == "flatten", verdict
    assert verdict.reason
    assert depth_of(verdict.markup) <= 5  # html > body > p > a: nothing nests any more
    if "Plenty of words" in markup:
        assert "Plenty of words in a sentence" in LexborHTMLParser(verdict.markup).text()


@pytest.mark.parametrize("family", sorted(HOSTILE))
def test_small_versions_of_the_same_markup_are_parsed_as_they_are(family: str) -> None:
    markup = HOSTILE[family](40)
    assert guard.check(markup, max_nodes=200_000) == guard.Verdict("parse", markup)


def test_real_pages_are_parsed_as_they_are() -> None:
    for path in sample_pages():
        markup = path.read_bytes().decode("cp1252")
        assert guard.check(markup, max_nodes=200_000).action == "parse"


def test_more_start_tags_than_the_node_limit_are_refused_before_parsing() -> None:
    verdict = guard.check("<p>x" * 1_001, max_nodes=1_000)
    assert verdict.action == "reject"
    assert "1001 start tags" in verdict.reason
    # End tags do not count: these are 600 elements.
    assert guard.check("<b>x</b>" * 600, max_nodes=1_000).action == "parse"


def _no_replay(markup: str, max_nodes: int) -> guard.Shape:
    raise AssertionError("tier 3 should have passed this page")


def test_void_elements_and_comments_keep_tier_3_from_replaying(monkeypatch: pytest.MonkeyPatch) -> None:
    # What sent real pages to the replay: <br>, <img> and comments that never close, over thousands of tags.
    markup = "<div><p>a line<br>another<img src=x><!-- note --></p></div>" * 2_000
    monkeypatch.setattr(guard, "shape", _no_replay)
    assert guard.check(markup, max_nodes=200_000) == guard.Verdict("parse", markup)


def test_void_names_that_open_elements_in_svg_count_as_open() -> None:
    # steps: every `<` walks the open elements, the <svg> (1) and the inputs above it, or the <svg> alone
    assert guard._nesting_counts("<svg>" + "<input>" * 10)[0] == sum(range(1, 12))
    assert guard._nesting_counts("<svg>" + "<br>" * 10)[0] == 11


def test_rebuilt_formatting_past_the_node_limit_is_replayed_and_flattened() -> None:
    # 6,100 tags and ~300,000 elements: few nested tags (the work bound alone would pass it), but every
    # paragraph rebuilds 100 formatting elements.
    markup = "<p>" + "".join(f"<b id={k}>" for k in range(100)) + "</p><p>x" * 3_000
    verdict = guard.check(markup, max_nodes=200_000)
    assert verdict.action == "flatten"
    assert "elements" in verdict.reason


def test_long_runs_outside_tags_do_not_send_the_page_to_the_tokenizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    words = " ".join(f"w{k}" for k in range(800))
    calls: list[str] = []
    monkeypatch.setattr(guard, "most_attributes", lambda markup: calls.append(markup) or 0)
    for markup in (f"<script><!-- {words} --></script>", f"<p>{words} < {words}</p>"):
        assert guard.check(markup, max_nodes=200_000).action == "parse"
    assert calls == []
    # A `<` that starts no tag inside a tag's attribute list does not hide the tag.
    hidden = "<div " + " ".join(f"a{k}" for k in range(300)) + " <!x " + words + ">x</div>"
    monkeypatch.undo()
    assert guard.check(hidden, max_nodes=200_000).action == "flatten"


def test_shape_estimates_what_lexbor_builds() -> None:
    markup = "<html><body>" + "<div><p>a<b>b</b></p>" * 50 + "</div>" * 50
    found = guard.shape(markup, max_nodes=200_000)
    assert found.over is None
    assert found.depth == depth_of(markup)
    tree = LexborHTMLParser(markup)
    assert tree.root is not None
    real = sum(1 for _ in tree.root.traverse(include_text=False))
    assert real - 3 <= found.elements <= real + 3  # html/head/body are implied on both sides
    table = "<table>" + "<tr><td>x" * 20 + "</table>"
    assert guard.shape(table, 200_000).depth == depth_of(table)  # implied tbody


def test_shape_counts_rebuilt_formatting_elements() -> None:
    markup = "<p>" + "".join(f"<b id={k}>" for k in range(10)) + "</p><p>x" * 100
    found = guard.shape(markup, max_nodes=200_000)
    tree = LexborHTMLParser(markup)
    assert tree.root is not None
    real = sum(1 for _ in tree.root.traverse(include_text=False))
    assert found.elements >= real - 3 > 1_000  # 10 per paragraph


def test_shape_follows_the_adoption_agency() -> None:
    markup = "<a href=x><div>" * 200
    assert guard.shape(markup, 200_000).depth >= depth_of(markup) - 5
    closed = "<p><a href=x>link</a></p>" * 200
    assert guard.shape(closed, 200_000).depth == depth_of(closed)


def test_tags_inside_comments_scripts_and_attribute_values_do_not_count() -> None:
    inert = "<!-- <div><div> --><script>if (a<b) { x = '<div>'; }</script><p title='<div><div>'>t</p>"
    found = guard.shape(inert * 300, max_nodes=200_000)
    assert found.depth == depth_of(inert * 300)


def test_most_attributes_counts_real_tags_only() -> None:
    many = " ".join(f"a{k}=1" for k in range(600))
    assert guard.most_attributes(f"<div {many}>x</div>") == 600
    assert guard.most_attributes(f"<script>var s = '<div {many}>';</script>") == 0
    assert guard.most_attributes(f"<!-- <div {many}> -->") == 0


def test_the_flat_rewrite_keeps_kinds_the_title_and_links() -> None:
    markup = (
        "<html><head><title>The &amp; title</title><style>p{}</style></head><body>"
        "<div class=nav><a href='/'>Home</a> <a href='/x'>X</a></div>"
        "<h2 id=h>Heading</h2><ul><li>one<li>two</ul><pre>code\n  line</pre>"
        "<table><tr><td>cell</td></tr></table><script>document.write('<div>')</script>"
        "<p>para <b>bold</b> <span>span</span></p></body></html>"
    )
    flat = guard.flatten(markup)
    tree = LexborHTMLParser(flat)
    assert tree.css_first("title") is not None
    assert tree.css_first("title").text() == "The & title"  # type: ignore[union-attr]
    assert [n.text() for n in tree.css("a")] == ["Home", "X"]
    assert tree.css_first("h2").text() == "Heading"  # type: ignore[union-attr]
    assert [n.text() for n in tree.css("li")] == ["one", "two"]
    assert tree.css_first("pre").text() == "code\n  line"  # type: ignore[union-attr]
    assert "document.write" not in flat
    assert "p{}" not in flat
    assert "para bold span" in tree.text()
    assert "=" not in "".join(n.html or "" for n in tree.css("body *") if n.attributes)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "<div>",
                "</div>",
                "<a href=x>",
                "</a>",
                "<b class=k>",
                "</b>",
                "<li>",
                "<table>",
                "<td>",
                "<svg>",
                "<select>",
                "<option>",
                "<p>",
                "</p>",
                "<!--",
                "-->",
                "<script>",
                "</script>",
                "<h2>",
                "</h3>",
                "<pre>",
                "<title>",
                "'",
                '"',
                "=",
                ">",
                "<",
                "word ",
                "<x y='>'>",
            ]
        ),
        max_size=400,
    )
)
def test_whatever_goes_in_the_flat_rewrite_does_not_nest(parts: list[str]) -> None:
    flat = guard.flatten("".join(parts) * 5)
    assert depth_of(flat) <= 6
    assert guard.flatten(flat) == flat or depth_of(guard.flatten(flat)) <= 6


def test_clean_page_flattens_a_hostile_page_and_says_so() -> None:
    html = "<html><head><title>Deep</title></head><body>" + "<div>" * 100_000 + PROSE * 5
    doc = clean_page(Page(id="deep", html=html, url="https://example.com/deep", site="example.com"))
    assert doc.error is None
    assert "Plenty of words" in doc.text
    assert doc.extra["flattened"].startswith("nesting deeper than")
    assert doc.method == "density"


def test_clean_page_refuses_too_many_start_tags_before_parsing() -> None:
    from worker.clean.options import CleanOptions

    doc = clean_page(Page(id="many", html="<p>x" * 2_000), options=CleanOptions(max_nodes=1_000))
    assert doc.error == "too_many_nodes"
    assert "before parsing" in (doc.error_detail or "")
