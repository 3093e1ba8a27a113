"""The site memory's part of a page: observe it, plan what to strip, and judge the stripped result.

1. Fingerprint the page's segmentation (worker.clean.fingerprint) and observe the page in its site's memory
   BEFORE stripping. The page's own subtrees then count, exactly as in two-pass mode (learn all pages, then
   clean), so one rule serves both modes: a subtree needs to be on at least theta of the pages seen so far,
   this one included. A page key seen recently counts nothing.
2. Cold site (fewer than min_pages distinct pages, this one included): nothing to strip.
3. Otherwise plan to strip the OUTERMOST subtrees whose fingerprint is template, and steer the content
   region towards the site's learned content location (worker.clean.region).

Safety: a template must never eat the article. If the stripped result is empty, the region is chosen again
without steering; if it is still short (under SUSPICIOUS_CHARS), density alone on the whole page is
compared with it and wins when the stripped result is empty, keeps less than SAFE_SHARE of density's
characters, or lacks most of its words (method "template_fallback", with the reason). A page whose every
word is template (a duplicate, an error page) is not stripped at all ("all_template").

4. The site's article slots: STRUCTURE POSITIONS where density kept a block on (nearly) every page of the
   site holding them (SiteState.kept_positions). A block's position is the tag path of the element around
   its own (the parent of the block's innermost block-level element: the container whose paragraphs,
   headings and lists are the article), whatever its text: the path part of that element's fingerprint.
   A block at such a position that density dropped on this page is kept (`with_kept_positions`): an
   article's continuation box, a short last paragraph, an update line. The site learns positions from
   density's own choices, never from blocks this rule added, so one wrong keep cannot keep itself alive.
5. A template element that is a line of the page's own text is not stripped (`without_article_lines`): a
   subheading or note every article of the site repeats, or the byline under the headline (its date's
   digits are not fingerprinted), which the gold of news and blog pages keeps.
6. The post's lines that are not its text (`post_lines`: taxonomy lines "Tags: ...", "Posted in: ...", its
   author's box and trailing sign-off lines such as a newspaper's print line, photo credits, the page's
   furniture, a breadcrumb trail, ad units) are not kept on a stripped page, where the widened target holds
   the post's meta lines, nor added as slot blocks; extract() takes the same lines out of a page the memory
   did not strip.

Subtrees are matched by text. Structure-only fingerprints (tag path and child tags, for bylines whose
text changes: "Posted by X on <date>") were tried and removed: they stripped bylines that the gold of news
pages keeps (dragnet, sites >= 5 pages, online: F1 0.9307 with them, 0.9346 without).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import compress
from urllib.parse import urlsplit

from worker.clean import heuristics as h
from worker.clean import native, sitememory
from worker.clean.classify import (
    without_date_stamps,
    without_page_chrome,
    without_page_lines,
    without_repeated_quotes,
    without_sign_off,
)
from worker.clean.fingerprint import PageFingerprints, fingerprint_segmentation
from worker.clean.kinds import dated_line
from worker.clean.region import Steer
from worker.clean.segment import Segmentation, stable_path
from worker.clean.sitememory import SiteMemory, SiteState, block_positions
from worker.models import Page

_WORD = re.compile(r"\w+")
# A position is an article slot when density kept a block there on at least this many (decayed) pages of
# the site: two earlier pages (the older weighs d^2 = 0.973 at half-life 50; one page, 0.9, added wrong
# blocks on small sites: scrapinghub_aeb 0.9710 -> 0.9690, cleaneval_dev 0.8752 -> 0.8747, memory on)...
POSITION_MIN_PAGES = 1.5
# ...and on (nearly) every page of the site holding it since it first kept one (below 1 for float32
# rounding). Dragnet pages of sites >= 5 pages, memory on, train split (chosen there; test in brackets):
# without the rule 0.9333 (0.9256); with it 0.9389 (0.9295); share 0.75: 0.9387 (0.9284); the block's
# own element as its position instead of its parent's: 0.9378 (0.9305). Cost: +1.5% instructions in memory
# mode (callgrind, first 300 dragnet pages).
POSITION_KEPT_SHARE = 0.95


@dataclass(frozen=True, slots=True)
class SiteFacts:
    """What the site memory knows about one page's elements, as the worker sees it online (the block
    model's site features)."""

    pages_seen: int  # distinct pages of the site counted, this one included
    elem_share: dict[int, float]  # element -> share of the site's recent pages holding its text fingerprint
    learned_path: int | None  # key_hash of the site's learned content path, when one dominates


@dataclass(slots=True)
class Plan:
    """What the site memory decided for one page, before extraction."""

    site: str
    pages_seen: int  # distinct pages of the site counted so far, this one included
    fresh: bool  # this page was counted (not a page key seen recently): the memory learns from it
    cold: bool  # too few pages to know the template
    all_template: bool  # every block of the page is template: nothing to strip to
    strip: list[int]  # elements whose subtrees are template (outermost only)
    steer: Steer | None  # region hints for the stripped page
    # What the memory knows of the page's elements, read when the block model asks (only then: a dict per
    # page otherwise built for nothing); the counts it reads do not change before the next page.
    facts: Callable[[], SiteFacts]
    # Element -> its structure position (path fingerprint), read for every element holding text (every
    # block's owner and its parent; [-1], <body>'s parent, is <body>): PageFingerprints.elem_paths.
    paths: array[int]
    positions: frozenset[int]  # the site's article slots, learned from its earlier pages


def site_of(page: Page) -> str | None:
    """The page's site: the producer's `site`, else the URL's host."""
    if page.site:
        return page.site
    if page.url:
        try:
            host = urlsplit(page.url).hostname
        except ValueError:
            return None
        return host or None
    return None


def page_key(page: Page) -> str:
    """What makes two deliveries "the same page" for counting: the URL, else the page id."""
    return page.url or page.id


def plan(seg: Segmentation, site: str, key: str, memory: SiteMemory, datelines: bool = False) -> Plan:
    """Observe the page in its site's memory and decide what to strip (every use of the site's state);
    `datelines`: the text keeps the article's datelines (keep_headline), so a date header is not stripped."""
    fps = fingerprint_segmentation(seg)
    state, fresh = memory.count(site, key, fps.observed())
    config = memory.config
    facts = partial(_site_facts, state, fps)
    paths = fps.elem_paths
    slots = state.kept_positions(POSITION_MIN_PAGES, POSITION_KEPT_SHARE)
    if state.pages_seen < config.min_pages:
        return Plan(site, state.pages_seen, fresh, True, False, [], None, facts, paths, slots)
    bar = state.template_bar(config.theta)
    strip = _template_strips(state.fps, state.counts, bar, fps.elems, fps.text_fps, seg.firsts, seg.ends)
    if strip:
        strip = without_article_lines(seg, strip, datelines)
    if strip and sum(seg.ends[i] - seg.firsts[i] for i in strip) >= len(seg.texts):
        return Plan(site, state.pages_seen, fresh, False, True, [], None, facts, paths, slots)
    steer = Steer(state.content_path()) if strip else None
    return Plan(site, state.pages_seen, fresh, False, False, strip, steer, facts, paths, slots)


def without_article_lines(seg: Segmentation, strip: list[int], datelines: bool = False) -> list[int]:
    """`strip` (outermost template elements, in document order) without the lines of the page's own text
    that recur on every page of the site, each one block in a container that is not <body>:
    - a paragraph or heading (h.ARTICLE_LINE_TAGS) followed, within h.ARTICLE_LINE_LOOKAHEAD blocks, by an
      unstripped prose block of its container (a subheading such as "What's the Big Idea?") or an unstripped
      list item with as little link text inside it (h.ARTICLE_LINE_ITEMS: a recipe's "Ingredients:");
    - a paragraph (h.ARTICLE_CLOSING_TAGS) that is prose itself, after an unstripped prose block of its
      container (the closing paragraph every press release of an agency ends with);
    - with `datelines`, a short dated line within h.STRIPPED_DATELINE_ABOVE_HEADING blocks above an unstripped
      heading (a blog's date header over its post's title: "Friday, October 19, 2012" recurs on the site's
      pages of one month once digits are dropped), for kinds.datelines to find;
    - a line that is not a heading, within h.HEADLINE_LINE_BLOCKS blocks after an unstripped heading of its
      container (the byline under the headline: "by X on <date>" recurs once digits are dropped)."""
    firsts, ends = seg.firsts, seg.ends
    lines = [e for e in strip if ends[e] - firsts[e] == 1]
    if not lines:
        return strip
    tags, parents, kinds = seg.tags, seg.parents, seg.kinds
    starts = [firsts[e] for e in strip]

    def stripped(b: int) -> bool:
        k = bisect_right(starts, b) - 1
        return k >= 0 and b < ends[strip[k]]

    keep: set[int] = set()
    back, line_tags = h.HEADLINE_LINE_BLOCKS, h.ARTICLE_LINE_TAGS
    above = h.STRIPPED_DATELINE_ABOVE_HEADING if datelines else 0
    for e in lines:
        line = firsts[e]
        if above and _date_header(seg, line, above, stripped):
            keep.add(e)
            continue
        # The cheap tests first: most one-block template elements are menu items, which pass neither.
        after_heading = (
            back > 0 and "heading" in kinds[max(0, line - back) : line] and kinds[line] != "heading"
        )
        if not after_heading and tags[e] not in line_tags:
            continue
        p = parents[e]
        if p < 0 or tags[p] in ("body", "html"):
            continue
        top = max(firsts[p], line - back)
        if after_heading and any(
            kinds[b] == "heading" and not stripped(b) for b in range(line - 1, top - 1, -1)
        ):
            keep.add(e)  # a byline
        elif tags[e] in line_tags and _prose_follows(seg, e, p, stripped):
            keep.add(e)
        elif tags[e] in h.ARTICLE_CLOSING_TAGS and _closing_prose(seg, e, p, stripped):
            keep.add(e)  # the article's closing paragraph (an agency's "About us" under its press release)
    return [e for e in strip if e not in keep] if keep else strip


def _date_header(seg: Segmentation, line: int, above: int, stripped: Callable[[int], bool]) -> bool:
    """Is block `line` a short dated line (kinds.dated_line) within `above` blocks above an unstripped
    heading?"""
    kinds = seg.kinds
    return any(
        kinds[b] == "heading" and not stripped(b) for b in range(line + 1, min(len(kinds), line + 1 + above))
    ) and dated_line(seg.texts[line], seg.chars[line])


def _closing_prose(seg: Segmentation, e: int, p: int, stripped: Callable[[int], bool]) -> bool:
    """Is one-block element `e` itself prose (h.LENGTH_HIGH+ characters, at most h.PROSE_BOX_LINK_DENSITY of
    them in links) after an unstripped prose block of its container `p` (h.ARTICLE_CLOSING_TAGS)?"""
    owners, parents, chars, link_chars = seg.owners, seg.parents, seg.chars, seg.link_chars
    line, most = seg.firsts[e], h.PROSE_BOX_LINK_DENSITY
    if chars[line] < h.LENGTH_HIGH or link_chars[line] > most * chars[line]:
        return False
    for b in range(line - 1, seg.firsts[p] - 1, -1):
        if (
            chars[b] >= h.LENGTH_HIGH
            and p in (owners[b], parents[owners[b]])
            and link_chars[b] <= most * chars[b]
            and not stripped(b)
        ):
            return True
    return False


def _prose_follows(seg: Segmentation, e: int, p: int, stripped: Callable[[int], bool]) -> bool:
    """Does an unstripped prose block of container `p` (or a list item anywhere inside it:
    h.ARTICLE_LINE_ITEMS), with at most h.PROSE_BOX_LINK_DENSITY of its text in links, follow `e` within
    h.ARTICLE_LINE_LOOKAHEAD blocks?"""
    owners, parents, chars, link_chars, kinds = seg.owners, seg.parents, seg.chars, seg.link_chars, seg.kinds
    items = h.ARTICLE_LINE_ITEMS
    for b in range(seg.ends[e], min(seg.ends[p], seg.ends[e] + h.ARTICLE_LINE_LOOKAHEAD)):
        prose = chars[b] >= h.LENGTH_HIGH and p in (owners[b], parents[owners[b]])
        if (
            (prose or kinds[b] in items)
            and link_chars[b] <= h.PROSE_BOX_LINK_DENSITY * chars[b]
            and not stripped(b)
        ):
            return True
    return False


def after_extraction(
    memory: SiteMemory, plan: Plan, seg: Segmentation, located: int, kept: list[int], settled: bool = True
) -> list[int]:
    """`kept` (density's blocks of `seg`, which shares the planned page's elements) plus the blocks at the
    site's article slots, less the post's lines that are not its text (`post_lines`: on a stripped page,
    and where slot blocks were added); the site learns, from a page it counted whose location is `settled`
    (region.settled), where density found the content (`located`) and which positions it kept."""
    if plan.fresh and settled:
        learn_location(memory, plan.site, stable_path(seg, located), plan.paths, seg, kept)
    # On a page the template did not touch, extract() already took them out of density's blocks.
    if not plan.positions:  # no slot to fill (most pages: each block's position is only read here then)
        return post_lines(seg, kept) if plan.strip else kept
    blocks = _slot_blocks(plan.paths, seg.parents, seg.owners, kept, plan.positions)
    return post_lines(seg, blocks) if plan.strip or len(blocks) > len(kept) else blocks


def post_lines(seg: Segmentation, blocks: list[int]) -> list[int]:
    """`blocks` without the post's lines that are not its text: taxonomy lines (h.TAXONOMY_LABEL), the
    author's box or sign-off lines or share count at the end (h.AUTHOR_HEADING, h.SIGN_OFF, h.SIGN_OFF_CALL,
    h.SIGN_OFF_NOTICE, h.SHARE_COUNT), photo credits (h.PHOTO_CREDIT), the page's furniture and widget lines
    (h.FURNITURE_LINE, h.WIDGET_LINE), a post's meta bar (h.POST_META_LINE), a breadcrumb trail or welcome
    box opening the text (h.BREADCRUMB, h.WELCOME_BOX), ad units (h.AD_UNIT_LABEL), a forum post's quote
    of a post the text holds (h.FORUM_QUOTE) and a listing's date stamps (h.DATE_STAMP). extract() takes them
    out of density's blocks on a page the memory did not strip; after_extraction out of a stripped page's and
    out of the slot blocks."""
    kept = without_sign_off(seg.texts, seg.kinds, without_taxonomy(seg, blocks))
    kept = without_page_lines(seg.texts, seg.chars, without_repeated_quotes(seg.texts, kept))
    kept = without_date_stamps(seg.texts, seg.chars, kept)
    return without_page_chrome(seg.texts, seg.kinds, seg.chars, kept)


def without_tag_lines(seg: Segmentation, headline: int | None, blocks: list[int]) -> list[int]:
    """`blocks` without the linked blocks before the headline that are no heading (a post's tag list or
    section label, a media bar: h.TAG_LINE_LINK_DENSITY), nor those that end with the headline's text after
    more (a breadcrumb trail ending in the post's title: h.TRAIL_TO_HEADLINE), which the site's article slots
    or the steered region add."""
    if not headline:
        return blocks
    kinds, link_chars, chars, most = seg.kinds, seg.link_chars, seg.chars, h.TAG_LINE_LINK_DENSITY
    kept = [i for i in blocks if i >= headline or kinds[i] == "heading" or link_chars[i] < most * chars[i]]
    if not h.TRAIL_TO_HEADLINE:
        return kept
    # rule: TRAIL_TO_HEADLINE (a breadcrumb trail ending in the headline, its separators gone)
    texts, title = seg.texts, seg.texts[headline]
    short = chars[headline]
    return [
        i
        for i in kept
        if i >= headline or kinds[i] == "heading" or chars[i] <= short or not texts[i].endswith(title)
    ]


def without_taxonomy(seg: Segmentation, blocks: list[int]) -> list[int]:
    """`blocks` without the post's taxonomy lines ("Tags: ...", "Posted in: ...": h.TAXONOMY_LABEL)."""
    texts, chars = seg.texts, seg.chars
    drop = {
        i
        for i in blocks
        if chars[i] <= h.TAXONOMY_MAX_CHARS
        # what every match holds, cheapest first: a colon, or a line starting "posted in" (so with p or P)
        and (
            h.TAXONOMY_LABEL.search(texts[i])
            if texts[i][:1] in "pP" and texts[i][:9].lower() == "posted in"
            else ":" in texts[i] and _taxonomy_label(texts[i])
        )
    }
    return [i for i in blocks if i not in drop] if drop else blocks


# How far before a colon (and the spaces before it) a TAXONOMY_LABEL match ending at it starts: its longest
# label ("related topics") and the non-word character before it (tests/unit/test_template.py reads it off
# the pattern).
TAXONOMY_REACH = 15


def _taxonomy_label(text: str) -> bool:
    """h.TAXONOMY_LABEL.search(text) is not None: tried at the text's start, then only just before each
    colon (every match but "^posted in" ends with one, its label right before the spaces before it), not
    from every position of the text (a third of the CPU; the same answer: tests/unit/test_template.py)."""
    label = h.TAXONOMY_LABEL
    if label.match(text) is not None:
        return True
    colon = text.find(":")
    while colon >= 0:
        end = len(text[:colon].rstrip())
        if label.search(text, max(0, end - TAXONOMY_REACH), colon + 1) is not None:
            return True
        colon = text.find(":", colon + 1)
    return False


def with_kept_positions(positions: list[int], kept: list[int], slots: frozenset[int]) -> list[int]:
    """`kept` plus the blocks (of `positions`, each block's) at the site's article slots."""
    if not slots:
        return kept
    extra = list(compress(range(len(positions)), map(slots.__contains__, positions)))
    return sorted(set(kept).union(extra)) if extra else kept


def learn_location(
    memory: SiteMemory, site: str, location: str, paths: array[int], seg: Segmentation, kept: list[int]
) -> None:
    """Count where density found the content on this page (`location`, its stable path) and where it kept
    blocks (`kept`: its choice, before with_kept_positions)."""
    memory.observe_extraction(site, location, paths, seg.parents, seg.owners, kept)


def _slot_blocks_python(
    paths: array[int], parents: list[int], owners: list[int], kept: list[int], slots: frozenset[int]
) -> list[int]:
    """with_kept_positions of the page's blocks (block b's position: paths[parents[owners[b]]])."""
    return with_kept_positions(block_positions(paths, parents, owners), kept, slots)


def _site_facts(state: SiteState, fps: PageFingerprints) -> SiteFacts:
    shares = dict(zip(fps.elems, state.shares(fps.text_fps), strict=True))
    return SiteFacts(state.pages_seen, shares, state.content_path())


def choose_strips(seg: Segmentation, fps: PageFingerprints, template: frozenset[int]) -> list[int]:
    """Indices (into fps) of the outermost template subtrees, never the root itself."""
    return _outermost(seg.firsts, seg.ends, fps.elems, fps.text_fps, template)


def _template_strips_python(
    site_fps: array[int],
    counts: array[float],
    bar: float,
    elems: array[int],
    text_fps: array[int],
    firsts: list[int],
    ends: list[int],
) -> list[int]:
    """The elements whose subtrees are template (the site's fingerprints counted at least `bar`), outermost
    only, never the root: what the plan strips."""
    template = sitememory._template_python(site_fps, counts, bar)
    return [elems[k] for k in _outermost(firsts, ends, elems, text_fps, template)]


def _outermost(
    firsts: list[int], ends: list[int], elems: array[int], text_fps: array[int], template: frozenset[int]
) -> list[int]:
    chosen: list[int] = []
    end = -1  # end block of the last chosen subtree: records starting before it are its descendants
    # The template's elements found by C-level maps, then the loop over those few only.
    for k in compress(range(len(elems)), map(template.__contains__, text_fps)):
        i = elems[k]
        if not i or firsts[i] < end:
            continue
        chosen.append(k)
        end = ends[i]
    return chosen


def suspicious(chars: int) -> bool:
    """Is a stripped result short enough that density alone must be compared with it?"""
    return chars < h.SUSPICIOUS_CHARS


def unsafe(stripped: list[str], alone: list[str]) -> str | None:
    """Why the stripped result (block texts) must not be trusted over density alone's, or None."""
    kept = sum(map(len, stripped))
    if kept == 0:
        return "empty"
    if kept < h.SAFE_SHARE * sum(map(len, alone)):
        return "stripped_most"
    # The template result should contain what density alone found; on a page that is mostly template
    # (a tiny post, a gallery) density can wander off to leftovers such as a language switcher.
    words = set(_WORD.findall(" ".join(alone).lower()))
    if words:
        got = set(_WORD.findall(" ".join(stripped).lower()))
        if len(words & got) < h.SAFE_SHARE * len(words):
            return "disagrees"
    return None


# In C (worker/clean/_native.c: no int object per block), once native.py has checked it against the Python
# one; else that.
_slot_blocks = native.slot_blocks(_slot_blocks_python)
# In C as well (no set of the site's template nor an int per fingerprint), once checked; else that.
_template_strips = native.template_strips(_template_strips_python)
