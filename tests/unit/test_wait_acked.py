"""WorkerProcess.wait_acked, the poll of a draining worker: it ends when every output is acked, with few
scrapes (bench/e2e.py counts each scrape's CPU as the worker's)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from worker.stream import local
from worker.stream.local import WorkerProcess


class _Draining:
    """A worker that acks `rate` outputs a second of a fake clock, up to `total`."""

    def __init__(self, clock: list[float], rate: float, total: int) -> None:
        self.clock, self.rate, self.total = clock, rate, total
        self.scrapes = 0
        self.proc = SimpleNamespace(returncode=None)

    def alive(self) -> bool:
        return True

    def tail(self) -> str:
        return ""

    async def acked_outputs(self) -> int:
        self.scrapes += 1
        return min(self.total, int(self.rate * self.clock[0]))


def _fake_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    clock = [0.0]

    async def sleep(seconds: float) -> None:
        clock[0] += seconds

    monkeypatch.setattr(local, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    monkeypatch.setattr(local, "asyncio", SimpleNamespace(sleep=sleep))
    return clock


async def test_the_drain_poll_ends_soon_after_the_last_ack_with_few_scrapes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = _fake_clock(monkeypatch)
    worker: Any = _Draining(clock, rate=500.0, total=6000)  # a 12 s drain
    assert await WorkerProcess.wait_acked(worker, 6000, timeout_s=600)
    assert 12.0 <= clock[0] <= 12.0 + local.POLL_MIN_S
    assert worker.scrapes < 12  # every POLL_MIN_S it was 25


async def test_the_drain_poll_gives_up_at_its_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _fake_clock(monkeypatch)
    worker: Any = _Draining(clock, rate=1.0, total=6000)
    assert not await WorkerProcess.wait_acked(worker, 6000, timeout_s=30)
    assert 30.0 <= clock[0] <= 30.0 + local.POLL_MIN_S
