"""Block classification inside the content region (jusText, Pomikálek 2011), then context smoothing.

Blocks are classified good / bad / short / near-good from shallow features (length, link density,
stopword density, sentence punctuation, boilerplate lines, marked containers); short and near-good ones
are decided by their neighbours (a short line's good neighbours are also looked for past share buttons). A
flat comment section after a "N Comments" heading is cut, and when smoothing has no anchor of good text the
region's non-boilerplate blocks are kept; a near-good sentence of its own, and a short sentence closing kept
text, stand whatever their neighbours.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import chain, pairwise
from typing import TypeVar

from worker.clean import heuristics as h
from worker.clean import idents, native
from worker.clean import lang as lang_mod
from worker.clean.kinds import captions
from worker.clean.region import Region
from worker.clean.score import Scores, unspaced_chars
from worker.clean.segment import Segmentation

GOOD, BAD, SHORT, NEAR = "good", "bad", "short", "near"
T = TypeVar("T")


@dataclass(slots=True)
class Candidates:
    """The region's blocks, in document order, with what classification reads of each."""

    texts: list[str]
    kinds: list[str]
    chars: list[int]
    words: list[int]
    link_words: list[int]
    link_density: list[float]
    stop_words: list[int]  # filled by `language` where the stopword test needs them

    @property
    def headings(self) -> list[bool]:
        return [k == "heading" for k in self.kinds]


@dataclass(slots=True)
class Classified:
    """The blocks kept, as indices into the segmentation, and the guessed language."""

    kept: list[int]
    lang: str | None
    tail: list[int]  # the region's blocks from a flat comment section's heading on (comment_tail)


def candidates(seg: Segmentation, link_density: list[float], ranges: list[tuple[int, int]]) -> Candidates:
    """The columns of the blocks in `ranges` (slices: one list step per range, not per block)."""

    def pick(column: list[T]) -> list[T]:
        if len(ranges) == 1:
            lo, hi = ranges[0]
            return column[lo:hi]
        return list(chain.from_iterable(column[lo:hi] for lo, hi in ranges))

    texts = pick(seg.texts)
    return Candidates(
        texts,
        pick(seg.kinds),
        pick(seg.chars),
        pick(seg.words),
        pick(seg.link_words),
        pick(link_density),
        [0] * len(texts),
    )


def classify_region(seg: Segmentation, scores: Scores, region: Region) -> Classified:
    """Which blocks of the region are the article's text."""
    ranges = region.ranges
    idx = list(range(*ranges[0])) if len(ranges) == 1 else [i for lo, hi in ranges for i in range(lo, hi)]
    blocks = candidates(seg, scores.link_density, ranges)
    lang = language(blocks)
    # Marks above the target describe the content container itself ("main-sidebar-layout"): ignore them.
    marked = scores.marked if not scores.marked[region.target] else None
    comment = scores.comment if not scores.comment[region.target] else None
    b = blocks
    good_share = h.STOPWORD_GOOD_SHARE[lang] if lang is not None else None
    kept, cut = _decide(
        b.texts, b.kinds, b.chars, b.words, b.link_words, b.link_density, b.stop_words,
        idx, seg.owners, marked, comment, good_share,
    )  # fmt: skip
    return Classified(kept, lang, idx[cut:])


def decide_python(
    texts: list[str],
    kinds: list[str],
    chars: list[int],
    words: list[int],
    link_words: list[int],
    link_density: list[float],
    stop_words: list[int],
    idx: list[int],
    owners: list[int],
    marked: list[bool] | None,
    comment: list[bool] | None,
    good_share: float | None,
) -> tuple[list[int], int]:
    """The region's blocks (`idx`, with the candidates' columns) that are the article's text, and where
    its flat comment tail starts (an index into `idx`; len(idx) without one). `marked`, `comment`: the
    page's element flags, None where they do not apply; `good_share`: the page language's good stopword
    density (h.STOPWORD_GOOD_SHARE), None without a language."""
    blocks = Candidates(texts, kinds, chars, words, link_words, link_density, stop_words)
    if marked is not None and _marks_take_most(chars, [marked[owners[i]] for i in idx]):
        marked = None  # rule: class/id marks never delete most of the chosen container's prose
    bad_ctx = [
        (marked is not None and marked[owners[i]]) or (comment is not None and comment[owners[i]])
        for i in idx
    ]
    initial = classify(blocks, good_share, bad_ctx)
    classes = smooth(blocks, initial)
    cut = comment_tail(blocks, classes)
    idx, chars, initial, classes = idx[:cut], chars[:cut], initial[:cut], classes[:cut]
    kept_chars = sum(c for c, k in zip(chars, classes, strict=True) if k == GOOD)
    usable_chars = sum(c for c, k in zip(chars, initial, strict=True) if k != BAD)
    if kept_chars < h.FALLBACK_SHARE * usable_chars:
        # Smoothing found no anchor of good text (tables, short news lines): the region was chosen as
        # content, so keep whatever is not boilerplate rather than almost nothing.
        classes = [GOOD if c != BAD else BAD for c in initial]
    for k, first in enumerate(initial):
        # rule: a near-good sentence of its own stands, whatever its neighbours (SENTENCE_BOX_MIN_CHARS)
        if (
            first == NEAR
            and classes[k] == BAD
            and chars[k] >= h.SENTENCE_BOX_MIN_CHARS
            and not link_words[k]
            and texts[k].endswith(h.SENTENCE_END)
        ):
            classes[k] = GOOD
    for k in range(1, len(classes)):
        # rule: the article's closing sentence stands after kept text (CLOSING_SENTENCE_MIN_CHARS)
        if (
            initial[k] == SHORT
            and classes[k] == BAD
            and classes[k - 1] == GOOD
            and kinds[k] == "paragraph"
            and not link_words[k]
            and chars[k] >= h.CLOSING_SENTENCE_MIN_CHARS
            and texts[k].endswith(h.SENTENCE_END)
        ):
            classes[k] = GOOD
    return [i for i, c in zip(idx, classes, strict=True) if c == GOOD], cut


def _marks_take_most(chars: list[int], marked: list[bool]) -> bool:
    """Do the marked blocks hold more than REGION_MARKS_MAX_SHARE of the region's prose (its blocks of
    LENGTH_LOW+ characters)?"""
    prose = [c if c >= h.LENGTH_LOW else 0 for c in chars]
    total = sum(prose)
    return (
        total > 0
        and sum(c for c, m in zip(prose, marked, strict=True) if m) > h.REGION_MARKS_MAX_SHARE * total
    )


def language(blocks: Candidates) -> str | None:
    """Guess the language from the region's prose and fill `stop_words` where the classes need it."""
    # Only blocks long enough for the stopword test need words; they are also the best sample.
    texts, chars = blocks.texts, blocks.chars
    long_blocks = [i for i, c in enumerate(chars) if c >= h.LENGTH_LOW]
    tokens, hits = lang_mod.stop_hits([texts[i] for i in long_blocks])  # stopwords rarely carry punctuation
    # Prose only: menus and link lists dilute the function words.
    n, ld, max_ld = len(lang_mod.LANGS), blocks.link_density, h.MAX_LINK_DENSITY
    prose = [k for k, i in enumerate(long_blocks) if ld[i] <= max_ld]
    if len(prose) == len(long_blocks):  # most pages: a language's hits are every n-th of `hits`
        total, per_lang = sum(tokens), [sum(hits[j::n]) for j in range(n)]
    else:
        total = sum(tokens[k] for k in prose)
        # per language, the hits of the prose blocks: the columns of their rows of `hits`, summed in C
        rows = [hits[k * n : k * n + n] for k in prose]
        per_lang = [sum(column) for column in zip(*rows, strict=True)] if rows else [0] * n
    lang = lang_mod.detect(per_lang, total)
    if lang is None and total < lang_mod.MIN_WORDS:
        short_tokens, short_hits = lang_mod.stop_hits(
            [t for t, c in zip(texts, chars, strict=True) if c < h.LENGTH_LOW]
        )
        total += sum(short_tokens)
        per_lang = [p + sum(short_hits[j::n]) for j, p in enumerate(per_lang)]
        lang = lang_mod.detect(per_lang, total)
    if lang is not None:
        j = lang_mod.LANGS.index(lang)
        for k, i in enumerate(long_blocks):
            blocks.stop_words[i] = hits[k * n + j]
    return lang


def is_boilerplate(text: str, chars: int, ld: float) -> bool:
    """Bad whatever its neighbours say: link clusters, one-word widgets, copyright lines."""
    if ld > h.MAX_LINK_DENSITY and not (chars > h.LENGTH_HIGH and ld <= h.LONG_BLOCK_MAX_LINK_DENSITY):
        return True
    if chars < h.BOILERPLATE_MAX_CHARS and _boilerplate_line(text):
        return True
    return chars < h.COPYRIGHT_MAX_CHARS and _copyright(text)


def _boilerplate_line(text: str) -> bool:
    return h.BOILERPLATE_LINE.match(text.lower()) is not None


def _copyright(text: str) -> bool:
    """h.COPYRIGHT.search(text), searched only where one of its anchors is."""
    low = text.lower()
    for anchor in h.COPYRIGHT_ANCHORS:  # a loop: any() over a generator costs three times as much
        if anchor in low:
            return h.COPYRIGHT.search(text) is not None
    return False


def _sentence_link_density(text: str, kind: str, chars: int, ld: float) -> float:
    """The link density the boilerplate test reads: 0 for a paragraph that ends a sentence with up to
    LINKED_SENTENCE_MAX_LINK_DENSITY of its words in links (rule: prose citing its sources is prose)."""
    if (
        ld <= h.LINKED_SENTENCE_MAX_LINK_DENSITY
        and chars >= h.LENGTH_LOW
        and kind == "paragraph"
        and text.endswith(h.SENTENCE_END)
    ):
        return 0.0
    return ld


def classify(blocks: Candidates, good_share: float | None, bad_ctx: list[bool]) -> list[str]:
    """jusText's context-free classes, with the link density measured over words in <a>; `good_share`:
    the language's good stopword density (h.STOPWORD_GOOD_SHARE), None without a language."""
    out: list[str] = []
    max_ld = h.MAX_LINK_DENSITY  # at or below it, the link density makes no block boilerplate
    for text, kind, chars, words, lw, ld, stops, in_bad in zip(
        blocks.texts, blocks.kinds, blocks.chars, blocks.words, blocks.link_words, blocks.link_density,
        blocks.stop_words, bad_ctx, strict=True,
    ):  # fmt: skip
        if in_bad or is_boilerplate(
            text, chars, ld if ld <= max_ld else _sentence_link_density(text, kind, chars, ld)
        ):
            cls = BAD
        elif chars < h.LENGTH_LOW:
            cls = BAD if lw and ld > h.SHORT_MAX_LINK_DENSITY else SHORT
        elif good_share is not None:
            # rule: a long block under the good share is near-good, its neighbours decide (STOPWORDS_GOOD);
            # the division first: a block without words raises as it always did
            cls = GOOD if stops / words >= good_share and chars > h.LENGTH_HIGH else NEAR
        elif chars >= h.NOSTOP_GOOD_LENGTH and (
            h.SENTENCE_PUNCT.search(text)
            or (chars > h.UNSPACED_CHARS_PER_WORD * words and unspaced_chars(text, 1))
        ):
            # rule: text of a script that does not space words reads as sentences (UNSPACED_CHARS_PER_WORD)
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


def _good_text_follows(chars: list[int], cls: list[str], i: int) -> bool:
    """A good block comes after block i within MAX_HEADING_DISTANCE characters."""
    dist = 0
    for j in range(i + 1, len(cls)):
        if cls[j] == GOOD:
            return True
        dist += chars[j]
        if dist > h.MAX_HEADING_DISTANCE:
            return False
    return False


_PASSED = "passed"  # no class: _nearest looks past it


def _passing_buttons(blocks: Candidates, cls: list[str]) -> list[str]:
    """`cls` with the bad link lines shorter than PASSED_LINK_MAX_CHARS characters (a share button's "Pin It",
    "Tweet", a listing's "Details") classless, for the short blocks' neighbours."""
    most, shortest, ld = h.MAX_LINK_DENSITY, h.PASSED_LINK_MAX_CHARS, blocks.link_density
    return [
        _PASSED if c == BAD and chars < shortest and ld[i] > most else c
        for i, (c, chars) in enumerate(zip(cls, blocks.chars, strict=True))
    ]


def smooth(blocks: Candidates, classes: list[str]) -> list[str]:
    """jusText context smoothing: headings, then short blocks, then near-good blocks by neighbours."""
    cls = list(classes)
    n = len(cls)
    headings, chars = blocks.headings, blocks.chars
    # Short headings shortly before good text belong to it.
    for i in range(n):
        if headings[i] and cls[i] == SHORT and _good_text_follows(chars, cls, i):
            cls[i] = NEAR
    prev, nxt = _nearest(cls, _GOOD_BAD)
    prev_n, nxt_n = _nearest(cls, _GOOD_BAD_NEAR)
    prev_p, nxt_p = _nearest(_passing_buttons(blocks, cls), _GOOD_BAD)
    words, link_words = blocks.words, blocks.link_words
    revised = list(cls)
    for i in range(n):
        if cls[i] != SHORT:
            continue
        if (prev[i] == GOOD and nxt[i] == GOOD) or (
            # rule: between good text past its share buttons (PASSED_LINK_MAX_CHARS)
            prev_p[i] == GOOD
            and nxt_p[i] == GOOD
            and not link_words[i]
            and words[i] >= h.PASSED_SHORT_MIN_WORDS
        ):
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
    for i in range(n):
        if headings[i] and cls[i] == BAD and classes[i] != BAD and _good_text_follows(chars, cls, i):
            cls[i] = GOOD
    return cls


def comment_tail(blocks: Candidates, classes: list[str]) -> int:
    """Flat blog layouts put comments right after the post with only a "12 Comments" heading between:
    the index of the first such heading after some good text (the block count when there is none). A
    linked one ("Comments", a side rail's link to them) followed by more than COMMENT_LINK_AFTER_SHARE
    times the good text before it is passed over: the article goes on after it."""
    seen_good = False
    # The good characters before and after block i, kept as the loop goes: summing them for each linked
    # heading made a page of many such lines quadratic.
    good = [c if k == GOOD else 0 for c, k in zip(blocks.chars, classes, strict=True)]
    before, after = 0, sum(good)
    for i, (text, kind, chars) in enumerate(zip(blocks.texts, blocks.kinds, blocks.chars, strict=True)):
        after -= good[i]
        heading = kind == "heading"
        if classes[i] == GOOD and not heading:
            seen_good = True
        elif (
            seen_good
            and (heading or classes[i] != GOOD)
            and chars <= h.COMMENT_HEADING_MAX_CHARS
            and _comment_heading(text)
        ):
            linked = blocks.link_density[i] > h.COMMENT_HEADING_MAX_LINK_DENSITY
            if not (linked and after > h.COMMENT_LINK_AFTER_SHARE * before):
                return i
            # rule: COMMENT_LINK_AFTER_SHARE (the article goes on after it)
        before += good[i]
    return len(blocks.texts)


def without_page_lines(texts: list[str], chars: list[int], kept: list[int]) -> list[int]:
    """`kept` (indexes into `texts` and `chars`) without the short lines that are no article text wherever
    they stand: photo credits (h.PHOTO_CREDIT: "Jim Wilson/The New York Times", "KIMIHIRO
    HOSHINO/AFP/GettyImages") and the page's furniture (h.FURNITURE_LINE: "Sharing is caring!", "(Click to
    enlarge)", "Previous 1 / 18 Next", "Visit us on Facebook"; h.FURNITURE_ENDINGS: a video teaser "...
    Watch Video", a cut-off teaser "... Read More...") and a widget's label or control (h.WIDGET_LINE: "Also
    on HuffPost:", "STORY HIGHLIGHTS", "1 2 3 Next") and a post's meta bar (h.POST_META_LINE: "... |
    permalink | comments (1)")."""
    most = max(h.PHOTO_CREDIT_MAX_CHARS, h.FURNITURE_MAX_CHARS, h.POST_NAVIGATOR_MAX_CHARS)
    return [i for i in kept if chars[i] > most or not _page_line(texts[i], chars[i])]


def without_repeated_quotes(texts: list[str], kept: list[int]) -> list[int]:
    """`kept` (indexes into `texts`) without a forum post's quote of a post the text already holds: a block
    opening "Originally posted by X" (h.FORUM_QUOTE) of whose word 4-grams at least h.FORUM_QUOTE_REPEATED
    are in the other kept blocks (the quoted post itself, kept above it)."""
    quotes = [i for i in kept if h.FORUM_QUOTE.match(texts[i]) is not None]
    if not quotes:
        return kept
    drop = _repeated_quotes(texts, kept, quotes, h.FORUM_QUOTE_REPEATED)
    return [i for i in kept if i not in drop] if drop else kept


def repeated_quotes_python(texts: list[str], kept: list[int], quotes: list[int], share: float) -> set[int]:
    """The quotes (of `quotes`, indexes into `texts`) of whose word 4-grams at least `share` are held by two
    or more entries of `kept` (a quote holds its own)."""
    grams = {q: _grams(_words(texts[q])) for q in quotes}
    wanted = set().union(*grams.values())
    if not wanted:
        return set()
    # the quotes' 4-grams that two or more kept blocks hold, one pass however many quotes the thread holds;
    # of any other block only its 4-grams some quote holds (a set intersection in C, no set of its own)
    once: set[tuple[str, ...]] = set()
    twice: set[tuple[str, ...]] = set()
    for i in kept:
        held = grams[i] if i in grams else wanted.intersection(_gram_tuples(_words(texts[i])))
        twice |= once & held
        once |= held
    return {q for q in quotes if grams[q] and len(grams[q] & twice) >= share * len(grams[q])}


def _words(text: str) -> list[str]:
    """_WORD.findall(text.lower()); an ASCII text's by a byte translation and split, a tenth of the CPU
    (tests/unit/test_classify.py: the same words)."""
    low = text.lower()
    if low.isascii():
        return low.encode().translate(_ASCII_WORD_RUNS).decode().split()
    return _WORD.findall(low)


def _gram_tuples(words: list[str]) -> Iterator[tuple[str, ...]]:
    return zip(words, words[1:], words[2:], words[3:], strict=False)


def _grams(words: list[str]) -> set[tuple[str, ...]]:
    """The 4-grams of `words`, zipped in C (slicing each out costs ten times as much)."""
    return set(_gram_tuples(words))


# ASCII characters \w does not match turned into spaces (the other bytes are kept).
_ASCII_WORD_RUNS = bytes(c if c >= 128 or chr(c).isalnum() or c == ord("_") else ord(" ") for c in range(256))
_WORD = re.compile(r"\w+")
# repeated_quotes_python in C (its words' code points in one buffer, each 4-gram a span of it found in a
# hash table of the quotes' 4-grams, no tuple or str object per word or 4-gram), once native.py has checked
# it on canaries.
_repeated_quotes = native.quote_repeater(repeated_quotes_python)


def _page_line(text: str, chars: int) -> bool:
    if chars <= h.PHOTO_CREDIT_MAX_CHARS and "/" in text and h.PHOTO_CREDIT.fullmatch(text) is not None:
        return True
    if chars > h.FURNITURE_MAX_CHARS:
        return "«" in text[:4] and h.POST_NAVIGATOR.fullmatch(text) is not None
    if text.endswith(h.FURNITURE_ENDINGS) or h.FURNITURE_OR_WIDGET_LINE.fullmatch(text) is not None:
        return True
    folded = text.casefold()
    for hint in h.POST_META_HINTS:  # a loop: any() over a generator costs three times as much
        if hint in folded:
            return h.POST_META_LINE.fullmatch(text) is not None
    return False


def without_page_chrome(texts: list[str], kinds: list[str], chars: list[int], kept: list[int]) -> list[int]:
    """`kept` (indexes into `texts`, `kinds` and `chars`) without the page's navigation and ad units that
    sit inside the article's container: a breadcrumb trail as its first block (h.BREADCRUMB: "Auto Sales >
    Car Loans > Financing and Credit > Honda 0 Percent Financing") or a blog's welcome box there
    (h.WELCOME_BOX: "If you're new here, you may want to subscribe to my RSS feed.") or a notice to browsers
    without its style sheets there (h.BROWSER_NOTICE: "This page is best viewed in an up-to-date web browser
    ..."), and an ad unit: a label (h.AD_UNIT_LABEL: "Sponsored links", "Ads by Google") and the run of list
    items right after it."""
    if not kept:
        return kept
    drop: set[int] = set()
    first, size = texts[kept[0]], chars[kept[0]]
    # every trail holds one of BREADCRUMB's separators: tested first, the pattern is twenty times as dear
    trail = size <= h.BREADCRUMB_MAX_CHARS and (">" in first or "»" in first or "›" in first)
    if (
        (trail and h.BREADCRUMB.fullmatch(first))
        or h.WELCOME_BOX.match(first)
        or (size <= h.BROWSER_NOTICE_MAX_CHARS and h.BROWSER_NOTICE.match(first))
    ):
        drop.add(kept[0])
    ks = [kinds[i] for i in kept]
    if "list_item" in ks:  # an ad unit's label is looked for only before a run of list items
        fit, label, item = h.AD_UNIT_LABEL_MAX_CHARS, h.AD_UNIT_LABEL.fullmatch, "list_item"
        for k in range(1, len(ks)):
            i = kept[k - 1]
            if ks[k] == item and ks[k - 1] != item and chars[i] <= fit and label(texts[i]) is not None:
                drop.add(i)
                j = k
                while j < len(ks) and ks[j] == item:  # the ads
                    drop.add(kept[j])
                    j += 1
    return [i for i in kept if i not in drop] if drop else kept


# h.SIGN_OFF's, h.SIGN_OFF_CALL's, h.SIGN_OFF_NOTICE's and h.SIGN_OFF_POSTED's lines in one pattern: one
# match call per trailing block. They are the sources of this pattern only (each compiled alone too: 26
# million instructions of one page's `clean`, callgrind).
_SIGN_OFF_LINE = re.compile(
    f"{h.SIGN_OFF}|{h.SIGN_OFF_CALL}|{h.SIGN_OFF_NOTICE}|{h.SIGN_OFF_POSTED}", re.IGNORECASE
)


def without_sign_off(texts: list[str], kinds: list[str], kept: list[int]) -> list[int]:
    """`kept` (indexes into `texts` and `kinds`) without the author's box that ends it (h.AUTHOR_HEADING: an
    "About the author" heading and what follows) or the box of related posts or the newsletter that ends it
    (h.TAIL_HEADING: a "More from X" or "Sign up to the newsletter" heading and what follows) and without
    its trailing sign-off lines (h.SIGN_OFF: "Follow X on Twitter", "Write to X at x@...", WordPress's "This
    entry was posted ...", a newspaper's print line; h.SIGN_OFF_CALL: a newsletter's "Sign up for ...", a
    wire copyright; h.SIGN_OFF_NOTICE: a disclaimer, "This page is best viewed in ...", "Join over 104,000
    readers!") and a share button's count ending it (h.SHARE_COUNT, a paragraph: "1587"); the first kept block
    always stays."""
    k = len(kept)
    tail_kinds, most = h.TAIL_HEADING_KINDS, h.TAIL_HEADING_MAX_CHARS
    author_from = k - h.AUTHOR_HEADING_TAIL_BLOCKS
    for j in range(max(1, min(author_from, k - h.TAIL_HEADING_BLOCKS)), k):
        kind, text = kinds[kept[j]], texts[kept[j]]
        if (kind == "heading" and j >= author_from and h.AUTHOR_HEADING.match(text)) or (
            kind in tail_kinds and len(text) <= most and h.TAIL_HEADING.fullmatch(text)
        ):
            k = j
            break
    sign_off, count = _SIGN_OFF_LINE.match, h.SHARE_COUNT.fullmatch
    while k > 1 and (
        sign_off(texts[kept[k - 1]]) is not None
        or (kinds[kept[k - 1]] == "paragraph" and count(texts[kept[k - 1]]) is not None)
    ):
        k -= 1
    return kept if k == len(kept) else kept[:k]


def _comment_heading(text: str) -> bool:
    return h.COMMENT_HEADING.match(text) is not None


# decide_python in C (worker/clean/_native.c: the per-block loops in one call; the three patterns are
# called for the blocks that reach them, the copyright pattern only where an anchor is), once native.py
# has checked it on canaries.
_decide = native.decider(
    (
        h.LENGTH_LOW, h.LENGTH_HIGH, h.MAX_LINK_DENSITY,
        h.SHORT_MAX_LINK_DENSITY, h.LONG_BLOCK_MAX_LINK_DENSITY, h.NOSTOP_GOOD_LENGTH, h.FALLBACK_SHARE,
        h.LINKED_SENTENCE_MAX_LINK_DENSITY, h.REGION_MARKS_MAX_SHARE, h.MAX_HEADING_DISTANCE,
        h.COMMENT_HEADING_MAX_CHARS, h.BOILERPLATE_MAX_CHARS, h.COPYRIGHT_MAX_CHARS, h.SENTENCE_BOX_MIN_CHARS,
        h.COMMENT_HEADING_MAX_LINK_DENSITY, h.COMMENT_LINK_AFTER_SHARE, h.CLOSING_SENTENCE_MIN_CHARS,
        h.PASSED_LINK_MAX_CHARS, h.PASSED_SHORT_MIN_WORDS, h.UNSPACED_CHARS_PER_WORD,
    ),
    (h.EDGE_CLASS, h.SENTENCE_PUNCT, h.SENTENCE_END, h.COPYRIGHT_ANCHORS, h.UNSPACED_SCRIPTS),
    # what the C code calls for _boilerplate_line (on the lower-cased text), _copyright and _comment_heading
    (h.BOILERPLATE_LINE.match, h.COPYRIGHT.search, h.COMMENT_HEADING.match),
    decide_python,
)  # fmt: skip


@dataclass(slots=True)
class KeptText:
    """The page's kept blocks while the joining steps add to them (classify dropped them for a neighbour
    or their links alone), and what every step asks of a block it adds."""

    seg: Segmentation
    scores: Scores
    region: Region
    blocks: list[int]  # sorted
    inside: set[int]  # the same, for lookups
    tail: frozenset[int]  # the region's blocks from a flat comment section's heading on
    named: dict[int, bool] = field(default_factory=dict)  # in_named_box's answers, per element

    def in_named_box(self, e: int) -> bool:
        """Is element `e` or an ancestor below the region's container (the lowest one holding the target)
        named or tagged as boilerplate or a comment section? score's marks leave out boxes without prose
        weight, and a list of links has none: their own class/id flags (idents) are read here. Each element's
        answer is kept: the steps' questions together walk each element once, however deep boxes nest."""
        seg, flags, target, known = self.seg, self.scores.idents, self.region.target, self.named
        parents, skips, tags, bad_tags = seg.parents, seg.skips, seg.tags, h.BAD_TAGS
        bad = idents.BAD | idents.COMMENT
        path: list[int] = []
        found = False
        while e > 0 and not (e <= target < skips[e]):
            if e in known:
                found = known[e]
                break
            path.append(e)
            if flags[e] & bad or tags[e] in bad_tags:
                found = True
                break
            e = parents[e]
        for p in path:
            known[p] = found
        return found

    def dropped(self, i: int) -> bool:
        """Is block `i` one a step may add: not kept, not in the flat comment tail, in no marked or comment
        element and no boilerplate line (its link density left out: what a step passes over)?"""
        return i not in self.inside and i not in self.tail and _plain(self.seg, self.scores, i)


def join_dropped(
    seg: Segmentation, scores: Scores, region: Region, c: Classified, single_page: bool
) -> list[int]:
    """`c.kept` with what each joining step adds, in order: the post's own linked items, short item runs,
    closing lines, numbered lines, lines split by captions, inner lines, the other items of a list it keeps
    part of, the headings right before kept text, its sibling lines with links, the gaps of a numbered list
    it keeps, the short sentences at its two edges, and linked titles (where the memory stripped the page,
    only the listed posts' titles after the text's first block: with_listed_post_titles). Each step sees what
    the ones before it added."""
    kept = KeptText(seg, scores, region, c.kept, set(c.kept), frozenset(c.tail))
    steps = JOINING_STEPS if single_page else MEMORY_JOINING_STEPS
    for step in steps:
        added = step(kept)
        if added:
            kept.blocks = sorted(kept.blocks + added)
            kept.inside.update(added)
    return kept.blocks


def with_linked_items(kept: KeptText) -> list[int]:
    """The region's list items and table cells between the first and last kept block that were dropped for
    their links alone: at least h.LINKED_ITEM_MIN_CHARS characters and a link density over h.MAX_LINK_DENSITY
    up to h.LINKED_ITEM_MAX_LINK_DENSITY, `kept.dropped` and no cross-link (h.CROSS_LINK). A post's own list
    of links ("Series of posts on ... by John Hunter", a link roundup's items) sits inside its text; the
    related lists that end it are outside the first and last kept block."""
    seg, scores, region, blocks = kept.seg, kept.scores, kept.region, kept.blocks
    if len(blocks) < 2:
        return []
    lo, hi = blocks[0], blocks[-1]
    texts, kinds, chars, owners = seg.texts, seg.kinds, seg.chars, seg.owners
    ld = scores.link_density
    most, fewest, item_kinds = h.LINKED_ITEM_MAX_LINK_DENSITY, h.LINKED_ITEM_MIN_CHARS, h.LINKED_ITEM_KINDS
    return [
        i
        for a, b in region.ranges
        for i in range(max(a, lo + 1), min(b, hi))
        if kinds[i] in item_kinds
        and h.MAX_LINK_DENSITY < ld[i] <= most
        and chars[i] >= fewest
        and kept.dropped(i)
        and h.CROSS_LINK.search(texts[i]) is None
        and not kept.in_named_box(owners[i])
    ]


def with_item_runs(kept: KeptText) -> list[int]:
    """The region's runs of h.ITEM_RUN_MIN_BLOCKS or more adjacent blocks of up to h.ITEM_RUN_MAX_CHARS
    characters of a kind in h.ITEM_RUN_KINDS, without link text, siblings in one element, between the first
    and last kept block: `kept.dropped` and in no box named as boilerplate. The article's own list (features,
    ingredients) that smoothing dropped because link lines stand on both sides of it."""
    seg, region, blocks = kept.seg, kept.region, kept.blocks
    if len(blocks) < 2:
        return []
    lo, hi = blocks[0], blocks[-1]
    kinds, chars, owners, parents = seg.kinds, seg.chars, seg.owners, seg.parents
    link_words = seg.link_words
    longest, item_kinds, fewest = h.ITEM_RUN_MAX_CHARS, h.ITEM_RUN_KINDS, h.ITEM_RUN_MIN_BLOCKS

    def item(i: int) -> bool:
        return kinds[i] in item_kinds and chars[i] <= longest and not link_words[i] and kept.dropped(i)

    added: list[int] = []
    for a, b in region.ranges:
        i, end = max(a, lo + 1), min(b, hi)
        while i < end:
            if not item(i):
                i += 1
                continue
            j, box = i + 1, parents[owners[i]]
            while j < end and kinds[j] == kinds[i] and parents[owners[j]] == box and item(j):
                j += 1
            if j - i >= fewest and not kept.in_named_box(owners[i]):
                added.extend(range(i, j))
            i = j
    return added


def with_numbered_lines(kept: KeptText) -> list[int]:
    """The region's short lines after the first kept block that open with an enumerator (h.NUMBERED_LINE:
    "1. In The Dirt - S. Carey", "4. Romney wasn't able to expand the map"): up to h.NUMBERED_LINE_MAX_CHARS
    characters of a kind in h.NUMBERED_LINE_KINDS, without link text, `kept.dropped` and in no box named as
    boilerplate; before the last kept block, or after it in a run of two or more adjacent ones counting up by
    one. A post's numbered points or a playlist's tracks written as paragraphs, which smoothing drops between
    link lines."""
    seg, region, blocks = kept.seg, kept.region, kept.blocks
    if not blocks:
        return []
    lo, hi = blocks[0], blocks[-1]
    texts, kinds, chars, owners, link_words = seg.texts, seg.kinds, seg.chars, seg.owners, seg.link_words
    numbered = h.NUMBERED_LINE.match
    most, line_kinds = h.NUMBERED_LINE_MAX_CHARS, h.NUMBERED_LINE_KINDS

    def line(i: int) -> bool:
        return (
            kinds[i] in line_kinds
            and chars[i] <= most
            and not link_words[i]
            and numbered(texts[i]) is not None
            and kept.dropped(i)
            and not kept.in_named_box(owners[i])
        )

    added: list[int] = []
    for a, b in region.ranges:
        i, end = max(a, lo + 1), b
        while i < end:
            if not line(i):
                i += 1
                continue
            j = i + 1
            while j < end and line(j):
                j += 1
            numbers = [int(m.group(1)) for k in range(i, j) if (m := numbered(texts[k])) is not None]
            counted = j - i >= 2 and numbers == list(range(numbers[0], numbers[0] + j - i))
            added.extend(k for k in range(i, j) if counted or k < hi)
            i = j
    return added


def with_caption_runs(kept: KeptText) -> list[int]:
    """The region's runs of blocks of a kind in h.CAPTION_RUN_KINDS, up to h.LENGTH_HIGH characters, a link
    density up to h.CAPTION_RUN_MAX_LINK_DENSITY and with sentence punctuation, between the first and last
    kept block, that stand next to a caption (kinds.captions) or a box marked as boilerplate
    (h.CAPTION_RUN_PASS_MARKED: an inline share or ad box) and whose nearest blocks that are neither, on both
    sides, are kept: `kept.dropped`. Smoothing reads a photo's caption or credit line ("(Associated Press)")
    as a bad neighbour and drops the post's short lines beside it; read past the captions, kept text surrounds
    them."""
    seg, scores, blocks, inside = kept.seg, kept.scores, kept.blocks, kept.inside
    if len(blocks) < 2:
        return []
    is_caption = captions(seg, scores.idents)
    lo, hi = blocks[0], blocks[-1]
    texts, block_kinds, chars, owners = seg.texts, seg.kinds, seg.chars, seg.owners
    link_density, most_linked = scores.link_density, h.CAPTION_RUN_MAX_LINK_DENSITY
    marked, line_kinds = scores.marked, h.CAPTION_RUN_KINDS
    passes_marked = h.CAPTION_RUN_PASS_MARKED

    def line(i: int) -> bool:
        return (
            block_kinds[i] in line_kinds
            and link_density[i] <= most_linked
            and chars[i] <= h.LENGTH_HIGH
            and h.SENTENCE_PUNCT.search(texts[i]) is not None
            and kept.dropped(i)
        )

    added: list[int] = []
    for a, b in kept.region.ranges:
        # read past captions and, with h.CAPTION_RUN_PASS_MARKED, boxes marked as boilerplate
        order = [
            i
            for i in range(max(a, lo), min(b, hi + 1))
            if not is_caption[i] and not (passes_marked and marked[owners[i]])
        ]
        k = 0
        while k < len(order):
            if order[k] in inside:
                k += 1
                continue
            m = k
            while m < len(order) and order[m] not in inside:
                m += 1
            run = order[k:m]
            # kept on both sides, and a caption passed over at one end of the run
            passed = k > 0 and m < len(order) and (order[k - 1] + 1 < run[0] or run[-1] + 1 < order[m])
            if passed and all(line(i) for i in run):
                added.extend(run)
            k = m
    return added


def with_inner_lines(kept: KeptText) -> list[int]:
    """The region's lines between the first and last kept block that smoothing dropped in the kept text's own
    element: blocks of a kind in h.INNER_LINE_KINDS that end with h.INNER_LINE_END or have
    h.INNER_LINE_MIN_WORDS words or more, without link text, in the element that holds the kept blocks right
    before and after them (no headings; a line ending with h.INNER_SENTENCE_ONE_SIDE_END needs only one of
    them in its element), `kept.dropped`. jusText keeps a short block only between good ones and a
    near-good one only beside one; a post's short line or low-stopword paragraph beside a link line or an
    embed's line is its text all the same."""
    seg, blocks = kept.seg, kept.blocks
    if len(blocks) < 2:
        return []
    lo, hi = blocks[0], blocks[-1]
    texts, kinds, words, owners, parents = seg.texts, seg.kinds, seg.words, seg.owners, seg.parents
    link_words, ends, line_kinds = seg.link_words, h.INNER_LINE_END, h.INNER_LINE_KINDS
    fewest, one_side = h.INNER_LINE_MIN_WORDS, h.INNER_SENTENCE_ONE_SIDE_END
    added: list[int] = []
    for a, b in kept.region.ranges:
        for i in range(max(a, lo + 1), min(b, hi)):
            if (
                kinds[i] in line_kinds
                and not link_words[i]
                and (words[i] >= fewest or texts[i].endswith(ends))
                and kept.dropped(i)
            ):
                k, box = bisect_left(blocks, i), parents[owners[i]]
                neighbours = (blocks[k - 1], blocks[k])  # the kept blocks right before and after it
                if any(kinds[j] == "heading" for j in neighbours):
                    continue
                same = [parents[owners[j]] == box for j in neighbours]
                # rule: a sentence needs one of them in its element (INNER_SENTENCE_ONE_SIDE_END)
                if all(same) or (any(same) and texts[i].endswith(one_side)):
                    added.append(i)
    return added


def with_closing_lines(kept: KeptText) -> list[int]:
    """The run of h.CLOSING_RUN_MIN_BLOCKS or more short blocks (under h.LENGTH_LOW characters) of a kind in
    h.CLOSING_RUN_KINDS right after the last kept block, in the region and in the element that holds it:
    without link text, `kept.dropped`. The article's closing lines in its own box (a recipe's ingredients, a
    list of short lines), which smoothing drops when the post's footer lines follow them."""
    seg, ranges = kept.seg, kept.region.ranges
    if not kept.blocks:
        return []
    last = kept.blocks[-1]
    first = last + 1
    if not any(a <= first < b for a, b in ranges):
        return []
    end = next(b for a, b in ranges if a <= first < b)
    kinds, chars, owners, parents, link_words = seg.kinds, seg.chars, seg.owners, seg.parents, seg.link_words
    box, kind = parents[owners[last]], kinds[first]
    if kind not in h.CLOSING_RUN_KINDS:
        return []
    j = first
    while (
        j < end
        and kinds[j] == kind
        and chars[j] < h.LENGTH_LOW
        and not link_words[j]
        and parents[owners[j]] == box
        and kept.dropped(j)
    ):
        j += 1
    return list(range(first, j)) if j - first >= h.CLOSING_RUN_MIN_BLOCKS else []


def with_edge_sentences(kept: KeptText) -> list[int]:
    """The runs of up to h.EDGE_SENTENCE_RUN paragraphs right before the first kept block and right after the
    last one, in the region and in the element that holds that block (no heading): without link text, ending
    a sentence (h.EDGE_SENTENCE_END), `kept.dropped`. A post's short opening sentence ("Usain Bolt did not let
    anyone spoil his party.") or its sign-off ("Good luck!"), which smoothing drops beside the page's
    headline, byline or share buttons."""
    seg, blocks, ranges = kept.seg, kept.blocks, kept.region.ranges
    if not blocks:
        return []
    texts, kinds, owners, parents, link_words = seg.texts, seg.kinds, seg.owners, seg.parents, seg.link_words
    ends, most = h.EDGE_SENTENCE_END, h.EDGE_SENTENCE_RUN
    added: list[int] = []
    for edge, step in ((blocks[0], -1), (blocks[-1], 1)):
        if kinds[edge] == "heading":
            continue
        box, run = parents[owners[edge]], 0
        i = edge + step
        while (
            run < most
            and any(lo <= i < hi for lo, hi in ranges)
            and kinds[i] == "paragraph"
            and not link_words[i]
            and parents[owners[i]] == box
            and texts[i].endswith(ends)
            and kept.dropped(i)
        ):
            added.append(i)
            run += 1
            i += step
    return sorted(added)


def with_linked_headings(kept: KeptText) -> list[int]:
    """The region's headings right before a kept block (no heading) that were dropped for their links alone:
    up to h.LINKED_HEADING_MAX_CHARS characters, a link density over h.MAX_LINK_DENSITY, `kept.dropped` and
    in no box named or tagged as boilerplate. A post's title is a link to the post; a promo's linked title
    sits in its box."""
    seg, scores, region, inside = kept.seg, kept.scores, kept.region, kept.inside
    kinds, chars, owners = seg.kinds, seg.chars, seg.owners
    ld, most = scores.link_density, h.LINKED_HEADING_MAX_CHARS
    return [
        i
        for a, b in region.ranges
        for i in range(a, b - 1)
        if kinds[i] == "heading"
        and i + 1 in inside
        and kinds[i + 1] != "heading"
        and ld[i] > h.MAX_LINK_DENSITY
        and chars[i] <= most
        and kept.dropped(i)  # its lines: the link density is what is passed over
        and not kept.in_named_box(owners[i])
    ]


def with_listed_post_titles(kept: KeptText) -> list[int]:
    """with_linked_headings on a page the memory stripped, whose widened region holds the text's own headline
    and the boxes beside the text: only a linked heading after the text's first block, whose box (its
    element's parent) holds the block after it, of at least h.LISTED_TITLE_MIN_NEXT_CHARS characters. The
    next post's title in a listing of posts ("Avoiding Scams" over its post), not the headline opening the
    text (out of the default text; `keep_headline` places it), a related list's linked item between the
    text's paragraphs, nor a gallery's or promo's linked titles over their short blurbs."""
    blocks = kept.blocks
    if not blocks:
        return []
    seg = kept.seg
    first, chars, parents, owners, ends = blocks[0], seg.chars, seg.parents, seg.owners, seg.ends
    least = h.LISTED_TITLE_MIN_NEXT_CHARS
    return [
        i
        for i in with_linked_headings(kept)
        if i > first
        and chars[i + 1] >= least
        and parents[owners[i]] >= 0
        and ends[parents[owners[i]]] > i + 1
    ]


def with_list_siblings(kept: KeptText) -> list[int]:
    """The region's list items of a list (the nearest element tagged h.LIST_SIBLING_TAGS above an item: a
    nested list's items are its own) of h.LIST_SIBLING_MIN_ITEMS or more items of which
    h.LIST_SIBLING_MIN_SHARE are kept: `kept.dropped`, whatever their link density or length. A post's list is
    one text: density keeps its long items and drops the short or linked ones among them (a link roundup's
    titles, a list of the week's posts). Each block is read once, however deep lists nest."""
    seg, region, inside = kept.seg, kept.region, kept.inside
    kinds, owners, skips = seg.kinds, seg.owners, seg.skips
    list_of = _nearest_list(seg)
    lists = {e for i in kept.blocks if kinds[i] == "list_item" and (e := list_of(owners[i])) > 0}
    if not lists:
        return []
    items: dict[int, list[int]] = {e: [] for e in lists}
    inner_end = -1
    for e in sorted(lists):  # the outermost lists' blocks, each once (a nested list's are inside them)
        if e < inner_end:
            continue
        inner_end = skips[e]
        for a, b in region.ranges:
            for j in range(max(a, seg.firsts[e]), min(b, seg.ends[e])):
                if kinds[j] == "list_item" and (own := items.get(list_of(owners[j]))) is not None:
                    own.append(j)
    added: list[int] = []
    for own in items.values():
        if len(own) < h.LIST_SIBLING_MIN_ITEMS:
            continue
        if sum(1 for j in own if j in inside) < h.LIST_SIBLING_MIN_SHARE * len(own):
            continue
        added.extend(
            j for j in own if j not in inside and kept.dropped(j) and not kept.in_named_box(owners[j])
        )
    return sorted(added)


def _nearest_list(seg: Segmentation) -> Callable[[int], int]:
    """Element -> the nearest element at or above it tagged h.LIST_SIBLING_TAGS (-1 without one), each
    element's answer kept, so a page's lookups together walk each element once."""
    parents, tags, list_tags = seg.parents, seg.tags, h.LIST_SIBLING_TAGS
    known: dict[int, int] = {}

    def list_of(e: int) -> int:
        path = []
        while e > 0 and tags[e] not in list_tags:
            if e in known:
                found = known[e]
                break
            path.append(e)
            e = parents[e]
        else:
            found = e if e > 0 else -1
        for p in path:
            known[p] = found
        return found

    return list_of


def with_text_headings(kept: KeptText) -> list[int]:
    """The region's headings between the first and last kept block, right before a kept block that is no
    heading: up to h.TEXT_HEADING_MAX_CHARS characters, without link text, `kept.dropped`. Smoothing brings
    back the headings that introduce good text, before the joining steps: the heading of a list or of lines
    a step joined stays out without this one."""
    seg, region, blocks, inside = kept.seg, kept.region, kept.blocks, kept.inside
    if len(blocks) < 2:
        return []
    lo, hi = blocks[0], blocks[-1]
    kinds, chars, link_words, most = seg.kinds, seg.chars, seg.link_words, h.TEXT_HEADING_MAX_CHARS
    return [
        i
        for a, b in region.ranges
        for i in range(max(a, lo + 1), min(b, hi))
        if kinds[i] == "heading"
        and i + 1 in inside
        and kinds[i + 1] != "heading"
        and chars[i] <= most
        and not link_words[i]
        and kept.dropped(i)
    ]


def with_linked_lines(kept: KeptText) -> list[int]:
    """The region's runs of up to h.LINKED_LINE_MAX_RUN dropped blocks between two kept blocks, each of a kind
    in h.LINKED_LINE_KINDS with link text that ends a sentence (h.SENTENCE_END), all in the element that
    holds those two (the kept text's siblings): `kept.dropped` and in no box named or tagged as boilerplate.
    A post's line pointing to its source ("via L E N S C R A T C H.") is dropped for its links alone."""
    seg, region, blocks = kept.seg, kept.region, kept.blocks
    if len(blocks) < 2:
        return []
    texts, kinds, owners, parents, link_words = seg.texts, seg.kinds, seg.owners, seg.parents, seg.link_words
    line_kinds, longest, ends = h.LINKED_LINE_KINDS, h.LINKED_LINE_MAX_RUN, h.SENTENCE_END
    added: list[int] = []
    for a, b in pairwise(blocks):
        if b - a < 2 or b - a - 1 > longest:
            continue
        box = parents[owners[a]]
        if parents[owners[b]] != box:
            continue
        run = range(a + 1, b)
        if all(
            kinds[i] in line_kinds
            and link_words[i]
            and parents[owners[i]] == box
            and any(lo <= i < hi for lo, hi in region.ranges)
            and kept.dropped(i)
            and not kept.in_named_box(owners[i])
            and texts[i].endswith(ends)
            for i in run
        ):
            added.extend(run)
    return added


def with_numbered_gaps(kept: KeptText) -> list[int]:
    """The region's runs of dropped blocks between two kept blocks that open with enumerators
    (h.NUMBERED_GAP_LINE), each opening with the next number: kept n, dropped n+1 ... m-1, kept m, all in the
    element that holds those two, `kept.dropped` and in no box named or tagged as boilerplate, whatever their
    link density. The kept lines around it say the text is a numbered list: an index post's entries ("18.
    Yoo: If you don't like our torture, vote us out of office (June 11, 2004)"), whose linked titles density
    drops one here and one there."""
    seg, region, blocks = kept.seg, kept.region, kept.blocks
    if len(blocks) < 2:
        return []
    texts, owners, parents = seg.texts, seg.owners, seg.parents
    numbered = h.NUMBERED_GAP_LINE.match
    added: list[int] = []
    for a, b in pairwise(blocks):
        if b - a < 2:
            continue
        first, last = numbered(texts[a]), numbered(texts[b])
        if first is None or last is None or int(last.group(1)) - int(first.group(1)) != b - a:
            continue
        box, run = parents[owners[a]], range(a + 1, b)
        if parents[owners[b]] == box and all(
            (m := numbered(texts[i])) is not None
            and int(m.group(1)) - int(first.group(1)) == i - a
            and parents[owners[i]] == box
            and any(lo <= i < hi for lo, hi in region.ranges)
            and kept.dropped(i)
            and not kept.in_named_box(owners[i])
            for i in run
        ):
            added.extend(run)
    return added


# The joining steps in the order join_dropped runs them; the last is single-page only (MEMORY_JOINING_STEPS
# where the memory stripped the page).
JOINING_STEPS: tuple[Callable[[KeptText], list[int]], ...] = (
    with_linked_items,
    with_item_runs,
    with_closing_lines,
    with_numbered_lines,
    with_caption_runs,
    with_inner_lines,
    with_list_siblings,
    with_text_headings,
    with_linked_lines,
    with_numbered_gaps,
    with_edge_sentences,
    with_linked_headings,
)
MEMORY_JOINING_STEPS: tuple[Callable[[KeptText], list[int]], ...] = (
    *JOINING_STEPS[:-1],
    with_listed_post_titles,
)


def _plain(seg: Segmentation, scores: Scores, i: int) -> bool:
    """Is block `i` in no marked or comment element and no boilerplate line (its link density left out: what a
    joining step passes over)? `KeptText.dropped` and with_intro_lines ask it of a block they add."""
    owner = seg.owners[i]
    return (
        not scores.marked[owner]
        and not scores.comment[owner]
        and not is_boilerplate(seg.texts[i], seg.chars[i], 0.0)
    )


def with_intro_lines(seg: Segmentation, scores: Scores, kept: list[int]) -> list[int]:
    """`kept` with the short paragraphs that introduce the kept block right after them, in the box that holds
    it: at most h.INTRO_LINE_MAX_CHARS characters and h.INTRO_LINE_MIN_WORDS words, ending in
    h.INTRO_LINE_END ("Here is some of what he had to say:", "KPCC reports that:" before a kept quote), in no
    marked or comment element, no boilerplate, taxonomy or cross-link line (h.TAXONOMY_LABEL, h.CROSS_LINK);
    a dropped line of up to h.INTRO_LINE_PASSED_MAX_CHARS characters between the two is passed over.
    Run on the final blocks, after the site memory has learned from density's: a position the memory learns
    as an article slot joins on every page of the site."""
    texts, chars, end = seg.texts, seg.chars, h.INTRO_LINE_END
    # most pages have none: the test run on every kept block (block 0 has no block before it)
    after = [(k, k - 1) for k in kept if k and texts[k - 1].endswith(end)]
    # rule: a short line between the intro and the kept block is passed over (INTRO_LINE_PASSED_MAX_CHARS)
    passing = h.INTRO_LINE_PASSED_MAX_CHARS
    after += [(k, k - 2) for k in kept if k > 1 and chars[k - 1] <= passing and texts[k - 2].endswith(end)]
    if not after:
        return kept
    kinds, words, owners = seg.kinds, seg.words, seg.owners
    parents, skips = seg.parents, seg.skips
    most, fewest, inside = h.INTRO_LINE_MAX_CHARS, h.INTRO_LINE_MIN_WORDS, set(kept)
    added = [
        i
        for k, i in after
        if i not in inside
        and (i == k - 1 or k - 1 not in inside)
        and kinds[i] == "paragraph"
        and chars[i] <= most
        and words[i] >= fewest
        and (box := parents[owners[i]]) <= owners[k] < skips[box]  # one box holds both
        and _plain(seg, scores, i)
        and h.TAXONOMY_LABEL.search(texts[i]) is None
        and h.CROSS_LINK.search(texts[i]) is None
    ]
    return sorted(set(kept + added)) if added else kept


def without_date_stamps(texts: list[str], chars: list[int], kept: list[int]) -> list[int]:
    """`kept` (indexes into `texts` and `chars`) without a listing's date stamps: the blocks that are a bare
    date and nothing else (h.DATE_STAMP: "12-13-06", "11/06/2012"), when at least h.DATE_STAMPS_MIN of them
    stand in the kept text (one per listed item, not the article's one dateline)."""
    fit, stamp = h.DATE_STAMP_MAX_CHARS, h.DATE_STAMP.fullmatch
    stamps = [i for i in kept if chars[i] <= fit and stamp(texts[i]) is not None]
    if len(stamps) < h.DATE_STAMPS_MIN:
        return kept
    drop = set(stamps)
    return [i for i in kept if i not in drop]
