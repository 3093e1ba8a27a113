"""Elements a simple selector list names, as selectolax nodes: the metadata's scans of <head> and <body>.

lexbor's CSS engine costs ~0.1 ms a scan of a page's body whatever the selector (on the shared pages,
a third of the metadata's CPU); the lists the metadata reads are simple (a tag, attributes present, a
substring or a word in a value, a class), and the C accelerator (worker/clean/_native.c, select) walks
the tree and tests them itself: the same elements in the same order, each once per compound that names
it, as lexbor lists them. native.py checks it against lexbor's scan (select_python) on canary pages at
import; else lexbor's scan runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

from worker.clean import native

# The attribute tests the C scan knows (the values are _native.c's SEL_* numbers).
_OPS = {"": 0, "*=": 1, "~=": 2, "=": 3}
# Case modes of a value's test (_native.c's SEL_CASE_*): as written, in any ASCII case, in any ASCII case
# on an element in the HTML namespace, in any ASCII case in a document in quirks mode.
_EXACT, _ANY_CASE, _HTML_CASE, _QUIRKS_CASE = 0, 1, 2, 3
# lexbor's ids of the standard tags are below this; others are addresses in a page's own table.
STANDARD_TAG_IDS = 1 << 16
# Attributes whose values selectors match in any ASCII case on HTML elements, without the `i` flag (the
# HTML standard's list, "case-sensitivity of selectors"; lexbor follows it: `a[rel~='author']` finds
# rel="Author" on a page, not on an <a> in SVG).
HTML_CASE_INSENSITIVE: frozenset[str] = frozenset(
    {"accept", "accept-charset", "align", "alink", "axis", "bgcolor", "charset", "checked", "clear",
     "codetype", "color", "compact", "declare", "defer", "dir", "direction", "disabled", "enctype", "face",
     "frame", "hreflang", "http-equiv", "lang", "language", "link", "media", "method", "multiple", "nohref",
     "noresize", "noshade", "nowrap", "readonly", "rel", "rev", "rules", "scope", "scrolling", "selected",
     "shape", "target", "text", "type", "valign", "valuetype", "vlink"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Attr:
    """A test of an attribute (lower-case ASCII name): there (`op` ""), its value holds `value` ("*="),
    one of its whitespace-separated words is `value` ("~=") or it is `value` ("="); `any_case` is CSS's `i`
    flag."""

    name: str
    op: str = ""
    value: str = ""
    any_case: bool = False

    @property
    def css(self) -> str:
        if not self.op:
            return f"[{self.name}]"
        return f"[{self.name}{self.op}'{self.value}'{' i' if self.any_case else ''}]"

    def native_args(self) -> tuple[bytes, int, bytes, int]:
        case = _ANY_CASE if self.any_case else _HTML_CASE if self.name in HTML_CASE_INSENSITIVE else _EXACT
        return self.name.encode("ascii"), _OPS[self.op], self.value.encode(), case


@dataclass(frozen=True, slots=True)
class Compound:
    """One alternative of a selector list: a tag (any when ""), a class (none when "") and attribute
    tests, all of which must hold."""

    tag: str = ""
    attrs: tuple[Attr, ...] = ()
    cls: str = ""

    @property
    def css(self) -> str:
        return self.tag + (f".{self.cls}" if self.cls else "") + "".join(a.css for a in self.attrs)

    def native_args(self) -> tuple[int, tuple[tuple[bytes, int, bytes, int], ...]]:
        tests = [a.native_args() for a in self.attrs]
        if self.cls:  # lexbor matches a class selector in any ASCII case in quirks mode only
            tests.append((b"class", _OPS["~="], self.cls.encode(), _QUIRKS_CASE))
        tag_id = native.element(self.tag).tag_id if self.tag else 0
        if tag_id >= STANDARD_TAG_IDS:
            raise ValueError(f"{self.tag!r} is no standard tag: its id differs from page to page")
        return tag_id, tuple(tests)


# eq=False: a list is known by its identity (native.py keeps each list's C arguments in a dict per scan;
# the hash of a frozen dataclass is that of every field, down to each Attr: 1.3 us a scan of <body>).
@dataclass(frozen=True, slots=True, eq=False)
class Selector:
    """A selector list: the elements any of `compounds` names."""

    compounds: tuple[Compound, ...]

    @property
    def css(self) -> str:
        """The CSS selector list (what the Python reference hands lexbor)."""
        return ", ".join(c.css for c in self.compounds)

    def native_args(self) -> tuple[tuple[int, tuple[tuple[bytes, int, bytes, int], ...]], ...]:
        """What the C scan is told: lexbor's tag ids (0: any), the tests as bytes and numbers."""
        return tuple(c.native_args() for c in self.compounds)


def select_python(root: LexborNode, selector: Selector) -> list[LexborNode]:
    """The elements at and below `root` that `selector` names, in document order, each once per compound
    that names it (lexbor's CSS scan)."""
    return root.css(selector.css)


# Shapes of selector lists the check at import compares both scans with (collect.py's lists are of these
# shapes: tags alone, tags with a test, tests alone, a class).
_CANARY_SELECTORS = (
    Selector((Compound("meta"), Compound("link", (Attr("rel"),)), Compound("title"))),
    Selector(
        (
            Compound("script", (Attr("type", "*=", "ld+json", any_case=True),)),
            Compound(attrs=(Attr("property"), Attr("content"))),
            Compound("a", (Attr("rel", "~=", "author"),)),
            Compound(cls="author"),
            Compound(attrs=(Attr("itemprop"),)),
            Compound(attrs=(Attr("data-x", "~=", "author"),)),
        )
    ),
    # repeats.AUTHOR_SELECT's shapes: a class holding a word in any case, classes, a whole value
    Selector(
        (
            Compound(attrs=(Attr("class", "*=", "author", any_case=True),)),
            Compound(cls="fn"),
            Compound(attrs=(Attr("itemprop", "=", "author"),)),
            Compound(attrs=(Attr("itemprop", "=", "x"),)),
            Compound("a", (Attr("rel", "~=", "author"),)),
        )
    ),
)
select: Callable[[LexborNode, Selector], list[LexborNode]] = native.selector(select_python, _CANARY_SELECTORS)
