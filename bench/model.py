"""Bench section "block_model": what the learned block model adds to a page (issue 12: <= 0.3 ms/page).

Two measurements over the bench's pages, single-page mode:
- `step_ms_per_page`: the model's step alone (features, trees, the rules) on each page's segmentation,
  after the heuristics ran once outside the timing; the median of ROUNDS rounds over all pages.
- `clean_page_ms_per_page`: clean_page with `block_model` minus clean_page without, interleaved page by
  page so a busy machine slows both alike, the one cleaned first alternating from page to page (A B, B A,
  A B...): a page's first cleaning costs more than its second (0.07-0.10 ms a page with the same options
  twice, 0.06-0.07 with the identifier caches of idents.py and region.py cleared before each: mostly not
  those caches; shared machine, 2026-11-27), which the model, always first, was charged (0.23-0.30 ms
  added with it first, 0.02-0.11 with it second); the median of ROUNDS rounds.
CPU time (time.process_time). On a shared machine prefer the step's figure: it is the one the model owns.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.sections import BenchContext, register
from worker.clean import dom
from worker.clean.classify import classify_region
from worker.clean.model import decide
from worker.clean.options import Budget, CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.region import choose
from worker.clean.score import score
from worker.clean.segment import segment
from worker.models import Page

ROUNDS = 5
MAX_PAGES = 600


@register("block_model")
def block_model_cost(pages: list[Page], ctx: BenchContext) -> dict[str, Any]:
    pages = pages[:MAX_PAGES]
    model = decide.shipped()
    staged = []
    for page in pages:
        if page.html is None:
            continue
        body = dom.parse(page.html).body
        if body is None:
            continue
        seg = segment(body, Budget(10_000))
        if not seg.texts:
            continue
        scores = score(seg)
        region = choose(seg, scores.weights, scores.link_density, None)
        heur = classify_region(seg, scores, region)
        staged.append(decide.Stages(seg, scores, region, heur, None))
    steps = []
    for _ in range(ROUNDS):
        started = time.process_time()
        for stages in staged:
            model.decide(stages)
        steps.append((time.process_time() - started) * 1000.0 / max(1, len(staged)))
    with_model, without = CleanOptions(block_model=True), CleanOptions()
    diffs = []
    for _ in range(ROUNDS):
        spent = {True: 0.0, False: 0.0}
        for i, page in enumerate(pages):
            for use in (True, False) if i % 2 == 0 else (False, True):
                started = time.process_time()
                clean_page(page, None, with_model if use else without)
                spent[use] += time.process_time() - started
        diffs.append((spent[True] - spent[False]) * 1000.0 / max(1, len(pages)))
    blocks = [len(s.seg.texts) for s in staged]
    return {
        "pages": len(staged),
        "mean_blocks": round(statistics.mean(blocks), 1) if blocks else 0,
        "trees": model.trees.count,
        "step_ms_per_page": round(statistics.median(steps), 4),
        "clean_page_ms_per_page": round(statistics.median(diffs), 4),
        "goal_ms_per_page": 0.3,
    }
