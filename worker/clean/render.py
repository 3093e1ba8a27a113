"""Renderings of a Document: JSON (one JSONL line), plain text, CleanEval markup and Markdown."""

from __future__ import annotations

import re
from typing import Any

import orjson

from worker.models import Block, BlockKind, Document

# CleanEval marks each segment <h> (heading), <l> (list item) or <p> (everything else).
_CLEANEVAL_TAG: dict[BlockKind, str] = {
    "heading": "<h>",
    "paragraph": "<p>",
    "list_item": "<l>",
    "quote": "<p>",
    "code": "<p>",
    "table_cell": "<p>",
}
_SPACE = re.compile(r"\s+")
# A paragraph that starts like Markdown syntax would change meaning; its first character is escaped.
_MD_LEADING = re.compile(r"^(#{1,6}\s|[-+*]\s|>|\d+[.)]\s|`{3}|~{3}|={3,}|-{3,})")
_FENCE = re.compile(r"`{3,}")
# Characters a JSON document must not carry as they are: C0 controls other than tab, newline and carriage
# return (orjson would write each as a 6-byte escape) become spaces, and lone surrogates (which orjson
# refuses) become U+FFFD. One character for one, so block offsets stay true.
_JSON_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
BLOCK_SEPARATOR = "\n\n"


def _json_safe(text: str) -> str:
    return _JSON_UNSAFE.sub(lambda m: " " if m.group() < " " else "\ufffd", text)


def block_spans(doc: Document) -> tuple[str, list[dict[str, Any]]]:
    """The document's text (its blocks joined by a blank line) and each block as its kind and the
    [start, end) slice of that text, in Unicode code points: the text is carried once, not twice."""
    if not doc.blocks:
        return _json_safe(doc.text), []
    spans: list[dict[str, Any]] = []
    start = 0
    for b in doc.blocks:
        spans.append({"kind": b.kind, "start": start, "end": start + len(b.text)})
        start += len(b.text) + len(BLOCK_SEPARATOR)
    return _json_safe(BLOCK_SEPARATOR.join(b.text for b in doc.blocks)), spans


def to_json_dict(doc: Document) -> dict[str, Any]:
    """The JSONL record of a document: the core fields always, the optional ones when set."""
    text, spans = block_spans(doc)
    out: dict[str, Any] = {
        "id": doc.id,
        "url": doc.url,
        "title": doc.title,
        "text": text,
        "blocks": spans,
        "method": doc.method,
    }
    if doc.site is not None:
        out["site"] = doc.site
    if doc.lang is not None:
        out["lang"] = doc.lang
    if doc.encoding is not None:
        out["encoding"] = doc.encoding
        out["encoding_rule"] = doc.encoding_rule
    out["stats"] = {
        "input_bytes": doc.stats.input_bytes,
        "output_chars": doc.stats.output_chars,
        "blocks_kept": doc.stats.blocks_kept,
        "blocks_dropped": doc.stats.blocks_dropped,
        "elapsed_ms": round(doc.stats.elapsed_ms, 3),
        "density_runs": doc.stats.density_runs,
    }
    if doc.template is not None:
        out["template"] = {
            "pages_seen": doc.template.pages_seen,
            "blocks_stripped": doc.template.blocks_stripped,
            "fallback_reason": doc.template.fallback_reason,
        }
    if doc.error is not None:
        out["error"] = doc.error
        out["error_detail"] = doc.error_detail
    if doc.extra:
        out["extra"] = dict(doc.extra)
    return out


def to_json(doc: Document) -> bytes:
    """One JSONL line (without the newline)."""
    return orjson.dumps(to_json_dict(doc))


def to_text(doc: Document) -> str:
    """The main text: blocks separated by blank lines."""
    return "\n\n".join(b.text for b in doc.blocks) if doc.blocks else doc.text


def to_cleaneval(doc: Document) -> str:
    """CleanEval markup: one segment per block, each prefixed <h>, <p> or <l>, blank lines between."""
    parts = []
    for b in doc.blocks:
        text = _SPACE.sub(" ", b.text).strip()
        if text:
            parts.append(_CLEANEVAL_TAG[b.kind] + text)
    return "\n\n".join(parts)


def _md_escape(line: str) -> str:
    return "\\" + line if _MD_LEADING.match(line) else line


def _md_block(b: Block) -> str:
    if b.kind == "code":
        longest = max((len(m) for m in _FENCE.findall(b.text)), default=0)
        fence = "`" * max(3, longest + 1)
        return f"{fence}\n{b.text}\n{fence}"
    text = _SPACE.sub(" ", b.text).strip()
    if b.kind == "heading":
        return "## " + text
    if b.kind == "list_item":
        return "- " + text
    if b.kind == "quote":
        return "\n".join("> " + line.strip() for line in b.text.strip().splitlines() if line.strip())
    return _md_escape(text)


def to_markdown(doc: Document) -> str:
    """Markdown: the title as `#`, headings `##`, list items `-`, quotes `>`, code fenced."""
    parts: list[str] = []
    if doc.title.strip():
        parts.append("# " + _SPACE.sub(" ", doc.title).strip())
    prev: BlockKind | None = None
    for b in doc.blocks:
        if not b.text.strip():
            continue
        rendered = _md_block(b)
        # Consecutive items form one list: a single newline between them, blank lines elsewhere.
        if prev == "list_item" and b.kind == "list_item" and parts:
            parts[-1] += "\n" + rendered
        else:
            parts.append(rendered)
        prev = b.kind
    return "\n\n".join(parts)
