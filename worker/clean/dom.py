"""selectolax (lexbor) parsing, node limits, title guess and pre-cleaning."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import heuristics as h

_SPACE = re.compile(r"\s+")
_STYLE_SPACE = re.compile(r"\s+")
# Candidates only; _is_hidden decides. Substring selectors keep the Python-side check to a few nodes.
_HIDDEN_SELECTOR = "[hidden], [aria-hidden='true' i], [style*='none' i], [style*='hidden' i]" + "".join(
    f", .{cls}" for cls in sorted(h.HIDDEN_CLASS_TOKENS)
)


def fold(text: str) -> str:
    """Collapse every whitespace run to one space and trim, as a browser renders inline text."""
    return _SPACE.sub(" ", text).strip()


def parse(text: str) -> LexborHTMLParser:
    # lexbor wants UTF-8; lone surrogates (from surrogateescape decoding) cannot be encoded, so drop them.
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-8", "replace").decode("utf-8")
    return LexborHTMLParser(text)


def count_nodes(tree: LexborHTMLParser, limit: int) -> int:
    """Number of element nodes, counting stops once `limit` is reached."""
    root = tree.root
    if root is None:
        return 0
    n = 0
    for _ in root.traverse(include_text=False):
        n += 1
        if n >= limit:
            break
    return n


def title(tree: LexborHTMLParser) -> str:
    """og:title, else <title>, else the first <h1>: whitespace folded, "" when none."""
    for selector in ("meta[property='og:title']", "meta[name='twitter:title']"):
        node = tree.css_first(selector)
        if node is not None:
            content = fold(node.attributes.get("content") or "")
            if content:
                return content
    for selector in ("title", "h1"):
        node = tree.css_first(selector)
        if node is not None:
            text = fold(node.text(deep=True))
            if text:
                return text
    return ""


def _is_hidden(node: LexborNode) -> bool:
    if node.tag in ("html", "body"):
        return False  # hiding the whole page is a rendering trick (pre-JS splash), not boilerplate
    attrs = node.attributes
    if "hidden" in attrs:
        return True
    if (attrs.get("aria-hidden") or "").strip().lower() == "true":
        return True
    style = attrs.get("style")
    if style and h.HIDDEN_STYLE.search(_STYLE_SPACE.sub("", style).lower()):
        return True
    classes = attrs.get("class") or ""
    return not h.HIDDEN_CLASS_TOKENS.isdisjoint(classes.lower().split())


def preclean(tree: LexborHTMLParser) -> None:
    """Drop everything a reader never sees as text: code, widgets, comments and hidden elements."""
    tree.strip_tags(list(h.REMOVE_TAGS))
    root = tree.root
    if root is None:
        return
    hidden = [node for node in tree.css(_HIDDEN_SELECTOR) if _is_hidden(node)]
    # Decompose outermost first; a node inside an already removed subtree is then simply skipped.
    removed: set[int] = set()
    for node in hidden:
        if node.mem_id in removed:
            continue
        for inner in node.traverse(include_text=False):
            removed.add(inner.mem_id)
        node.decompose()
    comments = [node for node in root.traverse(include_text=True) if node.is_comment_node]
    for node in comments:
        node.decompose()
