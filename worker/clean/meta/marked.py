"""Elements marked by their tag or by a word in their class or id, read as (class, id, text).

The two scans of the metadata that need no node afterwards, only what an element says: the date-like
elements (collect.date_element_dates) and the elements whose text no reader sees (choose.from_text). A
lexbor CSS scan of <body> builds a Python node per match and costs ~0.1 ms a scan whatever the selector
(htmldate's pages); the C accelerator (worker/clean/_native.c) walks the same elements in the same order
and reads the same strings, once native.py has checked it against marked_python on canary pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from selectolax.lexbor import LexborNode, create_tag

from worker.clean import native

# (class, id, text(deep=True)) of one element: class and id None when absent, the text None when longer
# than the scan's max_chars.
Marked = tuple[str | None, str | None, str | None]


@dataclass(frozen=True, slots=True)
class Marks:
    """Which elements a scan reads: a tag in `tags`, a class holding one of `in_class`, an id holding one
    of `in_id` (lower-case ASCII words, found in any ASCII case: CSS's `[class*='word' i]`)."""

    tags: tuple[str, ...] = ()
    in_class: tuple[str, ...] = ()
    in_id: tuple[str, ...] = ()

    @property
    def selector(self) -> str:
        """The CSS selector list that finds the same elements (the Python reference runs it)."""
        words = [f"[class*='{w}' i]" for w in self.in_class] + [f"[id*='{w}' i]" for w in self.in_id]
        return ", ".join([*self.tags, *words])

    def native_args(self) -> tuple[tuple[int, ...], tuple[bytes, ...], tuple[bytes, ...]]:
        """What the C walk is told: lexbor's tag ids, the words as bytes."""
        return (
            tuple(create_tag(t).tag_id for t in self.tags),
            tuple(w.encode("ascii") for w in self.in_class),
            tuple(w.encode("ascii") for w in self.in_id),
        )


def marked_python(root: LexborNode, marks: Marks, limit: int, max_chars: int) -> list[Marked]:
    """The first `limit` elements at and below `root` that `marks` names, in document order, each once
    per tag or word of `marks` that names it (as lexbor's CSS scan lists them); a text longer than
    `max_chars` is None (the C scan stops reading it)."""
    out: list[Marked] = []
    for node in root.css(marks.selector)[:limit]:
        attrs = node.attributes
        text = node.text(deep=True)
        out.append((attrs.get("class"), attrs.get("id"), text if len(text) <= max_chars else None))
    return out


# Shapes of marks the check at import compares both scans with (the uses in collect.py and choose.py are
# of these shapes: tags alone, words alone).
_CANARY_MARKS = (
    Marks(("script", "style", "noscript", "template")),
    Marks((), ("date", "publish", "meta", "time"), ("date",)),
    Marks(("time", "h1"), ("author",), ("x",)),
)
marked: Callable[[LexborNode, Marks, int, int], list[Marked]] = native.marker(marked_python, _CANARY_MARKS)
