"""selectolax (lexbor) parsing, title guess and pre-cleaning."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import heuristics as h

_SPACE = re.compile(r"\s+")
_STYLE_SPACE = re.compile(r"\s+")
# Candidates only; _is_hidden decides. Substring selectors keep the Python-side check to a few nodes.
# (Hiding by class name, "sr-only" and friends, is left to segment.segment: class selectors cost lexbor
# a scan each, and the walker reads block-level classes anyway.)
_HIDDEN_SELECTOR = "[hidden], [aria-hidden='true' i], [style*='none' i], [style*='hidden' i]"


def fold(text: str) -> str:
    """Collapse every whitespace run to one space and trim, as a browser renders inline text."""
    return _SPACE.sub(" ", text).strip()


def parse(text: str | bytes) -> LexborHTMLParser:
    """Parse a page; bytes must be UTF-8 (lexbor's own encoding, so nothing is re-encoded)."""
    if isinstance(text, bytes):
        return LexborHTMLParser(text)
    try:
        return LexborHTMLParser(text)
    except UnicodeEncodeError:
        # lexbor wants UTF-8; lone surrogates (surrogateescape decoding) cannot be encoded: replace them.
        return LexborHTMLParser(text.encode("utf-8", "replace").decode("utf-8"))


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
    """Drop the elements a reader never sees because they are hidden (attribute or inline style).

    Elements that are never text (scripts, styles, widgets, comments: heuristics.REMOVE_TAGS) are not
    taken out here: the segmentation steps over them, which costs nothing extra, where finding them here
    cost a walk over the whole tree. Hidden elements are found by lexbor's selector engine, in C.
    Nodes are decomposed in reverse document order, so a node nested in another hidden one goes before
    its ancestor and no freed node is ever touched.
    """
    for node in reversed([n for n in tree.css(_HIDDEN_SELECTOR) if _is_hidden(n)]):
        node.decompose()
