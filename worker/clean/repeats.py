"""What comments and posts share: repeated sibling structures on the segmentation, and the author and date
a repeated item states about itself."""

from __future__ import annotations

import re
from datetime import date
from itertools import pairwise

from selectolax.lexbor import LexborHTMLParser

from worker.clean import heuristics as h
from worker.clean import native
from worker.clean.idents import has_part
from worker.clean.meta.dates import find_dates
from worker.clean.meta.select import Attr, Compound, Selector, select
from worker.clean.segment import Segmentation

_DIGITS = re.compile(r"\d+")


# (tag, class attribute) -> signature: a pure function's memo, cleared when full.
_SIGNATURES: dict[tuple[str, str], str] = {}
_SIGNATURES_MAX = 16384


def signatures_of(seg: Segmentation, elems: list[int]) -> list[str]:
    """Signatures of these elements."""
    tags, classes = seg.tags, seg.classes
    return _signatures([tags[e] for e in elems], [classes[e] for e in elems])


def _signatures(tags: list[str], classes: list[str]) -> list[str]:
    memo = _SIGNATURES
    if len(memo) >= _SIGNATURES_MAX:
        memo.clear()
    out = []
    for tag, cls in zip(tags, classes, strict=True):
        sig = memo.get((tag, cls))
        if sig is None:
            first = cls.split(None, 1)[0] if cls.strip() else ""
            sig = memo[tag, cls] = tag + "." + _DIGITS.sub("", first)
        out.append(sig)
    return out


def repeats_python(
    tags: list[str],
    classes: list[str],
    parents: list[int],
    firsts: list[int],
    ends: list[int],
    root: int,
    end: int,
    want: str | None,
) -> tuple[int, str, list[int]]:
    """Over elements root..end-1 (`root`'s subtree; elements with blocks only): with `want` None, the
    signature that most children of one element share and how many share it (the first of equally
    repeated signatures in document order wins: it starts an item, Blogger's <dt> before its <dd>);
    with `want`, that signature and 0. Then the sorted first blocks of the elements of that signature,
    `root` included. The C accelerator computes the same in one pass (signature ids, not strings)."""
    sigs = _signatures(tags[root:end], classes[root:end])
    best, best_sig = 0, ""
    if want is None:
        counts: dict[tuple[int, str], int] = {}
        for c, sig in zip(range(root + 1, end), sigs[1:], strict=True):
            if ends[c] > firsts[c]:
                key = (parents[c], sig)
                counts[key] = counts.get(key, 0) + 1
        for (_, sig), n in counts.items():  # first seen first: document order
            if n > best:
                best, best_sig = n, sig
    else:
        best_sig = want
    live = zip(firsts[root:end], ends[root:end], sigs, strict=True)
    return best, best_sig, sorted({f for f, e, s in live if s == best_sig and e > f})


# In C (worker/clean/_native.c) once native.py has checked it against repeats_python: the per-element
# signatures and the (parent, signature) count were most of find_posts' time on pages without post marks.
_repeats = native.repeats_finder(repeats_python)


def most_repeated(seg: Segmentation, root: int) -> tuple[int, str]:
    """In `root`'s subtree, the signature that most children of one element share (children with text
    only), and how many share it (see repeats_python)."""
    count, sig, _ = _repeats_of(seg, root, None)
    return count, sig


def repeated_items(seg: Segmentation, root: int, lead: bool = True) -> tuple[int, list[tuple[int, int]]]:
    """most_repeated's count and the item_ranges of its signature, from one pass."""
    count, _, starts = _repeats_of(seg, root, None)
    return count, _ranges(seg, root, starts, lead)


def item_ranges(seg: Segmentation, root: int, sig: str, lead: bool = True) -> list[tuple[int, int]]:
    """Block ranges of `root`'s items: one starting at each element of signature `sig` (nested ones
    included: replies), each running to the next; with `lead`, blocks before the first are one too."""
    return _ranges(seg, root, _repeats_of(seg, root, sig)[2], lead)


def _repeats_of(seg: Segmentation, root: int, want: str | None) -> tuple[int, str, list[int]]:
    return _repeats(seg.tags, seg.classes, seg.parents, seg.firsts, seg.ends, root, seg.skips[root], want)


def _ranges(seg: Segmentation, root: int, starts: list[int], lead: bool) -> list[tuple[int, int]]:
    if not starts:
        return []
    bounds = sorted({*starts, seg.firsts[root] if lead else starts[0], seg.ends[root]})
    return [(lo, hi) for lo, hi in pairwise(bounds) if lo < hi]


# h.AUTHOR_SELECTOR for the C scan of meta.select (lexbor's CSS scan of a body costs ~0.1 ms whatever the
# selector; the same nodes in the same order: tests/unit/test_posts.py).
AUTHOR_SELECT = Selector(
    (
        Compound(attrs=(Attr("class", "*=", "author", any_case=True),)),
        Compound(cls="fn"),
        Compound(cls="username"),
        Compound(cls="user-name"),
        Compound(cls="commenter"),
        Compound(attrs=(Attr("itemprop", "=", "author"),)),
        Compound("a", (Attr("rel", "~=", "author"),)),
    )
)


class Bylines:
    """The names in elements marked as an author anywhere in the page's body, inline ones included
    (Disqus's <span class="author">, phpBB's <a class="username">), which the segmentation does not keep
    apart: read from the tree with one selector scan, on first use only (most pages never ask). Indexed
    by first word, so a block is checked against the few names that could start where it says one."""

    __slots__ = ("_by_first", "_tree")

    def __init__(self, tree: LexborHTMLParser | None) -> None:
        self._tree = tree
        self._by_first: dict[str, list[str]] | None = None

    def _index(self) -> dict[str, list[str]]:
        if self._by_first is None:
            body = self._tree.body if self._tree is not None else None
            found: set[str] = set()
            for node in select(body, AUTHOR_SELECT) if body is not None else ():
                name = h.AUTHOR_TAIL.sub("", h.AUTHOR_BY.sub("", " ".join(node.text(deep=True).split())))
                if _namelike(name) and len(found) < h.BYLINES_MAX:
                    found.add(name)
            self._by_first = {}
            for name in sorted(found, key=len, reverse=True):  # the longest name that fits wins
                self._by_first.setdefault(name.split(" ", 1)[0].lower(), []).append(name)
        return self._by_first

    def name_in(self, text: str) -> str | None:
        """A marked name that `text` starts with, or that follows a "by " in it."""
        index = self._index()
        if not index:
            return None
        starts = [h.AUTHOR_BY.sub("", text)]
        lowered = text.lower()
        at = lowered.find("by ")
        for _ in range(h.BYLINE_BY_MAX):
            if at < 0:
                break
            starts.append(text[at + 3 :])
            at = lowered.find("by ", at + 3)
        for start in starts:
            for name in index.get(start.split(" ", 1)[0].lower(), ()):
                if start.startswith(name):
                    return name
        return None


def author_of(seg: Segmentation, b: int, bylines: Bylines) -> str | None:
    """The author's name where block `b` says it: "Name says:", an author-named element holding it, or
    a name the page marks as an author at the block's start ("Eve • 5 years ago")."""
    text = seg.texts[b]
    said = h.SAYS.match(text)
    if said is not None:
        return said.group(1).strip() or None
    e = seg.owners[b]
    for _ in range(h.AUTHOR_LEVELS):
        ident = seg.ident(e)
        if ident and has_part(ident, h.AUTHOR_PREFIXES):
            written = h.AUTHOR_BY.sub("", text)
            name = h.AUTHOR_TAIL.sub("", written).strip()
            if _namelike(name) and not written.endswith(h.AUTHOR_NOT_ENDINGS):
                return name
            break
        e = seg.parents[e]
        if e < 0:
            break
    return bylines.name_in(text)


def _namelike(name: str) -> bool:
    """A name, not a sentence or a control ("Check it out.", "Continue reading »")."""
    return (
        0 < len(name) <= h.AUTHOR_MAX_CHARS
        and name.count(" ") < h.AUTHOR_MAX_WORDS
        and not name.endswith(h.AUTHOR_NOT_ENDINGS)
    )


def header_facts(
    seg: Segmentation, blocks: list[int], today: date, bylines: Bylines
) -> tuple[str | None, str | None, list[int]]:
    """(author, ISO day, the blocks that said them) from an item's first short blocks; author and day are
    None where the item does not say them."""
    author = published = None
    used: list[int] = []
    for b in blocks[: h.HEADER_BLOCKS]:
        text = seg.texts[b]
        if len(text) > h.HEADER_MAX_CHARS:
            continue
        if author is None:
            author = author_of(seg, b, bylines)
            if author is not None:
                used.append(b)
        if published is None:
            days = find_dates(text, today, limit=1)
            if days:
                published = days[0].isoformat()
                if not used or used[-1] != b:
                    used.append(b)
    return author, published, used
