"""Shared helpers of the worker integration tests: fixture pages, produce, collect, offsets, subprocesses."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.conftest import MakeTopic
from worker.messages import page_to_record
from worker.models import Page
from worker.settings import ENV_PREFIX, Settings

REPO = Path(__file__).resolve().parents[2]
Record = tuple[bytes | None, bytes, list[tuple[str, bytes]]]

SITES = ("example.com", "news.example.org", "blog.example.net")


def article_html(i: int) -> str:
    return (
        f"<html><head><title>Story {i}</title></head><body>"
        "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/about'>About</a></nav>"
        f"<article><h1>Story {i} headline</h1>"
        f"<p>This is the first paragraph of story number {i}, with enough words in it to count as the real "
        "content of the page for a density based extractor that looks at text and links.</p>"
        "<p>A second paragraph continues the story with more sentences. It says what happened, who was "
        "there and why it matters to the people who read this page.</p></article>"
        "<footer>Copyright 2024 Example Corp. All rights reserved.</footer></body></html>"
    )


def good_page(i: int) -> Page:
    site = SITES[i % len(SITES)]
    return Page(
        id=f"page-{i}",
        html=article_html(i),
        url=f"https://www.{site}/story/{i}",
        site=site,
        fetched_at="2024-05-01T12:00:00Z",
        status=200,
    )


def good_records(n: int, start: int = 0) -> list[Record]:
    return [page_to_record(good_page(i), as_headers=(i % 2 == 1)) for i in range(start, start + n)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def free_port_pair() -> int:
    """A port P such that P and P + 1 are both free right now."""
    for _ in range(50):
        port = free_port()
        try:
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", port + 1))
        except OSError:
            continue
        return port
    raise RuntimeError("no two adjacent free ports")


def worker_settings(broker: str, group: str, pages: str, docs: str, dead: str, **overrides: Any) -> Settings:
    """Settings tuned for Tansu in tests: short sessions, short fetch waits, frequent commits."""
    values: dict[str, Any] = {
        "bootstrap_servers": broker,
        "group_id": group,
        "input_topic": pages,
        "output_topic": docs,
        "dead_letter_topic": dead,
        "session_timeout_ms": 3000,
        "heartbeat_interval_ms": 500,
        "fetch_max_wait_ms": 50,
        "commit_interval_ms": 200,
        "metrics_port": 0,
        "drain_grace_s": 10.0,
        "no_templates": True,
        "compression_type": "none",
    }
    values.update(overrides)
    return Settings(**values)


def settings_env(settings: Settings) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(ENV_PREFIX)}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        env[ENV_PREFIX + f.name.upper()] = str(value).lower() if isinstance(value, bool) else str(value)
    return env


def spawn_worker(
    settings: Settings, log_path: Path, *extra: str, marked_pages: bool = False
) -> subprocess.Popen[bytes]:
    """`python -m worker run` configured only through CLEANSTREAM_* env vars (the deployment contract).

    With `marked_pages`, its cleaning processes hang or allocate on marked pages (tests/slowpages.py)."""
    entry = ["tests.slowpages", "worker"] if marked_pages else ["worker"]
    with log_path.open("ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", *entry, "--log-level", "INFO", "run", *extra],
            cwd=REPO,
            env=settings_env(settings),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


async def produce(
    broker: str, topic: str, records: Iterable[Record], partition: int | None = None
) -> list[tuple[int, int]]:
    """Produce and wait for every ack; returns (partition, offset) of each record in order."""
    producer = AIOKafkaProducer(bootstrap_servers=broker, acks="all", max_request_size=8 * 1024 * 1024)
    await producer.start()
    try:
        futures = []
        for key, value, headers in records:
            futures.append(await producer.send(topic, value, key=key, headers=headers, partition=partition))
        metas = await asyncio.gather(*futures)
    finally:
        await producer.stop()
    return [(m.partition, m.offset) for m in metas]


@dataclasses.dataclass
class Got:
    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes
    headers: list[tuple[str, bytes]]
    timestamp: int = -1  # CreateTime (ms) set by the worker's producer

    def json(self) -> Any:
        return orjson.loads(self.value)


async def collect(broker: str, topics: Sequence[str], expected: int, within: float = 30.0) -> list[Got]:
    """Read the topics from the beginning (no group) until `expected` records arrived or the time is up."""
    consumer = AIOKafkaConsumer(bootstrap_servers=broker, group_id=None, fetch_max_wait_ms=50)
    await consumer.start()
    got: list[Got] = []
    try:
        tps = []
        for topic in topics:
            parts: set[int] | None = None
            for _ in range(50):
                parts = consumer.partitions_for_topic(topic)
                if parts:
                    break
                await consumer._client.force_metadata_update()  # topic made by the worker a moment ago
                await asyncio.sleep(0.1)
            tps += [TopicPartition(topic, p) for p in sorted(parts or ())]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        deadline = time.monotonic() + within
        while len(got) < expected and time.monotonic() < deadline:
            batch = await consumer.getmany(timeout_ms=200)
            for recs in batch.values():
                got += [
                    Got(r.topic, r.partition, r.offset, r.key, r.value, list(r.headers), r.timestamp)
                    for r in recs
                ]
        # A short grace read catches outputs beyond `expected` (duplicates or strays) that a test may check.
        batch = await consumer.getmany(timeout_ms=300)
        for recs in batch.values():
            got += [
                Got(r.topic, r.partition, r.offset, r.key, r.value, list(r.headers), r.timestamp)
                for r in recs
            ]
    finally:
        await consumer.stop()
    return got


async def committed(broker: str, group: str, topic: str, partitions: int) -> dict[int, int]:
    """Committed offsets of `group` (partitions listed explicitly: Tansu breaks the no-partition form)."""
    admin = AIOKafkaAdminClient(bootstrap_servers=broker)
    await admin.start()
    try:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        result = await admin.list_consumer_group_offsets(group, partitions=tps)
    finally:
        await admin.close()
    # -1 means "nothing committed", which for an empty partition is the same as 0.
    return {tp.partition: max(meta.offset, 0) for tp, meta in result.items()}


async def highwaters(broker: str, topic: str, partitions: int) -> dict[int, int]:
    """True log-end offsets from fetch high watermarks (Tansu's end_offsets() is wrong)."""
    consumer = AIOKafkaConsumer(bootstrap_servers=broker, group_id=None, fetch_max_wait_ms=50)
    await consumer.start()
    try:
        tps = [TopicPartition(topic, p) for p in range(partitions)]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        marks: dict[int, int] = {}
        deadline = time.monotonic() + 10
        while len(marks) < partitions and time.monotonic() < deadline:
            await consumer.getmany(timeout_ms=100, max_records=1)
            for tp in tps:
                high = consumer.highwater(tp)
                if high is not None:
                    marks[tp.partition] = high
    finally:
        await consumer.stop()
    return marks


def ids_of(records: Iterable[Got]) -> list[str]:
    out = []
    for r in records:
        msg = r.json()
        out.append(msg["id"] if "id" in msg else msg["page_id"])
    return out


def source_of(record: Got) -> tuple[int, int]:
    """(partition, offset) of the input a document or dead letter came from."""
    src = record.json()["source"]
    return src["partition"], src["offset"]


class Tail:
    """Follows output topics from the beginning in the background; `got` grows as records arrive."""

    def __init__(self, broker: str, topics: Sequence[str]) -> None:
        self.broker = broker
        self.topics = topics
        self.got: list[Got] = []
        self.ids: list[str] = []
        self._consumer: AIOKafkaConsumer | None = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Tail:
        consumer = AIOKafkaConsumer(bootstrap_servers=self.broker, group_id=None, fetch_max_wait_ms=50)
        await consumer.start()
        tps = []
        for topic in self.topics:
            parts = consumer.partitions_for_topic(topic) or set()
            assert parts, f"create {topic} before tailing it"
            tps += [TopicPartition(topic, p) for p in sorted(parts)]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        self._consumer = consumer
        self._task = asyncio.create_task(self._follow())
        return self

    async def _follow(self) -> None:
        assert self._consumer is not None
        while True:
            batch = await self._consumer.getmany(timeout_ms=100)
            for recs in batch.values():
                for r in recs:
                    got = Got(r.topic, r.partition, r.offset, r.key, r.value, list(r.headers), r.timestamp)
                    self.got.append(got)
                    self.ids.append(ids_of([got])[0])

    async def wait_for(self, done: Any, within: float) -> bool:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if done():
                return True
            assert self._task is not None
            assert not self._task.done(), "tail stopped"
            await asyncio.sleep(0.05)
        return bool(done())

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._consumer is not None:
            await self._consumer.stop()


async def wait_exit(proc: subprocess.Popen[bytes], within: float) -> int | None:
    """The subprocess's return code, or None if it is still running after `within` s (then it is killed)."""
    try:
        return await asyncio.to_thread(proc.wait, within)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return None


async def pipeline_topics(make_topic: MakeTopic, partitions: int = 2) -> tuple[str, str, str]:
    """Fresh (pages, documents, dead letters) topics for one test; `partitions` is the pages topic's."""
    return (
        await make_topic("pages", partitions=partitions),
        await make_topic("documents", partitions=2),
        await make_topic("dead", partitions=1),
    )


def scrape(text: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """A /metrics page as {sample name: {sorted labels: value}}."""
    out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return out
