"""selectolax (lexbor) parsing, node limits, title guess and pre-cleaning."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import heuristics as h

_SPACE = re.compile(r"\s+")
_STYLE_SPACE = re.compile(r"\s+")
# Candidates only; _is_hidden decides. Substring selectors keep the Python-side check to a few nodes.
# (Hiding by class name, "sr-only" and friends, is left to blocks.segment: class selectors cost lexbor
# a scan each, and the walker reads block-level classes anyway.)
_HIDDEN_SELECTOR = "[hidden], [aria-hidden='true' i], [style*='none' i], [style*='hidden' i]"


def fold(text: str) -> str:
    """Collapse every whitespace run to one space and trim, as a browser renders inline text."""
    return _SPACE.sub(" ", text).strip()


def parse(text: str) -> LexborHTMLParser:
    try:
        return LexborHTMLParser(text)
    except UnicodeEncodeError:
        # lexbor wants UTF-8; lone surrogates (surrogateescape decoding) cannot be encoded: replace them.
        return LexborHTMLParser(text.encode("utf-8", "replace").decode("utf-8"))


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
    style = attrs.get("style") or ""
    return h.HIDDEN_STYLE.search(_STYLE_SPACE.sub("", style).lower()) is not None


def preclean(tree: LexborHTMLParser) -> None:
    """Drop everything a reader never sees as text: code, widgets, comments and hidden elements.

    Nodes are decomposed in reverse document order, so a node nested in another doomed node goes
    before its ancestor and no freed node is ever touched.
    """
    root = tree.root
    if root is None:
        return
    for node in reversed([n for n in tree.css(_HIDDEN_SELECTOR) if _is_hidden(n)]):
        node.decompose()
    # One walk finds both the unwanted tags and the comments (strip_tags would scan once per tag).
    remove = h.REMOVE_TAGS
    doomed = [n for n in root.traverse(include_text=False) if n.tag in remove]  # comments included
    for node in reversed(doomed):
        node.decompose()
