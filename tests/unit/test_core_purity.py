"""The cleaning core stays pure: no broker, HTTP server or metrics library below worker/clean."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "worker" / "clean"
FORBIDDEN = ("aiokafka", "aiohttp", "prometheus_client", "worker.stream", "worker.http", "worker.metrics")


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_core_module_imports_no_io_library(path: Path) -> None:
    bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN or m.startswith(FORBIDDEN)}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_check_sees_imports() -> None:
    # Guards the test itself: a module that does import aiokafka must be caught.
    sample = CORE.parent.parent / "worker" / "stream" / "runner.py"
    assert "aiokafka" in {m.split(".")[0] for m in imported_modules(sample)}
