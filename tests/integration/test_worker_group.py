"""`run --processes 2`: two independent group members in one container split the partitions and both work."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import aiohttp
import pytest

from tests.integration.conftest import MakeTopic
from tests.integration.test_worker_pipeline import running
from tests.integration.workerkit import (
    Tail,
    committed,
    free_port_pair,
    good_records,
    highwaters,
    pipeline_topics,
    produce,
    scrape,
    source_of,
    spawn_worker,
    wait_exit,
    worker_settings,
)

pytestmark = pytest.mark.broker


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    try:
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=2)) as resp:
            return resp.status, await resp.text()
    except (aiohttp.ClientError, TimeoutError):
        return 0, ""


async def test_two_processes_split_partitions_and_both_produce(
    broker: str, make_topic: MakeTopic, group_id: str, tmp_path: Path
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic, partitions=4)
    port = free_port_pair()  # children serve on port and port + 1
    settings = worker_settings(broker, group_id, pages, docs, dead, metrics_port=port)
    log = tmp_path / "workers.log"
    parent = spawn_worker(settings, log, "--processes", "2")
    urls = [f"http://127.0.0.1:{port + i}" for i in range(2)]
    try:
        async with aiohttp.ClientSession() as session:
            # Wait until both members own partitions, so the split is settled before any page arrives.
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                states = [await _get(session, u + "/readyz") for u in urls]
                if all(status == 200 for status, _ in states):
                    break
                await asyncio.sleep(0.2)
            assert all(status == 200 for status, _ in states), (states, log.read_text()[-3000:])
            n = 200
            records = good_records(n)
            for partition in range(4):  # every partition gets pages, whatever the keys hash to
                await produce(broker, pages, records[partition::4], partition=partition)
            async with Tail(broker, [docs]) as tail:
                assert await tail.wait_for(lambda: len(set(tail.ids)) >= n, within=30), log.read_text()[
                    -3000:
                ]
            owned: list[set[int]] = []
            produced: list[float] = []
            await asyncio.sleep(1.2)  # one lag refresh
            for url in urls:
                _, text = await _get(session, url + "/metrics")
                samples = scrape(text)
                produced.append(
                    samples.get("cleanstream_pages_total", {}).get((("outcome", "document"),), 0.0)
                )
                owned.append({int(dict(k)["partition"]) for k in samples.get("cleanstream_consumer_lag", {})})
    finally:
        parent.send_signal(signal.SIGTERM)
        rc = await wait_exit(parent, settings.drain_grace_s + 10)
    assert rc == 0, log.read_text()[-3000:]
    assert all(p > 0 for p in produced), produced
    assert sum(produced) == n  # no rebalance during the run, so no duplicates either
    assert owned[0]
    assert owned[1]
    assert not owned[0] & owned[1]
    assert owned[0] | owned[1] == {0, 1, 2, 3}
    by_partition: dict[int, int] = {}
    for record in tail.got:
        partition, _ = source_of(record)
        by_partition[partition] = by_partition.get(partition, 0) + 1
    for member, parts in enumerate(owned):
        assert produced[member] == sum(by_partition.get(p, 0) for p in parts)
    assert await committed(broker, group_id, pages, 4) == await highwaters(broker, pages, 4)


async def test_member_joining_mid_stream_takes_over_without_losses(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    """A rebalance while pages are in flight: the revoke path flushes and commits, the new owner resumes."""
    pages, docs, dead = await pipeline_topics(make_topic, partitions=4)

    async def feed(start: int, n: int) -> int:
        records = good_records(n, start)
        for partition in range(4):  # every partition gets pages, whatever the keys hash to
            await produce(broker, pages, records[partition::4], partition=partition)
        return start + n

    total = await feed(0, 800)
    settings = worker_settings(broker, group_id, pages, docs, dead, linger_ms=50)
    async with Tail(broker, [docs]) as tail, running(settings) as first:
        assert await tail.wait_for(lambda: len(tail.got) >= 150, within=30)
        async with running(settings) as second:
            # Keep pages coming through the rebalance until the newcomer has produced some.
            deadline = time.monotonic() + 30
            while second.metrics.pages.labels("document")._value.get() == 0 and time.monotonic() < deadline:
                total = await feed(total, 100)
                await asyncio.sleep(0.1)
            assert await tail.wait_for(lambda: len(set(tail.ids)) >= total, within=60)
            await asyncio.sleep(0.5)  # a commit interval, so both members commit their tails
            produced = [w.metrics.pages.labels("document")._value.get() for w in (first, second)]
            rebalances = first.metrics.rebalances._value.get()
    assert set(tail.ids) == {f"page-{i}" for i in range(total)}
    assert produced[1] > 0, produced  # the newcomer got partitions and worked them
    assert produced[0] > 150
    assert rebalances >= 2  # the first member was revoked and re-assigned
    assert sum(produced) >= total  # re-processing after the revoke is allowed, losses are not
    assert await committed(broker, group_id, pages, 4) == await highwaters(broker, pages, 4)
