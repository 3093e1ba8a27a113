"""Scoring of extracted text against gold: the team's metric (../shared/eval/score.py), reimplemented.

Gold text: word 4-gram shingles of \\w+ tokens; per page TP/FP/FN normalised to sum 1; precision and
recall macro-averaged over the pages where they are defined; F1 from those two means (the
scrapinghub article-extraction-benchmark metric). Snippets (trafilatura's evaluation): a `with`
snippet present in the output is a TP, absent a FN; a `without` snippet present is a FP; micro-averaged.
Pages with empty gold or flagged `suspect_gold_mismatch` are skipped and counted.

The numbers must equal score.py's to the last bit, so the arithmetic follows it step for step
(including `statistics.mean`, which sums exactly, and its choice of which pages count where).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TOKEN = re.compile(r"\w+", re.UNICODE)
SPACE = re.compile(r"\s+")
SHINGLE_N = 4

Row = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class Gold:
    """What scoring needs from one dataset record (the HTML is dropped after extraction)."""

    id: str
    site: str | None
    gold: str | None = None
    has_gold: bool = False
    with_: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    suspect: bool = False

    @classmethod
    def from_record(cls, record: Mapping[str, Any], field: str = "gold") -> Gold:
        """The record's gold; `field` names another gold text to score against (e.g. "gold_comments":
        score.py on a copy of the dataset whose "gold" is that field gives the same numbers)."""
        site = record.get("site")
        return cls(
            id=str(record["id"]),
            # Kept verbatim ("" stays "") because score.py counts pages per raw site value.
            site=site if isinstance(site, str) else None,
            gold=record.get(field),
            has_gold=field in record,
            with_=tuple(record.get("with") or ()),
            without=tuple(record.get("without") or ()),
            suspect=bool(record.get("suspect_gold_mismatch")),
        )

    @property
    def skipped(self) -> bool:
        return self.suspect or (self.has_gold and not (self.gold or "").strip())


def shingles(text: str | None, n: int = SHINGLE_N) -> Counter[tuple[str, ...]]:
    """Word n-gram multiset; a text shorter than n words is one shorter shingle, an empty text none."""
    tokens = TOKEN.findall(text or "")
    if not tokens:
        return Counter()
    return Counter(tuple(tokens[i : i + n]) for i in range(max(1, len(tokens) - n + 1)))


def page_tp_fp_fn(gold: str | None, pred: str | None) -> Row:
    g, p = shingles(gold), shingles(pred)
    tp = sum((g & p).values())
    fp = sum((p - g).values())
    fn = sum((g - p).values())
    total = tp + fp + fn
    return (tp / total, fp / total, fn / total) if total else (0.0, 0.0, 0.0)


def precision(tp: float, fp: float, fn: float) -> float:
    if fp == fn == 0:
        return 1.0
    return tp / (tp + fp) if tp + fp else 0.0


def recall(tp: float, fp: float, fn: float) -> float:
    if fp == fn == 0:
        return 1.0
    return tp / (tp + fn) if tp + fn else 0.0


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def shingle_metrics(rows: Sequence[Row]) -> dict[str, Any]:
    # Precision is undefined on pages where we output nothing and the gold too has nothing in
    # common; such pages only count towards recall (and vice versa), as in score.py.
    ps = [precision(*r) for r in rows if r[0] + r[1] > 0]
    rs = [recall(*r) for r in rows if r[0] + r[2] > 0]
    p = statistics.mean(ps) if ps else 0.0
    r = statistics.mean(rs) if rs else 0.0
    return {"precision": p, "recall": r, "f1": _f1(p, r), "pages": len(rows)}


def snippet_counts(with_: Iterable[str], without: Iterable[str], pred: str | None) -> tuple[int, int, int]:
    text = SPACE.sub(" ", pred or "")
    tp = fp = fn = 0
    for s in with_:
        if SPACE.sub(" ", s).strip() in text:
            tp += 1
        else:
            fn += 1
    for s in without:
        if SPACE.sub(" ", s).strip() in text:
            fp += 1
    return tp, fp, fn


def snippet_metrics(rows: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    tp = sum(r[0] for r in rows)
    fp = sum(r[1] for r in rows)
    fn = sum(r[2] for r in rows)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": p, "recall": r, "f1": _f1(p, r), "pages": len(rows)}


def score(
    golds: Sequence[Gold], preds: Mapping[str, str], sites_min: int = 0, by_site: bool = False
) -> dict[str, Any]:
    """score.py's result dict (without its "dataset" key) for `preds` (id -> text) over `golds`."""
    site_pages = Counter(g.site for g in golds)
    shingle_rows: list[Row] = []
    snippet_rows: list[tuple[int, int, int]] = []
    per_site: dict[str, list[Row]] = defaultdict(list)
    skipped = 0
    for g in golds:
        if sites_min and (not g.site or site_pages[g.site] < sites_min):
            continue
        if g.skipped:
            skipped += 1
            continue
        pred = preds.get(g.id, "")
        if g.has_gold:
            row = page_tp_fp_fn(g.gold, pred)
            shingle_rows.append(row)
            per_site[g.site or "?"].append(row)
        else:
            snippet_rows.append(snippet_counts(g.with_, g.without, pred))
    out: dict[str, Any] = {"skipped_pages": skipped}
    # Counted over every page of a big-enough site, skipped ones included, exactly like score.py.
    out["missing_predictions"] = sum(
        1 for g in golds if g.id not in preds and (not sites_min or site_pages[g.site] >= sites_min)
    )
    if shingle_rows:
        out["shingle"] = shingle_metrics(shingle_rows)
    if snippet_rows:
        out["snippet"] = snippet_metrics(snippet_rows)
    if by_site and per_site:
        out["by_site"] = {s: shingle_metrics(rows) for s, rows in sorted(per_site.items())}
    return out


def summary_lines(result: Mapping[str, Any]) -> list[str]:
    """The human summary score.py prints, one line per metric present."""
    lines = []
    for kind in ("shingle", "snippet"):
        if kind in result:
            m = result[kind]
            lines.append(
                f"{kind}: precision {m['precision']:.4f} recall {m['recall']:.4f} "
                f"F1 {m['f1']:.4f} over {m['pages']} pages"
            )
    return lines
