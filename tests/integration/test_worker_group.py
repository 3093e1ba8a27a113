"""A group of workers: `run --processes 2` (one member, two cleaning processes), and members joining."""

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
    free_port,
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
from worker.stream.local import child_pids, process_cpu_seconds

pytestmark = pytest.mark.broker


async def _get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    try:
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=2)) as resp:
            return resp.status, await resp.text()
    except (aiohttp.ClientError, TimeoutError):
        return 0, ""


async def test_two_cleaning_processes_share_the_partitions_behind_one_endpoint(
    broker: str, make_topic: MakeTopic, group_id: str, tmp_path: Path
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic, partitions=4)
    port = free_port()
    settings = worker_settings(broker, group_id, pages, docs, dead, metrics_port=port)
    log = tmp_path / "worker.log"
    parent = spawn_worker(settings, log, "--processes", "2")
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if (await _get(session, url + "/readyz"))[0] == 200:
                    break
                await asyncio.sleep(0.2)
            assert (await _get(session, url + "/readyz"))[0] == 200, log.read_text()[-3000:]
            children = child_pids(parent.pid)
            assert len(children) == 2, children
            cpu_before = [process_cpu_seconds(pid) or 0.0 for pid in children]
            n = 400
            records = good_records(n)
            for partition in range(4):  # every partition gets pages, whatever the keys hash to
                await produce(broker, pages, records[partition::4], partition=partition)
            async with Tail(broker, [docs]) as tail:
                assert await tail.wait_for(lambda: len(set(tail.ids)) >= n, within=60), log.read_text()[
                    -3000:
                ]
            cpu_after = [process_cpu_seconds(pid) or 0.0 for pid in children]
            await asyncio.sleep(1.2)  # one lag refresh
            samples = scrape((await _get(session, url + "/metrics"))[1])
    finally:
        parent.send_signal(signal.SIGTERM)
        rc = await wait_exit(parent, settings.drain_grace_s + 10)
    assert rc == 0, log.read_text()[-3000:]
    # one scrape target for the pod: the member serves what both processes cleaned
    assert samples["cleanstream_pages_total"][(("outcome", "document"),)] == n
    assert samples["cleanstream_page_seconds_count"][()] == n
    assert samples["cleanstream_cleaning_processes"][()] == 2
    assert {int(dict(k)["partition"]) for k in samples["cleanstream_consumer_lag"]} == {0, 1, 2, 3}
    # both processes cleaned (the partitions' sites were placed on both): each used CPU for its share
    used = [after - before for before, after in zip(cpu_before, cpu_after, strict=True)]
    assert min(used) > 0.2 * max(used), used
    # each site's pages of a partition came out in their input order, though two processes cleaned them
    offsets: dict[tuple[int, bytes | None], list[int]] = {}
    for got in tail.got:
        partition, offset = source_of(got)
        offsets.setdefault((partition, got.key), []).append(offset)
    assert len(offsets) == 4 * 3  # every site in every partition
    assert all(seen == sorted(seen) for seen in offsets.values()), offsets
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
