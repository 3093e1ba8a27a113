"""Pages that stay slow or memory-hungry whatever the cleaning core learns to guard against.

The pool's deadline, its memory limit and the worker's shutdown are tested with real processes on pages
that take 60 s or gigabytes. Real hostile markup no longer does (worker/clean/guard.py flattens it in
milliseconds), so these processes clean pages as the product does, except that a page carrying one of
the marks below first sleeps or allocates, as a parse stuck in C would.

    python -m tests.slowpages PARENT_PID             a cleaning process (what worker/stream/spawn.py starts)
    python -m tests.slowpages worker ARGS...         `python -m worker ARGS...` whose cleaning processes
                                                     are the ones above
"""

from __future__ import annotations

import sys
import time
from typing import Any

SLOW_MARK = "<!--cleanstream-test:slow-->"  # the page takes SLOW_S of wall-clock time
BOMB_MARK = "<!--cleanstream-test:bomb-->"  # the page needs BOMB_BYTES of memory
MODULE = "tests.slowpages"  # not __name__: that is "__main__" when run with -m
SLOW_S = 60.0
BOMB_BYTES = 8 * 1024**3


def _marked(page: Any, mark: str) -> bool:
    if page.html is not None:
        return mark in page.html
    return page.body is not None and mark.encode() in page.body


def install() -> None:
    """Make the cleaning of marked pages slow or memory-hungry, in this process."""
    from worker.stream import handle

    clean_page = handle.clean_page

    def marked_clean_page(page: Any, *args: Any, **kwargs: Any) -> Any:
        if _marked(page, SLOW_MARK):
            time.sleep(SLOW_S)
        if _marked(page, BOMB_MARK):
            bytearray(BOMB_BYTES)  # MemoryError under the process's address-space limit
        return clean_page(page, *args, **kwargs)

    handle.clean_page = marked_clean_page  # type: ignore[assignment]


def use_in_pool() -> None:
    """Cleaning processes started from this process from now on are the marked ones."""
    from worker.stream import spawn

    spawn.CHILD_MODULE = MODULE


def main(argv: list[str]) -> int:
    if argv[:1] == ["worker"]:
        from worker.__main__ import main as worker_main

        use_in_pool()
        return worker_main(argv[1:])
    from worker.stream import child

    install()
    return child.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
