"""The broker goes away and comes back (issue 9 item 7), with brokers of this test's own.

No broker at start-up: the worker retries with backoff and is not ready; once a broker listens it
connects. The broker stops: /readyz turns 503 (liveness stays 200). A new, empty broker takes the
port (Tansu keeps everything in RAM, so its logs start again at offset 0): every new page is cleaned.
Too long without a broker: exit 1. Committed offsets beyond the log end (what a broker that lost its
log leaves behind when a member commits its old position to it) are reset per auto_offset_reset with
a WARNING and a counter: Tansu answers such fetches with nothing at all, not OffsetOutOfRange.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition

from tests.integration.conftest import MakeTopic
from tests.integration.test_worker_pipeline import running
from tests.integration.workerkit import (
    Tail,
    committed,
    free_port,
    good_records,
    pipeline_topics,
    produce,
    scrape,
    spawn_worker,
    wait_exit,
    worker_settings,
)
from worker.stream.broker import BrokerProcess, TopicSpec, create_topics, start_broker

pytestmark = pytest.mark.broker

PAGES, DOCS, DEAD = "pages", "documents", "pages.dead"


async def status(session: aiohttp.ClientSession, url: str) -> int:
    try:
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=2)) as resp:
            return resp.status
    except (aiohttp.ClientError, TimeoutError):
        return 0


async def until(check: Callable[[], Awaitable[bool]], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not await check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.2)


async def fresh_broker(port: int, log_dir: Path) -> BrokerProcess:
    broker = await asyncio.to_thread(start_broker, log_dir, port)
    await create_topics(broker.bootstrap, [TopicSpec(PAGES, 2), TopicSpec(DOCS, 2), TopicSpec(DEAD, 1)])
    return broker


async def test_broker_absent_then_lost_then_back_empty(tmp_path: Path) -> None:
    port, metrics_port = free_port(), free_port()
    bootstrap = f"127.0.0.1:{port}"
    settings = worker_settings(bootstrap, "outage", PAGES, DOCS, DEAD, metrics_port=metrics_port)
    log = tmp_path / "worker.log"
    base = f"http://127.0.0.1:{metrics_port}"
    worker = spawn_worker(settings, log)
    broker: BrokerProcess | None = None
    try:
        async with aiohttp.ClientSession() as http:
            await until(lambda: _is(http, base + "/healthz", 200), 30, "the probe server did not come up")
            assert await status(http, base + "/readyz") == 503  # no broker yet
            await asyncio.sleep(2.0)  # a few retries
            assert worker.poll() is None, log.read_text()[-3000:]
            broker = await fresh_broker(port, tmp_path)
            await produce(bootstrap, PAGES, good_records(20))
            async with Tail(bootstrap, [DOCS]) as tail:
                assert await tail.wait_for(lambda: len(set(tail.ids)) >= 20, within=60), log.read_text()[
                    -3000:
                ]
            await until(lambda: _is(http, base + "/readyz", 200), 30, "not ready with a broker")
            await asyncio.sleep(1.0)  # a commit interval

            broker.stop()
            await until(lambda: _is(http, base + "/readyz", 503), 15, "/readyz stayed 200 without a broker")
            assert await status(http, base + "/healthz") == 200  # alive: nothing to restart for

            broker = await fresh_broker(port, tmp_path)  # empty: its logs start again at 0
            await produce(bootstrap, PAGES, good_records(6, start=100), partition=0)
            await produce(bootstrap, PAGES, good_records(6, start=200), partition=1)
            expected = {f"page-{i}" for i in (*range(100, 106), *range(200, 206))}
            async with Tail(bootstrap, [DOCS]) as tail:
                done = await tail.wait_for(lambda: expected <= set(tail.ids), within=90)
            assert done, log.read_text()[-5000:]
            await until(lambda: _is(http, base + "/readyz", 200), 30, "not ready after the broker came back")
            async with http.get(base + "/metrics") as resp:
                samples = scrape(await resp.text())
    finally:
        worker.send_signal(signal.SIGTERM)
        rc = await wait_exit(worker, settings.drain_grace_s + 10)
        if broker is not None:
            broker.stop()
    assert rc == 0, log.read_text()[-3000:]
    assert samples["cleanstream_broker_connected"][()] == 1
    assert "brokers reachable again" in log.read_text()


async def _is(http: aiohttp.ClientSession, url: str, code: int) -> bool:
    return await status(http, url) == code


async def test_no_broker_for_longer_than_broker_wait_s_exits_1(tmp_path: Path) -> None:
    settings = worker_settings(f"127.0.0.1:{free_port()}", "nobody", PAGES, DOCS, DEAD, broker_wait_s=3.0)
    log = tmp_path / "worker.log"
    started = time.monotonic()
    rc = await wait_exit(spawn_worker(settings, log), 60)
    took = time.monotonic() - started
    assert rc == 1, log.read_text()[-3000:]
    assert 2.5 < took < 30, took
    text = log.read_text()
    assert "retrying in" in text
    assert "unreachable for 3s" in text


async def commit_beyond_the_end(broker: str, group: str, topic: str, offsets: dict[int, int]) -> None:
    consumer = AIOKafkaConsumer(bootstrap_servers=broker, group_id=group, enable_auto_commit=False)
    await consumer.start()
    try:
        tps = {TopicPartition(topic, p): o for p, o in offsets.items()}
        consumer.assign(list(tps))
        await consumer.commit(tps)
    finally:
        await consumer.stop()


@pytest.mark.parametrize("reset", ["earliest", "latest"])
async def test_committed_offsets_beyond_the_log_end_are_reset(
    broker: str, make_topic: MakeTopic, group_id: str, reset: str
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic, partitions=2)
    for partition in range(2):
        await produce(broker, pages, good_records(5, start=10 * partition), partition=partition)
    await commit_beyond_the_end(broker, group_id, pages, {0: 40, 1: 40})
    settings = worker_settings(broker, group_id, pages, docs, dead, auto_offset_reset=reset)
    async with running(settings) as worker, Tail(broker, [docs]) as tail:
        await tail.wait_for(lambda: worker.metrics.offset_resets._value.get() >= 2, within=30)
        resets = worker.metrics.offset_resets._value.get()
        later = good_records(2, start=100)
        for partition in range(2):
            await produce(broker, pages, [later[partition]], partition=partition)
        expected = {"page-100", "page-101"}
        if reset == "earliest":
            expected |= {f"page-{i}" for i in (*range(5), *range(10, 15))}
        done = await tail.wait_for(lambda: expected <= set(tail.ids), within=30)
        await asyncio.sleep(0.5)
    assert resets == 2
    assert done, sorted(tail.ids)
    assert set(tail.ids) == expected  # latest: the pages already there are skipped, as asked
    assert await committed(broker, group_id, pages, 2) == {0: 6, 1: 6}
