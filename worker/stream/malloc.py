"""Keep freed heap memory for reuse instead of handing it back to the kernel (glibc's malloc only).

The member handles a page as a few large buffers that live for milliseconds: a fetched batch and its
decompressed copy (~1 MB each), the page values (~100 KB), a produce batch. glibc serves requests above
its mmap threshold (128 KB, adapting up to the largest block freed) with fresh mappings and returns the
heap's top once more than twice that lies free, so every batch touched newly mapped pages: page faults
and zeroed pages were ~8% of the member's CPU (perf over an e2e drain). With a fixed threshold the heap
keeps what it freed, up to TRIM_BYTES free at its top. The cost is resident memory: what the process
freed stays mapped, at most its peak (bounded by the backlog and fetch sizes).
"""

from __future__ import annotations

import ctypes
import logging
import sys

log = logging.getLogger(__name__)

# From <malloc.h>.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
# Blocks up to glibc's largest mmap threshold (32 MiB on 64-bit: DEFAULT_MMAP_THRESHOLD_MAX) come from
# the heap: a fetch response is at most fetch_max_bytes (16 MiB by default).
MMAP_BYTES = 32 * 1024 * 1024
# Free memory at the heap's top kept before trimming: a few fetches' worth.
TRIM_BYTES = 64 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Set the thresholds (see the module docstring); False where the C library has no mallopt."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt answers 1 on success; musl's stub answers 0 and changes nothing
    done = int(mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)) == 1 and int(mallopt(M_TRIM_THRESHOLD, TRIM_BYTES)) == 1
    log.debug("malloc thresholds %s", "set" if done else "not supported here")
    return done
