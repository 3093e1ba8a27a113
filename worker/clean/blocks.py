"""One walk over the pre-cleaned tree: a compact element tree plus text blocks with shallow features.

Everything after this walk is plain Python over these records; selectolax is not touched again.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from selectolax.lexbor import LexborNode

from worker.clean import heuristics as h

_SPACE = re.compile(r"\s+")
_WORD = re.compile(r"\w+")
_DIGITS = re.compile(r"\d{3,}")


@dataclass(slots=True)
class Elem:
    """An element of the compact tree. Block indices [first_block, end_block) lie inside it."""

    tag: str
    ident: str  # lower-cased "class id" attribute values
    parent: int  # index into Segmentation.elems, -1 for the root
    first_block: int
    end_block: int = -1
    id_attr: str = ""
    first_class: str = ""
    children: list[int] = field(default_factory=list)
    marked: bool = False  # boilerplate container by class/id/tag
    comment: bool = False  # comment section by class/id
    good: bool = False  # content container by class/id (article, entry-content...)


@dataclass(slots=True)
class RawBlock:
    """A text block and its shallow, language-independent features."""

    text: str
    kind: str
    elem: int  # innermost block-level element that holds it
    words: int
    link_words: int
    chars: int
    link_chars: int
    heading: bool
    stop_words: int = 0

    @property
    def link_density(self) -> float:
        if self.chars > h.UNSPACED_CHARS_PER_WORD * self.words:
            # Chinese, Japanese, Thai: no spaces, so "words" are whole clauses; count characters instead.
            return self.link_chars / self.chars
        return self.link_words / self.words if self.words else 0.0


@dataclass(slots=True)
class Segmentation:
    elems: list[Elem]
    blocks: list[RawBlock]


def _ident(node: LexborNode) -> tuple[str, str, str]:
    attrs = node.attributes
    if not attrs:
        return "", "", ""
    cls = attrs.get("class") or ""
    ident = attrs.get("id") or ""
    first = cls.split()[0] if cls.strip() else ""
    return f"{cls} {ident}".lower() if cls or ident else "", ident, first


def segment(body: LexborNode, deadline: float) -> Segmentation:
    """Walk `body` once into block-level elements and text blocks.

    Recursive because it is ~30% faster than an explicit stack over selectolax nodes; subtrees deeper
    than MAX_DEPTH (unclosed <font> soup, adversarial input) are read as one run of inline text.
    Only block-level elements become `Elem`s; inline ones pass their text through, <a> marks it as link.
    """
    elems: list[Elem] = [Elem(body.tag or "body", "", -1, 0)]
    out: list[RawBlock] = []
    parts: list[str] = []
    link_parts: list[str] = []
    pending_br = False  # a <br> was the last thing in this block: a second one ends the block
    visited = 0
    block_tags = h.BLOCK_TAGS
    kind_tags = h.KIND_TAGS

    def flush(elem: int, kind: str) -> None:
        nonlocal pending_br
        pending_br = False
        if not parts:
            return
        tokens = "".join(parts).split()
        parts.clear()
        link = "".join(link_parts).strip() if link_parts else ""
        link_parts.clear()
        if not tokens:
            return
        text = " ".join(tokens)
        words = len(tokens)
        link_words = min(len(link.split()), words) if link else 0
        chars = len(text)
        link_chars = min(len(link), chars)
        out.append(RawBlock(text, kind, elem, words, link_words, chars, link_chars, kind == "heading"))

    def flat(node: LexborNode, in_link: bool) -> None:
        for inner in node.traverse(include_text=True):
            if inner.tag == "-text":
                text = inner.text_content
                if text:
                    parts.append(text)
                    if in_link:
                        link_parts.append(text)
            elif inner.tag == "br":
                parts.append("\n")

    def walk(node: LexborNode, cur: int, kind: str, in_link: bool, depth: int) -> None:
        nonlocal pending_br, visited
        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                text = child.text_content
                if text and (parts or not text.isspace()):
                    if pending_br and not text.isspace():
                        pending_br = False
                    parts.append(text)
                    if in_link:
                        link_parts.append(text)
                continue
            if not tag or tag[0] in "-!":
                continue  # comments, doctype
            visited += 1
            if visited % h.DEADLINE_EVERY == 0 and time.perf_counter() > deadline:
                raise TimeoutError("density walk over budget")
            if tag == "br":
                if pending_br:
                    flush(cur, kind)
                elif parts:
                    parts.append("\n")
                    pending_br = True
            elif depth >= h.MAX_DEPTH:
                flat(child, in_link or tag == "a")
            elif tag in block_tags:
                flush(cur, kind)
                ident, id_attr, first_class = _ident(child)
                idx = len(elems)
                elem = Elem(tag, ident, cur, len(out), id_attr=id_attr, first_class=first_class)
                elems.append(elem)
                elems[cur].children.append(idx)
                inner_kind = kind_tags.get(tag, kind)
                walk(child, idx, inner_kind, in_link, depth + 1)
                flush(idx, inner_kind)
                elem.end_block = len(out)
            elif tag == "a":
                walk(child, cur, kind, True, depth + 1)
                if link_parts:
                    link_parts.append(" ")  # two adjacent links are two words, not one
            else:
                walk(child, cur, kind, in_link, depth + 1)

    walk(body, 0, "paragraph", body.tag == "a", 0)
    flush(0, "paragraph")
    elems[0].end_block = len(out)
    return Segmentation(elems, out)


def stable_path(elems: list[Elem], idx: int) -> str:
    """Tag path from the root, ids and first classes kept only when they look hand-written."""
    parts: list[str] = []
    while idx >= 0:
        e = elems[idx]
        part = e.tag
        if e.id_attr and not _DIGITS.search(e.id_attr):
            part += "#" + e.id_attr.strip()
        elif e.first_class and not _DIGITS.search(e.first_class):
            part += "." + e.first_class
        parts.append(part)
        idx = e.parent
    if not parts or parts[-1] != "html":
        parts.append("html")
    return ">".join(reversed(parts))
