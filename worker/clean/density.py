"""Single-page extraction: Baisa's target node, then jusText-style block classification inside it.

1. `blocks.segment` walks the tree once into block-level elements and text blocks with features.
2. Class/id/tag patterns mark boilerplate containers (nav, share bars, related links, comments...);
   a mark on an element holding most of the page's prose is ignored.
3. Target node (Baisa 2009, Algorithm 1): from <body>, descend into the child holding the most content
   weight while it holds at least half of its parent's. Weight = prose characters: link clusters,
   marked subtrees and comment sections do not count, content-named containers count more.
   Twins of the target (same tag and class, an article split into chunks) join it.
4. Blocks of the target are classified good / bad / short / near-good from shallow features, short and
   near-good ones are decided by their neighbours (context smoothing, Pomikálek 2011), a flat comment
   section after a "N Comments" heading is cut, and when smoothing has no anchor of good text the
   target's non-boilerplate blocks are kept.

Thresholds and tables live in `heuristics`; scripts/tune_density.py measures them on the benchmarks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain

from selectolax.lexbor import LexborHTMLParser

from worker.clean import heuristics as h
from worker.clean import lang as lang_mod
from worker.clean.blocks import Elem, RawBlock, Segmentation, segment, stable_path
from worker.clean.options import CleanOptions
from worker.models import Block, BlockKind

GOOD, BAD, SHORT, NEAR = "good", "bad", "short", "near"


@dataclass(slots=True)
class Extraction:
    blocks: list[Block]
    dropped: int
    lang: str | None
    content_path: str | None


_MARKER, _COMMENT, _STRONG, _WEAK, _GOOD = 1, 2, 4, 8, 16


@lru_cache(maxsize=16384)
def _word_flags(word: str) -> int:
    """Categories of one class/id word, checked at its start and after each "-" in it.

    Memoised like classify_ident: pure, and words ("post", "row", "col-md-6") repeat across pages.
    """
    flags = 0
    start = 0
    while True:
        part = word[start:]
        if part in h.CONTENT_MARKERS or (part.startswith("post-") and part[5:].isdigit()):
            return _MARKER
        if part.startswith(h.COMMENT_TOKEN_PREFIXES):
            flags |= _COMMENT
        elif part.startswith(h.STRONG_BAD_PREFIXES):
            flags |= _STRONG
        elif part.startswith(h.WEAK_BAD_PREFIXES) or part.split("-", 1)[0] in h.BAD_EXACT:
            flags |= _WEAK
        elif part.startswith(h.GOOD_TOKEN_PREFIXES):
            flags |= _GOOD
        start = word.find("-", start) + 1
        if start == 0:
            return flags


@lru_cache(maxsize=8192)
def classify_ident(ident: str) -> tuple[bool, bool, bool]:
    """(boilerplate, comment section, content container) from a lower-cased "class id" string.

    Memoised: a pure function of its argument, so the cache cannot make output depend on page order,
    and pages of one site repeat the same class lists.
    """
    flags = 0
    for word in ident.replace("_", " ").split():
        flags |= _word_flags(word)
    if flags & _MARKER:
        return False, False, True
    good = bool(flags & _GOOD)
    if flags & _COMMENT:
        return False, True, good
    return bool(flags & _STRONG) or (bool(flags & _WEAK) and not good), False, good


def mark_elements(seg: Segmentation, weights: list[float]) -> None:
    """Set Elem.marked / comment / good from tag and class/id, with the size guard."""
    prefix = [0.0, *accumulate(weights)]
    limit = h.MARK_MAX_SHARE * (prefix[-1] or 1.0)
    bad_tags = h.BAD_TAGS
    for e in seg.elems[1:]:
        first, end = e.first_block, e.end_block
        own = prefix[end] - prefix[first]
        if own <= 0.0 or e.tag in ("html", "body"):
            # Without prose (no text, or only link lists, which are bad anyway) a mark changes nothing;
            # page-level classes ("has-sidebar", "comments-open") describe the page, not a part.
            continue
        if e.cls or e.id_attr:
            bad, comment, good = classify_ident(e.ident)
            if comment:
                e.comment = True
            e.good = good or e.tag == "article"
            if comment:
                continue
        else:
            bad = False
            e.good = e.tag == "article"
        if (bad or e.tag in bad_tags) and own <= limit:
            e.marked = True


def _inherit(elems: list[Elem]) -> tuple[list[bool], list[bool], list[bool]]:
    """Per element: inside a marked / comment / content-named subtree (pre-order: parents come first)."""
    marked = [e.marked for e in elems]
    comment = [e.comment for e in elems]
    good = [e.good for e in elems]
    parents = [e.parent for e in elems]
    for flags in (marked, comment, good):
        if any(flags):  # most pages have no comment section, many no marks: skip the walk then
            for i, p in enumerate(parents):
                if p >= 0 and flags[p]:
                    flags[i] = True
    return marked, comment, good


def content_weight(b: RawBlock) -> float:
    """How much a block speaks for its container being the article: prose counts, links and lists less."""
    ld = b.link_density  # a computed property, read once
    if ld > h.TARGET_MAX_LINK_DENSITY:
        return 0.0
    w = b.chars * (1.0 - ld) ** 2 * h.KIND_WEIGHT.get(b.kind, 1.0)
    if not h.SENTENCE_PUNCT.search(b.text):
        w *= h.NO_PUNCT_WEIGHT
    return w


def choose_target(seg: Segmentation, weights: list[float]) -> int:
    """Baisa's descent: follow the child that keeps at least DESCEND_SHARE of the content."""
    prefix = [0, *accumulate(weights)]
    elems = seg.elems

    def content(e: Elem) -> float:
        return prefix[e.end_block] - prefix[e.first_block]

    cur = 0
    while True:
        here = content(elems[cur])
        if here <= 0:
            return cur
        best, best_content = -1, 0.0
        for c in elems[cur].children:
            cc = content(elems[c])
            if cc > best_content:
                best, best_content = c, cc
        if best < 0 or best_content < h.DESCEND_SHARE * here:
            return cur
        child = elems[best]
        if child.tag in h.LEAF_TAGS or child.end_block - child.first_block < h.MIN_TARGET_BLOCKS:
            return cur  # a single paragraph is never the whole article
        cur = best


def chunk_ranges(seg: Segmentation, target: int, weights: list[float]) -> list[tuple[int, int]]:
    """Block ranges of the target plus its twins: articles split into repeated containers
    ("div.article-chunk", "section.post__content") are one text, though the descent keeps only one."""
    prefix = [0.0, *accumulate(weights)]
    elems = seg.elems
    t = elems[target]
    node = target
    for _ in range(h.CHUNK_LEVELS):
        e = elems[node]
        if e.parent < 0:
            break
        if e.ident:
            twins = [
                c
                for c in elems[e.parent].children
                if c != node
                and elems[c].tag == e.tag
                and (elems[c].ident == e.ident or (e.first_class and elems[c].first_class == e.first_class))
                and prefix[elems[c].end_block] - prefix[elems[c].first_block] >= h.CHUNK_MIN_WEIGHT
            ]
            if twins:
                ranges = [(t.first_block, t.end_block)]
                ranges += [(elems[c].first_block, elems[c].end_block) for c in twins]
                return sorted(ranges)
        node = e.parent
    return [(t.first_block, t.end_block)]


def _with_lead_in(seg: Segmentation, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Prepend the article header (the <h1> shortly before the target, and what lies between)."""
    lo = ranges[0][0]
    for j in range(lo - 1, max(-1, lo - 1 - h.LEAD_IN_BLOCKS), -1):
        b = seg.blocks[j]
        if b.heading and seg.elems[b.elem].tag == "h1":
            return [(j, lo), *ranges]
    return ranges


@lru_cache(maxsize=8192)
def _is_lead_class(ident: str) -> bool:
    for word in ident.replace("_", " ").split():
        start = 0
        while True:
            if word[start:].startswith(h.LEAD_TOKEN_PREFIXES):
                return True
            start = word.find("-", start) + 1
            if start == 0:
                break
    return False


def _with_lead_paragraph(seg: Segmentation, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Take the article's lead ("standfirst", "teaser-text", "intro") that sits in the article header
    just before the target: a prose block shortly before it, in an element named like a lead."""
    lo = ranges[0][0]
    elems = seg.elems
    for j in range(lo - 1, max(-1, lo - 1 - h.LEAD_PARAGRAPH_BLOCKS), -1):
        b = seg.blocks[j]
        if b.heading or b.chars < h.LENGTH_LOW or b.link_density > h.MAX_LINK_DENSITY:
            continue
        e, levels = b.elem, 0
        while e > 0 and levels < 3:
            el = elems[e]
            if (el.cls or el.id_attr) and _is_lead_class(el.ident):
                return [(j, j + 1), *ranges]
            e, levels = el.parent, levels + 1
    return ranges


def _comment_tail(blocks: list[RawBlock], classes: list[str]) -> int:
    """Flat blog layouts put comments right after the post with only a "12 Comments" heading between:
    the index of the first such heading after some good text (len(blocks) when there is none)."""
    seen_good = False
    for i, b in enumerate(blocks):
        if classes[i] == GOOD and not b.heading:
            seen_good = True
        elif (
            seen_good
            and (b.heading or classes[i] != GOOD)
            and b.chars <= h.COMMENT_HEADING_MAX_CHARS
            and h.COMMENT_HEADING.match(b.text)
        ):
            return i
    return len(blocks)


def _language(blocks: list[RawBlock]) -> str | None:
    """Guess the language from the target's prose and set RawBlock.stop_words where it matters."""
    # Only blocks long enough for the stopword test need words; they are also the best sample.
    long_blocks = [b for b in blocks if b.chars >= h.LENGTH_LOW]
    tokens = [b.text.lower().split() for b in long_blocks]  # stopwords rarely carry punctuation
    # Prose only: menus and link lists dilute the function words. One Counter pass over all the
    # tokens, not an update() per block (Counter.update's Python-level overhead showed in profiles).
    words: Counter[str] = Counter(
        chain.from_iterable(
            toks for b, toks in zip(long_blocks, tokens, strict=True) if b.link_density <= h.MAX_LINK_DENSITY
        )
    )
    lang = lang_mod.detect(words)
    if lang is None and sum(words.values()) < lang_mod.MIN_WORDS:
        words.update(chain.from_iterable(b.text.lower().split() for b in blocks if b.chars < h.LENGTH_LOW))
        lang = lang_mod.detect(words)
    if lang is not None:
        is_stop = lang_mod.STOPWORDS[lang].__contains__
        for b, toks in zip(long_blocks, tokens, strict=True):
            b.stop_words = sum(map(is_stop, toks))
    return lang


def _is_boilerplate(b: RawBlock) -> bool:
    """Bad whatever its neighbours say: link clusters, one-word widgets, copyright lines."""
    ld = b.link_density
    if ld > h.MAX_LINK_DENSITY and not (b.chars > h.LENGTH_HIGH and ld <= h.LONG_BLOCK_MAX_LINK_DENSITY):
        return True
    if b.chars < h.BOILERPLATE_MAX_CHARS and h.BOILERPLATE_LINE.match(b.text.lower()):
        return True
    return b.chars < h.COPYRIGHT_MAX_CHARS and h.COPYRIGHT.search(b.text) is not None


def classify(blocks: list[RawBlock], lang: str | None, bad_ctx: list[bool]) -> list[str]:
    """jusText's context-free classes, with the link density measured over words in <a>."""
    out: list[str] = []
    for b, in_bad in zip(blocks, bad_ctx, strict=True):
        if in_bad or _is_boilerplate(b):
            cls = BAD
        elif b.chars < h.LENGTH_LOW:
            cls = BAD if b.link_words and b.link_density > h.SHORT_MAX_LINK_DENSITY else SHORT
        elif lang is not None:
            sd = b.stop_words / b.words if b.words else 0.0
            if sd >= h.STOPWORDS_HIGH:
                cls = GOOD if b.chars > h.LENGTH_HIGH else NEAR
            elif sd >= h.STOPWORDS_LOW or (b.chars > h.LENGTH_HIGH and h.SENTENCE_PUNCT.search(b.text)):
                cls = NEAR
            else:
                cls = h.LOW_STOPWORDS_CLASS
        elif b.chars >= h.NOSTOP_GOOD_LENGTH and h.SENTENCE_PUNCT.search(b.text):
            cls = GOOD
        else:
            cls = NEAR
        out.append(cls)
    return out


def _nearest(classes: list[str], accept: frozenset[str]) -> tuple[list[str], list[str]]:
    """For every block, the class of the nearest block before / after it whose class is in `accept`
    (EDGE_CLASS past the ends). Two linear passes; jusText's per-block scan is quadratic on long runs."""
    n = len(classes)
    prev = [h.EDGE_CLASS] * n
    nxt = [h.EDGE_CLASS] * n
    last = h.EDGE_CLASS
    for i in range(n):
        prev[i] = last
        if classes[i] in accept:
            last = classes[i]
    last = h.EDGE_CLASS
    for i in range(n - 1, -1, -1):
        nxt[i] = last
        if classes[i] in accept:
            last = classes[i]
    return prev, nxt


_GOOD_BAD = frozenset({GOOD, BAD})
_GOOD_BAD_NEAR = frozenset({GOOD, BAD, NEAR})


def _good_text_follows(blocks: list[RawBlock], cls: list[str], i: int) -> bool:
    """A good block comes after block i within MAX_HEADING_DISTANCE characters."""
    dist = 0
    for j in range(i + 1, len(cls)):
        if cls[j] == GOOD:
            return True
        dist += blocks[j].chars
        if dist > h.MAX_HEADING_DISTANCE:
            return False
    return False


def smooth(blocks: list[RawBlock], classes: list[str]) -> list[str]:
    """jusText context smoothing: headings, then short blocks, then near-good blocks by neighbours."""
    cls = list(classes)
    n = len(cls)
    # Short headings shortly before good text belong to it.
    for i, b in enumerate(blocks):
        if b.heading and cls[i] == SHORT and _good_text_follows(blocks, cls, i):
            cls[i] = NEAR
    prev, nxt = _nearest(cls, _GOOD_BAD)
    prev_n, nxt_n = _nearest(cls, _GOOD_BAD_NEAR)
    revised = list(cls)
    for i in range(n):
        if cls[i] != SHORT:
            continue
        if prev[i] == GOOD and nxt[i] == GOOD:
            revised[i] = GOOD
        elif prev[i] == BAD and nxt[i] == BAD:
            revised[i] = BAD
        elif (prev[i] == BAD and prev_n[i] == NEAR) or (nxt[i] == BAD and nxt_n[i] == NEAR):
            revised[i] = GOOD
        else:
            revised[i] = BAD
    cls = revised
    # Near-good blocks, left to right: earlier decisions count as neighbours for later ones.
    _, nxt = _nearest(cls, _GOOD_BAD)
    last = h.EDGE_CLASS
    for i in range(n):
        if cls[i] == NEAR:
            cls[i] = BAD if last == BAD and nxt[i] == BAD else GOOD
        last = cls[i]
    # Headings that were dropped but introduce good text come back.
    for i, b in enumerate(blocks):
        if b.heading and cls[i] == BAD and classes[i] != BAD and _good_text_follows(blocks, cls, i):
            cls[i] = GOOD
    return cls


# Optional seams for the template memory. PrepareHook sees the fresh segmentation and may drop blocks
# from it (template subtrees); TargetHook gets the segmentation, the content weights and density's target
# and returns the element index to use instead (a learned content location, a widened target).
PrepareHook = Callable[[Segmentation], None]
TargetHook = Callable[[Segmentation, list[float], int], int]


def extract(
    tree: LexborHTMLParser,
    options: CleanOptions,
    deadline: float,
    *,
    prepare: PrepareHook | None = None,
    widen: TargetHook | None = None,
) -> Extraction:
    """Main text of a pre-cleaned tree (any tree: template memory may have stripped parts of it)."""
    body = tree.body
    if body is None:
        return Extraction([], 0, None, None)
    seg = segment(body, deadline)
    if prepare is not None:
        prepare(seg)
    raw = seg.blocks
    if not raw:
        return Extraction([], 0, None, stable_path(seg.elems, 0) if seg.elems else None)
    prose = [content_weight(b) for b in raw]
    mark_elements(seg, prose)
    in_marked, in_comment, in_good = _inherit(seg.elems)
    weights = [
        0.0
        if in_marked[b.elem] or (in_comment[b.elem] and not options.keep_comments)
        else w * (h.GOOD_CLASS_BOOST if in_good[b.elem] else 1.0)
        for b, w in zip(raw, prose, strict=True)
    ]
    unmarked = [
        0.0 if in_comment[b.elem] and not options.keep_comments else w
        for b, w in zip(raw, prose, strict=True)
    ]
    if sum(weights) < (1.0 - h.MARKS_MAX_REMOVED) * sum(unmarked):
        weights = unmarked
    target = choose_target(seg, weights)
    if widen is not None:
        target = widen(seg, weights, target)
    ranges = chunk_ranges(seg, target, weights)
    if h.LEAD_IN_BLOCKS:
        ranges = _with_lead_in(seg, ranges)
    if h.LEAD_PARAGRAPH_BLOCKS:
        ranges = _with_lead_paragraph(seg, ranges)
    inside = [b for lo, hi in ranges for b in raw[lo:hi]]
    lang = _language(inside)
    # Marks above the target describe the content container itself ("main-sidebar-layout"): ignore them.
    above_marked = in_marked[target]
    above_comment = in_comment[target]
    bad_ctx = []
    for b in inside:
        marked = in_marked[b.elem] and not above_marked
        comment = in_comment[b.elem] and not above_comment and not options.keep_comments
        bad_ctx.append(marked or comment)
    initial = classify(inside, lang, bad_ctx)
    classes = smooth(inside, initial)
    if not options.keep_comments:
        cut = _comment_tail(inside, classes)
        inside, initial, classes = inside[:cut], initial[:cut], classes[:cut]
    kept_chars = sum(b.chars for b, c in zip(inside, classes, strict=True) if c == GOOD)
    usable_chars = sum(b.chars for b, c in zip(inside, initial, strict=True) if c != BAD)
    if kept_chars < h.FALLBACK_SHARE * usable_chars:
        # Smoothing found no anchor of good text (tables, short news lines): the target was chosen
        # as content, so keep whatever is not boilerplate rather than almost nothing.
        classes = [GOOD if c != BAD else BAD for c in initial]
    kept = [Block(_kind(b.kind), b.text) for b, c in zip(inside, classes, strict=True) if c == GOOD]
    return Extraction(kept, len(raw) - len(kept), lang, stable_path(seg.elems, target))


def _kind(kind: str) -> BlockKind:
    if kind == "heading":
        return "heading"
    if kind == "list_item":
        return "list_item"
    if kind == "quote":
        return "quote"
    if kind == "code":
        return "code"
    if kind == "table_cell":
        return "table_cell"
    return "paragraph"
