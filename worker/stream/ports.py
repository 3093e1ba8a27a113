"""How the runner sees Kafka: small Protocols, so its own logic is tested against fakes in milliseconds.

The real implementations are aiokafka's AIOKafkaConsumer and AIOKafkaProducer (they satisfy these
Protocols as they are), the changelog reader of worker/stream/changelog.py and a metadata probe;
`kafka_clients(settings)` in worker/stream/kafka.py builds them. Only the calls the runner makes are
listed. Tests: tests/unit/fakekafka.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from aiokafka.structs import TopicPartition


class RebalanceListener(Protocol):
    async def on_partitions_revoked(self, revoked: Sequence[TopicPartition]) -> None: ...

    async def on_partitions_assigned(self, assigned: Sequence[TopicPartition]) -> None: ...


class Consumer(Protocol):
    def subscribe(self, topics: list[str], listener: Any) -> None: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def getmany(
        self, *partitions: TopicPartition, timeout_ms: int = 0, max_records: int | None = None
    ) -> dict[TopicPartition, list[Any]]: ...

    def assignment(self) -> set[TopicPartition]: ...

    def pause(self, *partitions: TopicPartition) -> None: ...

    def resume(self, *partitions: TopicPartition) -> None: ...

    async def commit(self, offsets: dict[TopicPartition, int]) -> None: ...

    def highwater(self, partition: TopicPartition) -> int | None: ...

    async def position(self, partition: TopicPartition) -> int: ...

    def seek(self, partition: TopicPartition, offset: int) -> None: ...

    async def seek_to_beginning(self, *partitions: TopicPartition) -> Any: ...


class Producer(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def send(
        self,
        topic: str,
        value: bytes | None = None,
        key: bytes | None = None,
        partition: int | None = None,
        timestamp_ms: int | None = None,
        headers: list[tuple[str, bytes]] | None = None,
    ) -> asyncio.Future[Any]:
        """Queue a record; the returned future resolves when the broker acks it."""

    async def flush(self) -> None: ...


class SnapshotReader(Protocol):
    async def read(self, partitions: Sequence[int]) -> dict[int, dict[str, bytes]]:
        """The latest snapshot of every site in the given changelog partitions (last value wins)."""


# True when the brokers answer (a metadata request); never raises for an unreachable broker.
Probe = Callable[[], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class KafkaClients:
    consumer: Consumer
    producer: Producer
    snapshots: SnapshotReader
    probe: Probe
