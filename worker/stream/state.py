"""Per-partition state of the runner: acked-offset tracking and the seam for per-partition memory.

One PartitionState exists per assigned input partition, created on assign and dropped on revoke.
Offsets may be committed only up to the first input whose output has not been acked yet: outputs go
to two topics (documents, dead letters) whose acks can arrive in any order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


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


@dataclass(eq=False)
class PartitionState:
    topic: str
    partition: int
    tracker: OffsetTracker = field(default_factory=OffsetTracker)
    committed: int | None = None
    closed: bool = False  # set on revoke: records still in hand for it are skipped, never committed
    # Per-partition template memory (a SiteMemory), set by the hooks on assign; None = density only.
    memory: Any = None
    # Free slot for the hooks' own bookkeeping (snapshot cadence, changelog positions).
    extra: dict[str, Any] = field(default_factory=dict)

    def to_commit(self) -> int | None:
        """The offset to commit now, or None when nothing new was acked."""
        mark = self.tracker.watermark
        if mark is None or mark == self.committed:
            return None
        return mark


class PartitionHooks(Protocol):
    """What per-partition local state (the template memory) plugs into.

    on_assign runs before any record of those partitions is processed (restore memory here);
    on_revoke runs after their outputs are flushed and offsets committed (snapshot here);
    after_page runs after each page was handed to the producer (snapshot cadence).
    """

    async def on_assign(self, states: Sequence[PartitionState]) -> None: ...

    async def on_revoke(self, states: Sequence[PartitionState]) -> None: ...

    async def after_page(self, state: PartitionState, document: Any) -> None: ...


class NoHooks:
    """Density extraction only: no per-partition memory."""

    async def on_assign(self, states: Sequence[PartitionState]) -> None:
        return None

    async def on_revoke(self, states: Sequence[PartitionState]) -> None:
        return None

    async def after_page(self, state: PartitionState, document: Any) -> None:
        return None
