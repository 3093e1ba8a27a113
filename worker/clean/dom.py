"""selectolax (lexbor) parsing. (The title is the metadata's: worker.clean.meta.)

Nothing is taken out of the tree: the segmentation (worker.clean.segment) steps over what is never text
and over hidden elements, which costs it nothing extra, where finding them first cost passes over the
whole tree.

Markup that swallows the page: an element whose text is raw (<title>, <textarea>, <script>, <style>,
<xmp>, <iframe>, <noembed>, <noframes>) or a comment that is never closed runs to the end of the file
under the HTML5 rules lexbor follows, and so do today's browsers: the page renders blank, and its text is
lost to us. The parsers of the browsers such pages were written for (Internet Explorer, Gecko before its
HTML5 parser) recovered: the element ended where its text meets the first tag, a comment at its first
`>`. `unswallowed` finds the swallowing on the parsed tree (the last node of the head or of the document
is the raw text or comment, and it holds the rest of the file) and rewrites the markup that way; the
caller parses the rewrite. On a well-formed page it costs two walks down the last children (a few
microseconds); it rewrites nothing on any page of the shared sets.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import native

_SPACE = re.compile(r"\s+")
# Elements whose content lexbor reads as text up to their own end tag (RCDATA, RAWTEXT, script data).
RAW_TEXT_TAGS = frozenset({"title", "textarea", "script", "style", "xmp", "iframe", "noembed", "noframes"})
# Characters of the swallowed text's end that must match the file's end: the swallowing ran to EOF.
_TAIL_CHARS = 16
_TAIL_WINDOW = 4096  # trailing whitespace longer than this hides a swallowing (never seen)
# Rewrites of one page at most: each can reveal another swallowing element further on.
MAX_RECOVERIES = 4
_TAG_START = re.compile(r"<[A-Za-z/!?]")


def fold(text: str) -> str:
    """Collapse every whitespace run to one space and trim, as a browser renders inline text."""
    return _SPACE.sub(" ", text).strip()


def utf8_python(text: str) -> bytes:
    """A page's UTF-8 (what lexbor reads); raises UnicodeEncodeError on a lone surrogate."""
    return text.encode("utf-8")


def parse(text: str | bytes) -> LexborHTMLParser:
    """Parse a page; bytes must be UTF-8 (lexbor's own encoding, so nothing is re-encoded)."""
    if isinstance(text, bytes):
        return LexborHTMLParser(text)
    try:
        return LexborHTMLParser(text)
    except UnicodeEncodeError:
        # lexbor wants UTF-8; lone surrogates (surrogateescape decoding) cannot be encoded: replace them.
        return LexborHTMLParser(text.encode("utf-8", "replace").decode("utf-8"))


def parse_page(markup: str, encoded: bytes | None = None) -> tuple[LexborHTMLParser, int]:
    """Parse a page (its UTF-8 `encoded` when given), recovering markup that swallows the rest of the file
    (see the module docstring); also how many swallowing elements were recovered."""
    tree = parse(markup if encoded is None else encoded)
    recovered = 0
    while recovered < MAX_RECOVERIES:
        fixed = unswallowed(tree, markup)
        if fixed is None:
            break
        markup, recovered = fixed, recovered + 1
        tree = parse(markup)
    return tree, recovered


def unswallowed(tree: LexborHTMLParser, markup: str) -> str | None:
    """`markup` rewritten the way pre-HTML5 browsers read it when an unclosed raw-text element or comment
    swallows the rest of the file in `tree` (its parse); None when nothing does."""
    for part in (tree.head, tree.root):
        if part is None:
            continue
        leaf = _last_leaf(part)
        parent = leaf.parent
        if leaf.tag == "-comment":
            swallowed, opener = leaf.comment_content or "", "<!--"
        elif leaf.tag == "-text" and parent is not None and parent.tag in RAW_TEXT_TAGS:
            swallowed, opener = leaf.text_content or "", "<" + (parent.tag or "")
        else:
            continue
        # Bounded copies: a page's last script can be long, and most end with one.
        tail = swallowed[-_TAIL_WINDOW:].rstrip()[-_TAIL_CHARS:]
        if not tail or not markup[-_TAIL_WINDOW:].rstrip().endswith(tail) or "<" not in swallowed:
            continue  # closed before the end of the file, or no markup in it
        fixed = _recover(markup, opener, len(swallowed))
        if fixed is not None:
            return fixed
    return None


def _last_leaf(node: LexborNode) -> LexborNode:
    child = node.last_child
    while child is not None:
        node, child = child, child.last_child
    return node


def _recover(markup: str, opener: str, swallowed: int) -> str | None:
    """Close the element (or comment) opened by `opener` whose content, `swallowed` characters as parsed,
    runs to the end of `markup`: before the first tag in it (at its first `>`, for a comment)."""
    lower = markup.lower()  # only on a page that was swallowed
    end = len(markup)
    closer = "-->" if opener == "<!--" else "</" + opener[1:]
    start = lower.rfind(closer) + 1  # the swallowing opener comes after the last closer
    # Of the openers after it, the one whose content's length is closest to what the parser saw.
    best: tuple[int, int] | None = None
    for found in re.finditer(re.escape(opener) + (r"" if opener == "<!--" else r"(?=[\s/>])"), lower[start:]):
        at = start + found.start()
        if opener == "<!--":
            content = at + 4
        else:
            gt = markup.find(">", at)
            if gt < 0:
                continue
            content = gt + 1
        off = abs((end - content) - swallowed)
        if best is None or off < best[0]:
            best = (off, at if opener == "<!--" else content)
    if best is None:
        return None
    at = best[1]
    if opener == "<!--":  # "<!-" then not "-": a bogus comment, which ends at the first ">"
        return markup[:at] + "<!- " + markup[at + 4 :]
    tag = _TAG_START.search(markup, at)
    if tag is None:
        return None
    return markup[: tag.start()] + closer + ">" + markup[tag.start() :]


# In C (worker/clean/_native.c: runs of ASCII four code units a step), once native.py has checked it
# against str.encode; else str.encode.
utf8 = native.utf8_encoder(utf8_python)
