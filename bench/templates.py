"""Template memory cost: per-page overhead against density-only cleaning, and bytes per tracked site.

    .venv/bin/python bench/templates.py [--data ../shared/data/dragnet/pages.jsonl.gz] [--limit N]

bench/run.py imports this module and stores `run_templates(pages)` under sections["template_memory"].

Method:
- overhead: every page (in order) through clean_page twice, without memory and with the run's
  SiteMemory, back to back, which of the two goes first alternating from page to page; CPU time
  (process_time) of each call. Interleaving page by page puts both sides under the same machine load
  (on a shared machine, whole-run ratios moved by +-0.05 between runs). The garbage collector is tuned as
  in the worker (worker.gc_policy.tune_gc): with the default thresholds a full collection lands in
  one side's timing or the other's at random (+-0.05 again). After a warm-up over the first WARMUP pages,
  REPEATS runs, each with a fresh memory and cold signature memo; overhead_ratio is the median of the
  runs' total-time ratios (templates / density).
- bytes per site: three measures over the sites learned in that run. `nbytes` is what the memory's budget
  counts (array payloads + a fixed per-object overhead); `snapshot` is the serialized size (what the
  changelog stores); `tracemalloc` restores every site into a fresh SiteMemory under tracemalloc and
  divides the traced allocation by the number of sites (what the process really pays).
"""

from __future__ import annotations

import argparse
import gc
import gzip
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.sections import BenchContext, register  # noqa: E402
from worker.clean import fingerprint  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import MemoryConfig, SiteMemory  # noqa: E402
from worker.gc_policy import tune_gc  # noqa: E402
from worker.models import Page  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "dragnet" / "pages.jsonl.gz"
REPEATS = 3
WARMUP = 200


def _paired_run(pages: list[Page], memory: SiteMemory, methods: dict[str, int]) -> tuple[float, float]:
    """CPU seconds of (density only, with the memory) over `pages`, interleaved page by page."""
    methods.clear()
    clock = time.process_time
    density = templates = 0.0
    for i, page in enumerate(pages):
        for use_memory in (True, False) if i % 2 else (False, True):
            start = clock()
            doc = clean_page(page, memory if use_memory else None)
            spent = clock() - start
            if use_memory:
                templates += spent
                methods[doc.method] = methods.get(doc.method, 0) + 1
            else:
                density += spent
    return density, templates


def _bytes(memory: SiteMemory) -> dict[str, Any]:
    sites = memory.sites()
    if not sites:
        return {"sites": 0}
    snapshots = {s: memory.dump(s) or b"" for s in sites}
    nbytes = [memory.get(s).nbytes() for s in sites]  # type: ignore[union-attr]
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    fresh = SiteMemory(memory.config)
    for site, data in snapshots.items():
        fresh.load(site, data)
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    full = [s for s in sites if len(memory.get(s).fps) >= memory.config.max_fingerprints]  # type: ignore[union-attr]
    return {
        "sites": len(sites),
        "sites_at_cap": len(full),
        "nbytes_mean": round(statistics.mean(nbytes)),
        "nbytes_max": max(nbytes),
        "snapshot_bytes_mean": round(statistics.mean(len(d) for d in snapshots.values())),
        "snapshot_bytes_max": max(len(d) for d in snapshots.values()),
        "tracemalloc_bytes_per_site": round(traced / len(sites)),
        "bytes_in_use": memory.bytes_in_use,
        "budget_bytes": memory.budget_bytes,
    }


def run_templates(pages: list[Page], config: MemoryConfig | None = None) -> dict[str, Any]:
    """Overhead ratio and bytes per site for these pages (see the module docstring for the method)."""
    pages = [p for p in pages if p.html or p.body]
    if not pages:
        return {"pages": 0}
    config = config or MemoryConfig()
    runs: list[tuple[float, float]] = []
    methods: dict[str, int] = {}
    tune_gc()
    _paired_run(pages[:WARMUP], SiteMemory(config), methods)
    for _ in range(REPEATS):
        memory = SiteMemory(config)
        fingerprint.clear_memo()  # every run meets the pages' class names for the first time
        gc.collect()
        runs.append(_paired_run(pages, memory, methods))
    d, t = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
    return {
        "method": (
            "each page through clean_page without and with the memory, back to back (alternating which goes"
            f" first), CPU time; worker GC policy; {REPEATS} runs after {WARMUP} warm-up pages, median ratio"
        ),
        "pages": len(pages),
        "density_ms_per_page": round(1000 * d / len(pages), 3),
        "templates_ms_per_page": round(1000 * t / len(pages), 3),
        "overhead_ratio": round(statistics.median(r[1] / r[0] for r in runs), 3) if d > 0 else None,
        "overhead_ratios": [round(r[1] / r[0], 3) for r in runs if r[0] > 0],
        "goal_ratio": 1.1,
        "methods": methods,
        "memory": _bytes(memory),
        "config": {
            "min_pages": config.min_pages,
            "theta": config.theta,
            "half_life": config.half_life,
            "max_fingerprints": config.max_fingerprints,
        },
    }


@register("template_memory")
def template_memory(pages: list[Page], ctx: BenchContext) -> dict[str, Any]:
    return run_templates(pages)


def _load(path: Path, limit: int) -> list[Page]:
    out: list[Page] = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            out.append(Page(id=str(r["id"]), html=r.get("html"), url=r.get("url"), site=r.get("site")))
    out.sort(key=lambda p: p.id)
    return out[:limit] if limit else out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    if not a.data.exists():
        print(f"skip: {a.data} not found")
        return 0
    print(json.dumps(run_templates(_load(a.data, a.limit)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
