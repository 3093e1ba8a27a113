"""Input readers for the offline commands: HTML files and folders, JSONL(.gz) records, WARC(.gz).

Every reader yields `Page`s in a stable order (folders sorted, files in the order given) so the
per-site template memory sees the same sequence on every run. A bad record costs that record: it is
logged with file:line, counted in `ReadStats`, and skipped.
"""

from __future__ import annotations

import base64
import binascii
import functools
import gzip
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, cast

import orjson

from worker.models import Page
from worker.sites import bounded_site, site_of

log = logging.getLogger(__name__)

HTML_SUFFIXES = (".html", ".htm", ".xhtml")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz", ".json.gz")
WARC_SUFFIXES = (".warc", ".warc.gz")
# Problems kept verbatim for the summary; the rest are only counted (a broken dump can have millions).
MAX_PROBLEMS_KEPT = 20
# A saved page often says where it came from; that URL gives it a site for the template memory.
_HEAD_BYTES = 16_384


@functools.cache
def _canonical() -> re.Pattern[bytes]:
    """A saved page's canonical link or og:url, compiled on first use: records (JSONL) need none (2 million
    instructions of their start-up). Linear: a scan stops at the next `<`, each attribute is found once
    (atomic groups: no retrying another `rel` when the `href` after the first is missing), and repetitions
    are possessive."""
    return re.compile(
        rb"<link\b(?>[^<>]*?\brel\s*+=\s*+[\"']?+canonical\b)(?>[^<>]*?\bhref\s*+=\s*+[\"'])([^\"'<>\s]++)"
        rb"|<meta\b(?>[^<>]*?\bproperty\s*+=\s*+[\"']og:url[\"'])(?>[^<>]*?\bcontent\s*+=\s*+[\"'])"
        rb"([^\"'<>\s]++)",
        re.IGNORECASE,
    )


class BadRecord(ValueError):
    """One input record that cannot become a Page; the message says why."""


@dataclass
class ReadStats:
    files: int = 0
    pages: int = 0
    bad: int = 0
    skipped_non_html: int = 0
    problems: list[str] = field(default_factory=list)

    def problem(self, where: str, why: str) -> None:
        self.bad += 1
        log.warning("skipping %s: %s", where, why)
        if len(self.problems) < MAX_PROBLEMS_KEPT:
            self.problems.append(f"{where}: {why}")


def input_kind(path: Path) -> str:
    """'dir', 'jsonl', 'warc' or 'html', from the path alone."""
    name = path.name.lower()
    if str(path) == "-":
        return "jsonl"
    if path.is_dir():
        return "dir"
    if name.endswith(JSONL_SUFFIXES):
        return "jsonl"
    if name.endswith(WARC_SUFFIXES):
        return "warc"
    return "html"


def read_pages(sources: str | Path | Iterable[str | Path], stats: ReadStats | None = None) -> Iterator[Page]:
    """Pages from every source in order. `-` reads JSONL from stdin."""
    stats = stats if stats is not None else ReadStats()
    if isinstance(sources, str | Path):
        sources = [sources]
    for source in sources:
        path = Path(source)
        kind = input_kind(path)
        if str(path) != "-" and not path.exists():
            stats.problem(str(path), "no such file or directory")
            continue
        if kind == "dir":
            yield from read_html_dir(path, stats)
        elif kind == "jsonl":
            yield from read_jsonl(path, stats)
        elif kind == "warc":
            from worker.io.warc import read_warc

            yield from read_warc(path, stats)
        else:
            page = read_html_file(path, str(path), stats)
            if page is not None:
                yield page


def html_files(root: Path) -> list[Path]:
    """HTML files under `root`, recursively, sorted by relative path for a stable order."""
    found = [p for p in root.rglob("*") if p.is_file() and p.name.lower().endswith(HTML_SUFFIXES)]
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def read_html_dir(root: Path, stats: ReadStats) -> Iterator[Page]:
    for path in html_files(root):
        page = read_html_file(path, path.relative_to(root).as_posix(), stats)
        if page is not None:
            yield page


def url_in_head(body: bytes) -> str | None:
    """The canonical / og:url of a saved page, when it names an absolute http(s) URL."""
    m = _canonical().search(body[:_HEAD_BYTES])
    if not m:
        return None
    url = (m.group(1) or m.group(2)).decode("ascii", "replace")
    return url if url.lower().startswith(("http://", "https://")) else None


def read_html_file(path: Path, page_id: str, stats: ReadStats) -> Page | None:
    try:
        body = path.read_bytes()
    except OSError as exc:
        stats.problem(str(path), f"{type(exc).__name__}: {exc}")
        return None
    stats.files += 1
    stats.pages += 1
    url = url_in_head(body)
    return Page(id=page_id, body=body, url=url, site=site_of(url))


def _open_lines(path: Path) -> IO[bytes]:
    if str(path) == "-":
        return sys.stdin.buffer
    if path.name.lower().endswith(".gz"):
        # ISA-L's gzip reader: the same file object and errors as the standard library's, and it reads
        # the two shared .gz sets (119 MB of JSONL) in 0.17 s of CPU instead of 0.44 s (0.17 ms a page).
        # Imported here: a run over plain files does not pay its import.
        from isal import igzip

        return cast(IO[bytes], igzip.open(path, "rb"))  # type: ignore[no-untyped-call]  # isal has no hints on open
    return path.open("rb")


def iter_jsonl(path: Path, stats: ReadStats) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file:line, record) for each JSON object line; broken lines and a truncated file are reported."""
    stats.files += 1
    name = str(path)
    lineno = 0
    try:
        f = _open_lines(path)
        try:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                where = f"{name}:{lineno}"
                try:
                    record = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    stats.problem(where, f"invalid JSON ({exc})")
                    continue
                if not isinstance(record, dict):
                    stats.problem(where, f"expected a JSON object, got {type(record).__name__}")
                    continue
                yield where, record
        finally:
            if f is not sys.stdin.buffer:
                f.close()
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        # A truncated .gz or an unreadable file ends that file, not the run.
        stats.problem(f"{name}:{lineno + 1}", f"unreadable from here on ({type(exc).__name__}: {exc})")


def _opt_str(record: dict[str, Any], key: str) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    if isinstance(value, str | int):
        return str(value)
    raise BadRecord(f"{key!r} must be a string")


def page_from_record(record: dict[str, Any], where: str) -> Page:
    """A Page from {"id", "url"?, "site"?, "html"} or {"id", "body": base64, "content_type"?}."""
    page_id = _opt_str(record, "id") or where
    url = _opt_str(record, "url")
    site = _opt_str(record, "site")
    site = bounded_site(site) if site else site_of(url)
    content_type = _opt_str(record, "content_type")
    status = record.get("status")
    common: dict[str, Any] = {
        "id": page_id,
        "url": url,
        "site": site,
        "content_type": content_type,
        "fetched_at": _opt_str(record, "fetched_at"),
        "status": status if isinstance(status, int) and not isinstance(status, bool) else None,
    }
    html = record.get("html")
    if isinstance(html, str):
        return Page(html=html, **common)
    body = record.get("body")
    if isinstance(body, str):
        try:
            raw = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError) as exc:
            raise BadRecord(f"'body' is not valid base64 ({exc})") from None
        return Page(body=raw, **common)
    if html is not None or body is not None:
        raise BadRecord("'html' / 'body' must be strings")
    raise BadRecord("no 'html' or 'body' field")


def read_jsonl(path: Path, stats: ReadStats) -> Iterator[Page]:
    return pages_from_records(iter_jsonl(path, stats), stats)


def pages_from_records(records: Iterable[tuple[str, dict[str, Any]]], stats: ReadStats) -> Iterator[Page]:
    """A Page per (file:line, record); a record that cannot be one is reported and skipped."""
    for where, record in records:
        try:
            page = page_from_record(record, where)
        except BadRecord as exc:
            stats.problem(where, str(exc))
            continue
        stats.pages += 1
        yield page
