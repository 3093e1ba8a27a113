"""The content region: Baisa's descent, the memory's steering (learned location, widening), twins, lead."""

from __future__ import annotations

from itertools import accumulate

import pytest

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3, SIDEBAR, elem, seg_of
from worker.clean import heuristics as h
from worker.clean.kinds import find_headlines
from worker.clean.region import (
    Steer,
    anchor,
    beside_galleries,
    choose,
    descend,
    nearest_headline,
    outside_chrome,
    prefer_learned,
    settled,
    the_one_post,
    widen,
)
from worker.clean.score import score
from worker.clean.segment import Segmentation, stable_path
from worker.clean.sitememory import key_hash


def _choose(seg: Segmentation, steer: Steer | None = None) -> tuple[str, list[str]]:
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, steer)
    texts = [seg.texts[i] for lo, hi in region.ranges for i in range(lo, hi)]
    return stable_path(seg, region.target), texts


def _prefix(seg: Segmentation) -> list[float]:
    return [0.0, *accumulate(score(seg).weights)]


def test_target_is_the_article_not_the_wrappers() -> None:
    seg = seg_of(
        f'<div id="page">{NAV}<div id="main"><article class="story"><h1>Bridge opens</h1>'
        f"<p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></article>{SIDEBAR}</div></div>"
    )
    path, texts = _choose(seg)
    assert path == "html>body>div#page>div#main>article.story"
    assert texts == ["Bridge opens", PROSE, PROSE2, PROSE3]


def test_one_long_paragraph_is_never_the_target() -> None:
    long = " ".join([PROSE, PROSE2, PROSE3])
    seg = seg_of(f"<div id='c'><p>{long}</p><p>{PROSE}</p></div>{NAV}")
    assert descend(seg, _prefix(seg)) == elem(seg, "div", "c")


def test_article_split_into_twin_containers_is_read_whole() -> None:
    seg = seg_of(
        f"{NAV}<article><div class='chunk a'><p>{PROSE}</p><p>{PROSE2}</p></div>"
        f"<div class='ad-slot'><p>Advertisement</p></div><div class='chunk b'><p>{PROSE3}</p></div></article>"
    )
    _, texts = _choose(seg)
    assert texts == [PROSE, PROSE2, PROSE3]


def _rows(first: str) -> Segmentation:
    """A table layout: a list's first part (`first`, in the upper row's cell), then its second part in a
    div.cc in the lower row's cell, which density takes."""
    second = f"<div class='cc'><p>{PROSE3}</p><p>{PROSE}</p><p>{PROSE2}</p></div>"
    return seg_of(
        f"{NAV}<table><tr><td class='gp'>{first}</td></tr><tr><td class='bgp'>{second}</td></tr></table>"
    )


def test_an_article_split_over_a_table_layouts_rows_is_read_whole() -> None:
    seg = _rows(f"<div class='cc'><p>{PROSE}</p><p>{PROSE2}</p></div>")
    path, texts = _choose(seg)
    assert path.endswith("tr>td.bgp>div.cc")
    assert texts == [PROSE, PROSE2, PROSE3, PROSE, PROSE2]  # rule: COUSIN_TWIN_LEVELS
    assert _choose(seg, Steer(None))[1] == texts  # with the memory too


def test_only_a_cousin_at_the_targets_depth_holding_prose_is_its_twin() -> None:
    assert _choose(_rows(f"<div><div class='cc'><p>{PROSE}</p><p>{PROSE2}</p></div></div>"))[1] == [
        PROSE3,
        PROSE,
        PROSE2,
    ]  # one level deeper
    assert _choose(_rows("<div class='cc'><p>A short note.</p></div>"))[1] == [PROSE3, PROSE, PROSE2]  # light
    assert _choose(_rows(f"<div class='other'><p>{PROSE}</p><p>{PROSE2}</p></div>"))[1] == [
        PROSE3,
        PROSE,
        PROSE2,
    ]  # another name


def test_a_cousin_named_like_the_target_once_lower_cased_is_its_twin() -> None:
    # "\u0130" (İ) is the one character str.lower makes two of: "İTEM" lower-cased is the target's
    # "i\u0307tem", though one character shorter (cousin_twins passes over names of another length).
    second = f"<div class='i\u0307tem'><p>{PROSE3}</p><p>{PROSE}</p><p>{PROSE2}</p></div>"
    seg = seg_of(
        f"{NAV}<table><tr><td class='gp'><div class='\u0130TEM'><p>{PROSE}</p><p>{PROSE2}</p></div></td></tr>"
        f"<tr><td class='bgp'>{second}</td></tr></table>"
    )
    assert _choose(seg)[1] == [PROSE, PROSE2, PROSE3, PROSE, PROSE2]


def test_lead_paragraph_in_the_article_header_joins_the_region() -> None:
    lead = "The bridge over the river opened on Tuesday after two years of delays and a long dispute."
    seg = seg_of(
        f"{NAV}<article><header><h1>Bridge opens</h1><p class='standfirst'>{lead}</p></header>"
        f"<div class='body'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></article>{SIDEBAR}"
    )
    assert _choose(seg)[1] == [lead, PROSE, PROSE2, PROSE3]


def test_a_summary_set_as_a_heading_joins_as_the_lead() -> None:
    # abcnews.go.com: "div.intro > div.dek > h2" holds the article's summary sentence under the headline
    lead = "The bridge over the river opened on Tuesday after two years of delays and a long dispute."

    def page(box: str) -> str:
        return (
            f"{NAV}<div class='{box}'><div class='headline'><h1>Bridge opens</h1></div>"
            f"<div class='dek'><h2>{lead}</h2></div></div>"
            f"<div class='story'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div>{SIDEBAR}"
        )

    assert _choose(seg_of(page("intro")))[1] == [lead, PROSE, PROSE2, PROSE3]
    # a heading named only as the headline's second line ("dek") is no lead: some gold leaves it out
    assert _choose(seg_of(page("top")))[1] == [PROSE, PROSE2, PROSE3]


def test_an_unnamed_lead_paragraph_beside_the_target_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first paragraph sits above an inline box, outside the container density chose; the box breaks
    # the run of prose boxes, and its class names no lead.
    lead = (
        "The bridge over the river opened on Tuesday after two years of delays, a long dispute over the "
        "cost and a winter of floods."
    )
    box = "<div class='inline'><img src='a.jpg'><span>Photo</span></div>"
    html = (
        f"{NAV}<div id='story'><p class='first'>{lead}</p>{box}"
        f"<div class='body'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></div>{SIDEBAR}"
    )
    assert _choose(seg_of(html))[1] == [lead, PROSE, PROSE2, PROSE3]
    # Not a link-heavy paragraph, nor one a mark took out.
    linked = html.replace(f"<p class='first'>{lead}</p>", f"<p><a href='/x'>{lead}</a></p>")
    assert lead not in _choose(seg_of(linked))[1]
    marked = html.replace("<p class='first'>", "<p class='share-text'>")
    assert lead not in _choose(seg_of(marked))[1]
    # Without the rule it stays out.
    monkeypatch.setattr(h, "LEAD_PROSE_MIN_CHARS", 10_000)
    assert _choose(seg_of(html))[1] == [PROSE, PROSE2, PROSE3]


def test_a_lead_in_the_targets_table_cell_joins_a_side_cells_line_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A layout table: the standfirst is table-cell text right in the article's box, above its body.
    lead = (
        "Using amateur actors and a traumatised chicken, City of God exposes the violent truth of the favelas"
    )
    topics = "Advocacy About Breast Cancer Advocacy One Woman's Story Ways to Be an Advocate Public Policy"
    topics += " Links and Resources"
    side = f"<td><p>{topics}</p></td>"
    article = (
        f"<td><div id='article'><h1>On a wing</h1>{lead}"
        f"<div id='body'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></div></td>"
    )
    html = f"{NAV}<table><tr>{side}{article}</tr></table>"
    assert _choose(seg_of(html))[1] == [lead, PROSE, PROSE2, PROSE3]  # rule: LEAD_CELL_KINDS
    # The side cell's line right before the target's cell is in no cell holding the target: no lead.
    bare = f"{NAV}<table><tr>{side}<td><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></td></tr></table>"
    assert _choose(seg_of(bare))[1] == [PROSE, PROSE2, PROSE3]
    monkeypatch.setattr(h, "LEAD_CELL_KINDS", frozenset())
    assert _choose(seg_of(html))[1] == [PROSE, PROSE2, PROSE3]


def test_a_lead_of_several_paragraphs_joins_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # A standfirst of two paragraphs in the article's header: the whole run joins, not only its last one.
    lead1 = "The bridge over the river opened on Tuesday after two years of delays and a long dispute."
    lead2 = "Commuters who crossed it first said the wait had been worth it, though the tolls are high."
    html = (
        f"{NAV}<article><header><h1>Bridge opens</h1><div class='standfirst'><p>{lead1}</p><p>{lead2}</p>"
        f"</div></header><div class='body'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></article>"
        f"{SIDEBAR}"
    )
    assert _choose(seg_of(html))[1] == [lead1, lead2, PROSE, PROSE2, PROSE3]
    # The run ends at the first block before it that is no lead: a heading between two leads ends it.
    split = html.replace(f"<p>{lead1}</p><p>", f"<p>{lead1}</p><h2>Opening day</h2><p>")
    assert _choose(seg_of(split))[1] == [lead2, PROSE, PROSE2, PROSE3]
    # A prose paragraph outside the lead's box and the target's parent is no lead and does not join.
    outside = (
        f"{NAV}<div class='promo'><p>{lead1}</p></div><article><header><h1>Bridge opens</h1>"
        f"<p class='standfirst'>{lead2}</p></header><div class='body'><p>{PROSE}</p><p>{PROSE2}</p>"
        f"<p>{PROSE3}</p></div></article>{SIDEBAR}"
    )
    assert _choose(seg_of(outside))[1] == [lead2, PROSE, PROSE2, PROSE3]
    # Without the rule (a run of one block) only the lead's last paragraph joins, as before.
    monkeypatch.setattr(h, "LEAD_PARAGRAPH_RUN", 1)
    assert _choose(seg_of(html))[1] == [lead2, PROSE, PROSE2, PROSE3]


def test_a_named_lead_behind_a_share_bar_and_a_caption_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    # The Guardian's header: the standfirst ("stand-first", hyphenated), then a share bar, the byline list and
    # the main picture's caption: 8 blocks before the body, past LEAD_PARAGRAPH_BLOCKS.
    lead = (
        "Liberals question why poor voters who use public assistance still vote for the party that wants to "
        "cut those very services."
    )
    share = "<ul class='share-links'>" + "".join(f"<li><a href='/s'>{w}</a></li>" for w in "ABCDE") + "</ul>"
    caption = (
        "<div class='caption'>Workers queue outside a benefits office in Sarasota, Florida, on Monday.</div>"
    )
    html = (
        f"{NAV}<div class='article-header'><h1>Poor voters</h1>"
        f"<p class='stand-first-alone stand-first'>{lead}</p>{share}"
        f"<ul class='byline'><li>By A Writer</li></ul></div><div class='wrapper'>{caption}"
        f"<div class='body'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div></div>{SIDEBAR}"
    )
    assert _choose(seg_of(html))[1][:2] == [lead, PROSE]
    # Unnamed, or short, that far back: no lead.
    unnamed = html.replace("stand-first-alone stand-first", "x")
    assert lead not in _choose(seg_of(unnamed))[1]
    short = html.replace(lead, "Liberals question why poor voters vote as they do.")
    assert "Liberals question why poor voters vote as they do." not in _choose(seg_of(short))[1]
    # Without the rule it stays out.
    monkeypatch.setattr(h, "LEAD_NAMED_BLOCKS", 0)
    assert lead not in _choose(seg_of(html))[1]


def _widen(seg: Segmentation, target: int) -> int:
    return widen(seg, _prefix(seg), target, score(seg).link_density)


def test_widen_climbs_over_a_headline_but_not_into_the_page() -> None:
    seg = seg_of(f"<div id='main'><h1>Title</h1><div id='text'><p>{PROSE}</p><p>{PROSE2}</p></div></div>")
    main, text = elem(seg, "div", "main"), elem(seg, "div", "text")
    assert _widen(seg, text) == main  # the headline is small next to the text
    heavy = seg_of(f"<div id='main'><p>{PROSE3} {PROSE3}</p><div id='text'><p>{PROSE}</p></div></div>")
    assert _widen(heavy, elem(heavy, "div", "text")) == elem(heavy, "div", "text")
    after = seg_of(f"<div id='main'><div id='text'><p>{PROSE}</p><p>{PROSE2}</p></div><p>Tags: x.</p></div>")
    assert _widen(after, elem(after, "div", "text")) == elem(after, "div", "text")


def _columns(post: str) -> Segmentation:
    """A short post (`post`: its boxes) and, after it, a heavier column of teasers, in one page box."""
    teasers = "".join(f"<div class='item'><p>{p}</p></div>" for p in (PROSE, PROSE2, PROSE3, PROSE))
    return seg_of(f"<div id='shell'><div id='wide'>{post}<div id='side'>{teasers}</div></div></div>")


def test_a_climb_from_a_sidebar_over_the_article_to_the_page_is_not_learned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seg = _columns(f"<div id='post'><h1>Bridge opens</h1><p>{PROSE}</p><p>{PROSE2}</p></div>")
    prefix, link_density = _prefix(seg), score(seg).link_density
    side = elem(seg, "div", "side")
    assert descend(seg, prefix) == side  # the teasers outweigh the post
    top = _widen(seg, side)
    assert top == elem(seg, "div", "shell")  # and widening takes the post and the teasers
    assert not settled(seg, prefix, link_density, side, top)
    scores = score(seg)
    assert not choose(seg, scores.weights, scores.link_density, Steer(None)).settled
    assert choose(seg, scores.weights, scores.link_density, None).settled  # a page the template left alone
    # Over a headline alone (no prose before the target), the climb to the page is settled...
    headline = _columns("<div id='post'><h1>Bridge opens</h1></div>")
    h_side = elem(headline, "div", "side")
    h_top = _widen(headline, h_side)
    assert h_top == elem(headline, "div", "shell")
    assert settled(headline, _prefix(headline), score(headline).link_density, h_side, h_top)
    # ...and so is a climb over prose that stops below the page's top-level box.
    assert settled(seg, prefix, link_density, side, elem(seg, "div", "wide"))
    monkeypatch.setattr(h, "UNSETTLED_MAX_DEPTH", 0)
    assert settled(seg, prefix, link_density, side, top)


def _post(second: str) -> Segmentation:
    """A Typepad post: the article's first paragraphs, then a second box (`second`'s class) of prose."""
    return seg_of(
        f"<div id='post'><h3>Title</h3><div class='entry-content'><div class='entry-body'><p>{PROSE}</p>"
        f"<p>{PROSE2}</p></div><div class='{second}'><p>{PROSE3}</p><p>{PROSE2}</p></div></div></div>"
    )


def test_widen_climbs_over_the_articles_continuation_box(monkeypatch: pytest.MonkeyPatch) -> None:
    seg = _post("entry-more")  # named like the target: the rest of the article, after "continue reading"
    assert _widen(seg, elem(seg, "div", "entry-body")) == elem(seg, "div", "post")
    bio = _post("box-text")  # prose, but named otherwise: what follows the article is not the article
    assert _widen(bio, elem(bio, "div", "entry-body")) == elem(bio, "div", "entry-body")
    twin = _post("entry-body")  # the same class is a twin (with_twins), not a continuation
    first = twin.classes.index("entry-body")
    assert _widen(twin, first) == first
    monkeypatch.setattr(h, "WIDEN_CONTINUATION_BOXES", 0)
    assert _widen(seg, elem(seg, "div", "entry-body")) == elem(seg, "div", "entry-body")


def test_the_learned_location_wins_when_this_page_has_it() -> None:
    seg = seg_of(
        f"<div id='a'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div>"
        f"<div id='b'><p>{PROSE}</p><p>{PROSE2}</p></div>"
    )
    prefix = _prefix(seg)
    a, b = elem(seg, "div", "a"), elem(seg, "div", "b")
    assert descend(seg, prefix) == a  # three of the five paragraphs
    assert prefer_learned(seg, prefix, a, key_hash("html>body>div#b")) == b
    assert prefer_learned(seg, prefix, a, key_hash("html>body>div#elsewhere")) == a
    tiny = seg_of(f"<div id='a'><p>{PROSE}</p><p>{PROSE2}</p></div><div id='b'><p>Hi.</p></div>")
    tiny_a = elem(tiny, "div", "a")
    assert prefer_learned(tiny, _prefix(tiny), tiny_a, key_hash("html>body>div#b")) == tiny_a  # nearly empty


def test_steer_is_applied_only_when_given() -> None:
    seg = seg_of(
        f"<div id='main'><h1>Title</h1><div id='text'><p>{PROSE}</p><p>{PROSE2}</p></div></div>{NAV}"
    )
    assert _choose(seg)[0] == "html>body>div#main>div#text"
    assert _choose(seg, Steer(None))[0] == "html>body>div#main"


def test_an_empty_page_chooses_the_body() -> None:
    seg = seg_of("<div></div>")
    assert _choose(seg) == ("html>body", [])


def test_the_target_is_anchored_on_a_headline_outside_it() -> None:
    # The headline and a lead box sit beside the part density chose: the region grows to hold them.
    lead = " ".join([PROSE3, PROSE3])
    seg = seg_of(
        f"{NAV}<div id='story'><h1>Bridge opens after two years</h1><div class='lead'><p>{lead}</p></div>"
        f"<div id='rest'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE}</p><p>{PROSE2}</p></div></div>{SIDEBAR}"
    )
    prefix = _prefix(seg)
    target = descend(seg, prefix)
    headline = seg.texts.index("Bridge opens after two years")
    assert target == elem(seg, "div", "rest")
    assert anchor(seg, prefix, target, headline) == elem(seg, "div", "story")
    # the memory learns where density found the article, not the anchored element
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None, headline)
    assert (region.target, region.located) == (elem(seg, "div", "story"), target)


def test_the_anchor_never_climbs_to_body_nor_over_a_header_alone() -> None:
    seg = seg_of(f"<h1>Bridge opens after two years</h1><div id='a'><p>{PROSE}</p><p>{PROSE2}</p></div>{NAV}")
    prefix = _prefix(seg)
    assert anchor(seg, prefix, elem(seg, "div", "a"), 0) == elem(seg, "div", "a")  # its ancestor is <body>
    seg = seg_of(
        f"<div id='s'><h1>Bridge opens after two years</h1><div id='a'><p>{PROSE}</p><p>{PROSE2}</p>"
        f"</div></div>{NAV}"
    )
    prefix = _prefix(seg)
    assert anchor(seg, prefix, elem(seg, "div", "a"), 0) == elem(seg, "div", "a")  # adds only a header


def _title_repeated_above(copy: str) -> Segmentation:
    """A page whose header repeats the title (`copy`, holding it) above a box of notes and the story, whose
    own heading holds it too: the story (div#s: that heading over div#rest) holds over half the page."""
    title = "Bridge opens after two years"
    return seg_of(
        f"{NAV}<div id='page'><div id='top'>{copy}</div><div id='notes'><p>{PROSE3}</p><p>{PROSE3}</p></div>"
        f"<div id='s'><h2>{title}</h2><div id='rest'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE}</p>"
        f"<p>{PROSE2}</p></div></div></div>"
    )


def test_the_anchor_uses_the_headline_nearest_the_article() -> None:
    seg = _title_repeated_above("<p>Bridge opens after two years</p>")
    scores = score(seg)
    found = [i for i, t in enumerate(seg.texts) if t == "Bridge opens after two years"]
    rest = elem(seg, "div", "rest")
    assert descend(seg, _prefix(seg)) == rest
    assert nearest_headline(seg, rest, found[0], found[1:]) == found[1]
    # anchored on the header's copy, the target took the header and the notes in
    assert choose(seg, scores.weights, scores.link_density, None, found[0]).target == elem(seg, "div", "page")
    region = choose(seg, scores.weights, scores.link_density, None, found[0], None, found[1:])
    assert region.target == rest  # rule: HEADLINE_REPEAT_KIND (the story's heading adds only itself)


def test_a_later_copy_of_the_headline_that_is_not_a_heading_is_passed_over() -> None:
    # the title in a list (an archive, "recent posts") nearer the target is not the article's headline
    title = "Bridge opens after two years"
    seg = _title_repeated_above(f"<h1>{title}</h1>")
    first = seg.texts.index(title)
    h2 = seg.texts.index(title, first + 1)
    assert find_headlines(seg, title, repeats=True) == [first, h2]
    seg.kinds[h2] = "list_item"
    assert find_headlines(seg, title, repeats=True) == [first]  # rule: HEADLINE_REPEAT_KIND


def _article_then(boxes: str) -> Segmentation:
    """A page column: the article (div#a, four paragraphs), then `boxes`."""
    article = f"<div id='a'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p><p>{PROSE}</p></div>"
    return seg_of(f"{NAV}<div id='main'>{article}{boxes}</div>")


def test_neighbouring_prose_boxes_join_the_target_single_page() -> None:
    more = " ".join([PROSE2, PROSE])
    seg = _article_then(
        f"<div id='empty'></div><div id='b'><p>{more}</p></div>"
        f"<div id='c'><ul><li><a href='/1'>Another story</a></li><li><a href='/2'>And one more</a></li></ul>"
        f"</div><div id='d'><p>{PROSE3}</p></div>"
    )
    path, texts = _choose(seg)
    assert path.endswith("div#a")
    assert texts == [PROSE, PROSE2, PROSE3, PROSE, more]  # stops at the link list before div#d
    assert _choose(seg, Steer(None))[1] == [PROSE, PROSE2, PROSE3, PROSE]  # not where the memory steers


def test_a_table_layouts_other_column_joins_the_target_single_page() -> None:
    # One essay over the two cells of a layout row; the heavier cell holds it in a nested table, so descent
    # ends below that cell, whose neighbouring cell (table-cell text, no paragraphs) holds the first half.
    first = f"<td>{PROSE} {PROSE2}</td>"
    second = f"<td><table><tr><td><p>{PROSE3}</p><p>{PROSE}</p><p>{PROSE2}</p></td></tr></table></td>"
    side = "<td><ul>" + "".join(f"<li><a href='/{i}'>Archive {i}</a></li>" for i in range(6)) + "</ul></td>"
    seg = seg_of(f"{NAV}<table><tr>{side}{first}{second}</tr></table>")
    path, texts = _choose(seg)
    assert path.endswith("td>table>tbody>tr>td")  # the nested cell
    assert texts == [f"{PROSE} {PROSE2}", PROSE3, PROSE, PROSE2]  # rule: PROSE_COLUMN_TAGS; not the links
    assert _choose(seg, Steer(None))[1] == [PROSE3, PROSE, PROSE2]  # not where the memory steers


def test_a_table_cell_targets_neighbouring_cell_of_sentences_joins_a_menu_cell_does_not() -> None:
    # The target is a layout row's cell; the row's other cell ends the text (a bio beside the article).
    main = f"<td><p>{PROSE}</p><p>{PROSE3}</p><p>{PROSE}</p><p>{PROSE3}</p></td>"
    seg = seg_of(f"{NAV}<table><tr>{main}<td>{PROSE2} {PROSE}</td></tr></table>")
    path, texts = _choose(seg)
    assert path.endswith("tr>td")
    assert texts == [PROSE, PROSE3, PROSE, PROSE3, f"{PROSE2} {PROSE}"]  # rule: the target's own cells
    # A side column of topic lines without links is no prose: no sentence ends it (rule: PROSE_CELL_END).
    topics = "Clinical Trials What Are Clinical Trials Types of Trials Genetic Testing, Counseling"
    menu = " ".join([topics] * 3)
    seg = seg_of(f"{NAV}<table><tr><td>{menu}</td>{main}</tr></table>")
    assert _choose(seg)[1] == [PROSE, PROSE3, PROSE, PROSE3]


def _post_page(post: str, boxes: tuple[str, ...] = (PROSE, PROSE2)) -> Segmentation:
    """A post beside an "about me" box and notes that together outweigh it, all in one page column (no
    child holds half of it: density stops there)."""
    column = "".join(f"<div class='box'><p>{text}</p></div>" for text in boxes)
    return seg_of(
        f"{NAV}<div id='content'>{column}"
        f"<div id='entries'><div class='entry text'><h2>Creative food sculptures</h2>{post}</div></div></div>"
    )


def _region_with_headline(seg: Segmentation, flags: bool = True) -> int:
    scores = score(seg)
    headline = seg.texts.index("Creative food sculptures")
    flagged = scores.idents if flags else None
    return choose(seg, scores.weights, scores.link_density, None, headline, flagged).target


def test_a_post_under_the_headline_wins_over_the_column_beside_it() -> None:
    seg = _post_page(f"<p>{PROSE3}</p>")
    assert _region_with_headline(seg, flags=False) == elem(seg, "div", "content")  # the column wins
    assert _region_with_headline(seg) == elem(seg, "div", "entry")  # rule: HEADLINE_POST_MIN_WEIGHT


def test_the_post_under_the_headline_needs_prose_and_a_share_of_the_target() -> None:
    # only a heading after the headline: an article header, not the post
    seg = _post_page(f"<h3>{PROSE3}</h3>")
    assert _region_with_headline(seg) == elem(seg, "div", "content")
    # a post holding less than HEADLINE_POST_MIN_SHARE of the target: a teaser the headline matched
    short = "<p>Repurposing food as art is creative, and fun to look at.</p>"
    seg = _post_page(short, (PROSE, PROSE2, PROSE3))
    assert _region_with_headline(seg) == elem(seg, "div", "content")
    # a headline that is not a heading
    seg = seg_of(
        f"{NAV}<div id='content'><div class='box'><p>{PROSE}</p></div><div class='box'><p>{PROSE2}</p></div>"
        f"<div class='entry'><p>Creative food sculptures</p><p>{PROSE3}</p></div></div>"
    )
    assert _region_with_headline(seg) == elem(seg, "div", "content")


def _one_post(seg: Segmentation, target: int) -> int:
    return the_one_post(seg, _prefix(seg), target, score(seg).idents)


def test_the_pages_one_post_wins_over_the_column_holding_it() -> None:
    seg = seg_of(
        f"{NAV}<div id='main'><div class='post hentry'><h3>A short note</h3><p>{PROSE3}</p></div>"
        f"<div id='about'><p>{PROSE}</p></div><div id='note'><p>{PROSE2}</p></div></div>"
    )
    main, post = elem(seg, "div", "main"), elem(seg, "div", "post")
    assert descend(seg, _prefix(seg)) == main  # the boxes beside the post outweigh it
    assert _one_post(seg, main) == post  # rule: SINGLE_POST_MIN_WEIGHT
    assert _one_post(seg, post) == post
    scores = score(seg)
    assert choose(seg, scores.weights, scores.link_density, None, None, scores.idents).target == post
    # a stripped page too: the sidebar the memory did not strip outweighs a short post there as well
    assert choose(seg, scores.weights, scores.link_density, Steer(None), None, scores.idents).target == post


def test_the_one_post_beside_a_target_replaces_it_only_when_the_target_is_boilerplate() -> None:
    def page(box: str) -> Segmentation:
        return seg_of(f"<div class='post-12'><h3>A short note</h3><p>{PROSE3}</p></div>{box}")

    seg = page(f"<div class='sidebar'><div id='w'><p>{PROSE}</p><p>{PROSE2}</p></div></div>")
    assert _one_post(seg, elem(seg, "div", "w")) == elem(seg, "div", "post-12")
    seg = page(f"<div class='story'><div id='w'><p>{PROSE}</p><p>{PROSE2}</p></div></div>")
    assert _one_post(seg, elem(seg, "div", "w")) == elem(seg, "div", "w")


def test_no_one_post_on_a_list_of_posts_nor_a_post_without_content() -> None:
    two = seg_of(
        f"<div id='main'><div class='post a'><p>{PROSE3}</p></div><div class='post b'><p>{PROSE}</p></div>"
        f"<div id='about'><p>{PROSE2}</p></div></div>"
    )
    assert _one_post(two, elem(two, "div", "main")) == elem(two, "div", "main")
    thin = seg_of(f"<div id='main'><div class='post'><p>By Jane</p></div><div><p>{PROSE2}</p></div></div>")
    assert _one_post(thin, elem(thin, "div", "main")) == elem(thin, "div", "main")


def test_a_short_post_under_a_body_target_wins_at_any_weight() -> None:
    # density found no column holding half the page (the target is <body>): the page's one post holding
    # text is the article however little it weighs (rule: SINGLE_POST_BODY_MIN_WEIGHT)
    seg = seg_of(
        f"{NAV}<div class='post hentry'><p>Posted July 8th, 2011</p><p>Photos by Eirik in Paris</p></div>"
        f"<div id='about'><p>{PROSE}</p></div><div id='note'><p>{PROSE2}</p></div>"
        f"<div id='more'><p>{PROSE3}</p></div>"
    )
    post = elem(seg, "div", "post")
    assert descend(seg, _prefix(seg)) == 0
    assert _prefix(seg)[seg.ends[post]] - _prefix(seg)[seg.firsts[post]] < h.SINGLE_POST_MIN_WEIGHT
    assert _one_post(seg, 0) == post
    # below a column target the weight bar stands
    main = seg_of(
        f"{NAV}<div id='main'><div class='post hentry'><p>Posted July 8th, 2011</p></div>"
        f"<div id='about'><p>{PROSE}</p></div><div id='note'><p>{PROSE2}</p></div></div>"
    )
    assert _one_post(main, elem(main, "div", "main")) == elem(main, "div", "main")


def test_the_authors_box_beside_the_target_does_not_join() -> None:
    bio = " ".join([PROSE2, PROSE])
    seg = _article_then(
        f"<div class='post-author'><h3>About the author</h3><p>{bio}</p></div>"
        f"<div id='d'><p>{PROSE3}</p></div>"
    )
    path, texts = _choose(seg)
    assert path.endswith("div#a")
    assert texts == [PROSE, PROSE2, PROSE3, PROSE]  # rule: AUTHOR_BOX_PREFIXES (and it stops the walk)


def test_a_box_opening_with_a_related_posts_heading_is_neither_twin_nor_neighbour() -> None:
    teaser = "<article class='post'><p>{}</p></article>"
    teasers = teaser.format(PROSE2) + teaser.format(PROSE3)
    headings = (("Você pode gostar...", False), ("You might also like", False), ("Chapter two", True))
    for heading, joins in headings:
        seg = seg_of(
            f"{NAV}<div id='main'><article class='post'><h1>A title</h1><p>{PROSE}</p><p>{PROSE2}</p>"
            f"<p>{PROSE3}</p><p>{PROSE}</p></article>"
            f"<article class='post'><h3>{heading}</h3>{teasers}</article></div>"
        )
        texts = _choose(seg)[1]
        assert texts[-2:] == ([PROSE2, PROSE3] if joins else [PROSE3, PROSE]), heading  # rule: _related_box
    seg = _article_then(f"<div id='b'><h3>Related posts</h3><p>{PROSE3}</p></div>")
    assert _choose(seg)[1] == [PROSE, PROSE2, PROSE3, PROSE]


def _slideshow_page(show: str) -> Segmentation:
    """A short article whose body holds a slideshow of captions (list items) outweighing its prose."""
    captions = "".join(
        f"<li><img src='/{i}.jpg'><p>Runner number {i} crosses the finish line of the final heat, in front "
        f"of a full stadium, on Thursday evening.</p></li>"
        for i in range(12)
    )
    return seg_of(
        f"{NAV}<div id='main'><h1>Bolt wins again</h1><div class='articleBody'><p>{PROSE}</p><p>{PROSE2}</p>"
        f"<div class='media'><div class='{show}-wrapper'><ul class='{show}'>{captions}</ul></div></div>"
        f"<p>{PROSE3}</p></div></div>{SIDEBAR}"
    )


def _region(seg: Segmentation, flags: bool = True) -> tuple[int, list[str]]:
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None, None, scores.idents if flags else None)
    return region.target, [seg.texts[i] for lo, hi in region.ranges for i in range(lo, hi)]


def test_a_slideshow_beside_the_article_is_neither_the_target_nor_in_the_region() -> None:
    seg = _slideshow_page("hp-slideshow")
    target, texts = _region(seg, flags=False)
    assert seg.tags[target] == "ul"  # the captions outweigh the prose: density took the slideshow
    target, texts = _region(seg)  # rule: GALLERY_PREFIXES, GALLERY_LEVELS
    assert target == elem(seg, "div", "articleBody")
    assert texts == [PROSE, PROSE2, PROSE3]
    # the same slideshow found inside a target that holds the article: left out of its blocks
    scores = score(seg)
    prefix = [0.0, *accumulate(scores.weights)]
    body = elem(seg, "div", "articleBody")
    show = elem(seg, "div", "hp-slideshow-wrapper")
    assert beside_galleries(seg, prefix, scores.link_density, body, scores.idents) == (body, [show])
    # a list not named as a gallery is left alone
    plain = _slideshow_page("results")
    assert seg.tags[_region(plain)[0]] == "ul"


def test_a_gallery_climb_needs_prose_beside_it_within_reach() -> None:
    # a gallery page: no prose outside the gallery, which stays the target
    captions = "".join(f"<li><p>{text}</p></li>" for text in (PROSE, PROSE2, PROSE3, PROSE))
    seg = seg_of(f"{NAV}<div id='main'><h1>In pictures</h1><ul class='gallery'>{captions}</ul></div>")
    assert _region(seg)[0] == elem(seg, "ul", "gallery")
    # an article inside a wrapper named like a gallery (its paragraphs are prose boxes): no climb
    seg = seg_of(
        f"{NAV}<div id='page'><div class='gallery-page'><div id='a'><p>{PROSE}</p><p>{PROSE2}</p>"
        f"<p>{PROSE3}</p><p>{PROSE}</p></div></div><div id='side'><p>{PROSE}</p><p>{PROSE2}</p></div></div>"
    )
    target, texts = _region(seg)
    assert target == elem(seg, "div", "a")
    assert texts == [PROSE, PROSE2, PROSE3, PROSE]


def test_short_unnamed_boxes_between_an_unnamed_targets_prose_boxes_are_stepped_over() -> None:
    first, second = " ".join([PROSE3, PROSE]), " ".join([PROSE2, PROSE3])
    heavy = [PROSE, PROSE2, PROSE3, PROSE, PROSE2]

    def page(between: str) -> Segmentation:
        # a post typed in a browser editor: unnamed <div>s, the heaviest one after a short line and a link
        body = "".join(f"<p>{text}</p>" for text in heavy)
        boxes = f"<div>{first}</div><div>{second}</div>{between}<div>{body}</div>"
        return seg_of(f"{NAV}<div id='post'>{boxes}</div>")

    seg = page("<div>And one more thing:</div><div><a href='/x'>Essential links</a></div>")
    assert _choose(seg)[1] == [first, second, "And one more thing:", "Essential links", *heavy]  # rule
    # a named box between them, or one of another tag, still ends the walk (the lead paragraph rule takes
    # the nearest prose block before the target, and the prose blocks right before it: LEAD_PARAGRAPH_RUN)
    for between in ("<div class='note'>And one more thing:</div>", "<p>And one more thing:</p>"):
        assert _choose(page(between))[1] == [first, second, *heavy]


def test_blocks_in_the_pages_footer_side_column_or_navigation_are_not_kept() -> None:
    licence = "All photos are licensed under a Creative Commons licence; you may share and remix them freely."
    about = "This is a place to record thoughts, creations, inspirations and photographic memories of mine."
    seg = seg_of(
        f"<div id='page'><div class='post'><h3>Velvet and shine</h3><p>Photos by Eirik</p></div>"
        f"<aside><div class='widget-content'><p>{about}</p></div></aside><nav><p>{PROSE2}</p></nav>"
        f"<div id='footer'><p>{licence}</p></div><footer><p>{PROSE3}</p></footer></div>"
    )
    blocks = list(range(len(seg.texts)))
    flags = score(seg).idents
    kept = [seg.texts[i] for i in outside_chrome(seg, flags, blocks)]
    assert kept == ["Velvet and shine", "Photos by Eirik"]  # rule: h.CHROME_TAGS, h.CHROME_PREFIXES
    # the post inside a theme's wrapper named like a side column, or an <aside> named as the post, stays;
    # so does a post inside a footer's <article>, and a footer line naming no page footer
    for html in (
        f"<div class='content-sidebar-wrap'><div class='hfeed content'><p>{PROSE}</p></div></div>",
        f"<div class='has-sidebar'><article><p>{PROSE}</p></article></div>",
        f"<aside class='blogpost'><p>{PROSE}</p></aside>",
        f"<footer><article><p>{PROSE}</p></article></footer>",
        f"<div class='comment-footer'><p>{PROSE}</p></div>",
        f"<div class='footnote'><p>{PROSE}</p></div>",
    ):
        seg = seg_of(html)
        blocks = list(range(len(seg.texts)))
        assert outside_chrome(seg, score(seg).idents, blocks) == blocks, html
    # a post's own footer (its meta line, "entry-footer") inside an unnamed container is the page's chrome
    meta = "<div class='entry-footer'><p>Posted by Mike on May 5</p></div>"
    seg = seg_of(f"<div id='c'><p>{PROSE}</p>{meta}</div>")
    assert [seg.texts[i] for i in outside_chrome(seg, score(seg).idents, [0, 1])] == [PROSE]
    assert outside_chrome(seg, score(seg).idents, [0, 1], frozenset({1})) == [0, 1]  # spared: the model's
    assert outside_chrome(seg, score(seg).idents, []) == []


def test_an_unnamed_box_of_a_stripped_post_body_climbs_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the memory, an unnamed target inside "post-body" (over unnamed boxes) is the whole post body
    (STRIPPED_POST_LEVELS); single-page, past a named box, or beyond the levels, it stays."""

    def target(html: str, steer: Steer | None) -> tuple[int, int]:
        seg = seg_of(html)
        scores = score(seg)
        got = choose(seg, scores.weights, scores.link_density, steer, None, scores.idents).target
        return got, elem(seg, "div", "post-body")

    loose = f"<div><div><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div><div><p>{PROSE}</p></div></div>"
    page = f"<div class='post-body'>{loose}</div>"
    got, post = target(page, Steer(None))
    assert got == post
    got, post = target(page, None)
    assert got != post  # single-page: not this rule's
    got, post = target(page.replace("<div><div>", "<div class='box'><div>", 1), Steer(None))
    assert got != post
    monkeypatch.setattr(h, "STRIPPED_POST_LEVELS", 1)
    got, post = target(page, Steer(None))
    assert got != post


def test_a_table_cell_target_grows_to_the_cell_opening_with_a_heading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Single-page, a table-cell target nested in a cell whose text opens with a heading (and holds no link
    list before it) grows to that cell (HEADED_CELL_LEVELS)."""
    body = f"<table><tr><td><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p><p>{PROSE}</p></td></tr></table>"

    def page(before: str) -> str:
        return f"{NAV}<table><tr><td id='outer'>{before}<div>{body}</div></td></tr></table>"

    headed = page(
        "<h2>Sell your home fast</h2><p>Your home will sell</p><ul><li>Fast</li><li>For more</li></ul>"
    )
    seg = seg_of(headed)
    assert _choose(seg)[0].endswith("td#outer")
    assert not _choose(seg, Steer(None))[0].endswith("td#outer")  # not where the memory steers
    links = "".join(f"<a href='/{i}'>Section {i}</a> " for i in range(8))
    assert not _choose(seg_of(page(f"<h2>Sell your home fast</h2><p>{links}</p>")))[0].endswith("td#outer")
    assert not _choose(seg_of(page("<p>Your home will sell</p>")))[0].endswith("td#outer")  # no heading
    monkeypatch.setattr(h, "HEADED_CELL_LEVELS", 3)
    assert not _choose(seg)[0].endswith("td#outer")


def test_a_heading_announcing_a_box_closed_out_of_the_article_takes_it() -> None:
    items = "".join(f"<li><div>Have a page in the language of group {i}.</div></li>" for i in range(4))
    more = "".join(f"<li><a href='/r{i}'>Another story headline number {i}</a></li>" for i in range(4))

    def page(heading: str, after: str) -> str:
        body = f"<h1>Bridge opens</h1><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p><h3>{heading}</h3>"
        return f"{NAV}<div>{body}</div>{after}"

    # broken markup closed the article's <div> before the list its last heading announces
    _, texts = _choose(seg_of(page("What can residents do?", f"<ul>{items}</ul>")))
    assert texts[-5:] == ["What can residents do?"] + [
        f"Have a page in the language of group {i}." for i in range(4)
    ]
    # a heading that announces nothing, or link text after it, stays the region's end
    _, texts = _choose(seg_of(page("Residents", f"<ul>{items}</ul>")))
    assert texts[-1] == "Residents"
    _, texts = _choose(seg_of(page("More stories:", f"<ul>{more}</ul>")))
    assert texts[-1] == "More stories:"
