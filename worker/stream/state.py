"""Per-partition state of the runner: the backlog of fetched pages and acked-offset tracking.

One PartitionState exists per assigned input partition, created on assign and dropped on revoke.
Offsets may be committed only up to the first input whose output has not been acked yet: outputs go
to two topics (documents, dead letters) whose acks can arrive in any order, the pages of one
partition are spread over the cleaning processes by site (each site's in order), and pages may be
handed back (see Job).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


class Pending:
    """One input offset waiting for its output's ack."""

    __slots__ = ("done", "offset")

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.done = False


class OffsetTracker:
    """Contiguous acked low watermark of one partition (the next offset safe to commit)."""

    def __init__(self) -> None:
        self._queue: deque[Pending] = deque()
        self._last: int | None = None
        self.watermark: int | None = None

    def track(self, offset: int) -> Pending:
        if self._last is not None and offset <= self._last:
            # The consumer went back (a reset or seek): forget the earlier run. Its late acks hit orphaned
            # Pending objects, and a lower watermark is always safe to commit.
            self._queue.clear()
            self.watermark = None
        self._last = offset
        entry = Pending(offset)
        self._queue.append(entry)
        return entry

    def ack(self, entry: Pending) -> None:
        entry.done = True
        queue = self._queue
        while queue and queue[0].done:
            self.watermark = queue.popleft().offset + 1

    @property
    def pending(self) -> int:
        return len(self._queue)


class Job:
    """One fetched page on its way through a cleaning process.

    `entry` is its place in the offset tracker, taken when it is first handed to a cleaning process and
    kept if the page comes back unfinished (its process was replaced) and is handed out again, so a
    page is tracked, and answered, once.
    """

    __slots__ = ("attempts", "entry", "record", "state")

    def __init__(self, state: PartitionState, record: Any) -> None:
        self.state = state
        self.record = record  # an aiokafka ConsumerRecord (worker.messages.InputRecord)
        self.entry: Pending | None = None
        self.attempts = 0

    @property
    def nbytes(self) -> int:
        value = self.record.value
        return len(value) if value is not None else 0

    def wire(self) -> tuple[object, ...]:
        """The record as it crosses the pipe (worker/stream/ipc.py)."""
        r = self.record
        return (r.topic, r.partition, r.offset, r.timestamp, r.key, r.value, tuple(r.headers))


@dataclass(eq=False)
class PartitionState:
    topic: str
    partition: int
    tracker: OffsetTracker = field(default_factory=OffsetTracker)
    committed: int | None = None
    # Fetched, not yet handed to a cleaning process, in offset order.
    backlog: deque[Job] = field(default_factory=deque)
    backlog_bytes: int = 0
    held: bool = True  # assigned but not yet restored: nothing of it is taken or cleaned
    closed: bool = False  # revoked: nothing more of it is handed out, what comes back is still output
    dropped: bool = False  # gone: late results are discarded (never committed, so redone by the next owner)

    def take(self, records: Iterable[Any]) -> None:
        for record in records:
            job = Job(self, record)
            self.backlog.append(job)
            self.backlog_bytes += job.nbytes

    def next_job(self) -> Job:
        job = self.backlog.popleft()
        self.backlog_bytes -= job.nbytes
        if job.entry is None:
            job.entry = self.tracker.track(job.record.offset)
        return job

    def put_back(self, jobs: list[Job]) -> None:
        """Unfinished jobs of a replaced cleaning process go first again, in their order."""
        for job in reversed(jobs):
            self.backlog.appendleft(job)
            self.backlog_bytes += job.nbytes

    def clear_backlog(self) -> None:
        self.backlog.clear()
        self.backlog_bytes = 0

    def to_commit(self) -> int | None:
        """The offset to commit now, or None when nothing new was acked."""
        mark = self.tracker.watermark
        if mark is None or mark == self.committed:
            return None
        return mark
