"""The committed offset never passes an input whose output is not acked, whatever order acks come in."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from worker.stream.state import OffsetTracker, PartitionState


def test_watermark_waits_for_the_oldest_unacked_offset() -> None:
    t = OffsetTracker()
    a, b, c = t.track(10), t.track(11), t.track(12)
    t.ack(b)
    t.ack(c)
    assert t.watermark is None  # 10 still in flight
    t.ack(a)
    assert t.watermark == 13
    assert t.pending == 0


def test_gaps_in_offsets_are_fine_and_rewinds_forget_the_old_run() -> None:
    t = OffsetTracker()
    first = t.track(5)
    t.ack(t.track(4 + 10))  # a forward gap (e.g. transaction markers) is not an unacked input
    assert t.watermark is None
    t.ack(first)
    assert t.watermark == 15
    stale = t.track(20)
    rewound = t.track(8)  # the consumer went back: the old entry must not move the new watermark
    t.ack(stale)
    assert t.watermark is None
    t.ack(rewound)
    assert t.watermark == 9


def test_partition_state_commits_only_new_progress() -> None:
    s = PartitionState("pages", 0)
    assert s.to_commit() is None
    s.tracker.ack(s.tracker.track(0))
    assert s.to_commit() == 1
    s.committed = 1
    assert s.to_commit() is None


@given(n=st.integers(1, 60), seed=st.integers(0, 10_000), step=st.integers(1, 3))
def test_watermark_is_the_contiguous_acked_prefix(n: int, seed: int, step: int) -> None:
    t = OffsetTracker()
    entries = [t.track(i * step) for i in range(n)]
    order = list(range(n))
    random.Random(seed).shuffle(order)
    acked: set[int] = set()
    for i in order:
        t.ack(entries[i])
        acked.add(i)
        prefix = 0
        while prefix in acked:
            prefix += 1
        expected = None if prefix == 0 else (prefix - 1) * step + 1
        assert t.watermark == expected
