"""selectolax (lexbor) parsing, node limits, title guess and pre-cleaning."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode, create_tag

from worker.clean import heuristics as h

_SPACE = re.compile(r"\s+")
_STYLE_SPACE = re.compile(r"\s+")
# Candidates only; _is_hidden decides. Substring selectors keep the Python-side check to a few nodes.
# (Hiding by class name, "sr-only" and friends, is left to segment.segment: class selectors cost lexbor
# a scan each, and the walker reads block-level classes anyway.)
_HIDDEN_SELECTOR = "[hidden], [aria-hidden='true' i], [style*='none' i], [style*='hidden' i]"


def _remove_ids() -> frozenset[int]:
    """lexbor tag ids of heuristics.REMOVE_TAGS: `tag_id` is an int read, `tag` decodes a new str."""
    ids = {LexborHTMLParser("<p><!--c--></p>").body.child.child.tag_id}  # type: ignore[union-attr]
    for name in h.REMOVE_TAGS - {"-comment"}:
        node = create_tag(name)
        assert node.tag == name, name  # a typo would become a custom element with a per-document id
        ids.add(node.tag_id)
    return frozenset(ids)


_REMOVE_IDS = _remove_ids()


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


def count_nodes(tree: LexborHTMLParser, limit: int, doomed: list[LexborNode] | None = None) -> int:
    """Number of element nodes, counting stops once `limit` is reached.

    With `doomed`, the walk also collects what `preclean` removes by tag, so that preclean(tree, doomed)
    need not walk the tree again (that walk was most of pre-cleaning's time).
    """
    root = tree.root
    if root is None:
        return 0
    n = 0
    if doomed is None:
        for _ in root.traverse(include_text=False):
            n += 1
            if n >= limit:
                break
        return n
    remove = _REMOVE_IDS
    add = doomed.append
    for node in root.traverse(include_text=False):
        if node.tag_id in remove:
            add(node)
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


def preclean(tree: LexborHTMLParser, doomed: list[LexborNode] | None = None) -> None:
    """Drop everything a reader never sees as text: code, widgets, comments and hidden elements.

    `doomed`, when given, is what count_nodes(tree, limit, doomed) collected over the whole tree (it
    must not have stopped at its limit, and the tree must not have changed since).
    Nodes are decomposed in reverse document order, so a node nested in another doomed node goes
    before its ancestor and no freed node is ever touched. Tags go before hidden elements: a node's
    hiddenness depends only on its own attributes, so the order does not change what is left, and
    the hidden selector then runs on the smaller tree.
    """
    root = tree.root
    if root is None:
        return
    if doomed is None:
        # One walk finds both the unwanted tags and the comments (strip_tags would scan once per tag).
        remove = _REMOVE_IDS
        doomed = [n for n in root.traverse(include_text=False) if n.tag_id in remove]  # comments included
    for node in reversed(doomed):
        node.decompose()
    for node in reversed([n for n in tree.css(_HIDDEN_SELECTOR) if _is_hidden(n)]):
        node.decompose()
