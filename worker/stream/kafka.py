"""The real Kafka side of the runner: aiokafka clients behind worker/stream/ports.py, partitioner, logs.

aiokafka logs whole requests and records at DEBUG ("Sending (key=... value=...)", every produce and
fetch struct): `redact_client_logs` rewrites those arguments to their size or type before any handler
sees them, so no page content reaches the logs at any level.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.partitioner import DefaultPartitioner, murmur2
from aiokafka.protocol.struct import Struct

from worker.settings import Settings
from worker.stream.changelog import ChangelogReader
from worker.stream.config import consumer_config, producer_config
from worker.stream.ports import KafkaClients, Probe

PROBE_TIMEOUT_S = 5.0
# Keys whose partitioning hash SitePartitioner keeps; past this many it starts again (sites repeat: a
# stream's busy sites are back in it at once).
PARTITION_HASHES = 4096


class SitePartitioner:
    """Kafka's default partitioner (murmur2 of the key, as aiokafka's and the Java client's), with the
    hash of each key kept: outputs are keyed by site and aiokafka's murmur2 is pure Python, ~6 us a key
    (~2% of the member's CPU per page, measured). Keyless records go where the default sends them."""

    def __init__(self, size: int = PARTITION_HASHES) -> None:
        self._size = size
        self._hashes: dict[bytes, int] = {}
        self._default = DefaultPartitioner()

    def __call__(self, key: bytes | None, all_partitions: list[int], available: list[int]) -> int:
        if key is None:
            return int(self._default(key, all_partitions, available))
        hashed = self._hashes.get(key)
        if hashed is None:
            if len(self._hashes) >= self._size:
                self._hashes.clear()
            hashed = self._hashes[key] = murmur2(key) & 0x7FFFFFFF
        return all_partitions[hashed % len(all_partitions)]


def kafka_clients(settings: Settings) -> KafkaClients:
    redact_client_logs()
    producer = AIOKafkaProducer(**producer_config(settings), partitioner=SitePartitioner())
    return KafkaClients(
        consumer=AIOKafkaConsumer(**consumer_config(settings)),
        producer=producer,
        snapshots=ChangelogReader(settings),
        probe=metadata_probe(producer),
    )


def metadata_probe(producer: Any) -> Probe:
    """A metadata request over the producer's connections (the topics it produces to): True if answered.

    aiokafka answers False at once when no broker can be reached, and keeps its own reconnect loop.
    """

    async def probe() -> bool:
        try:
            return bool(await asyncio.wait_for(producer.client.force_metadata_update(), PROBE_TIMEOUT_S))
        except TimeoutError:
            return False

    return probe


class _Redact(logging.Filter):
    """Replaces bytes and protocol structs in a log record's arguments by `<N bytes>` / their type."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and any(isinstance(a, _CONTENT) for a in args):
            record.args = tuple(_redacted(a) for a in args)
        return True


_CONTENT = (bytes, bytearray, memoryview, Struct)


def _redacted(arg: object) -> object:
    if isinstance(arg, bytes | bytearray | memoryview):
        return f"<{len(arg)} bytes>"
    if isinstance(arg, Struct):
        return f"<{type(arg).__name__}>"
    return arg


_FILTER = _Redact()


def redact_client_logs() -> None:
    """Attach the filter to every aiokafka logger (each module logs under its own name). Idempotent."""
    # their loggers must exist before we walk them
    import aiokafka.consumer.fetcher
    import aiokafka.producer.producer  # noqa: F401

    names = [n for n in logging.root.manager.loggerDict if n == "aiokafka" or n.startswith("aiokafka.")]
    for name in names:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
