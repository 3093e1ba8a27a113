"""Parsing, and what of a page is text a reader sees (the segmentation steps over the rest)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from tests.unit.cleankit import PROSE, PROSE2, seg_of
from worker.clean import dom
from worker.clean.options import Budget
from worker.clean.pipeline import clean_page
from worker.clean.segment import segment
from worker.models import Page


def _visible(html: str) -> str:
    """The page's text as the pipeline reads it: pre-cleaned, then segmented."""
    return " ".join(seg_of(html).texts)


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
def test_invisible_text_is_never_read(junk: str) -> None:
    text = _visible(f"<html><body><p>kept before</p>{junk}<p>kept after</p></body></html>")
    assert "gone" not in text
    assert text == "kept before kept after"


def test_comments_are_not_text_and_visible_styles_stay() -> None:
    html = (
        '<body><!-- a comment --><p style="display: block">shown</p><div aria-hidden="false">too</div></body>'
    )
    assert _visible(html) == "shown too"


def test_forms_that_wrap_the_page_are_read() -> None:
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


def test_parse_of_utf8_bytes_matches_parse_of_text() -> None:
    page = "<html><body><p>caf\u00e9 \u4e2d\u6587</p><script>x()</script></body></html>"
    assert dom.parse(page.encode("utf-8")).html == dom.parse(page).html


def _read(tree: LexborHTMLParser) -> str:
    """The text the segmentation reads off a parsed page."""
    return " ".join(segment(tree.body, Budget(float("inf"))).texts) if tree.body is not None else ""


ARTICLE = f"<h1>Bridge opens</h1><p>{PROSE}</p><p>{PROSE2}</p>"


@pytest.mark.parametrize(
    ("page", "title"),
    [
        (f"<html><head><title>Bridge opens</head><body>{ARTICLE}</body></html>\n", "Bridge opens"),
        (f"<HTML><HEAD><TITLE>Bridge opens</HEAD><BODY>{ARTICLE}</BODY></HTML>", "Bridge opens"),
        (f"<html><head><title/></head><body>{ARTICLE}</body></html>", ""),
        (f"<html><head><title>T</title></head><body><!-- nav <p>x</p>{ARTICLE}</body></html>", "T"),
        (f"<html><head><title>T</title></head><body><!-- unclosed {ARTICLE}</body></html>", "T"),
        (f"<html><body><form><textarea>Search<p>{ARTICLE}</body></html>", None),
        (f"<html><body><xmp>{ARTICLE}</body></html>", None),
        (f"<html><body><script>var a = 1;{ARTICLE}</body></html>", None),
        (f"<title>T<body><textarea>u<div>{ARTICLE}</div>", "T"),  # two, one after the other
    ],
)
def test_markup_that_swallows_the_page_is_recovered(page: str, title: str | None) -> None:
    # lexbor, like today's browsers, runs these to the end of the file: the page would have no text (or,
    # for <xmp>, its markup as text).
    lost = _read(dom.parse(page))
    assert PROSE not in lost or "<p>" in lost
    tree, recovered = dom.parse_page(page)
    assert recovered >= 1
    text = _read(tree)
    assert PROSE in text
    assert PROSE2 in text
    assert "<p>" not in text
    if title is not None:
        assert tree.head is not None
        assert tree.head.text() == title


@pytest.mark.parametrize(
    "page",
    [
        f"<html><head><title>T</title></head><body>{ARTICLE}<script>var s = '<b>';</script></body></html>",
        f"<html><body>{ARTICLE}<!-- closed <p>x</p> --></body></html>",
        f"<html><body>{ARTICLE}<textarea>a <b>tag</b> as text</textarea></body></html>",
        f"<html><body>{ARTICLE}<script>if (a < b) {{}}",  # runs to the end, but holds no tag
        f"<html><body>{ARTICLE}<textarea>",
    ],
)
def test_closed_or_harmless_raw_text_is_left_alone(page: str) -> None:
    tree, recovered = dom.parse_page(page)
    assert recovered == 0
    assert tree.html == dom.parse(page).html


def test_a_swallowed_page_is_cleaned_and_says_so() -> None:
    page = f"<html><head><title>Bridge opens</head><body>{ARTICLE}</body></html>"
    doc = clean_page(Page(id="p", html=page))
    assert doc.title == "Bridge opens"
    assert PROSE in doc.text
    assert PROSE2 in doc.text
    assert "recovered" in doc.extra


PIECES = st.sampled_from(
    ["<title>", "</title>", "<textarea>", "</textarea>", "<script>", "</script>", "<!--", "-->", "<p>",
     "</p>", "<div>", "<xmp>", "<TITLE>", "<style>", "text", "a < b", ">", "\n", "<body>", "<!- -"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30))
def test_recovery_never_raises_and_is_bounded(pieces: list[str]) -> None:
    page = "".join(pieces)
    tree, recovered = dom.parse_page(page)
    assert 0 <= recovered <= dom.MAX_RECOVERIES
    if not recovered:
        assert tree.html == dom.parse(page).html


# What a head holds, and what ends the scan of it (dom.head_unread): every token it reads, in either case,
# character references, texts with markup, and the elements past which it stops.
HEAD_PIECES = st.sampled_from(
    ["<head>", "</head>", "<HEAD lang=en>", "<meta name=author content=Jo>", '<meta content="a>b" name=x>',
     "<meta property=og:title content=T>", "<title>T</title>", "<TITLE>a <script>b</script></TITLE>",
     "<script>f()</script>", "<script>a < b && c > d</script >", "<SCRIPT src=x.js></SCRIPT>",
     "<script>w('<!--')</script>", "<script>x</scripts></script>", "<style>p > a {}</style>",
     '<script type="application/ld+json">{"headline": "H"}</script>',
     '<script type="application/ld&#x2B;json">{"headline": "I"}</script>', "<link rel=icon href=i.png>",
     "<link rel=canonical href=/c>", "<LINK REL='Canonical' href=/d>", "<link rel='x&amp;canonical' href=/e>",
     "<link href='>' rel=stylesheet>", "<base href=/>", "<!-- c -->", "<!-->", "<!--->", "<!-- a --!>",
     "<!DOCTYPE html>", "<html>", " ", "\n", "\t", "text", "<noscript><style>n</style></noscript>",
     "<noscript>", "</noscript>", "<noscript><link rel=icon>\n<meta name=a content=b></noscript>",
     "<noscript><img src=i></noscript>",
     "<template><script>t()</script></template>", "<body>", "<p>p</p>", "<h1>H1</h1>", "<script>u()"]
)  # fmt: skip


def _read_of_head(tree: LexborHTMLParser) -> list[str]:
    """What of a head the pipeline reads: its <meta>s, title, JSON-LD and canonical link, and its end."""
    head = tree.head
    assert head is not None
    read = "meta, title, script[type*='ld+json' i], link[rel*='canonical' i]"
    return [node.html or "" for node in head.css(read)]


@settings(max_examples=400, deadline=None)
@given(st.lists(HEAD_PIECES, max_size=25))
def test_head_unread_leaves_out_only_what_nothing_reads(pieces: list[str]) -> None:
    page = "".join(pieces) + "<p>body text</p>"
    markup = page.encode("utf-8")
    unread = dom.head_unread(markup)
    assert unread == dom.head_unread_python(markup)  # the C scan, when built, and the reference
    whole, cut = dom.parse(markup), dom.parse(unread)
    assert cut.body is not None
    assert whole.body is not None
    assert cut.body.html == whole.body.html
    assert _read_of_head(cut) == _read_of_head(whole)
    assert dom.unswallowed(cut, page) == dom.unswallowed(whole, page)


def test_head_unread_cuts_the_heads_scripts_styles_and_links() -> None:
    page = (
        b"<!DOCTYPE html><html><head><meta charset=utf-8><title>T</title>\n<link rel=stylesheet href=a.css>\n"
        b"<link rel=canonical href=/a>\n<style>p { color: red }</style><script>var a = '</p>';</script>"
        b'<script type="application/ld+json">{"headline": "H"}</script></head>'
        b"<body><script>kept()</script><p>text</p></body></html>"
    )
    assert dom.head_unread(page) == (
        b"<!DOCTYPE html><html><head><meta charset=utf-8><title>T</title>\n\n"
        b"<link rel=canonical href=/a>\n<style></style><script></script>"
        b'<script type="application/ld+json">{"headline": "H"}</script></head>'
        b"<body><script>kept()</script><p>text</p></body></html>"
    )


@pytest.mark.parametrize(
    "page",
    [
        b"<head><script>a() // </p>\n</script>",  # its last character is the page's (unswallowed reads both)
        b"<head><script>document.write('<!--');</script><script>b()</script>",  # escaped: the scan stops
        b"<head><p>x</p><script>c()</script>",  # past the head's first other element a script is the body's
        b"<head><script>d()",  # unclosed
        b"\xef\xbb\xbf<script>e()</script><p>",  # a BOM is text
        b"<head><link rel=icon><script>f()</script>\xc2\xa0",  # ends in a character beyond ASCII
    ],
)
def test_head_unread_leaves_a_page_as_it_is(page: bytes) -> None:
    assert dom.head_unread(page) is page
    assert dom.head_unread_python(page) is page


def test_the_pipeline_reads_a_page_alike_with_its_head_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    html = (
        "<html><head><title>Cut heads | Site</title><script>var x = 1;</script>"
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Cut heads", '
        '"datePublished": "2024-03-14"}</script><style>p{}</style>\n<link rel=icon href=i.png>\n</head>'
        f"<body><h1>Cut heads</h1><p>{PROSE}</p><p>{PROSE2}</p></body></html>"
    )
    page = Page(id="p", url="https://example.com/a", html=html)
    assert dom.head_unread(html.encode()) != html.encode()
    cut = clean_page(page)
    monkeypatch.setattr(dom, "head_unread", lambda markup: markup)
    whole = clean_page(page)
    assert cut.metadata is not None
    assert cut.metadata.published is not None
    assert cut.metadata.published.date == "2024-03-14"
    assert (cut.text, cut.blocks, cut.metadata) == (whole.text, whole.blocks, whole.metadata)
