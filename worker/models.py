"""Records that cross module boundaries. Plain frozen dataclasses; no I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

BlockKind = Literal["heading", "paragraph", "list_item", "quote", "code", "table_cell"]
Method = Literal["density", "template", "template_fallback", "none"]


class Reason(StrEnum):
    """Every reason a dead letter can carry: the `reason` enum of schemas/dead_letter.json, exactly
    (a test holds the two equal both ways). Consumers of the dead-letter topic switch on these."""

    INVALID_JSON = "invalid_json"  # the JSON form's value is not a JSON object
    SCHEMA_VIOLATION = "schema_violation"  # a field breaks schemas/page.json
    UNDECODABLE = "undecodable"  # no charset turns the bytes into text
    NOT_HTML = "not_html"  # declared or sniffed as another format
    TOO_LARGE = "too_large"  # over max_bytes, or its document over the produce limit
    TOO_MANY_NODES = "too_many_nodes"  # over max_nodes elements
    TIMEOUT = "timeout"  # over the CPU budget, or over the hard wall-clock deadline
    PARSE_ERROR = "parse_error"  # the HTML parser gave up (e.g. out of memory)
    EXTRACTION_ERROR = "extraction_error"  # a heuristic failed on this page
    EMPTY_INPUT = "empty_input"  # nothing to clean
    INTERNAL_ERROR = "internal_error"  # a defect of ours, or a page that killed its cleaning process


# Reasons a page yields an empty document instead of text (a subset of Reason). The stream layer turns
# these into dead letters with the same reason string, so they are part of the message contract.
ErrorReason = Literal[
    "empty_input",
    "undecodable",
    "not_html",
    "too_large",
    "too_many_nodes",
    "timeout",
    "parse_error",
    "extraction_error",
]


@dataclass(frozen=True, slots=True)
class Page:
    """One fetched page as the cleaner sees it, whatever transport brought it."""

    id: str
    html: str | None = None
    body: bytes | None = None
    url: str | None = None
    site: str | None = None
    content_type: str | None = None
    fetched_at: str | None = None
    status: int | None = None


@dataclass(frozen=True, slots=True)
class Block:
    kind: BlockKind
    text: str


@dataclass(frozen=True, slots=True)
class DocStats:
    input_bytes: int
    output_chars: int
    blocks_kept: int
    blocks_dropped: int
    elapsed_ms: float
    # Density extractions run on the page: 1 in the common case, more only under a named safety rule of
    # the template memory (worker/clean/pipeline.py), 0 when the page never got that far.
    density_runs: int = 0


@dataclass(frozen=True, slots=True)
class TemplateInfo:
    """What the site memory knew and did for this page (filled by the template memory).

    fallback_reason: cold_site, all_template, empty, stripped_most, disagrees (see worker/clean/template.py)
    or state_error (the site's state broke while being used: dropped, the page cleaned density-only).
    """

    pages_seen: int
    blocks_stripped: int  # text blocks of the page inside stripped template subtrees
    fallback_reason: str | None = None


@dataclass(frozen=True, slots=True)
class Document:
    id: str
    url: str | None
    site: str | None
    title: str
    text: str
    blocks: tuple[Block, ...]
    method: Method
    stats: DocStats
    lang: str | None = None
    encoding: str | None = None
    encoding_rule: str | None = None
    template: TemplateInfo | None = None
    error: ErrorReason | None = None
    error_detail: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
