"""Per-partition site template memory, kept across rebalances through a compacted changelog topic.

The runner calls these hooks (worker.stream.state.PartitionHooks):
- on_assign: each new input partition gets a fresh SiteMemory, filled from the changelog partition with
  the SAME number (the changelog is co-partitioned with the input: a site's pages and its snapshots
  live on the same partition number), before any of its records is processed;
- after_page: every `snapshot_every_pages` pages or `snapshot_every_s` seconds, the sites that changed
  are written to the changelog (key = site, value = SiteState snapshot bytes);
- on_revoke: the changed sites are written and flushed, then the memory is dropped.

Restore reads from the beginning until the consumer's position reaches the high watermark seen in a
fetch response. Not end_offsets(): Tansu answers ListOffsets LATEST with the newest batch's base + 1
(see the broker notes, §6). Last value wins and a None value (tombstone) deletes, because the test
broker never compacts. Snapshots go through the worker's own producer (at-least-once, like the
documents): a lost snapshot costs re-learning a few pages, never correctness.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError

from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.settings import Settings
from worker.stream.config import security_config
from worker.stream.state import PartitionState

log = logging.getLogger(__name__)

RESTORE_TIMEOUT_S = 60.0  # a restore that takes longer starts the partition with what it has
RESTORE_IDLE_POLLS = 5  # empty fetches in a row after which a partition with no high watermark is done
RESTORE_POLL_MS = 200
_PAGES = "changelog_pages"
_LAST = "changelog_last"


async def restore(
    settings: Settings, memories: dict[int, SiteMemory], timeout_s: float = RESTORE_TIMEOUT_S
) -> int:
    """Replay the changelog partitions numbered like `memories`' keys into them; records applied."""
    if not memories:
        return 0
    topic = settings.changelog_topic
    tps = {TopicPartition(topic, p): p for p in memories}
    consumer = AIOKafkaConsumer(
        **security_config(settings),
        client_id=settings.client_id + "-restore",
        group_id=None,
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        fetch_max_wait_ms=min(settings.fetch_max_wait_ms, RESTORE_POLL_MS),
        max_partition_fetch_bytes=settings.max_partition_fetch_bytes,
        fetch_max_bytes=settings.fetch_max_bytes,
    )
    applied = 0
    await consumer.start()
    try:
        consumer.assign(list(tps))
        await consumer.seek_to_beginning(*tps)
        pending = set(tps)
        idle = 0
        deadline = time.monotonic() + timeout_s
        while pending and time.monotonic() < deadline:
            batch = await consumer.getmany(*pending, timeout_ms=RESTORE_POLL_MS)
            idle = 0 if any(batch.values()) else idle + 1
            for tp, records in batch.items():
                memory = memories[tps[tp]]
                for record in records:
                    applied += _apply(memory, record.key, record.value)
            for tp in list(pending):
                high = consumer.highwater(tp)
                if high is not None and await consumer.position(tp) >= high:
                    pending.discard(tp)
                elif high is None and idle >= RESTORE_IDLE_POLLS:
                    pending.discard(tp)  # no fetch response names it: an empty or unknown partition
        if pending:
            log.warning("changelog restore timed out for partitions %s", sorted(tps[tp] for tp in pending))
    finally:
        await consumer.stop()
    return applied


def _apply(memory: SiteMemory, key: bytes | None, value: bytes | None) -> int:
    if not key:
        return 0  # compacted topics need keys; Tansu accepts keyless records anyway
    site = key.decode("utf-8", "replace")
    try:
        memory.load(site, value)
    except ValueError as exc:
        log.warning("skipping a bad snapshot of %s: %s", site, exc)
        memory.drop(site)
        return 0
    return 1


class ChangelogHooks:
    """PartitionHooks with a SiteMemory per input partition, snapshotted to the changelog topic."""

    def __init__(self, worker: Any) -> None:
        self.settings: Settings = worker.settings
        self.producer = worker.producer
        self.metrics = getattr(worker, "metrics", None)
        self.config = MemoryConfig.from_settings(self.settings)
        self.owned: dict[int, PartitionState] = {}

    async def on_assign(self, states: Sequence[PartitionState]) -> None:
        # The runner holds these partitions paused until this returns (see Worker.adopt).
        await self._restore_into(states)

    async def _restore_into(self, states: Sequence[PartitionState]) -> None:
        memories = {}
        for state in states:
            memory = SiteMemory(self.config)
            state.memory = memory
            state.extra[_PAGES] = 0
            state.extra[_LAST] = time.monotonic()
            self.owned[state.partition] = state
            memories[state.partition] = memory
        self._share_budget()
        started = time.monotonic()
        applied = await restore(self.settings, memories)
        sites = sum(len(m) for m in memories.values())
        log.info(
            "restored %s site snapshots (%s sites) for partitions %s in %.2fs",
            applied,
            sites,
            sorted(memories),
            time.monotonic() - started,
        )
        self._gauges()

    async def on_revoke(self, states: Sequence[PartitionState]) -> None:
        for state in states:
            await self.snapshot(state)
        try:
            await self.producer.flush()
        except KafkaError:
            log.exception("flushing changelog snapshots failed; those sites re-learn on the next owner")
        for state in states:
            state.memory = None
            self.owned.pop(state.partition, None)
        self._share_budget()
        self._gauges()

    async def after_page(self, state: PartitionState, document: Any) -> None:
        memory = state.memory
        if not isinstance(memory, SiteMemory):
            return
        pages = state.extra.get(_PAGES, 0) + 1
        state.extra[_PAGES] = pages
        now = time.monotonic()
        if pages >= self.settings.snapshot_every_pages or now - state.extra.get(_LAST, now) >= (
            self.settings.snapshot_every_s
        ):
            await self.snapshot(state)
        if pages % 50 == 0:
            self._gauges()

    async def snapshot(self, state: PartitionState) -> int:
        """Send the changed sites of one partition to its changelog partition; number sent."""
        memory = state.memory
        state.extra[_PAGES] = 0
        state.extra[_LAST] = time.monotonic()
        if not isinstance(memory, SiteMemory):
            return 0
        sent = 0
        for site in memory.take_dirty():
            data = memory.dump(site)
            if data is None:
                continue
            try:
                await self.producer.send(
                    self.settings.changelog_topic, data, key=site.encode("utf-8"), partition=state.partition
                )
            except KafkaError:
                log.exception("snapshot of %s to the changelog failed", site)
                continue
            sent += 1
        return sent

    def _share_budget(self) -> None:
        """One budget for the worker, split evenly over the partitions it owns."""
        memories = [s.memory for s in self.owned.values() if isinstance(s.memory, SiteMemory)]
        if memories:
            share = self.config.budget_mb / len(memories)
            for memory in memories:
                memory.set_budget_mb(share)

    def bytes_in_use(self) -> int:
        return sum(m.bytes_in_use for m in self._memories())

    def _memories(self) -> Iterable[SiteMemory]:
        return (s.memory for s in self.owned.values() if isinstance(s.memory, SiteMemory))

    def _gauges(self) -> None:
        m = self.metrics
        if m is None:
            return
        memories = list(self._memories())
        m.sitememory_bytes.set(sum(x.bytes_in_use for x in memories))
        m.sitememory_budget_bytes.set(self.config.budget_mb * 1024 * 1024)
        m.sitememory_sites.set(sum(len(x) for x in memories))


def hooks_factory(worker: Any) -> ChangelogHooks:
    return ChangelogHooks(worker)
