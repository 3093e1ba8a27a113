"""The article's header (the text around its headline) as a source and as a check of the markup's
dates. Pages written for the tests, after real CMS templates (WordPress themes with Yoast, news sites
with teaser lists, Drupal and TYPO3 news)."""

from __future__ import annotations

from datetime import date

import pytest
from selectolax.lexbor import LexborHTMLParser

from worker.clean.meta import FoundDate, PageMetadata, extract_metadata
from worker.clean.meta.header import HEADER_AFTER, HEADER_NODES_MAX, _after, _before, dates_around

TODAY = date(2024, 6, 1)


def meta_of(html: str, url: str | None = None) -> PageMetadata:
    return extract_metadata(LexborHTMLParser(html), url, today=TODAY)


def _yoast(published: str, modified: str, header: str) -> str:
    """A WordPress post with Yoast's JSON-LD and Open Graph, and the theme's header line."""
    return f"""<html><head>
<meta property="article:published_time" content="{published}T14:13:37+00:00" />
<meta property="article:modified_time" content="{modified}T14:27:30+00:00" />
<meta property="og:title" content="Können Fische Schmerzen spüren? - Angelblog" />
<script type="application/ld+json">{{"@context":"https://schema.org","@graph":[
 {{"@type":"WebPage","name":"Können Fische Schmerzen spüren?"}},
 {{"@type":"Article","headline":"Können Fische Schmerzen spüren?",
   "datePublished":"{published}T14:13:37+00:00","dateModified":"{modified}T14:27:30+00:00"}}]}}
</script></head><body class="single-post"><header id="masthead"><h1 class="site-title">Angelblog</h1>
</header><article class="post"><h1 class="entry-title">Können Fische Schmerzen spüren?</h1>
<div class="post-info"><span class="icon-book"></span>&nbsp; ca. 8 Min.<br>{header}</div>
<p>Ob Fische Schmerzen empfinden, wird seit dem 3. März 1998 untersucht.</p></article></body></html>"""


def test_header_showing_the_update_day_wins_over_the_first_publication() -> None:
    # the theme prints the last update as the article's date; the markup knows both days
    html = _yoast("2021-11-29", "2022-01-12", '<span class="icon-calendar"></span>&nbsp; 12.01.2022')
    m = meta_of(html, "https://angelblog.example.de/fische-schmerzen/")
    assert m.published == FoundDate("2022-01-12", "text:header+markup")
    assert m.modified == FoundDate("2022-01-12", "json-ld:dateModified")


@pytest.mark.parametrize(
    ("modified", "header"),
    [
        pytest.param("2022-01-12", "29.11.2021 · 12.01.2022", id="header shows the publication day"),
        pytest.param("2022-01-12", "Aktualisiert am 12.01.2022", id="update marked as such"),
        # a day the article's first lines mention is not the article's date
        pytest.param("2022-01-12", "Laut der am 28.01.2022 geltenden Verordnung", id="day not in markup"),
        pytest.param("2021-11-29", "12.01.2022", id="markup agrees on one day: not checked"),
    ],
)
def test_header_leaves_the_publication_day(modified: str, header: str) -> None:
    html = _yoast("2021-11-29", modified, header)
    assert meta_of(html).published == FoundDate("2021-11-29", "json-ld:datePublished")


def test_header_corrects_a_utc_stamp_moved_to_the_wrong_local_day() -> None:
    # WordPress writes local time with "+00:00" when the site's time zone is unset: the theme's
    # visible date says which day was meant
    html = """<html><head><title>Schneesport - talent.example</title></head><body>
    <article><h1 class="entry-title">Schneesport mit Rücksicht</h1>
    <span class="posted-on"><a href="/?p=5031" rel="bookmark"><time class="entry-date published"
    datetime="2019-12-26T23:07:45+00:00">26/12/2019</time></a></span><p>Text.</p></article></body></html>"""
    assert meta_of(html, "https://www.talent.example.ch/?p=5031").published == FoundDate(
        "2019-12-26", "text:header+markup"
    )


def _typo3(meta: str) -> str:
    """A TYPO3 news page (tx_news): the generic date key in <head>, the news date under the title."""
    return f"""<html><head>{meta}<title>Faire Lieferketten: ejw</title></head><body><div id="c158">
    <div class="news-single-item"><h1>Faire Lieferketten</h1><div class="news-single-timedata">05.02.2020
    <span>- Redaktion: Eberhard Muster</span></div><p>Seit Januar gilt das neue Gesetz.</p></div>
    </div></body></html>"""


def test_generic_date_key_yields_to_the_header() -> None:
    # TYPO3 fills <meta name="date"> with the day the record was last saved
    m = meta_of(_typo3('<meta name="date" content="2020-02-12">'))
    assert m.published == FoundDate("2020-02-05", "text:header")


def test_publication_key_does_not_yield_to_a_header_day_it_does_not_give() -> None:
    m = meta_of(_typo3('<meta property="article:published_time" content="2020-02-12T10:00:00+01:00">'))
    assert m.published == FoundDate("2020-02-12", "meta:article:published_time")


TEASERS_FIRST = """<html><head><title>Meet the Artist Alexandria Doe | Weekly</title></head><body>
<nav class="mega-menu"><ul>
 <li><a href="/arts/calendar">Arts Calendar November 9-15</a><span>November 8, 2023</span></li>
 <li><a href="/arts/meet-artist">Meet the Artist Alexandria Doe</a><span>November 6, 2023</span></li>
 <li><a href="/arts/cardboard">Cardboard Fashion Sense</a><span>November 2, 2023</span></li>
</ul></nav>
<main><article><div class="kicker">Wellness</div><h1>Meet the Artist Alexandria Doe</h1>
<div class="byline">Shana Example<span class="sep"></span>November 6, 2023</div>
<p>Cultivation is more than a metaphor.</p></article>
<aside><h3>Related</h3><ul><li><time datetime="2023-11-02">Nov 2</time></li></ul></aside>
</main></body></html>"""


def test_the_headline_element_is_found_in_the_tree_not_its_words_in_a_menu() -> None:
    assert meta_of(TEASERS_FIRST).published == FoundDate("2023-11-06", "text:header")


def test_header_date_wins_over_teaser_time_elements() -> None:
    # <time> elements of teasers come first in the document; the date under the headline is plain text
    html = """<html><body><div class="teasers">
    <article><time>12.03.2018</time><a href="/a">Erstes</a></article>
    <article><time>19.03.2018</time><a href="/b">Zweites</a></article></div>
    <h1>Was sich nach dem Urteil ändert</h1><p class="author">Von Eva Klein | 29.01.2019</p>
    <p>Das Gericht hat entschieden.</p></body></html>"""
    assert meta_of(html).published == FoundDate("2019-01-29", "text:header")


def test_logo_h1_is_passed_over_for_the_one_holding_the_title() -> None:
    html = """<html><head><meta property="og:title" content="Privatisierungen: wem sie nützen">
    </head><body><h1 class="logo">Attac <span>Aktion</span></h1><ul class="menu"><li>Termine
    2.5.2021</li></ul><div class="article"><h1>Privatisierungen: wem sie nützen</h1>
    <p class="info">jeudi 13 juin 2019</p><p>Texte.</p></div></body></html>"""
    assert meta_of(html).published == FoundDate("2019-06-13", "text:header")


def test_dateline_inside_the_headline_element() -> None:
    html = """<body><h1>Zuschauer kehren zurück <small>02.02.2022 • Verband, Presse</small></h1>
    <p>Laut der am 28.01.2022 in Kraft getretenen Verordnung dürfen wieder Fans kommen.</p></body>"""
    assert meta_of(html).published == FoundDate("2022-02-02", "text:header")


def test_a_day_in_the_title_words_is_the_subject_not_the_date() -> None:
    html = """<body><article><h1 class="entry-title">Protokoll der Vorstandssitzung vom 10. Oktober
    2019</h1><span class="posted-on">26/12/2019</span> von Webteam<p>Ort: Zürich</p></article></body>"""
    assert meta_of(html).published == FoundDate("2019-12-26", "text:header")


def test_logo_h1_marked_as_such_is_no_headline() -> None:
    # a WordPress blog's front page: the site's name is the only <h1>, its menu lists old days
    html = """<html><head><title>Demokratie Jetzt</title></head><body class="blog"><div id="header">
    <h1 id="site-title"><a href="/">Demokratie Jetzt</a></h1><div class="menu"><a href="/12m">12M –
    12. Mai 2012</a></div></div><div class="post"><h2>Neue Termine</h2>13. Januar 2014</div></body></html>"""
    m = meta_of(html)
    assert m.published is None or m.published.rule != "text:header"


def test_site_menu_in_nav_is_not_the_header() -> None:
    html = """<body><h1>Atomkraft ist nicht nachhaltig</h1><nav class="breadcrumb"><a href="/presse">Presse
    vom 21.01.2022</a></nav><div class="article-meta">25.01.2022</div><p>Text.</p></body>"""
    assert meta_of(html).published == FoundDate("2022-01-25", "text:header")


def test_two_digit_year_in_the_header() -> None:
    html = """<body><h1>Grab-Bote fliegt nach Singapur</h1><div class="article-meta">Von: Björn Jahner
    <span>|</span> <span>31.10.23</span></div><p>Der Sprecher sagte am Montag (30. Oktober 2023),
    das Video sei erfunden.</p></body>"""
    assert meta_of(html).published == FoundDate("2023-10-31", "text:header")


def test_two_digit_year_in_running_text_is_no_date() -> None:
    # far from any headline, "10.11.12" is as likely a score or a version as a day
    html = "<body><p>" + "Bericht. " * 200 + "Ergebnis der Runde: 10.11.12</p></body>"
    assert meta_of(html).published is None


def test_kicker_above_the_headline() -> None:
    html = """<body><div class="menu">Start</div><div class="article"><p class="kicker">18.01.2019 |
    Politik</p><h1>Die Wahl ist entschieden</h1><p>Der Text beginnt.</p></div></body>"""
    assert meta_of(html).published == FoundDate("2019-01-18", "text:header")


def test_script_between_headline_and_byline_is_not_read() -> None:
    html = """<body><h1>Story</h1><script>var built = "2015-05-05";</script><style>.x{}</style>
    <p>By Ann, March 3, 2020</p></body>"""
    assert meta_of(html).published == FoundDate("2020-03-03", "text:header")


def test_after_reads_about_its_limit_and_stops_at_the_body() -> None:
    tree = LexborHTMLParser("<body><h1>T</h1>" + "<p>word word word</p>" * 200 + "</body>")
    h1 = tree.css_first("h1")
    assert h1 is not None
    text = _after(h1, HEADER_AFTER)
    assert len(text) == HEADER_AFTER
    assert text.startswith("word word")  # the headline's own words are the title, not its header
    short = LexborHTMLParser(
        "<body><div><h1>T <small>x</small></h1><p>a</p></div></body><!-- y -->"
    ).css_first("h1")
    assert short is not None
    assert _after(short, HEADER_AFTER) == "x a"


def test_before_reads_the_nearest_text_first() -> None:
    tree = LexborHTMLParser("<body><div><p>far</p><div><span>near</span></div></div><h1>T</h1></body>")
    h1 = tree.css_first("h1")
    assert h1 is not None
    assert _before(h1, 150) == "far near"
    assert _before(h1, 4) == "near"


def test_walk_is_bounded_by_nodes_not_by_page_size() -> None:
    # thousands of empty elements after the headline: the walk gives up after HEADER_NODES_MAX nodes
    html = "<body><h1>T</h1>" + "<span></span>" * (HEADER_NODES_MAX * 5) + "<p>1. März 2019</p></body>"
    h1 = LexborHTMLParser(html).css_first("h1")
    assert h1 is not None
    assert dates_around(h1, TODAY) == []
