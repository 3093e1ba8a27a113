"""What the pure pipeline is told: its options (derived from worker.settings) and the per-page budget."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields

from worker.settings import Settings

_DEFAULTS = Settings()


@dataclass(frozen=True, slots=True)
class CleanOptions:
    """The settings that change what one page becomes. Defaults are the Settings' defaults."""

    # Limits that keep one page from stalling a partition (the stream turns them into dead letters).
    max_bytes: int = _DEFAULTS.max_bytes
    max_nodes: int = _DEFAULTS.max_nodes
    time_budget_ms: float = _DEFAULTS.time_budget_ms
    # Output choices.
    keep_comments: bool = _DEFAULTS.keep_comments
    keep_headline: bool = _DEFAULTS.keep_headline
    keep_captions: bool = _DEFAULTS.keep_captions
    min_block_quality: float = _DEFAULTS.min_block_quality
    # The heuristics alone (the learned block model's fallback and features).
    block_model: bool = _DEFAULTS.block_model

    @classmethod
    def from_settings(cls, settings: Settings) -> CleanOptions:
        """Each option is the setting of the same name."""
        return cls(**{f.name: getattr(settings, f.name) for f in fields(cls)})


class OverBudget(TimeoutError):
    """The page used up its CPU time budget; `stage` is where that was noticed."""

    def __init__(self, stage: str, spent_ms: float) -> None:
        super().__init__(f"{stage}: {spent_ms:.0f} ms")
        self.stage = stage
        self.spent_ms = spent_ms


class TooManyNodes(Exception):
    """The page holds more elements than the node limit allows."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"more than {limit} nodes")
        self.limit = limit


class Budget:
    """One page's CPU time budget, checked between the pipeline's stages and inside the long ones.

    The clock is the cleaning thread's CPU time, so a page is not timed out because its process waited for
    a core on a busy machine (whether a page is reported `timeout` stays repeatable). It cannot stop a
    single long C call (the parser); the stream's process pool holds the hard wall-clock limit.

    Reading that clock is a system call (1.5 us on the 2-core VM; read at every check it was read 11.3 times
    a page, ~1% of a page), the wall clock is not (0.1 us). A thread's CPU time cannot run ahead of the
    time that passed, so while the wall clock is within the budget so is the CPU time: a check reads the
    CPU clock only past `wall_deadline`.
    """

    __slots__ = ("deadline", "start", "wall_deadline")

    clock = staticmethod(time.thread_time)
    wall = staticmethod(time.perf_counter)

    def __init__(self, ms: float) -> None:
        self.start = self.clock()
        self.deadline = self.start + ms / 1000.0
        self.wall_deadline = self.wall() + ms / 1000.0

    def check(self, stage: str) -> None:
        """Raise OverBudget when the budget is spent."""
        if self.wall() <= self.wall_deadline:
            return
        now = self.clock()
        if now > self.deadline:
            raise OverBudget(stage, (now - self.start) * 1000.0)

    @contextmanager
    def outside(self) -> Iterator[None]:
        """Work inside is not the page's: what a process reads once, on the first page that needs it (a
        language's word list: 10-32 ms), would time out that page alone and make `timeout` unrepeatable."""
        began, wall_began = self.clock(), self.wall()
        try:
            yield
        finally:
            spent = self.clock() - began
            self.start += spent
            self.deadline += spent
            self.wall_deadline += self.wall() - wall_began
