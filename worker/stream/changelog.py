"""Per-site template snapshots in a compacted changelog topic, so site memory survives rebalances.

The changelog is co-partitioned with the input: a site's pages and its snapshots live on the same
partition number. The cleaning process that owns an input partition holds that partition's site memory
and hands back the snapshots of the partition's changed sites after every `snapshot_every_pages` of
its pages (or at its first page `snapshot_every_s` after the last snapshot) and when it gives the
partition up; the worker writes them (key = site,
value = SiteState bytes, through its own producer: at-least-once, like the documents; a lost snapshot
costs re-learning a few pages, never correctness).

On assignment, and when a cleaning process is replaced, the worker reads the partition here and ships
the snapshots to its process, which validates each one as it loads it (an invalid one is skipped with a
WARNING and counted in cleanstream_changelog_invalid_snapshots_total; the site is re-learned).

Restore reads from the beginning until the consumer's position reaches the high watermark seen in a
fetch response. Not end_offsets(): Tansu answers ListOffsets LATEST with the newest batch's base + 1
(see the broker notes, §6). Last value wins and a None value (tombstone) deletes, because the test
broker never compacts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from aiokafka import AIOKafkaConsumer, TopicPartition

from worker.settings import Settings
from worker.stream.config import security_config

log = logging.getLogger(__name__)

RESTORE_TIMEOUT_S = 60.0  # a restore that takes longer starts the partition with what it has
RESTORE_IDLE_POLLS = 5  # empty fetches in a row after which a partition with no high watermark is done
RESTORE_POLL_MS = 200


class ChangelogReader:
    """SnapshotReader (worker/stream/ports.py) over the changelog topic."""

    def __init__(self, settings: Settings, timeout_s: float = RESTORE_TIMEOUT_S) -> None:
        self.settings = settings
        self.timeout_s = timeout_s

    async def read(self, partitions: Sequence[int]) -> dict[int, dict[str, bytes]]:
        if not partitions:
            return {}
        started = time.monotonic()
        out = await read_changelog(self.settings, partitions, self.timeout_s)
        count = sum(len(s) for s in out.values())
        took = time.monotonic() - started
        log.info("read %d snapshots of changelog partitions %s in %.2fs", count, sorted(partitions), took)
        return out


async def read_changelog(
    settings: Settings, partitions: Sequence[int], timeout_s: float = RESTORE_TIMEOUT_S
) -> dict[int, dict[str, bytes]]:
    """{partition: {site: snapshot}} of the changelog partitions numbered `partitions`."""
    topic = settings.changelog_topic
    tps = {TopicPartition(topic, p): p for p in partitions}
    sites: dict[int, dict[str, bytes]] = {p: {} for p in partitions}
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
                for record in records:
                    apply(sites[tps[tp]], record.key, record.value)
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
    return sites


def apply(sites: dict[str, bytes], key: bytes | None, value: bytes | None) -> None:
    """One changelog record: last value wins, a tombstone deletes, a keyless record is ignored."""
    if not key:
        return  # compacted topics need keys; Tansu accepts keyless records anyway
    site = key.decode("utf-8", "replace")
    if value is None:
        sites.pop(site, None)
    else:
        sites[site] = value
