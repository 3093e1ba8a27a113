"""Elements marked by their tag or by a word in their class or id, read as (class, id, text), or cut out
of their ancestor's text.

The two scans of the metadata that need no node afterwards, only what an element says: the date-like
elements (collect.date_element_date) and the elements whose text no reader sees (choose.from_text:
unmarked_text, the body's text without theirs, which the C accelerator makes without a Python string
per script and style, and without the text of the whole body as one). A
lexbor CSS scan of <body> builds a Python node per match and costs ~0.1 ms a scan whatever the selector
(htmldate's pages); the C accelerator (worker/clean/_native.c) walks the same elements in the same order
and reads the same strings, once native.py has checked it against marked_python on canary pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

from worker.clean import native
from worker.clean.meta.text import SKIPPED_MIN_CHARS, visible_text

# (class, id, text(deep=True)) of one element: class and id None when absent, the text None when longer
# than the scan's max_chars.
Marked = tuple[str | None, str | None, str | None]


@dataclass(frozen=True, slots=True, eq=False)  # known by identity, as select.Selector (why: there)
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
            tuple(native.element(t).tag_id for t in self.tags),
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


# The text a limit never cuts.
_UNLIMITED = 1 << 62


def unmarked_text_python(root: LexborNode, marks: Marks) -> str:
    """The text of `root` without that of the elements `marks` names by tag (text.visible_text's cuts),
    whitespace-folded."""
    skipped = [text or "" for _, _, text in marked(root, marks, _UNLIMITED, _UNLIMITED)]
    return " ".join(visible_text(root.text(deep=True), skipped).split())


_CANARY_TAG_MARKS = (Marks(("script", "style", "noscript", "template")), Marks(("p", "b")))
unmarked_text: Callable[[LexborNode, Marks], str] = native.unmarker(
    unmarked_text_python, _CANARY_TAG_MARKS, SKIPPED_MIN_CHARS
)
