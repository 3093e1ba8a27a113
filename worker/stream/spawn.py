"""Real cleaning processes: `python -m worker.stream.child`, started with asyncio.

Their pipes are non-blocking and read by the worker's event loop, so a cleaning process that is slow,
stuck or dead never blocks the worker; the pool (worker/stream/pool.py) decides what happens to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from pathlib import Path

from worker.settings import Settings
from worker.stream import ipc
from worker.stream.pool import ChildProcess, Launcher

# Starting a process takes ~0.2 s (interpreter and imports, measured); give a loaded machine room.
START_TIMEOUT_S = 30.0
# Pipe reads are buffered up to this before the transport pauses (asyncio's 64 KB default would
# pause and resume dozens of times for one large page).
PIPE_LIMIT = 4 * 1024 * 1024
CHILD_MODULE = "worker.stream.child"


class SubprocessChild:
    """A cleaning process started with asyncio: non-blocking pipes, read by the event loop."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.pid = proc.pid
        assert proc.stdin is not None
        assert proc.stdout is not None
        self._stdin = proc.stdin
        self._stdout = proc.stdout

    def send(self, *parts: bytes) -> None:
        if self._stdin.is_closing():
            raise RuntimeError("the pipe is closed")
        for part in parts:  # one by one: joining them would copy the page once more
            self._stdin.write(part)

    def buffered(self) -> int:
        return self._stdin.transport.get_write_buffer_size()

    async def receive(self) -> bytes | None:
        try:
            header = await self._stdout.readexactly(ipc.LENGTH.size)
            return await self._stdout.readexactly(ipc.frame_length(header))
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()

    async def wait(self) -> int | None:
        code = await self.proc.wait()
        self._stdin.close()
        return code


def subprocess_launcher(settings: Settings) -> Launcher:
    """Starts `python -m worker.stream.child` with this checkout on its path, settings over the pipe."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    level = logging.getLogger().getEffectiveLevel()

    async def launch() -> ChildProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", CHILD_MODULE, str(os.getpid()),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=None,
            env=env, limit=PIPE_LIMIT,
        )  # fmt: skip
        child = SubprocessChild(proc)
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
        return child

    return launch
