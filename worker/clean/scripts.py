"""The characters of the scripts heuristics.py names by code point ranges (UNSPACED_SCRIPTS, DENSE_SCRIPTS).

Counted with bisect on the ranges' bounds, not matched with a regex character class: re compiles a class
of ranges beyond U+00FF into a map of every code point in them, one Python step each (the two classes
cost 57 M instructions at import, 4% of a one-page `clean`). The C accelerator reads the ranges itself;
this is the reference it is checked against, and the fallback without it.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Protocol

Ranges = tuple[tuple[int, int], ...]


class Count(Protocol):
    def __call__(self, text: str, limit: int | None = None) -> int: ...


def counter(ranges: Ranges) -> Count:
    """count(text, limit=None): how many characters of `text` lie in `ranges` (sorted, disjoint,
    inclusive code point ranges), counting stopped at `limit`."""
    starts = [lo for lo, _ in ranges]
    ends = [hi for _, hi in ranges]
    lowest = chr(starts[0]) if starts else "\U0010ffff"

    def count(text: str, limit: int | None = None) -> int:
        n = 0
        if text.isascii():  # most text: no character of these scripts
            return n
        for c in text:
            if c >= lowest:
                i = bisect_right(starts, ord(c)) - 1
                if ord(c) <= ends[i]:
                    n += 1
                    if n == limit:
                        break
        return n

    return count
