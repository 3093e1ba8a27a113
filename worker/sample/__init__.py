"""The bundled sample site: six pages of a fictional local newspaper that share one template.

Written for this project (The Larkfield Courier does not exist). Every page carries the same header,
cookie bar, navigation, share bars, "most read" sidebar, related links and footer around a distinct
article; three pages have a comment section, and library-festival.html is windows-1252 bytes with a
<meta charset>, so the demo exercises decoding too. Files are kept as raw bytes on purpose.
"""

from __future__ import annotations

from pathlib import Path

SITE = "larkfield-courier.example"


def sample_dir() -> Path:
    """The folder holding the sample pages (a real directory: the package is never zipped)."""
    # Imported here: the demo's module imports this one to build every command's parser, and
    # importlib.resources brings tempfile, which brings random (~9 ms, python -X importtime).
    from importlib.resources import files

    return Path(str(files(__name__).joinpath("site")))


def sample_pages() -> list[Path]:
    """Paths of the sample pages, in the order the demo feeds them (sorted by name)."""
    return sorted(p for p in sample_dir().iterdir() if p.suffix == ".html")
