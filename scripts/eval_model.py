#!/usr/bin/env python3
"""The learned block scoring's results table: every shared set, single-page and with the site memory.

    .venv/bin/python scripts/eval_model.py [--no-model] [--sets scrapinghub_aeb,dragnet,...] [--out F.json]

Rows (shingle F1, or snippet F1 for trafilatura_eval, scored by worker.evaluate, which equals
../shared/eval/score.py):
  - every set, all pages, single-page (`--no-templates`) and with the memory fed the set in id order;
  - dragnet's test split (never trained on), both modes;
  - dragnet's test pages of sites with >= 5 pages in the whole set, the memory fed the whole dragnet stream
    in id order (the issue's protocol), both modes; and all pages of those sites (`eval --sites-min 5`).
Every page is cleaned with worker.clean.pipeline.clean_page exactly as `eval` does. The two modes run in two
processes. Skips a set whose data is absent.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from worker.clean.options import CleanOptions  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import SiteMemory  # noqa: E402
from worker.evaluate import Gold, score  # noqa: E402
from worker.gc_policy import tune_gc  # noqa: E402
from worker.io import iter_jsonl, page_from_record  # noqa: E402
from worker.io.readers import ReadStats  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SETS = ("scrapinghub_aeb", "dragnet", "cleaneval_dev", "trafilatura_eval")
# Sets whose gold keeps the headline (the article as a reader copies it); the others' gold is the article
# body alone (SOURCE.md of each set). `--as-gold` scores each set in its own convention.
KEEP_HEADLINE_GOLD = frozenset({"dragnet", "cleaneval_dev"})


def _records(name: str) -> list[dict[str, Any]]:
    return [r for _, r in iter_jsonl(DATA / name / "pages.jsonl.gz", ReadStats()) if "id" in r]


def _run(job: tuple[str, bool, bool, bool]) -> tuple[str, bool, dict[str, str], list[dict[str, Any]], float]:
    """Clean one set in one mode; returns the predictions and what scoring needs of each record."""
    name, templates, use_model, as_gold = job
    tune_gc()
    header = as_gold and name in KEEP_HEADLINE_GOLD
    options = CleanOptions(block_model=use_model, keep_headline=header)
    memory = SiteMemory() if templates else None
    preds: dict[str, str] = {}
    meta: list[dict[str, Any]] = []
    started = time.process_time()
    for rec in _records(name):
        preds[str(rec["id"])] = clean_page(page_from_record(rec, str(rec["id"])), memory, options).text
        rec.pop("html", None)
        meta.append(rec)
    return name, templates, preds, meta, time.process_time() - started


def _f1(golds: list[Gold], preds: dict[str, str]) -> tuple[float, float, float]:
    """F1, precision, recall."""
    result = score(golds, preds)
    m = result.get("shingle") or result.get("snippet") or {}
    return float(m.get("f1", 0.0)), float(m.get("precision", 0.0)), float(m.get("recall", 0.0))


def rows_of(
    name: str, preds: dict[str, str], meta: list[dict[str, Any]]
) -> dict[str, tuple[float, float, float]]:
    golds = [Gold.from_record(r) for r in meta]
    out = {name: _f1(golds, preds)}
    if name == "dragnet":
        sites = Counter(r.get("site") for r in meta)
        big = {s for s, n in sites.items() if s and n >= 5}
        test = [g for g, r in zip(golds, meta, strict=True) if r.get("split") == "test"]
        out["dragnet test"] = _f1(test, preds)
        out["dragnet test, sites>=5"] = _f1([g for g in test if g.site in big], preds)
        out["dragnet sites>=5"] = _f1([g for g in golds if g.site in big], preds)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--no-model", action="store_true", help="the heuristics alone")
    parser.add_argument("--single-only", action="store_true", help="only the single-page mode")
    parser.add_argument(
        "--as-gold",
        action="store_true",
        help="keep the headline in the text where the set's gold does (dragnet, cleaneval_dev)",
    )
    parser.add_argument("--out", type=Path, default=None, help="write the table as JSON here")
    args = parser.parse_args()
    names = [n for n in args.sets.split(",") if (DATA / n / "pages.jsonl.gz").exists()]
    if not names:
        print(f"eval_model: no shared data under {DATA}", file=sys.stderr)
        return 0
    modes = (False,) if args.single_only else (False, True)
    jobs = [(n, t, not args.no_model, args.as_gold) for n in names for t in modes]
    table: dict[str, dict[str, float]] = {}
    pr: dict[str, dict[str, str]] = {}
    cpu: dict[str, float] = {}
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        for name, templates, preds, meta, spent in pool.imap_unordered(_run, jobs):
            mode = "memory" if templates else "single"
            cpu[f"{name} {mode}"] = round(spent, 1)
            for row, (f1, p, r) in rows_of(name, preds, meta).items():
                # six decimals in the JSON: rules are compared at five (printed: four)
                table.setdefault(row, {})[mode] = round(f1, 6)
                pr.setdefault(row, {})[mode] = f"P {p:.4f} R {r:.4f}"
    for row in sorted(table):
        cells = "  ".join(
            f"{m} {table[row][m]:.4f} ({pr[row][m]})" for m in ("single", "memory") if m in table[row]
        )
        print(f"{row:24s} {cells}")
    print("cpu s:", json.dumps(cpu), file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps({"f1": table, "cpu_s": cpu}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
