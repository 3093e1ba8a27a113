"""`replay SOURCE`: produce pages from files into a topic (local demo, benchmarks, or feeding a cluster)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from worker import settings as settings_mod
from worker.io import ReadStats, read_pages
from worker.stream.config import PRODUCER_SETTINGS

if TYPE_CHECKING:
    from worker.stream.replay import ReplayStats

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="produce pages from an HTML folder, JSONL(.gz) or WARC into a topic",
        description=__doc__,
    )
    parser.add_argument(
        "source", type=Path, help="HTML folder, .jsonl / .jsonl.gz file (- for stdin), or .warc(.gz) file"
    )
    parser.add_argument("--topic", default=None, help="target topic (default: the input_topic setting)")
    parser.add_argument(
        "--as-headers",
        action="store_true",
        help="send the raw HTML as the value and page fields as headers, instead of a JSON envelope",
    )
    parser.add_argument("--limit", type=int, default=None, help="stop after N pages")
    parser.add_argument("--rate", type=float, default=None, help="at most R pages per second")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    settings_mod.add_flags(parser, PRODUCER_SETTINGS)
    parser.set_defaults(func=run)


def _progress(stats: ReplayStats) -> None:
    print(f"replay: {stats.sent} pages sent ({stats.rate:.0f}/s)", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    # Imported here: `--help` and the offline commands must not pay for aiokafka.
    from worker.stream.replay import BrokerUnreachable, page_producer, replay_pages

    settings = settings_mod.from_args(args, os.environ)
    topic = args.topic or settings.input_topic
    if str(args.source) != "-" and not args.source.exists():
        print(f"replay: {args.source} does not exist", file=sys.stderr)
        return 2
    read_stats = ReadStats()
    pages = read_pages(args.source, read_stats)

    async def main() -> ReplayStats:
        async with page_producer(settings) as producer:
            return await replay_pages(
                producer,
                pages,
                topic,
                as_headers=args.as_headers,
                limit=args.limit,
                rate=args.rate,
                progress=None if args.quiet else _progress,
            )

    try:
        stats = asyncio.run(main())
    except BrokerUnreachable as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    skipped = f", {stats.skipped} skipped (over max_request_size)" if stats.skipped else ""
    if read_stats.bad:
        skipped += f", {read_stats.bad} unreadable input records"
    print(
        f"replayed {stats.sent} pages ({stats.bytes / 1e6:.1f} MB) to {topic} at {settings.bootstrap_servers}"
        f" in {stats.elapsed_s:.1f}s ({stats.rate:.0f} pages/s){skipped}"
    )
    return 0
