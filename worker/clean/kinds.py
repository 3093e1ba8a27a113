"""Kinds of block that gold conventions disagree on: the article's headline, dateline and byline, image
captions.

The Zyte benchmark's gold (article body) and trafilatura's leave them out; dragnet's and CleanEval's keep
them. Each is its own block kind (`headline`, `dateline`, `byline`, `caption`), and Settings.keep_headline
(the headline, the dateline and the byline: the article's header) / keep_captions say whether the text
holds them.

The headline is the block whose words are the metadata's headline (worker.clean.meta reads it from
JSON-LD, og:title, microdata, <h1> or <title>); the content region is also anchored on it
(region.anchor). Words are compared case-folded, as \\w+ tokens (the scorer's), so punctuation, quotes
and spacing do not matter. A block matches when its words are the headline's, when they are a run of it
of at least HEADLINE_MIN_WORDS words and half of the headline's (a site name stripped differently, a
kicker split off), or when
they hold the headline with at most HEADLINE_EXTRA_WORDS more (a label or a date in the same element).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from datetime import date
from typing import Any, cast

from worker.clean import heuristics as h
from worker.clean import idents
from worker.clean.meta.dates import find_dates
from worker.clean.region import named_lead
from worker.clean.segment import Segmentation, indexes
from worker.models import BlockKind

_WORD = re.compile(r"\w+")
_KINDS: dict[str, BlockKind] = {
    "heading": "heading", "paragraph": "paragraph", "list_item": "list_item", "quote": "quote",
    "code": "code", "table_cell": "table_cell",
}  # fmt: skip


# Every ASCII byte that is no \w character made a space (re's \w on str is str.isalnum() or "_": in ASCII,
# the letters, the digits and "_"): _tokens of an ASCII text by bytes.translate, a third of findall's CPU.
_ASCII_WORDS = bytes(c if c < 0x80 and (chr(c).isalnum() or c == 0x5F) else 0x20 for c in range(256))


def _tokens(text: str) -> str:
    """`text`'s \\w+ tokens joined by single spaces."""
    if text.isascii():
        return b" ".join(text.encode("ascii").translate(_ASCII_WORDS).split()).decode("ascii")
    return " ".join(_WORD.findall(text))


def words(text: str) -> str:
    """Case-folded \\w+ tokens joined by single spaces."""
    return _tokens(text.casefold())


def find_headline(seg: Segmentation, title: str | None) -> int | None:
    """Index of the first block that is the headline `title`, None when there is no such block."""
    found = find_headlines(seg, title)
    return found[0] if found else None


def find_headlines(seg: Segmentation, title: str | None, repeats: bool = False) -> list[int]:
    """Indexes of the blocks that are the headline `title`: the first one, then, with `repeats`, the later
    blocks of h.HEADLINE_REPEAT_KIND (headings) that are it too (region.nearest_headline reads them).

    Only blocks whose length is near the title's are tokenised (a page has a few such blocks): the
    search costs a handful of regex calls, not one per block; the later blocks are found by their kind
    with list.index (a C scan), the rest of the page is not read."""
    if not title:
        return []
    wanted = words(title)
    if not wanted:
        return []
    tokens = wanted.split(" ")
    count = len(tokens)
    # Every match holds one of these two middle words (its tokens are substrings of its case-folded
    # text): all of them when it holds the headline, and a run of at least half of them holds one of
    # the two. Blocks without either are passed over before the dearer tokenising.
    middle = tokens[(count - 1) // 2], tokens[count // 2]
    lo = min(len(title), h.HEADLINE_MIN_CHARS)
    hi = len(title) + h.HEADLINE_EXTRA_CHARS
    texts, chars = seg.texts, seg.chars

    def matches(i: int) -> bool:
        if chars[i] < lo or chars[i] > hi:
            return False
        folded = texts[i].casefold()
        if middle[0] not in folded and middle[1] not in folded:
            return False
        got = _tokens(folded)
        if not got:
            return False
        n = got.count(" ") + 1
        return (
            got == wanted
            or (n < count and n >= max(h.HEADLINE_MIN_WORDS, count / 2) and f" {got} " in f" {wanted} ")
            or (count <= n <= count + h.HEADLINE_EXTRA_WORDS and f" {wanted} " in f" {got} ")
        )

    # the length test inline: most blocks fail it, and a call per block would cost more than the search
    first = next((i for i, c in enumerate(chars) if lo <= c <= hi and matches(i)), None)
    if first is None:
        return []
    found, kinds, at = [first], seg.kinds, first
    while repeats:
        try:
            at = kinds.index(h.HEADLINE_REPEAT_KIND, at + 1)
        except ValueError:
            break
        if matches(at):
            found.append(at)
    return found


def opening_copy(
    seg: Segmentation, title: str | None, headline: int, kept: list[int], repeats: Sequence[int] | None = None
) -> int:
    """The headline's block for a text that keeps it (`keep_headline`): `headline` (find_headlines' first
    block), or the later copy of the headline (its `repeats`, found here when not given) that opens `kept`
    when `headline` is not in it (a page header or breadcrumb naming the article above the article's own
    headline, which the text holds; text_blocks would add the first one over it: heuristics, "the
    headline's opening copy")."""
    first = kept[0]
    if first <= headline or seg.kinds[first] != h.HEADLINE_REPEAT_KIND:
        return headline
    at = bisect_left(kept, headline)
    if at < len(kept) and kept[at] == headline:
        return headline
    if repeats is None:
        repeats = find_headlines(seg, title, repeats=True)[1:]
    return first if first in repeats else headline


def caption_elements(seg: Segmentation, flags: bytes | None = None) -> bytearray | None:
    """Per element: 1 where it is or sits inside a caption (<figure>, <figcaption>, or an element whose
    class/id names a caption or credit); None on a page without one (most pages). `flags`: the
    segmentation's worker.clean.idents flags, when already computed. Found with C scans (bytes.translate,
    segment.indexes), not one Python step per element."""
    last = _last_captions
    if last and last[0] is seg and last[1] is flags:
        # the same page's (classify's caption runs, then text_blocks)
        return cast("bytearray | None", last[2])
    inside = _caption_elements(seg, flags)
    last[:] = [seg, flags, inside]
    return inside


# The last call's segmentation, flags and answer: the joining steps and text_blocks ask the same of one page
# (segmentations are not changed once made, the flags are bytes; held, neither object's id can be reused).
_last_captions: list[Any] = []


def _caption_elements(seg: Segmentation, flags: bytes | None) -> bytearray | None:
    if flags is None:
        flags = idents.ident_flags(seg.classes, seg.ids)
    marks = bytearray(flags.translate(_CAPTION_MARKED))
    tags = seg.tags
    for tag in h.CAPTION_TAGS:
        for at in indexes(tags, tag):
            marks[at] = 1
    at = marks.find(1)
    if at < 0:
        return None
    skips = seg.skips
    inside = bytearray(len(tags))
    while at >= 0:
        # A mark covers its subtree; the marks inside it are passed over.
        covered = skips[at]
        inside[at:covered] = b"\x01" * (covered - at)
        at = marks.find(1, max(covered, at + 1))
    return inside


# idents' flags -> 1 where the CAPTION flag is set, else 0 (bytes.translate's table).
_CAPTION_MARKED = bytes(1 if flags & idents.CAPTION else 0 for flags in range(256))


def captions(seg: Segmentation, flags: bytes | None = None) -> list[bool]:
    """Per block: is it a caption (see caption_elements)?"""
    inside = caption_elements(seg, flags)
    if inside is None:
        return [False] * len(seg.texts)
    return [inside[e] == 1 for e in seg.owners]


def text_blocks(
    seg: Segmentation,
    kept: list[int],
    headline: int | None,
    keep_headline: bool,
    keep_captions: bool,
    flags: bytes | None = None,
    site: str | None = None,
) -> tuple[list[int], list[BlockKind]]:
    """The blocks of the document's text and their kinds, from the blocks kept as the article.

    The headline is its own kind; with `keep_headline` it is in the text wherever the region was (the
    gold conventions that keep it keep it always), without it never (it is the document's title); there, a
    headline more than h.HEADLINE_FAR_ABOVE_BLOCKS block before the text's first one gives way to the short
    heading opening the text or, without one, to the heading right above it (`heading_above`): the blog's
    name in the masthead, when the page's title names the blog, is not the post's headline. With
    `keep_headline` the article's datelines (`datelines`) and bylines (`bylines`) join the text too, as
    `dateline` and `byline` blocks, and its deck (`decks`) as the heading it is.
    A headline that is only the `site`'s name (`names_site`) gives way to the heading right above the text
    (`heading_above`) when that one is not the site's name too, else none is added.
    Captions are their own kind, in the text only with `keep_captions` (`flags`: as for captions)."""
    dated: list[int] = []
    named: list[int] = []
    if keep_headline:
        if headline is None:
            headline = heading_above(seg, kept)
        elif kept and headline < kept[0] - h.HEADLINE_FAR_ABOVE_BLOCKS:
            near = _opening_heading(seg, kept)
            if near is None:
                near = heading_above(seg, kept)
            # the headline's deck is no headline: the headline stands (decks)
            if near is not None and near not in decks(seg, kept, headline, []):
                headline = near
        dated = datelines(seg, kept, headline)
        named = bylines(seg, kept, headline, dated)
        decked = decks(seg, kept, headline, dated + named)
        if headline is not None and headline not in kept and names_site(seg.texts[headline], site):
            headline = heading_above(seg, kept)
            if headline is not None and names_site(seg.texts[headline], site):
                headline = None
        added = [headline] if headline is not None and headline not in kept else []
        decked = [j for j in decked if j != headline]
        if dated or named or decked or added:
            kept = sorted([*kept, *dated, *named, *decked, *added])
    inside = caption_elements(seg, flags)
    owners = seg.owners
    blocks: list[int] = []
    kinds: list[BlockKind] = []
    seg_kinds = seg.kinds
    for i in kept:
        if i == headline:
            if keep_headline:
                blocks.append(i)
                kinds.append("headline")
        elif dated and i in dated:
            blocks.append(i)
            kinds.append("dateline")
        elif named and i in named:
            blocks.append(i)
            kinds.append("byline")
        elif inside is not None and inside[owners[i]]:
            if keep_captions:
                blocks.append(i)
                kinds.append("caption")
        else:
            blocks.append(i)
            kinds.append(_KINDS[seg_kinds[i]])
    return blocks, kinds


def decks(seg: Segmentation, kept: list[int], headline: int | None, taken: list[int]) -> list[int]:
    """The headings not in `kept` nor `taken` among the h.DECK_AFTER_HEADLINE blocks right after the
    `headline`, when it is above `kept`'s first block, and before that block, that are named like a lead
    (region.named_lead: "h2.standalone-deck", "h2.entry-summary.deck", "h2.subhead") with at least
    h.DECK_MIN_WORDS words and no link: the article's deck under its headline."""
    if not kept or headline is None or headline >= kept[0]:
        return []
    found: list[int] = []
    for j in range(headline + 1, min(kept[0], headline + 1 + h.DECK_AFTER_HEADLINE)):
        if (
            seg.kinds[j] == "heading"
            and j not in taken
            and not seg.link_words[j]
            and seg.words[j] >= h.DECK_MIN_WORDS
            and named_lead(seg, j)
        ):
            found.append(j)
    return found


def names_site(text: str, site: str | None) -> bool:
    """Is `text` the name of `site` (a domain: "whitehouse.gov", "www.pixiq.com"), maybe with a tagline: its
    part before the first h.SITE_NAME_SEPARATOR, its words run together with or without h.SITE_NAME_FILLER, is
    the domain's first label, and at most h.SITE_NAME_EXTRA_WORDS words follow it ("The White House Blog",
    "Tcritic – The T-Shirt Blog Covering The Best in Nerd Fashion")."""
    if not site:
        return False
    label = site.casefold().removeprefix("www.").split(".")[0]
    if len(label) < h.SITE_NAME_MIN_CHARS:
        return False
    name, *rest = h.SITE_NAME_SEPARATOR.split(text.strip(), maxsplit=1)
    tokens = words(name).split()
    if label not in ("".join(tokens), "".join(t for t in tokens if t not in h.SITE_NAME_FILLER)):
        return False
    return not rest or len(words(rest[0]).split()) <= h.SITE_NAME_EXTRA_WORDS


def heading_above(seg: Segmentation, kept: list[int]) -> int | None:
    """The heading among the h.HEADING_ABOVE_BLOCKS blocks right above `kept`'s first one, nearest first:
    the headline of a page whose metadata names it otherwise (og:title "Lohan Over-Primps for Party" over
    an <h1> "Lindsay Lohan Goes Heavy on Makeup"), or None. A related box's heading ("Related Content":
    h.TAIL_HEADING) is passed over."""
    if not kept:
        return None
    kinds, texts, chars, first = seg.kinds, seg.texts, seg.chars, kept[0]
    for j in range(first - 1, max(-1, first - 1 - h.HEADING_ABOVE_BLOCKS), -1):
        if kinds[j] != "heading" or chars[j] > h.HEADING_ABOVE_MAX_CHARS:
            continue
        if chars[j] <= h.TAIL_HEADING_MAX_CHARS and h.TAIL_HEADING.fullmatch(texts[j]) is not None:
            continue  # rule: a related box's heading is no headline
        if _byline_heading(seg, j):
            continue  # rule: a byline set as a heading is no headline
        return j
    return None


def _byline_heading(seg: Segmentation, j: int) -> bool:
    """Is heading `j` the article's byline set as a heading ("h3.byline": "BY AARON BACK"), no headline
    (heuristics: "Nor is a heading that names the author")?"""
    return _names_author(seg.texts[j].strip())


def _names_author(text: str) -> bool:
    """h.BYLINE and a capital letter ("By Jane Doe"; not "By the time ...")."""
    by = h.BYLINE.match(text)
    return by is not None and text[by.end() : by.end() + 1].isupper()


def _opening_heading(seg: Segmentation, kept: list[int]) -> int | None:
    """`kept`'s first block when it is a heading of at most h.HEADING_ABOVE_MAX_CHARS characters (the post's
    title opening the text), else None."""
    first = kept[0]
    if (
        seg.kinds[first] == "heading"
        and seg.chars[first] <= h.HEADING_ABOVE_MAX_CHARS
        and not _byline_heading(seg, first)
    ):
        return first
    return None


def datelines(seg: Segmentation, kept: list[int], headline: int | None = None) -> list[int]:
    """The blocks not in `kept` (in document order) that are short dated lines (at most h.DATELINE_MAX_CHARS
    characters holding a date): the article's dateline or byline ("July 24, 2012 8:10 AM PDT", "by John on
    July 23, 2012"), which density drops as a short line. Looked for among the h.DATELINE_AFTER_FIRST blocks
    after `kept`'s first one, before its last, among the h.DATELINE_BEFORE_FIRST blocks right before `kept`'s
    first one and after the `headline` when it is above it (the post's meta line under its title: "Posted by
    Max Fisher on October 31, 2012 at 4:14 pm"), and in the h.DATELINE_ABOVE_HEADLINE blocks right above the
    `headline` when it opens the text (a blog's date header: "Sunday, October 21, 2012")."""
    if not kept:
        return []
    first, texts, chars = kept[0], seg.texts, seg.chars
    found = [
        j
        for j in range(first + 1, min(kept[-1], first + 1 + h.DATELINE_AFTER_FIRST))
        if j not in kept and dated_line(texts[j], chars[j])
    ]
    if headline is not None and headline < first:  # rule: under the headline (DATELINE_BEFORE_FIRST)
        lo = max(headline + 1, first - h.DATELINE_BEFORE_FIRST)
        found = [j for j in range(lo, first) if dated_line(texts[j], chars[j])] + found
    if headline is not None and headline <= first:
        above = [
            j
            for j in range(max(0, headline - h.DATELINE_ABOVE_HEADLINE), headline)
            if dated_line(texts[j], chars[j])
        ]
        found = above + found
    return found


def dated_line(text: str, chars: int) -> bool:
    """A short line holding a date (at most h.DATELINE_MAX_CHARS characters): a dateline's candidate."""
    # any day: the line's place, not its day, makes it the dateline
    return chars <= h.DATELINE_MAX_CHARS and bool(find_dates(text, date.max, 1))


def bylines(seg: Segmentation, kept: list[int], headline: int | None, taken: list[int]) -> list[int]:
    """The blocks not in `kept` nor `taken` (in document order) among the h.BYLINE_BEFORE_FIRST blocks before
    `kept`'s first one (after the `headline` when it is above it) and the h.BYLINE_AFTER_FIRST after it
    (before its last) that are short lines naming the author: h.BYLINE and a capital letter ("By Jane Doe",
    "Von Max Mustermann"; not "By the time ..."). Only those few blocks are looked at."""
    if not kept:
        return []
    first, texts, chars = kept[0], seg.texts, seg.chars
    lo = max(0, first - h.BYLINE_BEFORE_FIRST)
    if headline is not None and headline < first:
        lo = max(lo, headline + 1)
    hi = min(kept[-1], first + 1 + h.BYLINE_AFTER_FIRST)
    found: list[int] = []
    for j in range(lo, hi):
        if j == headline or chars[j] > h.BYLINE_MAX_CHARS or j in kept or j in taken:
            continue
        text = texts[j].strip()
        if text.count(" ") >= h.BYLINE_MAX_WORDS:
            continue
        if _names_author(text):
            found.append(j)
    return found
