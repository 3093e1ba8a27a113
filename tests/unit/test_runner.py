"""The runner's own logic against fakes (tests/unit/fakekafka.py): milliseconds per case, no broker.

Ack and commit failures, backpressure, held partitions, restore timeouts, cleaning processes that die
or hang, shutdown during a stuck page, broker retries and readiness, positions beyond the log end.
Kafka's behaviour itself is covered against the real broker in tests/integration.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import Counter
from typing import Any

import orjson
import pytest
from prometheus_client import CollectorRegistry

from tests.unit.fakekafka import Fakes, fake_launcher, fakes, wait_until
from worker.metrics import create_metrics
from worker.settings import Settings
from worker.stream import pool as pool_mod
from worker.stream import runner as runner_mod
from worker.stream.runner import Worker

SETTINGS = Settings(
    input_topic="pages",
    output_topic="docs",
    dead_letter_topic="dead",
    changelog_topic="cl",
    commit_interval_ms=10,
    time_budget_ms=100.0,
    page_deadline_s=0.3,
    drain_grace_s=1.0,
    metrics_port=0,
    max_inflight=1000,
    snapshot_every_pages=2,
)


def make(f: Fakes, **overrides: Any) -> Worker:
    settings = dataclasses.replace(SETTINGS, **overrides)
    metrics = create_metrics(CollectorRegistry(), process_info=False)
    return Worker(settings, metrics, clients=f.clients(), launcher=fake_launcher(settings, f.behaviour))


async def stop(worker: Worker, task: asyncio.Task[int]) -> int:
    worker.request_stop()
    return await asyncio.wait_for(task, 5)


async def run_until_committed(f: Fakes, committed: dict[int, int], **overrides: Any) -> Worker:
    """Run a worker until `committed` is what the broker holds, then stop it (it must drain cleanly)."""
    worker = make(f, **overrides)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: f.broker.committed == committed)
    assert await stop(worker, task) == 0
    return worker


def value(metric: Any, *labels: str) -> float:
    child = metric.labels(*labels) if labels else metric
    return float(child._value.get())


def dead_reasons(f: Fakes) -> Counter[str]:
    return Counter(h["reason"].decode() for h in f.broker.outputs("dead"))


async def test_every_page_comes_out_once_in_order_and_is_committed() -> None:
    f = fakes()
    f.broker.add_pages(0, range(10))
    f.broker.add_pages(1, range(10, 20))
    worker = await run_until_committed(f, {0: 10, 1: 10}, processes=2)
    ids = f.broker.output_ids("docs")
    assert sorted(ids) == sorted(f"p{i}" for i in range(20))
    assert [i for i in ids if int(i[1:]) < 10] == [f"p{i}" for i in range(10)]  # partition order kept
    assert value(worker.metrics.pages, "document") == 20
    assert worker.metrics.page_seconds._sum.get() > 0  # the processes' own timings arrive
    assert worker.pool.parts == {}  # released at stop
    snapshots = [(p, k) for t, p, k, _, _ in f.broker.produced if t == "cl"]
    assert snapshots
    assert {p for p, _ in snapshots} <= {0, 1}


async def test_an_output_that_is_not_acked_stops_the_worker_and_is_never_committed() -> None:
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(6))
    f.producer.fail_ack = lambda topic, headers: headers.get("id") == b"p3"
    worker = make(f)
    rc = await asyncio.wait_for(worker.run(), 5)
    assert rc == 1
    assert worker.failure is not None
    assert "not acked" in worker.failure
    assert f.broker.committed.get(0, 0) <= 3  # nothing at or after the unacked page
    assert value(worker.metrics.produce_errors) == 1


async def test_failed_commits_are_retried_and_lose_nothing() -> None:
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(8))
    f.consumer.commit_failures = 3
    await run_until_committed(f, {0: 8})
    assert f.consumer.commit_failures == 0
    assert sorted(f.broker.output_ids("docs")) == sorted(f"p{i}" for i in range(8))


async def test_backpressure_pauses_every_partition_until_half_the_outputs_are_acked() -> None:
    f = fakes()
    f.broker.add_pages(0, range(12))
    f.broker.add_pages(1, range(12, 24))
    f.producer.hold = True
    worker = make(f, max_inflight=6)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: value(worker.metrics.backpressure_pauses) == 1)
    taken = dict(f.consumer.positions)
    await asyncio.sleep(0.05)
    assert f.consumer.positions == taken  # nothing more taken from any partition
    assert value(worker.metrics.paused_partitions) == 2
    # handing pages out stopped too: what the process held when it began still comes out
    assert 6 <= len(f.broker.output_ids("docs")) <= 6 + pool_mod.QUEUE_PAGES
    f.producer.hold = False
    f.producer.release()
    await wait_until(lambda: f.broker.committed == {0: 12, 1: 12})
    assert await stop(worker, task) == 0
    assert sorted(f.broker.output_ids("docs")) == sorted(f"p{i}" for i in range(24))


async def test_partitions_are_held_until_their_site_memory_is_restored() -> None:
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(4))
    f.snapshots.block = asyncio.Event()
    worker = make(f)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: f.snapshots.reads == [[0]])
    await asyncio.sleep(0.05)
    assert f.broker.produced == []  # nothing cleaned while the restore runs
    assert set(f.consumer.positions.values()) == {0}  # nor taken from the consumer
    f.snapshots.block.set()
    await wait_until(lambda: f.broker.committed == {0: 4})
    assert await stop(worker, task) == 0


async def test_a_restore_that_times_out_starts_the_partition_without_snapshots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner_mod, "RESTORE_TIMEOUT_S", 0.05)
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(3))
    f.snapshots.block = asyncio.Event()  # never set: the reader hangs
    await run_until_committed(f, {0: 3})


async def test_a_page_that_kills_its_process_once_is_cleaned_by_the_next_one() -> None:
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(5))
    f.behaviour.die[(0, 2)] = 1
    worker = await run_until_committed(f, {0: 5})
    assert f.broker.output_ids("docs") == [f"p{i}" for i in range(5)]  # once each, in order
    assert value(worker.metrics.cleaner_restarts, "crash") == 1
    assert f.behaviour.launched == 2
    assert f.snapshots.reads == [[0], [0]]  # the new process got the partition's memory back


async def test_a_page_that_kills_two_processes_is_dead_lettered_once() -> None:
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(5))
    f.behaviour.die[(0, 2)] = 5
    worker = await run_until_committed(f, {0: 5})
    assert f.broker.output_ids("docs") == ["p0", "p1", "p3", "p4"]
    assert dead_reasons(f) == {"internal_error": 1}
    assert f.broker.output_ids("dead") == ["p2"]  # identified from the JSON envelope
    assert value(worker.metrics.cleaner_restarts, "crash") == 2


async def test_a_page_past_its_deadline_is_dead_lettered_once_and_the_rest_go_on() -> None:
    f = fakes()
    f.broker.add_pages(0, range(6))
    f.broker.add_pages(1, range(10, 16))
    f.behaviour.hang.add((0, 1))
    worker = make(f, processes=1)  # both partitions on one process: the other one's pages wait and return
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: f.broker.committed == {0: 6, 1: 6})
    assert await stop(worker, task) == 0
    docs = f.broker.output_ids("docs")
    assert Counter(docs) == Counter(f"p{i}" for i in (0, 2, 3, 4, 5, *range(10, 16)))  # none twice
    assert [d for d in docs if int(d[1:]) < 10] == ["p0", "p2", "p3", "p4", "p5"]
    assert dead_reasons(f) == {"timeout": 1}
    letter = orjson.loads(next(v for t, _, _, v, _ in f.broker.produced if t == "dead") or b"{}")
    assert (letter["page_id"], letter["source"]["offset"], letter["stage"]) == ("p1", 1, "extract")
    assert value(worker.metrics.cleaner_restarts, "deadline") == 1
    assert f.snapshots.reads == [[0, 1], [0, 1]]  # the replacement got both partitions' memory back


async def test_stop_during_a_stuck_page_ends_within_the_grace_without_committing_it() -> None:
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(5))
    f.behaviour.hang.add((0, 2))
    worker = make(f, page_deadline_s=30.0, drain_grace_s=0.5)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: f.broker.committed == {0: 2})
    loop = asyncio.get_running_loop()
    asked = loop.time()
    assert await stop(worker, task) == 0
    assert loop.time() - asked < 0.5 + 0.5  # the grace, and room for a loaded machine
    assert f.broker.committed == {0: 2}  # the stuck page and those after it are redelivered later
    assert dead_reasons(f) == {}


async def test_an_unreachable_broker_is_retried_with_backoff_then_given_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner_mod, "CONNECT_BACKOFF_S", 0.01)
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(2))
    f.producer.start_failures = 3
    await run_until_committed(f, {0: 2})

    g = fakes(partitions=1)
    g.producer.start_failures = 10**6
    gone = make(g, broker_wait_s=0.1)
    assert await asyncio.wait_for(gone.run(), 5) == 1
    assert gone.failure is not None
    assert "unreachable" in gone.failure


async def test_readiness_follows_the_connectivity_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner_mod, "PROBE_INTERVAL_S", 0.01)
    f = fakes(partitions=1)
    worker = make(f)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: worker.health.ready()[0])
    f.reachable[0] = False
    await wait_until(lambda: worker.health.ready() == (False, "brokers not reachable"))
    assert worker.health.alive()[0]  # not a reason to restart
    assert value(worker.metrics.broker_connected) == 0
    f.reachable[0] = True
    await wait_until(lambda: worker.health.ready()[0])
    assert await stop(worker, task) == 0


async def test_a_member_without_partitions_is_ready() -> None:
    """Ready means a connected group member: a pod that a rollout adds while every partition is owned
    must become ready, or the rollout (maxUnavailable 0) never goes on."""
    f = fakes(partitions=1)
    worker = make(f)
    assert worker.health.ready() == (False, "brokers not reachable")
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: worker.health.ready()[0])
    assert worker.health.assigned == 1
    await f.consumer.assign([])  # a rebalance gives the only partition to another member
    assert worker.health.ready() == (True, "ok, group member with 0 partitions")
    assert value(worker.metrics.assigned_partitions) == 0
    assert await stop(worker, task) == 0
    assert not worker.health.ready()[0]  # left the group


@pytest.mark.parametrize(("reset", "expected"), [("earliest", 0), ("latest", 3)])
async def test_a_position_beyond_the_log_end_is_reset(
    monkeypatch: pytest.MonkeyPatch, reset: str, expected: int
) -> None:
    monkeypatch.setattr(runner_mod, "LAG_REFRESH_S", 0.0)
    f = fakes(partitions=1)
    f.broker.add_pages(0, range(3))
    f.broker.committed[0] = 50  # what a broker that lost its log leaves behind
    worker = make(f, auto_offset_reset=reset)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: value(worker.metrics.offset_resets) == 1)
    await wait_until(lambda: f.consumer.positions and min(f.consumer.positions.values()) <= 3)
    f.broker.add_pages(0, [9])
    await wait_until(lambda: "p9" in f.broker.output_ids("docs"))
    assert await stop(worker, task) == 0
    assert len(f.broker.output_ids("docs")) == 4 - expected
    assert f.broker.committed == {0: 4}


async def test_a_rebalance_hands_the_site_memory_over_through_the_changelog() -> None:
    f = fakes()
    f.broker.add_pages(0, range(6))
    f.broker.add_pages(1, range(10, 16))
    worker = make(f, processes=2)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: f.broker.committed == {0: 6, 1: 6})
    await f.consumer.assign([1])  # partition 0 goes to another member
    written = {(p, k) for t, p, k, _, _ in f.broker.produced if t == "cl"}
    assert (0, b"a.example") in written  # its final snapshot went to changelog partition 0
    assert worker.pool.parts.keys() == {1}
    f.broker.add_pages(1, [16])
    await wait_until(lambda: f.broker.committed.get(1) == 7)
    assert await stop(worker, task) == 0
    assert f.snapshots.reads[-1] == [1]


async def test_partitions_sharing_a_process_take_turns() -> None:
    f = fakes()
    f.broker.add_pages(0, range(100))
    f.broker.add_pages(1, range(100, 200))
    await run_until_committed(f, {0: 100, 1: 100}, processes=1)
    first = [int(i[1:]) < 100 for i in f.broker.output_ids("docs")[:60]]
    assert min(first.count(True), first.count(False)) >= 20, first  # neither waits for the other to drain
