#!/usr/bin/env python3
"""The C accelerator against the Python reference: instructions (or CPU time) per page, stage by stage.

    .venv/bin/python scripts/measure_native.py [--pages 60] [--datasets mix] [--cpu] [--json OUT]

The first --pages pages of each dataset (mix: scrapinghub_aeb, dragnet, cleaneval_dev, trafilatura_eval)
go through each stage in a fresh process, once with the accelerator and once inside
native.python_only(). Stages, each run on its own and measured whole:
    load      read the pages (subtracted from the others)
    guard     the guard's check of each page (before parsing)
    parse     encode + parse (with the check for markup that swallows the page)
    segment   + the segmentation walk
    fingerprint  + fingerprints of the segmentation
    density   clean_page without the template memory (the whole pipeline)
    default   clean_page with the template memory (pages in dataset order)
By default each run is counted with `valgrind --tool=callgrind` (instructions: repeatable on a busy
machine, ~50x slower); --cpu takes CPU time instead (median of --rounds runs; noisy on a shared machine).
Instructions or ms per page are the stage's run minus `load`, divided by the pages; segment and
fingerprint are also given alone (minus the run before them). Skips cleanly without ../shared/data.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
MIX = ("scrapinghub_aeb", "dragnet", "cleaneval_dev", "trafilatura_eval")
STAGES = ("load", "guard", "parse", "segment", "fingerprint", "density", "default")

RUN = """
import gzip, json, sys, time
from worker.clean import dom, guard, native
from worker.clean.fingerprint import fingerprint_segmentation
from worker.clean.options import Budget, CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.segment import segment
from worker.clean.sitememory import SiteMemory
from worker.gc_policy import tune_gc
from worker.models import Page
stage, path, n, data = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
pages = []
for name in sys.argv[5].split(","):
    with gzip.open(f"{data}/{name}/pages.jsonl.gz", "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i >= n:
                break
            r = json.loads(line)
            pages.append(Page(id=str(r["id"]), html=r["html"], url=r.get("url"), site=r.get("site")))
if path == "python":
    reference = native.python_only()  # kept: the context ends when it is collected
    reference.__enter__()
tune_gc()
clean_page(Page(id="warm-up", html="<html><body><p>Warm up: lazy imports and caches.</p></body></html>"))
start = time.process_time()
if stage == "guard":
    for page in pages:
        guard.check(page.html, CleanOptions().max_nodes)
elif stage in ("parse", "segment", "fingerprint"):
    for page in pages:
        tree, _ = dom.parse_page(page.html, page.html.encode("utf-8"))
        if stage != "parse" and tree.body is not None:
            seg = segment(tree.body, Budget(float("inf")))
            if stage == "fingerprint":
                fingerprint_segmentation(seg)
elif stage in ("density", "default"):
    memory = SiteMemory() if stage == "default" else None
    for page in pages:
        clean_page(page, memory)
print(json.dumps({"pages": len(pages), "cpu_s": time.process_time() - start, "status": native.status()}))
"""


def run(stage: str, path: str, pages: int, datasets: str, callgrind: bool) -> tuple[float, int]:
    """(instructions or CPU seconds, pages) of one stage run in a fresh process."""
    cmd = [sys.executable, "-c", RUN, stage, path, str(pages), str(DATA), datasets]
    if callgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if path == "native" and set(result["status"].values()) != {"native"}:
        raise SystemExit(f"the accelerator is not active: {result['status']}")
    if callgrind:
        found = re.search(r"Collected : (\d+)", proc.stderr)
        if found is None:
            raise SystemExit(f"no instruction count from valgrind: {proc.stderr[-500:]}")
        return float(found.group(1)), int(result["pages"])
    return float(result["cpu_s"]), int(result["pages"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=60, help="first N pages of each dataset")
    ap.add_argument("--datasets", default="mix", help="comma-separated names, or mix")
    ap.add_argument("--cpu", action="store_true", help="CPU time instead of callgrind instructions")
    ap.add_argument("--rounds", type=int, default=5, help="runs per measurement with --cpu (median)")
    ap.add_argument("--json", type=Path, help="write the numbers here")
    args = ap.parse_args()
    if not DATA.is_dir():
        print(f"{DATA} is absent: nothing to measure", file=sys.stderr)
        return 0
    callgrind = not args.cpu
    if callgrind and shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: use --cpu")
    datasets = ",".join(MIX) if args.datasets == "mix" else args.datasets
    raw: dict[str, dict[str, float]] = {"native": {}, "python": {}}
    pages = 0
    for stage in STAGES:
        for path in raw:
            if callgrind:
                raw[path][stage], pages = run(stage, path, args.pages, datasets, True)
            else:
                samples = [run(stage, path, args.pages, datasets, False) for _ in range(args.rounds)]
                raw[path][stage], pages = statistics.median(s[0] for s in samples), samples[0][1]
            print(f"{stage:12} {path:7} {raw[path][stage]:.4g}", file=sys.stderr)
    unit, scale = ("M instructions", 1e6) if callgrind else ("ms", 1e-3)
    table: dict[str, dict[str, float]] = {}
    for path, got in raw.items():
        per = {s: (got[s] - got["load"]) / pages / scale for s in STAGES[1:]}
        per["segment alone"] = per["segment"] - per["parse"]
        per["fingerprint alone"] = per["fingerprint"] - per["segment"]
        per["memory overhead"] = per["default"] / per["density"]
        table[path] = {k: round(v, 3) for k, v in per.items()}
    print(f"per page ({unit}), {pages} pages of {datasets}:")
    for key in table["native"]:
        py, nat = table["python"][key], table["native"][key]
        gain = f"{py / nat:.2f}x" if nat and key != "memory overhead" else ""
        print(f"  {key:18} python {py:9.3f}   native {nat:9.3f}   {gain}")
    if args.json:
        summary = {"unit": unit, "pages": pages, "datasets": datasets, **table}
        args.json.write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
