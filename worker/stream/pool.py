"""The cleaning pool: `processes` child processes that clean pages, so no page can hold the event loop.

The worker's event loop (consumer, producer, heartbeats, commits, /healthz) never parses a page: it
hands each record to the cleaning process its site is placed on and gets the encoded output back.

- **Placement.** Each site (the record's key) is placed on one slot when its first page is handed
  out (the ready one with room and the least outstanding work) and stays there while it has pages
  queued (worker/stream/placement.py); that process holds the site's template memory, in the memory
  of the site's partition (every process holds a memory for every assigned partition: ADOPT and
  RELEASE go to all of them). A slot cleans its requests in order, so a site's outputs come back in
  input order. Records without a key follow their partition's home slot.
- **Deadline.** A watchdog checks the request each process is working on; a page past
  `page_deadline_s` (wall clock) gets its process killed. The page is dead-lettered `timeout` once,
  the pages queued behind it go back to the worker's backlog (re-sent, never lost, never doubled), a
  new process takes the slot and gets back, from the changelog, the snapshots of the sites placed
  on it (snapshots lag by up to `snapshot_every_pages`: a few pages of a site are re-learned).
- **Crash.** A process that dies on its own (a parser crash, the OOM killer) is replaced the same
  way; its page is tried once more on the new process, then dead-lettered `internal_error`.

The wire format is worker/stream/ipc.py; the child side is worker/stream/child.py. Processes are
started by a Launcher (worker/stream/spawn.py for real ones), so tests can run the same protocol
against in-process fakes.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from prometheus_client import Counter

from worker.metrics import Metrics
from worker.models import Reason
from worker.settings import Settings
from worker.stream import ipc
from worker.stream.errors import Action, CleanerDied, PageDeadlineExceeded, route
from worker.stream.handle import Output, unread_dead_output
from worker.stream.placement import PartitionKeys, Placed, site_key, split, table_key
from worker.stream.state import Job

log = logging.getLogger(__name__)

Snapshots = list[tuple[str, bytes]]

# Pages queued per process: enough that a process never waits for the worker between pages even when
# the worker waits for a core (16 pages are ~50 ms of cleaning at the median page; one page's pipe and
# codec cost is ~0.13 ms against ~3 ms of cleaning, measured), few enough that the pages queued behind a
# page that runs into its deadline stay few (they are handed back and cleaned by the replacement).
# 16 MB caps what a burst of large pages holds in the pipes.
QUEUE_PAGES = 16
QUEUE_BYTES = 16 * 1024 * 1024
# How often the watchdog looks at the running requests: the deadline is kept to within this.
WATCHDOG_TICK_S = 0.1
# Adopting a partition (loading its snapshots) or giving one up is bounded too, but not by the page
# deadline: a partition's snapshots can take a few seconds to load.
CONTROL_DEADLINE_S = 60.0
# Room kept free in a process's request pipe beyond the bytes of its queued requests: a PAGE frame's
# few hundred bytes (its record without the value) and a partly read pipe slot.
PIPE_SLACK = 8 * 1024
# From this many pages queued on a process, a page is handed to it only if it fits in its pipe (below).
FIT_AFTER_PAGES = 3
# A process that cannot be started is tried again a few times before the worker gives up.
START_ATTEMPTS = 5
START_BACKOFF_S = 0.5


class ChildProcess(Protocol):
    """A started cleaning process that has said READY."""

    pid: int
    # What its request pipe holds (bytes; 0 if unknown): pages are handed to it only while they fit.
    pipe_bytes: int

    def send(self, *parts: bytes) -> None:
        """Write the parts in order (a request's frame, and a page's value after it)."""

    def buffered(self) -> int:
        """Bytes sent but not yet taken by the pipe (held by the writer until the pipe has room)."""

    async def receive(self) -> bytes | None:
        """The next reply's body; None once the process is gone."""

    def kill(self) -> None: ...

    async def wait(self) -> int | None: ...


Launcher = Callable[[], Awaitable[ChildProcess]]


class PoolEvents(Protocol):
    """What the pool needs from the worker (worker/stream/runner.py implements it)."""

    async def on_output(self, job: Job, output: Output, seconds: float, snapshots: Snapshots) -> None:
        """A page's output, in the order of its partition; snapshots go to its changelog partition."""

    def on_requeue(self, jobs: list[Job]) -> None:
        """Unfinished pages of a replaced process, in their order: hand them out again first."""

    async def restore(self, partitions: list[int]) -> dict[int, Snapshots]:
        """The changelog snapshots of `partitions`, for a replacement process."""

    def on_room(self) -> None:
        """A slot can take more pages."""

    def on_adopted(self, partition: int, loaded: int, invalid: int) -> None: ...

    def on_fatal(self, why: str) -> None:
        """The pool cannot go on (no process can be started): the worker stops."""


@dataclass(eq=False)
class _Request:
    kind: str
    job: Job | None = None
    partition: int = -1
    nbytes: int = 0
    future: asyncio.Future[Any] | None = None
    started: float = 0.0  # when it became the one its process works on
    parts: tuple[bytes, ...] = ()  # kept only while it waits for its slot's new process
    placed: Placed | None = None  # a page's key placement, whose queued count it holds


@dataclass(eq=False)
class Slot:
    index: int
    proc: ChildProcess | None = None
    ready: bool = False  # a live process that has every partition of the slot adopted
    queue: deque[_Request] = field(default_factory=deque)
    pages: int = 0
    nbytes: int = 0
    # Adopted while the slot was being restarted: sent once it is ready again.
    waiting: list[_Request] = field(default_factory=list)
    killed_for: _Request | None = None  # the request whose deadline made us kill the process
    memory: tuple[int, int] = (0, 0)  # (bytes, sites) of its site memory, last reported
    task: asyncio.Task[None] | None = None
    adopt_crashes: int = 0
    busy: Counter | None = None  # its cleanstream_cleaner_busy_seconds{process} child


class CleaningPool:
    def __init__(self, settings: Settings, events: PoolEvents, launcher: Launcher, metrics: Metrics) -> None:
        self.settings = settings
        self.events = events
        self.launch = launcher
        self.metrics = metrics
        self.slots = [Slot(i) for i in range(settings.processes)]
        for slot in self.slots:  # exposed at 0 from the start, like every known label value
            slot.busy = metrics.cleaner_busy_seconds.labels(str(slot.index))
        # The assigned input partitions, each with where its keys are placed. Every slot holds them all.
        self.parts: dict[int, PartitionKeys] = {}
        self.closing = False
        self.draining = False  # stopping: replaced processes are not restarted
        self._watchdog: asyncio.Task[None] | None = None
        metrics.cleaning_processes.set_function(lambda: sum(1 for s in self.slots if s.ready))
        metrics.sitememory_bytes.set_function(lambda: sum(s.memory[0] for s in self.slots))
        metrics.sitememory_sites.set_function(lambda: sum(s.memory[1] for s in self.slots))

    # --- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start every process; raises if one cannot be started."""
        procs = await asyncio.gather(*(self.launch() for _ in self.slots), return_exceptions=True)
        failed = [p for p in procs if isinstance(p, BaseException)]
        for slot, proc in zip(self.slots, procs, strict=True):
            if not isinstance(proc, BaseException):
                self._attach(slot, proc)
        if failed:
            await self.close()
            raise RuntimeError(f"cannot start cleaning processes: {failed[0]!r}") from failed[0]
        self._watchdog = asyncio.create_task(self._watch(), name="cleaning-watchdog")
        log.info("%d cleaning processes: %s", len(self.slots), [s.proc.pid for s in self.slots if s.proc])

    def _attach(self, slot: Slot, proc: ChildProcess) -> None:
        slot.proc = proc
        slot.ready = True
        slot.task = asyncio.create_task(self._serve(slot, proc), name=f"cleaner-{slot.index}")

    async def close(self, timeout_s: float = 2.0) -> None:
        """Kill every process (their unfinished pages are simply not answered) and wait for them."""
        self.closing = True
        if self._watchdog is not None:
            self._watchdog.cancel()
        for slot in self.slots:
            if slot.proc is not None:
                slot.proc.kill()
        tasks = [s.task for s in self.slots if s.task is not None]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=timeout_s)
            for task in late:  # a replacement still starting: it checks `closing` and kills its process
                task.cancel()
        for slot in self.slots:
            self._resolve_controls(slot, list(slot.queue) + slot.waiting)
            slot.queue.clear()
            slot.waiting.clear()
            slot.ready = False

    # --- placement and requests ------------------------------------------------------------------

    def adopt(self, partitions: dict[int, Snapshots]) -> None:
        """Take partitions over with their changelog snapshots, before any of their pages (requests
        are FIFO): every process gets an ADOPT for each, with the share of its snapshots dealt to it,
        and the key table learns where those sites went. The budget is re-split over the new count."""
        for partition in partitions:
            homes = [sum(1 for p in self.parts.values() if p.home == s.index) for s in self.slots]
            home = min(self.slots, key=lambda s: (homes[s.index], not s.ready, s.index)).index
            self.parts[partition] = PartitionKeys(home)
        budget = self.budget_mb()
        for partition, snapshots in partitions.items():
            table = self.parts[partition]
            dealt = split(snapshots, [s.index for s in self.slots])
            futures = []
            for slot in self.slots:
                for site, _ in dealt[slot.index]:
                    table.place(site_key(site), slot.index)
                request = self._adopt_request(partition, dealt[slot.index], budget)
                assert request.future is not None
                futures.append(request.future)
                if slot.ready:
                    self._send(slot, request)
                else:
                    slot.waiting.append(request)  # its process is being replaced: sent once it is up
            _combine(futures, functools.partial(self._adopted, partition))
        self.set_budget(budget)

    def _adopt_request(self, partition: int, snapshots: Snapshots, budget_mb: float) -> _Request:
        frame = ipc.encode((ipc.ADOPT, partition, snapshots, budget_mb))
        return _Request(ipc.ADOPT, partition=partition, future=_future(), parts=(frame,))

    def _adopted(self, partition: int, replies: list[Any]) -> None:
        counts = [r for r in replies if r is not None]
        if counts:
            self.events.on_adopted(partition, sum(c[0] for c in counts), sum(c[1] for c in counts))

    def release(self, partition: int) -> asyncio.Future[Snapshots]:
        """Give `partition` up: resolves with its final snapshots (the union over the processes) once
        every process has finished its queued pages of it."""
        if self.parts.pop(partition, None) is None:
            return _combine([], _union)
        futures = []
        for slot in self.slots:
            slot.waiting = [r for r in slot.waiting if r.partition != partition]
            if slot.ready:  # else its process is being replaced: that memory is gone already
                frame = ipc.encode((ipc.RELEASE, partition))
                request = _Request(ipc.RELEASE, partition=partition, future=_future(), parts=(frame,))
                assert request.future is not None
                futures.append(request.future)
                self._send(slot, request)
        return _combine(futures, _union)

    def set_budget(self, budget_mb: float) -> None:
        for slot in self.slots:
            if slot.ready:
                frame = ipc.encode((ipc.BUDGET, budget_mb))
                self._send(slot, _Request(ipc.BUDGET, future=_future(), parts=(frame,)))

    def route(self, job: Job) -> Slot | None:
        """The slot that must clean `job` if it can take it now; None while the page must wait.

        A placed key goes to its slot (and waits for it: its earlier pages may still be queued there);
        a new key to the ready slot with room and the least outstanding work; a record without a key to
        its partition's home slot. Nothing is placed here: `submit` does it."""
        table = self.parts.get(job.state.partition)
        if table is None:
            return None
        key = job.record.key
        nbytes = job.nbytes
        if not key:
            slot = self.slots[table.home]
            return slot if self._has_room(slot, nbytes) else None
        placed = table.find(table_key(key))
        if placed is not None:
            slot = self.slots[placed.slot]
            return slot if self._has_room(slot, nbytes) else None
        free = [s for s in self.slots if self._has_room(s, nbytes)]
        return min(free, key=_load) if free else None

    def has_room(self) -> bool:
        """Can any slot take a page now? When none can, `route` answers None for every page."""
        return any(self._has_room(slot, 0) for slot in self.slots)

    def _has_room(self, slot: Slot, nbytes: int) -> bool:
        """Can `slot` take a page whose value is `nbytes` long now?"""
        if not slot.ready:
            return False
        if slot.pages == 0:
            return True
        assert slot.proc is not None
        # A page is handed over only while it fits in the pipe beside the requests queued behind the
        # one the process works on (that one it has read whole before working on it, unless it has
        # only just answered the one before). A page that does not fit waits in asyncio's pipe
        # writer, which holds on to the pipe: every read of the process wakes the worker's event
        # loop to write the next piece and move the rest of the buffer (e2e drain, two processes:
        # ~0.45 more writes a page). The pipe (child.PIPE_BYTES) holds ~10 pages of ~100 KB, ~20 ms
        # of cleaning, and every reply makes room; a page too large for it goes to an idle process
        # (above), and one that finds its head request unread waits in the writer as before. A
        # process with fewer than FIT_AFTER_PAGES pages queued takes a page whether it fits or not:
        # its pipe must not run dry before the next read of its replies (REPLY_BATCH_S).
        pipe = slot.proc.pipe_bytes
        if pipe and nbytes and slot.pages >= FIT_AFTER_PAGES:
            behind = slot.nbytes - (slot.queue[0].nbytes if slot.queue else 0)
            if behind + nbytes > pipe - PIPE_SLACK:
                return False
        return slot.pages < QUEUE_PAGES and slot.nbytes < QUEUE_BYTES and slot.proc.buffered() == 0

    def submit(self, job: Job, slot: Slot) -> None:
        """Queue a page on the slot `route` gave for it, placing its key there if it is new."""
        partition = job.state.partition
        placed = None
        if job.record.key:
            table = self.parts[partition]
            key = table_key(job.record.key)
            placed = table.find(key)
            if placed is None:
                placed = table.place(key, slot.index)
            else:
                table.touch(key)
            assert placed.slot == slot.index, "a placed key goes to its own slot"
            placed.queued += 1
        parts = ipc.encode_page(partition, job.wire())
        nbytes = len(parts[0]) + len(parts[1])
        request = _Request(ipc.PAGE, job=job, partition=partition, nbytes=nbytes, parts=parts, placed=placed)
        slot.pages += 1
        slot.nbytes += request.nbytes
        self._send(slot, request)

    def _send(self, slot: Slot, request: _Request) -> None:
        parts, request.parts = request.parts, ()
        if not slot.queue:
            request.started = time.monotonic()
        slot.queue.append(request)
        assert slot.proc is not None
        try:
            slot.proc.send(*parts)
        except (OSError, RuntimeError):
            # the process is gone; its reader sees the end and the request is handed back from the queue
            log.debug("cleaning process %s is gone; its queue is handed back", slot.proc.pid)

    @property
    def in_flight(self) -> int:
        return sum(s.pages for s in self.slots)

    # --- replies ---------------------------------------------------------------------------------

    async def _serve(self, slot: Slot, proc: ChildProcess) -> None:
        """Read one process's replies until it is gone; then replace it (unless the pool is closing)."""
        try:
            while True:
                body = await proc.receive()
                if body is None:
                    break
                await self._on_reply(slot, ipc.decode_reply(body))
        except ipc.FrameError as exc:
            log.error("cleaning process %s broke the protocol (%s); replacing it", proc.pid, exc)
            proc.kill()
        except Exception:  # a defect here would silently stop this slot: stop the worker instead
            log.exception("handling a reply of cleaning process %s failed", proc.pid)
            proc.kill()
            self.events.on_fatal("the cleaning pool failed")
            return
        code = await proc.wait()
        if self.closing:
            return
        try:
            await self._replace(slot, code)
        except Exception:
            log.exception("replacing cleaning process %s failed", proc.pid)
            self.events.on_fatal("the cleaning pool failed")

    async def _on_reply(self, slot: Slot, reply: tuple[Any, ...]) -> None:
        if not slot.queue:
            raise ipc.FrameError(f"unexpected reply {reply[0]!r}")
        request = slot.queue[0]
        expected = {ipc.PAGE: ipc.DONE, ipc.ADOPT: ipc.ADOPTED, ipc.RELEASE: ipc.RELEASED}
        if reply[0] != expected.get(request.kind, request.kind):
            raise ipc.FrameError(f"reply {reply[0]!r} to a {request.kind!r} request")
        slot.queue.popleft()
        if slot.queue:
            slot.queue[0].started = time.monotonic()
        if request.kind == ipc.PAGE:
            _, out, seconds, snapshots, memory = reply
            slot.pages -= 1
            slot.nbytes -= request.nbytes
            if request.placed is not None:
                request.placed.queued -= 1
            slot.memory = (int(memory[0]), int(memory[1]))
            if slot.busy is not None:
                slot.busy.inc(float(seconds))
            assert request.job is not None
            await self.events.on_output(request.job, Output(*out), float(seconds), snapshots)
            self.events.on_room()
            return
        assert request.future is not None
        if request.kind == ipc.ADOPT:
            slot.adopt_crashes = 0
            _done(request.future, (int(reply[2]), int(reply[3])))
        elif request.kind == ipc.RELEASE:
            _done(request.future, reply[2])
        else:
            _done(request.future, None)

    # --- deadline and replacement ----------------------------------------------------------------

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCHDOG_TICK_S)
            try:
                self._kill_overdue(time.monotonic())
            except Exception:
                log.exception("the cleaning watchdog failed")
                self.events.on_fatal("the cleaning watchdog failed")
                return

    def _kill_overdue(self, now: float) -> None:
        for slot in self.slots:
            if not slot.queue or slot.proc is None or slot.killed_for is not None or not slot.ready:
                continue
            head = slot.queue[0]
            limit = self.settings.page_deadline_s if head.kind == ipc.PAGE else CONTROL_DEADLINE_S
            if now - head.started > limit:
                slot.killed_for = head
                what = _describe(head)
                log.warning("%s ran past %.1fs; killing cleaning process %s", what, limit, slot.proc.pid)
                slot.proc.kill()

    async def _replace(self, slot: Slot, code: int | None) -> None:
        """The slot's process is gone: answer for its head request, hand the rest back, restart it."""
        slot.ready = False
        queue = list(slot.queue)
        slot.queue.clear()
        slot.pages = slot.nbytes = 0
        slot.memory = (0, 0)
        killed, slot.killed_for = slot.killed_for, None
        cause = "deadline" if killed is not None else "crash"
        self.metrics.cleaner_restarts.labels(cause).inc()
        if killed is None:
            log.error("cleaning process %s exited with %s", slot.proc.pid if slot.proc else "?", code)
        requeue: list[Job] = []
        for position, request in enumerate(queue):
            if request.placed is not None:  # handed back or answered here: no longer queued
                request.placed.queued -= 1
            if request.job is None:
                if position == 0 and request.kind == ipc.ADOPT:
                    slot.adopt_crashes += 1  # its snapshots may be what kills it: next time start empty
                continue
            if position == 0:
                request.job.attempts += 1
                failure: Exception = (
                    PageDeadlineExceeded() if killed is request else CleanerDied(code, request.job.attempts)
                )
                verdict = route(failure, "page")
                if verdict.action is Action.DEAD_LETTER:
                    assert verdict.reason is not None
                    await self._dead_letter(request.job, verdict.reason, failure)
                    continue
            requeue.append(request.job)
        self._resolve_controls(slot, queue)
        if self.draining or self.closing:
            return  # stopping: unanswered pages are not committed, the next owner cleans them
        if requeue:
            self.events.on_requeue(requeue)
        proc = await self._restart(slot)
        if proc is None:
            return
        # Adopted while this restart ran: those arrive with their own snapshots.
        partitions = sorted(self.parts.keys() - {r.partition for r in slot.waiting})
        snapshots: dict[int, Snapshots] = {}
        if partitions and slot.adopt_crashes < 2:
            snapshots = await self.events.restore(partitions)
        elif partitions:
            log.warning("partitions %s killed their cleaning process twice while loading; "
                        "starting them empty", partitions)  # fmt: skip
        if self.closing or self.draining:
            proc.kill()
            await proc.wait()
            return
        self._attach(slot, proc)
        budget = self.budget_mb()
        waiting = {r.partition for r in slot.waiting}
        for partition in partitions:
            table = self.parts.get(partition)
            if table is None or partition in waiting:  # revoked meanwhile (and maybe assigned again)
                continue
            # Only the sites placed on this slot: the others live on in the other processes, and a
            # site placed nowhere now is placed afresh, with an empty memory, when its next page comes.
            mine = table.held_by(slot.index)
            restored = snapshots.get(partition, [])
            kept = [(site, data) for site, data in restored if site_key(site) in mine]
            request = self._adopt_request(partition, kept, budget)
            assert request.future is not None
            _combine([request.future], functools.partial(self._adopted, partition))
            self._send(slot, request)
        for request in slot.waiting:
            self._send(slot, request)
        slot.waiting.clear()
        self.events.on_room()

    async def _restart(self, slot: Slot) -> ChildProcess | None:
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                return await self.launch()
            except Exception as exc:
                log.error("cannot start a cleaning process (attempt %d/%d): %r", attempt, START_ATTEMPTS, exc)
                if attempt == START_ATTEMPTS or self.closing:
                    break
                await asyncio.sleep(START_BACKOFF_S * attempt)
        self.events.on_fatal(f"cannot start a cleaning process for slot {slot.index}")
        return None

    async def _dead_letter(self, job: Job, reason: Reason, failure: Exception) -> None:
        if isinstance(failure, PageDeadlineExceeded):
            detail = f"no result within the {self.settings.page_deadline_s:g} s page deadline"
        else:
            detail = f"the cleaning process died on this page {job.attempts} times"
        r = job.record
        log.warning("dead-lettering %s:%s:%s as %s: %s", r.topic, r.partition, r.offset, reason, detail)
        output = unread_dead_output(job.record, reason, detail, type(failure).__name__, self.settings)
        await self.events.on_output(job, output, 0.0, [])

    def budget_mb(self) -> float:
        """The share of one (process, partition) memory: one budget for the worker, split evenly. A
        partition's sites are spread evenly over the processes, so each of its memories needs as much."""
        return self.settings.memory_budget_mb / max(1, len(self.parts) * len(self.slots))

    @staticmethod
    def _resolve_controls(slot: Slot, requests: Sequence[_Request]) -> None:
        for request in requests:
            if request.future is not None and not request.future.done():
                request.future.set_result([] if request.kind == ipc.RELEASE else None)


def _future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


def _combine(futures: list[asyncio.Future[Any]], combine: Callable[[list[Any]], Any]) -> asyncio.Future[Any]:
    """A future of `combine(results)` once every one of `futures` is done (control futures only ever
    get a result: a process that goes away answers its controls with None, or [] for a RELEASE)."""
    out = _future()
    left = len(futures)

    def one(_: asyncio.Future[Any]) -> None:
        nonlocal left
        left -= 1
        if left == 0 and not out.done():
            out.set_result(combine([None if f.cancelled() else f.result() for f in futures]))

    if not futures:
        out.set_result(combine([]))
    for future in futures:
        future.add_done_callback(one)
    return out


def _union(replies: list[Any]) -> Snapshots:
    return [snapshot for reply in replies if reply for snapshot in reply]


def _load(slot: Slot) -> tuple[int, int, int]:
    """Outstanding work of a slot, for placing a new key: queued bytes (cleaning time grows with a
    page's size), then pages, then the lower index (deterministic). Bytes or pages balance the benchmark
    mix the same (bench/placement.py: within 0.2% either way): a new key mostly goes to the only slot
    with room, the one that finished a page first."""
    return (slot.nbytes, slot.pages, slot.index)


def _done(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


def _describe(request: _Request) -> str:
    if request.job is None:
        return f"{request.kind} of partition {request.partition}"
    r = request.job.record
    return f"page {r.topic}:{r.partition}:{r.offset}"
