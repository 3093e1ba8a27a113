"""Whole-process costs: `clean` over a dataset against trafilatura's own loop, and one page's start-up.

bench/run.py imports this module; its sections land under sections["clean_process"] and ["startup"].

Method:
- clean_process: `python -m worker clean FILES --out OUT` over the JSONL.gz files of PROCESS_DATASETS, as a
  user runs it (reading, decoding, cleaning with the template memory, writing JSONL), against
  bench/trafilatura_loop.py over the same files in bench/.venv (the loop a trafilatura user writes: read,
  json.loads, trafilatura.extract, write JSONL). CPU time (user + system) of each child process, from
  getrusage(RUSAGE_CHILDREN). Both sides are also run on one page (--limit 1, median of STARTUP_RUNS) and
  that is subtracted, so the ratio compares the per-page work of the whole process, start-up excluded.
- startup: CPU time of `python -m worker clean ONE_PAGE.jsonl --out OUT`, median of STARTUP_RUNS runs after
  one that is not counted (it writes the bytecode cache an installed worker has).
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.sections import BenchContext, register  # noqa: E402
from worker.models import Page  # noqa: E402

PROCESS_DATASETS = ("scrapinghub_aeb", "dragnet")
STARTUP_RUNS = 5
LOOP = ROOT / "bench" / "trafilatura_loop.py"
TIMEOUT_S = 3600
# The targets, for the reader of results.json.
GOAL_PROCESS_RATIO = 8.0
GOAL_STARTUP_CPU_S = 0.25


def child_cpu_s(cmd: list[str]) -> float:
    """CPU seconds (user + system) that running `cmd` to completion costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"{' '.join(cmd[:4])} ... exited {proc.returncode}: {tail}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _clean_cmd(files: list[Path], out: Path, limit: int | None = None) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "worker",
        "--log-level",
        "WARNING",
        "clean",
        *map(str, files),
        "--out",
        str(out),
    ]
    return cmd + (["--limit", str(limit)] if limit else [])


def _loop_cmd(python: Path, files: list[Path], out: Path, limit: int | None = None) -> list[str]:
    cmd = [str(python), str(LOOP), *map(str, files), "--out", str(out)]
    return cmd + (["--limit", str(limit)] if limit else [])


def _median_cpu(cmd: list[str]) -> float:
    return statistics.median(child_cpu_s(cmd) for _ in range(STARTUP_RUNS))


def _pages_in(files: list[Path]) -> int:
    import gzip

    n = 0
    for path in files:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            n += sum(1 for line in f if line.strip())
    return n


@register("clean_process")
def clean_process(pages: list[Page], ctx: BenchContext) -> dict[str, Any]:
    files = [ctx.data_dir / name / "pages.jsonl.gz" for name in PROCESS_DATASETS]
    files = [f for f in files if f.exists()]
    if not files:
        return {"skipped": f"none of {PROCESS_DATASETS} under {ctx.data_dir}"}
    out: dict[str, Any] = {
        "method": (
            "CPU time (user+system, getrusage of the child) of the whole command over the same JSONL.gz"
            f" files, minus the median of {STARTUP_RUNS} one-page runs of the same command"
        ),
        "datasets": [f.parent.name for f in files],
        "pages": _pages_in(files),
        "goal_ratio": GOAL_PROCESS_RATIO,
    }
    with tempfile.TemporaryDirectory(prefix="cleanstream-process-") as tmp:
        target = Path(tmp) / "out.jsonl"
        ours_all = child_cpu_s(_clean_cmd(files, target))
        ours_one = _median_cpu(_clean_cmd(files, target, limit=1))
        out["cleanstream"] = {
            "cpu_s": round(ours_all, 3),
            "one_page_cpu_s": round(ours_one, 3),
            "per_page_work_cpu_s": round(ours_all - ours_one, 3),
        }
        if ctx.compare_python is None:
            out["trafilatura"] = {"skipped": "no bench/.venv (--no-compare, or it could not be built)"}
            return out
        theirs_all = child_cpu_s(_loop_cmd(ctx.compare_python, files, target))
        theirs_one = _median_cpu(_loop_cmd(ctx.compare_python, files, target, limit=1))
    out["trafilatura"] = {
        "cpu_s": round(theirs_all, 3),
        "one_page_cpu_s": round(theirs_one, 3),
        "per_page_work_cpu_s": round(theirs_all - theirs_one, 3),
    }
    ours, theirs = ours_all - ours_one, theirs_all - theirs_one
    out["ratio"] = round(theirs / ours, 2) if ours > 0 else None
    return out


@register("startup")
def startup(pages: list[Page], ctx: BenchContext) -> dict[str, Any]:
    page = next((p for p in pages if p.html), None)
    if page is None:
        return {"skipped": "no page with html"}
    import orjson

    with tempfile.TemporaryDirectory(prefix="cleanstream-startup-") as tmp:
        one = Path(tmp) / "one.jsonl"
        one.write_bytes(orjson.dumps({"id": page.id, "url": page.url, "html": page.html}) + b"\n")
        child_cpu_s(_clean_cmd([one], Path(tmp) / "out.jsonl"))  # writes the bytecode cache if missing
        runs = [child_cpu_s(_clean_cmd([one], Path(tmp) / "out.jsonl")) for _ in range(STARTUP_RUNS)]
    return {
        "method": "CPU time (user+system) of `python -m worker clean ONE.jsonl --out FILE`, median of"
        f" {STARTUP_RUNS} runs after one not counted (bytecode cached, as installed)",
        "page": page.id,
        "median_cpu_s": round(statistics.median(runs), 3),
        "runs_cpu_s": [round(r, 3) for r in runs],
        "goal_cpu_s": GOAL_STARTUP_CPU_S,
    }
