#!/usr/bin/env python3
"""Compiled (mypyc) against interpreted cleaning core, on the same pages.

    .venv/bin/python scripts/measure_mypyc.py [--pages 300] [--rounds 5]

Builds worker/clean with mypyc in a temporary copy of the package (the checkout is not touched), then
cleans the first --pages pages of ../shared/data/{dragnet,scrapinghub_aeb} in a fresh process per run,
interpreted and compiled in turn, --rounds times, in both modes (template memory on and off); CPU time per
page, medians, and the ratio interpreted / compiled. Checks that both builds give the same documents.
Needs a C compiler and the Python headers; skips cleanly without the shared data.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
# Every module of the pure core that mypyc compiles unchanged. options.py subclasses TimeoutError (not
# a native class); decode.py and render.py are off the per-page hot path of this measurement.
COMPILED = ("classify", "dom", "fingerprint", "heuristics", "lang", "pipeline", "region", "score", "segment",
            "sitememory", "template")  # fmt: skip

RUN = """
import gzip, hashlib, json, sys, time
from worker.clean.pipeline import clean_page
from worker.clean.sitememory import SiteMemory
from worker.gc_policy import tune_gc
from worker.models import Page
import worker.clean.segment as seg
n, mode, data = int(sys.argv[1]), sys.argv[2], sys.argv[3]
pages = []
for ds in ("dragnet", "scrapinghub_aeb"):
    with gzip.open(f"{data}/{ds}/pages.jsonl.gz", "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i >= n:
                break
            r = json.loads(line)
            pages.append(Page(id=str(r["id"]), html=r["html"], url=r.get("url"), site=r.get("site")))
tune_gc()
memory = SiteMemory() if mode == "templates" else None
digest = hashlib.sha256()
start = time.process_time()
for page in pages:
    digest.update(clean_page(page, memory).text.encode("utf-8", "surrogatepass"))
spent = time.process_time() - start
compiled = seg.__file__.endswith(".so")
print(json.dumps({"ms": 1000 * spent / len(pages), "digest": digest.hexdigest(), "compiled": compiled}))
"""


def build(dest: Path) -> Path:
    """A copy of the package with the core compiled in place; returns the folder to put on sys.path."""
    shutil.copytree(ROOT / "worker", dest / "worker", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    mypyc = Path(sys.executable).with_name("mypyc")
    sources = [f"worker/clean/{name}.py" for name in COMPILED]
    subprocess.run([str(mypyc), *sources], cwd=dest, check=True, capture_output=True)
    return dest


def run(path: Path | None, pages: int, mode: str) -> dict[str, float | str | bool]:
    env_path = [str(path)] if path is not None else []
    code = f"import sys; sys.path[:0] = {env_path!r}\n" + RUN
    proc = subprocess.run(
        [sys.executable, "-c", code, str(pages), mode, str(DATA)], check=True, capture_output=True, text=True
    )
    result: dict[str, float | str | bool] = json.loads(proc.stdout)
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=300, help="pages from each dataset")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    if not (DATA / "dragnet" / "pages.jsonl.gz").exists():
        print(f"skip: no shared data under {DATA}")
        return 0
    with tempfile.TemporaryDirectory(prefix="cleanstream-mypyc-") as tmp:
        compiled = build(Path(tmp))
        report = {}
        for mode in ("templates", "no-templates"):
            times: dict[str, list[float]] = {"interpreted": [], "compiled": []}
            digests = set()
            for _ in range(a.rounds):
                for name, path in (("interpreted", None), ("compiled", compiled)):
                    res = run(path, a.pages, mode)
                    assert res["compiled"] == (path is not None), res
                    times[name].append(float(res["ms"]))
                    digests.add(res["digest"])
            interp, comp = statistics.median(times["interpreted"]), statistics.median(times["compiled"])
            report[mode] = {
                "interpreted_ms_per_page": round(interp, 3),
                "compiled_ms_per_page": round(comp, 3),
                "speedup": round(interp / comp, 3),
                "same_output": len(digests) == 1,
            }
            print(mode, json.dumps(report[mode]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
