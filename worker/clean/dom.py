"""selectolax (lexbor) parsing and the title guess.

Nothing is taken out of the tree: the segmentation (worker.clean.segment) steps over what is never text
and over hidden elements, which costs it nothing extra, where finding them first cost passes over the
whole tree.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

_SPACE = re.compile(r"\s+")


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
