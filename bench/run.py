"""`make bench`: speed, memory and quality of cleanstream against trafilatura and resiliparse.

    .venv/bin/python bench/run.py [--out bench/results.json] [--limit N] [--data ../shared/data]
                                  [--tools cleanstream,trafilatura,...] [--no-e2e] [--no-compare]

For every dataset present under ../shared/data (skipped with a message when absent), the same pages
go through each extractor in its own subprocess (bench/extract_worker.py): cleanstream with the
project's venv, trafilatura and resiliparse with bench/.venv, which this script creates on first use
from bench/requirements-compare.txt. The tools take turns at CHUNKS chunks of each dataset (run_tools),
one tool working at a time, so a drift in the machine's speed during the run falls on all of them
alike. Measured per tool: pages/s by CPU time (time.process_time around
each extraction), median and p95 ms per page, peak RSS of the process (VmHWM; see extract_worker.py),
and F1 by worker.evaluate (the same numbers as ../shared/eval/score.py). Ratios cleanstream/other follow.

Default pages: all of scrapinghub_aeb, dragnet and cleaneval_dev, an evenly spaced sample of
trafilatura_eval (DEFAULT_CAPS), so a run stays within ~10 minutes; --limit N caps every dataset.

Hooks: bench/e2e.py's run_e2e(pages) -> dict lands under "end_to_end" (broker + worker process), and
modules in PLUGIN_MODULES may register sections (see bench/sections.py) that land under "sections":
template_memory (bench/templates.py: the memory's cost against density-only), clean_process and startup
(bench/process.py: the whole `clean` command against trafilatura's own loop, and one page's start-up),
stages (bench/stages.py: metadata, posts, comments, quality signals and filter per page, and the
publication dates' accuracy on htmldate's pages).
"targets" sums up the speed targets (the cleaning core's, the end-to-end ones, the block model's cost), each
with its goal and whether this run met it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.sections import SECTIONS, BenchContext  # noqa: E402
from worker.evaluate import Gold, score  # noqa: E402
from worker.io import iter_jsonl, page_from_record  # noqa: E402
from worker.io.readers import BadRecord, ReadStats  # noqa: E402
from worker.models import Page  # noqa: E402

log = logging.getLogger("bench")

DATASETS = ("scrapinghub_aeb", "dragnet", "cleaneval_dev", "trafilatura_eval")
# None = every page. trafilatura_eval is sampled: its pages are large and trafilatura is slow on them.
DEFAULT_CAPS: dict[str, int | None] = {
    "scrapinghub_aeb": None,
    "dragnet": None,
    "cleaneval_dev": None,
    "trafilatura_eval": 400,
}
OURS = ("cleanstream", "cleanstream-no-templates")
OTHERS = ("trafilatura", "resiliparse")
BENCH_VENV = ROOT / "bench" / ".venv"
REQUIREMENTS = ROOT / "bench" / "requirements-compare.txt"
WORKER = ROOT / "bench" / "extract_worker.py"
# Modules that may plug sections in (bench/sections.py); missing ones are skipped.
PLUGIN_MODULES = ("bench.templates", "bench.process", "bench.stages", "bench.model")
WORKER_TIMEOUT_S = 1800
# Chunks per dataset the tools take turns at (run_tools): one turn of the slowest tool is a few seconds.
CHUNKS = 10


def default_data_dir() -> Path:
    return ROOT.parent / "shared" / "data"


def load_dataset(path: Path, cap: int | None) -> list[dict[str, Any]]:
    """Records of one dataset, evenly sampled down to `cap` (deterministic: same pages every run)."""
    stats = ReadStats()
    records = [rec for _, rec in iter_jsonl(path, stats) if "id" in rec]
    if stats.bad:
        log.warning("%s: %d bad records skipped", path, stats.bad)
    if cap is not None and len(records) > cap:
        step = len(records) / cap
        records = [records[int(i * step)] for i in range(cap)]
    return records


def pages_of(records: list[dict[str, Any]]) -> Iterator[Page]:
    for rec in records:
        try:
            yield page_from_record(rec, str(rec["id"]))
        except BadRecord:
            continue


def ensure_compare_venv() -> Path | None:
    """bench/.venv with trafilatura and resiliparse, created once; None when it cannot be built."""
    python = BENCH_VENV / "bin" / "python"
    stamp = BENCH_VENV / ".installed"
    if python.exists() and stamp.exists() and stamp.read_text() == REQUIREMENTS.read_text():
        return python
    print(f"bench: creating {BENCH_VENV} for the comparison extractors ...", file=sys.stderr)
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)], check=True)
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"bench: cannot build {BENCH_VENV} ({exc}); comparison skipped", file=sys.stderr)
        return None
    stamp.write_text(REQUIREMENTS.read_text())
    return python


class ToolProcess:
    """One tool's bench/extract_worker.py, kept alive over a dataset and handed its pages chunk by chunk."""

    def __init__(self, python: Path, tool: str, pages_file: Path, workdir: Path) -> None:
        self.tool = tool
        self.preds_file = workdir / f"preds-{tool}.jsonl"
        self.stderr = (workdir / f"stderr-{tool}.txt").open("w+", encoding="utf-8")
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
        self.proc = subprocess.Popen(
            [str(python), str(WORKER), tool, str(pages_file), str(self.preds_file)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            env=env,
        )
        self.error: str | None = None
        self._expect("READY")

    def _expect(self, word: str) -> None:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if line != word and self.error is None:
            self.error = f"expected {word}, got {line[:200]!r}: {self._stderr_tail()}"
            self.proc.kill()

    def _stderr_tail(self) -> str:
        self.stderr.seek(0)
        return " | ".join(self.stderr.read().strip().splitlines()[-5:])

    def chunk(self, count: int) -> None:
        """Extract the next `count` pages; returns when they are done."""
        if self.error is not None:
            return
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(f"{count}\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.error = f"exit {self.proc.wait()}: {self._stderr_tail()}"
            return
        self._expect("DONE")

    def finish(self) -> dict[str, Any]:
        """The worker's summary and predictions (or {"error": ...})."""
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        try:
            self.proc.stdin.close()
            out = self.proc.stdout.read()
            code = self.proc.wait()
        except BrokenPipeError as exc:
            self.proc.kill()
            self.error = self.error or f"{type(exc).__name__}"
            out, code = "", -1
        if self.error is None and code != 0:
            self.error = f"exit {code}: {self._stderr_tail()}"
        self.stderr.close()
        if self.error is not None:
            return {"error": self.error}
        summary: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
        preds = {}
        with self.preds_file.open(encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                preds[str(rec["id"])] = rec["text"] or ""
        summary["preds"] = preds
        return summary


def run_tools(
    tools: dict[str, Path], pages_file: Path, pages: int, workdir: Path
) -> dict[str, dict[str, Any]]:
    """Every tool over the same pages, interleaved: CHUNKS chunks, each tool's turn at one chunk before
    the next chunk (the first tool of a turn rotates), so only one tool works at a time and the
    machine's drift falls on all of them alike. Each tool keeps its process (and cleanstream its site
    memory) from the first chunk to the last."""
    procs: list[ToolProcess] = []

    # A tool that hangs is killed (its reads then end and it is reported as failed).
    def kill_all() -> None:
        for proc in procs:
            proc.proc.kill()

    watchdog = threading.Timer(WORKER_TIMEOUT_S, kill_all)
    watchdog.start()
    try:
        for tool, python in tools.items():
            procs.append(ToolProcess(python, tool, pages_file, workdir))
        chunks = max(1, min(CHUNKS, pages))
        for k in range(chunks):
            size = pages * (k + 1) // chunks - pages * k // chunks
            for proc in procs[k % len(procs) :] + procs[: k % len(procs)]:
                proc.chunk(size)
        return {proc.tool: proc.finish() for proc in procs}
    finally:
        watchdog.cancel()


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100.0 * len(ordered) + 0.5) - 1))
    return ordered[k]


def speed(cpu_ms: list[float]) -> dict[str, float]:
    total_s = sum(cpu_ms) / 1000.0
    return {
        "max_ms": round(max(cpu_ms), 1) if cpu_ms else 0.0,
        "pages_per_cpu_s": round(len(cpu_ms) / total_s, 1) if total_s > 0 else 0.0,
        "median_ms": round(statistics.median(cpu_ms), 2) if cpu_ms else 0.0,
        "p95_ms": round(percentile(cpu_ms, 95), 2),
        "cpu_s": round(total_s, 2),
    }


def quality(golds: list[Gold], preds: dict[str, str]) -> dict[str, Any]:
    result = score(golds, preds)
    out: dict[str, Any] = {"skipped_pages": result["skipped_pages"]}
    for kind in ("shingle", "snippet"):
        if kind in result:
            m = result[kind]
            out.update(metric=kind, precision=round(m["precision"], 4), recall=round(m["recall"], 4))
            out.update(f1=round(m["f1"], 4), f1_exact=m["f1"], scored_pages=m["pages"])
    return out


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def ratios(ours: dict[str, Any], other: dict[str, Any]) -> dict[str, float | None]:
    """cleanstream / other: >1 means more for cleanstream (faster, bigger, better F1)."""
    return {
        "pages_per_cpu_s": ratio(ours.get("pages_per_cpu_s"), other.get("pages_per_cpu_s")),
        "median_ms": ratio(ours.get("median_ms"), other.get("median_ms")),
        "p95_ms": ratio(ours.get("p95_ms"), other.get("p95_ms")),
        "peak_rss_mb": ratio(ours.get("peak_rss_mb"), other.get("peak_rss_mb")),
        "f1": ratio(ours.get("f1"), other.get("f1")),
    }


def in_process_speed(pages: list[Page]) -> dict[str, Any]:
    """cleanstream in this process (no subprocess, no JSON round trip): CPU pages/s with templates."""
    from worker.cli.clean_cmd import CleanStats, build_memory, clean_all
    from worker.gc_policy import tune_gc
    from worker.settings import Settings

    tune_gc()  # the product's GC policy
    settings = Settings.load({})
    stats = CleanStats()
    for _ in clean_all(pages, build_memory(settings), settings.clean_options(), stats):
        pass
    rate = round(stats.pages / stats.cpu_s, 1) if stats.cpu_s else 0.0
    return {"pages": stats.pages, "pages_per_cpu_s": rate}


def bench_dataset(
    name: str, records: list[dict[str, Any]], tools: dict[str, Path], workdir: Path
) -> dict[str, Any]:
    pages_file = workdir / f"{name}.pages.jsonl"
    ids: list[str] = []
    with pages_file.open("w", encoding="utf-8") as f:
        for page in pages_of(records):
            ids.append(page.id)
            row = {"id": page.id, "url": page.url, "site": page.site, "html": page.html}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    golds = [Gold.from_record(r) for r in records]
    out: dict[str, Any] = {"pages": len(records), "tools": {}}
    cpu_all: dict[str, list[float]] = {}
    print(f"bench: {name}: {', '.join(tools)} on {len(records)} pages ...", file=sys.stderr, flush=True)
    for tool, res in run_tools(tools, pages_file, len(ids), workdir).items():
        if "error" in res:
            print(f"bench: {name}: {tool} failed: {res['error']}", file=sys.stderr)
            out["tools"][tool] = res
            continue
        cpu_all[tool] = res["cpu_ms"]
        entry = {"version": res["version"], "pages": res["pages"], "failures": res["failures"]}
        entry.update(speed(res["cpu_ms"]))
        entry.update(peak_rss_mb=res["peak_rss_mb"], rss_ready_mb=res["rss_ready_mb"])
        entry.update(quality(golds, res["preds"]))
        # The slowest pages name where a tool's time goes (ids align with the pages file order).
        slowest = sorted(zip(res["cpu_ms"], ids, strict=False), reverse=True)[:3]
        entry["slowest"] = [{"id": i, "ms": round(ms, 1)} for ms, i in slowest]
        out["tools"][tool] = entry
        print(
            f"bench: {name}: {tool}: {entry['pages_per_cpu_s']} pages/s CPU, median {entry['median_ms']} ms, "
            f"p95 {entry['p95_ms']} ms, peak RSS {entry['peak_rss_mb']} MB, F1 {entry.get('f1')}",
            file=sys.stderr,
            flush=True,
        )
    ours = out["tools"].get("cleanstream", {})
    out["ratios"] = {
        f"cleanstream/{other}": ratios(ours, out["tools"][other])
        for other in OTHERS
        if "error" not in out["tools"].get(other, {"error": 1}) and "error" not in ours
    }
    out["_cpu_ms"] = cpu_all
    return out


def overall(per_dataset: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Speed over all pages of all datasets together, RSS as the max, F1 as the mean over datasets."""
    tools: dict[str, Any] = {}
    names = {t for d in per_dataset.values() for t in d["tools"]}
    for tool in sorted(names):
        cpu: list[float] = []
        f1s, rss = [], []
        for d in per_dataset.values():
            entry = d["tools"].get(tool, {})
            if "error" in entry or not entry:
                continue
            cpu.extend(d["_cpu_ms"].get(tool, []))
            rss.append(entry["peak_rss_mb"])
            if "f1" in entry:
                f1s.append(entry["f1"])
        if cpu:
            tools[tool] = {"pages": len(cpu), **speed(cpu), "peak_rss_mb": max(rss)}
            tools[tool]["f1"] = round(statistics.mean(f1s), 4) if f1s else None
    result: dict[str, Any] = {"tools": tools}
    if "cleanstream" in tools:
        result["ratios"] = {
            f"cleanstream/{o}": ratios(tools["cleanstream"], tools[o]) for o in OTHERS if o in tools
        }
    return result


def machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": model,
        "cpus": os.cpu_count(),
    }


E2E_REPEATS = 3


def run_plugins(pages: list[Page], results: dict[str, Any], e2e: bool, ctx: BenchContext) -> None:
    # Hook for H3: bench/e2e.py with run_e2e(pages) -> dict, stored under "end_to_end".
    if e2e and (ROOT / "bench" / "e2e.py").exists():
        print(f"bench: end-to-end over {len(pages)} pages ...", file=sys.stderr, flush=True)
        try:
            module = importlib.import_module("bench.e2e")
            # Three repeats, the median reported: one run's ratio moves by +-0.05 with the machine's load.
            results["end_to_end"] = module.run_e2e(pages, repeats=E2E_REPEATS)
        except Exception as exc:  # a broken hook must not lose the measurements already made
            log.exception("end-to-end benchmark failed")
            results["end_to_end"] = {"error": f"{type(exc).__name__}: {exc}"}
    # Hook for plug-in sections (e.g. H4's template memory overhead): see bench/sections.py.
    for name in PLUGIN_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                log.warning("plugin %s failed to import: %s", name, exc)
    sections: dict[str, Any] = {}
    for name, fn in SECTIONS.items():
        print(f"bench: section {name} ...", file=sys.stderr, flush=True)
        try:
            sections[name] = fn(pages, ctx)
        except Exception as exc:
            log.exception("section %s failed", name)
            sections[name] = {"error": f"{type(exc).__name__}: {exc}"}
    if sections:
        results["sections"] = sections


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    ap.add_argument(
        "--data", type=Path, default=default_data_dir(), help="folder of <dataset>/pages.jsonl.gz"
    )
    ap.add_argument("--limit", type=int, default=None, help="at most N pages per dataset (evenly sampled)")
    ap.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated dataset names")
    ap.add_argument("--tools", default=",".join(OURS + OTHERS), help="comma-separated tools")
    ap.add_argument("--no-compare", action="store_true", help="cleanstream only (no bench/.venv)")
    ap.add_argument("--no-e2e", action="store_true", help="skip the end-to-end (broker) benchmark")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Every process runs from bytecode, as an installed worker does (pip compiles a wheel's modules; the
    # comparison tools in bench/.venv were installed so). With PYTHONDONTWRITEBYTECODE inherited, each
    # `python -m worker` child compiled the project's ~60 modules again: 0.15-0.2 CPU-s counted as its
    # start-up (2026-11-27, `clean` of one page 0.47-0.53 CPU-s without the cache, 0.25-0.35 with it).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    wanted = [t for t in args.tools.split(",") if t]
    tools: dict[str, Path] = {t: Path(sys.executable) for t in wanted if t in OURS}
    compare_python = None if args.no_compare else ensure_compare_venv()
    if compare_python is not None:
        tools.update({t: compare_python for t in wanted if t in OTHERS})

    started = time.perf_counter()
    results: dict[str, Any] = {
        "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": machine(),
        "method": {
            "speed": (
                "CPU time (time.process_time) per page in a dedicated subprocess, after 3 untimed pages; "
                f"the tools take turns at {CHUNKS} chunks of each dataset, one working at a time"
            ),
            "rss": "peak RSS (VmHWM) of that subprocess, interpreter and imports included",
            "quality": "worker.evaluate (= ../shared/eval/score.py): shingle F1 macro or snippet F1 micro",
            "trafilatura": "trafilatura.extract(html, include_comments=False)",
            "resiliparse": "extract_plain_text(html, main_content=True)",
            "cleanstream": "clean_page with the default settings and one template memory per dataset",
        },
        "datasets": {},
    }
    all_pages: list[Page] = []
    with tempfile.TemporaryDirectory(prefix="cleanstream-bench-") as tmp:
        for name in [d for d in args.datasets.split(",") if d]:
            path = args.data / name / "pages.jsonl.gz"
            if not path.exists():
                print(f"bench: {path} not found; {name} skipped", file=sys.stderr)
                continue
            cap = args.limit if args.limit is not None else DEFAULT_CAPS.get(name)
            records = load_dataset(path, cap)
            pages = list(pages_of(records))
            all_pages.extend(pages)
            entry = bench_dataset(name, records, tools, Path(tmp))
            entry["in_process"] = in_process_speed(pages)
            results["datasets"][name] = entry
    if not results["datasets"]:
        print(f"bench: no dataset under {args.data}; nothing measured", file=sys.stderr)
        return 0
    results["overall"] = overall(results["datasets"])
    for entry in results["datasets"].values():
        entry.pop("_cpu_ms", None)
    run_plugins(all_pages, results, e2e=not args.no_e2e, ctx=BenchContext(args.data, compare_python))
    results["targets"] = targets(results)
    results["elapsed_s"] = round(time.perf_counter() - started, 1)
    args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    print(f"bench: wrote {args.out} in {results['elapsed_s']} s", file=sys.stderr)
    for key, r in results["overall"].get("ratios", {}).items():
        print(f"bench: {key}: {r}", file=sys.stderr)
    for key, t in results["targets"].items():
        print(f"bench: target {key}: {t}", file=sys.stderr)
    return 0


def targets(results: dict[str, Any]) -> dict[str, Any]:
    """The speed targets (issue 8's, and issue 9's and 12's that `make bench` measures), each as
    {value, goal, met} where measured."""
    tools = results.get("overall", {}).get("tools", {})
    sections = results.get("sections", {})

    def rate(tool: str) -> float | None:
        value = tools.get(tool, {}).get("pages_per_cpu_s")
        return float(value) if value else None

    def entry(value: float | None, goal: float, higher_is_better: bool = True) -> dict[str, Any]:
        if value is None:
            return {"value": None, "goal": goal, "met": None}
        return {
            "value": round(value, 3),
            "goal": goal,
            "met": value >= goal if higher_is_better else value <= goal,
        }

    ours, bare, traf, resi = (
        rate("cleanstream"), rate("cleanstream-no-templates"), rate("trafilatura"), rate("resiliparse")
    )  # fmt: skip
    memory = sections.get("template_memory", {})
    process = sections.get("clean_process", {})
    start = sections.get("startup", {})
    dates = sections.get("stages", {}).get("dates", {})
    filter_ms = sections.get("stages", {}).get("quality_filter", {})
    e2e = results.get("end_to_end", {})
    model = sections.get("block_model", {})
    return {
        "default_vs_trafilatura": entry(ours / traf if ours and traf else None, 10.0),
        "no_templates_vs_trafilatura": entry(bare / traf if bare and traf else None, 12.0),
        "default_vs_resiliparse": entry(ours / resi if ours and resi else None, 1.0),
        "no_templates_vs_resiliparse": entry(bare / resi if bare and resi else None, 1.0),
        "memory_overhead": entry(memory.get("overhead_ratio"), 1.10, higher_is_better=False),
        "clean_process_vs_trafilatura": entry(process.get("ratio"), 8.0),
        "startup_cpu_s": entry(start.get("median_cpu_s"), 0.25, higher_is_better=False),
        "metadata_ms_per_page": entry(dates.get("ms_per_page_mean"), 0.3, higher_is_better=False),
        "quality_filter_ms_per_page": entry(filter_ms.get("ms_per_page_mean"), 0.2, higher_is_better=False),
        "date_accuracy": entry(dates.get("accuracy"), 0.93),
        "date_wrong_share": entry(dates.get("wrong_share"), 0.03, higher_is_better=False),
        # issue 9: through the broker against the offline command's work on the same records
        "end_to_end_one_child_vs_offline": entry(e2e.get("ratio"), 0.85),
        "end_to_end_two_children_vs_one": entry(e2e.get("scaling"), 1.6),
        # the same with the drain timed from /readyz, as before bench/e2e.py timed it from the first output
        "end_to_end_two_children_vs_one_from_ready": entry(e2e.get("scaling_from_ready"), 1.6),
        # issue 12: what the block model adds to clean_page
        "block_model_ms_per_page": entry(model.get("clean_page_ms_per_page"), 0.3, higher_is_better=False),
    }


if __name__ == "__main__":
    sys.exit(main())
