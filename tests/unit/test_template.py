"""The site memory in the pipeline, on small synthetic sites: learning, stripping, safety, determinism."""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.cleankit import seg_of
from worker.clean import heuristics as h
from worker.clean import template
from worker.clean.fingerprint import PageFingerprints
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.segment import Segmentation
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.models import Document, Page

CFG = MemoryConfig(min_pages=3, theta=0.6)

NAV = "".join(f'<li><a href="/{w}">{w.title()}</a></li>' for w in ("news", "sport", "weather", "culture"))
SIDEBAR = (
    '<div id="sidebar"><div class="widget"><h3>About this blog</h3><p>This is a blog that is written by a '
    "person who likes to write about the things that happen in the town where they have lived for years and "
    "which they would like to share with all of you, the readers of the blog.</p></div></div>"
)
SHARE = '<div class="share"><p>Share this story with your friends and family on the social networks</p></div>'
FOOTER = (
    '<div id="footer"><p>All of the text on this site is written by the author and it is not to be copied '
    "without asking first, which is only fair for a small site like this one.</p></div>"
)

TOPICS = ["river", "market", "library", "bridge", "garden", "school"]


def article(i: int) -> str:
    t = TOPICS[i % len(TOPICS)]
    paras = "".join(
        f"<p>On day {i} the {t} was the place where {n} of the people in the town went to see what had "
        f"happened there, and they talked about the {t} for a long time because it was {t} news {k}.</p>"
        for k, n in enumerate(("many", "most", "some", "all"))
    )
    return f'<div class="post"><h1>The story of the {t} number {i}</h1>{paras}{SHARE}</div>'


def site_page(
    i: int, body: str | None = None, url: str | None = None, title: str = "", nav: str = NAV, after: str = ""
) -> Page:
    """Page `i` of example.org: its menu, `body` (default: `article(i)`) in #main, then `after`, the sidebar
    and the footer."""
    head = f"<html><head><title>{title or f'Page {i}'}</title></head>"
    main = body if body is not None else article(i)
    html = (
        f'{head}<body><div id="header"><ul class="nav">{nav}</ul></div>'
        f'<div id="main">{main}</div>{after}{SIDEBAR}{FOOTER}</body></html>'
    )
    return Page(id=f"p{i}", html=html, url=url or f"https://example.org/story/{i}", site="example.org")


def test_cold_site_uses_density_then_template_strips_repeated_blocks() -> None:
    memory = SiteMemory(CFG)
    first = clean_page(site_page(0), memory)
    assert first.method == "density"
    assert first.template is not None
    assert (first.template.pages_seen, first.template.fallback_reason) == (1, "cold_site")
    clean_page(site_page(1), memory)
    third = clean_page(site_page(2), memory)
    assert third.method == "template"
    assert third.template is not None
    assert third.template.pages_seen == 3
    assert third.template.blocks_stripped >= 4  # nav items, sidebar, share bar, footer
    assert third.stats.density_runs == 1
    assert "Share this story" not in third.text
    assert "written by the author" not in third.text
    assert "On day 2 the library was the place" in third.text


def test_repeated_url_is_not_counted_twice() -> None:
    memory = SiteMemory(CFG)
    for _ in range(5):
        doc = clean_page(site_page(0), memory)
    assert doc.method == "density"
    assert doc.template is not None
    assert doc.template.pages_seen == 1


def test_never_strips_a_page_to_nothing() -> None:
    # The same article under many URLs: every block is "template", yet the page keeps its text.
    memory = SiteMemory(CFG)
    docs = [clean_page(site_page(0, url=f"https://example.org/copy/{k}"), memory) for k in range(5)]
    last = docs[-1]
    assert last.method == "template_fallback"
    assert last.template is not None
    assert last.template.fallback_reason == "all_template"
    assert "On day 0 the river was the place" in last.text


def test_small_page_whose_text_is_mostly_template_is_compared_with_density_alone() -> None:
    memory = SiteMemory(CFG)
    for i in range(4):
        clean_page(site_page(i), memory)
    tiny = clean_page(site_page(9, body='<div class="post"><p>Closed today.</p>' + SHARE + "</div>"), memory)
    assert tiny.text  # never empty
    assert tiny.stats.density_runs >= 2  # the safety rule ran density alone


def test_site_falls_back_to_url_host_and_pages_without_site_or_url_use_density() -> None:
    assert template.site_of(Page(id="x", url="https://a.example.com/p")) == "a.example.com"
    assert template.site_of(Page(id="x", url="http://[::1")) is None
    assert template.site_of(Page(id="x")) is None
    memory = SiteMemory(CFG)
    doc = clean_page(Page(id="x", html=site_page(0).html), memory)
    assert doc.method == "density"
    assert doc.template is None
    assert len(memory) == 0


def test_same_pages_same_order_same_output_and_state() -> None:
    def go() -> tuple[list[str], bytes | None]:
        memory = SiteMemory(CFG)
        outs = [clean_page(site_page(i), memory).text for i in range(6)]
        return outs, memory.dump("example.org")

    assert go() == go()


def test_two_pass_cleans_the_first_pages_of_a_site_with_what_all_its_pages_taught() -> None:
    memory = SiteMemory(CFG)
    for i in range(4):
        clean_page(site_page(i), memory)
    memory.learning = False
    first = clean_page(site_page(0), memory)
    assert first.method == "template"
    assert first.template is not None
    assert first.template.pages_seen == 4
    assert "Share this story" not in first.text


def test_choose_strips_takes_outermost_and_never_the_root() -> None:
    seg = seg_of("<div><p>a</p></div><div><p>c</p></div><p>e</p>")  # body(0) div(1) p(2) div(3) p(4) p(5)
    fps = PageFingerprints(array("q", range(6)), array("Q", [1, 2, 3, 4, 5, 6]), array("Q", bytes(56)), [])
    assert template.choose_strips(seg, fps, frozenset({1, 2, 3, 5, 6})) == [1, 4, 5]
    assert template.choose_strips(seg, fps, frozenset({1})) == []


def test_plan_observes_before_it_strips() -> None:
    memory = SiteMemory(CFG)
    plans = [template.plan(seg_of(site_page(i).html or ""), "example.org", f"k{i}", memory) for i in range(3)]
    assert [(p.pages_seen, p.fresh, p.cold) for p in plans] == [
        (1, True, True),
        (2, True, True),
        (3, True, False),
    ]
    assert plans[2].strip
    assert plans[2].steer is not None
    again = template.plan(seg_of(site_page(2).html or ""), "example.org", "k2", memory)
    assert (again.pages_seen, again.fresh) == (3, False)  # a page key seen recently counts nothing


def test_unsafe_names_why_the_stripped_result_loses() -> None:
    alone = ["The bridge opened on Tuesday after two years of delays."]
    assert template.unsafe([], alone) == "empty"
    assert template.unsafe(["Tuesday."], alone) == "stripped_most"
    assert (
        template.unsafe(["English Deutsch Français Español Italiano Nederlands Polski"], alone) == "disagrees"
    )
    assert template.unsafe(alone, alone) is None


def test_a_broken_site_state_is_dropped_and_the_site_relearns() -> None:
    memory = SiteMemory(CFG)
    for i in range(3):
        clean_page(site_page(i), memory)
    state = memory.get("example.org")
    assert state is not None
    state.counts = state.counts[:-1]  # corrupt: one count fewer than fingerprints
    broken = clean_page(site_page(3), memory)
    assert broken.error is None
    assert broken.method == "density"
    assert broken.template is not None
    assert broken.template.fallback_reason == "state_error"
    assert "On day 3 the bridge was the place" in broken.text
    assert "example.org" not in memory
    relearned = [clean_page(site_page(i), memory) for i in range(4, 7)]
    assert [_reason(d) for d in relearned] == ["cold_site", "cold_site", None]
    assert relearned[-1].method == "template"


def _reason(doc: Document) -> str | None:
    assert doc.template is not None
    return doc.template.fallback_reason


# --- the site's article slots (structure positions density keeps) ------------------------------------


def _article_in_text_box(i: int, tail: str = "") -> str:
    t = TOPICS[i % len(TOPICS)]
    paras = "".join(
        f"<p>On day {i} the {t} was the place where {n} of the people in the town went to see what had "
        f"happened there, and they talked about the {t} for a long time because it was {t} news {k}.</p>"
        for k, n in enumerate(("many", "most", "some", "all"))
    )
    head = f"<h1>The story of the {t} number {i}</h1>"
    return f'<div class="post">{head}<div class="text">{paras}{tail}</div></div>'


# A link-heavy line at the article's end: density alone drops it (link density), though it sits where the
# site's article paragraphs always are.
PHOTO_LINE = '<p>Photos: <a href="/a">Friday market gallery</a> and <a href="/b">more</a></p>'
# The same line in a box of its own beside the article: no position the site ever kept.
PHOTO_BOX = '<div class="aside"><ul><li><a href="/a">Friday market gallery</a></li></ul></div>'


def _learned_site() -> SiteMemory:
    memory = SiteMemory(CFG)
    for i in range(4):
        clean_page(site_page(i, _article_in_text_box(i)), memory)
    return memory


def test_a_block_at_the_sites_article_slot_is_kept() -> None:
    page = site_page(5, _article_in_text_box(5, PHOTO_LINE))
    assert "Friday market gallery" not in clean_page(page).text  # density alone drops it
    doc = clean_page(page, _learned_site())
    assert doc.method == "template"
    assert "Friday market gallery" in doc.text
    assert "Share this story" not in doc.text
    assert "About this blog" not in doc.text


def test_the_slot_rule_needs_two_earlier_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(template, "POSITION_MIN_PAGES", 1e9)  # no position is ever a slot
    page = site_page(5, _article_in_text_box(5, PHOTO_LINE))
    assert "Friday market gallery" not in clean_page(page, _learned_site()).text
    monkeypatch.undo()
    memory = SiteMemory(CFG)
    clean_page(site_page(0, _article_in_text_box(0)), memory)  # one earlier page is not evidence enough
    assert "Friday market gallery" not in clean_page(page, memory).text


# --- the post's taxonomy and sign-off lines on a stripped page ---------------------------------------

TAXONOMY_TAIL = '<p>Posted in: <a href="/n">News</a> | <a href="/c">comments</a></p><p>Tags: river, town</p>'
PRINT_LINE = (
    "<p>A version of this article appeared in print on 11/08/2012, on page B9 of the New York edition with "
    "the headline: The Story of the Town.</p>"
)


@pytest.mark.parametrize(
    ("tail", "gone", "rule", "off"),
    [
        (TAXONOMY_TAIL, ("Posted in", "Tags: river, town"), "worker.clean.heuristics.TAXONOMY_MAX_CHARS", 0),
        # SIGN_OFF and SIGN_OFF_CALL in the one pattern classify matches with
        (PRINT_LINE, ("appeared in print",), "worker.clean.classify._SIGN_OFF_LINE", re.compile(r"(?!)")),
        (
            "<p>Jim Wilson/The New York Times</p>",
            ("Jim Wilson",),
            "worker.clean.heuristics.PHOTO_CREDIT_MAX_CHARS",
            0,
        ),
        (
            "<p>Sharing is caring!</p>",
            ("Sharing is caring!",),
            "worker.clean.heuristics.FURNITURE_MAX_CHARS",
            -1,
        ),
    ],
)
def test_the_posts_taxonomy_sign_off_and_credit_lines_stay_out_where_the_template_was_stripped(
    monkeypatch: pytest.MonkeyPatch, tail: str, gone: tuple[str, ...], rule: str, off: object
) -> None:
    page = site_page(5, _article_in_text_box(5, tail))
    doc = clean_page(page, _learned_site())
    assert doc.method == "template"
    assert "school news 3." in doc.text
    assert not any(line in doc.text for line in gone)
    monkeypatch.setattr(rule, off)  # without the rule the widened target keeps them
    assert gone[-1] in clean_page(page, _learned_site()).text


def test_taxonomy_label_reach_is_the_longest_label_and_the_character_before_it() -> None:
    from re import _parser

    parsed = _parser.parse(h.TAXONOMY_LABEL.pattern, h.TAXONOMY_LABEL.flags)
    labelled = parsed[0][1][1][1]  # (^|\W), the labels, \s*, ":"
    assert str(labelled[3]) == "(LITERAL, 58)"
    assert _parser.SubPattern(parsed.state, [labelled[1]]).getwidth()[1] + 1 == template.TAXONOMY_REACH


_TAXONOMY_PARTS = [
    "tags",
    "Posted In",
    "related topics",
    "CATEGORIES",
    "poſted in",
    "ſ",
    " ",
    "  ",
    ":",
    "\n",
]


@given(
    st.lists(st.sampled_from([*_TAXONOMY_PARTS, "x", "-", "filed under", "é", "Tagged with"]), max_size=12)
)
@settings(max_examples=500, deadline=None)
def test_taxonomy_label_is_searched_before_colons_only(parts: list[str]) -> None:
    text = "".join(parts)
    assert template._taxonomy_label(text) == (h.TAXONOMY_LABEL.search(text) is not None)


def test_without_taxonomy_drops_short_labelled_lines() -> None:
    long = "Tags: " + "the river and the town, " * 10
    seg = seg_of(
        "<p>Filed under: Local news</p><p>Published: May 1 | Tags: river</p>"
        "<p>They met at 5:30 in the hall.</p>"
        f"<p>{long}</p><p>Categories: Town</p><p>Posted in Miscellaneous | No Comments</p>"
        "<p>The photos were posted in the hall.</p>"
    )
    everything = list(range(7))
    assert template.without_taxonomy(seg, everything) == [2, 3, 6]
    assert template.without_taxonomy(seg, [2, 3, 6]) == [2, 3, 6]


def test_a_block_at_a_position_never_kept_stays_out() -> None:
    page = site_page(5, _article_in_text_box(5) + PHOTO_BOX)
    assert "Friday market gallery" not in clean_page(page, _learned_site()).text


def test_the_site_learns_slots_from_density_not_from_the_blocks_it_added(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    segs: list[Segmentation] = []
    learned: list[list[int]] = []
    after, learn = template.after_extraction, template.learn_location

    def see(
        memory: SiteMemory, plan: template.Plan, seg: Segmentation, at: int, kept: list[int], sure: bool
    ) -> list[int]:
        segs.append(seg)
        return after(memory, plan, seg, at, kept, sure)

    def spy(
        memory: SiteMemory, site: str, at: str, paths: array[int], seg: Segmentation, kept: list[int]
    ) -> None:
        learned.append(kept)
        learn(memory, site, at, paths, seg, kept)

    monkeypatch.setattr(template, "after_extraction", see)
    monkeypatch.setattr(template, "learn_location", spy)
    doc = clean_page(site_page(5, _article_in_text_box(5, PHOTO_LINE)), _learned_site())
    assert "Friday market gallery" in doc.text  # kept by the slot rule...
    texts = [segs[-1].texts[j] for j in learned[-1]]
    assert texts
    assert not any("Friday" in t for t in texts)  # ...and not learned as density's


def test_a_page_whose_location_is_not_settled_teaches_the_site_nothing() -> None:
    memory = _learned_site()
    page = site_page(5, _article_in_text_box(5))
    seg = seg_of(page.html or "")
    plan = template.plan(seg, "example.org", template.page_key(page), memory)
    state = memory.get("example.org")
    assert state is not None
    before = (bytes(state.position_seen), bytes(state.paths), bytes(state.path_counts))
    kept = list(range(len(seg.texts)))
    template.after_extraction(memory, plan, seg, 0, kept, settled=False)
    assert (bytes(state.position_seen), bytes(state.paths), bytes(state.path_counts)) == before
    template.after_extraction(memory, plan, seg, 0, kept)  # settled: the page is learned
    assert bytes(state.position_seen) != before[0]


# --- lines of the article's own text that every article repeats ----------------------------------------

BIG_IDEA = "<p><strong>What is the big idea?</strong></p>"


def _paragraphs(i: int) -> list[str]:
    t = TOPICS[i % len(TOPICS)]
    return [
        f"<p>On day {i} the {t} was where {n} of the people in the town went to see what had happened, and "
        f"they talked about the {t} for a long time because it was {t} news {k}.</p>"
        for k, n in enumerate(("many", "most", "some", "all"))
    ]


def _fifth_of(page: Callable[[int], Page], options: CleanOptions | None = None) -> Document:
    """Page 5 of a site whose pages are `page(i)`, cleaned with the memory of pages 0-3."""
    memory, options = SiteMemory(CFG), options or CleanOptions()
    for i in range(4):
        clean_page(page(i), memory, options)
    return clean_page(page(5), memory, options)


def _fifth_page(body: Callable[[int], str]) -> Document:
    """The fifth page of a site whose pages' articles are `body(i)`, with the memory of the first four."""
    return _fifth_of(lambda i: site_page(i, body(i)))


def _headline(i: int) -> str:
    return f"<h1>The {TOPICS[i % len(TOPICS)]} number {i}</h1>"


def _article_with_subheading(i: int) -> str:
    paras = _paragraphs(i)
    return f'<div class="post">{_headline(i)}{"".join([*paras[:2], BIG_IDEA, *paras[2:]])}</div>'


def _article_with_byline(i: int) -> str:
    # Digits are not fingerprinted: the byline's text recurs on every page, like the template's.
    header = f"<div class='head'>{_headline(i)}<p>by Ann Smith on July {i + 3}, 2012</p></div>"
    return f'<div class="post">{header}<div class="text">{"".join(_paragraphs(i))}</div></div>'


def _article_with_recipe(i: int) -> str:
    # Every page's recipe box opens with the same heading over its own ingredients.
    t = TOPICS[i % len(TOPICS)]
    items = "".join(f"<li>{n} cups of {t} {k}</li>" for k, n in enumerate(("two", "three", "four")))
    recipe = f"<div class='recipe'><h3>Ingredients:</h3><div class='list'><ul>{items}</ul></div></div>"
    return f'<div class="post">{_headline(i)}{"".join(_paragraphs(i))}{recipe}</div>'


CLOSING = (
    "The Town Paper, a weekly founded by the people of the town, reports on the river, the market and the "
    "school of the town."
)


def _article_with_closing_paragraph(i: int) -> str:
    # Every page's article ends with the same paragraph about its publisher (a press release's "About us").
    return f'<div class="post">{_headline(i)}{"".join(_paragraphs(i))}<p>{CLOSING}</p></div>'


@pytest.mark.parametrize(
    ("body", "line", "rule"),
    [
        (_article_with_subheading, "What is the big idea?", "ARTICLE_LINE_LOOKAHEAD"),
        (_article_with_byline, "by Ann Smith on July 8, 2012", "HEADLINE_LINE_BLOCKS"),
        (_article_with_recipe, "Ingredients:", "ARTICLE_LINE_ITEMS"),
        (_article_with_closing_paragraph, CLOSING, "ARTICLE_CLOSING_TAGS"),
    ],
)
def test_a_line_of_the_pages_own_text_every_page_repeats_is_not_stripped(
    monkeypatch: pytest.MonkeyPatch, body: Callable[[int], str], line: str, rule: str
) -> None:
    doc = _fifth_page(body)
    assert doc.method == "template"
    assert line in doc.text
    assert "About this blog" not in doc.text
    off = frozenset() if rule in ("ARTICLE_LINE_ITEMS", "ARTICLE_CLOSING_TAGS") else 0
    monkeypatch.setattr(h, rule, off)  # without the rule the template strips it
    assert line not in _fifth_page(body).text


def test_without_article_lines_keeps_only_lines_followed_by_prose_of_their_container() -> None:
    prose = (
        "The town met in the hall on Monday to talk about the new bridge, the river and the school for hours."
    )
    seg = seg_of(
        f"<div id='a'><p>Note from the editor</p><p>{prose}</p><p>Share this</p></div>"
        f"<div id='b'><h3>Most read</h3><ul><li><a href='/x'>{prose}</a></li></ul></div>"
        f"<div id='c'><p>Subscribe</p><div><p>{prose}</p></div></div>"
    )
    note, share, most = (
        seg.owners[seg.texts.index(t)] for t in ("Note from the editor", "Share this", "Most read")
    )
    subscribe = seg.owners[seg.texts.index("Subscribe")]
    strip = sorted([note, share, most, subscribe])
    assert template.without_article_lines(seg, strip) == sorted([share, most, subscribe])
    stripped_prose = seg.owners[seg.texts.index(prose)]  # the prose after it is itself template
    assert template.without_article_lines(seg, sorted([note, stripped_prose, share])) == sorted(
        [note, stripped_prose, share]
    )


def test_without_article_lines_keeps_a_closing_paragraph_after_prose_of_its_container() -> None:
    prose = (
        "The town met in the hall on Monday to talk about the new bridge, the river and the school for hours."
    )
    seg = seg_of(
        f"<div id='a'><p>{prose}</p><p><a href='/l'>For more</a></p><p>{CLOSING}</p></div>"
        f"<div id='b'><p>A short line</p><p>{CLOSING}</p></div>"  # no prose before it
        f"<div id='c'><p>{prose}</p><p><a href='/x'>{CLOSING}</a></p></div>"  # a link, not prose
    )
    a, b, c = (e for e in range(len(seg.tags)) if seg.tags[e] == "div")
    closing_a, closing_b, closing_c = (
        next(seg.owners[j] for j in range(seg.firsts[d], seg.ends[d]) if CLOSING in seg.texts[j])
        for d in (a, b, c)
    )
    strip = sorted([closing_a, closing_b, closing_c])
    assert template.without_article_lines(seg, strip) == sorted([closing_b, closing_c])
    prose_a = seg.owners[seg.firsts[a]]  # the prose before it is itself template
    assert template.without_article_lines(seg, sorted([prose_a, closing_a])) == [prose_a, closing_a]


# --- a post's tag list right before its headline ------------------------------------------------------


def _tagged_page(i: int) -> Page:
    """A page whose post opens with its tag list (all links, different on every page) over its headline."""
    t = TOPICS[i % len(TOPICS)]
    links = (
        f"<a href='/t/{t}'>{t}</a>",
        f"<a href='/t/{t}-news'>{t} news</a>",
        f"<a href='/d/{i}'>day {i} in town</a>",
    )
    tags = f'<p class="tags">{" ".join(links)}</p>'
    body = f'<div class="post">{tags}{_headline(i)}{"".join(_paragraphs(i))}</div>'
    page = site_page(i, body)
    assert page.html is not None
    title = f"<title>The {t} number {i}</title>"  # the metadata's headline: the region is anchored on it
    return Page(
        id=page.id, html=page.html.replace(f"<title>Page {i}</title>", title), url=page.url, site=page.site
    )


def _fifth_tagged_page() -> Document:
    return _fifth_of(_tagged_page)


def test_the_tag_list_right_before_the_headline_is_not_the_article(monkeypatch: pytest.MonkeyPatch) -> None:
    # rule: TAG_LINE_LINK_DENSITY (template.without_tag_lines, step 9)
    doc = _fifth_tagged_page()
    assert doc.method == "template"
    assert "On day 5 the school was" in doc.text
    assert "day 5 in town" not in doc.text
    monkeypatch.setattr(h, "TAG_LINE_LINK_DENSITY", 2.0)  # without the rule the memory keeps it
    assert "day 5 in town" in _fifth_tagged_page().text


def test_without_tag_lines_drops_only_linked_paragraphs_before_the_headline() -> None:
    seg = seg_of(
        "<div><p><a href='/a'>river</a> <a href='/b'>market news</a></p><h1>The river</h1>"
        "<p>July 3, 2012</p><h2>The market</h2><h3><a href='/c'>Section</a></h3><h2>The bridge</h2></div>"
    )
    kept = list(range(len(seg.texts)))
    assert template.without_tag_lines(seg, 1, kept) == [1, 2, 3, 4, 5]  # the tag list goes
    # ... further before the headline too; not an unlinked line nor a linked heading, nor after the headline
    assert template.without_tag_lines(seg, 5, kept) == [1, 2, 3, 4, 5]
    assert template.without_tag_lines(seg, 5, [1, 2, 3, 4, 5]) == [1, 2, 3, 4, 5]
    assert template.without_tag_lines(seg, 0, kept) == kept  # no block before the headline
    assert template.without_tag_lines(seg, None, kept) == kept


# --- a blog's date header over its post's title, with keep_headline ------------------------------------


def _dated_post_page(i: int) -> Page:
    """A blog page whose post opens with its date header ("October 9, 2012": template once digits are
    dropped) over its title, the page's <title>."""
    title = f"The {TOPICS[i % len(TOPICS)]} number {i}"
    post = f'<h2 class="date-header">October {i + 4}, 2012</h2><div class="post"><h1>{title}</h1>'
    return site_page(i, f"{post}{''.join(_paragraphs(i))}{SHARE}</div>", title=title)


def _fifth_dated_post(keep_headline: bool) -> Document:
    return _fifth_of(_dated_post_page, CleanOptions(keep_headline=keep_headline))


def test_a_date_header_over_the_title_is_not_stripped_when_the_text_keeps_datelines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    doc = _fifth_dated_post(keep_headline=True)
    assert doc.method == "template"
    assert "The school number 5" in doc.text
    assert "October 9, 2012" in doc.text
    assert "Share this story" not in doc.text
    assert "October 9, 2012" not in _fifth_dated_post(keep_headline=False).text
    monkeypatch.setattr(h, "STRIPPED_DATELINE_ABOVE_HEADING", 0)  # without the rule the template strips it
    assert "October 9, 2012" not in _fifth_dated_post(keep_headline=True).text


# --- a headline after the stripped page's text -----------------------------------------------------------


def _blog_page(i: int) -> Page:
    """A page titled with the blog's name, which the menu names (template) and a box after the article
    names too (different on every page, so not template)."""
    t = TOPICS[i % len(TOPICS)]
    nav = f'{NAV}<li><a href="/blog">The Town Blog</a></li>'
    box = f'<div class="subscribe"><p>Subscribe to The Town Blog for the {t}</p></div>'
    return site_page(i, article(i).replace("h1>", "h2>"), title="The Town Blog", nav=nav, after=box)


def _fifth_blog_page() -> Document:
    return _fifth_of(_blog_page, CleanOptions(keep_headline=True))


def test_a_headline_after_the_stripped_pages_text_is_not_added(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _fifth_blog_page()
    assert doc.method == "template"
    assert "On day 5 the school was the place" in doc.text
    assert "Subscribe to The Town Blog" not in doc.text
    monkeypatch.setattr(h, "HEADLINE_AFTER_STRIPPED_TEXT", False)  # without the rule it is the headline
    assert "Subscribe to The Town Blog for the school" in _fifth_blog_page().text


# --- a breadcrumb trail ending in the headline, its separators gone ---------------------------------------


def _trail_page(i: int) -> Page:
    """A page whose post opens with a breadcrumb trail (links, no separators) ending in its title."""
    title = f"The story of the {TOPICS[i % len(TOPICS)]} number {i}"
    crumbs = f'<div class="crumbs"><a href="/">Home</a> <a href="/news">Town News</a> {title}</div>'
    text = f'<div class="text">{"".join(_paragraphs(i))}</div>'
    post = f'<div class="post">{crumbs}<h1>{title}</h1>{text}{SHARE}</div>'
    return site_page(i, post, title=title)


def _fifth_trail_page() -> Document:
    return _fifth_of(_trail_page, CleanOptions(keep_headline=True))


def test_a_breadcrumb_trail_ending_in_the_headline_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _fifth_trail_page()
    assert doc.method == "template"
    assert doc.text.startswith("The story of the school number 5\n\nOn day 5 the school")
    assert "Town News" not in doc.text
    monkeypatch.setattr(h, "TRAIL_TO_HEADLINE", False)  # without the rule the trail opens the text
    assert _fifth_trail_page().text.startswith("Home Town News The story of the school number 5")
