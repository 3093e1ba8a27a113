"""`demo`: the whole pipeline on this machine, no setup: broker, topics, a worker, the sample site.

Starts the embedded Tansu broker (in-memory), creates the topics, runs one worker (`python -m worker
run`), replays the bundled sample pages, prints a live progress line and a few cleaned documents, and
keeps feeding the sample until Ctrl-C / SIGTERM. `--once` stops after the first round.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import shutil
import sys
import textwrap
import time
from collections import Counter, deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from worker import settings as settings_mod
from worker.io import read_pages
from worker.models import Page
from worker.sample import sample_dir
from worker.settings import Settings

if TYPE_CHECKING:  # the broker and worker modules (asyncio, an HTTP client) load when `demo` runs, not
    # when another command builds its parser (~25 ms of every command's start-up)
    from worker.stream.local import OutputWatcher

log = logging.getLogger(__name__)

TUNABLE = (
    "input_topic",
    "output_topic",
    "dead_letter_topic",
    "changelog_topic",
    "metrics_port",
    "no_templates",
    "template_min_pages",
    "keep_comments",
    "keep_headline",
    "keep_captions",
    "min_block_quality",
    "block_model",
)
TEXT_LINES_SHOWN = 4
WIDTH = 100


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("demo", help="run the whole pipeline locally on the bundled sample site")
    parser.add_argument("--once", action="store_true", help="exit after the first round has been cleaned")
    parser.add_argument("--pages", type=int, default=None, help="pages per round (default: the sample, once)")
    parser.add_argument("--show", type=int, default=3, help="cleaned documents to print (default 3)")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between rounds without --once")
    parser.add_argument("--timeout", type=float, default=120.0, help="give up on a round after this long")
    parser.add_argument("--log-dir", type=Path, default=None, help="keep broker and worker logs here")
    settings_mod.add_flags(parser, TUNABLE)
    parser.set_defaults(func=run)


def sample_round(pages: list[Page], count: int, round_no: int) -> list[Page]:
    """`count` pages cycling through the sample; ids are unique per round so every page is new."""
    out = []
    for i in range(count):
        page = pages[i % len(pages)]
        cycle = round_no * count + i // len(pages)
        out.append(dataclasses.replace(page, id=f"{page.id}#{cycle}") if cycle else page)
    return out


def show_document(msg: dict[str, Any]) -> None:
    template = msg.get("template") or {}
    how = str(msg.get("method"))
    if template.get("blocks_stripped"):
        how += f", {template['blocks_stripped']} template blocks stripped"
    print(f"\n== {msg.get('title') or '(no title)'}  [{msg.get('url')}]  ({how})")
    lines = [line for line in str(msg.get("text", "")).splitlines() if line.strip()]
    for line in lines[:TEXT_LINES_SHOWN]:
        print(textwrap.shorten(line, WIDTH, placeholder=" …"))
    if len(lines) > TEXT_LINES_SHOWN:
        print(f"   … ({len(lines) - TEXT_LINES_SHOWN} more paragraphs)")
    sys.stdout.flush()


def pick_documents(watcher: OutputWatcher, count: int) -> list[dict[str, Any]]:
    """Documents to print after the first round: template-stripped ones first (the interesting part:
    pages after the site's first few), then the rest, each group in arrival order."""
    docs = [watcher.seen.documents[i] for i in watcher.seen.order]
    learned = [d for d in docs if str(d.get("method", "")).startswith("template")]
    return (learned + [d for d in docs if d not in learned])[:count]


class Progress:
    """One status line: throughput over the last few seconds, lag (produced, not yet out), dead letters."""

    WINDOW_S = 5.0

    def __init__(self) -> None:
        self.last = 0.0
        self.last_line = ""
        self.tty = sys.stderr.isatty()
        self.samples: deque[tuple[float, int]] = deque()

    def update(self, produced: int, watcher: OutputWatcher, force: bool = False) -> None:
        now = time.monotonic()
        seen = watcher.seen
        self.samples.append((now, seen.done))
        while now - self.samples[0][0] > self.WINDOW_S:
            self.samples.popleft()
        if not force and now - self.last < (0.5 if self.tty else 2.0):
            return
        self.last = now
        t0, done0 = self.samples[0]
        rate = (seen.done - done0) / (now - t0) if now > t0 else 0.0
        line = (
            f"[demo] {seen.done}/{produced} pages cleaned | {rate:.1f} pages/s | lag {produced - seen.done}"
            f" | dead letters {sum(seen.dead_letters.values())}"
        )
        if line == self.last_line:
            return
        previous, self.last_line = self.last_line, line
        if self.tty:  # rewrite one line in place
            print("\r" + line.ljust(len(previous)), end="", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)


async def demo(args: argparse.Namespace, settings: Settings, bootstrap: str, log_dir: Path) -> int:
    import asyncio
    import signal

    from worker.stream.broker import create_topics
    from worker.stream.local import OutputWatcher, WorkerProcess, pipeline_topics
    from worker.stream.replay import page_producer, replay_pages  # aiokafka: not for `--help`

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    sample = list(read_pages(sample_dir()))
    per_round = args.pages or len(sample)
    await create_topics(bootstrap, pipeline_topics(settings))
    worker = WorkerProcess(settings, log_dir / "worker.log", log_level=getattr(args, "log_level", "INFO"))
    watcher = OutputWatcher(settings)
    progress = Progress()
    produced = 0
    code = 0
    print(f"[demo] broker {bootstrap}, worker pid {worker.proc.pid}, logs in {log_dir}", file=sys.stderr)
    if settings.metrics_port:
        print(f"[demo] metrics: http://127.0.0.1:{settings.metrics_port}/metrics", file=sys.stderr)
    try:
        await watcher.start()
        async with page_producer(settings) as producer:
            round_no = 0
            while not stop.is_set():
                stats = await replay_pages(
                    producer, sample_round(sample, per_round, round_no), settings.input_topic
                )
                produced += stats.sent
                deadline = time.monotonic() + args.timeout
                next_round = time.monotonic() + args.every
                while not stop.is_set():
                    if not worker.alive():
                        print(f"\n[demo] the worker exited (rc {worker.proc.returncode}):\n{worker.tail()}")
                        return 1
                    await watcher.poll()
                    progress.update(produced, watcher)
                    caught_up = watcher.seen.done >= produced
                    if caught_up and (args.once or time.monotonic() >= next_round):
                        break
                    if not caught_up and time.monotonic() > deadline:
                        print(
                            f"\n[demo] timed out: {watcher.seen.done}/{produced} pages came out",
                            file=sys.stderr,
                        )
                        return 1
                progress.update(produced, watcher, force=True)
                if round_no == 0:
                    for msg in pick_documents(watcher, args.show):
                        show_document(msg)
                if args.once:
                    break
                round_no += 1
    finally:
        if progress.tty:
            print(file=sys.stderr)
        await watcher.stop()
        rc = worker.stop()
        if rc != 0:
            print(f"[demo] worker exited with rc {rc}; log {worker.log_path}", file=sys.stderr)
            code = 1
    seen = watcher.seen
    methods = Counter(str(d.get("method")) for d in seen.documents.values())
    print(
        f"\n[demo] done: {len(seen.documents)} documents, {sum(seen.dead_letters.values())} dead letters"
        f" ({dict(seen.dead_letters) or 'none'}), {seen.duplicates} duplicates;"
        f" by method: {', '.join(f'{m} {n}' for m, n in methods.most_common())}"
    )
    return code


def run(args: argparse.Namespace) -> int:
    # Imported here: every command imports this module to build the parser (tempfile brings random).
    import asyncio
    import tempfile

    from worker.stream.broker import BrokerError, free_port, start_broker
    from worker.stream.local import local_settings

    if logging.getLogger().getEffectiveLevel() >= logging.INFO:
        # the demo prints its own progress; client chatter would bury it
        for name in ("aiokafka", "worker.stream.broker", "worker.stream.local"):
            logging.getLogger(name).setLevel(logging.WARNING)
    overrides = {k: v for k, v in vars(args).items() if k in TUNABLE}
    if overrides.get("metrics_port") is None:
        overrides["metrics_port"] = free_port()  # 9108 may be taken by a real worker on this machine
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="cleanstream-demo-"))
    code = 2
    try:
        broker = start_broker(log_dir)
    except BrokerError as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return code
    try:
        settings = local_settings(broker.bootstrap, os.environ, overrides)
        code = asyncio.run(demo(args, settings, broker.bootstrap, log_dir))
    finally:
        broker.stop()
        # logs of a failed run stay for reading; a clean run leaves nothing behind
        if args.log_dir is None and code == 0:
            shutil.rmtree(log_dir, ignore_errors=True)
    return code
