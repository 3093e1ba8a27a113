"""The cleaning process: its wire format, its request handling in-process, and real processes.

Real-process cases start `python -m worker.stream.child` (~0.2 s each): a page past its deadline gets
its process killed and replaced, a memory bomb fails alone under the address-space limit, the process
imports no Kafka/HTTP/metrics library and does not outlive a worker killed outright.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
from prometheus_client import CollectorRegistry

from tests import slowpages
from tests.unit.fakekafka import Rec, page_value, wait_until
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.metrics import create_metrics
from worker.settings import Settings
from worker.stream import child as child_mod
from worker.stream import handle as handle_mod
from worker.stream import ipc, spawn
from worker.stream.child import Cleaner
from worker.stream.handle import Output
from worker.stream.pool import CleaningPool
from worker.stream.spawn import subprocess_launcher
from worker.stream.state import Job, PartitionState

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = Settings(output_topic="docs", dead_letter_topic="dead", snapshot_every_pages=1000)
MARKER = "ZZ-page-text-that-must-not-be-logged-ZZ"


def request(partition: int, offset: int, key: bytes | None, value: bytes | None) -> tuple[Any, ...]:
    return (ipc.PAGE, partition, ("pages", partition, offset, 0, key, value, ()))


# --- wire ----------------------------------------------------------------------------------------


def test_frames_round_trip_over_a_pipe() -> None:
    read_fd, write_fd = os.pipe()
    big = os.urandom(3 * 1024 * 1024)  # larger than a pipe buffer: written and read in pieces
    message = (ipc.DONE, ("docs", b"k", big, [("id", b"x")], "document", None, "density"), 0.5, [], (1, 2))

    def writer() -> None:
        ipc.write_frame(write_fd, message)
        os.close(write_fd)

    thread = threading.Thread(target=writer)
    thread.start()
    body = ipc.read_frame(read_fd)
    thread.join()
    assert body is not None
    assert ipc.decode_reply(body) == message
    assert ipc.read_frame(read_fd) is None  # end of file: the other side is gone
    os.close(read_fd)


class _Evil:
    def __reduce__(self) -> tuple[Any, ...]:
        return (os.getpid, ())


@pytest.mark.parametrize("value", [None, b"", b"<p>x</p>", os.urandom(3 * 1024 * 1024)])
def test_a_page_crosses_the_pipe_with_its_value_beside_the_frame(value: bytes | None) -> None:
    read_fd, write_fd = os.pipe()
    record = ("pages", 2, 7, 123, b"site", value, (("id", b"x"),))
    frame, raw = ipc.encode_page(2, record)
    assert len(frame) < 200  # the value is not in the pickle

    def writer() -> None:
        for part in (frame, raw, ipc.encode((ipc.RELEASE, 2))):
            view = memoryview(part)
            while view:
                view = view[os.write(write_fd, view) :]
        os.close(write_fd)

    thread = threading.Thread(target=writer)
    thread.start()
    assert ipc.read_request(read_fd) == (ipc.PAGE, 2, record)
    assert ipc.read_request(read_fd) == (ipc.RELEASE, 2)  # the next frame starts right after the value
    assert ipc.read_request(read_fd) is None
    thread.join()
    os.close(read_fd)


def reply_reader() -> tuple[spawn.SubprocessChild, int, int]:
    """A SubprocessChild reading replies from a fresh pipe: (child, read end, write end)."""
    read_fd, write_fd = os.pipe()
    stdin = SimpleNamespace(is_closing=lambda: False, write=lambda data: None)
    child = spawn.SubprocessChild(SimpleNamespace(pid=1, stdin=stdin), read_fd)  # type: ignore[arg-type]
    return child, read_fd, write_fd


async def test_replies_are_taken_whole_across_reads_and_in_bursts() -> None:
    child, read_fd, write_fd = reply_reader()
    big = os.urandom(3 * 1024 * 1024)  # larger than the pipe: arrives over several reads
    replies = [(ipc.DONE, 0), (ipc.DONE, 1), (ipc.DONE, big), (ipc.BUDGET,)]
    data = memoryview(b"".join(ipc.encode(r) for r in replies))

    def writer() -> None:
        view = data
        while view:
            view = view[os.write(write_fd, view) :]
        os.close(write_fd)

    thread = threading.Thread(target=writer)
    thread.start()
    got = []
    for _ in replies:
        body = await child.receive()
        assert body is not None
        got.append(ipc.decode_reply(body))
    assert got == replies
    assert await child.receive() is None  # end of file: the process is gone
    thread.join()
    os.close(read_fd)


async def test_a_reply_that_arrives_alone_is_taken_at_once_and_the_next_ones_together() -> None:
    child, read_fd, write_fd = reply_reader()
    asyncio.get_running_loop().call_later(0.05, os.write, write_fd, ipc.encode((ipc.DONE, 0)))
    started = time.monotonic()
    assert await child.receive() is not None
    waited = time.monotonic() - started
    assert 0.04 < waited < 0.04 + 2  # woken by the reply itself, not by a timer
    os.write(write_fd, ipc.encode((ipc.DONE, 1)))
    os.write(write_fd, ipc.encode((ipc.DONE, 2)))
    assert await child.receive() is not None
    assert child._at < child._end  # both came in one read; the second is taken without reading again
    assert await child.receive() is not None
    os.close(write_fd)
    assert await child.receive() is None
    os.close(read_fd)


async def test_a_quiet_pipe_is_read_again_at_the_next_instants_before_it_is_waited_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A read that finds nothing right after replies came is tried again at the next read instants
    (shared with the other processes' reads) instead of waiting on the pipe, which costs the loop a
    wake-up of its own per reply; only after POLL_IDLE_S without a reply does the reader wait."""
    child, read_fd, write_fd = reply_reader()
    waits = 0
    readable = child._readable

    async def counted() -> None:
        nonlocal waits
        waits += 1
        await readable()

    monkeypatch.setattr(child, "_readable", counted)
    os.write(write_fd, ipc.encode((ipc.DONE, 0)))
    assert await child.receive() is not None
    loop = asyncio.get_running_loop()
    loop.call_later(0.015, os.write, write_fd, ipc.encode((ipc.DONE, 1)))
    started = time.monotonic()
    assert await child.receive() is not None
    assert time.monotonic() - started < 0.015 + spawn.REPLY_BATCH_S + 0.2
    assert waits == 0  # taken at a read instant
    loop.call_later(spawn.POLL_IDLE_S + 0.1, os.write, write_fd, ipc.encode((ipc.DONE, 2)))
    assert await child.receive() is not None
    assert waits == 1  # quiet for longer than POLL_IDLE_S: waited on the pipe
    os.close(write_fd)
    assert await child.receive() is None
    os.close(read_fd)


async def test_the_rest_of_a_reply_is_waited_for_at_the_read_instants_not_in_a_busy_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    child, read_fd, write_fd = reply_reader()
    reads = 0
    read = child._read

    def counted() -> bool:
        nonlocal reads
        reads += 1
        return read()

    monkeypatch.setattr(child, "_read", counted)
    frame = ipc.encode((ipc.DONE, b"x" * 1000))
    os.write(write_fd, frame[:500])  # half a reply: the other half comes 50 ms later
    asyncio.get_running_loop().call_later(0.05, os.write, write_fd, frame[500:])
    assert await child.receive() is not None
    assert reads <= 2 + 0.05 / spawn.REPLY_BATCH_S + 5  # a read at each instant, give or take
    os.close(write_fd)
    os.close(read_fd)


def test_every_process_reads_its_replies_at_the_same_instants() -> None:
    """Reads fall on one grid of REPLY_BATCH_S, so two processes' reads share the loop's wake-ups, and
    no read waits longer than REPLY_BATCH_S after the last one."""
    step = spawn.REPLY_BATCH_S
    for read_at in (1000.0003, 1000.0051, 1000.0099, 73.25, 0.0):
        due = spawn.next_read_time(read_at)
        assert read_at < due <= read_at + step + 1e-9
        assert due == spawn.next_read_time(due - step * 0.5)  # a read elsewhere in the interval: same
    # two processes that last read at different moments of one interval read again together
    assert spawn.next_read_time(5.0012) == spawn.next_read_time(5.0087)


def test_replies_are_data_never_code() -> None:
    with pytest.raises(ipc.FrameError, match="global"):
        ipc.decode_reply(pickle.dumps((ipc.DONE, _Evil())))
    with pytest.raises(ipc.FrameError):
        ipc.decode_reply(pickle.dumps(["not", "a", "tuple"]))
    with pytest.raises(ipc.FrameError):
        ipc.decode_reply(b"\x80\x05garbage")
    with pytest.raises(ipc.FrameError, match="announced"):
        ipc.frame_length(ipc.LENGTH.pack(ipc.MAX_FRAME + 1))


# --- the Cleaner in-process ----------------------------------------------------------------------


def test_adopt_skips_invalid_snapshots_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    good = SiteMemory(MemoryConfig())
    good.observe("good.example", "u1", {1, 2, 3})
    cleaner = Cleaner(SETTINGS)
    snapshots = [("good.example", good.dump("good.example")), ("bad.example", b"\x01garbage")]
    with caplog.at_level(logging.WARNING):
        reply = cleaner.handle((ipc.ADOPT, 3, snapshots, 10.0))
    assert reply == (ipc.ADOPTED, 3, 1, 1)
    memory = cleaner.partitions[3].memory
    assert memory is not None
    assert memory.sites() == ["good.example"]
    assert "skipping an invalid changelog snapshot of site 'bad.example'" in caplog.text
    assert memory.budget_bytes == 10 * 1024 * 1024


def test_pages_learn_per_partition_and_release_hands_the_changes_back() -> None:
    cleaner = Cleaner(SETTINGS)
    cleaner.handle((ipc.ADOPT, 0, [], 10.0))
    cleaner.handle((ipc.ADOPT, 1, [], 10.0))
    for i in range(3):
        reply = cleaner.handle(request(0, i, *page_value(i, site="zero.example")))
        assert reply[0] == ipc.DONE
        assert Output(*reply[1]).outcome == "document"
        assert reply[4][1] == 1  # (bytes, sites) of this process's memory
    assert cleaner.handle((ipc.RELEASE, 1)) == (ipc.RELEASED, 1, [])  # nothing learned there
    _, partition, snapshots = cleaner.handle((ipc.RELEASE, 0))
    assert (partition, [site for site, _ in snapshots]) == (0, ["zero.example"])
    assert cleaner.partitions == {}


def test_snapshots_come_back_with_a_page_every_n_pages() -> None:
    cleaner = Cleaner(dataclasses.replace(SETTINGS, snapshot_every_pages=2))
    cleaner.handle((ipc.ADOPT, 0, [], 10.0))
    sent = [cleaner.handle(request(0, i, *page_value(i)))[3] for i in range(4)]
    assert [len(s) for s in sent] == [0, 1, 0, 1]  # type: ignore[arg-type]


def test_a_failure_costs_one_page_and_logs_no_page_content(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cleaner = Cleaner(SETTINGS)
    cleaner.handle((ipc.ADOPT, 0, [], 10.0))

    def broken(*_: Any) -> Any:
        raise ValueError(f"unexpected <p>{MARKER}</p>")

    with caplog.at_level(logging.DEBUG):
        monkeypatch.setattr(handle_mod, "clean_page", broken)  # the pipeline breaks its promise
        inner = Output(*cleaner.handle(request(0, 1, *page_value(1)))[1])
        monkeypatch.setattr(child_mod, "handle_record", broken)  # so does the codec
        outer = Output(*cleaner.handle(request(0, 2, *page_value(2)))[1])
    assert (inner.outcome, inner.reason) == ("dead_letter", "extraction_error")
    assert (outer.outcome, outer.reason) == ("dead_letter", "internal_error")
    assert MARKER in orjson.loads(outer.value)["detail"]  # the dead letter keeps the detail
    assert caplog.text.count("ValueError at test_cleaning_process.py:") == 2
    assert MARKER not in caplog.text


# --- real processes ------------------------------------------------------------------------------


class Events:
    def __init__(self) -> None:
        self.outputs: list[tuple[int, Output]] = []
        self.requeued: list[int] = []
        self.restored: list[list[int]] = []
        self.fatal: list[str] = []

    async def on_output(self, job: Job, output: Output, seconds: float, snapshots: Any) -> None:
        self.outputs.append((job.record.offset, output))

    def on_requeue(self, jobs: list[Job]) -> None:
        self.requeued += [j.record.offset for j in jobs]

    async def restore(self, partitions: list[int]) -> dict[int, Any]:
        self.restored.append(partitions)
        return {}

    def on_room(self) -> None:
        pass

    def on_adopted(self, partition: int, loaded: int, invalid: int) -> None:
        pass

    def on_fatal(self, why: str) -> None:
        self.fatal.append(why)


async def run_pages(settings: Settings, values: list[bytes]) -> tuple[Events, CleaningPool]:
    events = Events()
    metrics = create_metrics(CollectorRegistry(), process_info=False)
    pool = CleaningPool(settings, events, subprocess_launcher(settings), metrics)
    await pool.start()
    try:
        state = PartitionState("pages", 0)
        pool.adopt({0: []})
        for offset, value in enumerate(values):
            job = Job(state, Rec("pages", 0, offset, b"k", value))
            job.entry = state.tracker.track(offset)
            await wait_until(lambda job=job: pool.route(job) is not None, within=30)
            slot = pool.route(job)
            assert slot is not None
            pool.submit(job, slot)
        await wait_until(lambda: len(events.outputs) + len(events.requeued) >= len(values), within=60)
    finally:
        await pool.close()
    return events, pool


class _Stuck:
    """A cleaning process whose pipe is full: written requests wait in the writer's buffer."""

    pid = 1
    pipe_bytes = 0

    def __init__(self) -> None:
        self.sent: list[tuple[bytes, ...]] = []
        self.waiting = 0

    def send(self, *parts: bytes) -> None:
        self.sent.append(parts)

    def buffered(self) -> int:
        return self.waiting

    async def receive(self) -> bytes | None:
        await asyncio.Event().wait()
        return None

    def kill(self) -> None:
        pass

    async def wait(self) -> int | None:
        return None


async def test_no_page_waits_behind_a_full_pipe_but_an_idle_process_always_gets_one() -> None:
    child = _Stuck()

    async def launch() -> _Stuck:
        return child

    pool = CleaningPool(SETTINGS, Events(), launch, create_metrics(CollectorRegistry(), process_info=False))
    await pool.start()
    try:
        state = PartitionState("pages", 0)
        pool.adopt({0: []})
        child.waiting = 1000
        job = Job(state, Rec("pages", 0, 0, b"k", b"v" * 100))
        slot = pool.route(job)  # nothing queued on it: it gets a page whatever its pipe holds
        assert slot is not None
        job.entry = state.tracker.track(0)
        pool.submit(job, slot)
        after = Job(state, Rec("pages", 0, 1, b"k", b"v" * 100))
        assert pool.route(after) is None  # a page is queued and the pipe is full: the next one waits here
        child.waiting = 0
        assert pool.route(after) is slot
    finally:
        await pool.close()


@pytest.fixture
def marked_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cleaning processes that hang or allocate on marked pages (tests/slowpages.py)."""
    monkeypatch.setattr(spawn, "CHILD_MODULE", slowpages.MODULE)


@pytest.mark.usefixtures("marked_pool")
async def test_a_page_past_its_deadline_kills_its_process_and_is_dead_lettered_once() -> None:
    settings = dataclasses.replace(SETTINGS, page_deadline_s=0.5, time_budget_ms=100.0)
    slow = page_value(0, html=f"<html><body>{slowpages.SLOW_MARK}<p>x</p>")[1]
    started = time.monotonic()
    events, pool = await run_pages(settings, [slow, page_value(1)[1], page_value(2)[1]])
    assert time.monotonic() - started < 10  # the marked page alone takes 60 s
    dead = [(o, out.reason) for o, out in events.outputs if out.outcome == "dead_letter"]
    assert dead == [(0, "timeout")]
    assert events.requeued == [1, 2]  # queued behind it: handed back, not lost, not answered twice
    assert events.restored == [[0]]
    assert pool.metrics.cleaner_restarts.labels("deadline")._value.get() == 1
    assert events.fatal == []


@pytest.mark.usefixtures("marked_pool")
async def test_a_memory_bomb_fails_alone_under_the_address_space_limit() -> None:
    settings = dataclasses.replace(SETTINGS, process_memory_mb=384, page_deadline_s=20.0)
    bomb = page_value(0, html=f"<html><body>{slowpages.BOMB_MARK}<p>x</p>")[1]
    events, _ = await run_pages(settings, [bomb, page_value(1)[1]])
    outcomes = {o: (out.outcome, out.reason) for o, out in events.outputs}
    assert outcomes[0][0] == "dead_letter"
    assert outcomes[0][1] in {"parse_error", "internal_error", "extraction_error"}
    assert outcomes[1] == ("document", None)


def test_the_cleaning_process_imports_no_kafka_http_or_metrics_library() -> None:
    code = (
        "import sys, worker.stream.child; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'aiokafka', 'aiohttp', 'prometheus_client'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")
async def test_a_started_process_reports_the_size_its_request_pipe_was_given() -> None:
    """The pool hands a page over only while it fits in this size (pool.FIT_AFTER_PAGES)."""
    limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())  # noqa: ASYNC240 (before any await)
    given = os.geteuid() == 0 or limit >= child_mod.PIPE_BYTES  # else it keeps Linux's 64 KB
    child = await subprocess_launcher(Settings())()
    try:
        assert child.pipe_bytes == (child_mod.PIPE_BYTES if given else 64 * 1024)
    finally:
        child.kill()
        await child.wait()


def test_a_cleaning_process_does_not_outlive_a_worker_killed_outright(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(
        "import asyncio, sys, time\n"
        "from worker.settings import Settings\n"
        "from worker.stream.spawn import subprocess_launcher\n"
        "async def main():\n"
        "    child = await subprocess_launcher(Settings())()\n"
        "    print(child.pid, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    parent = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        pid = int(parent.stdout.readline())
        os.kill(pid, 0)  # alive
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(pid)
    finally:
        if parent.poll() is None:
            parent.kill()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
