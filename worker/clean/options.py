"""Knobs of the pure pipeline. Loaded from env/CLI by `worker.settings`; defaults are the product's."""

from __future__ import annotations

import time
from dataclasses import dataclass

# The clock of the per-page time budget: CPU time of the cleaning thread, so a page is not timed out
# because its process waited for a core on a busy machine (whether a page dead-letters stays repeatable).
budget_clock = time.thread_time


@dataclass(frozen=True, slots=True)
class CleanOptions:
    # Limits that keep one page from stalling a partition (the stream turns them into dead letters).
    max_bytes: int = 5_000_000
    max_nodes: int = 200_000
    time_budget_ms: float = 2_000.0
    # Output choices.
    keep_comments: bool = False
    # Template memory (used only when a SiteMemory is passed in).
    use_templates: bool = True
