"""In-memory stand-ins for the runner's ports (worker/stream/ports.py) and cleaning processes.

Only for the runner's own logic (ack and commit failures, backpressure, held partitions, a dying or
hanging cleaning process, restore timeouts): everything about Kafka itself is tested against the real
broker in tests/integration. The fake cleaning process runs the real Cleaner in-process, behind the
same framed protocol as the real one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiokafka.errors import KafkaConnectionError
from aiokafka.structs import TopicPartition

from worker.messages import page_to_record
from worker.models import Page
from worker.settings import Settings
from worker.stream import ipc
from worker.stream.child import Cleaner
from worker.stream.ports import KafkaClients


@dataclass(frozen=True)
class Rec:
    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes], ...] = ()
    timestamp: int = 0


def page_value(i: int, site: str = "a.example", html: str | None = None) -> tuple[bytes | None, bytes]:
    body = html or (
        f"<html><body><nav><a href='/'>Home</a></nav><article><h1>Story {i}</h1><p>Paragraph {i} of a "
        "story with enough words to be the content of the page, and a second sentence after it.</p>"
        "</article></body></html>"
    )
    key, value, _ = page_to_record(Page(id=f"p{i}", html=body, url=f"https://{site}/{i}", site=site))
    return key, value


class FakeBroker:
    """One input topic's log and what was produced."""

    def __init__(self, topic: str = "pages", partitions: int = 2) -> None:
        self.topic = topic
        self.logs: dict[int, list[Rec]] = {p: [] for p in range(partitions)}
        self.produced: list[tuple[str, int | None, bytes | None, bytes | None, dict[str, bytes]]] = []
        self.committed: dict[int, int] = {}

    def add(
        self,
        partition: int,
        key: bytes | None,
        value: bytes | None,
        headers: Sequence[tuple[str, bytes]] = (),
    ) -> int:
        log = self.logs[partition]
        log.append(Rec(self.topic, partition, len(log), key, value, tuple(headers)))
        return len(log) - 1

    def add_pages(self, partition: int, ids: Sequence[int]) -> None:
        for i in ids:
            self.add(partition, *page_value(i))

    def outputs(self, topic: str) -> list[dict[str, bytes]]:
        return [h for t, _, _, _, h in self.produced if t == topic]

    def output_ids(self, *topics: str) -> list[str]:
        return [h["id"].decode() for t, _, _, _, h in self.produced if t in topics and "id" in h]


class FakeConsumer:
    def __init__(self, broker: FakeBroker) -> None:
        self.broker = broker
        self.listener: Any = None
        self.assigned: set[TopicPartition] = set()
        self.paused: set[TopicPartition] = set()
        self.positions: dict[TopicPartition, int] = {}
        self.commit_failures = 0  # the next N commits raise
        self.commits: list[dict[int, int]] = []
        self.started = False

    def subscribe(self, topics: list[str], listener: Any) -> None:
        self.listener = listener

    async def start(self) -> None:
        self.started = True
        await self.assign(sorted(self.broker.logs))

    async def assign(self, partitions: Sequence[int]) -> None:
        """A rebalance: revoke everything, then assign `partitions` (positions from the commits)."""
        if self.assigned:
            await self.listener.on_partitions_revoked(sorted(self.assigned))
        self.assigned = {TopicPartition(self.broker.topic, p) for p in partitions}
        self.paused &= self.assigned
        self.positions = {tp: self.broker.committed.get(tp.partition, 0) for tp in self.assigned}
        await self.listener.on_partitions_assigned(sorted(self.assigned))

    async def stop(self) -> None:
        if self.assigned:
            await self.listener.on_partitions_revoked(sorted(self.assigned))
        self.assigned = set()

    async def getmany(
        self, *partitions: TopicPartition, timeout_ms: int = 0, max_records: int | None = None
    ) -> dict[TopicPartition, list[Any]]:
        out: dict[TopicPartition, list[Any]] = {}
        budget = max_records or 10**9
        asked = set(partitions) if partitions else self.assigned
        for tp in sorted((self.assigned & asked) - self.paused):
            log = self.broker.logs[tp.partition]
            take = log[self.positions[tp] : self.positions[tp] + budget]
            if take:
                out[tp] = take
                self.positions[tp] += len(take)
                budget -= len(take)
        if not out:
            await asyncio.sleep(0.002)
        return out

    def assignment(self) -> set[TopicPartition]:
        return set(self.assigned)

    def pause(self, *partitions: TopicPartition) -> None:
        self.paused |= set(partitions)

    def resume(self, *partitions: TopicPartition) -> None:
        self.paused -= set(partitions)

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        if self.commit_failures:
            self.commit_failures -= 1
            from aiokafka.errors import CommitFailedError

            raise CommitFailedError("rebalance under way (fake)")
        for tp, offset in offsets.items():
            self.broker.committed[tp.partition] = offset
        self.commits.append({tp.partition: o for tp, o in offsets.items()})

    def highwater(self, partition: TopicPartition) -> int | None:
        return len(self.broker.logs[partition.partition])

    async def position(self, partition: TopicPartition) -> int:
        return self.positions[partition]

    def seek(self, partition: TopicPartition, offset: int) -> None:
        self.positions[partition] = offset

    async def seek_to_beginning(self, *partitions: TopicPartition) -> None:
        for tp in partitions:
            self.positions[tp] = 0


class FakeProducer:
    def __init__(self, broker: FakeBroker) -> None:
        self.broker = broker
        self.hold = False  # keep acks back until release()
        self.fail_ack: Callable[[str, dict[str, bytes]], bool] = lambda topic, headers: False
        self.start_failures = 0  # the next N starts cannot reach the broker
        self._held: list[asyncio.Future[Any]] = []

    async def start(self) -> None:
        if self.start_failures:
            self.start_failures -= 1
            raise KafkaConnectionError("Unable to bootstrap (fake)")

    async def stop(self) -> None:
        self.release()

    async def send(
        self,
        topic: str,
        value: bytes | None = None,
        key: bytes | None = None,
        partition: int | None = None,
        timestamp_ms: int | None = None,
        headers: list[tuple[str, bytes]] | None = None,
    ) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        header_map = dict(headers or ())
        if self.fail_ack(topic, header_map):
            future.set_exception(KafkaConnectionError("not acked (fake)"))
            return future
        self.broker.produced.append((topic, partition, key, value, header_map))
        if self.hold:
            self._held.append(future)
        else:
            future.set_result(None)
        return future

    def release(self) -> None:
        held, self._held = self._held, []
        for future in held:
            if not future.done():
                future.set_result(None)

    async def flush(self) -> None:
        while self._held and not self.hold:
            self.release()
            await asyncio.sleep(0)


@dataclass
class FakeSnapshots:
    stored: dict[int, dict[str, bytes]] = field(default_factory=dict)
    reads: list[list[int]] = field(default_factory=list)
    block: asyncio.Event | None = None  # read() waits for it (None: answer at once)

    async def read(self, partitions: Sequence[int]) -> dict[int, dict[str, bytes]]:
        self.reads.append(list(partitions))
        if self.block is not None:
            await self.block.wait()
        return {p: dict(self.stored.get(p, {})) for p in partitions}


class FakeChild:
    """A cleaning process in this event loop: the real Cleaner behind the framed protocol."""

    pid_counter = 1000
    pipe_bytes = 0  # unknown: pages are queued up to QUEUE_PAGES whatever their size

    def __init__(self, cleaner: Cleaner, behaviour: Behaviour) -> None:
        FakeChild.pid_counter += 1
        self.pid = FakeChild.pid_counter
        self.cleaner = cleaner
        self.behaviour = behaviour
        self.replies: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.requests: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        self.code: int | None = None
        self.exited = asyncio.Event()
        self.task = asyncio.create_task(self._run())

    def send(self, *parts: bytes) -> None:
        if self.code is not None:
            raise RuntimeError("the pipe is closed")
        request = ipc.decode_request(parts[0][ipc.LENGTH.size :])
        if request[0] == ipc.PAGE:
            request = ipc.with_value(request, parts[1])
        self.requests.put_nowait(request)

    def buffered(self) -> int:
        return 0

    async def _run(self) -> None:
        while True:
            request = await self.requests.get()
            if request[0] == ipc.PAGE:
                offset = request[2][2]
                fate = self.behaviour.fate(request[1], offset)
                if fate == "hang":
                    await asyncio.Event().wait()  # until killed
                if fate == "die":
                    self._exit(1)
                    return
                delay = self.behaviour.slow.get((request[1], offset))
                if delay:
                    await asyncio.sleep(delay)
            reply = self.cleaner.handle(request)
            await asyncio.sleep(0)
            self.replies.put_nowait(ipc.encode(reply)[ipc.LENGTH.size :])

    def _exit(self, code: int) -> None:
        if self.code is None:
            self.code = code
            self.replies.put_nowait(None)
            self.exited.set()

    async def receive(self) -> bytes | None:
        if self.code is not None and self.replies.empty():
            return None
        return await self.replies.get()

    def kill(self) -> None:
        self.task.cancel()
        self._exit(-9)

    async def wait(self) -> int | None:
        await self.exited.wait()
        return self.code


@dataclass
class Behaviour:
    """What fake cleaning processes do with a page: clean it, hang on it, die on it, or take a while."""

    hang: set[tuple[int, int]] = field(default_factory=set)  # (partition, offset): every time
    die: dict[tuple[int, int], int] = field(default_factory=dict)  # (partition, offset): times left
    slow: dict[tuple[int, int], float] = field(default_factory=dict)  # (partition, offset): seconds
    launched: int = 0

    def fate(self, partition: int, offset: int) -> str:
        if (partition, offset) in self.hang:
            return "hang"
        left = self.die.get((partition, offset), 0)
        if left:
            self.die[(partition, offset)] = left - 1
            return "die"
        return "clean"


def fake_launcher(settings: Settings, behaviour: Behaviour) -> Callable[[], Any]:
    async def launch() -> FakeChild:
        behaviour.launched += 1
        return FakeChild(Cleaner(settings), behaviour)

    return launch


@dataclass
class Fakes:
    broker: FakeBroker
    consumer: FakeConsumer
    producer: FakeProducer
    snapshots: FakeSnapshots
    behaviour: Behaviour
    reachable: list[bool]

    def clients(self) -> KafkaClients:
        async def probe() -> bool:
            return self.reachable[0]

        return KafkaClients(self.consumer, self.producer, self.snapshots, probe)


def fakes(partitions: int = 2) -> Fakes:
    broker = FakeBroker(partitions=partitions)
    return Fakes(broker, FakeConsumer(broker), FakeProducer(broker), FakeSnapshots(), Behaviour(), [True])


async def wait_until(check: Callable[[], bool], within: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not check():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)
