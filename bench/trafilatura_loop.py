"""trafilatura's own loop over JSONL(.gz) pages, as a trafilatura user writes it (run with bench/.venv).

    bench/.venv/bin/python bench/trafilatura_loop.py PAGES.jsonl[.gz] ... --out OUT.jsonl [--limit N]

Reads each record ({"id", "html", ...}), extracts the main text with trafilatura.extract and writes
{"id", "text"} lines: the same work `python -m worker clean` does, for bench/process.py's comparison.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

import trafilatura


def records(paths: list[str]) -> Iterator[dict[str, Any]]:
    for path in paths:
        f: IO[str]
        with (
            gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")
        ) as f:
            for line in f:
                if line.strip():
                    yield json.loads(line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    with open(args.out, "w", encoding="utf-8") as out:
        for rec in itertools.islice(records(args.inputs), args.limit):
            text = trafilatura.extract(rec.get("html") or "", include_comments=False) or ""
            out.write(json.dumps({"id": rec["id"], "text": text}, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
