"""Where pages are cleaned: sites (record keys) placed on cleaning processes by load, and kept there.

The pool runs fake cleaning processes (tests/unit/fakekafka.py: the real Cleaner in this event loop
behind the framed protocol). Pages submitted without yielding to the loop stay queued, which is how
these tests hold a process "busy". The runner-level cases use the fake Kafka clients.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any

from prometheus_client import CollectorRegistry

from tests.unit.fakekafka import Behaviour, FakeChild, Rec, fake_launcher, fakes, page_value, wait_until
from tests.unit.test_runner import make, stop
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.messages import Rejection, decode_page
from worker.metrics import create_metrics
from worker.settings import Settings
from worker.stream import pool as pool_mod
from worker.stream.handle import Output
from worker.stream.placement import PartitionKeys, site_key, split, table_key
from worker.stream.pool import CleaningPool, Slot
from worker.stream.state import Job, PartitionState

SETTINGS = Settings(output_topic="docs", dead_letter_topic="dead", snapshot_every_pages=1000, processes=2)


class Events:
    def __init__(self, restored: dict[int, list[tuple[str, bytes]]] | None = None) -> None:
        self.outputs: list[tuple[int, int, Output]] = []  # (partition, offset, output)
        self.requeued: list[Job] = []
        self.adopted: list[tuple[int, int, int]] = []
        self.restored = restored or {}
        self.restores: list[list[int]] = []

    async def on_output(self, job: Job, output: Output, seconds: float, snapshots: Any) -> None:
        self.outputs.append((job.state.partition, job.record.offset, output))

    def on_requeue(self, jobs: list[Job]) -> None:
        self.requeued += jobs

    async def restore(self, partitions: list[int]) -> dict[int, Any]:
        self.restores.append(partitions)
        return {p: list(self.restored.get(p, [])) for p in partitions}

    def on_room(self) -> None:
        pass

    def on_adopted(self, partition: int, loaded: int, invalid: int) -> None:
        self.adopted.append((partition, loaded, invalid))

    def on_fatal(self, why: str) -> None:
        raise AssertionError(why)


@contextlib.asynccontextmanager
async def running(
    events: Events | None = None, behaviour: Behaviour | None = None
) -> AsyncIterator[CleaningPool]:
    """A started pool of two fake cleaning processes, closed afterwards."""
    launcher = fake_launcher(SETTINGS, behaviour or Behaviour())
    pool = CleaningPool(
        SETTINGS, events or Events(), launcher, create_metrics(CollectorRegistry(), process_info=False)
    )
    await pool.start()
    try:
        yield pool
    finally:
        await pool.close()


class Feed:
    """Pages of one partition, tracked in offset order like the runner's backlog."""

    def __init__(self, partition: int = 0) -> None:
        self.state = PartitionState("pages", partition)
        self.offset = 0

    def job(self, key: bytes | None, value: bytes) -> Job:
        job = Job(self.state, Rec("pages", self.state.partition, self.offset, key, value))
        self.offset += 1
        return job

    def hand_out(self, pool: CleaningPool, key: bytes | None, size: int = 100) -> Slot | None:
        """Submit a page of `size` bytes if `route` lets it through; the slot it went to."""
        return self.submit(pool, self.job(key, b"v" * size))

    def hand_out_page(self, pool: CleaningPool, site: str) -> Slot:
        """Submit a real page of `site` (it must get through)."""
        key, value = page_value(self.offset, site=site)
        slot = self.submit(pool, self.job(key, value))
        assert slot is not None
        return slot

    def submit(self, pool: CleaningPool, job: Job) -> Slot | None:
        slot = pool.route(job)
        if slot is not None:
            job.entry = self.state.tracker.track(job.record.offset)
            pool.submit(job, slot)
        return slot


def snapshot(site: str) -> tuple[str, bytes]:
    memory = SiteMemory(MemoryConfig())
    memory.observe(site, "u1", {1, 2, 3})
    data = memory.dump(site)
    assert data is not None
    return site, data


def sites_in(pool: CleaningPool, slot: int, partition: int) -> list[str]:
    proc = pool.slots[slot].proc
    assert isinstance(proc, FakeChild)
    memory = proc.cleaner.partitions[partition].memory
    assert memory is not None
    return sorted(memory.sites())


# --- the table ---------------------------------------------------------------------------------


def test_the_key_table_evicts_idle_keys_only_oldest_first() -> None:
    table = PartitionKeys(home=0, limit=3)
    a, b = table.place(b"a", 0), table.place(b"b", 1)
    table.place(b"c", 0)
    a.queued = 1  # a page of a is queued: a stays whatever its age
    table.touch(b"a")
    table.touch(b"b")
    a.queued, b.queued = 1, 0
    table.place(b"d", 1)  # over the limit: the oldest idle key goes (c; a is busy)
    assert list(table.keys) == [b"a", b"b", b"d"]
    table.place(b"e", 0)
    assert list(table.keys) == [b"a", b"d", b"e"]  # then b, never a
    assert len(table) == 3


def test_a_long_key_is_remembered_as_the_bounded_site_its_page_gets() -> None:
    assert table_key(b"news.example") == b"news.example"
    long = b"x" * 65536
    record = Rec("pages", 0, 0, long, b"<p>x</p>", (("url", b"https://a.example/"),))
    page = decode_page(record, max_bytes=1 << 20)
    assert not isinstance(page, Rejection)
    assert page.site is not None
    # the key its restored snapshot (named by page.site) is placed under: the same process
    assert table_key(long) == site_key(page.site)
    assert len(table_key(long)) < 100
    assert table_key(long) != table_key(b"x" * 65537)


def test_snapshots_are_dealt_by_bytes() -> None:
    dealt = split([("big", b"x" * 1000), ("s1", b"x" * 10), ("s2", b"x" * 10), ("s3", b"x" * 10)], [0, 1])
    assert [s for s, _ in dealt[0]] == ["big"]
    assert [s for s, _ in dealt[1]] == ["s1", "s2", "s3"]


# --- the pool ----------------------------------------------------------------------------------


async def test_a_new_key_goes_to_the_process_with_less_outstanding_work() -> None:
    async with running() as pool:
        pool.adopt({0: []})
        feed = Feed()
        assert feed.hand_out(pool, b"a.example", 100) is pool.slots[0]  # a tie: the lower index
        assert feed.hand_out(pool, b"b.example", 5000) is pool.slots[1]  # slot 0 holds a's bytes
        for _ in range(3):
            assert feed.hand_out(pool, b"a.example", 100) is pool.slots[0]
        # Slot 0 has 4 small pages, slot 1 one large one: by bytes, slot 0 has less to do.
        assert feed.hand_out(pool, b"c.example", 100) is pool.slots[0]


async def test_a_key_stays_on_its_process_while_its_pages_are_queued() -> None:
    async with running() as pool:
        pool.adopt({0: []})
        feed = Feed()
        for _ in range(pool_mod.QUEUE_PAGES):
            assert feed.hand_out(pool, b"a.example", 10_000) is pool.slots[0]
        assert pool.slots[1].pages == 0  # the other process is idle ...
        assert feed.hand_out(pool, b"a.example") is None  # ... yet a's next page waits for its own
        assert feed.hand_out(pool, b"b.example") is pool.slots[1]  # a new site does not wait


async def test_a_page_is_handed_over_only_while_it_fits_in_the_pipe() -> None:
    """The requests queued behind the one a process works on (read already) and the page must fit in
    its request pipe: a page that does not fit waits for a reply (asyncio's writer would hold it and
    wake the event loop at every read of the process), unless the process has fewer than
    FIT_AFTER_PAGES pages queued (its pipe must not run dry)."""
    async with running() as pool:
        pool.adopt({0: []})
        for slot in pool.slots:
            assert slot.proc is not None
            slot.proc.pipe_bytes = 100_000
        await wait_until(lambda: not any(slot.queue for slot in pool.slots))  # the ADOPTs answered
        room = 100_000 - pool_mod.PIPE_SLACK
        one, two = pool.slots
        feed = Feed()
        assert feed.hand_out(pool, b"a.example", 60_000) is one  # the one it works on
        for _ in range(pool_mod.FIT_AFTER_PAGES - 1):
            assert feed.hand_out(pool, b"a.example", 1_000) is one
        behind = one.nbytes - one.queue[0].nbytes
        assert feed.hand_out(pool, b"a.example", room - behind + 1) is None  # with its frame, too much
        assert feed.hand_out(pool, b"a.example", room - behind - 2_000) is one
        # larger than the pipe, but the other process has fewer than FIT_AFTER_PAGES queued
        for _ in range(pool_mod.FIT_AFTER_PAGES):
            assert feed.hand_out(pool, b"b.example", 300_000) is two
        assert feed.hand_out(pool, b"c.example", 3_000) is None  # neither pipe has room for it
        assert pool.has_room()  # room for a smaller page: the runner still walks its backlogs
        assert feed.hand_out(pool, b"c.example", 1_500) is one
        assert two.proc is not None
        two.proc.pipe_bytes = 0  # its size unknown: only the page count limits it
        assert feed.hand_out(pool, b"d.example", 50_000) is two


async def test_has_room_is_false_only_when_no_page_could_be_routed() -> None:
    """The runner stops walking its backlogs on `has_room() is False`: every route must then be None."""
    async with running() as pool:
        pool.adopt({0: [], 1: []})
        feed, other = Feed(0), Feed(1)
        while feed.hand_out(pool, b"a.example", 10_000) is not None:  # fills a's process
            pass
        assert pool.has_room()  # the other process is idle
        while feed.hand_out(pool, b"b.example", 10_000) is not None:  # fills the other one
            pass
        assert not pool.has_room()
        for job in (feed.job(b"a.example", b"v"), feed.job(b"new.example", b"v"), other.job(None, b"v")):
            assert pool.route(job) is None  # a placed key, a new key, a keyless record: all wait


async def test_records_without_a_key_follow_their_partitions_home_process() -> None:
    async with running() as pool:
        pool.adopt({0: [], 1: []})
        homes = {p: pool.parts[p].home for p in (0, 1)}
        assert sorted(homes.values()) == [0, 1]  # one home each
        for partition in (0, 1):
            feed = Feed(partition)
            for _ in range(3):  # the home process gets them even when it is the busier one
                assert feed.hand_out(pool, None, 5000) is pool.slots[homes[partition]]
            assert feed.hand_out(pool, b"", 5000) is pool.slots[homes[partition]]
        assert all(len(pool.parts[p]) == 0 for p in (0, 1))  # no key was placed


async def test_adopt_splits_the_snapshots_and_routes_their_sites_to_their_holder() -> None:
    events = Events()
    async with running(events) as pool:
        sites = [snapshot(f"s{i}.example") for i in range(6)]
        pool.adopt({0: sites})
        await wait_until(lambda: len(events.adopted) == 1)
        assert events.adopted == [(0, 6, 0)]  # one report for the partition, both processes summed
        held = {slot: sites_in(pool, slot, 0) for slot in (0, 1)}
        assert sorted(held[0] + held[1]) == [s for s, _ in sites]
        assert len(held[0]) == len(held[1]) == 3  # equal snapshots: dealt evenly
        budget = SETTINGS.memory_budget_mb / 2  # one partition on two processes
        for slot in pool.slots:
            assert isinstance(slot.proc, FakeChild)
            memory = slot.proc.cleaner.partitions[0].memory
            assert memory is not None
            assert memory.budget_bytes == int(budget * 1024 * 1024)
        feed = Feed()
        holder = 0 if "s0.example" in held[0] else 1
        other = 1 - holder
        # Make the holder the busier one: the site still goes there (its memory is there).
        for _ in range(2):
            assert feed.hand_out(pool, held[holder][1].encode(), 5000) is pool.slots[holder]
        assert feed.hand_out(pool, b"s0.example") is pool.slots[holder]
        assert feed.hand_out(pool, b"new.example") is pool.slots[other]


async def test_release_answers_with_the_union_of_every_processes_snapshots() -> None:
    events = Events()
    async with running(events) as pool:
        pool.adopt({0: []})
        feed = Feed()
        sites = ("a.example", "b.example", "c.example", "d.example")
        placed = {site: feed.hand_out_page(pool, site).index for site in sites}
        assert set(placed.values()) == {0, 1}  # spread over both
        released = await asyncio.wait_for(pool.release(0), 5)
        assert sorted(site for site, _ in released) == sorted(placed)
        assert len(events.outputs) == 4  # the queued pages were cleaned first
        assert 0 not in pool.parts
        assert all(isinstance(s.proc, FakeChild) and s.proc.cleaner.partitions == {} for s in pool.slots)


async def test_a_replaced_process_keeps_each_sites_pages_in_order_and_restores_only_its_sites() -> None:
    sites = [snapshot(f"s{i}.example") for i in range(6)]
    events = Events(restored={0: sites})
    behaviour = Behaviour()
    async with running(events, behaviour) as pool:
        pool.adopt({0: sites})
        await wait_until(lambda: len(events.adopted) == 1)
        held = {slot: sites_in(pool, slot, 0) for slot in (0, 1)}
        behaviour.die[(0, 0)] = 1  # the first page kills slot 0's process once
        feed = Feed()
        for i in range(6):  # three pages of a site on slot 0, three of one on slot 1, interleaved
            assert feed.hand_out_page(pool, held[i % 2][0]) is pool.slots[i % 2]
        first = pool.slots[0].proc
        await wait_until(lambda: pool.slots[0].ready and pool.slots[0].proc is not first)
        assert events.restores == [[0]]
        assert [j.record.offset for j in events.requeued] == [0, 2, 4]  # in order, for the runner
        await wait_until(lambda: len(events.adopted) == 2)
        assert sites_in(pool, 0, 0) == held[0]  # only what the dead process held
        assert sites_in(pool, 1, 0) == held[1]  # the other process kept its memory
        assert all(p.queued == 0 for p in pool.parts[0].keys.values() if p.slot == 0)
        for job in events.requeued:  # handed out again: to the same process, in their order
            assert pool.route(job) is pool.slots[0]
            pool.submit(job, pool.slots[0])
        await wait_until(lambda: len(events.outputs) == 6)
        by_site: dict[int, list[int]] = defaultdict(list)
        for _, offset, _ in events.outputs:
            by_site[offset % 2].append(offset)
        assert by_site == {0: [0, 2, 4], 1: [1, 3, 5]}


class BlockedRestore(Events):
    """Events whose changelog read waits until `go` is set: a replacement held mid-restart."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def restore(self, partitions: list[int]) -> dict[int, Any]:
        self.restores.append(partitions)
        await self.go.wait()
        return {p: [] for p in partitions}


async def test_partitions_revoked_and_assigned_while_a_process_restarts_reach_it_once() -> None:
    events = BlockedRestore()
    behaviour = Behaviour()
    async with running(events, behaviour) as pool:
        pool.adopt({0: [], 1: [], 3: []})
        behaviour.die[(1, 0)] = 1
        feed = Feed(1)
        assert feed.hand_out(pool, b"a.example") is pool.slots[0]
        await wait_until(lambda: events.restores == [[0, 1, 3]])  # slot 0 is down, its restore waits
        assert pool.route(feed.job(b"a.example", b"v")) is None  # a's pages wait for their process
        assert pool.route(feed.job(b"b.example", b"v")) is pool.slots[1]  # a new site does not
        for partition in (0, 3):  # only the live process answers; the one restarting has nothing
            assert await asyncio.wait_for(pool.release(partition), 5) == []
        pool.adopt({0: [], 2: []})  # assigned (again) meanwhile: queued for the restarting process
        events.go.set()
        await wait_until(lambda: pool.slots[0].ready and len(events.adopted) >= 6)
        await asyncio.sleep(0.01)
        proc = pool.slots[0].proc
        assert isinstance(proc, FakeChild)
        assert sorted(proc.cleaner.partitions) == [0, 1, 2]  # not 3, revoked meanwhile
        # 0, 1 and 3 at the start, 1 again on the new process, 0 and 2 once each on both processes (the
        # new one adopts 0 once, as newly assigned, not also as restored)
        assert sorted(p for p, _, _ in events.adopted) == [0, 0, 1, 1, 2, 3]
        assert pool.route(feed.job(b"a.example", b"v")) is pool.slots[0]  # a's process is back


async def test_the_budget_is_split_over_every_process_and_partition() -> None:
    async with running() as pool:
        pool.adopt({0: [], 1: [], 2: [], 3: []})
        assert pool.budget_mb() == SETTINGS.memory_budget_mb / 8


# --- through the runner ------------------------------------------------------------------------


async def test_a_partitions_sites_spread_over_both_processes_and_each_comes_out_in_order() -> None:
    f = fakes(partitions=1)
    sites = [f"site{i}.example" for i in range(8)]
    order: dict[str, list[str]] = defaultdict(list)
    for i in range(64):
        site = sites[(i * 5) % 8 if i % 3 else 0]  # site0 has many pages, the others a few
        key, value = page_value(i, site=site)
        f.broker.add(0, key, value)
        order[site].append(f"p{i}")
    f.behaviour.slow[(0, 0)] = 0.2  # site0's first page holds its process: its next pages must wait
    worker = make(f, processes=2)
    task = asyncio.create_task(worker.run())
    await wait_until(lambda: f.broker.committed == {0: 64})
    placed = {key: p.slot for key, p in worker.pool.parts[0].keys.items()}
    assert await stop(worker, task) == 0
    assert set(placed.values()) == {0, 1}  # one partition, cleaned by both processes
    out: dict[str, list[str]] = defaultdict(list)
    for topic, _, key, _, headers in f.broker.produced:
        if topic == "docs":
            assert key is not None
            out[key.decode()].append(headers["id"].decode())
    assert out == order  # every page once, each site's in input order


async def test_each_process_counts_its_cleaning_seconds() -> None:
    events = Events()
    async with running(events) as pool:

        def sample(process: str) -> float | None:
            value = pool.metrics.registry.get_sample_value(
                "cleanstream_cleaner_busy_seconds_total", {"process": process}
            )
            return None if value is None else float(value)

        assert [sample("0"), sample("1")] == [0.0, 0.0]  # exposed from the start
        pool.adopt({0: []})
        feed = Feed()
        assert feed.hand_out_page(pool, "a.example") is pool.slots[0]
        assert feed.hand_out_page(pool, "b.example") is pool.slots[1]
        assert feed.hand_out_page(pool, "a.example") is pool.slots[0]
        await wait_until(lambda: len(events.outputs) == 3)
        assert all((sample(p) or 0.0) > 0 for p in ("0", "1"))
