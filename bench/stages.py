"""Cost per page of the stages beyond the text: metadata, posts, comments, quality signals and filter;
and the publication dates' accuracy on htmldate's pages.

    .venv/bin/python bench/stages.py [--data ../shared/data] [--limit N]

bench/run.py imports this module; its result lands under sections["stages"].

Method: every page is parsed and segmented once, then each stage is called alone on what the pipeline
would hand it, REPEATS times, and the fastest CPU time (time.process_time_ns) counts: the machine is
shared, and the minimum is the least disturbed run. Reported: the mean over pages (what throughput
pays) and the median. `quality_filter` is the filter alone: the signals with the filter at
FILTER_THRESHOLD minus the signals without it. `dates` runs scripts/eval_dates.py's measurement on
../shared/data/htmldate_eval (accuracy, wrong share, missing, extract_metadata's mean ms per page).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from selectolax.lexbor import LexborHTMLParser, LexborNode  # noqa: E402

from bench.sections import BenchContext, register  # noqa: E402
from worker.clean import decode, dom, quality  # noqa: E402
from worker.clean.comments import find_comments  # noqa: E402
from worker.clean.meta import extract_metadata  # noqa: E402
from worker.clean.options import Budget, CleanOptions  # noqa: E402
from worker.clean.pipeline import extract  # noqa: E402
from worker.clean.posts import find_posts  # noqa: E402
from worker.clean.repeats import Bylines  # noqa: E402
from worker.clean.segment import segment  # noqa: E402
from worker.models import Page  # noqa: E402

REPEATS = 3
# A threshold that makes the filter judge every block (its cost does not depend on the value).
FILTER_THRESHOLD = 3.0
TODAY = date(2026, 11, 26)
# The budgets, for the reader of results.json.
GOAL_METADATA_MS = 0.3
GOAL_FILTER_MS = 0.2
STAGES = ("metadata", "posts", "comments", "quality_signals", "quality_filter")


def _fastest(fn: Callable[[], object]) -> float:
    best = None
    for _ in range(REPEATS):
        t0 = time.process_time_ns()
        fn()
        spent = time.process_time_ns() - t0
        best = spent if best is None else min(best, spent)
    assert best is not None
    return best / 1e6


def _html(page: Page) -> str | None:
    if page.html is not None:
        return page.html
    if page.body is None:
        return None
    return decode.decode_html(page.body, page.content_type).text


def _page_costs(tree: LexborHTMLParser, body: LexborNode, url: str | None) -> dict[str, float]:
    budget = Budget(float("inf"))
    out = {"metadata": _fastest(lambda: extract_metadata(tree, url, TODAY))}
    seg = segment(body, budget)
    result = extract(seg, CleanOptions(), None, budget)
    c = result.classified
    out["posts"] = _fastest(lambda: find_posts(result.seg, result.scores, TODAY, Bylines(tree)))
    out["comments"] = _fastest(
        lambda: find_comments(result.seg, result.scores, result.target, c.kept, c.tail, TODAY, Bylines(tree))
    )
    texts = [result.seg.texts[i] for i in c.kept]
    out["quality_signals"] = _fastest(lambda: quality.assess(texts, c.lang))
    filtered = _fastest(lambda: quality.assess(texts, c.lang, FILTER_THRESHOLD))
    out["quality_filter"] = max(0.0, filtered - out["quality_signals"])
    return out


def stage_costs(pages: list[Page]) -> dict[str, Any]:
    costs: dict[str, list[float]] = {name: [] for name in STAGES}
    for page in pages:
        html = _html(page)
        tree = dom.parse(html) if html else None
        if tree is None or tree.body is None:
            continue
        for name, ms in _page_costs(tree, tree.body, page.url).items():
            costs[name].append(ms)
    out: dict[str, Any] = {
        "method": (
            f"each stage alone on the pipeline's input for it, fastest of {REPEATS} CPU times per page; "
            "mean and median over pages; shared machine"
        ),
        "pages": len(costs["metadata"]),
    }
    for name, values in costs.items():
        if values:
            out[name] = {
                "ms_per_page_mean": round(statistics.fmean(values), 4),
                "ms_per_page_median": round(statistics.median(values), 4),
            }
    out["goals_ms"] = {"metadata": GOAL_METADATA_MS, "quality_filter": GOAL_FILTER_MS}
    return out


def date_accuracy(data_dir: Path) -> dict[str, Any]:
    """scripts/eval_dates.py's numbers on htmldate's pages (without the references)."""
    path = data_dir / "htmldate_eval" / "pages.jsonl.gz"
    if not path.exists():
        return {"skipped": f"{path} not found"}
    spec = importlib.util.spec_from_file_location("eval_dates", ROOT / "scripts" / "eval_dates.py")
    assert spec is not None
    assert spec.loader is not None
    eval_dates = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(eval_dates)
    records = eval_dates.load(path)
    preds, costs, _ = eval_dates.run_ours(records, REPEATS)
    return {
        "data": str(path),
        **eval_dates.score(preds, records)["all"],
        "ms_per_page_mean": round(statistics.fmean(costs), 4),
        "ms_per_page_median": round(statistics.median(costs), 4),
    }


@register("stages")
def stages(pages: list[Page], ctx: BenchContext) -> dict[str, Any]:
    return {**stage_costs(pages), "dates": date_accuracy(ctx.data_dir)}


def _load(data_dir: Path, limit: int | None) -> list[Page]:
    """The pages `make bench` uses (bench/run.py's datasets and caps), at most `limit` per dataset."""
    from bench.run import DATASETS, DEFAULT_CAPS, load_dataset, pages_of

    pages: list[Page] = []
    for name in DATASETS:
        path = data_dir / name / "pages.jsonl.gz"
        if path.exists():
            cap = DEFAULT_CAPS[name] if limit is None else min(limit, DEFAULT_CAPS[name] or limit)
            pages.extend(pages_of(load_dataset(path, cap)))
    return pages


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--limit", type=int, default=None, help="at most N pages per dataset")
    a = ap.parse_args()
    if not a.data.exists():
        print(f"skip: {a.data} not found")
        return 0
    print(json.dumps(stages(_load(a.data, a.limit), BenchContext(a.data, None)), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
