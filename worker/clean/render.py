"""Renderings of a Document: JSON (one JSONL line), plain text, CleanEval markup and Markdown (with YAML
front matter). The JSON parts here are shared with the output topic's message (worker/messages.py)."""

from __future__ import annotations

import re
from typing import Any

import orjson

from worker.clean import native
from worker.models import Block, BlockKind, Comment, Document, FoundDate, PageMetadata, Post, Quality

# CleanEval marks each segment <h> (heading), <l> (list item) or <p> (everything else).
_CLEANEVAL_TAG: dict[BlockKind, str] = {
    "heading": "<h>",
    "paragraph": "<p>",
    "list_item": "<l>",
    "quote": "<p>",
    "code": "<p>",
    "table_cell": "<p>",
    "headline": "<h>",
    "dateline": "<p>",
    "byline": "<p>",
    "caption": "<p>",
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
# Metadata strings are cut to this many characters (a <meta> description can be as long as the page).
META_MAX_CHARS = 2048
# Quality ratios are written with this many decimals.
QUALITY_DIGITS = 3


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
        span: dict[str, Any] = {"kind": b.kind, "start": start, "end": start + len(b.text)}
        if b.quality is not None:
            span["quality"] = quality_dict(b.quality)
        spans.append(span)
        start += len(b.text) + len(BLOCK_SEPARATOR)
    return _json_safe(BLOCK_SEPARATOR.join(b.text for b in doc.blocks)), spans


_SCALE = 10.0**QUALITY_DIGITS
# |value * _SCALE| below this: the scaled value and its rounding are exact enough to compare (2**40).
_SCALED_MAX = float(1 << 40)
# Closer than this to a half, the scaled value's rounding is left to round(value, QUALITY_DIGITS).
_NEAR_HALF = 1e-6


def _rounded(value: float) -> float:
    """round(value, QUALITY_DIGITS), equal to it for every float, in a quarter of the time (every block
    of every document has six of these). The quick way (scale, round to an integer, divide) can only
    pick another neighbour when the scaled value sits within rounding error of a half, so near a half
    (and for NaN, infinities, huge values) the slow, correctly rounded way decides."""
    scaled = value * _SCALE
    if -_SCALED_MAX < scaled < _SCALED_MAX:
        whole = round(scaled)
        if abs(abs(scaled - whole) - 0.5) > _NEAR_HALF:
            return whole / _SCALE if whole else 0.0 * value  # keeps the sign of a zero, as round does
    return round(value, QUALITY_DIGITS)


def quality_dict_python(q: Quality) -> dict[str, Any]:
    """A Quality as JSON, its ratios rounded to QUALITY_DIGITS (the reference of the C code)."""
    return {
        "words": q.words,
        "mean_word_length": _rounded(q.mean_word_length),
        "symbol_ratio": _rounded(q.symbol_ratio),
        "digit_ratio": _rounded(q.digit_ratio),
        "stopword_ratio": None if q.stopword_ratio is None else _rounded(q.stopword_ratio),
        "punctuated_lines": _rounded(q.punctuated_lines),
        "lm_score": None if q.lm_score is None else _rounded(q.lm_score),
    }


# In C (worker/clean/_native.c) when native.py has checked it against quality_dict_python: every block of
# every document has one (~1.2 us each in Python, six roundings and a dict).
quality_dict = native.quality_dicter(
    Quality, quality_dict_python, (_SCALE, _SCALED_MAX, _NEAR_HALF, _rounded)
)


def _short(value: str | None) -> str | None:
    return None if value is None else _json_safe(value[:META_MAX_CHARS])


def _found(found: FoundDate | None) -> dict[str, str] | None:
    return None if found is None else {"date": found.date, "rule": found.rule}


def metadata_dict(meta: PageMetadata) -> dict[str, Any]:
    """The page's metadata (without the title, which documents carry at the top level)."""
    return {
        "published": _found(meta.published),
        "modified": _found(meta.modified),
        "authors": [_json_safe(a) for a in meta.authors],
        "site_name": _short(meta.site_name),
        "description": _short(meta.description),
        "canonical_url": _short(meta.canonical_url),
        "image": _short(meta.image),
        "tags": [_json_safe(t) for t in meta.tags],
        "categories": [_json_safe(c) for c in meta.categories],
    }


def comment_dicts(comments: tuple[Comment, ...]) -> list[dict[str, Any]]:
    return [
        {"author": _short(c.author), "published": c.published, "text": _json_safe(c.text)} for c in comments
    ]


def post_dicts(posts: tuple[Post, ...]) -> list[dict[str, Any]]:
    return [
        {
            "title": _short(p.title),
            "author": _short(p.author),
            "published": p.published,
            "text": _json_safe(p.text),
        }
        for p in posts
    ]


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
        "blocks_filtered": doc.stats.blocks_filtered,
    }
    out["metadata"] = metadata_dict(doc.metadata)
    out["comments"] = comment_dicts(doc.comments)
    out["posts"] = post_dicts(doc.posts)
    if doc.quality is not None:
        out["quality"] = quality_dict(doc.quality)
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
    if b.kind == "headline":
        return "# " + text
    if b.kind == "caption":
        return "*" + text.replace("*", "\\*") + "*"
    if b.kind == "list_item":
        return "- " + text
    if b.kind == "quote":
        return "\n".join("> " + line.strip() for line in b.text.strip().splitlines() if line.strip())
    return _md_escape(text)


def front_matter(doc: Document) -> str:
    """YAML front matter of the page's metadata: only the fields the page has, each value written as a
    JSON scalar or list (JSON is YAML), so no title or name can break the block."""
    meta = doc.metadata
    fields: list[tuple[str, Any]] = [
        ("title", doc.title.strip() or None),
        ("url", doc.url),
        ("published", meta.published.date if meta.published else None),
        ("modified", meta.modified.date if meta.modified else None),
        ("authors", list(meta.authors) or None),
        ("site_name", meta.site_name),
        ("description", meta.description),
        ("canonical_url", meta.canonical_url),
        ("image", meta.image),
        ("tags", list(meta.tags) or None),
        ("categories", list(meta.categories) or None),
        ("lang", doc.lang),
        ("comments", len(doc.comments) or None),
        ("posts", len(doc.posts) or None),
    ]
    lines = [
        f"{name}: {orjson.dumps(_short(value) if isinstance(value, str) else value).decode()}"
        for name, value in fields
        if value is not None
    ]
    return "---\n" + "\n".join(lines) + "\n---" if lines else ""


def _md_blocks(blocks: tuple[Block, ...] | list[Block]) -> list[str]:
    parts: list[str] = []
    prev: BlockKind | None = None
    for b in blocks:
        if not b.text.strip():
            continue
        rendered = _md_block(b)
        # Consecutive items form one list: a single newline between them, blank lines elsewhere.
        if prev == "list_item" and b.kind == "list_item" and parts:
            parts[-1] += "\n" + rendered
        else:
            parts.append(rendered)
        prev = b.kind
    return parts


def _md_byline(author: str | None, published: str | None) -> str | None:
    said = " · ".join(_SPACE.sub(" ", v).strip() for v in (author, published) if v)
    return f"*{said}*" if said else None


def to_markdown(doc: Document) -> str:
    """Markdown: the metadata as YAML front matter, the title as `#`, headings `##`, list items `-`,
    quotes `>`, code fenced; then the posts (each a `##` section) and the comments (`## Comments`,
    each a `###` with its author and date)."""
    parts: list[str] = []
    matter = front_matter(doc)
    if matter:
        parts.append(matter)
    if doc.title.strip():
        parts.append("# " + _SPACE.sub(" ", doc.title).strip())
    if doc.posts:
        for post in doc.posts:
            parts.append("## " + _SPACE.sub(" ", post.title or "Post").strip())
            byline = _md_byline(post.author, post.published)
            if byline:
                parts.append(byline)
            parts.extend(_md_escape(_SPACE.sub(" ", p).strip()) for p in post.text.split("\n\n") if p.strip())
    else:
        parts.extend(_md_blocks(doc.blocks))
    if doc.comments:
        parts.append("## Comments")
        for i, comment in enumerate(doc.comments, 1):
            parts.append(f"### {i}. " + (_md_byline(comment.author, comment.published) or "Comment"))
            parts.extend(
                _md_escape(_SPACE.sub(" ", p).strip()) for p in comment.text.split("\n\n") if p.strip()
            )
    return "\n\n".join(parts)
