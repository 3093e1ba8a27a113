"""selectolax (lexbor) parsing. (The title is the metadata's: worker.clean.meta.)

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
