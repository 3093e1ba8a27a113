"""Quality signals of a text: how much it reads like natural prose. Cheap, per block and per document.

    words             whitespace-separated words
    mean_word_length  non-space characters per word
    symbol_ratio      share of non-space characters that are neither letters nor digits
    digit_ratio       share of non-space characters that are digits
    stopword_ratio    share of letter tokens in the language's stoplist (worker.clean.lang); None without one
    punctuated_lines  share of lines ending in sentence punctuation (prose: most; menus, tables: few)
    lm_score          mean Zipf frequency (log10 of occurrences per billion words, 0-8) of the letter tokens
                      in the language's word-frequency model, 0 for a word not in it (worker.clean.wordmodel);
                      None without a model. English prose scores ~5-6; lists of names, code and
                      keyword stuffing ~2-4.

A document's signals are its blocks' counts summed, not a second pass over its text (a block's text is
one line: the segmentation folds whitespace, so a document's lines are its blocks). The counts are taken
in one pass per text by the C accelerator (worker/clean/_native.c) when it is active; count_python is the
reference, with C-level string methods (str.translate marks what is counted, split makes the tokens). Each
text's Quality is built in C too (per_text_python is the reference).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any

from worker.clean import heuristics as h
from worker.clean import lang as lang_mod
from worker.clean import native, wordmodel
from worker.models import Quality

_DIGITS = "0123456789"
# Characters that are neither letters, digits nor spaces: ASCII punctuation and the common typographic
# ones. Apostrophes count as symbols but stay inside tokens: word lists hold "don't" and "l'eau".
SYMBOLS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~«»‹›“”„‘’‚–—―…•·©®™°§¶†‡′″€£¥¢¦¬±×÷"
_DIGIT, _SYMBOL, _APOSTROPHE = "\x01", "\x02", "\x03"
# Every digit and symbol is marked with a control character (which the segmentation's text never holds),
# so both are counted with str.count and the tokens are what lies between the marks. str.translate is
# fast on ASCII strings only (~1 ns a character; ~40 on others, where one curly quote is enough): other
# strings are marked as UTF-8 bytes (bytes.translate, ASCII digits and symbols), and their few non-ASCII
# symbols replaced one by one where present.
_MARKS = dict.fromkeys(_DIGITS, _DIGIT) | dict.fromkeys(SYMBOLS, _SYMBOL) | dict.fromkeys("'’", _APOSTROPHE)
_MARK = str.maketrans(_MARKS)
_MARK_BYTES = bytes(
    ord(_MARKS.get(chr(b), chr(b))) if b < 128 else b for b in range(256)
)  # fmt: skip
_WIDE_MARKS = tuple((c, m) for c, m in _MARKS.items() if not c.isascii())
# What ends a line of prose.
_LINE_END = tuple(".!?…:;。！？\"'”’»)")


@dataclass(slots=True)
class Assessed:
    """Signals of each block, which blocks pass the filter, and the signals of those together."""

    blocks: list[Quality]
    keep: list[bool]
    whole: Quality | None  # None when no block is kept


@dataclass(slots=True)
class Counts:
    """The counts behind the signals, one list per count and one entry per text (columns: a list
    comprehension per count costs less than an object per text)."""

    words: list[int]
    nonspace: list[int]
    symbols: list[int]
    digits: list[int]
    tokens: list[int]
    stopwords: list[int] | None  # None: no stoplist for the language
    punctuated: list[bool]
    zipf_sums: list[float] | None  # None: no word model for the language


def _mark(text: str) -> str:
    if text.isascii():
        return text.translate(_MARK)
    marked = text.encode("utf-8", "surrogatepass").translate(_MARK_BYTES).decode("utf-8", "surrogatepass")
    for wide, mark in _WIDE_MARKS:
        if wide in marked:
            marked = marked.replace(wide, mark)
    return marked


def count(texts: list[str], lang: str | None) -> Counts:
    """The counts of each text (whitespace-folded, never empty: one line each)."""
    stoplist = lang_mod.STOPWORDS.get(lang) if lang is not None else None
    zipf = wordmodel.zipf_table(lang) if lang is not None else None
    return Counts(*_counts(texts, stoplist, zipf))


def count_python(
    texts: list[str], stoplist: frozenset[str] | None, zipf: dict[str, float] | None
) -> tuple[Any, ...]:
    """count's columns, in Counts' field order (the reference of the C code)."""
    words = [t.count(" ") + 1 for t in texts]
    marked = [_mark(t.lower()) for t in texts]
    apostrophes = [m.count(_APOSTROPHE) for m in marked]
    tokens: list[list[str]] = []
    if stoplist is not None or zipf is not None:
        tokens = [
            m.replace(_DIGIT, " ").replace(_SYMBOL, " ").replace(_APOSTROPHE, "'").split() for m in marked
        ]
    return (
        words,
        [len(t) - w + 1 for t, w in zip(texts, words, strict=True)],
        [m.count(_SYMBOL) + a for m, a in zip(marked, apostrophes, strict=True)],
        [m.count(_DIGIT) for m in marked],
        list(map(len, tokens)) if tokens else [0] * len(texts),
        None if stoplist is None else [sum(map(stoplist.__contains__, tk)) for tk in tokens],
        [t.endswith(_LINE_END) for t in texts],
        None if zipf is None else [sum(map(zipf.get, tk, repeat(0.0))) for tk in tokens],
    )


# The counts in C (worker/clean/_native.c) when native.py has checked them against count_python.
_counts = native.quality_counter(
    _DIGITS,
    "".join(c for c, m in _MARKS.items() if m == _SYMBOL),
    "".join(c for c, m in _MARKS.items() if m == _APOSTROPHE),
    _DIGIT + _SYMBOL + _APOSTROPHE,
    "".join(_LINE_END),
    count_python,
)


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def signals(c: Counts, idx: Sequence[int] | None = None) -> Quality:
    """The signals of the texts `idx` together (None: all of them)."""

    def total(column: Sequence[float]) -> float:
        return sum(column) if idx is None else sum(column[i] for i in idx)  # the same order either way

    words, nonspace, tokens = total(c.words), total(c.nonspace), total(c.tokens)
    stops, zipf = c.stopwords, c.zipf_sums
    return _new_quality(
        words=int(words),
        mean_word_length=_ratio(nonspace, words),
        symbol_ratio=_ratio(total(c.symbols), nonspace),
        digit_ratio=_ratio(total(c.digits), nonspace),
        stopword_ratio=None if stops is None else _ratio(total(stops), tokens),
        punctuated_lines=_ratio(total(c.punctuated), len(c.words) if idx is None else len(idx)),
        lm_score=None if zipf is None else _ratio(total(zipf), tokens),
    )


# The whole text's Quality made in C (its slots filled directly), once native.py has checked it against the
# dataclass's own __init__ (which sets each field through object.__setattr__).
_new_quality = native.instance_maker(Quality, (3, 4.0, 0.5, 0.25, None, 1.0, 4.5))


def per_text_python(c: Counts) -> list[Quality]:
    """Each text's signals: signals(c, [i]) for every i, without the sums (the reference of the C code)."""
    none: list[None] = [None] * len(c.words)
    stops: Sequence[float | None] = none if c.stopwords is None else c.stopwords
    zipf: Sequence[float | None] = none if c.zipf_sums is None else c.zipf_sums
    return [
        Quality(
            w,
            n / w,
            s / n if n else 0.0,
            d / n if n else 0.0,
            None if stop is None else (stop / t if t else 0.0),
            1.0 if p else 0.0,
            None if z is None else (z / t if t else 0.0),
        )
        for w, n, s, d, t, p, stop, z in zip(
            c.words, c.nonspace, c.symbols, c.digits, c.tokens, c.punctuated, stops, zipf, strict=True
        )
    ]


def _canary_counts() -> list[Counts]:
    """Counts that exercise the per-text signals: without a language, with a stoplist and a model, none."""
    texts = list(native.TEXT_CANARIES)
    words = sorted({w for t in texts for w in t.lower().split()})
    with_lang = _counts(texts, frozenset(words[::2]), {w: 0.1 + len(w) / 3.0 for w in words[::3]})
    return [Counts(*_counts(texts, None, None)), Counts(*with_lang), Counts(*_counts([], None, None))]


# Each text's Quality built in C (worker/clean/_native.c) when native.py has checked it against
# per_text_python: a document has dozens, and the frozen dataclass's __init__ costs ~0.7 us each.
_per_text = native.quality_builder(Quality, per_text_python, _canary_counts)


# The languages whose word list and counter table this process has made (load_word_list).
_LOADED: set[str] = set()


def word_list_pending(lang: str | None) -> bool:
    """Has the language's word list still to be read in this process (a cheap test, made every page)?"""
    return lang is not None and lang not in _LOADED


def load_word_list(lang: str | None) -> None:
    """Read the language's word list now, and build the C counter's table of it and the stoplist (both
    once per process, 3-5 ms of CPU for the table on this machine; `count` finds them ready)."""
    if lang is not None:
        count([], lang)
        _LOADED.add(lang)


def assess(texts: Sequence[str], lang: str | None, min_score: float = 0.0) -> Assessed:
    """Each text's signals in the language `lang` (None: unknown), the filter's verdicts (all kept when
    `min_score` is 0), and the signals of the kept texts together.

    The filter drops a text whose lm_score is under `min_score`, if it has enough tokens to judge (a short
    heading or a name says little) and its language has a model."""
    texts = [t for t in texts if t]
    c = count(texts, lang)
    blocks = _per_text(c)
    keep = [True] * len(texts)
    if min_score > 0 and c.zipf_sums is not None:
        floor, tokens = h.FILTER_MIN_TOKENS, c.tokens
        keep = [tokens[i] < floor or (q.lm_score or 0.0) >= min_score for i, q in enumerate(blocks)]
    if all(keep):
        return Assessed(blocks, keep, signals(c) if texts else None)
    kept = [i for i, ok in enumerate(keep) if ok]
    return Assessed(blocks, keep, signals(c, kept) if kept else None)
