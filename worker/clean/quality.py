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
one line: the segmentation folds whitespace, so a document's lines are its blocks). Everything is counted
with C-level string methods (str.translate deletes what is counted, split makes the tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from worker.clean import heuristics as h
from worker.clean import lang as lang_mod
from worker.clean import wordmodel
from worker.models import Quality

_DIGITS = "0123456789"
# Characters that are neither letters, digits nor spaces: ASCII punctuation and the common typographic
# ones. Apostrophes count as symbols but stay inside tokens: word lists hold "don't" and "l'eau".
SYMBOLS = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~«»‹›“”„‘’‚–—―…•·©®™°§¶†‡′″€£¥¢¦¬±×÷"
_DIGIT, _SYMBOL, _APOSTROPHE = "\x01", "\x02", "\x03"
# One str.translate marks every digit and symbol with a control character (which the segmentation's text
# never holds), so both are counted with str.count and the tokens are what lies between the marks.
_MARK = str.maketrans(
    dict.fromkeys(_DIGITS, _DIGIT) | dict.fromkeys(SYMBOLS, _SYMBOL) | dict.fromkeys("'’", _APOSTROPHE)
)
# What ends a line of prose.
_LINE_END = tuple(".!?…:;。！？\"'”’»)")


@dataclass(slots=True)
class Counts:
    """The sums behind one text's signals (they add up over blocks)."""

    words: int = 0
    nonspace: int = 0
    symbols: int = 0
    digits: int = 0
    tokens: int = 0
    stopwords: int = 0
    lines: int = 0
    punctuated: int = 0
    zipf_sum: float = 0.0

    def add(self, other: Counts) -> None:
        self.words += other.words
        self.nonspace += other.nonspace
        self.symbols += other.symbols
        self.digits += other.digits
        self.tokens += other.tokens
        self.stopwords += other.stopwords
        self.lines += other.lines
        self.punctuated += other.punctuated
        self.zipf_sum += other.zipf_sum


def count(text: str, stoplist: frozenset[str] | None, zipf: dict[str, float] | None) -> Counts:
    """The counts of one block's text (whitespace-folded: one line)."""
    if not text:
        return Counts()
    words = text.count(" ") + 1
    marked = text.lower().translate(_MARK)
    apostrophes = marked.count(_APOSTROPHE)
    tokens: list[str] = []
    if stoplist is not None or zipf is not None:
        spaced = marked.replace(_DIGIT, " ").replace(_SYMBOL, " ")
        tokens = (spaced.replace(_APOSTROPHE, "'") if apostrophes else spaced).split()
    return Counts(
        words=words,
        nonspace=len(text) - words + 1,
        symbols=marked.count(_SYMBOL) + apostrophes,
        digits=marked.count(_DIGIT),
        tokens=len(tokens),
        stopwords=sum(map(stoplist.__contains__, tokens)) if stoplist is not None else 0,
        lines=1,
        punctuated=1 if text.endswith(_LINE_END) else 0,
        zipf_sum=sum(map(zipf.get, tokens, repeat(0.0))) if zipf is not None else 0.0,
    )


def signals(c: Counts, has_stoplist: bool, has_model: bool) -> Quality:
    nonspace = c.nonspace or 1
    return Quality(
        words=c.words,
        mean_word_length=c.nonspace / c.words if c.words else 0.0,
        symbol_ratio=c.symbols / nonspace,
        digit_ratio=c.digits / nonspace,
        stopword_ratio=(c.stopwords / c.tokens if c.tokens else 0.0) if has_stoplist else None,
        punctuated_lines=c.punctuated / c.lines if c.lines else 0.0,
        lm_score=(c.zipf_sum / c.tokens if c.tokens else 0.0) if has_model else None,
    )


@dataclass(slots=True)
class Assessed:
    """Signals of each block, which blocks pass the filter, and the signals of those together."""

    blocks: list[Quality]
    keep: list[bool]
    whole: Quality | None  # None when no block is kept


def passes(q: Quality, c: Counts, min_score: float) -> bool:
    """The filter: a block is dropped when its lm_score is under `min_score`, if it has enough tokens to
    judge (a short heading or a name says little) and its language has a model."""
    return q.lm_score is None or c.tokens < h.FILTER_MIN_TOKENS or q.lm_score >= min_score


def assess(texts: Sequence[str], lang: str | None, min_score: float = 0.0) -> Assessed:
    """Each text's signals in the language `lang` (None: unknown), the filter's verdicts (all kept when
    `min_score` is 0), and the signals of the kept texts together."""
    stoplist = lang_mod.STOPWORDS.get(lang) if lang is not None else None
    zipf = wordmodel.zipf_table(lang) if lang is not None else None
    has_stop, has_model = stoplist is not None, zipf is not None
    total = Counts()
    per_text: list[Quality] = []
    keep: list[bool] = []
    for text in texts:
        c = count(text, stoplist, zipf)
        q = signals(c, has_stop, has_model)
        ok = min_score <= 0 or passes(q, c, min_score)
        if ok:
            total.add(c)
        per_text.append(q)
        keep.append(ok)
    whole = signals(total, has_stop, has_model) if any(keep) else None
    return Assessed(per_text, keep, whole)
