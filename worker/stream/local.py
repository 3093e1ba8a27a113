"""A whole pipeline on one machine: topics, a worker subprocess, and a watcher of its outputs.

Shared by `demo` and bench/e2e.py. The worker runs as `python -m worker run` in its own process,
exactly as in production (settings through CLEANSTREAM_* env vars, SIGTERM drains), so the demo and
the benchmark exercise the real entry point rather than an in-process shortcut.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from worker.settings import ENV_PREFIX, Settings
from worker.stream.broker import TopicSpec, die_with_parent
from worker.stream.config import security_config

log = logging.getLogger(__name__)

# Tansu holds every JoinGroup for session_timeout/2 and never wakes an empty fetch early (see the
# broker notes), so the local pipeline runs with short sessions and shorter fetch waits. Not shorter
# than 100 ms: each empty fetch costs Tansu CPU, and a caught-up member kept it 30% busy at 20 ms
# (13% at 100 ms, 4% at 500 ms; measured over 10 idle seconds), CPU that the cleaning processes
# share on one machine. End-to-end p50 latency at half load: ~80 ms at 20 ms, ~110 ms at 100 ms.
LOCAL_TUNING: Mapping[str, Any] = {
    "session_timeout_ms": 3000,
    "heartbeat_interval_ms": 500,
    "fetch_max_wait_ms": 100,
    "commit_interval_ms": 500,
}
INPUT_PARTITIONS = 4
# Sample lines of this counter (one per outcome) sum to the pages whose output was acked.
ACKED_METRIC = "cleanstream_pages_total{"
# How often WorkerProcess.wait_acked scrapes /metrics: at least this far apart, at most this far.
POLL_MIN_S = 0.5
POLL_MAX_S = 10.0


def local_settings(bootstrap: str, environ: Mapping[str, str], overrides: Mapping[str, Any]) -> Settings:
    """Settings for a local pipeline: user env and flags, then the embedded broker and local tuning."""
    base = Settings.load(environ, overrides)
    tuning = {k: v for k, v in LOCAL_TUNING.items() if overrides.get(k) is None}
    return dataclasses.replace(base, bootstrap_servers=bootstrap, **tuning)


def pipeline_topics(settings: Settings, input_partitions: int = INPUT_PARTITIONS) -> list[TopicSpec]:
    """Input, output, dead-letter and the compacted changelog (co-partitioned with the input)."""
    return [
        TopicSpec(settings.input_topic, input_partitions),
        TopicSpec(settings.output_topic, input_partitions),
        TopicSpec(settings.dead_letter_topic, 1),
        TopicSpec(settings.changelog_topic, input_partitions, compacted=True),
    ]


def settings_env(settings: Settings) -> dict[str, str]:
    """Every setting as its CLEANSTREAM_* variable, so a child process sees exactly these settings."""
    env: dict[str, str] = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        env[ENV_PREFIX + f.name.upper()] = (
            ("true" if value else "false") if isinstance(value, bool) else str(value)
        )
    return env


class WorkerProcess:
    """`python -m worker run` as a child process with its log in a file."""

    def __init__(self, settings: Settings, log_path: Path, log_level: str = "INFO") -> None:
        self.settings = settings
        self.log_path = log_path
        env = {k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIX)}
        env.update(settings_env(settings))
        # the child must import this very checkout, installed or not
        root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        with log_path.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "worker", "--log-level", log_level, "run"],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                # own session: Ctrl-C reaches the demo, which then stops the worker before the broker
                start_new_session=True,
                preexec_fn=die_with_parent(),
            )
        log.info("worker pid %s started (log %s)", self.proc.pid, log_path)

    def alive(self) -> bool:
        return self.proc.poll() is None

    async def wait_ready(self, timeout_s: float = 60.0) -> None:
        """Until /readyz says 200 (partitions assigned, brokers reachable); needs a metrics port."""
        url = f"http://127.0.0.1:{self.settings.metrics_port}/readyz"
        deadline = time.monotonic() + timeout_s
        while True:
            if not self.alive():
                raise RuntimeError(f"the worker exited (rc {self.proc.returncode}):\n{self.tail()}")
            if await asyncio.to_thread(_http_ok, url):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the worker was not ready after {timeout_s:.0f}s:\n{self.tail()}")
            await asyncio.sleep(0.1)

    async def acked_outputs(self) -> int | None:
        """Pages whose output the worker saw acked (its cleanstream_pages_total); None if unreadable.

        Cheaper than watching the output topics while measuring: a consumer waiting in fetch makes
        the Tansu broker burn CPU (about 2.7 CPU-s per 1000 pages at fetch_max_wait_ms=20, measured).
        """
        url = f"http://127.0.0.1:{self.settings.metrics_port}/metrics"
        text = await asyncio.to_thread(_http_text, url)
        return None if text is None else acked_in_metrics(text)

    async def wait_acked(self, total: int, timeout_s: float) -> bool:
        """Poll /metrics until `total` outputs were acked; False on timeout. Raises if the worker died.

        A scrape costs the worker ~2 ms of CPU (measured over 100 scrapes after a drain), which a
        benchmark counts as the worker's: instead of every POLL_MIN_S, the poll waits for half the
        time the acked count so far says is left (at least POLL_MIN_S): ~7 scrapes instead of ~25 in
        a 12 s drain."""
        deadline = time.monotonic() + timeout_s
        first: tuple[float, int] | None = None  # the first poll that saw outputs: the rate is taken from it
        while True:
            if not self.alive():
                raise RuntimeError(f"the worker exited (rc {self.proc.returncode}):\n{self.tail()}")
            done = await self.acked_outputs()
            now = time.monotonic()
            if done is not None and done >= total:
                return True
            if now >= deadline:
                return False
            wait = POLL_MIN_S
            if done:
                if first is None:
                    first = (now, done)
                elif done > first[1]:
                    left = (total - done) * (now - first[0]) / (done - first[1])
                    wait = min(POLL_MAX_S, max(POLL_MIN_S, left / 2))
            await asyncio.sleep(min(wait, max(0.0, deadline - now)))

    def cpu_seconds(self) -> float | None:
        """User + system CPU of the worker so far (Linux /proc; None elsewhere or after exit)."""
        return process_cpu_seconds(self.proc.pid)

    def cleaner_cpu_seconds(self) -> float | None:
        """CPU of its cleaning processes so far (the running ones: a replaced one takes its time along)."""
        times = [process_cpu_seconds(pid) for pid in child_pids(self.proc.pid)]
        return sum(t for t in times if t is not None) if times else None

    def tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, grace_s: float | None = None) -> int:
        """SIGTERM (the worker drains), then SIGKILL after the drain grace plus a margin."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(grace_s if grace_s is not None else self.settings.drain_grace_s + 5.0)
            except subprocess.TimeoutExpired:
                log.warning("worker pid %s did not stop in time; killing it", self.proc.pid)
                self.proc.kill()
                self.proc.wait(5.0)
        return self.proc.returncode


def acked_in_metrics(text: str) -> int:
    """Sum of cleanstream_pages_total over its outcomes in a Prometheus text exposition."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(ACKED_METRIC):
            total += float(line.rsplit(" ", 1)[1])
    return int(total)


def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/PID/stat after the command name (Linux; None elsewhere or after it exited)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def process_cpu_seconds(pid: int) -> float | None:
    """User + system CPU of process `pid` so far (Linux /proc; None elsewhere or after it exited)."""
    fields = _stat(pid)
    if fields is None:
        return None
    # fields[11] and [12] are utime and stime (fields 14 and 15 of proc(5), counted after the name)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def child_pids(pid: int) -> list[int]:
    """Running children of process `pid` (the worker's cleaning processes), by /proc scan."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            # fields[1] is the parent pid (field 4 of proc(5))
            if fields is not None and int(fields[1]) == pid:
                children.append(int(entry.name))
    return sorted(children)


def _http_text(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as response:
            return str(response.read().decode("utf-8", "replace"))
    except (OSError, ValueError):
        return None


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2.0) as response:
            return bool(response.status == 200)
    except (OSError, ValueError):
        return False


@dataclass
class Seen:
    """What came out of the pipeline so far."""

    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    doc_timestamps: dict[str, int] = field(default_factory=dict)
    dead_letters: Counter[str] = field(default_factory=Counter)
    dead_ids: set[str] = field(default_factory=set)
    duplicates: int = 0
    order: list[str] = field(default_factory=list)

    @property
    def done(self) -> int:
        return len(self.documents) + len(self.dead_ids)


class OutputWatcher:
    """Reads the output and dead-letter topics from the beginning, without a consumer group.

    Partitions are assigned directly: no group join, so no Tansu join delay and no committed offsets
    left behind.
    """

    def __init__(self, settings: Settings, keep_documents: bool = True) -> None:
        self.settings = settings
        self.seen = Seen()
        # without documents, ids and reasons come from record headers and values are never parsed
        self.keep_documents = keep_documents
        self._consumer: Any = None

    async def start(self) -> None:
        from aiokafka import AIOKafkaConsumer, TopicPartition

        consumer = AIOKafkaConsumer(
            **security_config(self.settings),
            client_id=self.settings.client_id + "-watcher",
            group_id=None,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            fetch_max_wait_ms=20,
            max_partition_fetch_bytes=self.settings.max_partition_fetch_bytes,
        )
        await consumer.start()
        await consumer.topics()  # a metadata refresh, so partitions_for_topic knows the new topics
        partitions = []
        for topic in (self.settings.output_topic, self.settings.dead_letter_topic):
            ids = consumer.partitions_for_topic(topic)
            if not ids:
                await consumer.stop()
                raise RuntimeError(f"topic {topic} does not exist; create the pipeline topics first")
            partitions += [TopicPartition(topic, p) for p in sorted(ids)]
        consumer.assign(partitions)
        await consumer.seek_to_beginning(*partitions)
        self._consumer = consumer

    async def poll(self, timeout_ms: int = 200) -> int:
        """Take whatever arrived; returns the number of new records."""
        batches = await self._consumer.getmany(timeout_ms=timeout_ms)
        n = 0
        for tp, records in batches.items():
            for record in records:
                n += 1
                self._take(tp.topic, record)
        return n

    def _take(self, topic: str, record: Any) -> None:
        if not self.keep_documents and self._take_headers(topic, record):
            return
        try:
            msg = orjson.loads(record.value)
        except orjson.JSONDecodeError:
            log.warning("unreadable record at %s:%s:%s", topic, record.partition, record.offset)
            return
        seen = self.seen
        if topic == self.settings.output_topic:
            doc_id = str(msg.get("id"))
            if doc_id in seen.documents:
                seen.duplicates += 1
                return
            seen.documents[doc_id] = msg
            seen.doc_timestamps[doc_id] = record.timestamp
            seen.order.append(doc_id)
        else:
            # a record too broken to name its page is identified by where it came from
            src = msg.get("source") or {}
            page_id = str(
                msg.get("page_id") or f"{src.get('topic')}:{src.get('partition')}:{src.get('offset')}"
            )
            if page_id in seen.dead_ids:
                seen.duplicates += 1
                return
            seen.dead_ids.add(page_id)
            seen.dead_letters[str(msg.get("reason"))] += 1

    def _take_headers(self, topic: str, record: Any) -> bool:
        headers = dict(record.headers or ())
        if "id" not in headers:
            return False
        page_id = headers["id"].decode("utf-8", "replace")
        seen = self.seen
        if topic == self.settings.output_topic:
            if page_id in seen.doc_timestamps:
                seen.duplicates += 1
            else:
                seen.documents[page_id] = {}
                seen.doc_timestamps[page_id] = record.timestamp
                seen.order.append(page_id)
        elif page_id in seen.dead_ids:
            seen.duplicates += 1
        else:
            seen.dead_ids.add(page_id)
            seen.dead_letters[headers.get("reason", b"?").decode("utf-8", "replace")] += 1
        return True

    async def wait_for(self, total: int, timeout_s: float, worker: WorkerProcess | None = None) -> bool:
        """Poll until `total` distinct pages came out (documents + dead letters) or the timeout."""
        deadline = time.monotonic() + timeout_s
        while self.seen.done < total:
            if time.monotonic() > deadline:
                return False
            if worker is not None and not worker.alive():
                raise RuntimeError(f"the worker exited (rc {worker.proc.returncode}):\n{worker.tail()}")
            await self.poll()
        return True

    async def stop(self) -> None:
        if self._consumer is not None:
            await self._consumer.stop()
            self._consumer = None
