#!/usr/bin/env python3
"""Issue 8: is anything left for template stripping? An oracle bound on dragnet's sites >= 5 pages.

    .venv/bin/python scripts/eval_strip_bound.py

Every page of dragnet is cleaned in id order, single-page and with one site memory fed the whole stream.
The oracle then drops from each document every block that is not gold (under half of its word 4-gram
shingles in the page's gold, the training labels' rule) and whose text stands on another page of the same
site (in that page's visible text, the whole site known in advance): the most a template, however
learned, could still strip from the output. Scores: shingle F1 (worker.evaluate) on all pages of sites
with >= 5 pages, before and after the oracle, in both modes.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from worker.clean.options import CleanOptions  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import SiteMemory  # noqa: E402
from worker.evaluate import Gold, score, shingles  # noqa: E402
from worker.io import iter_jsonl, page_from_record  # noqa: E402
from worker.io.readers import ReadStats  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dragnet" / "pages.jsonl.gz"
_NON_WORD = re.compile(r"\W+")


def _norm(text: str) -> str:
    return _NON_WORD.sub(" ", text.lower()).strip()


def _visible(html: str) -> str:
    body = LexborHTMLParser(html).body
    return _norm(body.text(separator=" ")) if body is not None else ""


def _not_gold(block: str, gold: Counter[tuple[str, ...]], gold_norm: str) -> bool:
    own = shingles(block)
    if own:
        return sum(n for s, n in own.items() if s in gold) * 2 < sum(own.values())
    return _norm(block) not in gold_norm


def main() -> int:
    if not DATA.exists():
        print(f"eval_strip_bound: no data at {DATA}", file=sys.stderr)
        return 0
    records = [r for _, r in iter_jsonl(DATA, ReadStats()) if "id" in r]
    sites = Counter(r.get("site") for r in records)
    big = [r for r in records if r.get("site") and sites[r["site"]] >= 5]
    golds = [Gold.from_record(r) for r in big]
    pages_of: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in big:
        pages_of[r["site"]].append(r)
    visible = {str(r["id"]): _visible(r["html"]) for r in big}
    wanted = {str(r["id"]) for r in big}
    for mode in ("single-page", "memory"):
        memory = SiteMemory() if mode == "memory" else None
        preds: dict[str, str] = {}
        oracle: dict[str, str] = {}
        dropped = 0
        for r in records:
            doc = clean_page(page_from_record(r, str(r["id"])), memory, CleanOptions())
            pid = str(r["id"])
            if pid not in wanted:
                continue
            preds[pid] = doc.text
            gold = r.get("gold") or ""
            gold_sh, gold_norm = shingles(gold), _norm(gold)
            others = [visible[str(o["id"])] for o in pages_of[r["site"]] if str(o["id"]) != pid]
            kept = []
            for b in doc.blocks:
                text = _norm(b.text)
                if text and _not_gold(b.text, gold_sh, gold_norm) and any(text in o for o in others):
                    dropped += 1
                    continue
                kept.append(b.text)
            oracle[pid] = "\n\n".join(kept)
        before = score(golds, preds)["shingle"]["f1"]
        after = score(golds, oracle)["shingle"]["f1"]
        print(f"{mode}: sites>=5 {before:.4f} -> oracle strip {after:.4f} ({dropped} blocks out)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
