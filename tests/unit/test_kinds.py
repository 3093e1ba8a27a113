"""Headline, dateline, byline and caption block kinds (worker/clean/kinds.py), the settings that put them in
the text, and the rule on the blocks the block model adds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3, seg_of
from worker.clean import heuristics as h
from worker.clean import idents
from worker.clean.classify import classify_region
from worker.clean.kinds import (
    bylines,
    captions,
    datelines,
    decks,
    find_headline,
    find_headlines,
    heading_above,
    names_site,
    opening_copy,
    text_blocks,
    words,
)
from worker.clean.model import decide
from worker.clean.model.trees import Trees
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.region import choose
from worker.clean.score import score
from worker.clean.segment import Segmentation
from worker.messages import document_message, validator
from worker.models import Page

TITLE = "Bridge opens after two years of delays"


def test_the_headline_is_the_block_with_the_titles_words() -> None:
    seg = seg_of(f"{NAV}<h2>Bridge</h2><h1>BRIDGE opens after two years of delays!</h1><p>{PROSE}</p>")
    assert find_headline(seg, TITLE) == seg.texts.index("BRIDGE opens after two years of delays!")


def test_a_headline_with_a_label_or_a_title_with_the_site_name_matches() -> None:
    seg = seg_of(f"<h1>Updated: {TITLE}</h1><p>{PROSE}</p>")
    assert find_headline(seg, TITLE) == 0
    seg = seg_of(f"<h1>{TITLE}</h1><p>{PROSE}</p>")
    assert find_headline(seg, f"{TITLE} | The Riverside Gazette") == 0


def test_no_headline_when_no_block_holds_the_title() -> None:
    seg = seg_of(f"<h1>Something else entirely</h1><p>{PROSE}</p>")
    assert find_headline(seg, TITLE) is None
    assert find_headline(seg, None) is None
    assert find_headline(seg, "!!") is None
    assert find_headline(seg_of(f"<p>{PROSE}</p>"), "delays") is None  # a run too short to be the headline


def _headlines_by_every_block(texts: list[str], chars: list[int], title: str) -> list[int]:
    """find_headlines' rule applied to every block in turn, without its pre-filter and C scan."""
    wanted = words(title)
    if not wanted:
        return []
    count = wanted.count(" ") + 1
    lo, hi = min(len(title), h.HEADLINE_MIN_CHARS), len(title) + h.HEADLINE_EXTRA_CHARS
    found = []
    for i, text in enumerate(texts):
        got = words(text)
        if not lo <= chars[i] <= hi or not got:
            continue
        n = got.count(" ") + 1
        if got == wanted or (
            n >= max(h.HEADLINE_MIN_WORDS, count / 2) and f" {got} " in f" {wanted} "
            if n < count
            else n <= count + h.HEADLINE_EXTRA_WORDS and f" {wanted} " in f" {got} "
        ):
            found.append(i)
    return found


def test_a_block_holding_either_half_of_the_headline_matches() -> None:
    # the two halves of a six-word title share no word: the pre-filter must look for both middle words
    title = "Bridge opens after two years delays"
    assert find_headline(seg_of(f"<p>{PROSE}</p><h1>two years delays</h1>"), title) == 1
    assert find_headline(seg_of(f"<p>{PROSE}</p><h1>Bridge opens after</h1>"), title) == 1


_VOCABULARY = ["Bridge", "opens", "AFTER", "two", "years", "of", "delays", "ß", "x1", "the"]


@given(st.lists(st.sampled_from(_VOCABULARY), min_size=1, max_size=10), st.data())
def test_the_headline_search_skips_only_blocks_that_cannot_match(
    title_words: list[str], data: st.DataObject
) -> None:
    # Blocks are runs of the title's words, the title with words around it, and other words: the
    # pre-filter (one of the title's two middle words) must never pass over a block the rule takes.
    n = len(title_words)
    blocks = []
    for _ in range(data.draw(st.integers(1, 6))):
        start = data.draw(st.integers(0, n - 1))
        run = title_words[start : data.draw(st.integers(start + 1, n))]
        extra = data.draw(st.lists(st.sampled_from(_VOCABULARY), max_size=3))
        words_of_block = data.draw(st.sampled_from([run, extra + title_words, title_words + extra, extra]))
        sep = data.draw(st.sampled_from([" ", " — ", ", "]))
        blocks.append(f"<h2>{sep.join(words_of_block) or 'x'}!</h2>")
    seg = seg_of("".join(blocks))
    title = " ".join(title_words)
    every = _headlines_by_every_block(seg.texts, seg.chars, title)
    assert find_headlines(seg, title, repeats=True) == every  # every block is a heading
    assert find_headlines(seg, title) == every[:1]
    assert find_headline(seg, title) == (every[0] if every else None)


def test_every_block_that_is_the_headline_is_found_in_order() -> None:
    seg = seg_of(f"<p>{TITLE}</p><p>{PROSE}</p><h2>Updated: {TITLE}</h2><p>Other words</p><li>{TITLE}</li>")
    # the first copy of any kind, the later ones only among headings (HEADLINE_REPEAT_KIND)
    assert find_headlines(seg, TITLE, repeats=True) == [0, 2]
    assert find_headlines(seg, TITLE) == [0]
    assert find_headline(seg, TITLE) == 0
    assert find_headlines(seg_of(f"<li>{TITLE}</li><h2>{TITLE}</h2>"), TITLE, repeats=True) == [0, 1]
    assert find_headlines(seg, None) == find_headlines(seg, "!!") == []


def test_captions_by_class_name() -> None:
    seg = seg_of(
        f"<p>{PROSE}</p><div class='wp-caption-text'>A photo of the bridge</div>"
        "<div class='image-credit'>Photo: J. Smith</div><p class='recaption'>Not one</p>"
    )
    assert captions(seg) == [False, True, True, False]


def _captions_by_every_element(seg: Segmentation) -> list[bool]:
    """The reference: every element tested, each outermost caption covering its subtree."""
    flags = idents.ident_flags(seg.classes, seg.ids)
    inside = [False] * len(seg.tags)
    covered = 0
    for i, (tag, f) in enumerate(zip(seg.tags, flags, strict=True)):
        if (tag in h.CAPTION_TAGS or f & idents.CAPTION) and i >= covered:
            covered = seg.skips[i]
            inside[i:covered] = [True] * (covered - i)
    return [inside[e] for e in seg.owners]


_CAPTION_OPENERS = [
    "<div>",
    "<figure>",
    "<figcaption>",
    "<div class='caption'>",
    "<span id='photo-credit'>",
    "<p>",
]


@given(st.lists(st.tuples(st.sampled_from(_CAPTION_OPENERS), st.integers(0, 3)), min_size=1, max_size=12))
def test_captions_agree_with_a_walk_over_every_element(items: list[tuple[str, int]]) -> None:
    # Nested and sibling captions, captions inside captions: the scans find what the walk finds.
    html, open_tags = "", []
    for opener, closes in items:
        html += f"{opener}text {len(open_tags)} "
        open_tags.append(opener[1:].split(">")[0].split(" ")[0])
        for _ in range(min(closes, len(open_tags))):
            html += f"</{open_tags.pop()}>"
    seg = seg_of(f"<p>{PROSE}</p>{html}")
    assert captions(seg) == _captions_by_every_element(seg)


def test_text_blocks_puts_the_headline_and_captions_in_the_text_when_asked() -> None:
    seg = seg_of(f"<h1>{TITLE}</h1><p>{PROSE}</p><figure><figcaption>The bridge</figcaption></figure>")
    kept = [1, 2]  # the region left the headline out
    assert text_blocks(seg, kept, 0, False, False) == ([1], ["paragraph"])
    assert text_blocks(seg, kept, 0, True, True) == ([0, 1, 2], ["headline", "paragraph", "caption"])
    assert text_blocks(seg, [0, 1], 0, False, True) == ([1], ["paragraph"])  # never, even when kept


def test_datelines_are_short_dated_lines_just_after_the_first_kept_block() -> None:
    seg = seg_of(
        f"<p>{PROSE}</p><p>Posted by Ann on July 24, 2012</p><p>Share</p><p>{PROSE2}</p>"
        f"<p>Updated: July 25, 2012</p><p>{PROSE3}</p>"
        f"<p>{'A long line about July 24, 2012 and what happened then. ' * 3}</p><p>{PROSE}</p>"
    )
    assert datelines(seg, [0, 3, 5, 7]) == [1]  # not "Share", not past DATELINE_AFTER_FIRST blocks
    assert datelines(seg, [4, 5, 6, 7]) == []  # 6: too long for a dateline
    assert datelines(seg, [0, 1]) == []  # the dated line is kept already
    assert datelines(seg, [0]) == []  # a dated line after the last kept block stays out
    assert datelines(seg, []) == []


def test_a_dated_line_between_the_headline_and_the_text_is_the_dateline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    meta = "Posted by Max Fisher on October 31, 2012 at 4:14 pm"
    seg = seg_of(
        f"<h1>{TITLE}</h1><p>{meta}</p><ul><li>Share</li><li>Tweet</li></ul><p>{PROSE}</p><p>{PROSE2}</p>"
    )
    assert datelines(seg, [4, 5], 0) == [1]
    every = ([0, 1, 4, 5], ["headline", "dateline", "paragraph", "paragraph"])
    assert text_blocks(seg, [4, 5], 0, True, False) == every
    assert text_blocks(seg, [4, 5], 0, False, False) == ([4, 5], ["paragraph", "paragraph"])
    # Only under a headline above the text: without one, or with it below the line, no dateline.
    assert datelines(seg, [4, 5], None) == []
    above = seg_of(f"<p>{meta}</p><ul><li>Share</li><li>Tweet</li></ul><h1>{TITLE}</h1><p>{PROSE}</p>")
    assert datelines(above, [3, 4], 3) == []
    # Without the rule it stays out.
    monkeypatch.setattr(h, "DATELINE_BEFORE_FIRST", 0)
    assert datelines(seg, [4, 5], 0) == []


def test_a_short_dated_line_right_above_the_headline_that_opens_the_text_is_the_dateline() -> None:
    seg = seg_of(
        f"<h2>Sunday, October 21, 2012</h2><h3>{TITLE}</h3><p>{PROSE}</p><p>{PROSE2}</p>"
        f"<p>Posted on July 24, 2012</p><h3>Monday, October 22, 2012</h3><p>{PROSE3}</p>"
    )
    assert datelines(seg, [2, 3], 1) == [0]  # Blogger's date header over the post title
    assert datelines(seg, [1, 2, 3], 1) == [0]  # the region held the headline already
    assert datelines(seg, [2, 3], None) == []  # no headline: no block above it
    assert datelines(seg, [2, 3, 6], 1) == [0, 4]  # and the one after the text's first block
    assert datelines(seg, [3], 2) == []  # the block above the "headline" holds no date
    # 3 is no short line, whatever it holds; 5, between the "headline" and the text, is one
    assert datelines(seg, [6], 4) == [5]
    assert datelines(seg, [2], 6) == []  # a headline below the text's start is not the text's opening
    assert datelines(seg, [2], 1) == [0]  # one kept block is enough above the headline


def test_a_heading_right_above_the_text_is_the_headline_when_the_metadata_names_none() -> None:
    long_heading = "A heading " + "that runs on " * 12
    seg = seg_of(
        f"<p>Home</p><h1>{TITLE}</h1><p>Share</p><p>{PROSE}</p><h2>{long_heading}</h2><p>{PROSE2}</p>"
    )
    assert heading_above(seg, [3, 5]) == 1  # past one line between them
    assert heading_above(seg, [5]) is None  # 4 is too long for a headline, 1 too far above
    assert heading_above(seg, [1, 3]) is None  # nothing above the text's first block
    assert heading_above(seg, []) is None
    # with keep_headline only, and only when the metadata's headline names no block
    assert text_blocks(seg, [3, 5], None, True, True) == ([1, 3, 5], ["headline", "paragraph", "paragraph"])
    assert text_blocks(seg, [3, 5], None, False, True) == ([3, 5], ["paragraph", "paragraph"])
    assert text_blocks(seg, [3, 5], 2, True, True) == ([2, 3, 5], ["headline", "paragraph", "paragraph"])


def test_a_headline_far_above_the_text_gives_way_to_the_heading_opening_it_or_right_above_it() -> None:
    # a blog whose <title> is its name: the masthead's <h1> is the metadata's headline, the post's title is
    # the heading right above its text
    seg = seg_of(
        f"<h1>Seth's Blog</h1><p>Archives</p><p>About</p><h2>{TITLE}</h2><p>{PROSE}</p><p>{PROSE2}</p>"
    )
    assert h.HEADLINE_FAR_ABOVE_BLOCKS == 1
    post = ([3, 4, 5], ["headline", "paragraph", "paragraph"])
    assert text_blocks(seg, [4, 5], 0, True, True) == post
    assert text_blocks(seg, [4, 5], 0, False, True) == ([4, 5], ["paragraph", "paragraph"])  # the default
    # the post's title opens the text: it is the headline, the masthead's name leaves the text
    assert text_blocks(seg, [3, 4, 5], 0, True, True) == post
    # a block between them: the heading right above the text is the headline
    two = seg_of(f"<h1>Seth's Blog</h1><p>Archives</p><h2>{TITLE}</h2><p>{PROSE}</p><p>{PROSE2}</p>")
    assert text_blocks(two, [3, 4], 0, True, True) == ([2, 3, 4], ["headline", "paragraph", "paragraph"])
    # right above the text: the headline stands, though a heading opens the text
    one = seg_of(f"<h1>{TITLE}</h1><h2>Features</h2><p>{PROSE}</p><p>{PROSE2}</p>")
    stands = ([0, 1, 2, 3], ["headline", "heading", "paragraph", "paragraph"])
    assert text_blocks(one, [1, 2, 3], 0, True, True) == stands
    # no heading opening the text nor right above it: the far headline stands
    none = seg_of(f"<h1>Seth's Blog</h1><p>Archives</p><p>About</p><p>Share</p><p>{PROSE}</p><p>{PROSE2}</p>")
    assert text_blocks(none, [4, 5], 0, True, True)[0] == [0, 4, 5]


def test_a_byline_set_as_a_heading_is_no_headline() -> None:
    # wsj.com: "<h1>headline</h1> ... <h3 class=byline>BY LAURA MECKLER</h3><p>text": the far headline stands,
    # the byline joins the text as its byline
    seg = seg_of(
        f"<h1>{TITLE}</h1><p>Article</p><p>Comments</p><h3>BY LAURA MECKLER</h3><p>{PROSE}</p><p>{PROSE2}</p>"
    )
    assert heading_above(seg, [4, 5]) is None
    expected = ([0, 3, 4, 5], ["headline", "byline", "paragraph", "paragraph"])
    assert text_blocks(seg, [4, 5], 0, True, True) == expected
    # opening the text, it is no headline either
    assert text_blocks(seg, [3, 4, 5], 0, True, True)[1][:2] == ["headline", "heading"]
    # a heading "By the time ..." is a heading: it may be the headline
    other = seg_of(f"<h1>{TITLE}</h1><p>Article</p><p>Comments</p><h3>By the sea</h3><p>{PROSE}</p>")
    assert heading_above(other, [4]) == 3


def test_bylines_are_short_lines_naming_the_author_around_the_start_of_the_text() -> None:
    seg = seg_of(
        f"<h1>{TITLE}</h1><p>By Jane Doe, Staff Writer</p><p>{PROSE}</p><p>Von Max Mustermann</p>"
        f"<p>{PROSE2}</p><p>By Ann Lee</p><p>{PROSE3}</p>"
    )
    assert bylines(seg, [2, 4, 6], 0, []) == [1, 3]  # not past BYLINE_AFTER_FIRST blocks after the first
    assert bylines(seg, [2, 4, 6], None, [1]) == [3]  # a dateline is taken already
    assert bylines(seg, [2, 3], 0, []) == [1]  # a byline is no block after the last kept one
    assert bylines(seg, [1, 2], 0, []) == []  # the byline is kept already
    assert bylines(seg, [], 0, []) == []


def test_prose_that_starts_with_by_is_no_byline() -> None:
    seg = seg_of(
        f"<h1>{TITLE}</h1><p>By the time it opened, the bridge was late.</p><p>Jane Doe</p><p>{PROSE}</p>"
        f"<p>{PROSE2}</p>"
    )
    assert bylines(seg, [3, 4], 0, []) == []  # 2: not named by h.BYLINE
    long = f"By Jane Doe {'and Ann Lee ' * 10}"
    assert bylines(seg_of(f"<p>{long}</p><p>{PROSE}</p><p>{PROSE2}</p>"), [1, 2], None, []) == []


def test_the_dateline_and_byline_join_the_text_as_their_own_kinds_only_with_keep_headline() -> None:
    seg = seg_of(
        f"<h1>{TITLE}</h1><p>Par Jean Dupont</p><p>{PROSE}</p><p>July 24, 2012 8:10 AM PDT</p><p>{PROSE2}</p>"
    )
    assert text_blocks(seg, [2, 4], 0, False, False) == ([2, 4], ["paragraph", "paragraph"])
    every = ([0, 1, 2, 3, 4], ["headline", "byline", "paragraph", "dateline", "paragraph"])
    assert text_blocks(seg, [2, 4], 0, True, False) == every


def test_a_deck_named_like_a_lead_under_the_headline_joins_only_with_keep_headline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    deck = "Japan's electronics sector is reeling, the minister says no bailout is coming."
    seg = seg_of(
        f"<h1>{TITLE}</h1><h2 class='standalone-deck'>{deck}</h2><p>By Ann Lee</p><p>{PROSE}</p>"
        f"<p>{PROSE2}</p>"
    )
    assert decks(seg, [3, 4], 0, []) == [1]
    assert text_blocks(seg, [3, 4], 0, False, False) == ([3, 4], ["paragraph", "paragraph"])
    every = ([0, 1, 2, 3, 4], ["headline", "heading", "byline", "paragraph", "paragraph"])
    assert text_blocks(seg, [3, 4], 0, True, False) == every
    # An unnamed heading there is a section's, not a deck; nor a short or linked one, nor one in the text.
    assert decks(seg_of(f"<h1>{TITLE}</h1><h2>{deck}</h2><p>{PROSE}</p>"), [2], 0, []) == []
    short = seg_of(f"<h1>{TITLE}</h1><h2 class='deck'>Big news today</h2><p>{PROSE}</p>")
    assert decks(short, [2], 0, []) == []
    linked = seg_of(f"<h1>{TITLE}</h1><h2 class='deck'><a href='/x'>{deck}</a></h2><p>{PROSE}</p>")
    assert decks(linked, [2], 0, []) == []
    assert decks(seg, [1, 3, 4], 0, []) == []  # kept already: the text's first block
    # Without the rule it stays out, and takes the headline's place as the heading right above the text.
    monkeypatch.setattr(h, "DECK_AFTER_HEADLINE", 0)
    assert text_blocks(seg, [3, 4], 0, True, False) == ([1, 2, 3, 4], ["headline", "byline", *every[1][3:]])


def test_documents_hold_the_headline_and_byline_as_their_own_kinds_only_with_keep_headline() -> None:
    body = f"<p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p>"
    pages = {
        # the headline inside the article's box; the byline outside the story's (density leaves it out)
        ("headline", "paragraph"): f"{NAV}<article><h1>{TITLE}</h1>{body}</article>",
        ("headline", "byline", "paragraph"): (
            f"{NAV}<h1>{TITLE}</h1><div class='byline'>By Jane Doe</div><div class='story'>{body}</div>"
        ),
    }
    for kinds, inner in pages.items():
        html = f"<html><head><title>{TITLE}</title></head><body>{inner}</body></html>"
        page = Page(id="p", url="https://example.org/a", html=html)
        plain = clean_page(page, None, CleanOptions())
        assert plain.title == TITLE
        assert TITLE not in plain.text
        assert "By Jane Doe" not in plain.text
        assert {b.kind for b in plain.blocks} == {"paragraph"}
        kept = clean_page(page, None, CleanOptions(keep_headline=True))
        assert tuple(b.kind for b in kept.blocks[: len(kinds)]) == kinds
        assert kept.text.startswith(TITLE)
        msg = document_message(kept, page, processed_at="2026-11-27T06:00:00Z")
        validator("document").validate(msg)  # the schema knows the kinds
        assert tuple(b["kind"] for b in msg["blocks"][: len(kinds)]) == kinds


def test_the_model_never_adds_boilerplate_lines_or_cross_links() -> None:
    # A model that keeps every block: only the rules on top stand between it and the page.
    keep_all = Trees.from_json(
        {"depth": 3, "feature": [0] * 7, "threshold": [None] * 7, "leaves": [5.0] * 8, "bias": 0.0},
        len(decide.FEATURES),
    )
    model = decide.BlockModel(keep_all, 0.0, {})
    aside = "A longer paragraph in the page's side column about a quite different matter of the town."
    seg = seg_of(
        f"<div id='a'><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div><div id='side'><p>{aside}</p>"
        "<p>Related: Town council approves the budget for next year</p><p>Read more</p>"
        "<p>© 2024 Riverside Gazette</p></div>"
    )
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    heur = classify_region(seg, scores, region)
    kept = model.decide(decide.Stages(seg, scores, region, heur, None)).kept
    assert [seg.texts[i] for i in kept] == [PROSE, PROSE2, PROSE3, aside]
    assert np.all(np.diff(kept) > 0)


def test_a_headline_that_is_the_sites_name_is_not_added_to_the_text() -> None:
    assert names_site("The White House Blog", "whitehouse.gov")
    assert names_site("About Core77", "www.core77.com")
    assert names_site("Tcritic – The T-Shirt Blog Covering The Best in Nerd Fashion", "tcritic.com")
    assert not names_site("Zillow Announces Record Q3 Results", "zillow.com")  # the post's own title
    assert not names_site("CHURUMURI POLL: Has India lost moral compass?", "churumuri.wordpress.com")
    assert not names_site("Pixiq", None)
    assert not names_site("Pix", "pix.com")  # too short a label to tell
    crumbs = "aimClear Blog . SEM Poetry Slam . Bookshelf of Horrors Pt II: Terrifyingly Bad Search Books"
    assert not names_site(crumbs, "aimclearblog.com")  # a breadcrumb ending in the title, not a tagline
    seg = seg_of(f"<h1>The White House Blog</h1><p>Share</p><p>{PROSE}</p>")
    assert text_blocks(seg, [2], 0, True, True, site="whitehouse.gov") == ([2], ["paragraph"])
    assert text_blocks(seg, [2], 0, True, True, site="example.com") == ([0, 2], ["headline", "paragraph"])
    # the site's name below the text (a sidebar's): the heading right above the text is the headline
    seg = seg_of(f"<h1>{TITLE}</h1><p>{PROSE}</p><h2>The White House Blog</h2>")
    assert text_blocks(seg, [1], 2, True, True, site="whitehouse.gov") == ([0, 1], ["headline", "paragraph"])


def test_the_headlines_copy_opening_the_kept_text_is_the_headline() -> None:
    title = "Council opens the new bridge after two years"
    header = f"<div class='page-header'><h2>{title}</h2></div>"
    article = f"<div class='article'><h1>{title}</h1><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div>"
    html = f"<html><head><title>{title}</title></head><body>{NAV}{header}{article}</body></html>"
    kept = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False, keep_headline=True))
    # rule: the headline's opening copy (the page header's copy, the first found, is not added over the
    # article's)
    assert [(b.kind, b.text) for b in kept.blocks[:2]] == [("headline", title), ("paragraph", PROSE)]
    default = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False))
    assert [b.text for b in default.blocks] == [title, PROSE, PROSE2, PROSE3]  # the default text unchanged
    # a copy inside the text, not opening it (a partial one naming a section), is not the headline
    seg = seg_of(f"{header}<div><p>{PROSE}</p><h3>Council opens the new bridge</h3><p>{PROSE2}</p></div>")
    first, later = find_headlines(seg, title, repeats=True)
    assert opening_copy(seg, title, first, [1, later, 3]) == first
    assert opening_copy(seg, title, first, [later, 3]) == later


def test_a_related_boxs_heading_above_the_text_is_no_headline() -> None:
    seg = seg_of(f"<h1>{TITLE}</h1><p>By Jane Doe</p><h3>Related Content</h3><p>{PROSE}</p><p>{PROSE2}</p>")
    # rule: a related box's heading is no headline (the carousel's heading passed over, the headline two
    # blocks up taken)
    assert heading_above(seg, [3, 4]) == 0
    # the headline far above the text stands (its byline joins): it gives no way to the related box's heading
    kinds = ["headline", "byline", "paragraph", "paragraph"]
    assert text_blocks(seg, [3, 4], 0, True, True) == ([0, 1, 3, 4], kinds)


def test_caption_elements_answer_again_for_the_same_page_only() -> None:
    from worker.clean import kinds

    seg = seg_of(f"<figure><p>{PROSE}</p><figcaption>Photo: A. Person</figcaption></figure><p>{PROSE2}</p>")
    other = seg_of(f"<p>{PROSE}</p><p>{PROSE2}</p>")
    first = kinds.caption_elements(seg)
    assert first is not None
    assert kinds.caption_elements(seg) is first
    assert kinds.caption_elements(other) is None
    assert kinds.caption_elements(seg) == kinds._caption_elements(seg, None) == first
