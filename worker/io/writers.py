"""Output writers for the offline commands: one Document at a time, to a file or stdout."""

from __future__ import annotations

import gzip
import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Literal, cast

import orjson

from worker.clean import render
from worker.models import Document

Format = Literal["jsonl", "text", "cleaneval", "markdown"]
FORMATS: tuple[Format, ...] = ("jsonl", "text", "cleaneval", "markdown")

# Text formats put many documents in one stream; a form feed line (the classic page break) separates
# them so `csplit`/editors can split them again, and each starts with a header naming the page.
DOC_SEPARATOR = "\f\n"

_RENDER: dict[Format, Callable[[Document], str]] = {
    "text": render.to_text,
    "cleaneval": render.to_cleaneval,
    "markdown": render.to_markdown,
}


def open_output(path: str | Path | None) -> IO[bytes]:
    """A binary stream: stdout for None or '-', gzip for *.gz, else a plain file."""
    if path is None or str(path) == "-":
        return sys.stdout.buffer
    p = Path(path)
    if p.name.endswith(".gz"):
        return cast(IO[bytes], gzip.open(p, "wb"))
    return p.open("wb")


class DocumentWriter:
    """Writes documents in one format; a context manager that closes the file (never stdout)."""

    def __init__(self, path: str | Path | None = None, fmt: Format = "jsonl") -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
        self.fmt = fmt
        self._out = open_output(path)
        self._owns = self._out is not sys.stdout.buffer
        self.written = 0

    def write(self, doc: Document) -> None:
        if self.fmt == "jsonl":
            self._out.write(orjson.dumps(render.to_json_dict(doc), option=orjson.OPT_APPEND_NEWLINE))
        else:
            header = "" if self.written == 0 else DOC_SEPARATOR
            if self.fmt == "cleaneval":
                header += f"URL: {doc.url or doc.id}\n"
            body = _RENDER[self.fmt](doc)
            self._out.write((header + body + "\n").encode("utf-8", "surrogatepass"))
        self.written += 1

    def close(self) -> None:
        if self._owns:
            self._out.close()
        else:
            self._out.flush()

    def __enter__(self) -> DocumentWriter:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class PredictionWriter:
    """{id, text} lines, the format score.py reads."""

    def __init__(self, path: str | Path) -> None:
        self._out = open_output(path)
        self._owns = self._out is not sys.stdout.buffer

    def write(self, doc_id: str, text: str) -> None:
        self._out.write(orjson.dumps({"id": doc_id, "text": text}, option=orjson.OPT_APPEND_NEWLINE))

    def close(self) -> None:
        if self._owns:
            self._out.close()
        else:
            self._out.flush()
