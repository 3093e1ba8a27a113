"""One extractor over one JSONL of pages, in its own process, for a fair CPU and RSS measurement.

    PYTHON bench/extract_worker.py TOOL PAGES.jsonl PREDS.jsonl < CHUNKS

TOOL: cleanstream | cleanstream-no-templates (run with the project's venv) or trafilatura |
resiliparse (run with bench/.venv). Pages are streamed from the file, so the peak RSS is the tool's
own plus one page. A few pages are extracted untimed first so lazy imports and caches are not
charged to the first timed page; then the worker prints READY and waits.

It extracts the pages in chunks it is told on stdin: each line N means "the next N pages", answered
with DONE once they are extracted. At the end of stdin the pages left are extracted, and the summary
(JSON) goes to stdout as the last line. bench/run.py keeps one worker per tool alive and hands each a
chunk in turn, so only one tool works at a time and a change in the machine's speed over the run
(this machine's throughput drifts by a third within minutes) falls on every tool alike instead of on
whichever ran then. `< /dev/null` extracts every page at once.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import resource
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

WARMUP_PAGES = 3
# What the worker prints when warmed up, and after each chunk (bench/run.py reads them).
READY, DONE = "READY", "DONE"

Extract = Callable[[dict[str, Any]], str]


def _rss_mb() -> float:
    """Peak RSS of this process so far, in MiB.

    VmHWM, not ru_maxrss: Linux carries ru_maxrss over execve, so a child of a big parent would
    report the parent's peak; VmHWM belongs to the new address space.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def _records(path: str) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def make_extractor(tool: str) -> tuple[Extract, Callable[[], None], str]:
    """(extract, reset, version): `reset` gives stateful tools a fresh state after the warm-up."""
    if tool == "trafilatura":
        import trafilatura

        def traf(rec: dict[str, Any]) -> str:
            return trafilatura.extract(rec["html"], include_comments=False) or ""

        return traf, lambda: None, trafilatura.__version__
    if tool == "resiliparse":
        from importlib.metadata import version

        from resiliparse.extract.html2text import extract_plain_text

        def resi(rec: dict[str, Any]) -> str:
            return str(extract_plain_text(rec["html"], main_content=True))

        return resi, lambda: None, version("resiliparse")
    if tool in {"cleanstream", "cleanstream-no-templates"}:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from worker.clean.pipeline import clean_page
        from worker.cli.clean_cmd import build_memory
        from worker.gc_policy import tune_gc
        from worker.models import Page
        from worker.settings import Settings

        tune_gc()  # the product's GC policy, as in the worker, `clean` and `eval`

        settings = Settings.load({}, {"no_templates": tool.endswith("no-templates")})
        options = settings.clean_options()
        state: dict[str, object | None] = {"memory": build_memory(settings)}

        def ours(rec: dict[str, Any]) -> str:
            page = Page(id=str(rec["id"]), html=rec["html"], url=rec.get("url"), site=rec.get("site"))
            return clean_page(page, state["memory"], options).text

        def reset() -> None:
            state["memory"] = build_memory(settings)

        return ours, reset, "local"
    raise SystemExit(f"unknown tool {tool!r}")


def main() -> int:
    tool, pages_path, preds_path = sys.argv[1:4]
    extract, reset, version = make_extractor(tool)
    for i, rec in enumerate(_records(pages_path)):
        if i >= WARMUP_PAGES:
            break
        # A failing warm-up page is counted in the timed run.
        with contextlib.suppress(Exception):
            extract(rec)
    reset()
    rss_ready = _rss_mb()
    print(READY, flush=True)
    cpu_ms: list[float] = []
    failures = 0
    records = _records(pages_path)
    with open(preds_path, "w", encoding="utf-8") as out:

        def extract_next(count: int | None) -> None:
            nonlocal failures
            for rec in itertools.islice(records, count):
                t0 = time.process_time()
                try:
                    text = extract(rec)
                except Exception as exc:  # the page counts as empty output, as in any extractor failure
                    text = ""
                    failures += 1
                    print(f"{tool}: page {rec['id']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                cpu_ms.append((time.process_time() - t0) * 1000.0)
                out.write(json.dumps({"id": rec["id"], "text": text}, ensure_ascii=False) + "\n")

        for line in sys.stdin:
            extract_next(int(line))
            print(DONE, flush=True)
        extract_next(None)
    summary = {
        "tool": tool,
        "version": version,
        "pages": len(cpu_ms),
        "failures": failures,
        "cpu_ms": cpu_ms,
        "rss_ready_mb": round(rss_ready, 1),
        "peak_rss_mb": round(_rss_mb(), 1),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
