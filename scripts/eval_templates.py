#!/usr/bin/env python3
"""Offline check of per-site template memory: shingle F1 with and without it, on the shared datasets.

    .venv/bin/python scripts/eval_templates.py [--datasets dragnet,scrapinghub_aeb,cleaneval_dev]
        [--sites-min 5] [--out DIR]

Pages are processed in dataset order sorted by id, through `worker.clean.pipeline.clean_page`, three ways:
density only (no memory), online memory (one SiteMemory, pages in order) and two-pass (every page of the
dataset is first cleaned once to learn, outputs discarded, then the memory is frozen and every page is
cleaned again, as `clean --two-pass` does). Scores come from the shared scorer
(../shared/eval/score.py) with --sites-min. Skips cleanly when the data is absent.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import MemoryConfig, SiteMemory  # noqa: E402
from worker.gc_policy import tune_gc  # noqa: E402
from worker.models import Page  # noqa: E402

DATA = Path(os.environ.get("CLEANSTREAM_SHARED", ROOT.parent / "shared"))
SCORER = DATA / "eval" / "score.py"


def read_pages(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def to_page(r: dict[str, Any]) -> Page:
    return Page(id=str(r["id"]), html=r.get("html"), url=r.get("url"), site=r.get("site"))


def run(pages: list[Page], mode: str, config: MemoryConfig) -> tuple[dict[str, str], dict[str, Any]]:
    memory = SiteMemory(config) if mode != "density" else None
    if mode == "two-pass":
        assert memory is not None
        for p in pages:
            clean_page(p, memory)
        memory.learning = False  # as `clean --two-pass`: the second pass counts nothing
    out: dict[str, str] = {}
    methods: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    stripped = 0
    started = time.perf_counter()
    for p in pages:
        doc = clean_page(p, memory)
        out[p.id] = doc.text
        methods[doc.method] += 1
        if doc.template is not None:
            stripped += doc.template.blocks_stripped
            if doc.template.fallback_reason:
                reasons[doc.template.fallback_reason] += 1
    info: dict[str, Any] = {
        "methods": dict(methods),
        "fallback_reasons": dict(reasons),
        "blocks_stripped": stripped,
        "seconds": round(time.perf_counter() - started, 2),
    }
    if memory is not None:
        info["sites"] = len(memory)
        info["bytes_in_use"] = memory.bytes_in_use
        info["bytes_per_site"] = round(memory.bytes_in_use / max(1, len(memory)))
    return out, info


def score(dataset: Path, preds: dict[str, str], sites_min: int, workdir: Path, tag: str) -> dict[str, Any]:
    pred_path = workdir / f"{dataset.parent.name}.{tag}.jsonl"
    with pred_path.open("w", encoding="utf-8") as f:
        for pid, text in preds.items():
            f.write(json.dumps({"id": pid, "text": text}) + "\n")
    res_path = workdir / f"{dataset.parent.name}.{tag}.score.json"
    cmd = [sys.executable, str(SCORER), str(dataset), str(pred_path), "--json", str(res_path)]
    if sites_min:
        cmd += ["--sites-min", str(sites_min)]
    subprocess.run(cmd, check=True, capture_output=True)
    result: dict[str, Any] = json.loads(res_path.read_text())
    return result.get("shingle") or result.get("snippet") or {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="dragnet,scrapinghub_aeb,cleaneval_dev")
    ap.add_argument("--sites-min", type=int, default=5, help="applied to dragnet only (others have none)")
    ap.add_argument("--modes", default="density,online,two-pass")
    ap.add_argument("--out", default="", help="keep predictions and scores here (default: a temp dir)")
    ap.add_argument("--theta", type=float, default=None)
    ap.add_argument("--min-pages", type=int, default=None)
    ap.add_argument("--max-fingerprints", type=int, default=None)
    a = ap.parse_args()
    if not SCORER.exists():
        print(f"skip: {SCORER} not found")
        return 0
    overrides = {
        k: v
        for k, v in (("theta", a.theta), ("min_pages", a.min_pages), ("max_fingerprints", a.max_fingerprints))
        if v is not None
    }
    config = MemoryConfig(**overrides)
    tune_gc()  # timed like the product
    workdir = Path(a.out) if a.out else Path(tempfile.mkdtemp(prefix="eval_templates."))
    workdir.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"config": overrides}
    for name in a.datasets.split(","):
        dataset = DATA / "data" / name / "pages.jsonl.gz"
        if not dataset.exists():
            print(f"skip {name}: no data")
            continue
        records = sorted(read_pages(dataset), key=lambda r: str(r["id"]))
        sites_min = a.sites_min if name == "dragnet" else 0
        if sites_min:
            counts = collections.Counter(r.get("site") for r in records)
            records = [r for r in records if r.get("site") and counts[r.get("site")] >= sites_min]
        pages = [to_page(r) for r in records]
        for mode in a.modes.split(","):
            preds, info = run(pages, mode, config)
            m = score(dataset, preds, sites_min, workdir, mode)
            info.update({k: round(v, 4) if isinstance(v, float) else v for k, v in m.items()})
            report[f"{name}/{mode}"] = info
            print(
                f"{name:16s} {mode:9s} F1 {m.get('f1', 0):.4f} P {m.get('precision', 0):.4f} "
                f"R {m.get('recall', 0):.4f} {json.dumps(info, sort_keys=True)}",
                flush=True,
            )
    (workdir / "report.json").write_text(json.dumps(report, indent=1))
    print(f"predictions and report in {workdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
