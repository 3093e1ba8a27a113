"""At-least-once across crashes and shutdowns: `python -m worker run` as a real subprocess.

Every input id must reach the documents or dead-letter topic (duplicates allowed, losses not), and a
SIGTERM must drain, commit exactly what was output, and exit 0 within the grace period.
"""

from __future__ import annotations

import asyncio
import dataclasses
import signal
import time
from collections import defaultdict
from pathlib import Path

import pytest

from tests import slowpages
from tests.integration.conftest import MakeTopic
from tests.integration.workerkit import (
    Record,
    Tail,
    committed,
    good_records,
    highwaters,
    pipeline_topics,
    produce,
    source_of,
    spawn_worker,
    wait_exit,
    worker_settings,
)
from worker.messages import page_to_record
from worker.models import Page

pytestmark = pytest.mark.broker

BAD_EVERY = 97  # every 97th input is broken JSON without an id: traced by topic:partition:offset


def mixed_records(n: int, start: int) -> list[Record]:
    records = good_records(n, start)
    for i in range(0, n, BAD_EVERY):
        records[i] = (None, b"{broken", [])
    return records


def expected_ids(topic: str, records: list[Record], metas: list[tuple[int, int]], start: int) -> set[str]:
    ids = set()
    for i, ((_, value, _), (partition, offset)) in enumerate(zip(records, metas, strict=True)):
        ids.add(f"{topic}:{partition}:{offset}" if value == b"{broken" else f"page-{start + i}")
    return ids


async def test_kill9_mid_batch_then_restart_loses_nothing(
    broker: str, make_topic: MakeTopic, group_id: str, tmp_path: Path
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic, partitions=4)
    first = mixed_records(2000, 0)
    expected = expected_ids(pages, first, await produce(broker, pages, first), 0)
    # Outputs linger unacked in the producer for up to 400 ms while commits run every 100 ms: committing
    # anything not yet acked would lose pages at the kill below.
    settings = worker_settings(broker, group_id, pages, docs, dead, commit_interval_ms=100, linger_ms=400)
    async with Tail(broker, [docs, dead]) as tail:
        crashed = spawn_worker(settings, tmp_path / "crashed.log")
        started = await tail.wait_for(lambda: len(tail.got) >= 50, within=30)
        crashed.send_signal(signal.SIGKILL)
        assert await wait_exit(crashed, 5) == -signal.SIGKILL
        assert started, (tmp_path / "crashed.log").read_text()[-3000:]
        outputs_at_kill = len(tail.got)
        committed_at_kill = await committed(broker, group_id, pages, 4)
        # More pages arrive while no worker runs; the restarted member must take both waves.
        second = mixed_records(200, 5000)
        expected |= expected_ids(pages, second, await produce(broker, pages, second), 5000)
        restarted = spawn_worker(settings, tmp_path / "restarted.log")
        done = await tail.wait_for(lambda: expected <= set(tail.ids), within=60)
        restarted.send_signal(signal.SIGTERM)
        rc = await wait_exit(restarted, settings.drain_grace_s + 5)
    missing = expected - set(tail.ids)
    assert not missing, f"{len(missing)} inputs lost, e.g. {sorted(missing)[:5]}"
    assert done
    assert set(tail.ids) == expected  # nothing invented either
    assert outputs_at_kill < len(first), "the crash came after the first wave was done; test proves little"
    assert sum(committed_at_kill.values()) < len(first)
    assert rc == 0, (tmp_path / "restarted.log").read_text()[-3000:]
    # The drain committed everything: the group resumes exactly at the log end.
    assert await committed(broker, group_id, pages, 4) == await highwaters(broker, pages, 4)


async def test_sigterm_mid_stream_drains_and_commits_exactly_what_was_output(
    broker: str, make_topic: MakeTopic, group_id: str, tmp_path: Path
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic)
    records = mixed_records(3000, 0)
    await produce(broker, pages, records)
    settings = worker_settings(broker, group_id, pages, docs, dead, drain_grace_s=8.0)
    log = tmp_path / "worker.log"
    async with Tail(broker, [docs, dead]) as tail:
        worker = spawn_worker(settings, log)
        assert await tail.wait_for(lambda: len(tail.got) >= 200, within=30), log.read_text()[-3000:]
        asked = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        rc = await wait_exit(worker, settings.drain_grace_s + 5)
        took = time.monotonic() - asked
        await tail.wait_for(lambda: False, within=1.0)  # let the last acked outputs reach the tail
    assert rc == 0, log.read_text()[-3000:]
    assert took < settings.drain_grace_s
    offsets = await committed(broker, group_id, pages, 2)
    assert 0 < sum(offsets.values()) < len(records), "stopped before the end, after some progress"
    seen: dict[int, set[int]] = defaultdict(set)
    for record in tail.got:
        partition, offset = source_of(record)
        seen[partition].add(offset)
    # Exactly the committed prefix of each partition was output: in-flight pages were finished and
    # committed, nothing beyond the commit was half-done, nothing below it was skipped.
    for partition in range(2):
        assert seen[partition] == set(range(offsets[partition])), partition
    assert "worker stopped (drained)" in log.read_text()


async def test_sigterm_during_a_long_page_exits_within_the_grace_and_loses_nothing(
    broker: str, make_topic: MakeTopic, group_id: str, tmp_path: Path
) -> None:
    """SIGTERM one second into a page that takes 60 s, with a 2 s grace: exit 0 within the grace; the
    page is not committed, so the next run cleans it (here: dead-lettered at a shorter deadline)."""
    pages, docs, dead = await pipeline_topics(make_topic, partitions=1)
    html = f"<html><body>{slowpages.SLOW_MARK}<p>deep</p></body></html>"
    slow = page_to_record(Page(id="slow", html=html, url="https://slow.example/"))
    await produce(broker, pages, [*good_records(3), slow, *good_records(2, start=10)], partition=0)
    settings = worker_settings(broker, group_id, pages, docs, dead, drain_grace_s=2.0, page_deadline_s=60.0)
    log = tmp_path / "worker.log"
    async with Tail(broker, [docs, dead]) as tail:
        worker = spawn_worker(settings, log, marked_pages=True)
        assert await tail.wait_for(lambda: len(tail.got) >= 3, within=30), log.read_text()[-3000:]
        await asyncio.sleep(1.0)
        asked = time.monotonic()
        worker.send_signal(signal.SIGTERM)
        rc = await wait_exit(worker, 30)
        took = time.monotonic() - asked
        assert rc == 0, log.read_text()[-3000:]
        assert took < settings.drain_grace_s + 1.0, took
        assert await committed(broker, group_id, pages, 1) == {0: 3}
        # the next run starts at the long page: nothing was lost
        again = spawn_worker(
            dataclasses.replace(settings, page_deadline_s=3.0), tmp_path / "again.log", marked_pages=True
        )
        done = await tail.wait_for(lambda: {"slow", "page-10", "page-11"} <= set(tail.ids), within=60)
        again.send_signal(signal.SIGTERM)
        assert await wait_exit(again, 30) == 0
    assert done, (tmp_path / "again.log").read_text()[-3000:]
    assert sorted(tail.ids) == sorted(["page-0", "page-1", "page-2", "slow", "page-10", "page-11"])
    assert await committed(broker, group_id, pages, 1) == {0: 6}
