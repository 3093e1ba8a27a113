"""`clean INPUT...`: clean HTML files, folders, JSONL(.gz) or WARC(.gz) offline, without a broker.

Pages are cleaned one at a time in input order (folders sorted), one pipeline call per page, with the
same per-site template memory the stream worker uses unless --no-templates is given; so the output of
`clean` over a dump equals what the worker would produce for those pages in that order.
"""

from __future__ import annotations

import argparse
import itertools
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from worker import settings as settings_mod
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.gc_policy import tune_gc
from worker.io import FORMATS, DocumentWriter, ReadStats, read_pages
from worker.models import Document, Page
from worker.settings import Settings

log = logging.getLogger(__name__)


@dataclass
class CleanStats:
    pages: int = 0
    empty: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    methods: Counter[str] = field(default_factory=Counter)
    wall_s: float = 0.0
    cpu_s: float = 0.0

    def add(self, doc: Document) -> None:
        self.pages += 1
        self.methods[doc.method] += 1
        if doc.error is not None:
            self.errors[doc.error] += 1
        elif not doc.text:
            self.empty += 1

    def summary(self, read: ReadStats | None = None) -> str:
        rate = self.pages / self.wall_s if self.wall_s > 0 else 0.0
        cpu_rate = self.pages / self.cpu_s if self.cpu_s > 0 else 0.0
        errors = ", ".join(f"{k}={v}" for k, v in sorted(self.errors.items())) or "none"
        methods = ", ".join(f"{k}={v}" for k, v in sorted(self.methods.items())) or "none"
        line = (
            f"{self.pages} pages in {self.wall_s:.2f} s "
            f"({rate:.1f} pages/s wall, {cpu_rate:.1f} pages/s CPU); "
            f"methods: {methods}; errors: {errors}; empty without error: {self.empty}"
        )
        if read is not None and (read.bad or read.skipped_non_html):
            line += (
                f"; input: {read.bad} bad records skipped, {read.skipped_non_html} non-HTML records skipped"
            )
        return line


def build_memory(settings: Settings) -> SiteMemory | None:
    """The per-site template memory for an offline run, or None for single-page extraction.

    Template-memory hook: one memory per run, shared across all inputs, fed pages in input order.
    """
    if settings.no_templates:
        return None
    return SiteMemory(MemoryConfig.from_settings(settings))


def clean_all(
    pages: Iterable[Page], memory: SiteMemory | None, options: CleanOptions, stats: CleanStats
) -> Iterator[tuple[Page, Document]]:
    """Each page with its document, in input order; `stats` is updated as documents come out."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        for page in pages:
            doc = clean_page(page, memory, options)
            stats.add(doc)
            stats.wall_s = time.perf_counter() - wall0
            stats.cpu_s = time.process_time() - cpu0
            yield page, doc
    finally:
        stats.wall_s = time.perf_counter() - wall0
        stats.cpu_s = time.process_time() - cpu0


def learn_all(pages: Iterable[Page], memory: SiteMemory | None, options: CleanOptions) -> int:
    """--two-pass, first pass: clean every page once so each site's memory learns from all its pages.

    Outputs are discarded and the memory is then frozen (SiteMemory.learning = False), so the second
    pass cleans every page, the first ones of a site included, with what the whole site taught.
    """
    if memory is None:
        return 0
    n = 0
    for page in pages:
        clean_page(page, memory, options)
        n += 1
    memory.learning = False
    return n


def progress(pages: Iterable[Page], desc: str) -> Iterable[Page]:
    """A tqdm bar on stderr when it is a terminal; the bare iterable otherwise (logs, CI, pipes)."""
    if not sys.stderr.isatty():
        return pages
    from tqdm import tqdm  # imported only for a terminal: it costs a one-page run a tenth of its start-up

    return tqdm(pages, desc=desc, unit="page", file=sys.stderr, dynamic_ncols=True)


def limited(pages: Iterable[Page], limit: int | None) -> Iterable[Page]:
    # islice pulls exactly `limit` items, so a reader's side effects stop with the last page used.
    return pages if limit is None else itertools.islice(pages, limit)


def missing_inputs(paths: Iterable[str]) -> list[str]:
    return [p for p in paths if p != "-" and not Path(p).exists()]


def add_pipeline_args(parser: argparse.ArgumentParser, *, limit_help: str, two_pass_help: str) -> None:
    """--limit, --two-pass and the pipeline settings, which `clean` and `eval` share."""
    parser.add_argument("--limit", type=int, default=None, help=limit_help)
    parser.add_argument("--two-pass", action="store_true", help=two_pass_help)
    settings_mod.add_flags(parser, settings_mod.PIPELINE_FLAGS)


def load_settings(args: argparse.Namespace, command: str) -> Settings | None:
    """The settings, or None once the user has been told why they are invalid (the command exits 2)."""
    try:
        return settings_mod.from_args(args, os.environ)
    except ValueError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "clean",
        help="clean HTML files, folders, JSONL(.gz) or WARC(.gz) to JSONL, text, CleanEval or Markdown",
        description=__doc__,
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="HTML file, folder of *.html/*.htm (recursive), .jsonl[.gz] of {id,url?,site?,html|body}, "
        ".warc[.gz], or - for JSONL on stdin",
    )
    parser.add_argument("--out", default=None, help="output file (default stdout; a .gz name compresses)")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="jsonl",
        help="jsonl (default): one JSON document per line; text, cleaneval, markdown: documents "
        "separated by a form-feed line",
    )
    add_pipeline_args(
        parser,
        limit_help="stop after N pages",
        two_pass_help="learn every site's template from all its pages first, then clean "
        "(reads the input twice)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    missing = missing_inputs(args.inputs)
    if missing:
        print(f"clean: no such input: {', '.join(missing)}", file=sys.stderr)
        return 2
    settings = load_settings(args, "clean")
    if settings is None:
        return 2
    tune_gc()
    memory = build_memory(settings)
    read_stats = ReadStats()
    stats = CleanStats()
    pages: Iterable[Page] = limited(read_pages(args.inputs, read_stats), args.limit)
    if args.two_pass and memory is not None:
        if "-" in args.inputs:
            pages = list(pages)  # stdin can be read once only
            learn_all(pages, memory, settings.clean_options())
        else:
            first = limited(read_pages(args.inputs, ReadStats()), args.limit)
            learn_all(first, memory, settings.clean_options())
    pages = progress(pages, "clean")
    try:
        with DocumentWriter(args.out, args.format) as writer:
            for _, doc in clean_all(pages, memory, settings.clean_options(), stats):
                writer.write(doc)
    except BrokenPipeError:
        # `clean ... | head`: the reader left; stop quietly and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    print(f"clean: {stats.summary(read_stats)}", file=sys.stderr)
    return 1 if read_stats.pages == 0 and read_stats.bad else 0
