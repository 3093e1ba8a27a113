"""`python -m worker` / `cleanstream`: clean, eval, run, replay, demo, train."""

from __future__ import annotations

import argparse
import gc
import importlib
import logging
import sys
from collections.abc import Callable, Sequence

# Subcommand modules under worker/cli; each registers its own parser.
COMMANDS = ("clean", "eval", "run", "replay", "demo", "train")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cleanstream", description=__doc__)
    parser.add_argument("--log-level", default="INFO", help="logging level (default INFO)")
    sub = parser.add_subparsers(dest="command", required=True)
    # The imports (the cleaning core, its tables and its import-time checks of the C accelerator) make
    # objects that live as long as the process, so the cyclic collector's passes during them find next to
    # nothing: off until they are done (one page's `clean` 10 million instructions fewer, callgrind). A
    # command that cleans then collects once and freezes what start-up made (gc_policy.tune_gc).
    collecting = gc.isenabled()
    gc.disable()
    try:
        for name in COMMANDS:
            module = importlib.import_module(f"worker.cli.{name}_cmd")
            module.register(sub)
    finally:
        if collecting:
            gc.enable()
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, str(args.log_level).upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
