"""One input record -> its single output record (a document or a dead letter). Pure: no broker here.

Kept apart from the runner so the "bad input never crashes or stalls" promise can be fuzzed without
a broker: `handle_record` never raises for any bytes, key or headers.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import orjson

from worker import messages
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.messages import InputRecord, Rejection
from worker.models import Document
from worker.settings import Settings
from worker.stream.errors import describe

log = logging.getLogger(__name__)

# Room left in a produce request for the record's key, headers and batch framing.
REQUEST_OVERHEAD = 64 * 1024
# Identity fields copied into an unread page's dead letter are cut here (the page schema's longest
# field, a URL, is at most 8192 characters).
MAX_IDENTITY_BYTES = 8192


@dataclass(frozen=True, slots=True)
class Output:
    topic: str
    key: bytes | None
    value: bytes
    headers: list[tuple[str, bytes]]
    outcome: str  # "document" | "dead_letter"
    reason: str | None = None
    method: str | None = None


def handle_record(
    record: InputRecord, settings: Settings, options: CleanOptions, memory: Any = None
) -> tuple[Output, Document | None]:
    """Decode and clean one record into its output. CPU only; never raises."""
    page = messages.decode_page(record, max_bytes=settings.max_bytes)
    if isinstance(page, Rejection):
        return dead_output(record, page, settings), None
    try:
        document = clean_page(page, memory, options)
    except Exception as exc:  # clean_page promises not to raise; a broken promise costs one page
        # type and place only: the message may quote the page, and page content stays out of logs
        log.error("clean_page raised on %s:%s:%s: %s", record.topic, record.partition, record.offset,
                  describe(exc))  # fmt: skip
        why = Rejection("extraction_error", f"{type(exc).__name__}: {exc}"[:300], "extract",
                        type(exc).__name__, page.id, page.url, page.site)  # fmt: skip
        return dead_output(record, why, settings), None
    rejection = messages.rejection_of(document)
    if rejection is not None:
        return dead_output(record, rejection, settings), document
    source = messages.Source(record.topic, record.partition, record.offset)
    key, value, headers = messages.encode_document(
        document, page, source=source, max_bytes=settings.max_request_size - REQUEST_OVERHEAD
    )
    if len(value) > settings.max_request_size - REQUEST_OVERHEAD:
        detail = f"document of {len(value)} bytes exceeds the produce limit"
        why = Rejection("too_large", detail, "extract", "DocumentTooLarge", page.id, page.url, page.site)
        return dead_output(record, why, settings), document
    out = Output(settings.output_topic, key, value, headers, "document", method=document.method)
    return out, document


def unread_dead_output(
    record: InputRecord, reason: str, detail: str, error_class: str, settings: Settings
) -> Output:
    """A dead letter for a record that was never cleaned here: the cleaning pool's verdict on a page
    that ran past its deadline or killed its cleaning process (the worker's event loop cleans nothing).

    Identified like any other page: the `id`/`url`/`site` Kafka headers of the raw form, or the fields of
    the JSON envelope (one orjson parse, linear in the value and bounded by the input size cap, done only
    for such verdicts), or else topic:partition:offset. The original value is in the dead letter too.
    """
    fields: dict[str, str] = {}
    for name, raw in record.headers:
        if raw is not None and name.lower() in (messages.H_ID, messages.H_URL, messages.H_SITE):
            fields[name.lower()] = raw[:MAX_IDENTITY_BYTES].decode("utf-8", "replace").strip()
    value = record.value
    if messages.H_URL not in fields and value and value[:64].lstrip()[:1] == b"{":
        try:
            envelope = orjson.loads(value)
        except orjson.JSONDecodeError:
            envelope = None
        if isinstance(envelope, dict):
            for name in (messages.H_ID, messages.H_URL, messages.H_SITE):
                field = envelope.get(name)
                if isinstance(field, str | int) and not isinstance(field, bool) and field != "":
                    fields[name] = str(field)[:MAX_IDENTITY_BYTES]
    page_id = fields.get(messages.H_ID) or messages.default_page_id(record)
    why = Rejection(reason, detail, "extract", error_class, page_id, fields.get(messages.H_URL) or None,
                    fields.get(messages.H_SITE) or None)  # fmt: skip
    return dead_output(record, why, settings)


def dead_output(record: InputRecord, rejection: Rejection, settings: Settings) -> Output:
    key, value, headers = messages.encode_dead_letter(
        record, rejection, max_value_bytes=settings.dead_letter_max_value_bytes
    )
    return Output(settings.dead_letter_topic, key, value, headers, "dead_letter", reason=rejection.reason)
