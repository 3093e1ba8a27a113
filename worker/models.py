"""Records that cross module boundaries. Plain frozen dataclasses; no I/O here."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

BlockKind = Literal[
    "heading",
    "paragraph",
    "list_item",
    "quote",
    "code",
    "table_cell",
    "headline",
    "dateline",
    "byline",
    "caption",
]
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
class Quality:
    """Cheap signals of how much a text reads like prose (worker/clean/quality.py computes them).

    Ratios are shares of the text's non-space characters (symbols, digits), of its words (stopwords), or
    of its lines (ending in sentence punctuation); None where the measure does not apply (no stoplist
    or no word-frequency model for the language).
    """

    words: int
    mean_word_length: float
    symbol_ratio: float  # neither letter, digit nor space
    digit_ratio: float
    stopword_ratio: float | None  # share of words in the language's stoplist
    punctuated_lines: float  # share of lines ending in sentence punctuation
    lm_score: float | None  # mean Zipf frequency of the words in the language's word-frequency model


@dataclass(frozen=True, slots=True)
class Block:
    kind: BlockKind
    text: str
    # Derived from the text (worker/clean/quality.py): two blocks with the same kind and text are equal.
    quality: Quality | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class FoundDate:
    """A calendar day and the rule that found it, e.g. "json-ld:datePublished", "url", "byline"."""

    date: str  # ISO 8601 day, YYYY-MM-DD
    rule: str


@dataclass(frozen=True, slots=True)
class PageMetadata:
    """What a page says about itself (worker/clean/meta). Every field may be empty: most pages say only
    some of it."""

    title: str | None = None  # the article's own headline, without the site suffix <title> carries
    published: FoundDate | None = None
    modified: FoundDate | None = None
    authors: tuple[str, ...] = ()
    site_name: str | None = None
    description: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()


NO_METADATA = PageMetadata()


@dataclass(frozen=True, slots=True)
class Comment:
    """One reader comment, kept apart from the article's text (worker/clean/comments.py)."""

    text: str
    author: str | None = None  # where the markup names it (a comment-author element, "X says:")
    published: str | None = None  # ISO day, where the comment is dated


@dataclass(frozen=True, slots=True)
class Post:
    """One of several posts on a page that lists them (a blog front page, an archive, a forum thread)."""

    text: str
    title: str | None = None
    author: str | None = None
    published: str | None = None  # ISO day


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
    # Blocks the quality filter took out of the text (CleanOptions.min_quality), counted in blocks_dropped.
    blocks_filtered: int = 0


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
    metadata: PageMetadata = NO_METADATA
    comments: tuple[Comment, ...] = ()  # filled with CleanOptions.keep_comments; never inside `text`
    posts: tuple[Post, ...] = ()  # when the page lists several posts rather than holding one article
    quality: Quality | None = None  # of `text` as a whole
