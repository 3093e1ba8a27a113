"""Property tests: metadata extraction never raises, invents no impossible date, never edits the tree."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from worker.clean.meta import PageMetadata, extract_metadata
from worker.clean.meta.dates import EARLIEST, find_dates, parse_value
from worker.clean.meta.text import text_dates

TODAY = date(2024, 6, 1)
LATEST = TODAY + timedelta(days=1)

# Pieces that look like dates, almost-dates and impossible dates.
DATEISH = st.sampled_from(
    [
        "2019-03-14", "2019-02-30", "2019-13-01", "1970-01-01", "2099-01-01", "2019-03-14T23:59:00Z",
        "2019-03-14T00:10:00-08:00", "14.03.2019", "31.02.2019", "14/03/2019", "03/14/2019", "00.00.0000",
        "14. März 2019", "March 14th, 2019", "32 March 2019", "1er mars 2019", "2019年3月14日",
        "Tue Jan 28 15:28:56 CET 2020", "20190314", "2019/3/14", "14.03.19", "1.2.19", "9999-99-99",
    ]
)  # fmt: skip
WORDS = st.sampled_from(
    ["Posted", "on", "by", "veröffentlicht", "am", "bis", "zuletzt", "geändert", "März", "Jan", "de",
     "the", "2019", "14", "&amp;", "<", "\u00a0", " ", "\n", ",", ".", "-", "|", "Published:"]
)  # fmt: skip
TEXT = st.lists(st.one_of(WORDS, DATEISH), max_size=25).map(" ".join)
ATTR_TEXT = TEXT.map(lambda s: s.replace('"', "&quot;"))
META_KEYS = st.sampled_from(
    ["article:published_time", "og:updated_time", "date", "dc.date", "author", "keywords", "og:title",
     "og:site_name", "description", "og:image", "article:section", "datePublished", "unknown"]
)  # fmt: skip
JSON_VALUES = st.one_of(DATEISH, TEXT, st.integers(), st.none(), st.booleans())


@st.composite
def json_ld(draw: st.DrawFn) -> str:
    obj = {
        "@type": draw(st.sampled_from(["NewsArticle", "WebPage", ["BlogPosting", "x"], 3, None])),
        "datePublished": draw(JSON_VALUES),
        "author": draw(st.one_of(TEXT, st.lists(st.fixed_dictionaries({"name": JSON_VALUES}), max_size=3))),
        "headline": draw(JSON_VALUES),
        "image": draw(st.one_of(TEXT, st.fixed_dictionaries({"url": JSON_VALUES}), st.lists(TEXT))),
    }
    import json

    text = json.dumps(obj)
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]  # cut: invalid JSON
    return f'<script type="application/ld+json">{text}</script>'


@st.composite
def element(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 6))
    if kind == 0:
        attr = draw(st.sampled_from(["name", "property", "itemprop", "http-equiv"]))
        return f'<meta {attr}="{draw(META_KEYS)}" content="{draw(ATTR_TEXT)}">'
    if kind == 1:
        return draw(json_ld())
    if kind == 2:
        cls = draw(st.sampled_from(["", "published", "entry-date published", "updated", "dt-published"]))
        return f'<time class="{cls}" datetime="{draw(ATTR_TEXT)}">{draw(TEXT)}</time>'
    if kind == 3:
        prop = draw(st.sampled_from(["datePublished", "author", "headline", "dateModified"]))
        return f'<span itemprop="{prop}" content="{draw(ATTR_TEXT)}">{draw(TEXT)}</span>'
    if kind == 4:
        cls = draw(st.sampled_from(["date", "byline", "post-date", "author", "meta"]))
        return f'<div class="{cls}">{draw(TEXT)}</div>'
    if kind == 5:
        return f'<abbr class="published" title="{draw(ATTR_TEXT)}">{draw(TEXT)}</abbr>'
    tag = draw(st.sampled_from(["h1", "p", "script", "style", "title", "a rel=author", "link rel=canonical"]))
    return f"<{tag}>{draw(TEXT)}</{tag.split()[0]}>"


PAGES = st.lists(element(), max_size=12).map("".join)
URLS = st.one_of(
    st.none(),
    st.sampled_from(
        ["", "not a url", "http://[::1", "https://example.de/2019/03/14/x", "/relative/20190230"]
    ),
    st.builds(lambda d: f"https://example.com/{d}/story", DATEISH),
)


def _valid(day: str) -> bool:
    parsed = date.fromisoformat(day)  # raises on anything but YYYY-MM-DD
    return EARLIEST <= parsed <= LATEST


@given(PAGES, URLS)
def test_never_raises_and_never_returns_an_impossible_date(html: str, url: str | None) -> None:
    tree = LexborHTMLParser(html)
    before = tree.html
    meta = extract_metadata(tree, url, today=TODAY)
    assert isinstance(meta, PageMetadata)
    for found in (meta.published, meta.modified):
        if found is not None:
            assert _valid(found.date), found
            assert found.rule
    assert all(isinstance(a, str) and a for a in meta.authors)
    assert all(isinstance(x, str) and x for x in (*meta.tags, *meta.categories))
    assert tree.html == before  # read only: the pipeline cleans this same tree afterwards


@given(TEXT)
def test_date_parsers_return_only_plausible_days(text: str) -> None:
    for day in find_dates(text, LATEST, month_first=True):
        assert EARLIEST <= day <= LATEST
    for d in text_dates(text, LATEST):
        assert EARLIEST <= d.day <= LATEST
        assert 0 <= d.position < len(text)
    stamp = parse_value(text, LATEST)
    assert stamp is None or EARLIEST <= stamp.day <= LATEST


@given(st.text(max_size=300))
def test_arbitrary_unicode_text(text: str) -> None:
    find_dates(text, LATEST)
    text_dates(text, LATEST)
    parse_value(text, LATEST)
    extract_metadata(LexborHTMLParser(text), text[:50], today=TODAY)
