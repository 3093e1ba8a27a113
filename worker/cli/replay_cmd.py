"""`replay SOURCE`: produce pages from files into a topic (local demo, benchmarks, or feeding a cluster)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

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
    parser.add_argument(
        "--url-prefix",
        default=None,
        help="for pages without a url: PREFIX + the page id, e.g. https://{site}/ ({site}: the page's "
        "site); without it such pages are skipped (the worker requires a url)",
    )
    parser.add_argument("--site", default=None, help="the site of pages that name none")
    parser.add_argument("--limit", type=int, default=None, help="stop after N pages (sent or skipped)")
    parser.add_argument("--rate", type=float, default=None, help="at most R pages per second")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    settings_mod.add_flags(parser, PRODUCER_SETTINGS)
    parser.set_defaults(func=run)


def _progress(stats: ReplayStats) -> None:
    print(f"replay: {stats.sent} pages sent ({stats.rate:.0f}/s)", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    # Imported here: `--help` and the offline commands must not pay for aiokafka.
    from worker.stream.replay import BrokerUnreachable, page_producer, replay_pages, with_defaults

    settings = settings_mod.from_args(args, os.environ)
    topic = args.topic or settings.input_topic
    if str(args.source) != "-" and not args.source.exists():
        print(f"replay: {args.source} does not exist", file=sys.stderr)
        return 2
    problem = _check_prefix(args.url_prefix)
    if problem:
        print(f"replay: --url-prefix {args.url_prefix!r}: {problem}", file=sys.stderr)
        return 2
    read_stats = ReadStats()
    pages = (with_defaults(p, args.url_prefix, args.site) for p in read_pages(args.source, read_stats))

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
        import asyncio  # here, not for the other commands' start-up (~13 ms)

        stats = asyncio.run(main())
    except BrokerUnreachable as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    print(
        f"replayed {stats.sent} pages ({stats.bytes / 1e6:.1f} MB) to {topic} at {settings.bootstrap_servers}"
        f" in {stats.elapsed_s:.1f}s ({stats.rate:.0f} pages/s){_skipped(stats, read_stats)}"
    )
    if stats.sent == 0 and (stats.skipped or read_stats.bad):
        print("replay: no page was sent", file=sys.stderr)
        return 1
    return 0


def _check_prefix(prefix: str | None) -> str | None:
    """Why a --url-prefix cannot make URLs the worker accepts, or None."""
    if prefix is None:
        return None
    example = prefix.replace("{site}", "example.com")
    if not urlsplit(example).hostname:
        return "not an absolute URL with a host (e.g. https://{site}/ or https://dataset.example/)"
    return None


def _skipped(stats: ReplayStats, read_stats: ReadStats) -> str:
    """What was left out, e.g. `, 52 skipped: 52 no url (give --url-prefix)`; empty if nothing was."""
    parts = [
        f"{n} {why}" + (" (give --url-prefix)" if why == "no url" else "")
        for why, n in stats.skipped_by.most_common()
    ]
    if read_stats.bad:
        parts.append(f"{read_stats.bad} unreadable input records")
    return f", {stats.skipped + read_stats.bad} skipped: {', '.join(parts)}" if parts else ""
