"""WARC(.gz) input: HTML response (and resource) records become Pages."""

from __future__ import annotations

import gzip
import logging
from collections.abc import Iterator
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed

from worker.clean.decode import is_html_content_type
from worker.io.readers import ReadStats
from worker.models import Page
from worker.sites import site_of

log = logging.getLogger(__name__)


def _is_warc(path: Path) -> bool:
    # warcio reads anything that is not a WARC as an old ARC file and invents records from its
    # words, so the magic is checked first.
    with path.open("rb") as f:
        head = f.read(2)
        f.seek(0)
        if head == b"\x1f\x8b":
            with gzip.open(f) as g:
                return g.read(5) == b"WARC/"
        return f.read(5) == b"WARC/"


def read_warc(path: Path, stats: ReadStats) -> Iterator[Page]:
    stats.files += 1
    index = 0
    try:
        if not _is_warc(path):
            stats.problem(str(path), "not a WARC file (no WARC/ header)")
            return
        with path.open("rb") as f:
            for index, record in enumerate(ArchiveIterator(f), 1):  # noqa: B007 - reported on failure
                page = _page(record, stats)
                if page is not None:
                    stats.pages += 1
                    yield page
    except (ArchiveLoadFailed, OSError, EOFError, ValueError, AttributeError, TypeError) as exc:
        # warcio raises on the first malformed record (AttributeError/TypeError from inside its
        # header parser included); what was read so far stands.
        stats.problem(f"{path}:record {index + 1}", f"unreadable from here on ({type(exc).__name__}: {exc})")


def _page(record: object, stats: ReadStats) -> Page | None:
    rec_type = getattr(record, "rec_type", None)
    if rec_type not in {"response", "resource"}:
        return None
    headers = record.rec_headers  # type: ignore[attr-defined]
    url = headers.get_header("WARC-Target-URI")
    status: int | None = None
    if rec_type == "response":
        http = record.http_headers  # type: ignore[attr-defined]
        if http is None:  # a response record that is not HTTP (dns:, whois:)
            return None
        content_type = http.get_header("Content-Type")
        try:
            status = int(http.get_statuscode())
        except (TypeError, ValueError):
            status = None
    else:
        content_type = headers.get_header("Content-Type")
    if not is_html_content_type(content_type):
        stats.skipped_non_html += 1
        return None
    body: bytes = record.content_stream().read()  # type: ignore[attr-defined]
    page_id = headers.get_header("WARC-Record-ID") or url
    if not page_id:
        stats.skipped_non_html += 1
        return None
    return Page(
        id=str(page_id).strip("<>"),
        body=body,
        url=url,
        site=site_of(url),
        content_type=content_type,
        fetched_at=headers.get_header("WARC-Date"),
        status=status,
    )
