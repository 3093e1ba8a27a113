"""The README is the user's reference: its settings table must match the code."""

from __future__ import annotations

import re
from pathlib import Path

from worker.settings import markdown_table

README = Path(__file__).resolve().parents[2] / "README.md"


def test_settings_table_in_readme_matches_settings() -> None:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- settings-table:start -->\n(.*?)\n<!-- settings-table:end -->", text, re.S)
    assert match, "README.md lost its settings-table markers"
    assert match.group(1) == markdown_table(), "run: .venv/bin/python scripts/sync_readme.py"


def test_readme_quickstart_names_the_make_targets_ci_uses() -> None:
    text = README.read_text(encoding="utf-8")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in text
    assert "make run" in text
    assert "make test" in ci
