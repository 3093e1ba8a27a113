"""Plug-in sections of bench/results.json.

A module listed in `bench.run.PLUGIN_MODULES` registers a function that takes the benchmark's pages
and returns a JSON-able dict; its result lands under results["sections"][name]:

    from bench.sections import register

    @register("template_memory")
    def template_overhead(pages: list[Page]) -> dict[str, Any]:
        ...

A section that raises is recorded as {"error": "..."}; it never stops the other measurements.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from worker.models import Page

Section = Callable[[list[Page]], dict[str, Any]]
SECTIONS: dict[str, Section] = {}


def register(name: str) -> Callable[[Section], Section]:
    def deco(fn: Section) -> Section:
        SECTIONS[name] = fn
        return fn

    return deco
