"""Produce Pages into a topic: the `replay` command, the demo feeder and the end-to-end benchmark.

At-least-once on the way in: every send is awaited (acks="all"), nothing idempotent or
transactional (Tansu and aiokafka cannot do either, and the worker is idempotent per page anyway).

A page the worker would refuse as a malformed message (no url, a url without a host, a field over its
limit) is not sent: it is skipped and counted by reason, since the worker could only dead-letter it.
Datasets without URLs can be given made-up ones (`with_defaults`, `replay --url-prefix`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import quote

from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaConnectionError, KafkaError, MessageSizeTooLargeError

from worker.messages import Rejection, decode_page, page_to_record
from worker.models import Page
from worker.settings import Settings
from worker.stream.config import producer_config

log = logging.getLogger(__name__)

# Sends awaited together; bounds memory while keeping batches full.
MAX_PENDING = 500
PROGRESS_EVERY_S = 1.0
# Skipped pages logged one by one (with their ids) before replay only counts them.
LOGGED_SKIPS = 5
# Reasons a page is not sent (keys of ReplayStats.skipped_by; the worker's dead-letter reasons are
# different: these pages never reach it).
NO_URL = "no url"
OVER_REQUEST_SIZE = "over max_request_size"
# Where the URL of a page that has none goes in --url-prefix.
SITE_FIELD = "{site}"


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
    bytes: int = 0
    elapsed_s: float = 0.0
    skipped_by: Counter[str] = field(default_factory=Counter)  # reason -> pages not sent
    # Produce time (ms since epoch) per page id, for end-to-end latency measurements.
    produced_at_ms: dict[str, int] = field(default_factory=dict)

    @property
    def skipped(self) -> int:
        return sum(self.skipped_by.values())

    @property
    def rate(self) -> float:
        return self.sent / self.elapsed_s if self.elapsed_s > 0 else 0.0


def with_defaults(page: Page, url_prefix: str | None = None, site: str | None = None) -> Page:
    """`page` with a site where it has none, and a URL made of `url_prefix` and its id where it has
    none (`{site}` in the prefix stands for the page's site). A page that stays without a URL (no
    prefix, or `{site}` and no site) is left as it is, and skipped by replay_pages."""
    site = page.site or site
    url = page.url
    if url is None and url_prefix is not None and (site or SITE_FIELD not in url_prefix):
        url = url_prefix.replace(SITE_FIELD, site or "") + quote(page.id, safe="")
    if url == page.url and site == page.site:
        return page
    return replace(page, url=url, site=site)


@dataclass(frozen=True, slots=True)
class _Record:
    """An input record as the worker will see it (worker.messages.InputRecord)."""

    key: bytes | None
    value: bytes
    headers: list[tuple[str, bytes]]
    topic: str = ""
    partition: int = 0
    offset: int = 0
    timestamp: int = 0


def refusal(page: Page, record: tuple[bytes | None, bytes, list[tuple[str, bytes]]]) -> str | None:
    """Why the worker would refuse this record as a malformed message, or None.

    Decided by the worker's own codec (worker.messages.decode_page), so replay and the worker agree;
    problems of the content itself (empty, not HTML, too large) are the worker's to report.
    """
    if not page.url:
        return NO_URL
    decoded = decode_page(_Record(*record), max_bytes=len(record[1]))
    if isinstance(decoded, Rejection) and decoded.reason in ("schema_violation", "invalid_json"):
        # "url: 9014 characters, the limit is 8192" -> "url: over its limit" keeps the counts few
        field_name, _, what = decoded.detail.partition(": ")
        return f"{field_name}: {'over its limit' if 'the limit is' in what else what}"
    return None


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
        record = page_to_record(page, as_headers=as_headers)
        why = refusal(page, record)
        if why is not None:
            _skip(stats, page, why)
            continue
        key, value, headers = record
        now_ms = int(time.time() * 1000)
        try:
            fut = await producer.send(topic, value=value, key=key, headers=headers, timestamp_ms=now_ms)
        except MessageSizeTooLargeError:
            _skip(stats, page, OVER_REQUEST_SIZE)
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


def _skip(stats: ReplayStats, page: Page, why: str) -> None:
    stats.skipped_by[why] += 1
    if stats.skipped <= LOGGED_SKIPS:
        log.warning("page %s not sent: %s", page.id, why)
    elif stats.skipped == LOGGED_SKIPS + 1:
        log.warning("more pages not sent; they are counted, not logged")
