"""Scoring: how much each block speaks for its container being the article, and which elements are
boilerplate (nav, share bars, related links), comment sections or content containers by tag and class/id.

A mark on an element holding most of the page's prose is ignored (WordPress puts "has-sidebar" on
wrappers of everything), and when marks would remove most of the prose they are ignored altogether.
Thresholds and tables live in `heuristics`.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate, compress, repeat

from worker.clean import heuristics as h
from worker.clean import idents, native
from worker.clean.scripts import counter
from worker.clean.segment import Segmentation


@dataclass(slots=True)
class Scores:
    """Per block: link density and weight for the target choice; per element: inherited marks."""

    link_density: list[float]
    weights: list[float]  # prose weight, zero in marked and (unless kept) comment subtrees
    marked: list[bool]  # inside a boilerplate container
    comment: list[bool]  # inside a comment section
    good: list[bool]  # inside a content-named container
    comment_marked: list[int]  # elements whose own class/id names a comment section, in document order
    idents: bytes  # per element, what its own class and id say (worker.clean.idents' flags)


# How many characters of a text are of a script that does not space words, and of a dense one.
unspaced_chars = counter(h.UNSPACED_SCRIPTS)
dense_chars = counter(h.DENSE_SCRIPTS)


def prose_weights(seg: Segmentation, link_density: list[float]) -> list[float]:
    """Per block, how much it speaks for its container being the article: prose counts, links and
    lists less, text without sentence punctuation (menus, tag clouds) hardly at all, unless it is in a
    script that does not space words (h.UNSPACED_CHARS_PER_WORD: Thai marks no sentence)."""
    max_ld, kind_weight, no_punct, punct, unspaced, script, dense, extra = (
        h.TARGET_MAX_LINK_DENSITY, h.KIND_WEIGHT, h.NO_PUNCT_WEIGHT, h.SENTENCE_PUNCT.search,
        h.UNSPACED_CHARS_PER_WORD, unspaced_chars, dense_chars, h.DENSE_CHAR_WEIGHT - 1.0,
    )  # fmt: skip
    out = []
    for text, kind, chars, words, ld in zip(
        seg.texts, seg.kinds, seg.chars, seg.words, link_density, strict=True
    ):
        if ld > max_ld:
            out.append(0.0)
            continue
        size = chars + extra * dense(text)  # rule: DENSE_CHAR_WEIGHT
        w = size * (1.0 - ld) ** 2 * kind_weight.get(kind, 1.0)
        sentences = punct(text) or (chars > unspaced * words and script(text, 1))
        out.append(w if sentences else w * no_punct)
    return out


def own_marks(
    seg: Segmentation, prose: list[float], flags: bytes
) -> tuple[list[bool], list[bool], list[bool]]:
    """Per element, from its own tag and class/id `flags`: (boilerplate, comment section, content
    container)."""
    n = len(seg.tags)
    marked, comment, good = [False] * n, [False] * n, [False] * n
    prefix = [0.0, *accumulate(prose)]
    limit = h.MARK_MAX_SHARE * (prefix[-1] or 1.0)
    bad_tags = h.BAD_TAGS
    BAD, COMMENT, GOOD = idents.BAD, idents.COMMENT, idents.GOOD
    rows = zip(seg.tags, flags, seg.firsts, seg.ends, strict=True)
    next(rows)  # the root: page-level classes describe the page
    for i, (tag, f, first, end) in enumerate(rows, 1):
        own = prefix[end] - prefix[first]
        if own <= 0.0 or tag in h.PAGE_STATE_TAGS:
            # Without prose (no text, or only link lists, which are bad anyway) a mark changes nothing;
            # page-level classes ("has-sidebar", "comments-open") describe the page, not a part.
            continue
        good[i] = bool(f & GOOD) or tag == h.ARTICLE_TAG
        if f & COMMENT:
            comment[i] = True
            continue
        if (f & BAD or tag in bad_tags) and own <= limit:
            marked[i] = True
    return marked, comment, good


def inherit(skips: list[int], flags: list[bool]) -> list[bool]:
    """Each element's flag or any ancestor's: an element's subtree is the elements (i, skips[i]).

    Modifies `flags`; one slice assignment per flagged subtree, none inside one already set."""
    covered = 0
    for i in compress(range(len(flags)), flags):
        if i >= covered:
            covered = skips[i]
            flags[i:covered] = repeat(True, covered - i)
    return flags


def score(seg: Segmentation) -> Scores:
    """Weights for the target choice and the marks the classification reads. Comment sections weigh
    nothing: they are never the article (worker.clean.comments reads them apart).

    Computed in C (worker/clean/_native.c) when native.py has checked it against score_python."""
    flags = idents.ident_flags(seg.classes, seg.ids)
    accel = _accel
    if accel is not None:
        columns = (seg.tags, seg.firsts, seg.ends, seg.skips, seg.owners, seg.texts, seg.kinds)
        got = accel(*columns, seg.chars, seg.words, seg.link_chars, seg.link_words, flags)
        if got is not None:
            link_density, weights, marked, comment, good, comment_marked = got
            return Scores(link_density, weights, marked, comment, good, comment_marked, flags)
    return score_python(seg, flags)


def score_python(seg: Segmentation, flags: bytes) -> Scores:
    """score's reference: the same lists, in Python."""
    link_density = seg.link_density()
    prose = prose_weights(seg, link_density)
    own_marked, own_comment, own_good = own_marks(seg, prose, flags)
    comment_marked = list(compress(range(len(own_comment)), own_comment))
    marked = inherit(seg.skips, own_marked)
    comment = inherit(seg.skips, own_comment)
    good = inherit(seg.skips, own_good)
    owners, boost = seg.owners, h.GOOD_CLASS_BOOST
    unmarked = [0.0 if comment[e] else w for e, w in zip(owners, prose, strict=True)]
    weights = [
        0.0 if marked[e] else w * boost if good[e] else w for e, w in zip(owners, unmarked, strict=True)
    ]
    if sum(weights) < (1.0 - h.MARKS_MAX_REMOVED) * sum(unmarked):
        weights = unmarked  # the marks are wrong about this page ("meta-information" holding the story)
    return Scores(link_density, weights, marked, comment, good, comment_marked, flags)


# The C scoring, once native.py has checked it against score_python (None: not built, or the check failed).
_accel: native.NativeScore | None = native.scorer(
    h.KIND_WEIGHT,
    h.TARGET_MAX_LINK_DENSITY,
    h.NO_PUNCT_WEIGHT,
    h.SENTENCE_PUNCT,
    h.MARK_MAX_SHARE,
    h.GOOD_CLASS_BOOST,
    h.MARKS_MAX_REMOVED,
    h.UNSPACED_CHARS_PER_WORD,
    h.UNSPACED_SCRIPTS,
    h.DENSE_SCRIPTS,
    h.DENSE_CHAR_WEIGHT,
    tuple(sorted(h.BAD_TAGS)),
    tuple(sorted(h.PAGE_STATE_TAGS)),
    h.ARTICLE_TAG,
    (idents.BAD, idents.COMMENT, idents.GOOD),
    score_python,
)
