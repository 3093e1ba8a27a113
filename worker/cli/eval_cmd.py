"""`eval DATASET.jsonl[.gz]`: clean every page of a gold dataset and score it like ../shared/eval/score.py.

Runs the same pipeline as `clean` (template memory included unless --no-templates), in dataset order,
then scores word 4-gram shingle P/R/F1 (macro over pages) for gold-text datasets and snippet P/R/F1
for with/without datasets. Pages with empty or suspect gold are skipped and counted.

--comments scores the documents' `comments` (their texts joined by blank lines, cleaned with
keep_comments on) against each record's `gold_comments` (dragnet), on the pages that have one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from worker import settings as settings_mod
from worker.cli.clean_cmd import (
    CleanStats,
    add_pipeline_args,
    build_memory,
    clean_all,
    learn_all,
    limited,
    load_settings,
    progress,
)
from worker.gc_policy import tune_gc
from worker.io import PredictionWriter, ReadStats, iter_jsonl, pages_from_records
from worker.models import Document, Page

if TYPE_CHECKING:
    # The scorer is imported where it scores: every command imports this module to build the parser,
    # and the scorer brings statistics, fractions, decimal and random (one page's `clean`: ~15 ms in
    # python -X importtime).
    from worker.evaluate import Gold

COMMENTS_GOLD = "gold_comments"


def dataset_pages(path: Path, golds: list[Gold], stats: ReadStats, field: str = "gold") -> Iterator[Page]:
    """Pages of the dataset in order; each record's gold (`field`) is appended to `golds` as it goes by."""
    return pages_from_records(_with_golds(iter_jsonl(path, stats), golds, stats, field), stats)


def _with_golds(
    records: Iterable[tuple[str, dict[str, Any]]], golds: list[Gold], stats: ReadStats, field: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    from worker import evaluate  # here, not with the module: see the TYPE_CHECKING import

    for where, record in records:
        if "id" not in record:
            stats.problem(where, "no 'id' field")
            continue
        # Appended before the page is built: a record that is no page still counts in scoring, as a
        # missing (empty) prediction.
        golds.append(evaluate.Gold.from_record(record, field))
        yield where, record


def comments_text(doc: Document) -> str:
    """What --comments scores: the comments' texts, one after the other."""
    return "\n\n".join(c.text for c in doc.comments)


def evaluate_dataset(
    path: Path,
    settings: settings_mod.Settings,
    sites_min: int = 0,
    by_site: bool = False,
    limit: int | None = None,
    preds_out: str | None = None,
    two_pass: bool = False,
    comments: bool = False,
) -> dict[str, Any]:
    from worker import evaluate  # here, not with the module: see the TYPE_CHECKING import

    golds: list[Gold] = []
    preds: dict[str, str] = {}
    read_stats = ReadStats()
    stats = CleanStats()
    memory = build_memory(settings)
    options = settings.clean_options()
    field, prediction = "gold", _main_text
    if comments:
        options = replace(options, keep_comments=True)
        field, prediction = COMMENTS_GOLD, comments_text
    if two_pass and memory is not None:
        learn_all(limited(dataset_pages(path, [], ReadStats()), limit), memory, options)
    pages = progress(limited(dataset_pages(path, golds, read_stats, field), limit), path.name)
    writer = PredictionWriter(preds_out) if preds_out else None
    try:
        for page, doc in clean_all(pages, memory, options, stats):
            text = preds[page.id] = prediction(doc)
            if writer is not None:
                writer.write(page.id, text)
    finally:
        if writer is not None:
            writer.close()
    # With --limit, `golds` holds only the records read, so unread pages do not count as empty output.
    result: dict[str, Any] = {"dataset": str(path)}
    result.update(evaluate.score(golds, preds, sites_min=sites_min, by_site=by_site))
    result["pipeline"] = {
        "pages": stats.pages,
        "scored": field,
        "templates": not settings.no_templates,
        "two_pass": two_pass and not settings.no_templates,
        "methods": dict(stats.methods),
        "errors": dict(stats.errors),
        "empty_without_error": stats.empty,
        "wall_s": round(stats.wall_s, 3),
        "cpu_s": round(stats.cpu_s, 3),
        "pages_per_cpu_s": round(stats.pages / stats.cpu_s, 2) if stats.cpu_s > 0 else None,
        "bad_records": read_stats.bad,
    }
    result["_summary"] = stats.summary(read_stats)
    return result


def _main_text(doc: Document) -> str:
    return doc.text


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "eval",
        help="clean a gold dataset and score it (word 4-gram shingle / snippet P, R, F1)",
        description=__doc__,
    )
    parser.add_argument(
        "dataset", type=Path, help="JSONL(.gz) of {id, html, url?, site?, gold | with/without}"
    )
    parser.add_argument("--json", dest="json_out", default=None, help="write the full result here")
    parser.add_argument("--preds", default=None, help="write predictions ({id, text} JSONL) here")
    parser.add_argument("--by-site", action="store_true", help="also report per-site shingle metrics")
    parser.add_argument(
        "--comments",
        action="store_true",
        help=f"score the documents' comments against each record's {COMMENTS_GOLD!r} (keep_comments on)",
    )
    parser.add_argument(
        "--sites-min",
        type=int,
        default=0,
        help="score only pages whose site has at least N pages in the dataset",
    )
    add_pipeline_args(
        parser,
        limit_help="clean and score only the first N pages",
        two_pass_help="learn every site's template from all its pages first, then clean and score",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from worker import evaluate  # here, not with the module: see the TYPE_CHECKING import

    if not args.dataset.exists():
        print(f"eval: no such dataset: {args.dataset}", file=sys.stderr)
        return 2
    settings = load_settings(args, "eval")
    if settings is None:
        return 2
    tune_gc()
    result = evaluate_dataset(
        args.dataset,
        settings,
        args.sites_min,
        args.by_site,
        args.limit,
        preds_out=args.preds,
        two_pass=args.two_pass,
        comments=args.comments,
    )
    summary = result.pop("_summary")
    for line in evaluate.summary_lines(result):
        print(line)
    print(f"eval: {summary}", file=sys.stderr)
    if result["skipped_pages"]:
        print(f"eval: skipped (empty or suspect gold): {result['skipped_pages']}", file=sys.stderr)
    if result["missing_predictions"]:
        print(f"eval: missing predictions: {result['missing_predictions']}", file=sys.stderr)
    if args.json_out:
        Path(args.json_out).write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return 0
