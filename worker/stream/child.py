"""A cleaning process: `python -m worker.stream.child PARENT_PID`, started by the worker's pool.

Compute only: no Kafka client, no server. It reads requests from stdin and answers each on stdout
(framing and messages: worker/stream/ipc.py), holding the memory of the sites the worker placed on
it, one memory per input partition the worker owns. A page may keep it busy for as long as it
likes; the worker's watchdog kills it at the page deadline and starts another one, so nothing here
guards against slow pages besides the pipeline's own CPU budget. Memory is bounded by an
address-space limit: a page whose parse would take gigabytes (e.g. thousands of unclosed formatting
tags, which the parser re-opens in every paragraph) fails with a parse error here instead of
starving the pod.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import resource
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.gc_policy import tune_gc
from worker.messages import Rejection
from worker.settings import Settings
from worker.stream import ipc
from worker.stream.broker import die_with_parent
from worker.stream.errors import describe, route
from worker.stream.handle import Output, dead_output, handle_record

log = logging.getLogger(__name__)

Snapshots = list[tuple[str, bytes]]
EXIT_BROKEN = 70  # EX_SOFTWARE: a request this process could not answer; the pool replaces it
# Pipe buffers: Linux's default ceiling for unprivileged processes (/proc/sys/fs/pipe-max-size), up
# from 64 KB. Measured on the benchmark's pages: the worker's CPU per page handed over and answered went
# from ~300 to ~245 us.
PIPE_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class WireRecord:
    """An input record as it crossed the pipe (the fields worker.messages.InputRecord reads)."""

    topic: str
    partition: int
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: Sequence[tuple[str, bytes]]


@dataclass
class _Partition:
    memory: SiteMemory | None
    pages: int = 0  # since the last snapshot
    last: float = field(default_factory=time.monotonic)


class Cleaner:
    """Answers requests (see worker/stream/ipc.py). Plain calls, no I/O: tests drive it in-process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.options = settings.clean_options()
        self.config = MemoryConfig.from_settings(settings)
        self.partitions: dict[int, _Partition] = {}

    def handle(self, request: tuple[object, ...]) -> tuple[object, ...]:
        kind = request[0]
        if kind == ipc.PAGE:
            _, partition, record = request
            return self.page(partition, WireRecord(*record))  # type: ignore[arg-type, misc]
        if kind == ipc.ADOPT:
            _, partition, snapshots, budget_mb = request
            return self.adopt(partition, snapshots, budget_mb)  # type: ignore[arg-type]
        if kind == ipc.RELEASE:
            _, partition = request
            return (ipc.RELEASED, partition, self.release(partition))  # type: ignore[arg-type]
        if kind == ipc.BUDGET:
            self.budget(request[1])  # type: ignore[arg-type]
            return (ipc.BUDGET,)
        raise ipc.FrameError(f"unknown request {kind!r}")

    def page(self, partition: int, record: WireRecord) -> tuple[object, ...]:
        part = self.partitions.get(partition)
        if part is None:  # the worker adopts before it sends pages; cope if it did not
            part = self.partitions[partition] = _Partition(self._new_memory(self.config.budget_mb))
        started = time.perf_counter()
        try:
            output, _ = handle_record(record, self.settings, self.options, part.memory)
        except Exception as exc:
            verdict = route(exc, "page")
            log.error("cleaning %s:%s:%s failed: %s", record.topic, record.partition, record.offset,
                      describe(exc))  # fmt: skip
            why = Rejection(str(verdict.reason), f"{type(exc).__name__}: {exc}"[:300], "extract",
                            type(exc).__name__)  # fmt: skip
            output = dead_output(record, why, self.settings)
        seconds = time.perf_counter() - started
        part.pages += 1
        snapshots: Snapshots = []
        now = time.monotonic()
        every_pages, every_s = self.settings.snapshot_every_pages, self.settings.snapshot_every_s
        if part.pages >= every_pages or now - part.last >= every_s:
            snapshots = self._snapshot(part)
        return (ipc.DONE, _wire_output(output), seconds, snapshots, self.memory_use())

    def adopt(
        self, partition: int, snapshots: Sequence[tuple[str, bytes]], budget_mb: float
    ) -> tuple[object, ...]:
        """Take a partition over with the snapshots the worker read from its changelog partition."""
        memory = self._new_memory(budget_mb)
        self.partitions[partition] = _Partition(memory)
        loaded = invalid = 0
        if memory is not None:
            for site, data in snapshots:
                try:
                    memory.load(site, data)
                except ValueError as exc:  # our own state, validated on load: skip it, relearn the site
                    invalid += 1
                    log.warning("skipping an invalid changelog snapshot of site %.80r (partition %s): %s",
                                site, partition, exc)  # fmt: skip
                    continue
                loaded += 1
        return (ipc.ADOPTED, partition, loaded, invalid)

    def release(self, partition: int) -> Snapshots:
        """Give a partition up: its changed sites' snapshots, then forget it."""
        part = self.partitions.pop(partition, None)
        return [] if part is None else self._snapshot(part)

    def budget(self, budget_mb: float) -> None:
        for part in self.partitions.values():
            if part.memory is not None:
                part.memory.set_budget_mb(budget_mb)

    def memory_use(self) -> tuple[int, int]:
        """(bytes, sites) of all site memories here, for the worker's gauges."""
        memories = [p.memory for p in self.partitions.values() if p.memory is not None]
        return sum(m.bytes_in_use for m in memories), sum(len(m) for m in memories)

    def _new_memory(self, budget_mb: float) -> SiteMemory | None:
        if self.settings.no_templates:
            return None
        memory = SiteMemory(self.config)
        memory.set_budget_mb(budget_mb)
        return memory

    @staticmethod
    def _snapshot(part: _Partition) -> Snapshots:
        part.pages = 0
        part.last = time.monotonic()
        memory = part.memory
        if memory is None:
            return []
        out = []
        for site in memory.take_dirty():
            data = memory.dump(site)
            if data is not None:
                out.append((site, data))
        return out


def _wire_output(out: Output) -> tuple[object, ...]:
    return (out.topic, out.key, out.value, out.headers, out.outcome, out.reason, out.method)


def _claim_stdio() -> tuple[int, int]:
    """The request and reply pipes, moved off fds 0 and 1: a stray print (ours or a library's, even
    from C) then lands in the log on stderr instead of corrupting the replies."""
    fd_in, fd_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    for fd in (fd_in, fd_out):
        # A page or a document then usually crosses in one write and one read instead of several
        # 64 KB rounds, each a wake-up of the worker's event loop.
        if setpipe is not None:
            with contextlib.suppress(OSError):
                fcntl.fcntl(fd, setpipe, PIPE_BYTES)
    return fd_in, fd_out


def _limit_memory(megabytes: int) -> None:
    limit = megabytes * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def main(argv: Sequence[str]) -> int:
    parent = int(argv[0]) if argv else None
    fd_in, fd_out = _claim_stdio()
    hook = die_with_parent()  # the worker may be killed outright; we must not outlive it
    if hook is not None:
        hook()
    if parent is not None and os.getppid() != parent:
        return 0  # the worker died before the hook was set
    # Ctrl-C in a terminal reaches the whole process group; the worker decides when we stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    init = ipc.read_request(fd_in)
    if init is None:
        return 0
    _, settings, level = init
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)s cleaner-%(process)d %(name)s: %(message)s",
        stream=sys.stderr,
    )
    _limit_memory(settings.process_memory_mb)
    tune_gc()
    cleaner = Cleaner(settings)
    ipc.write_frame(fd_out, (ipc.READY, os.getpid()))
    while True:
        request = ipc.read_request(fd_in)
        if request is None:
            return 0  # the worker closed the pipe: it is done with us
        try:
            reply = cleaner.handle(request)
        except Exception as exc:
            log.error("cannot answer a request: %s", describe(exc))
            return EXIT_BROKEN
        ipc.write_frame(fd_out, reply)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
