#!/usr/bin/env python3
"""Precision mining on the training pages: the kept lines whose text the gold does not hold, by cause.

    .venv/bin/python scripts/kept_not_gold.py [--memory] [--as-gold] [--group NAME] [--top N]

Cleans dragnet and cleaneval_dev with the heuristics (`--memory`: the site memory fed each set in id order,
as scripts/eval_model.py does) and reports on the TRAINING pages only (dragnet split == "train",
cleaneval_dev): per output line whose words the gold does not hold, what removing that line alone would
change in the set's macro precision and recall (the scorer's word 4-gram shingles, worker.evaluate), in
units of 1e-4; lines are grouped by a plausible cause (CAUSES, else by place and length). Prints each group's
total, then the costliest lines (of `--group` when given). The evaluation pages (dragnet's test split and
the other sets) are cleaned for the memory but never shown.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from worker.clean.options import CleanOptions  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import SiteMemory  # noqa: E402
from worker.evaluate import TOKEN, page_tp_fp_fn, precision, recall  # noqa: E402
from worker.io import iter_jsonl, page_from_record  # noqa: E402
from worker.io.readers import ReadStats  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
CAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("clock time", re.compile(r"(?i)\b\d{1,2}:\d\d(:\d\d)?\s*([ap]\.?m\.?)?\b")),
    (
        "credit",
        re.compile(r"(?i)^\(?(photos?|images?|pictures?)( courtesy| credit)?( of| by)?\s*[:\-]|courtesy of"),
    ),
    ("source/via", re.compile(r"(?i)^(source|via|h/t|hat tip)\s*:")),
    ("social", re.compile(r"(?i)(facebook|twitter|google\+|subscribe|follow (me|us)|rss\b)")),
    ("promo", re.compile(r"(?i)(click here|sign up|newsletter|download|buy |free bet)")),
    ("byline", re.compile(r"(?i)^(by|posted by|written by|article by)\b")),
    ("related", re.compile(r"(?i)^(related|see also|more|previously|read more)\b")),
    (
        "dated title",
        re.compile(r" [-–—] (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* \d{1,2}, \d{4}\s*$"),
    ),
)


def _cause(line: str, at: int, count: int) -> str:
    for name, pattern in CAUSES:
        if pattern.search(line):
            return name
    place = "first" if at == 0 else "last" if at >= count - 1 else "inner"
    return f"{place} line" + (", short" if len(TOKEN.findall(line)) < 10 else "")


def _pr(gold: str, text: str) -> tuple[float, float]:
    row = page_tp_fp_fn(gold, text)
    return precision(*row), recall(*row)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memory", action="store_true", help="feed the site memory each set in id order")
    parser.add_argument("--as-gold", action="store_true", help="keep the headline, as these sets' gold does")
    parser.add_argument("--group", default=None, help="list this group's lines")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    options = CleanOptions(block_model=False, keep_headline=args.as_gold)
    for name in ("dragnet", "cleaneval_dev"):
        path = DATA / name / "pages.jsonl.gz"
        if not path.exists():
            continue
        memory = SiteMemory() if args.memory else None
        pages: list[tuple[str, str, str]] = []
        for _, rec in iter_jsonl(path, ReadStats()):
            if "id" not in rec:
                continue
            text = clean_page(page_from_record(rec, str(rec["id"])), memory, options).text
            training = rec.get("split") == "train" if name == "dragnet" else True
            if training and (rec.get("gold") or "").strip() and not rec.get("suspect_gold_mismatch"):
                pages.append((str(rec["id"]), rec["gold"], text))
        groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        lines: list[tuple[float, float, str, str, str]] = []
        n = len(pages)
        for pid, gold, text in pages:
            held = " ".join(TOKEN.findall(gold))
            rows = text.split("\n")
            p0, r0 = _pr(gold, text)
            for at, line in enumerate(rows):
                if not TOKEN.search(line) or " ".join(TOKEN.findall(line)) in held:
                    continue
                p1, r1 = _pr(gold, "\n".join(rows[:at] + rows[at + 1 :]))
                dp, dr = (p1 - p0) / n * 1e4, (r1 - r0) / n * 1e4
                if dp <= 0:
                    continue
                cause = _cause(line, at, len(rows))
                groups[cause][0] += dp
                groups[cause][1] += dr
                groups[cause][2] += 1
                lines.append((dp, dr, cause, pid, line))
        mode = ("memory" if args.memory else "single") + (", as gold" if args.as_gold else "")
        print(f"== {name} ({mode}): {n} training pages; removing the line alone: dP dR (1e-4), lines")
        for cause, (dp, dr, count) in sorted(groups.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
            print(f"   {cause:20s} {dp:8.2f} {dr:8.2f} {count:5.0f}")
        shown = [x for x in lines if args.group in (None, x[2])]
        for dp, dr, cause, pid, line in sorted(shown, key=lambda x: -(x[0] + x[1]))[: args.top]:
            print(f"   {dp:6.2f} {dr:6.2f} {pid:>7} {cause:14.14s} {line[:100]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
