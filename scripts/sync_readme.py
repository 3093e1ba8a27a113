"""Rewrite the generated parts of README.md (the settings table) from the code."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from worker.settings import markdown_table

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- settings-table:start -->\n).*?(<!-- settings-table:end -->)", re.S)


def render(text: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + markdown_table() + "\n" + m.group(2), text)


def main() -> int:
    text = README.read_text(encoding="utf-8")
    new = render(text)
    if new != text:
        README.write_text(new, encoding="utf-8")
        print("README.md settings table updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
