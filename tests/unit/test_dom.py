"""Parsing, node limits, title guess and pre-cleaning."""

from __future__ import annotations

import pytest
from selectolax.lexbor import LexborNode

from worker.clean import dom


def _visible(html: str) -> str:
    tree = dom.parse(html)
    dom.preclean(tree)
    assert tree.body is not None
    return dom.fold(tree.body.text(separator=" "))


def test_count_nodes_counts_elements_and_stops_at_limit() -> None:
    tree = dom.parse("<html><head></head><body>" + "<p>x</p>" * 50 + "</body></html>")
    assert dom.count_nodes(tree, 1000) == 53  # html, head, body + 50 p
    assert dom.count_nodes(tree, 10) == 10


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        (
            '<head><meta property="og:title" content=" Og  title "><title>T</title></head><h1>H</h1>',
            "Og title",
        ),
        ("<head><title>\n  Page \t title </title></head><body><h1>H</h1></body>", "Page title"),
        ("<body><h1>Only <b>a</b>  heading</h1></body>", "Only a heading"),
        ("<body><p>no title at all</p></body>", ""),
    ],
)
def test_title_prefers_og_then_title_then_h1(html: str, expected: str) -> None:
    assert dom.title(dom.parse(html)) == expected


@pytest.mark.parametrize(
    "junk",
    [
        "<script>var gone = 1;</script>",
        "<style>.gone { color: red }</style>",
        "<noscript>gone</noscript>",
        "<template><p>gone</p></template>",
        "<svg><text>gone</text></svg>",
        "<iframe>gone</iframe>",
        "<button>gone</button>",
        "<select><option>gone</option></select>",
        "<textarea>gone</textarea>",
        "<div hidden><p>gone</p></div>",
        '<div aria-hidden="true">gone</div>',
        '<div style="color: red; DISPLAY : none">gone</div>',
        '<span style="visibility:hidden">gone</span>',
    ],
)
def test_preclean_drops_invisible_text(junk: str) -> None:
    text = _visible(f"<html><body><p>kept before</p>{junk}<p>kept after</p></body></html>")
    assert "gone" not in text
    assert text == "kept before kept after"


def test_preclean_drops_comments_and_keeps_visible_styles() -> None:
    html = (
        '<body><!-- a comment --><p style="display: block">shown</p><div aria-hidden="false">too</div></body>'
    )
    tree = dom.parse(html)
    dom.preclean(tree)
    assert tree.body is not None
    assert "comment" not in tree.body.html
    assert dom.fold(tree.body.text(separator=" ")) == "shown too"


def test_preclean_keeps_forms_that_wrap_the_page() -> None:
    # ASP.NET pages put the whole body in one <form>; only the controls go.
    text = _visible("<body><form><p>article text</p><input value=x><label>Name</label></form></body>")
    assert text == "article text Name"


def test_nested_hidden_elements_are_removed_once() -> None:
    text = _visible(
        '<body><div hidden><p hidden>a</p><span style="display:none">b</span></div><p>c</p></body>'
    )
    assert text == "c"


def test_parse_survives_lone_surrogates_and_nul() -> None:
    tree = dom.parse("<p>a\ud800b\x00c</p>")
    assert tree.body is not None
    assert "a" in tree.body.text()


# The speed-only paths of pre-cleaning give the same tree as the plain ones.
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
