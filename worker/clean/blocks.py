"""One walk over the pre-cleaned tree: a compact element tree plus text blocks with shallow features.

Everything after this walk is plain Python over these records; selectolax is not touched again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from selectolax.lexbor import LexborHTMLParser, LexborNode, create_tag

from worker.clean import heuristics as h
from worker.clean.options import budget_clock

_DIGITS = re.compile(r"\d{3,}")


@dataclass(slots=True)
class Elem:
    """An element of the compact tree. Block indices [first_block, end_block) lie inside it."""

    tag: str
    cls: str  # the class attribute as written
    parent: int  # index into Segmentation.elems, -1 for the root
    first_block: int
    end_block: int = -1
    id_attr: str = ""  # the id attribute as written
    children: list[int] = field(default_factory=list)
    marked: bool = False  # boilerplate container by class/id/tag
    comment: bool = False  # comment section by class/id
    good: bool = False  # content container by class/id (article, entry-content...)

    @property
    def ident(self) -> str:
        """Lower-cased "class id", what the class/id patterns are matched against."""
        return f"{self.cls} {self.id_attr}".lower() if self.cls or self.id_attr else ""

    @property
    def first_class(self) -> str:
        parts = self.cls.split(None, 1)
        return parts[0] if parts else ""


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


def _hidden_class(cls: str) -> bool:
    """Hidden by a framework class ("sr-only", "d-none"...); substring tests first, they are cheap."""
    if not ("hid" in cls or "Hid" in cls or "sr-only" in cls or "none" in cls or "screen-reader" in cls):
        return False
    return not h.HIDDEN_CLASS_TOKENS.isdisjoint(cls.lower().split())


def _tag_ids(names: frozenset[str]) -> dict[int, str]:
    """lexbor tag id -> name. The walker dispatches on `tag_id` (an int read) rather than `tag`, which
    decodes the element's name into a new str at every node. Every name here is a standard HTML tag,
    whose id is a fixed constant; unknown (custom) elements get ids outside that table, so they can
    never collide with one of these."""
    ids: dict[int, str] = {}
    for name in names:
        node = create_tag(name)
        assert node.tag == name, name  # a typo in a table would silently become a custom element
        ids[node.tag_id] = name
    return ids


_BLOCK_IDS = _tag_ids(h.BLOCK_TAGS)
_VOID_IDS = frozenset(_tag_ids(h.VOID_TAGS))
_A_ID = create_tag("a").tag_id
_BR_ID = create_tag("br").tag_id
_TEXT_ID = LexborHTMLParser("<p>x</p>").body.child.child.tag_id  # type: ignore[union-attr]
_KIND_BY_ID = {tag_id: h.KIND_TAGS[name] for tag_id, name in _BLOCK_IDS.items() if name in h.KIND_TAGS}


def segment(body: LexborNode, deadline: float) -> Segmentation:
    """Walk `body` once into block-level elements and text blocks.

    Recursive because it is ~30% faster than an explicit stack over selectolax nodes; subtrees deeper
    than MAX_DEPTH (unclosed <font> soup, adversarial input) are read as one run of inline text.
    Only block-level elements become `Elem`s; inline ones pass their text through, <a> marks it as link.
    This is the hottest loop of the cleaner (about 1,500 nodes per page): names are bound locally and
    nodes are told apart by tag id.
    """
    elems: list[Elem] = [Elem(body.tag or "body", "", -1, 0)]
    out: list[RawBlock] = []
    parts: list[str] = []
    link_parts: list[str] = []
    pending_br = False  # a <br> was the last thing in this block: a second one ends the block
    block_ids = _BLOCK_IDS
    void_ids = _VOID_IDS
    kind_by_id = _KIND_BY_ID
    text_id, a_id, br_id = _TEXT_ID, _A_ID, _BR_ID
    max_depth = h.MAX_DEPTH
    deadline_every = h.DEADLINE_EVERY
    clock = budget_clock
    new_elem = Elem
    new_block = RawBlock
    add_elem = elems.append
    add_block = out.append
    hidden_class = _hidden_class

    def flush(elem: int, kind: str) -> None:
        nonlocal pending_br
        pending_br = False
        if not parts:
            return
        tokens = "".join(parts).split()
        parts.clear()
        if not link_parts:
            if not tokens:
                return
            text = " ".join(tokens)
            add_block(new_block(text, kind, elem, len(tokens), 0, len(text), 0, kind == "heading"))
            return
        link = "".join(link_parts).strip()
        link_parts.clear()
        if not tokens:
            return
        text = " ".join(tokens)
        words = len(tokens)
        link_words = min(len(link.split()), words) if link else 0
        chars = len(text)
        link_chars = min(len(link), chars)
        add_block(new_block(text, kind, elem, words, link_words, chars, link_chars, kind == "heading"))

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

    add_text = parts.append
    add_link = link_parts.append

    def walk(node: LexborNode, cur: int, kind: str, in_link: bool, depth: int) -> None:
        nonlocal pending_br
        # first_child/next rather than iter(include_text=True): same children (a document node, not a
        # fragment), without a generator per element; a quarter of the walk was spent in iter().
        child = node.first_child
        while child is not None:
            tid = child.tag_id
            if tid == text_id:
                if parts:
                    text = child.text_content
                    if text:
                        if pending_br and not text.isspace():
                            pending_br = False
                        add_text(text)
                        if in_link:
                            add_link(text)
                # Leading whitespace is dropped; most text nodes are indentation between blocks, and
                # lexbor tells ASCII whitespace apart without making a str of it.
                elif not child.is_empty_text_node:
                    text = child.text_content
                    if text and not text.isspace():
                        pending_br = False
                        add_text(text)
                        if in_link:
                            add_link(text)
            elif tid in block_ids:
                if depth >= max_depth:
                    flat(child, in_link)
                else:
                    if parts:
                        flush(cur, kind)
                    attrs = child.attributes
                    if attrs:
                        cls = attrs.get("class") or ""
                        id_attr = attrs.get("id") or ""
                    else:
                        cls = id_attr = ""
                    if not (cls and hidden_class(cls)):
                        idx = len(elems)
                        if not idx % deadline_every and clock() > deadline:
                            raise TimeoutError("density walk over budget")
                        elem = new_elem(block_ids[tid], cls, cur, len(out), -1, id_attr, [])
                        add_elem(elem)
                        elems[cur].children.append(idx)
                        inner_kind = kind_by_id.get(tid, kind)
                        walk(child, idx, inner_kind, in_link, depth + 1)
                        if parts:
                            flush(idx, inner_kind)
                        else:
                            pending_br = False
                        elem.end_block = len(out)
            elif tid == br_id:
                if pending_br:
                    flush(cur, kind)
                elif parts:
                    add_text("\n")
                    pending_br = True
            elif tid in void_ids:
                pass  # no children, no text: not worth a call
            elif depth >= max_depth:
                flat(child, in_link or tid == a_id)
            elif tid == a_id:
                walk(child, cur, kind, True, depth + 1)
                if link_parts:
                    add_link(" ")  # two adjacent links are two words, not one
            else:  # inline element (comments are gone since preclean, and have no children anyway)
                walk(child, cur, kind, in_link, depth + 1)
            child = child.next

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
