"""Two kinds of block that gold conventions disagree on: the article's headline and image captions.

The Zyte benchmark's gold (article body) and trafilatura's leave both out; dragnet's and CleanEval's keep
them. Each is its own block kind (`headline`, `caption`), and Settings.keep_headline / keep_captions say
whether the text holds them.

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
from functools import lru_cache
from itertools import compress

from worker.clean import heuristics as h
from worker.clean.segment import Segmentation
from worker.models import BlockKind

_WORD = re.compile(r"\w+")
_KINDS: dict[str, BlockKind] = {
    "heading": "heading", "paragraph": "paragraph", "list_item": "list_item", "quote": "quote",
    "code": "code", "table_cell": "table_cell",
}  # fmt: skip


def words(text: str) -> str:
    """Case-folded \\w+ tokens joined by single spaces."""
    return " ".join(_WORD.findall(text.casefold()))


def find_headline(seg: Segmentation, title: str | None) -> int | None:
    """Index of the first block that is the headline `title`, None when there is no such block.

    Only blocks whose length is near the title's are tokenised (a page has a few such blocks): the
    search costs a handful of regex calls, not one per block."""
    if not title:
        return None
    wanted = words(title)
    if not wanted:
        return None
    count = wanted.count(" ") + 1
    lo = min(len(title), h.HEADLINE_MIN_CHARS)
    hi = len(title) + h.HEADLINE_EXTRA_CHARS
    texts = seg.texts
    for i, chars in enumerate(seg.chars):
        if chars < lo or chars > hi:
            continue
        got = words(texts[i])
        if not got:
            continue
        if got == wanted:
            return i
        n = got.count(" ") + 1
        if n < count:
            if n >= max(h.HEADLINE_MIN_WORDS, count / 2) and f" {got} " in f" {wanted} ":
                return i
        elif n <= count + h.HEADLINE_EXTRA_WORDS and f" {wanted} " in f" {got} ":
            return i
    return None


@lru_cache(maxsize=4096)
def _caption_ident(ident: str) -> bool:
    """A lower-cased "class id" naming a caption or a photo credit (a word, or a part after a "-")."""
    for word in ident.replace("_", " ").split():
        start = 0
        while True:
            if word.startswith(h.CAPTION_PREFIXES, start):
                return True
            start = word.find("-", start) + 1
            if start == 0:
                break
    return False


def captions(seg: Segmentation) -> list[bool]:
    """Per block: is it a caption (inside <figure>, <figcaption>, or an element whose class/id names a
    caption or credit)? Only the elements whose class or id holds one of the prefixes' letters are
    looked at closely: most pages have none."""
    tags, classes, ids, skips = seg.tags, seg.classes, seg.ids, seg.skips
    n = len(tags)
    flags = [t in h.CAPTION_TAGS for t in tags]
    # One look at all the page's classes and ids first: on most pages none holds a hint.
    blob = "\n".join(classes).lower() + "\n" + "\n".join(ids).lower()
    if any(s in blob for s in h.CAPTION_HINTS):
        for i, (c, d) in enumerate(zip(classes, ids, strict=True)):
            if c or d:
                ident = f"{c} {d}".lower()
                if any(s in ident for s in h.CAPTION_HINTS) and _caption_ident(ident):
                    flags[i] = True
    if not any(flags):
        return [False] * len(seg.texts)
    inside = [False] * n
    covered = 0
    for i in compress(range(n), flags):
        if i >= covered:
            covered = skips[i]
            inside[i:covered] = [True] * (covered - i)
    return [inside[e] for e in seg.owners]


def text_blocks(
    seg: Segmentation, kept: list[int], headline: int | None, keep_headline: bool, keep_captions: bool
) -> tuple[list[int], list[BlockKind]]:
    """The blocks of the document's text and their kinds, from the blocks kept as the article.

    The headline is its own kind; with `keep_headline` it is in the text wherever the region was (the
    gold conventions that keep it keep it always), without it never (it is the document's title).
    Captions are their own kind, in the text only with `keep_captions`."""
    if headline is not None and keep_headline and headline not in kept:
        kept = sorted([*kept, headline])
    caption = captions(seg)
    blocks: list[int] = []
    kinds: list[BlockKind] = []
    seg_kinds = seg.kinds
    for i in kept:
        if i == headline:
            if keep_headline:
                blocks.append(i)
                kinds.append("headline")
        elif caption[i]:
            if keep_captions:
                blocks.append(i)
                kinds.append("caption")
        else:
            blocks.append(i)
            kinds.append(_KINDS[seg_kinds[i]])
    return blocks, kinds
