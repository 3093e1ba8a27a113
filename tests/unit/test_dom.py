"""Parsing, and what of a page is text a reader sees (the segmentation steps over the rest)."""

from __future__ import annotations

import pytest

from tests.unit.cleankit import seg_of
from worker.clean import dom


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
