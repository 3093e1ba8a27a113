"""Block labels from gold text: which blocks of our segmentation are the article.

The scorer counts word 4-gram shingles (worker.evaluate), so a block is labelled by its own shingles:

- a block of at least 4 words is content when at least LABEL_SHARE of its 4-gram shingles occur in the
  gold's shingle multiset (a partial block, half article and half boilerplate, goes with its majority);
- a shorter block (a headline, a dateline, a one-word link) is one shorter shingle: it is content when its
  whole token sequence occurs in the gold, and that sequence is not a lone common word appearing anywhere
  (a 1-token block needs the token to be in the gold at most MAX_SHORT_HITS times... see `short_in_gold`);
- a block without any \\w token carries no shingle and is labelled by nothing the scorer sees: weight 0.

The label is the article body, the convention of scrapinghub_aeb's and trafilatura_eval's gold: what
precedes the body's first paragraph (headline, kicker, dateline, byline: dragnet's gold keeps them) and
captions (`captions`: worker.clean.kinds) are not content even when the gold holds their text. The body
starts at the first content block of at least BODY_MIN_WORDS words that is not a heading. Trained with
dragnet's own convention, the model kept headlines, datelines and captions: scrapinghub_aeb fell from
0.971 to 0.950.

Gold text is a multiset: a sentence the page holds twice (a teaser above the article, a pull quote, the lead
repeated in a summary box) is in the gold once. So the content blocks claim the gold's shingles, the blocks
the heuristics keep first (they are in the text whatever the model says), then the others in document
order, and a block of at least 4 words whose shingles are less than LABEL_SHARE unclaimed is not content:
adding it would only repeat text. With this rule, adding exactly the content blocks to the heuristics' text
scores dragnet's train split 0.9510 single-page (0.9457 without it: the repeats counted against precision).

Each block's training weight is its shingle count over the page's, so every page weighs the same, as in the
macro-averaged metric. Snippet gold (trafilatura_eval's with/without) is evaluation only and never labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from worker.evaluate import SHINGLE_N, TOKEN

# Share of a block's shingles that must be in the gold for the block to be content.
LABEL_SHARE = 0.5
# A one- or two-token block ("Share", "Home", "By Jane") is content only if that sequence occurs in the
# gold at most this many times: a word the article uses everywhere says nothing about the block.
MAX_SHORT_HITS = 3
# The article body's first paragraph has at least this many words (a headline rarely has more).
BODY_MIN_WORDS = 15
# Before the body, headings and lines shorter than this are the article's header (headline, dateline,
# byline); longer ones (a lead, a standfirst) stay content.
HEADER_MAX_WORDS = 8


@dataclass(frozen=True, slots=True)
class Labels:
    content: list[bool]
    weights: list[float]  # per block: its shingles' share of the page's shingles (0 without tokens)
    share: list[float]  # per block: share of its shingles found in the gold


def _ngrams(tokens: Sequence[str], n: int) -> dict[tuple[str, ...], int]:
    counts: dict[tuple[str, ...], int] = {}
    for i in range(len(tokens) - n + 1):
        key = tuple(tokens[i : i + n])
        counts[key] = counts.get(key, 0) + 1
    return counts


def align(
    texts: Sequence[str],
    gold: str,
    kinds: Sequence[str] | None = None,
    captions: Sequence[bool] | None = None,
    first: Sequence[int] = (),
) -> Labels:
    """Labels of the blocks `texts` (in document order, with their kinds) against the gold text; the
    blocks `first` (the heuristics' kept ones) claim the gold's shingles before the others."""
    gold_tokens = TOKEN.findall(gold)
    by_len = {k: _ngrams(gold_tokens, k) for k in range(1, SHINGLE_N + 1)}
    content: list[bool] = []
    sizes: list[int] = []
    shares: list[float] = []
    shingles: list[list[tuple[str, ...]]] = []  # each block's shingles (none under SHINGLE_N words)
    for text in texts:
        tokens = TOKEN.findall(text)
        grams = [tuple(tokens[i : i + SHINGLE_N]) for i in range(len(tokens) - SHINGLE_N + 1)]
        shingles.append(grams)
        if not tokens:
            content.append(False)
            sizes.append(0)
            shares.append(0.0)
            continue
        if grams:
            gold_grams = by_len[SHINGLE_N]
            share = sum(1 for g in grams if g in gold_grams) / len(grams)
            content.append(share >= LABEL_SHARE)
            sizes.append(len(grams))
        else:
            hits = by_len[len(tokens)].get(tuple(tokens), 0)
            share = 1.0 if hits else 0.0
            content.append(hits > 0 and (len(tokens) >= 3 or hits <= MAX_SHORT_HITS))
            sizes.append(1)
        shares.append(share)
    if kinds is not None:
        body = next(
            (i for i, (c, t, k) in enumerate(zip(content, texts, kinds, strict=True))
             if c and k != "heading" and t.count(" ") + 1 >= BODY_MIN_WORDS),
            len(texts),
        )  # fmt: skip
        short = HEADER_MAX_WORDS
        content[:body] = [
            c and k != "heading" and t.count(" ") + 1 >= short
            for c, t, k in zip(content[:body], texts[:body], kinds[:body], strict=True)
        ]
    if captions is not None:
        content = [c and not f for c, f in zip(content, captions, strict=True)]
    content = _claim(shingles, content, by_len[SHINGLE_N], first)
    total = sum(sizes) or 1
    return Labels(content, [s / total for s in sizes], shares)


def _claim(
    shingles: Sequence[list[tuple[str, ...]]],
    content: list[bool],
    gold_grams: dict[tuple[str, ...], int],
    first: Sequence[int],
) -> list[bool]:
    """`content` without the blocks of SHINGLE_N or more words (`shingles`: each block's) whose shingles the
    gold holds too few times to also cover them (`first`, then document order, claim them)."""
    left = dict(gold_grams)
    out = list(content)
    firsts = set(first)
    for i in [i for i in first if content[i]] + [i for i, c in enumerate(content) if c and i not in firsts]:
        grams = shingles[i]
        if not grams:
            continue
        if sum(1 for g in grams if left.get(g, 0) > 0) < LABEL_SHARE * len(grams):
            out[i] = False
            continue
        for g in grams:
            if left.get(g, 0) > 0:
                left[g] -= 1
    return out
