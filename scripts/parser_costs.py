#!/usr/bin/env python3
"""Measure lexbor's parse time on markup that makes HTML5 tree builders superlinear; the numbers behind the
limits in worker/clean/guard.py.

    .venv/bin/python scripts/parser_costs.py [--sizes 1000,2000,4000,8000,16000] [--repeat 3] [--guard]

For each family, one line per size: the best of `--repeat` parses (wall clock: run it on a quiet machine),
the elements lexbor built, and the fitted constant (time / n^2, or time / elements for the rebuilding
family). With --guard, also what worker.clean.guard.check decides and how long it takes, and how long the
page it hands on takes to parse.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from worker.clean import guard

FAMILIES: dict[str, Callable[[int], str]] = {
    "nested <div>": lambda n: "<div>" * n + "x",
    "nested <ul><li>": lambda n: "<ul><li>" * (n // 2) + "x",
    "<b><div> (adoption)": lambda n: "<b><div>" * (n // 2) + "x",
    "<a><div> (adoption)": lambda n: "<a href=x><div>" * (n // 2) + "x",
    "<span> then </i>": lambda n: "<span>" * n + "</i>" * n,
    "<b id=k> (Noah's Ark)": lambda n: "".join(f"<b id={k}>" for k in range(n)) + "x",
    "<select> <option>": lambda n: "<select>" + "<option>x</option>" * n,
    "one tag, n attributes": lambda n: "<div " + " ".join(f"a{k}=1" for k in range(n)) + ">x</div>",
    "256 <b id>, </p><p> x n": lambda n: "<p>" + "".join(f"<b id={k}>" for k in range(256)) + "</p><p>x" * n,
}


def parse_seconds(markup: str, repeat: int) -> tuple[float, int]:
    best = float("inf")
    elements = 0
    for _ in range(repeat):
        started = time.perf_counter()
        tree = LexborHTMLParser(markup)
        best = min(best, time.perf_counter() - started)
        if tree.root is not None and not elements:
            elements = sum(1 for _ in tree.root.traverse(include_text=False))
    return best, elements


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--guard", action="store_true", help="also show what the guard decides")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for name, make in FAMILIES.items():
        print(name)
        for n in sizes:
            markup = make(n)
            seconds, elements = parse_seconds(markup, args.repeat)
            per = seconds * 1e9 / (elements if name.startswith("256") else n * n)
            line = f"  n={n:>6}  {seconds * 1000:9.1f} ms  {elements:>9} elements  {per:6.2f} ns/unit"
            if args.guard:
                started = time.perf_counter()
                verdict = guard.check(markup, 200_000)
                checked = time.perf_counter() - started
                after = parse_seconds(verdict.markup, 1)[0] if verdict.action != "reject" else 0.0
                line += f"  | guard {verdict.action} in {checked * 1000:.1f} ms, parse {after * 1000:.1f} ms"
            print(line, flush=True)


if __name__ == "__main__":
    main()
