"""Real cleaning processes: `python -m worker.stream.child`, started with asyncio.

Their pipes are non-blocking and read by the worker's event loop, so a cleaning process that is slow,
stuck or dead never blocks the worker; the pool (worker/stream/pool.py) decides what happens to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import math
import os
import sys
import time
from pathlib import Path

from worker.settings import Settings
from worker.stream import ipc
from worker.stream.pool import ChildProcess, Launcher

# Starting a process takes ~0.2 s (interpreter and imports, measured); give a loaded machine room.
START_TIMEOUT_S = 30.0
# Replies are taken in bursts: once one came, the reader lets this long pass before it reads again,
# so the replies that arrive meanwhile cost the worker one wake-up instead of one each (two busy
# processes answer ~1,000 times a second, and each wake-up also takes a core from a cleaning process).
# A process has ~20 ms of pages queued in its pipe, so it never waits for the worker meanwhile; a
# page's latency grows by at most this, its deadline is kept to within it. Measured (e2e drain of the
# bench's 2,006 pages, two stand-in processes that answer after 2 ms without using CPU, 2 runs each,
# shared machine): the worker's CPU per page 0.30 / 0.27 / 0.24 / 0.25 ms at 0 / 5 / 10 / 20 ms, pages
# per second alike up to 10 ms and ~12% fewer at 20 ms (the processes then wait for pages). The reads
# fall on multiples of it (next_read_time), the same instants for every process.
REPLY_BATCH_S = 0.01
# A read at one of those instants that finds nothing is tried again at the next one, until nothing
# came for this long; only then does the reader wait for the pipe (an add_reader and a remove_reader,
# and a wake-up of the loop of its own when the reply comes, between the instants). A busy process
# answers every few ms, but a page can take longer than REPLY_BATCH_S: on the e2e drain (two processes)
# the waits were ~0.3 a page.
POLL_IDLE_S = 0.25
READ_BYTES = 1024 * 1024  # a pipe's size (child.PIPE_BYTES): one read takes all it holds
CHILD_MODULE = "worker.stream.child"


def next_read_time(read_at: float) -> float:
    """When to read a process's replies again after a read at `read_at` (time.monotonic()): the next
    multiple of REPLY_BATCH_S, the same instant for every process, so their reads share one wake-up of
    the event loop (each read an interval of its own woke the loop once per process)."""
    return (math.floor(read_at / REPLY_BATCH_S) + 1) * REPLY_BATCH_S


class SubprocessChild:
    """A cleaning process started with asyncio: requests through asyncio's pipe writer, replies read
    from a non-blocking pipe of our own (no transport: see REPLY_BATCH_S)."""

    def __init__(self, proc: asyncio.subprocess.Process, replies: int) -> None:
        self.proc = proc
        self.pid = proc.pid
        assert proc.stdin is not None
        self._stdin = proc.stdin
        self._fd = replies
        os.set_blocking(replies, False)
        # Replies are read into this buffer in place: os.read(fd, READ_BYTES) allocated a pipe's size
        # for every read and shrank it to what came (a mapping, its page faults and a copy: ~3% of the
        # member's CPU). It keeps the size of the largest burst (a document is at most
        # max_request_size) and holds the bytes between _at and _end.
        self._buffer = bytearray(2 * READ_BYTES)
        self._at = 0  # start of the first frame not yet taken
        self._end = 0  # end of the bytes read
        self._eof = False
        self._read_at: float | None = None  # when the last read found data
        self.pipe_bytes = 0  # known once the process is READY (it sizes its pipes before that)

    def send(self, *parts: bytes) -> None:
        if self._stdin.is_closing():
            raise RuntimeError("the pipe is closed")
        for part in parts:  # one by one: joining them would copy the page once more
            self._stdin.write(part)

    def buffered(self) -> int:
        return self._stdin.transport.get_write_buffer_size()

    def request_pipe_bytes(self) -> int:
        """The size of its request pipe (Linux's F_GETPIPE_SZ; 0 where it cannot be read)."""
        getpipe = getattr(fcntl, "F_GETPIPE_SZ", None)
        pipe = self._stdin.transport.get_extra_info("pipe")
        if getpipe is None or pipe is None:
            return 0
        try:
            return int(fcntl.fcntl(pipe.fileno(), getpipe))
        except (OSError, ValueError):
            return 0

    async def receive(self) -> bytes | None:
        while True:
            body = self._frame()
            if body is not None:
                return body
            if self._eof:
                return None
            if self._read_at is not None and self._at == self._end:
                delay = next_read_time(self._read_at) - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)
            if self._read():
                continue
            now = time.monotonic()
            if self._read_at is not None and now - self._read_at < POLL_IDLE_S:
                await asyncio.sleep(next_read_time(now) - now)  # nothing yet: the next instant
                continue
            self._read_at = None
            await self._readable()

    def _frame(self) -> bytes | None:
        """The next whole frame's body from what was read, or None."""
        buffer, at = self._buffer, self._at
        if self._end - at < ipc.LENGTH.size:
            return None
        start = at + ipc.LENGTH.size
        end = start + ipc.frame_length(buffer, at)
        if self._end < end:
            return None
        with memoryview(buffer) as view:
            body = bytes(view[start:end])
        if end == self._end:
            self._at = self._end = 0
        else:
            self._at = end
        return body

    def _read(self) -> bool:
        """Read all the pipe holds; False if it held nothing (and is still open)."""
        if self._fd < 0:
            self._eof = True
            return True
        got = False
        while True:
            self._make_room()
            try:
                with memoryview(self._buffer) as view:
                    size = os.readv(self._fd, [view[self._end :]])
            except BlockingIOError:
                break
            except OSError:  # the pipe is broken: the process is gone
                size = 0
            if not size:
                self._eof = True
                return True
            self._end += size
            got = True
            if self._end < len(self._buffer):  # the pipe had less than the room: it is empty
                break
        if got:
            self._read_at = time.monotonic()
        return got

    def _make_room(self) -> None:
        """At least a pipe's size free after _end: the unread bytes moved to the front, or more room."""
        buffer = self._buffer
        if len(buffer) - self._end >= READ_BYTES:
            return
        if self._at:
            kept = self._end - self._at
            buffer[:kept] = buffer[self._at : self._end]
            self._at, self._end = 0, kept
        if len(buffer) - self._end < READ_BYTES:
            buffer.extend(bytes(READ_BYTES))

    async def _readable(self) -> None:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(self._fd, wake)
        try:
            await ready
        finally:
            loop.remove_reader(self._fd)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def wait(self) -> int | None:
        code = await self.proc.wait()
        self._stdin.close()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        return code


def subprocess_launcher(settings: Settings) -> Launcher:
    """Starts `python -m worker.stream.child` with this checkout on its path, settings over the pipe."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    level = logging.getLogger().getEffectiveLevel()

    async def launch() -> ChildProcess:
        replies, their_end = os.pipe()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", CHILD_MODULE, str(os.getpid()),
                stdin=asyncio.subprocess.PIPE, stdout=their_end, stderr=None, env=env,
            )  # fmt: skip
        except BaseException:
            os.close(replies)
            raise
        finally:
            os.close(their_end)
        child = SubprocessChild(proc, replies)
        child.send(ipc.encode((ipc.INIT, settings, level)))
        try:
            body = await asyncio.wait_for(child.receive(), START_TIMEOUT_S)
            reply = ipc.decode_reply(body) if body is not None else None
        except (TimeoutError, ipc.FrameError):
            reply = None
        if reply is None or reply[0] != ipc.READY:
            child.kill()
            code = await child.wait()
            raise RuntimeError(f"cleaning process {proc.pid} did not start (exit code {code})")
        child.pipe_bytes = child.request_pipe_bytes()
        return child

    return launch
