"""The message contracts as a pure codec: Kafka records <-> Page / Document / dead letter.

No I/O and no broker imports: the stream runner hands in anything shaped like a consumer record and
gets back (key, value, headers) triples to produce. Schemas live in worker/schemas/*.json (package data;
the repository's top-level schemas/ links there) and are the reference for every field written here.

Page id: the message's "id" (JSON field, or the `id` Kafka header in the raw form) if given, else
"<topic>:<partition>:<offset>" of the input record. That fallback is stable across redeliveries, so a
page processed twice after a crash carries the same id both times and every input stays traceable.

Both input forms obey one set of field limits (FIELD_LIMITS, also written into schemas/page.json): a
longer url, id, content type, fetch time or status is a `schema_violation` dead letter naming the field
and its length. A site (from the `site` field or header, or the Kafka key) is never refused: one longer
than the longest DNS name becomes a bounded identifier (worker.sites.bounded_site).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit

import jsonschema
import orjson

from worker import __version__
from worker.clean import decode
from worker.clean.render import block_spans, comment_dicts, metadata_dict, post_dicts, quality_dict
from worker.models import Document, Page
from worker.sites import bounded_site, site_of

# Version of the document schema (schemas/document.json). 2: the text is carried once; blocks are
# {kind, start, end} slices of it instead of copies, and `truncated` says whether it was cut to fit; the
# page's metadata, comments, posts and quality signals ride along (README: "Changed for consumers").
SCHEMA_VERSION = 2
DEAD_LETTER_SCHEMA_VERSION = 1
# A title longer than this is cut (a <title> or og:title can be as long as the page).
TITLE_MAX_CHARS = 2048
Stage = Literal["decode", "validate", "extract"]
Headers = list[tuple[str, bytes]]
Encoded = tuple[bytes | None, bytes, Headers]

# A JSON envelope inflates the body (base64 by 4/3, escapes); allow for it before parsing.
ENVELOPE_FACTOR = 1.4
ENVELOPE_SLACK = 64 * 1024
# Longest value of each page field, in characters, in both input forms (schemas/page.json says the
# same; a test keeps them equal). Browsers and servers cap URLs at 8 KB; a Content-Type or an id past
# 1 KB, or a timestamp past 64 characters, is not one. Every one of them is copied into the output.
FIELD_LIMITS = {"url": 8192, "id": 1024, "content_type": 1024, "fetched_at": 64}
# Kafka header names of the raw-HTML input form.
H_URL, H_CONTENT_TYPE, H_FETCHED_AT, H_ID, H_SITE, H_STATUS = (
    "url",
    "content-type",
    "fetched-at",
    "id",
    "site",
    "status",
)


class InputRecord(Protocol):
    """The fields of an aiokafka ConsumerRecord the codec reads."""

    @property
    def topic(self) -> str: ...
    @property
    def partition(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def timestamp(self) -> int: ...
    @property
    def key(self) -> bytes | None: ...
    @property
    def value(self) -> bytes | None: ...
    @property
    def headers(self) -> Sequence[tuple[str, bytes]]: ...


@dataclass(frozen=True, slots=True)
class Rejection:
    """Why an input record becomes a dead letter instead of a document."""

    reason: str
    detail: str
    stage: Stage
    error_class: str = "Rejected"
    page_id: str | None = None
    url: str | None = None
    site: str | None = None


# --- schemas -----------------------------------------------------------------------------------


def load_schema(name: str) -> dict[str, Any]:
    """The JSON Schema `name` ("page", "document", "dead_letter") from the installed package."""
    text = resources.files("worker").joinpath("schemas", f"{name}.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


# --- input -------------------------------------------------------------------------------------


def default_page_id(record: InputRecord) -> str:
    return f"{record.topic}:{record.partition}:{record.offset}"


def decode_page(record: InputRecord, *, max_bytes: int) -> Page | Rejection:
    """Turn one input record into a Page, or say why it cannot be one. Never raises."""
    fallback_id = default_page_id(record)
    value = record.value
    if value is None or len(value) == 0:
        return Rejection("empty_input", "record has no value", "decode", page_id=fallback_id)
    if len(value) > max_bytes * ENVELOPE_FACTOR + ENVELOPE_SLACK:
        return Rejection("too_large", f"record value of {len(value)} bytes", "decode", page_id=fallback_id)
    headers = _header_map(record.headers)
    if H_URL in headers and value.lstrip()[:1] != b"{":
        return _decode_raw(record, value, headers, fallback_id)
    return _decode_json(record, value, fallback_id)


def _header_map(headers: Sequence[tuple[str, bytes]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, raw in headers:
        if raw is None:
            continue
        out[name.lower()] = raw.decode("utf-8", "replace").strip()
    return out


def _decode_raw(
    record: InputRecord, value: bytes, headers: Mapping[str, str], fallback_id: str
) -> Page | Rejection:
    page_id = headers.get(H_ID) or fallback_id
    url = headers[H_URL]
    status: int | None = None
    if headers.get(H_STATUS):
        raw = headers[H_STATUS]
        if not (len(raw) <= 3 and raw.isascii() and raw.isdigit()):  # what page.json allows: 0..999
            detail = f"status: {_quote(raw)} is not an HTTP status (0..999)"
            return Rejection("schema_violation", detail, "validate", "ValidationError",
                             page_id=_bounded_id(page_id, fallback_id))  # fmt: skip
        status = int(raw)
    content_type = headers.get(H_CONTENT_TYPE) or None
    fields: dict[str, Any] = {
        "url": url,
        "fetched_at": headers.get(H_FETCHED_AT),
        "site": headers.get(H_SITE),
    }
    return _finish(record, page_id, fields, content_type, status, html=None, body=value)


def _decode_json(record: InputRecord, value: bytes, fallback_id: str) -> Page | Rejection:
    try:
        msg = orjson.loads(value)
    except orjson.JSONDecodeError as exc:
        if not _is_utf8(value):
            return Rejection("undecodable", "JSON form but not UTF-8 text", "decode", "UnicodeDecodeError",
                             page_id=fallback_id)  # fmt: skip
        return Rejection("invalid_json", str(exc)[:300], "decode", "JSONDecodeError", page_id=fallback_id)
    if not isinstance(msg, dict):
        return Rejection("invalid_json", f"top level is {type(msg).__name__}, not an object", "decode",
                         "JSONDecodeError", page_id=fallback_id)  # fmt: skip
    raw_id = msg.get("id")
    page_id = (
        str(raw_id)
        if isinstance(raw_id, str | int) and not isinstance(raw_id, bool) and raw_id != ""
        else fallback_id
    )
    url = msg.get("url") if isinstance(msg.get("url"), str) else None
    content_type = msg.get("content_type") or _http_header(msg.get("headers"), "content-type")
    too_long = over_limit(page_id, url, content_type, msg.get("fetched_at"))
    if too_long is not None:
        return Rejection("schema_violation", too_long, "validate", "ValidationError",
                         page_id=_bounded_id(page_id, fallback_id))  # fmt: skip
    # The hand-written check is stricter than the schema and ~50x faster; the schema runs only to
    # explain (or overrule) a failure, so it stays the single definition of a valid page.
    error = (
        None
        if quick_valid_page(msg)
        else jsonschema.exceptions.best_match(validator("page").iter_errors(msg))
    )
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        return Rejection("schema_violation", f"{where}: {error.message}"[:300], "validate", "ValidationError",
                         page_id=page_id, url=url)  # fmt: skip
    body: bytes | None = None
    if isinstance(msg.get("body"), str):
        try:
            body = base64.b64decode(msg["body"], validate=True)
        except (binascii.Error, ValueError) as exc:
            return Rejection("schema_violation", f"body: not base64 ({exc})", "validate", "ValidationError",
                             page_id=page_id, url=url)  # fmt: skip
    html = msg.get("html")
    return _finish(record, page_id, msg, content_type, msg.get("status"), html=html, body=body)


def _opt(msg: Mapping[str, Any], name: str, *types: type) -> bool:
    value = msg.get(name)
    return value is None or (isinstance(value, types) and not isinstance(value, bool))


def quick_valid_page(msg: Mapping[str, Any]) -> bool:
    """True only for messages that schemas/page.json accepts (the common case, checked cheaply)."""
    url, page_id, status, headers = msg.get("url"), msg.get("id", "x"), msg.get("status"), msg.get("headers")
    return (
        isinstance(url, str)
        and 0 < len(url) <= FIELD_LIMITS["url"]
        and ((isinstance(page_id, str) and 0 < len(page_id) <= FIELD_LIMITS["id"]) or type(page_id) is int)
        and _opt(msg, "site", str)
        and _opt(msg, "fetched_at", str, int, float)
        and (status is None or (type(status) is int and 0 <= status <= 999))
        and _opt(msg, "content_type", str)
        and len(msg.get("content_type") or "") <= FIELD_LIMITS["content_type"]
        and not (
            isinstance(msg.get("fetched_at"), str) and len(msg["fetched_at"]) > FIELD_LIMITS["fetched_at"]
        )
        and (
            headers is None
            or (isinstance(headers, dict) and all(isinstance(v, str) for v in headers.values()))
        )
        and ("html" not in msg or isinstance(msg["html"], str))
        and ("body" not in msg or isinstance(msg["body"], str))
        and not ("html" in msg and "body" in msg)
    )


def _is_utf8(value: bytes) -> bool:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _http_header(headers: Any, name: str) -> str | None:
    if not isinstance(headers, dict):
        return None
    for key, val in headers.items():
        if key.lower() == name:
            return str(val[0] if isinstance(val, list) and val else val) if val else None
    return None


def _finish(
    record: InputRecord,
    page_id: str,
    fields: Mapping[str, Any],
    content_type: str | None,
    status: int | None,
    *,
    html: str | None,
    body: bytes | None,
) -> Page | Rejection:
    url: str = fields["url"]
    too_long = over_limit(page_id, url, content_type, fields.get("fetched_at"))
    if too_long is not None:
        return Rejection("schema_violation", too_long, "validate", "ValidationError",
                         page_id=_bounded_id(page_id, default_page_id(record)))  # fmt: skip
    try:
        host = urlsplit(url).hostname if "//" in url else None
    except ValueError:  # an invalid IPv6 literal or port
        host = None
    if not host:
        return Rejection("schema_violation", "url: not an absolute URL with a host", "validate",
                         "ValidationError", page_id=page_id, url=url)  # fmt: skip
    site = bounded_site(fields.get("site") or _key_site(record.key) or site_of(url) or host.lower())
    if html is None and body is None:
        return Rejection("empty_input", "page has neither html nor body", "validate", page_id=page_id,
                         url=url, site=site)  # fmt: skip
    # clean_page makes the same test (for offline callers); here it keeps the page off a cleaning pipe
    not_html = decode.not_html(content_type, body)
    if not_html:
        return Rejection("not_html", not_html, "validate", page_id=page_id, url=url, site=site)
    return Page(
        id=page_id,
        html=html,
        body=body,
        url=url,
        site=site,
        content_type=content_type,
        fetched_at=_timestamp(fields.get("fetched_at")),
        status=status,
    )


def over_limit(page_id: str, url: str | None, content_type: Any, fetched_at: Any) -> str | None:
    """Which field is longer than FIELD_LIMITS allows, and by how much; None when all fit."""
    for name, value in (
        ("url", url),
        ("id", page_id),
        ("content_type", content_type),
        ("fetched_at", fetched_at),
    ):
        if isinstance(value, str) and len(value) > FIELD_LIMITS[name]:
            return f"{name}: {len(value)} characters, the limit is {FIELD_LIMITS[name]}"
    return None


def _bounded_id(page_id: str, fallback_id: str) -> str:
    """The id a dead letter can carry: the page's own when it fits the limit, else the record's."""
    return page_id if len(page_id) <= FIELD_LIMITS["id"] else fallback_id


def _quote(value: str, most: int = 40) -> str:
    """A header value for an error message: repr'd, and cut when long."""
    return repr(value) if len(value) <= most else repr(value[:most]) + f"... ({len(value)} characters)"


def _key_site(key: bytes | None) -> str | None:
    if not key:
        return None
    try:
        text = key.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return text or None


def _timestamp(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value or None
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = value / 1000.0 if value > 1e11 else float(value)  # epoch ms vs s
        try:
            return iso(datetime.fromtimestamp(seconds, UTC))
        except (OverflowError, OSError, ValueError):
            return None
    return None


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def now_iso() -> str:
    return iso(datetime.now(UTC))


# --- output ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Source:
    topic: str
    partition: int
    offset: int


def document_message(
    doc: Document,
    page: Page,
    *,
    processed_at: str,
    source: Source | None = None,
) -> dict[str, Any]:
    """The output message (see schemas/document.json) for a document that has text."""
    site = doc.site or page.site or ""
    text, spans = block_spans(doc)
    msg: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "id": doc.id,
        "url": doc.url or page.url or "",
        "site": site,
        "fetched_at": page.fetched_at,
        "processed_at": processed_at,
        "status": page.status,
        "title": doc.title[:TITLE_MAX_CHARS],
        "text": text,
        "blocks": spans,
        "truncated": False,
        "method": doc.method,
        "template": None
        if doc.template is None
        else {
            "pages_seen": doc.template.pages_seen,
            "blocks_stripped": doc.template.blocks_stripped,
            "fallback_reason": doc.template.fallback_reason,
        },
        "lang": doc.lang,
        "encoding": doc.encoding,
        "encoding_rule": doc.encoding_rule,
        "stats": {
            "input_bytes": doc.stats.input_bytes,
            "output_chars": len(text),
            "blocks_kept": len(spans),
            "blocks_dropped": doc.stats.blocks_dropped,
            "elapsed_ms": round(doc.stats.elapsed_ms, 3),
            "density_runs": doc.stats.density_runs,
            "blocks_filtered": doc.stats.blocks_filtered,
        },
        "metadata": metadata_dict(doc.metadata),
        "comments": comment_dicts(doc.comments),
        "posts": post_dicts(doc.posts),
        "quality": None if doc.quality is None else quality_dict(doc.quality),
        "extra": dict(doc.extra),
        "source": None
        if source is None
        else {"topic": source.topic, "partition": source.partition, "offset": source.offset},
        "worker_version": __version__,
    }
    return msg


def _cut_to_fit(msg: dict[str, Any], max_bytes: int) -> None:
    """Drop the comments and posts (the text matters more), then keep the most whole blocks and the
    longest prefix of the next one that fit in `max_bytes`."""
    if msg["comments"] or msg["posts"]:
        msg.update(comments=[], posts=[], truncated=True)
        if len(orjson.dumps(msg)) <= max_bytes:
            return
    text: str = msg["text"]
    spans: list[dict[str, Any]] = msg["blocks"]
    msg.update(text="", blocks=[], truncated=True)
    room = max_bytes - len(orjson.dumps(msg))

    def fits(end: int, kept: list[dict[str, Any]]) -> bool:
        """Do text[:end] and these blocks fit in the room left by the message without them?"""
        return len(orjson.dumps(text[:end])) - 2 + len(orjson.dumps(kept)) - 2 <= room

    # Whole blocks: the encoded size grows with their number, so binary search for the most that fit.
    low, high = 0, len(spans)
    while low < high:
        mid = (low + high + 1) // 2
        low, high = (mid, high) if fits(spans[mid - 1]["end"], spans[:mid]) else (low, mid - 1)
    kept = spans[:low]
    end = kept[-1]["end"] if kept else 0
    # Then as much of the next block (or of a text without blocks) as still fits.
    start, stop = (spans[low]["start"], spans[low]["end"]) if low < len(spans) else (0, len(text))
    if not spans or low < len(spans):
        cut = {**spans[low]} if spans else None
        lo, hi = start, stop
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if cut is not None:
                cut["end"] = mid
            lo, hi = (mid, hi) if fits(mid, [*kept, cut] if cut else kept) else (lo, mid - 1)
        if lo > start:
            if cut is not None:
                kept = [*kept, {**cut, "end": lo}]
            end = lo
    msg.update(text=text[:end], blocks=kept)
    msg["stats"] = {**msg["stats"], "output_chars": end, "blocks_kept": len(kept)}


def encode_document(
    doc: Document,
    page: Page,
    *,
    processed_at: str | None = None,
    source: Source | None = None,
    max_bytes: int | None = None,
) -> Encoded:
    """(key, value, headers) of the output record: keyed by site so a site's documents stay ordered.

    With `max_bytes`, a message that would encode to more is cut to fit: trailing blocks go, then the
    end of the last one kept, and `truncated` says so. The page's size was already within the input
    limit; its document must not be refused for being larger (JSON escapes and 3-byte UTF-8 characters
    decoded from 1-byte code pages can make it up to ~3x the page)."""
    msg = document_message(doc, page, processed_at=processed_at or now_iso(), source=source)
    value = orjson.dumps(msg)
    if max_bytes is not None and len(value) > max_bytes:  # encoded once in the common case
        _cut_to_fit(msg, max_bytes)
        value = orjson.dumps(msg)
    headers: Headers = [
        ("id", doc.id.encode("utf-8")),
        ("content-type", b"application/json"),
        ("schema", f"cleanstream.document.v{SCHEMA_VERSION}".encode()),
    ]
    return msg["site"].encode("utf-8"), value, headers


def rejection_of(doc: Document) -> Rejection | None:
    """A document with an error reason goes to the dead-letter topic with that reason."""
    if doc.error is None:
        return None
    return Rejection(
        doc.error, doc.error_detail or doc.error, "extract", "PageRejected", doc.id, doc.url, doc.site
    )


def dead_letter_message(
    record: InputRecord, rejection: Rejection, *, failed_at: str, max_value_bytes: int
) -> dict[str, Any]:
    """The dead-letter message (see schemas/dead_letter.json) for an input record."""
    value = record.value
    inline = value is not None and len(value) <= max_value_bytes
    return {
        "schema_version": DEAD_LETTER_SCHEMA_VERSION,
        "reason": rejection.reason,
        "detail": rejection.detail,
        "stage": rejection.stage,
        "error_class": rejection.error_class,
        "worker_version": __version__,
        "failed_at": failed_at,
        "page_id": rejection.page_id,
        "url": rejection.url,
        "site": rejection.site,
        "source": {
            "topic": record.topic,
            "partition": record.partition,
            "offset": record.offset,
            "timestamp_ms": record.timestamp
            if record.timestamp is not None and record.timestamp >= 0
            else None,
        },
        "key_b64": _b64(record.key),
        "headers": [{"key": k, "value_b64": _b64(v)} for k, v in record.headers],
        "value_b64": _b64(value) if inline else None,
        "value_ref": None
        if inline or value is None
        else {"topic": record.topic, "partition": record.partition, "offset": record.offset},
        "value_bytes": len(value) if value is not None else 0,
        "value_sha256": hashlib.sha256(value).hexdigest() if value is not None else None,
    }


def encode_dead_letter(
    record: InputRecord, rejection: Rejection, *, max_value_bytes: int, failed_at: str | None = None
) -> Encoded:
    """(key, value, headers) of the dead-letter record, keyed like the input record."""
    msg = dead_letter_message(
        record, rejection, failed_at=failed_at or now_iso(), max_value_bytes=max_value_bytes
    )
    headers: Headers = [
        ("reason", rejection.reason.encode("utf-8")),
        ("content-type", b"application/json"),
        ("schema", b"cleanstream.dead_letter.v1"),
    ]
    if rejection.page_id:
        headers.insert(0, ("id", rejection.page_id.encode("utf-8")))
    return record.key, orjson.dumps(msg), headers


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


# --- producers of pages (replay, demo, tests) --------------------------------------------------


def page_to_record(
    page: Page, *, as_headers: bool = False
) -> tuple[bytes | None, bytes, list[tuple[str, bytes]]]:
    """(key, value, headers) of an input record for `page`; decode_page inverts it.

    JSON form by default; with as_headers the value is the raw body (html encoded as UTF-8 when no
    bytes are given) and url/content-type/fetched-at/id/status travel as Kafka headers.
    """
    site = page.site or site_of(page.url)
    key = site.encode("utf-8") if site else None
    if as_headers:
        if page.body is not None:
            value = page.body
            content_type = page.content_type
        else:
            value = (page.html or "").encode("utf-8", "surrogatepass")
            content_type = page.content_type or "text/html; charset=utf-8"
        headers: Headers = [(H_ID, page.id.encode("utf-8"))]
        for name, field_value in (
            (H_URL, page.url),
            (H_CONTENT_TYPE, content_type),
            (H_FETCHED_AT, page.fetched_at),
            (H_STATUS, None if page.status is None else str(page.status)),
        ):
            if field_value is not None:
                headers.append((name, field_value.encode("utf-8")))
        return key, value, headers
    msg: dict[str, Any] = {"id": page.id, "url": page.url}
    if page.site:
        msg["site"] = page.site
    for name in ("fetched_at", "status", "content_type"):
        if getattr(page, name) is not None:
            msg[name] = getattr(page, name)
    if page.html is not None:
        msg["html"] = page.html
    elif page.body is not None:
        msg["body"] = base64.b64encode(page.body).decode("ascii")
    return key, orjson.dumps(msg), []
