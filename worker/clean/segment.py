"""Segmentation: one walk over <body> into block-level elements and text blocks; pre-cleaning on the way.

The result is compact: elements and blocks are parallel lists (a struct of arrays), not an object each.
The walk only appends text pieces to one page buffer, with a separator after each block; the buffer is
whitespace-folded and cut into block texts once per page (one join, split, join and split in C), and the
shallow features (characters, words, link words) are read off those texts in a few list passes. Everything
after this stage is plain Python over these lists; selectolax is not touched again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from operator import add
from typing import Any, TypeVar

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import heuristics as h
from worker.clean import native
from worker.clean.native import NativeSegment
from worker.clean.options import Budget, TooManyNodes

_DIGITS = re.compile(r"\d{3,}")
_SPACES = re.compile(r"\s+")
# Ends a block in the page buffer. Spaces around it make it a token of its own when the buffer is split on
# whitespace; U+0000 never occurs in parsed text (the HTML parser drops or replaces it), and is replaced
# should it ever do (see _cut).
_END = "\x00"
_END_PIECE = " \x00 "
T = TypeVar("T")


@dataclass(slots=True)
class Segmentation:
    """Block-level elements in pre-order (element 0 is <body>) and the text blocks under them.

    Element i holds the blocks [firsts[i], ends[i]) and the elements (i, skips[i]) (its subtree).
    """

    tags: list[str]
    classes: list[str]  # the class attribute as written
    ids: list[str]  # the id attribute as written
    parents: list[int]  # -1 for the root
    firsts: list[int]
    ends: list[int]
    skips: list[int]
    texts: list[str]  # whitespace-folded block texts, never empty
    kinds: list[str]  # heading, paragraph, list_item, quote, code, table_cell
    owners: list[int]  # innermost block-level element holding the block
    chars: list[int]
    words: list[int]
    link_words: list[int]
    link_chars: list[int]

    def children(self, elem: int) -> list[int]:
        """Child elements of `elem`, in document order."""
        out = []
        skips = self.skips
        end = skips[elem]
        c = elem + 1
        while c < end:
            out.append(c)
            c = skips[c]
        return out

    def ident(self, elem: int) -> str:
        """Lower-cased "class id", what class/id patterns are matched against ("" without either)."""
        cls, id_attr = self.classes[elem], self.ids[elem]
        return f"{cls} {id_attr}".lower() if cls or id_attr else ""

    def first_class(self, elem: int) -> str:
        parts = self.classes[elem].split(None, 1)
        return parts[0] if parts else ""

    def link_density(self) -> list[float]:
        """Per block: share of its words inside <a> (of characters, for scripts that do not space words)."""
        unspaced = h.UNSPACED_CHARS_PER_WORD
        return [
            (lc / c if c > unspaced * w else lw / w) if lw or lc else 0.0
            for c, w, lc, lw in zip(self.chars, self.words, self.link_chars, self.link_words, strict=True)
        ]

    def without(self, elems: list[int]) -> Segmentation:
        """A copy without the blocks of these elements' subtrees; every element stays, its range remapped."""
        columns: list[list[Any]] = [
            self.texts,
            self.kinds,
            self.owners,
            self.chars,
            self.words,
            self.link_words,
            self.link_chars,
        ]
        firsts, ends, kept = _cut_blocks(self.firsts, self.ends, elems, columns)
        texts, kinds, owners, chars, words, link_words, link_chars = kept
        return Segmentation(
            self.tags,
            self.classes,
            self.ids,
            self.parents,
            firsts,
            ends,
            self.skips,
            texts,
            kinds,
            owners,
            chars,
            words,
            link_words,
            link_chars,
        )


Cut = tuple[list[int], list[int], list[list[Any]]]


def cut_blocks_python(firsts: list[int], ends: list[int], elems: list[int], columns: list[list[Any]]) -> Cut:
    """Segmentation.without's work: `firsts` and `ends` remapped and the block `columns` (of equal length)
    kept without the blocks of `elems`' subtrees. Subtrees nest or are disjoint, so the kept blocks are the
    slices between the removed ranges."""
    keep: list[tuple[int, int]] = []  # kept block ranges
    pos: list[int] = []  # old block index (up to and including the block count) -> new index
    prev = kept = 0
    # Outer subtrees first where two start at one block: then an inner one is skipped as already gone.
    for lo, hi in sorted(((firsts[i], ends[i]) for i in elems), key=_outer_first):
        if lo < prev:
            continue  # inside a subtree already removed
        pos += range(kept, kept + lo - prev)
        keep.append((prev, lo))
        kept += lo - prev
        pos += repeat(kept, hi - lo)  # a removed block maps to where its range was cut out
        prev = hi
    n = len(columns[0])
    pos += range(kept, kept + n - prev + 1)
    keep.append((prev, n))

    def pick(values: list[T]) -> list[T]:
        # Slices joined: a few ranges a page, so no interpreter step per block.
        out: list[T] = []
        for lo, hi in keep:
            out += values[lo:hi]
        return out

    at = pos.__getitem__
    return list(map(at, firsts)), list(map(at, ends)), [pick(column) for column in columns]


def _outer_first(span: tuple[int, int]) -> tuple[int, int]:
    return span[0], -span[1]


def indexes_python(items: list[str], value: str) -> list[int]:
    """The indexes of the items equal to `value` (a segmentation's tags or kinds)."""
    out = []
    at = -1
    try:
        while True:
            at = items.index(value, at + 1)
            out.append(at)
    except ValueError:
        return out


def stable_path_python(seg: Segmentation, elem: int) -> str:
    """Tag path from the root, ids and first classes kept only when they look hand-written."""
    tags, ids, parents = seg.tags, seg.ids, seg.parents
    parts: list[str] = []
    while elem >= 0:
        part = tags[elem]
        id_attr = ids[elem]
        if id_attr and not _DIGITS.search(id_attr):
            part += "#" + id_attr.strip()
        else:  # the first class is only read where the id is not used
            first_class = seg.first_class(elem)
            if first_class and not _DIGITS.search(first_class):
                part += "." + first_class
        parts.append(part)
        elem = parents[elem]
    if not parts or parts[-1] != "html":
        parts.append("html")
    return ">".join(reversed(parts))


def _hidden_attributes(attrs: dict[str, str | None]) -> bool:
    """Hidden by attribute or inline style: `hidden`, aria-hidden="true", display:none, visibility:hidden."""
    if "hidden" in attrs:
        return True
    aria = attrs.get("aria-hidden")
    if aria is not None and aria.lower() == "true":
        return True
    return _hidden_style(attrs.get("style") or "")


# Styles up to this long are memoised (_hidden_short_style): pages repeat their hiding styles
# ("display:none": 343 distinct of the 7,284 styles holding "none" or "hidden" on the bench's first 781
# pages, all but 22 of them this long at most), where each uncached call (a lower-casing, a substitution
# and a search) cost ~12,000 instructions. A longer one is not kept: the cache's memory stays bounded.
STYLE_MEMO_CHARS = 256


def _hidden_style(style: str) -> bool:
    """An inline style that hides the element (display:none, visibility:hidden; any case and spacing)."""
    return _hidden_short_style(style) if len(style) <= STYLE_MEMO_CHARS else _style_hides(style)


def _style_hides(style: str) -> bool:
    """_hidden_style's test itself."""
    style = style.lower()
    return ("none" in style or "hidden" in style) and h.HIDDEN_STYLE.search(
        _SPACES.sub("", style)
    ) is not None


_hidden_short_style = lru_cache(maxsize=4096)(_style_hides)


# Substrings, case as written, of which a class attribute holding a hidden token (HIDDEN_CLASS_TOKENS, in
# the cases pages write them) holds at least one: a cheap test before the token split.
_HIDDEN_CLASS_HINTS = ("hid", "Hid", "none", "sr-only", "screen-")
_hinted = re.compile("|".join(map(re.escape, _HIDDEN_CLASS_HINTS))).search


def _hidden_class(cls: str) -> bool:
    """Hidden by a framework class ("sr-only", "d-none"...)."""
    return not h.HIDDEN_CLASS_TOKENS.isdisjoint(cls.lower().split())


def _tag_ids(names: frozenset[str]) -> dict[int, str]:
    """lexbor tag id -> name. The walker dispatches on `tag_id` (an int read) rather than `tag`, which
    decodes the element's name into a new str at every node. Every name here is a standard HTML tag,
    whose id is a fixed constant; unknown (custom) elements get ids outside that table, so they can
    never collide with one of these."""
    ids: dict[int, str] = {}
    for name in names:
        node = native.element(name)
        assert node.tag == name, name  # a typo in a table would silently become a custom element
        ids[node.tag_id] = name
    return ids


_BLOCK_IDS = _tag_ids(h.BLOCK_TAGS)
_VOID_IDS = frozenset(_tag_ids(h.VOID_TAGS))
# Elements whose subtree is never text a reader sees (heuristics.REMOVE_TAGS), and comments: the walk steps
# over them, so they need not be taken out of the tree first.
_SKIP_IDS = frozenset(_tag_ids(h.REMOVE_TAGS - {"-comment"})) | {
    LexborHTMLParser("<p><!--c--></p>").body.child.child.tag_id  # type: ignore[union-attr]
}
_A_ID = native.element("a").tag_id
_BR_ID = native.element("br").tag_id
_TEXT_ID = LexborHTMLParser("<p>x</p>").body.child.child.tag_id  # type: ignore[union-attr]
_KIND_BY_ID = {tag_id: h.KIND_TAGS[name] for tag_id, name in _BLOCK_IDS.items() if name in h.KIND_TAGS}


def segment(body: LexborNode, budget: Budget, max_nodes: int = 1 << 62) -> Segmentation:
    """Walk `body` once into block-level elements and text blocks (see segment_python).

    The walk runs in C (worker/clean/_native.c) when the accelerator is built and passed its checks at
    import (worker/clean/native.py), with the same result; segment_python is the reference and the
    fallback, also for the rare page whose text lexbor holds as invalid UTF-8.
    """
    accel = _accel
    if accel is not None:
        tag = body.tag
        parts = accel(body.mem_id, tag or "body", tag == "a", budget, max_nodes)
        if parts is not None:
            return Segmentation(*parts)
    return segment_python(body, budget, max_nodes)


def segment_python(body: LexborNode, budget: Budget, max_nodes: int = 1 << 62) -> Segmentation:
    """Walk `body` once into block-level elements and text blocks.

    Only block-level elements become elements; inline ones pass their text through, <a> marks it as link
    text. A block-level element hidden by a framework class ("sr-only", "d-none") is skipped with its
    subtree (it still ends the text before it). Leading whitespace of a block is dropped (most text nodes
    are indentation between blocks); a <br> ends a block only when a second one follows. Recursive,
    because that is faster than an explicit stack over selectolax nodes; subtrees deeper than MAX_DEPTH
    (unclosed <font> soup, adversarial input) are read as one run of inline text. This is the hottest loop
    of the cleaner (about 1,750 nodes per page, 400 of them block-level): names are bound locally, nodes
    are told apart by tag id, and an inline element holding one text node is read without a call.
    """
    tags = [body.tag or "body"]
    classes = [""]
    ids = [""]
    parents = [-1]
    firsts = [0]
    ends = [-1]
    skips = [-1]
    kinds: list[str] = []
    owners: list[int] = []
    buf: list[str] = []  # every block's text pieces, each block followed by _END_PIECE
    links: list[str] = []  # the pieces inside <a>, each block followed by _END
    nodes = 0  # elements seen, for the node limit
    opened = False  # the current block has text (its first piece is never whitespace only)
    pending_br = False  # a <br> was the last thing in this block: a second one ends the block
    add, add_link = buf.append, links.append
    add_tag, add_class, add_id = tags.append, classes.append, ids.append
    add_parent, add_first, add_end, add_skip = parents.append, firsts.append, ends.append, skips.append
    add_kind, add_owner = kinds.append, owners.append
    block_ids, void_ids, skip_ids, kind_by_id = _BLOCK_IDS, _VOID_IDS, _SKIP_IDS, _KIND_BY_ID
    text_id, a_id, br_id = _TEXT_ID, _A_ID, _BR_ID
    max_depth, every = h.MAX_DEPTH, h.DEADLINE_EVERY
    wall, wall_deadline = budget.wall, budget.wall_deadline  # check() reads the CPU clock past it
    hidden_class, hidden_attributes, hinted = _hidden_class, _hidden_attributes, _hinted

    def flush(elem: int, kind: str) -> None:
        nonlocal opened, pending_br
        pending_br = False
        if opened:
            opened = False
            add(_END_PIECE)
            add_link(_END)
            add_kind(kind)
            add_owner(elem)

    def flat(node: LexborNode, in_link: bool) -> None:
        """A whole subtree as one run of inline text (an explicit stack: no recursion, so no depth limit)."""
        nonlocal opened, nodes
        stack = [node]
        while stack:
            inner = stack.pop()
            tid = inner.tag_id
            if tid == text_id:
                text = inner.text_content
                if text and (opened or not text.isspace()):
                    opened = True
                    add(text)
                    if in_link:
                        add_link(text)
                continue
            nodes += 1
            if nodes > max_nodes:
                raise TooManyNodes(max_nodes)
            if tid in skip_ids:
                continue
            attrs = inner.attributes
            if (
                attrs
                and ("hidden" in attrs or "aria-hidden" in attrs or "style" in attrs)
                and hidden_attributes(attrs)
            ):
                continue
            if tid == br_id:
                if opened:
                    add("\n")
            else:
                children = []
                kid = inner.first_child
                while kid is not None:
                    children.append(kid)
                    kid = kid.next
                stack.extend(reversed(children))

    def walk(child: LexborNode | None, cur: int, kind: str, in_link: bool, depth: int) -> None:
        """The children of one element, from its first child on."""
        nonlocal opened, pending_br, nodes
        # first_child/next rather than iter(include_text=True): same children (a document node, not a
        # fragment), without a generator per element.
        while child is not None:
            tid = child.tag_id
            if tid == text_id:
                if opened:
                    text = child.text_content
                    if text:
                        if pending_br and not text.isspace():
                            pending_br = False
                        add(text)
                        if in_link:
                            add_link(text)
                # lexbor tells ASCII whitespace apart without making a str of it.
                elif not child.is_empty_text_node:
                    text = child.text_content
                    if text and not text.isspace():
                        opened = True
                        pending_br = False
                        add(text)
                        if in_link:
                            add_link(text)
                child = child.next
                continue
            nodes += 1
            if tid in skip_ids:
                pass  # never text a reader sees (scripts, styles, widgets, comments): not entered
            elif tid in block_ids:
                if depth >= max_depth:
                    flat(child, in_link)
                    child = child.next
                    continue
                attrs = child.attributes
                if attrs:
                    # Hidden by attribute or style: as if it were not there (it does not end a block).
                    if (
                        "hidden" in attrs or "aria-hidden" in attrs or "style" in attrs
                    ) and hidden_attributes(attrs):
                        child = child.next
                        continue
                    cls = attrs.get("class") or ""
                    id_attr = attrs.get("id") or ""
                else:
                    cls = id_attr = ""
                if opened:
                    flush(cur, kind)
                if cls and hinted(cls) and hidden_class(cls):
                    child = child.next
                    continue
                idx = len(tags)
                if not idx % every:
                    if wall() > wall_deadline:
                        budget.check("segment")
                    if nodes > max_nodes:
                        raise TooManyNodes(max_nodes)
                add_tag(block_ids[tid])
                add_class(cls)
                add_id(id_attr)
                add_parent(cur)
                add_first(len(kinds))
                add_end(-1)
                add_skip(-1)
                inner_kind = kind_by_id.get(tid, kind)
                first = child.first_child
                if first is not None:
                    walk(first, idx, inner_kind, in_link, depth + 1)
                if opened:  # flush(idx, inner_kind), without the call
                    opened = False
                    add(_END_PIECE)
                    add_link(_END)
                    add_kind(inner_kind)
                    add_owner(idx)
                pending_br = False
                ends[idx] = len(kinds)
                skips[idx] = len(tags)
            elif tid == br_id:
                attrs = child.attributes
                if attrs and hidden_attributes(attrs):
                    pass
                elif pending_br:
                    flush(cur, kind)
                elif opened:
                    add("\n")
                    pending_br = True
            elif tid in void_ids:
                pass  # no children, no text: not worth a call
            elif depth >= max_depth:
                flat(child, in_link or tid == a_id)
            else:  # inline element
                attrs = child.attributes
                if (
                    attrs
                    and ("hidden" in attrs or "aria-hidden" in attrs or "style" in attrs)
                    and hidden_attributes(attrs)
                ):
                    child = child.next
                    continue
                first = child.first_child
                link = in_link or tid == a_id
                if first is None:
                    pass
                elif first.next is None and first.tag_id == text_id:
                    # One text node (<a>Home</a>, <b>word</b>): the text branch above, without the call.
                    text = first.text_content
                    if text and (opened or not text.isspace()):
                        if not opened:
                            opened = True
                            pending_br = False
                        elif pending_br and not text.isspace():
                            pending_br = False
                        add(text)
                        if link:
                            add_link(text)
                else:
                    walk(first, cur, kind, link, depth + 1)
                if tid == a_id:
                    add_link(" ")  # two adjacent links are two words, not one
            child = child.next

    first = body.first_child
    if first is not None:
        walk(first, 0, "paragraph", body.tag == "a", 0)
    if nodes > max_nodes:
        raise TooManyNodes(max_nodes)
    flush(0, "paragraph")
    ends[0] = len(kinds)
    skips[0] = len(tags)
    texts, chars, words, link_words, link_chars = _cut(buf, links, len(kinds))
    return Segmentation(
        tags, classes, ids, parents, firsts, ends, skips,
        texts, kinds, owners, chars, words, link_words, link_chars,
    )  # fmt: skip


def _cut(
    buf: list[str], links: list[str], n: int
) -> tuple[list[str], list[int], list[int], list[int], list[int]]:
    """Block texts and their character, word, link-word and link-character counts, from the page buffer."""
    if not n:
        return [], [], [], [], []
    raw = "".join(buf)
    if raw.count(_END) != n:  # a U+0000 in the text itself: make it a replacement character
        raw = "".join(p if p is _END_PIECE else p.replace(_END, "\ufffd") for p in buf)
        links = [p if p is _END else p.replace(_END, "\ufffd") for p in links]
    texts = (" ".join(raw.split()) + " ").split(_END_PIECE)
    texts.pop()
    chars = list(map(len, texts))
    words = list(map(add, map(str.count, texts, repeat(" ")), repeat(1)))  # folded: words = spaces + 1
    link_words = [0] * n
    link_chars = [0] * n
    # Link text as written: its characters count before whitespace folding, its words after. Most blocks
    # have none: only the non-empty ones are looked at.
    per_block = "".join(links).split(_END)
    for i in compress(range(n), per_block):
        link = per_block[i].strip()
        if link:
            link_words[i] = min(len(link.split()), words[i])
            link_chars[i] = min(len(link), chars[i])
    return texts, chars, words, link_words, link_chars


# What the C walk is told; the C walk itself, once native.py has checked it against segment_python on
# canary pages (None: not built, or a check failed, or the reference path was asked for).
_TABLES = native.SegmentTables(
    text_id=_TEXT_ID,
    a_id=_A_ID,
    br_id=_BR_ID,
    block_names=_BLOCK_IDS,
    void_ids=_VOID_IDS,
    skip_ids=_SKIP_IDS,
    kind_by_id=_KIND_BY_ID,
    default_kind="paragraph",
    max_depth=h.MAX_DEPTH,
    every=h.DEADLINE_EVERY,
    hidden_class=_hidden_class,
    hidden_style=_hidden_style,
    class_hints=_HIDDEN_CLASS_HINTS,
)
_accel: NativeSegment | None = native.segmenter(_TABLES, Segmentation, segment_python)


# In C (worker/clean/_native.c) once native.py has checked it against indexes_python: list.index compares
# each of a page's ~330 tags through the str comparison (~4 us a page, every page).
indexes = native.positions_finder(indexes_python)
# In C (one pass, each int made once), once native.py has checked it against cut_blocks_python; else that.
_cut_blocks = native.cutter(cut_blocks_python)
# The stable path in C (no regex search nor str per level), once native.py has checked it against
# stable_path_python on canary pages; else that. The region, the site memory and the model features call it.
stable_path = native.stable_pather(stable_path_python, segment)
