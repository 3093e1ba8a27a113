"""The garbage-collector policy of every long cleaning run: the worker, `clean`, `eval` and the benchmarks.

Kept apart from the stream runner so the offline commands get the same policy without importing a Kafka
or HTTP library (see tests/unit/test_cli_imports.py).
"""

from __future__ import annotations

import gc

# Cleaning allocates containers fast, so with Python's default gen-0 threshold (700) the collector
# ran ~1000 times per 1000 pages and took ~15% of the worker's CPU (0.64 s of 4.2 s, measured); at
# 10k allocations it took 0.27-0.42 s. Freezing what start-up allocated (modules, clients) keeps older
# generations' scans small. Costs a little memory: cyclic garbage lives a little longer.
GC_THRESHOLDS = (10_000, 10, 10)
_tuned = False


def tune_gc() -> None:
    """Once per process: freeze start-up objects and raise the gen-0 threshold (see GC_THRESHOLDS)."""
    global _tuned
    if _tuned:
        return
    _tuned = True
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
