"""Produce Pages into a topic: the `replay` command, the demo feeder and the end-to-end benchmark.

At-least-once on the way in: every send is awaited (acks="all"), nothing idempotent or
transactional (Tansu and aiokafka cannot do either, and the worker is idempotent per page anyway).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaConnectionError, KafkaError, MessageSizeTooLargeError

from worker.messages import page_to_record
from worker.models import Page
from worker.settings import Settings
from worker.stream.config import producer_config

log = logging.getLogger(__name__)

# Sends awaited together; bounds memory while keeping batches full.
MAX_PENDING = 500
PROGRESS_EVERY_S = 1.0


class BrokerUnreachable(RuntimeError):
    """The bootstrap servers did not answer; the message says which ones."""


@asynccontextmanager
async def page_producer(settings: Settings) -> AsyncIterator[AIOKafkaProducer]:
    """A started AIOKafkaProducer for pages; raises BrokerUnreachable instead of a bare connection error."""
    producer = AIOKafkaProducer(**producer_config(settings, "-replay"))
    try:
        await producer.start()
    except (KafkaConnectionError, KafkaError, OSError) as exc:
        await producer.stop()
        raise BrokerUnreachable(f"cannot reach Kafka at {settings.bootstrap_servers}: {exc}") from exc
    try:
        yield producer
    finally:
        await producer.stop()


@dataclass
class ReplayStats:
    sent: int = 0
    skipped: int = 0
    bytes: int = 0
    elapsed_s: float = 0.0
    # Produce time (ms since epoch) per page id, for end-to-end latency measurements.
    produced_at_ms: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.sent / self.elapsed_s if self.elapsed_s > 0 else 0.0


Progress = Callable[[ReplayStats], None]


async def replay_pages(
    producer: AIOKafkaProducer,
    pages: Iterable[Page],
    topic: str,
    as_headers: bool = False,
    limit: int | None = None,
    rate: float | None = None,
    progress: Progress | None = None,
    record_times: bool = False,
) -> ReplayStats:
    """Send pages keyed by site (via worker.messages.page_to_record) and await every ack."""
    stats = ReplayStats()
    started = time.monotonic()
    last_progress = started
    pending: list[asyncio.Future[Any]] = []
    for page in pages:
        if limit is not None and stats.sent + stats.skipped >= limit:
            break
        if rate:
            # Pace against the schedule, not the previous send, so slow acks do not lower the rate.
            delay = started + (stats.sent + stats.skipped) / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
        key, value, headers = page_to_record(page, as_headers=as_headers)
        now_ms = int(time.time() * 1000)
        try:
            fut = await producer.send(topic, value=value, key=key, headers=headers, timestamp_ms=now_ms)
        except MessageSizeTooLargeError as exc:
            stats.skipped += 1
            log.warning("page %s skipped: %s", page.id, exc)
            continue
        pending.append(fut)
        stats.sent += 1
        stats.bytes += len(value or b"")
        if record_times:
            stats.produced_at_ms[page.id] = now_ms
        if len(pending) >= MAX_PENDING:
            await asyncio.gather(*pending)
            pending.clear()
        now = time.monotonic()
        if progress is not None and now - last_progress >= PROGRESS_EVERY_S:
            stats.elapsed_s = now - started
            progress(stats)
            last_progress = now
    if pending:
        await asyncio.gather(*pending)
    await producer.flush()
    stats.elapsed_s = time.monotonic() - started
    return stats
