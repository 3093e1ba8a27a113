"""How evenly two cleaning processes share the benchmark mix, by how pages are placed (a model).

    .venv/bin/python bench/placement.py [--data ../shared/data] [--partitions 4] [--contention 1.07]

First each page's cleaning CPU is measured: the mix (the pages `make bench` uses) cleaned twice in this
process with one template memory, the second pass timed per page. Then the member's dispatch is replayed
in a discrete-event model: pages keyed by site go to `murmur2(key) % partitions` (Kafka's partitioner),
each partition's pages are handed out in order, round-robin over the partitions, to two processes that
queue at most QUEUE_PAGES pages each and clean them one at a time, each page taking its measured CPU
(times `contention` while both processes are busy: two processes on two cores each spend ~7% more a
page, README "Quality and speed"). Placements compared:

- partition: whole partitions dealt alternately over the processes (the worker before site placement);
- pages / bytes: each new key on the process with room and the fewest queued pages / bytes, then kept
  there (worker/stream/placement.py; the worker uses bytes).

Printed per placement: the drain's length, two processes against one (the sum of the CPU), and each
process's share of the cleaning CPU. A model, not a measurement of the worker: no member, broker or
pipe costs; it shows what the placement alone costs or saves. Deterministic once the CPU is measured.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiokafka.partitioner import murmur2  # noqa: E402

from bench.e2e import _bench_mix, _prepare  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.sitememory import SiteMemory  # noqa: E402
from worker.gc_policy import tune_gc  # noqa: E402
from worker.messages import page_to_record  # noqa: E402
from worker.stream.pool import QUEUE_PAGES  # noqa: E402

Page = tuple[bytes, float, int]  # key, CPU seconds, bytes


def measure(data: Path) -> list[Page]:
    tune_gc()
    pages = _prepare(_bench_mix(data), None)
    memory = SiteMemory()
    out: list[Page] = []
    for timed in (False, True):
        for page in pages:
            key, value, _ = page_to_record(page)
            started = time.process_time()
            clean_page(page, memory)
            if timed and key:
                out.append((key, time.process_time() - started, len(value)))
    return out


def drain(pages: list[Page], partitions: int, contention: float, mode: str) -> tuple[float, list[float]]:
    """(seconds to clean every page, each process's share of the CPU) under placement `mode`."""
    backlogs: list[deque[Page]] = [deque() for _ in range(partitions)]
    for page in pages:
        backlogs[(murmur2(page[0]) & 0x7FFFFFFF) % partitions].append(page)
    queues: list[deque[Page]] = [deque(), deque()]
    queued_bytes = [0, 0]
    placed: dict[bytes, int] = {}
    load: Callable[[int], tuple[int, int]] = (
        (lambda s: (len(queues[s]), queued_bytes[s]))
        if mode == "pages"
        else (lambda s: (queued_bytes[s], len(queues[s])))
    )
    turn = 0

    def pump() -> None:
        nonlocal turn
        turn = (turn + 1) % partitions
        order = list(range(turn, partitions)) + list(range(turn))
        moved = True
        while moved:
            moved = False
            for p in order:
                if not backlogs[p]:
                    continue
                key = backlogs[p][0][0]
                free = [s for s in (0, 1) if len(queues[s]) < QUEUE_PAGES]
                if mode == "partition":
                    slot = p % 2
                elif key in placed:
                    slot = placed[key]
                elif free:
                    # a key leaves its process only when idle; with queues this short that is a detail
                    slot = placed[key] = min(free, key=lambda s: (*load(s), s))
                else:
                    continue
                if slot not in free:
                    continue
                page = backlogs[p].popleft()
                queues[slot].append(page)
                queued_bytes[slot] += page[2]
                moved = True

    pump()
    clock, cpu = 0.0, [0.0, 0.0]
    left = [q[0][1] if q else 0.0 for q in queues]
    while queues[0] or queues[1]:
        rate = 1 / contention if queues[0] and queues[1] else 1.0
        step, done = min((left[s] / rate, s) for s in (0, 1) if queues[s])
        for s in (0, 1):
            if queues[s]:
                left[s] -= step * rate
                cpu[s] += step * rate
        clock += step
        queued_bytes[done] -= queues[done].popleft()[2]
        pump()
        for s in (0, 1):
            if queues[s] and (s == done or left[s] <= 1e-12):
                left[s] = queues[s][0][1]
    total = sum(cpu)
    return clock, [round(c / total, 3) for c in cpu]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--contention", type=float, default=1.07)
    args = parser.parse_args()
    pages = measure(args.data)
    if not pages:
        print(f"no benchmark pages under {args.data}: skipped (the shared data sets are absent)")
        return 0
    one = sum(c for _, c, _ in pages)
    print(f"{len(pages)} pages, {len({k for k, _, _ in pages})} sites, {one:.3f} s of cleaning CPU")
    for mode in ("partition", "pages", "bytes"):
        seconds, split = drain(pages, args.partitions, args.contention, mode)
        print(f"{mode:9s}  drain {seconds:.3f} s  two/one {one / seconds:.3f}  CPU split {split}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
