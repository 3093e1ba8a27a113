"""`train`: fit the learned block model on gold datasets and write the model file.

    python -m worker train [--data ../shared/data] [--dataset PATH[:SPLIT] ...] [--out FILE] [--seed 7]

Default training data: dragnet's `split == "train"` pages and cleaneval_dev, from ../shared/data. Each set
is cleaned single-page and with the site memory (in id order); every block gets its features where the
model runs and a label from the gold (worker/train/labels.py). Needs the `train` extra (LightGBM):
`pip install -e '.[train]'`. The file written (by default the package's own model) is what the worker loads.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from worker.io import iter_jsonl
from worker.io.readers import ReadStats

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT.parent / "shared" / "data"
# The sets trained on by default, with the split used ("" = every page). scrapinghub_aeb, trafilatura_eval
# and dragnet's test split are evaluation only: tests/unit/test_block_model.py checks the shipped manifest.
DEFAULT_SOURCES = (("dragnet", "train"), ("cleaneval_dev", ""))
# Never trained on, whatever the command line says (the evaluation sets).
EVALUATION_ONLY = frozenset({"scrapinghub_aeb", "trafilatura_eval"})
DEFAULT_OUT = ROOT / "worker" / "clean" / "model" / "block_model.json"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "train", help="fit the learned block model on gold data", description=__doc__
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of the shared datasets")
    parser.add_argument(
        "--dataset",
        action="append",
        default=None,
        metavar="PATH[:SPLIT]",
        help="a JSONL(.gz) of {id, html, url?, site?, gold, split?} to train on (repeatable; replaces the "
        "default sets); with :SPLIT only records whose `split` is SPLIT",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="model file to write")
    parser.add_argument("--seed", type=int, default=None, help="LightGBM seed (default 7)")
    parser.add_argument("--trees", type=int, default=None, help="boosting rounds (default fit.TREES)")
    parser.add_argument(
        "--cv",
        type=int,
        default=0,
        metavar="K",
        help="write no model: print the pipeline's K-fold cross-validated scores (folds by site) on the "
        "training sets, beside the heuristics'",
    )
    parser.set_defaults(func=run)


def _sources(args: argparse.Namespace) -> list[tuple[str, Path, str]]:
    if args.dataset:
        out = []
        for spec in args.dataset:
            path, _, split = spec.partition(":") if not Path(spec).exists() else (spec, "", "")
            out.append((Path(path).name.split(".")[0], Path(path), split))
        return out
    return [(name, args.data / name / "pages.jsonl.gz", split) for name, split in DEFAULT_SOURCES]


def run(args: argparse.Namespace) -> int:
    try:
        from worker.train import fit
        from worker.train.collect import Rows, collect
    except ImportError as exc:
        print(f"train: needs the train extra (pip install -e '.[train]'): {exc}", file=sys.stderr)
        return 2
    sources = _sources(args)
    for name, path, _ in sources:
        if not path.exists():
            print(f"train: no such dataset: {path}", file=sys.stderr)
            return 2
        if name in EVALUATION_ONLY or path.parent.name in EVALUATION_ONLY:
            print(f"train: {name} is evaluation only", file=sys.stderr)
            return 2
    rows = Rows()
    manifest: list[dict[str, Any]] = []
    sets = []
    for name, path, split in sources:
        records = [r for _, r in iter_jsonl(path, ReadStats()) if "id" in r]
        records.sort(key=lambda r: str(r["id"]))

        def trainable(record: dict[str, Any], split: str = split) -> bool:
            return not split or record.get("split") == split

        pages = 0
        for memory in (False, True):
            pages = collect(name, records, trainable, rows, memory)
        sets.append((name, records, [r for r in records if trainable(r)]))
        manifest.append({"name": path.parent.name if path.name.startswith("pages") else name,
                         "split": split or "all", "pages": pages})  # fmt: skip
    if args.cv:
        from worker.train.crossval import cross_validate

        table = cross_validate(sets, rows, args.cv, seed=args.seed or fit.SEED, trees=args.trees or fit.TREES)
        for row, cells in table.items():
            print(f"{row:28s} " + "  ".join(f"{m} {v}" for m, v in cells.items()))
        return 0
    data = fit.fit(rows, manifest, seed=args.seed or fit.SEED, trees=args.trees or fit.TREES)
    fit.write(data, args.out)
    size = args.out.stat().st_size
    print(f"train: wrote {args.out} ({size / 1024:.0f} KiB, {len(rows.page)} page runs)", file=sys.stderr)
    return 0
