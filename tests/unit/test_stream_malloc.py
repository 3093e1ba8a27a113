"""The member's malloc thresholds (worker/stream/malloc.py)."""

from __future__ import annotations

import platform
import sys

import pytest

from worker.stream import malloc


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's mallopt"
)
def test_glibc_takes_the_thresholds() -> None:
    # mallopt refuses an mmap threshold above its maximum (32 MiB on 64-bit) by answering 0
    assert malloc.keep_freed_memory()
    assert malloc.MMAP_BYTES <= 32 * 1024 * 1024
