"""Plug-in sections of bench/results.json.

A module listed in `bench.run.PLUGIN_MODULES` registers a function that takes the benchmark's pages and
the run's context, and returns a JSON-able dict; its result lands under results["sections"][name]:

    from bench.sections import BenchContext, register

    @register("template_memory")
    def template_overhead(pages: list[Page], ctx: BenchContext) -> dict[str, Any]:
        ...

A section that raises is recorded as {"error": "..."}; it never stops the other measurements.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from worker.models import Page


@dataclass(frozen=True)
class BenchContext:
    data_dir: Path  # folder of <dataset>/pages.jsonl.gz
    compare_python: Path | None  # bench/.venv's interpreter (trafilatura, resiliparse), None when absent


Section = Callable[[list[Page], BenchContext], dict[str, Any]]
SECTIONS: dict[str, Section] = {}


def register(name: str) -> Callable[[Section], Section]:
    def deco(fn: Section) -> Section:
        SECTIONS[name] = fn
        return fn

    return deco
