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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command` alone when it names one (main: the one a command
    line runs; the others' modules and arguments cost one page's `clean` 20 million instructions,
    callgrind). A command's own parser is the same either way."""
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
        for name in (command,) if command in COMMANDS else COMMANDS:
            module = importlib.import_module(f"worker.cli.{name}_cmd")
            module.register(sub)
    finally:
        if collecting:
            gc.enable()
    return parser


def named_command(argv: Sequence[str]) -> str | None:
    """The command word of a command line: its first word that is neither an option nor the value of
    --log-level (None without one, or after -h; build_parser then registers every command, for the help
    and the errors that list them)."""
    words = iter(argv)
    for word in words:
        if word in ("-h", "--help"):
            return None
        if word == "--log-level":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(named_command(argv))
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
