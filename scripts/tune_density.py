#!/usr/bin/env python3
"""Run clean_page (density only) over the shared benchmarks, score, time, and show the worst pages.

    .venv/bin/python scripts/tune_density.py [DATASET ...] [--out DIR] [--worst N] [--show ID]

DATASET is a folder name under ../shared/data (default: scrapinghub_aeb). Predictions go to
DIR/<dataset>.preds.jsonl and are scored with ../shared/eval/score.py, the scorer the team agreed on.
Skips cleanly when the shared data is absent. Nothing from the data is written into the repository.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from worker.clean.pipeline import clean_page  # noqa: E402
from worker.gc_policy import tune_gc  # noqa: E402
from worker.models import Page  # noqa: E402

SHARED = ROOT.parent / "shared"


def load_scorer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("score", SHARED / "eval" / "score.py")
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def records(dataset: str) -> list[dict[str, Any]]:
    with gzip.open(SHARED / "data" / dataset / "pages.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def run(dataset: str, out_dir: Path, worst: int, show: list[str]) -> None:
    scorer = load_scorer()
    recs = records(dataset)
    out = out_dir / f"{dataset}.preds.jsonl"
    times: list[float] = []
    cpu: list[float] = []
    preds: dict[str, str] = {}
    errors: dict[str, int] = {}
    with out.open("w", encoding="utf-8") as f:
        for r in recs:
            page = Page(id=str(r["id"]), html=r["html"], url=r.get("url"), site=r.get("site"))
            t0, c0 = time.perf_counter(), time.thread_time()
            doc = clean_page(page)
            times.append((time.perf_counter() - t0) * 1000.0)
            cpu.append((time.thread_time() - c0) * 1000.0)
            if doc.error:
                errors[doc.error] = errors.get(doc.error, 0) + 1
                print(f"  error {page.id}: {doc.error} {doc.error_detail}", file=sys.stderr)
            preds[page.id] = doc.text
            f.write(json.dumps({"id": page.id, "text": doc.text}, ensure_ascii=False) + "\n")
    res = scorer.score(str(SHARED / "data" / dataset / "pages.jsonl.gz"), str(out))
    q = statistics.quantiles(times, n=20)
    print(
        f"{dataset}: {len(recs)} pages, ms/page median {statistics.median(times):.2f} "
        f"mean {statistics.mean(times):.2f} p95 {q[-1]:.2f} max {max(times):.1f}; errors {errors or 'none'}"
    )
    cpu_median, cpu_mean = statistics.median(cpu), statistics.mean(cpu)
    print(f"  cpu ms/page (robust to a busy machine) median {cpu_median:.2f} mean {cpu_mean:.2f}")
    for kind in ("shingle", "snippet"):
        if kind in res:
            m = res[kind]
            print(
                f"  {kind}: P {m['precision']:.4f} R {m['recall']:.4f} F1 {m['f1']:.4f} ({m['pages']} pages)"
            )
    rows = []
    for r in recs:
        pid = str(r["id"])
        if "gold" in r and (r["gold"] or "").strip() and not r.get("suspect_gold_mismatch"):
            tp, fp, fn = scorer.page_tp_fp_fn(r["gold"], preds[pid])
            p, rc = scorer.precision(tp, fp, fn), scorer.recall(tp, fp, fn)
            f1 = 2 * p * rc / (p + rc) if p + rc else 0.0
            rows.append((f1, p, rc, pid, r.get("url") or ""))
        elif "with" in r:
            tp, fp, fn = scorer.snippet_counts(r, preds[pid])
            loss = fp + fn
            rows.append((-loss, tp, fp, pid, r.get("url") or ""))
    rows.sort()
    for row in rows[:worst]:
        a, b, c, pid, url = row
        print(f"  worst {pid[:20]:20} {a:7.3f} {b:6.3f} {c:6.3f} {url[:90]}")
    by_id = {str(r["id"]): r for r in recs}
    for pid in show:
        r = by_id.get(pid) or next((v for k, v in by_id.items() if k.startswith(pid)), None)
        if r is None:
            continue
        print("=" * 30, r["id"], r.get("url"))
        print("--- PRED ---")
        print(preds[str(r["id"])])
        print("--- GOLD ---")
        print(r.get("gold") or json.dumps({"with": r.get("with"), "without": r.get("without")}, indent=1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="*", default=["scrapinghub_aeb"])
    ap.add_argument("--out", default="/tmp/cleanstream-tune", help="where predictions go")
    ap.add_argument("--worst", type=int, default=15, help="list this many worst pages")
    ap.add_argument("--show", action="append", default=[], help="print prediction and gold of this id")
    a = ap.parse_args()
    if not (SHARED / "data").is_dir():
        print(f"no shared data at {SHARED / 'data'}; nothing to tune", file=sys.stderr)
        return 0
    out_dir = Path(a.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    tune_gc()  # timed like the product
    for ds in a.datasets:
        run(ds, out_dir, a.worst, a.show)
    return 0


if __name__ == "__main__":
    sys.exit(main())
