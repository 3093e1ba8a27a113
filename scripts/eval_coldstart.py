#!/usr/bin/env python3
"""Issue 12, item 5: does holding a new site's first pages back pay? An offline upper bound on dragnet.

    .venv/bin/python scripts/eval_coldstart.py [--holds 0,2,3,5]

The stream is dragnet in id order, one site memory fed all of it. With a hold of K, a site's first K pages
are observed by the memory on arrival (their fingerprints counted) but cleaned only once the site's K-th
page has arrived (or at the end of the stream for a site with fewer), so they are extracted with the
memory of K pages instead of 1..K. The memory counts a page once by its key, so observing it again when it
is cleaned changes nothing. A real hold is also bounded in seconds: pages of a slow site would be released
before K, so this is the most a count-bounded hold can give. Scores: dragnet's test pages of sites with >= 5
pages, and all dragnet pages (shingle F1, worker.evaluate).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from worker.clean.options import CleanOptions  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import SiteMemory  # noqa: E402
from worker.evaluate import Gold, score  # noqa: E402
from worker.io import iter_jsonl, page_from_record  # noqa: E402
from worker.io.readers import ReadStats  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dragnet" / "pages.jsonl.gz"


def run(records: list[dict[str, Any]], hold: int, options: CleanOptions) -> dict[str, str]:
    memory = SiteMemory()
    preds: dict[str, str] = {}
    held: dict[str, list[dict[str, Any]]] = defaultdict(list)
    arrived: Counter[str] = Counter()

    def clean(rec: dict[str, Any]) -> str:
        return clean_page(page_from_record(rec, str(rec["id"])), memory, options).text

    for rec in records:
        site = str(rec.get("site") or "")
        arrived[site] += 1
        if site and arrived[site] <= hold:
            clean(rec)  # observed now, its output not published
            held[site].append(rec)
            if arrived[site] < hold:
                continue
            for early in held.pop(site):
                preds[str(early["id"])] = clean(early)
            continue
        preds[str(rec["id"])] = clean(rec)
    for rest in held.values():  # sites with fewer pages than the hold: released at the end
        for early in rest:
            preds[str(early["id"])] = clean(early)
    return preds


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--holds", default="0,2,3,5")
    parser.add_argument("--keep-headline", action="store_true", help="dragnet's gold convention")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"eval_coldstart: no data at {DATA}", file=sys.stderr)
        return 0
    records = [r for _, r in iter_jsonl(DATA, ReadStats()) if "id" in r]
    golds = [Gold.from_record(r) for r in records]
    sites = Counter(r.get("site") for r in records)
    big = [
        g
        for g, r in zip(golds, records, strict=True)
        if r.get("split") == "test" and g.site and sites[g.site] >= 5
    ]
    options = CleanOptions(keep_headline=args.keep_headline)
    for hold in (int(x) for x in args.holds.split(",")):
        preds = run(records, hold, options)
        f_big = score(big, preds)["shingle"]["f1"]
        f_all = score(golds, preds)["shingle"]["f1"]
        print(f"hold {hold}: dragnet test, sites>=5 {f_big:.4f}  dragnet all {f_all:.4f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
