"""Page metadata, one fixture per source. The pages are written for the tests, after real CMS markup."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from worker.clean.meta import FoundDate, PageMetadata, extract_metadata

TODAY = date(2024, 6, 1)


def meta_of(html: str, url: str | None = None) -> PageMetadata:
    return extract_metadata(LexborHTMLParser(html), url, today=TODAY)


# --- JSON-LD ---------------------------------------------------------------------------------------

NEWS_JSONLD = """<html><head><title>Flut in Köln: Pegel steigt | Kölner Tageblatt</title>
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
 {"@type":"WebSite","name":"Kölner Tageblatt","url":"https://www.example-tageblatt.de/"},
 {"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","position":1,"name":"Köln"}]},
 {"@type":"NewsArticle","headline":"Flut in Köln: Pegel steigt","datePublished":"2021-07-15T06:30:00+02:00",
  "dateModified":"2021-07-16T09:00:00+02:00",
  "author":[{"@type":"Person","name":"Anna Schmidt"},{"@type":"Person","name":"Jonas Weber"}],
  "publisher":{"@type":"NewsMediaOrganization","name":"Kölner Tageblatt"},
  "image":{"@type":"ImageObject","url":"https://img.example-tageblatt.de/flut.jpg"},
  "keywords":"Hochwasser, Köln, Rhein","articleSection":"Lokales",
  "description":"Der Rhein steigt weiter &amp; die Stadt warnt."}]}
</script></head><body><h1>Flut in Köln</h1><p>Text.</p></body></html>"""


def test_jsonld_graph_gives_dates_authors_and_fields() -> None:
    m = meta_of(NEWS_JSONLD, "https://www.example-tageblatt.de/koeln/flut-123")
    assert m.published == FoundDate("2021-07-15", "json-ld:datePublished")
    assert m.modified == FoundDate("2021-07-16", "json-ld:dateModified")
    assert m.authors == ("Anna Schmidt", "Jonas Weber")
    assert m.title == "Flut in Köln: Pegel steigt"
    assert m.site_name == "Kölner Tageblatt"
    assert m.image == "https://img.example-tageblatt.de/flut.jpg"
    assert m.tags == ("Hochwasser", "Köln", "Rhein")
    assert m.categories == ("Lokales",)
    assert m.description == "Der Rhein steigt weiter & die Stadt warnt."


def test_jsonld_list_of_scripts_prefers_the_article_over_the_page() -> None:
    html = """<script type="application/ld+json">[{"@type":"WebPage","datePublished":"2010-01-01"},
    {"@type":["BlogPosting"],"datePublished":"2019-03-14","author":"Jane Doe"}]</script>"""
    m = meta_of(html)
    assert m.published == FoundDate("2019-03-14", "json-ld:datePublished")
    assert m.authors == ("Jane Doe",)


def test_jsonld_invalid_json_is_still_read_for_dates() -> None:
    # raw newline inside a string and a trailing comma: orjson rejects it, the page meant it
    html = """<script type="application/ld+json">{"@type":"NewsArticle","headline":"Zeile
    zwei","datePublished": "2020-02-19T10:00:00+01:00",}</script>"""
    assert meta_of(html).published == FoundDate("2020-02-19", "json-ld:datePublished")


def test_jsonld_in_body_and_textual_value() -> None:
    html = """<body><script type="application/ld+json">{"@type":"Article",
    "datePublished":"Tue Jan 28 15:28:56 CET 2020"}</script></body>"""
    assert meta_of(html).published == FoundDate("2020-01-28", "json-ld:datePublished")


# --- Open Graph and other <meta> --------------------------------------------------------------------

WORDPRESS = """<!DOCTYPE html><html lang="en-US"><head>
<meta property="og:site_name" content="The Garden Blog" />
<meta property="og:title" content="Growing Tomatoes on a Balcony - The Garden Blog" />
<meta property="og:url" content="/2019/growing-tomatoes/" />
<meta property="article:published_time" content="2019-05-03T08:12:44+00:00" />
<meta property="article:modified_time" content="2020-04-01T10:00:00+00:00" />
<meta property="article:tag" content="tomatoes" /><meta property="article:tag" content="balcony" />
<meta property="article:section" content="Vegetables" />
<meta name="author" content="Sam Green" />
<meta property="og:image" content="https://garden.example.com/wp-content/uploads/tomato.jpg" />
<meta name="description" content="How to grow tomatoes in pots." />
<link rel="canonical" href="https://garden.example.com/2019/growing-tomatoes/" />
<title>Growing Tomatoes on a Balcony - The Garden Blog</title></head>
<body class="post-template-default single single-post"><article class="post-12 post type-post hentry">
<header class="entry-header"><h1 class="entry-title">Growing Tomatoes on a Balcony</h1>
<span class="posted-on"><time class="entry-date published" datetime="2019-05-03T08:12:44+00:00">May 3,
2019</time><time class="updated" datetime="2020-04-01T10:00:00+00:00">April 1, 2020</time></span>
<span class="byline"><span class="author vcard"><a class="url fn n" href="/author/sam/">Sam Green</a>
</span></span></header><div class="entry-content"><p>Tomatoes love sun.</p></div></article></body></html>"""


def test_open_graph_wordpress_page() -> None:
    m = meta_of(WORDPRESS, "https://garden.example.com/?p=12")
    assert m.published == FoundDate("2019-05-03", "meta:article:published_time")
    assert m.modified is not None
    assert m.modified.date == "2020-04-01"
    assert m.title == "Growing Tomatoes on a Balcony"  # og:title without the site suffix
    assert m.site_name == "The Garden Blog"
    assert m.authors == ("Sam Green",)
    assert m.tags == ("tomatoes", "balcony")
    assert m.categories == ("Vegetables",)
    assert m.canonical_url == "https://garden.example.com/2019/growing-tomatoes/"
    assert m.description == "How to grow tomatoes in pots."
    assert m.image == "https://garden.example.com/wp-content/uploads/tomato.jpg"


@pytest.mark.parametrize(
    ("attr", "key", "value", "rule"),
    [
        ("name", "DC.date.issued", "2018-11-02", "meta:dc.date.issued"),
        ("name", "citation_publication_date", "2017/03/09", "meta:citation_publication_date"),
        ("name", "parsely-pub-date", "2016-01-20T10:00:00Z", "meta:parsely-pub-date"),
        ("name", "sailthru.date", "2015-06-30 14:00:00", "meta:sailthru.date"),
        ("itemprop", "datePublished", "2014-12-24", "meta:datepublished"),
        ("name", "date", "11/01/2023 12:43:42", "meta:date"),  # machine value: month first
    ],
)
def test_meta_vocabularies(attr: str, key: str, value: str, rule: str) -> None:
    m = meta_of(f'<head><meta {attr}="{key}" content="{value}"></head>')
    assert m.published is not None
    assert m.published.rule == rule
    expected = {"meta:date": "2023-11-01"}.get(rule)
    assert m.published.date == (expected or value[:10].replace("/", "-"))


def test_modified_never_stands_in_for_published() -> None:
    m = meta_of('<meta property="article:modified_time" content="2020-01-01T10:00:00Z">')
    assert m.published is None
    assert m.modified == FoundDate("2020-01-01", "meta:article:modified_time")


def test_profile_url_and_handle_are_no_author_or_site_name() -> None:
    html = """<meta property="article:author" content="https://www.facebook.com/someone">
    <meta name="twitter:site" content="@paper"><meta name="author" content="By Lea Roth and Tim Berg">"""
    m = meta_of(html)
    assert m.authors == ("Lea Roth", "Tim Berg")
    assert m.site_name is None


# --- microdata, RDFa and microformats ---------------------------------------------------------------


def test_microdata_article() -> None:
    html = """<body><article itemscope itemtype="https://schema.org/NewsArticle">
    <h1 itemprop="headline">Neue Brücke eröffnet</h1>
    <span itemprop="author" itemscope itemtype="https://schema.org/Person">Von
      <span itemprop="name">Eva Klein</span></span>
    <span itemprop="datePublished" content="2022-09-01">1. September 2022</span>
    <meta itemprop="dateModified" content="2022-09-02"></article></body>"""
    m = meta_of(html)
    assert m.published == FoundDate("2022-09-01", "microdata:datepublished")
    assert m.modified is not None
    assert m.modified.date == "2022-09-02"
    assert m.authors == ("Eva Klein",)
    assert m.title == "Neue Brücke eröffnet"


def test_rdfa_property_on_a_span() -> None:
    html = """<footer class="node__meta"><span property="schema:dateCreated"
    content="2022-01-28T12:45:46+00:00" class="rdf-meta hidden"></span>28.01.22</footer>"""
    assert meta_of(html).published == FoundDate("2022-01-28", "meta:datecreated")


def test_h_entry_dt_published() -> None:
    html = """<article class="h-entry"><h1 class="p-name">Notes</h1>
    <a class="p-author h-card" href="/">Kim Park</a>
    <time class="dt-published" datetime="2021-04-05 10:00">April 5</time></article>"""
    m = meta_of(html)
    assert m.published == FoundDate("2021-04-05", "time[pubdate]")
    assert m.title == "Notes"


BLOGGER = """<html><head><title>Kitchen Notes: Sourdough at last</title></head><body>
<div class="date-outer"><h2 class="date-header"><span>Thursday, March 14, 2019</span></h2>
<div class="post hentry"><h3 class="post-title entry-title">Sourdough at last</h3>
<div class="post-body entry-content">Finally it rose.</div>
<div class="post-footer"><span class="post-author vcard">Posted by <span class="fn">Mia</span></span>
<span class="post-timestamp">at <a class="timestamp-link" href="/2019/03/sourdough.html">
<abbr class="published" title="2019-03-14T09:15:00-07:00">9:15 AM</abbr></a></span></div>
</div></div></body></html>"""


def test_blogger_hatom_abbr() -> None:
    m = meta_of(BLOGGER, "https://kitchen-notes.blogspot.com/2019/03/sourdough.html")
    assert m.published == FoundDate("2019-03-14", "abbr.published")
    assert m.title == "Kitchen Notes: Sourdough at last"  # no separator that marks a site suffix


# --- <time> ------------------------------------------------------------------------------------------


def test_plain_time_element_is_a_weak_source() -> None:
    html = '<body><p>Am <time datetime="2020-09-20">20.09.2020</time></p></body>'
    assert meta_of(html).published == FoundDate("2020-09-20", "time")


def test_the_time_of_a_readers_comment_is_not_the_page_date() -> None:
    # WordPress: time < a < div.comment-metadata < footer.comment-meta < article.comment-body < li.comment
    comment = """<ol class="comment-list"><li class="comment"><article class="comment-body">
    <footer class="comment-meta"><div class="comment-metadata"><a href="#c1">
    <time datetime="2019-08-24T03:36:11+02:00">vor 3 Tagen</time></a></div></footer>
    <p>Tolle Folge!</p></article></li></ol>"""
    assert meta_of(f"<body><h1>Folge 158</h1><p>Shownotes.</p>{comment}</body>").published is None
    article = '<p>Am <time datetime="2019-08-16">16.08.2019</time></p>'
    page = f"<body><h1>Folge 158</h1>{article}{comment}</body>"
    found = meta_of(page).published
    assert found is not None
    assert found.date == "2019-08-16"


def test_a_date_on_the_first_of_january_without_a_time_is_a_year() -> None:
    # a recipe site's generic "dateCreated" meta holds a year as 01/01/2004
    html = """<head><meta itemprop="dateCreated" content="01/01/2004"></head>
    <body><h1>Pineapple Upside-Down Cake</h1><p>Bake it.</p></body>"""
    assert meta_of(html).published is None
    with_time = '<body><p>Am <time datetime="2016-01-01T20:23">1.1.2016</time></p></body>'
    assert meta_of(with_time).published == FoundDate("2016-01-01", "time")


def test_teaser_times_that_disagree_are_not_trusted() -> None:
    # a listing: every teaser's <time> is marked published, each with its own day
    html = """<body><h1>Archiv</h1><time class="published" datetime="2019-01-03">3.1.</time>
    <time class="published" datetime="2019-02-07">7.2.</time></body>"""
    m = meta_of(html)
    assert m.published is None or m.published.rule != "time[pubdate]"


# --- URL -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "day", "rule"),
    [
        ("https://example.com/2019/03/14/some-story/", "2019-03-14", "url"),
        ("https://example.com/news/2019-03-14-some-story", "2019-03-14", "url"),
        ("https://example.com/archiv/story_20190314_abc.html", "2019-03-14", "url"),
        ("https://example.com/2019/3/14/", "2019-03-14", "url"),
        # day first, as European press offices write slugs: a weaker, tier-2 source
        ("https://verein.example.de/media-news/meldungen/29-10-2021", "2021-10-29", "url:dmy"),
        ("https://www.example.it/de/newsroom/23-01-2022-wierer-siegt", "2022-01-23", "url:dmy"),
        ("https://example.com/artikel/bericht_vom_22.04.2020_zur_lage", "2020-04-22", "url:dmy"),
    ],
)
def test_url_dates(url: str, day: str, rule: str) -> None:
    assert meta_of("<p>x</p>", url).published == FoundDate(day, rule)


@pytest.mark.parametrize(
    "url",
    [
        "https://blog.example.de/2023/10/3-fragen-an-die-leitung/",  # the "3" starts the slug
        "https://example.com/artikel/sieben-berufe,30506730.html",  # an id, not a date
        "https://example.com/id/20201234",  # month 12, day 34
    ],
)
def test_url_without_a_day(url: str) -> None:
    assert meta_of("<p>x</p>", url).published is None


def test_url_day_written_day_first_yields_to_date_markup() -> None:
    # a day named in the slug may be the title's subject; the page's own markup says when it appeared
    html = '<meta property="article:published_time" content="2020-04-24T08:00:00+02:00">'
    m = meta_of(html, "https://example.com/artikel/bericht_vom_22.04.2020_zur_lage")
    assert m.published == FoundDate("2020-04-24", "meta:article:published_time")


def test_url_beats_a_utc_timestamp_of_the_next_day() -> None:
    # 21:25 in New York is 02:25 UTC the next day; the permalink has the local day
    html = '<meta property="article:published_time" content="2020-02-25T02:25:54+00:00">'
    m = meta_of(html, "https://pagesix.example.com/2020/02/24/story/")
    assert m.published == FoundDate("2020-02-24", "url")


def test_utc_stamp_moves_to_the_local_day_of_a_cet_domain() -> None:
    html = (
        '<script type="application/ld+json">'
        '{"@type":"NewsArticle","datePublished":"2019-10-18T22:04:00Z"}</script>'
    )
    assert meta_of(html, "https://www.nachrichten.example.at/story").published == FoundDate(
        "2019-10-19", "json-ld:datePublished"
    )
    # without a country domain the UTC day stays
    assert meta_of(html, "https://news.example.com/story").published == FoundDate(
        "2019-10-18", "json-ld:datePublished"
    )


# --- bylines, datelines and visible text --------------------------------------------------------------

GERMAN_NEWS = """<html><head><title>Stadtrat beschließt Haushalt - Lokalzeitung</title></head><body>
<nav>Startseite Politik Sport</nav><div class="top">Heute: Mittwoch</div>
<main><h1>Stadtrat beschließt Haushalt</h1>
<p class="dateline">Freiburg, 14.03.2019 – Der Stadtrat hat am Dienstag den Haushalt beschlossen.</p>
<p>Die Sitzung dauerte bis 23 Uhr. Gültig bis 31.12.2020.</p></main></body></html>"""


def test_german_dateline_after_the_headline() -> None:
    m = meta_of(GERMAN_NEWS, "https://www.lokalzeitung.example.de/freiburg/haushalt")
    assert m.published == FoundDate("2019-03-14", "text:header")
    assert m.title == "Stadtrat beschließt Haushalt"


def test_date_after_headline_in_plain_text() -> None:
    html = """<body><div>Menü</div><h1>Neue Brücke</h1><div><span>Berlin</span>
    <span>3. Mai 2018</span></div><p>Lange wurde gebaut. Die Brücke hält bis 2100.</p></body>"""
    assert meta_of(html).published == FoundDate("2018-05-03", "text:header")


def test_headline_without_h1_is_found_in_the_text_by_its_title() -> None:
    # an old table layout: the title is a <b>, <title> names it; the menu's date is no article's
    html = """<html><head><title>Sommerfest im Verein | TSV Musterhausen</title></head><body>
    <table><tr><td>Termine: 1.5.2018 Saisonstart, 3.6.2018 Turnier</td></tr>
    <tr><td><b>Sommerfest im Verein</b><br>12.07.2018, Kai Berg<br>Alle waren da.</td></tr>
    </table></body></html>"""
    assert meta_of(html).published == FoundDate("2018-07-12", "text:headline")


@pytest.mark.parametrize(
    ("line", "day"),
    [
        ("Veröffentlicht am 14. März 2019", "2019-03-14"),
        ("Posted on March 14th, 2019 by admin", "2019-03-14"),
        ("Publié le 1er mars 2019", "2019-03-01"),
        ("Publicado el 14 de marzo de 2019", "2019-03-14"),
        ("Pubblicato il 14 marzo 2019", "2019-03-14"),
        ("Gepubliceerd op 14 maart 2019", "2019-03-14"),
        ("Opublikowano 14 marca 2019", "2019-03-14"),
        ("Published: 2019年3月14日", "2019-03-14"),
    ],
)
def test_publication_cue_in_many_languages(line: str, day: str) -> None:
    html = f"<body><div>Home</div><p>Vom 1. bis 3. April 2020 geschlossen.</p><p>{line}</p></body>"
    assert meta_of(html).published == FoundDate(day, "text:published")


def test_deadline_dates_are_not_publication_dates() -> None:
    html = "<body><p>Anmeldung bis 31.12.2020.</p><p>Geöffnet ab 2. Februar 2021</p></body>"
    assert meta_of(html).published is None


@pytest.mark.parametrize(
    "line",
    [
        # announced events
        "Der nächste Stammtisch findet am Mi. 5. Februar 2020 ab 19 Uhr statt.",
        "Our next meetup: March 3, 2020 at the library.",
        "Upcoming: 14 March 2020, open day.",
        # the start of a state ("Seit" also right after the heading, which the body's text joins to it)
        "Seit 4. August 2014 ist in Bolivien ein neues Gesetz in Kraft. Seit 4. August 2014 gilt es.",
        "The bridge has been closed since March 3, 2020. It has been closed since March 3, 2020.",
        # a forum's page clock and its posters' profiles
        "Alle Zeiten sind UTC+02:00 Aktuelle Zeit: 14.10.2020, 12:18",
        "It is currently Wed Oct 14, 2020 12:18 pm",
        "r23 Beiträge: 1626 Registriert: 18.09.2008, 05:56",
    ],
)
def test_dates_of_something_else_are_no_publication_dates(line: str) -> None:
    html = f"<body><h1>Stammtisch</h1><p>{line}</p></body>"
    assert meta_of(html).published is None


def test_update_date_dates_a_page_only_when_nothing_else_does() -> None:
    # MediaWiki's footer: the page's only date is its last edit
    wiki = """<body><div id="content"><h1 id="firstHeading">Download</h1><p>Get Python here.</p></div>
    <div id="footer"><p id="footer-info-lastmod">This page was last edited on 10 November 2019, at
    13:28.</p></div></body>"""
    assert meta_of(wiki).published == FoundDate("2019-11-10", "text:updated")
    # a deadline is no update; an update is not taken over the publication date
    news = """<body><p>Anmeldung bis 31.12.2020.</p><p>Aktualisiert am 2. Februar 2021</p>
    <p>Veröffentlicht am 28. Januar 2021</p></body>"""
    assert meta_of(news).published == FoundDate("2021-01-28", "text:published")


def test_comment_dates_are_not_the_page_date() -> None:
    # a WordPress theme's comment list: each comment's date is in div.comment-meta
    html = """<body><article><h2>Eine Arduino-Wand</h2><div class="post-byline">von Heiner</div>
    <p>Bauanleitung.</p></article><ol class="commentlist">
    <li><div class="comment-meta commentmetadata">15. Dezember 2015 at 11:21</div><p>Danke!</p></li>
    <li><div class="comment-meta commentmetadata">16. Dezember 2015 at 21:50</div><p>Super.</p></li>
    </ol></body>"""
    assert meta_of(html).published is None


def test_script_text_is_not_read_as_visible_text() -> None:
    html = """<body><script>var built = "2015-05-05";</script><h1>Story</h1><p>No date here.</p></body>"""
    assert meta_of(html).published is None


def test_dates_in_the_future_or_before_the_web_are_ignored() -> None:
    html = """<meta property="article:published_time" content="2031-01-01T00:00:00Z">
    <meta name="dc.date" content="1970-01-01">"""
    assert meta_of(html).published is None


def test_empty_and_dateless_pages() -> None:
    assert meta_of("") == PageMetadata()
    m = meta_of("<html><head><title>Home</title></head><body><p>Welcome.</p></body></html>")
    assert m.published is None
    assert m.modified is None
    assert m.title == "Home"


def test_the_tree_is_not_changed() -> None:
    tree = LexborHTMLParser(WORDPRESS)
    before = tree.html
    extract_metadata(tree, "https://garden.example.com/", today=TODAY)
    assert tree.html == before


@pytest.mark.parametrize(
    ("rel", "canonical"),
    [
        pytest.param("canonical", "https://x.example/a", id="plain"),
        pytest.param("Alternate  CANONICAL", "https://x.example/a", id="among words, any case"),
        pytest.param("canonical-ish", None, id="a longer word"),
        pytest.param("alternate", None, id="another link"),
    ],
)
def test_the_canonical_link_is_read_by_its_rel_word(rel: str, canonical: str | None) -> None:
    head = f'<link rel="stylesheet" href="/s.css"><link rel="{rel}" href="https://x.example/a">'
    m = meta_of(f"<html><head>{head}</head><body><p>x</p></body></html>")
    assert m.canonical_url == canonical


# _url_parts reads the usual URLs by a regex: what urlsplit reads (its reference), for URLs of every shape.
URL_PIECES = st.sampled_from(
    ["http", "https", "HTTP", ":", "//", "/", "?", "#", "a", "B", ".", "-", "com", "8080", "@", "[", "]", "%",
     "\t", "\n", " ", "x=1", "&", "é", ":80", "_", "\x00"]
)  # fmt: skip


@settings(max_examples=1000)
@given(st.sampled_from(["", "http://", "https://"]), st.lists(URL_PIECES, max_size=12).map("".join))
def test_url_parts_read_as_urlsplit_reads_them(scheme: str, rest: str) -> None:
    from worker.clean import meta

    url = scheme + rest
    assert meta._url_parts(url) == meta._split_url_parts(url)
