"""The optional C accelerator of the cleaning core (worker/clean/_native.c): configured and checked once.

The pure-Python stages are the reference. A native stage replaces one only when the extension was built
(`make install` compiles it; without a C compiler the install still succeeds) and passes, at import:
- the layout check: on canary pages, every node below <body> read as the C code reads it (tag id, node type,
  neighbours, text, attributes in order) equals what selectolax's own accessors say;
- the equality check: on the same pages, the native stage's result equals the Python stage's, field by
  field (and the node limit raises the same error).
Otherwise the Python stage runs, with a warning when a built extension failed a check. `status()` says
which stages run natively and why the others do not.
"""

from __future__ import annotations

import functools
import logging
import re
import sys
from array import array
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import MISSING, dataclass, fields
from typing import Any, ParamSpec, TypeVar, cast

from selectolax import lexbor as _lexbor
from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import heuristics as hm
from worker.clean.options import Budget, TooManyNodes

log = logging.getLogger(__name__)
F = TypeVar("F")
T = TypeVar("T")
P = ParamSpec("P")

try:
    from worker.clean import _native
except ImportError as exc:  # not built: the pure-Python core runs
    _native = None  # type: ignore[assignment]  # (the stub types the module as always there)
    _NOT_BUILT = f"not built ({exc})"

# Stage -> "native", or why it runs in Python.
_STATUS: dict[str, str] = {}

# The elements whose tag ids the cleaning core reads at import are made in one document: selectolax's
# create_tag makes a document for each (~70,000 instructions: its ~150 calls cost one page's `clean` 10
# million, callgrind). A standard tag's id is one of lexbor's constants, the same in every document (a
# custom tag's is not, in either way: meta.select refuses those).
_ELEMENTS = LexborHTMLParser("")


@functools.cache
def element(name: str) -> LexborNode:
    """An element named `name`, created as create_tag creates it (not parsed: "html" or "td" too); one a
    name, in the one document."""
    return _ELEMENTS.create_node(name)


def status() -> dict[str, str]:
    """Per stage: "native", or why the Python reference runs instead."""
    return dict(_STATUS)


def _passes(stage: str, off: str, check: Callable[[], str | None]) -> bool:
    """Run a stage's checks (None: passed; else what differs); record the stage's status, and warn with
    `off` (what runs instead) when it failed. A check that raises has failed."""
    try:
        problem = check()
    except Exception as exc:  # a failed check of any kind means: the Python reference
        problem = f"{type(exc).__name__}: {exc}"
    if problem:
        log.warning("%s: %s", off, problem)
        _STATUS[stage] = problem
        return False
    _STATUS[stage] = "native"
    return True


# _native.segment(node address, root tag, root inside <a>, budget, max_nodes): the Segmentation's fields, or
# None when a text is not valid UTF-8.
NativeSegment = Callable[[int, str, bool, Budget, int], tuple[Any, ...] | None]


@dataclass(frozen=True, slots=True)
class SegmentTables:
    """What the C walk is told by segment.py: lexbor tag ids, heuristics tables and rules."""

    text_id: int
    a_id: int
    br_id: int
    block_names: dict[int, str]
    void_ids: frozenset[int]
    skip_ids: frozenset[int]
    kind_by_id: dict[int, str]
    default_kind: str
    max_depth: int
    every: int
    hidden_class: Callable[[str], bool]
    hidden_style: Callable[[str], bool]
    class_hints: tuple[str, ...]


def segmenter(
    tables: SegmentTables, segmentation: type[Any], reference: Callable[..., Any]
) -> NativeSegment | None:
    """The C walk configured with `tables`, if it reads trees right and equals `reference` on the canaries."""
    if _native is None:
        _STATUS["segment"] = _NOT_BUILT
        return None

    def check() -> str | None:
        _configure(tables)
        return _check_layout(tables) or _check_segment(tables, segmentation, reference)

    ok = _passes("segment", "native segmentation off, the Python walk runs", check)
    return _native.segment if ok else None


# _native.fingerprint(texts, tags, classes, ids, parents, firsts, ends): the bytes of (elems, text_fps,
# elem_paths) (fingerprint.PageFingerprints' arrays), or None when the columns are not a segmentation's.
NativeFingerprint = Callable[
    [list[str], list[str], list[str], list[str], list[int], list[int], list[int]],
    tuple[bytes, bytes, bytes] | None,
]


# Texts whose normalised hashes are compared at import (whitespace-folded, as the segmentation makes
# them): digits of other scripts, capitals beyond ASCII (only ASCII is case-folded), characters of every
# UTF-8 length, a lone surrogate (surrogatepass); ASCII read sixteen and eight characters a step, with the
# characters next to the digits' and capitals' ranges ("/:@[`{"); texts of every length around the vector
# hashes' steps (64, 16 and 32 bytes) and past Adler-32's NMAX (5552 bytes), one and two bytes a character.
_LONG_TEXT = "The Quick brown fox, 2024: it\u2019s 12 o'clock \u00e9t\u00e9 \u0663 ZZ top / [x] {y} @z `w` "
_LONG_ASCII = "The Quick brown-fox, 2024: it's 12 o'clock; ZZ top / [x] {y} @z `w` "
_LONG_LENGTHS = (63, 64, 65, 79, 80, 97, 127, 129, 5600)
HASH_CANARIES = (
    "Page 9 of 12, 2024",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz /0123456789: @AZ[ `az{ Mixed9Case x7 ABC09a",
    "Caf\u00e9 ABCDEFGHIJKLMNOP 0123 xyz Stra\u00dfe \u00bfQRSTUVWX qrstuvwx",
    "It\u2019s Page 9 of 12: ABCDEFGHIJ abcdefgh \u0663\u0664 Stra\u00dfe \u03a3\u03c3 KLMNOPQR 1234567",
    "ÜBER Straße ١٢٣ ۴۵ ߁ x",
    "ΣΊΣΥΦΟΣ ǅ",
    "漢字 ｱ １２ 😀 \ud800",
    "",
    "0",
    *((text * 90)[:n].strip() for text in (_LONG_TEXT, _LONG_ASCII) for n in _LONG_LENGTHS),
    "\uffff" * 1900,
)


def fingerprinter(
    signature_hash: Callable[[tuple[str, str, str]], int],
    base: int,
    memo_max: int,
    stable_ascii: str,
    page_state: tuple[str, ...],
    max_class_tokens: int,
    reference: Callable[..., Any],
    text_hash: Callable[[str], int],
    segment: Callable[..., Any],
) -> NativeFingerprint | None:
    """The C fingerprints, if they equal `reference` (and `text_hash`, and `signature_hash` on canary
    keys) on the canaries."""
    if _native is None:
        _STATUS["fingerprint"] = _NOT_BUILT
        return None
    ext = _native

    def check() -> str | None:
        ext.configure_fingerprint(signature_hash, base, memo_max, stable_ascii, page_state, max_class_tokens)
        for key in _signature_canaries(page_state):
            if ext.signature(*key) != signature_hash(key):
                return f"signature hashes differ on {key!r}"
        return _check_fingerprint(reference, text_hash, segment)

    ok = _passes("fingerprint", "native fingerprints off, the Python code runs", check)
    return ext.fingerprint if ok else None


def _signature_canaries(page_state: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(tag, class, id) keys that exercise every rule of a signature: stable and generated tokens, camel
    humps, long tokens, token order, whitespace, and characters beyond ASCII."""
    classes = (
        "", "Nav Menu", "menu nav", "b a c", "x1 nav", "nav\tmain\x1c side", "a" * 40, "a" * 41, "-x _y zZ",
        "col-md-6 row", "sc-AxjAm bdVaJa", "K\u212a nav", "nav\n", "  lead  ",
    )  # fmt: skip
    ids = (
        "", "main", "Main-Nav", "post-4711", "sc-AxjAm", "bdVaJa", "fooBar", "aBcDe", "ABc", "ab-CDe",
        "a" * 40, "a" * 41, "nav\n", "_x", "caf\u00e9", "\u212aelvin",
    )  # fmt: skip
    tags = (*page_state, "div", "section", "my-widget", "d\u00efv")
    # every class with some id and every id with some class, under every tag (the whole product cost
    # 4 ms at import; the tests compare both paths on generated keys and every shared page)
    pairs = [(c, ids[k % len(ids)]) for k, c in enumerate(classes)]
    pairs += [(classes[(k * 5 + 1) % len(classes)], d) for k, d in enumerate(ids)]
    return [(t, c, i) for t in tags for c, i in pairs]


def clear_memo() -> None:
    """Forget the C fingerprints' memoised signature hashes (fingerprint.clear_memo)."""
    if _native is not None:
        _native.clear_memo()


# The page's fingerprints are a set, or an array('Q').
CountPage = Callable[
    ["array[int]", "array[float]", "set[int] | frozenset[int] | array[int]", float], "array[int]"
]
TemplateSet = Callable[["array[int]", "array[float]", float], frozenset[int]]
Prune = Callable[["array[int]", "array[float]", int], "tuple[array[int], array[float]]"]


def memory_counters(
    count_page: CountPage, template: TemplateSet, prune: Prune
) -> tuple[CountPage, TemplateSet, Prune]:
    """The C counting of a page into a site's arrays, template set and pruning, if they equal the Python
    ones on canary arrays (counts that round in float32 and tie, a fingerprint tracked twice, fingerprints
    at both ends of the 64-bit range, pages as sets and arrays); else the Python ones."""
    if _native is None:
        _STATUS["memory"] = _NOT_BUILT
        return count_page, template, prune
    off = "native site memory counts off, the Python ones run"
    if not _passes("memory", off, lambda: _check_memory(count_page, template, prune)):
        return count_page, template, prune
    return _native_count_page, _native.template_set, _native_prune


def _check_memory(count_page: CountPage, template: TemplateSet, prune: Prune) -> str | None:
    fps = [0, 1, 2**63, 2**64 - 1, 12345678901234567, 7, 7, *range(1000, 1600, 3)]
    # Pages as sets and as arrays('Q') (repeats, 0, descending runs: what a page's text_fps may hold).
    pages: tuple[set[int] | frozenset[int] | array[int], ...] = (
        {0, 1, 2**64 - 1, 7, 5, 2**63 + 1, *range(1200, 1700, 5)},
        set(),
        array("Q", [5, 0, 7, 5, 2**64 - 1, *range(1900, 1100, -7), 7, 0, *range(1100, 1900, 11)]),
        array("Q"),
    )
    for tracked in (fps, []):
        for unit in (1.0 / 3.0,):
            for page in pages:
                for counts in (
                    [x / 7.0 for x in range(len(tracked))],
                    [float(x % 5) for x in range(len(tracked))],
                ):
                    got = (array("Q", tracked), array("f", counts))
                    want = (array("Q", tracked), array("f", counts))
                    if _native_count_page(*got, page, unit) != count_page(*want, page, unit) or got != want:
                        return f"page counts differ with unit {unit}"
                    for bar in (0.5, 2.0, float("inf")):
                        if _native.template_set(*got, bar) != template(*got, bar):
                            return f"template sets differ at bar {bar}"
                    for keep in range(1, len(tracked), 90):
                        if _native_prune(*got, keep) != prune(*got, keep):
                            return f"pruning to {keep} differs"
    return None


# (paths, parents, owners, kept): blocks right in <body> (parent -1: the last path), positions shared by
# several blocks and elements, a kept block twice, the value 0 and both ends of the 64-bit range.
POSITION_CANARIES: tuple[tuple[array[int], list[int], list[int], list[int]], ...] = (
    (
        array("Q", [3, 0, 2**64 - 1, 3, 2**63, 7, 3]),
        [-1, 0, 0, 1, 3, 1],
        [0, 1, 2, 3, 4, 5, 4, 2, 0],
        [0, 3, 3, 8],
    ),
    (array("Q", [9, 9]), [-1], [0, 0], []),
    (array("Q", [0, 5, 0]), [-1, 0], [1, 0], [1]),
    (array("Q", [1]), [], [], []),
)
# A site's tracked positions and their two counts for them: none; some of the canaries' (the value 0
# among them) with counts that round in float32; one tracked twice (the last index counts, as a dict's).
TRACKED_CANARIES: tuple[tuple[list[int], list[float], list[float]], ...] = (
    ([], [], []),
    ([3, 0, 2**64 - 1, 11, 9], [1 / 3, 2.0, 7 / 3, 0.1, 5.0], [1 / 7, 2.0, 0.0, 0.1, 4.5]),
    ([7, 2**63, 7], [1.0, 2.0, 3.0], [0.5, 1.5, 2.5]),
)

PagePositions = Callable[
    ["array[int]", list[int], list[int], list[int], "array[int]", "array[float]", "array[float]", float],
    "Sequence[int]",
]
KeptPositions = Callable[["array[int]", "array[float]", "array[float]", float, float], frozenset[int]]


def position_counters(
    page_positions: PagePositions, kept_positions: KeptPositions
) -> tuple[PagePositions, KeptPositions]:
    """The C counting of a page's structure positions into a site's arrays and the C article slots, if they
    equal the Python ones on the canaries (the arrays they change compared too); else the Python ones (which
    also decide where the C code returns None: an index out of range, arrays of unequal lengths)."""
    if _native is None:
        _STATUS["positions"] = _NOT_BUILT
        return page_positions, kept_positions
    ext = _native

    def counted(*args: Any) -> Sequence[int]:
        got = ext.learn_positions(*args)
        return array("Q", got) if got is not None else page_positions(*args)

    def kept(*args: Any) -> frozenset[int]:
        got = ext.kept_positions(*args)
        return got if got is not None else kept_positions(*args)

    def check() -> str | None:
        for page in POSITION_CANARIES:
            for tracked, seen, held in TRACKED_CANARIES:
                for unit in (1 / 3,):
                    ours = (array("Q", tracked), array("f", seen), array("f", held))
                    theirs = (array("Q", tracked), array("f", seen), array("f", held))
                    got, want = counted(*page, *ours, unit), page_positions(*page, *theirs, unit)
                    if list(got) != list(want) or ours != theirs:
                        return f"page positions differ on {page!r:.80} with {tracked!r:.80}"
                    for bar, share in ((0.0, 0.0), (1.0, 0.95), (1 / 3, 1.0), (2.5, 0.5)):
                        if kept(*ours, bar, share) != kept_positions(*ours, bar, share):
                            return f"article slots differ at {bar}, {share} on {tracked!r:.80}"
        nothing = (array("Q"), array("f"), array("f"))
        if ext.learn_positions(array("Q", [1, 2, 3]), [-1, 0], [0, 5], [], *nothing, 1.0) is not None:
            return "learn_positions answered an index out of range"
        return None

    if not _passes("positions", "native structure positions off, the Python code runs", check):
        return page_positions, kept_positions
    return counted, kept


TemplateStrips = Callable[
    ["array[int]", "array[float]", float, "array[int]", "array[int]", list[int], list[int]], list[int]
]


def template_strips(reference: TemplateStrips) -> TemplateStrips:
    """The C template strips if they equal the Python ones on the canaries; else the Python ones (which
    also decide whenever an element or its block range is not one the C code reads)."""
    off = "native template strips off, the Python code runs"
    # A page of 7 elements: (elems, text_fps, firsts, ends), a subtree inside another, the root, and
    # fingerprints 0 and 2**64 - 1; the site's (fps, counts) with ties at the bar and a count under it.
    page = (array("q", [0, 1, 2, 3, 5, 6]), array("Q", [4, 9, 2**64 - 1, 9, 0, 7]))
    firsts, ends = [0, 0, 1, 1, 3, 3, 5], [9, 3, 3, 2, 9, 4, 9]
    site = (array("Q", [9, 4, 0, 2**64 - 1, 7, 8]), array("f", [1.0, 2.0, 0.5, 1 / 3, 2.0, 1.0]))
    canaries = tuple(
        (*site, bar, *page, firsts, ends) for bar in (0.0, 1 / 3, 0.34, 1.0, 2.0, 3.0, float("inf"))
    )
    declined = ((*site, 0.0, array("q", [0, 7]), array("Q", [4, 9]), firsts, ends),)
    return _declining("strips", off, reference, "template_strips", canaries, declined)


StablePath = Callable[[Any, int], str]
# Elements whose ids and first classes hold runs of digits (two, three, of other scripts), surrounding
# whitespace, whitespace beyond ASCII; nested under them, under <html> and alone in <body>.
STABLE_PATH_CANARIES = (
    '<div id=" main "><p class="lead x">a</p></div>',
    '<section id="post-1234" class="entry-12 b"><p>b</p></section><div id="12"><p class="a1234">x</p></div>',
    '<div id="a12b" class="\u3000first\u00a0second"><ul class="c\u0663\u0664\u0665 d"><li>c</li></ul></div>',
    '<main class="wide"><article id="x\u0661\u0662\u0663"><p class="  ">d</p></article></main><p>e</p>',
)


def stable_pather(reference: StablePath, segment: Callable[..., Any]) -> StablePath:
    """The C stable path (segment.stable_path) if it equals the Python one for every element of the canary
    pages; else the Python one (which also decides whenever a column is not one the C code reads)."""

    def native(ext: Any) -> StablePath:
        fn = ext.stable_path

        def call(seg: Any, elem: int) -> str:
            got = fn(seg.tags, seg.ids, seg.classes, seg.parents, elem)
            return got if got is not None else reference(seg, elem)

        return call

    def check(ext: Any) -> str | None:
        call = native(ext)
        pages = [*_canaries(hm.MAX_DEPTH, deep_too=False), *STABLE_PATH_CANARIES]
        for html in pages:
            body = LexborHTMLParser(html).body
            assert body is not None
            seg = segment(body, Budget(float("inf")))
            for elem in range(-1, len(seg.tags)):
                got, want = call(seg, elem), reference(seg, elem)
                if got != want:
                    return f"stable paths differ: {got!r:.80} != {want!r:.80}"
        return None

    return _chosen("stable_path", "native stable paths off, the Python code runs", reference, check, native)


SlotBlocks = Callable[["array[int]", list[int], list[int], list[int], frozenset[int]], list[int]]


def slot_blocks(reference: SlotBlocks) -> SlotBlocks:
    """The C blocks at a site's article slots if they equal the Python ones on the canaries; else the Python
    ones (which also decide whenever an index, a kept block or a slot is not one the C code reads)."""
    off = "native article slots off, the Python code runs"
    slots: tuple[frozenset[int], ...] = (
        frozenset(),
        frozenset({3}),
        frozenset({0, 2**64 - 1}),
        frozenset({9, 5, 1, 2**63}),
    )
    canaries = tuple((*page, s) for page in POSITION_CANARIES for s in slots)
    declined = ((array("Q", [9, 9]), [-1], [0, 0], [-1], frozenset({9})),)
    return _declining("slots", off, reference, "slot_blocks", canaries, declined)


def _declining(
    stage: str,
    off: str,
    reference: F,
    name: str,
    canaries: tuple[tuple[Any, ...], ...],
    declined: tuple[tuple[Any, ...], ...] = (),
) -> F:
    """The extension's function `name` where it answers, `reference` where it returns None (input the C
    code leaves to Python), if it equals `reference` on the `canaries` and declines every `declined`;
    else `reference` (see _chosen)."""

    def native(ext: Any) -> F:
        fn = getattr(ext, name)

        def call(*args: Any) -> Any:
            got = fn(*args)
            return got if got is not None else cast(Callable[..., Any], reference)(*args)

        return cast(F, call)

    def check(ext: Any) -> str | None:
        fn = getattr(ext, name)
        for args in canaries:
            got, want = fn(*args), cast(Callable[..., Any], reference)(*args)
            if got != want:
                return f"{name} differs on {args!r:.80}: {got!r:.80} != {want!r:.80}"
        for args in declined:
            if fn(*args) is not None:
                return f"{name} answered {args!r:.80}, which it must leave to Python"
        return None

    return _chosen(stage, off, reference, check, native)


Utf8 = Callable[[str], bytes]
# Every storage kind of str, the boundaries of each UTF-8 length, and runs of ASCII around them.
UTF8_CANARIES = (
    "",
    "plain ascii <p>",
    "caf\u00e9 \u00ff",
    "\u201cquoted\u201d text, then more ASCII: abcdefgh",
    "\x7f\x80\u07ff\u0800\uffff",
    "abc\U00010000def\U0010ffff\u00e9\u20ac",
)


def utf8_encoder(reference: Utf8) -> Utf8:
    """The C encoder if it equals `reference` (str.encode("utf-8")) on the canaries; else `reference`,
    which also decides for a str holding a surrogate (it raises there)."""
    off = "native UTF-8 encoding off, str.encode runs"
    canaries = tuple((text,) for text in UTF8_CANARIES)
    return _declining("utf8", off, reference, "utf8", canaries, declined=(("a\ud800b",),))


DateStarts = Callable[[str, int, int, int], list[int]]
# Windows for meta.text's _DATE_START: digit runs of one to five digits (from "1", "2" and others), a year
# before 年 (with a space, inside a longer run, cut by the window's end), words of two to thirteen letters
# before ". 5", " 5", ".5", " x" (letters beyond ASCII and beyond Latin-1; "²", a digit that is no decimal
# one, reads as a letter; "٣", a decimal one, as neither), "_", runs cut by the window's start and end;
# one, two and four bytes a character.
DATE_START_TEXTS = (
    "on 3 May, 14.03.19 and 2019-03-14 or 12345 then 1234 and 2023年3月 x12019年 2023 年 3999年 2019",
    "March 14, 2019 Mar. 5 Sept 3 ab 4 abc. 7 Dezember. 8 abcdefghijkl 9 abcdefghijklm 9 März 3 word.x 5",
    "Étéx 3 ÉTÉ. 4 x²ab 5 ab² 6 ٣abc 7 abc٣ 8 _abc 9 abc_ 1 déc. 2019 Ωμέγα 12 日本語 3 10_000",
    "\U0001f600 then May 3 2019 \U0001d400bc 4 and 2020",
    "12 Jan 2020",
    "2020年",
    "",
)


def date_starter(reference: DateStarts) -> DateStarts:
    """The C scan if it equals `reference` (meta.text.date_starts_python) on windows of the canaries;
    else `reference`, which also decides for bounds outside the text (re clamps them)."""
    off = "native date starts off, the regex runs"
    canaries = tuple(
        (text, start, end, last)
        for text in DATE_START_TEXTS
        for start, end in ((0, len(text)), (1, len(text) - 1), (len(text) // 3, 2 * len(text) // 3))
        for last in (end, end // 2)
        if start <= end
    )
    declined = (("12 May", -1, 3, 3),)
    return _declining("date_starts", off, reference, "date_starts", canaries, declined)


RepeatedQuotes = Callable[[list[str], list[int], list[int], float], set[int]]
# A forum thread for classify.repeated_quotes_python: a post, its quote (and the quote's own repeats), a
# quote of nothing kept, quotes under four words, a kept entry listed twice; words beyond ASCII (a capital
# whose lower case is two characters, a text of them with more words than half its length, "ſ", a final
# sigma, digits that are no decimal ones, "_", emoji, CJK) and every storage kind; punctuation, spaces and a
# word cut at the text's end.
_QUOTE_TEXTS = [
    "The river rose two metres overnight and the bridge was closed",
    "Originally Posted by Ann The river rose two metres overnight and the bridge was closed",
    "Quote: originally posted by Bob nobody here wrote this at all, never",
    "originally posted by Cy",
    "İstanbul ſtreet ΣΊΣΥΦΟΣ² caf\u00e9_au lait \U0001f600 新しい 橋 x",
    "quote: originally posted by Dee İstanbul ſtreet ΣΊΣΥΦΟΣ² caf\u00e9_au lait \U0001f600 新しい 橋 x",
    "...and the bridge---was closed!! The RIVER rose two metres overnight",
    "",
    "İaİbİcİdİeİfİgİhİjİkİlİm",  # lower() is longer: more words than half its characters
    "Originally posted by Eve İaİbİcİdİeİfİgİhİjİkİlİm",
]
QUOTE_CANARIES = tuple(
    (list(_QUOTE_TEXTS), kept, quotes, share)
    for kept, quotes in (
        ([0, 1, 2, 3], [1, 2, 3]),
        ([1, 0], [1]),
        ([4, 5, 7], [5]),
        ([1, 6, 1], [1, 1]),
        ([2, 2, 5, 4, 6, 0], [2, 5]),
        ([3], [3]),
        ([0, 6], [1]),
        ([8, 9], [9]),
        ([9, 8, 9], [9, 8]),
    )
    for share in (0.5, 0.0, 1.0)
)


def quote_repeater(reference: RepeatedQuotes) -> RepeatedQuotes:
    """The C 4-gram sets if they equal `reference` (classify.repeated_quotes_python) on the canaries; else
    `reference`, which also decides for arguments that are not lists of str and of their indexes."""
    off = "native repeated quotes off, the Python code runs"
    declined: tuple[tuple[Any, ...], ...] = (
        (["a"], [1], [0], 0.5),
        (["a"], [0], [True], 0.5),
        ((), [], [], 0.5),
        ([b"a"], [0], [0], 0.5),
    )
    return _declining("repeated_quotes", off, reference, "repeated_quotes", QUOTE_CANARIES, declined)


HeadUnread = Callable[[bytes], bytes]
# Heads for dom.head_unread: every token it reads or stops at, in either case, and texts that stay.
HEAD_CANARIES = (
    b"",
    b"   ",
    b"<html><head><script>var a = 1;</script></head><body><p>x</p></body></html>",
    b"\xef\xbb\xbf<script>a()</script><p>x</p>",
    b"<!DOCTYPE html><!-- c --><HTML lang=en><HEAD><META charset=utf-8><TITLE>T <script>x</script></TITLE>"
    b"<STYLE type='text/css'>p > a { color: red }</STYLE><SCRIPT>a < b</SCRIPT ><p>x",
    b"<!--><!---><!-- a --!> b --><head><script src=x.js></script><script>f()</script ><body>x",
    b"<head><link rel=stylesheet href=a.css /><base href='/'><basefont><bgsound><style></style></head>\n"
    b"<script>late()</script><style>b{}</style><body><script>kept()</script>x",
    b'<head><script type="application/ld+json">{"a": 1}</script><script type="application&#x2F;ld&#x2B;json">'
    b'{"b": 2}</script><script type=LD+JSON>{}</script><script>g()</script>',
    b"<head><script>document.write('<!--')</script><script>h()</script><p>x",
    b"<head><script>i()</scripts></script><style>j</styles></style><p>x",
    b'<head><meta content="a>b" name="x"><meta a=">"><meta b=\'>\' c=d/><script>k()</script><p>x',
    b"<head><noscript><style>n</style></noscript><script>l()</script>",
    b"<head><template><script>m()</script></template><script>o()</script>",
    b"<head><script>p()</script>text<script>q()</script>",
    b"<head><script>r()</script></p><script>s()</script>",
    b"<head><meta\x00><script>t()</script>",
    b"<head><script>u()",
    b"<head><script>v()</script",
    b"<head><meta name='w",
    b"<head><script>x()>\n </script><p>y>",
    b"<head><script>z\xc3\xa9\n</script><p>z\xc3\xa9",
    b"<head><script>a1</script><p>b\xc2\xa0",
    b"<head><script> \t\n</script><style>\x0b\x1c</style><p>c;",
    b"<head><title>a</title><script>d</script></head><p>e</p><script>f</script>",
    b"<head>\n<link rel=stylesheet href=a.css>\n<LINK REL=Canonical href=/a>\n<link rel='x&amp;canonical'> "
    b"<link href='>' rel=icon>\t<link rel=preload><script>g</script><link rel=next>\n</head><link rel=prev>\n"
    b"<link rel=alternate></head>",
    b"<link rel=icon>\r<head><link rel=icon>\x0c<link rel=icon>",
    b"<head><NOSCRIPT><link rel=x>\n<style>s</style><meta a=b></noscript><script>z()</script></head>",
    b"<head><noscript><img></noscript><script>a()</script>",
    b"</head><noscript><style>b</style></noscript><script>c()</script>",
    b"<head><noscript></noscript></noscript><script>d()</script>",
    b"<head></noscript><noscript><noscript><script>e()</script>",
    b"<head><noscript><script>f()</script></noscript><script>g()</script>",
)


def head_unread_stripper(reference: HeadUnread) -> HeadUnread:
    """The C scan if it equals `reference` on the canaries; else `reference`."""
    off = "native head scan off, the Python scan runs"
    return _declining("head_unread", off, reference, "head_unread", tuple((head,) for head in HEAD_CANARIES))


Repeats = Callable[
    [list[str], list[str], list[int], list[int], list[int], int, int, str | None], tuple[int, str, list[int]]
]
# Segmentation columns (tags, classes, parents, firsts, ends) for repeats.repeats_python: classes with
# digits of other scripts, Unicode spaces, empty and blank ones, tags with a dot, equal counts (the first
# in document order wins), nested items, elements without blocks.
_REPEAT_COLUMNS = (
    ["body", "div", "p", "p", "div", "p", "p", "p", "a.b", "a"],
    ["", "x", "item-1 a", "item-2", "y", " item\u0663 b", "\u2003item", "item\u00b2", "c", "b.c"],
    [-1, 0, 1, 1, 0, 4, 4, 4, 0, 0],
    [0, 0, 0, 1, 2, 2, 3, 4, 5, 6],
    [7, 2, 1, 2, 5, 3, 4, 4, 6, 7],
)
REPEAT_CANARIES = tuple(
    (*_REPEAT_COLUMNS, root, end, want)
    for root, end in ((0, 10), (1, 4), (4, 8), (2, 3), (9, 10))
    for want in (None, "p.item", "p.item\u00b2", "a.b.c", "div.")
)


def repeats_finder(reference: Repeats) -> Repeats:
    """The C repeated signatures if they equal `reference` on the canaries; else `reference`, which also
    decides for columns that are not a segmentation's."""
    off = "native repeated signatures off, the Python code runs"
    declined = ((*_REPEAT_COLUMNS[:4], [1], 0, 10, None), (*_REPEAT_COLUMNS, 3, 3, None))
    return _declining("repeats", off, reference, "repeats", REPEAT_CANARIES, declined)


Positions = Callable[[list[str], str], list[int]]
# Lists of str for segment.indexes: equal strs that are distinct objects, every storage kind, prefixes.
_WORDS = ["article", "articles", "artic", "", "h\u00e9ading", "heading", "\u2003heading", "\U0001f600x", "x"]
POSITION_LIST_CANARIES = tuple(
    (items, value)
    for items in ([], _WORDS, [w + "" for w in _WORDS * 3], ["".join(["art", "icle"]), "p", "article"])
    for value in ("article", "heading", "", "\U0001f600x", "h\u00e9ading", "absent")
)


def positions_finder(reference: Positions) -> Positions:
    """The C list scan if it equals `reference` on the canaries; else `reference`, which also decides for
    lists holding other than str."""
    off = "native list scans off, the Python code runs"
    declined = (([1, "a"], "a"), (["a"], 1))
    return _declining("positions", off, reference, "positions", POSITION_LIST_CANARIES, declined)


Cut = Callable[
    [list[int], list[int], list[int], list[list[Any]]], tuple[list[int], list[int], list[list[Any]]]
]
# (firsts, ends, elems, columns): nested subtrees, two starting at one block, empty subtrees and pages,
# repeated and unsorted elements, the whole page removed.
_CUT_FIRSTS, _CUT_ENDS = [0, 0, 0, 2, 3, 3, 5, 6], [8, 3, 2, 3, 6, 3, 6, 8]
_CUT_COLUMNS = [list("abcdefgh"), list(range(8)), [None, 1.5, "x", (), 2, 3, 4, 5]]
_CUT_ELEMS: tuple[list[int], ...] = (
    [],
    [1],
    [2, 1],
    [5],
    [4, 7],
    [7, 4, 4],
    [3, 5, 6],
    [0],
    [1, 4, 6, 7],
    list(range(8)),
)
CUT_CANARIES = (
    *((_CUT_FIRSTS, _CUT_ENDS, elems, _CUT_COLUMNS) for elems in _CUT_ELEMS),
    ([0], [0], [0], [[]]),
    ([0, 0], [0, 0], [1], [[], []]),
)


def cutter(reference: Cut) -> Cut:
    """The C cut if it equals `reference` on the canaries; else `reference`, which also decides for input
    that is not a segmentation's (negative elements, an end before its first, columns of unequal length)."""
    off = "native segmentation cuts off, the Python code runs"
    declined = (
        ([0, 1], [1, 0], [1], [["a"]]),
        ([0], [1], [-1], [["a"]]),
        ([0], [1], [0], [["a"], []]),
        ([0], [True], [0], [["a"]]),
        ([0], [2], [0], [["a"]]),
    )
    return _declining("cut", off, reference, "cut", CUT_CANARIES, declined)


Decide = Callable[
    [
        list[str], list[str], list[int], list[int], list[int], list[float], list[int], list[int], list[int],
        list[bool] | None, list[bool] | None, float | None,
    ],
    tuple[list[int], int],
]  # fmt: skip
# Blocks for classify.decide_python, (text, kind, link words, stopwords, owner): boilerplate lines, copyright
# lines with and without anchors (ASCII and not), comment headings after good text, prose with and without
# stopwords, link clusters, linked sentences, short headings before good text, a near-good sentence box.
_DECIDE_BLOCKS = (
    ("Share this story", "paragraph", 0, 0, 1),
    (
        "The council met on Tuesday and agreed that the old bridge would be closed for repairs until spring.",
        "paragraph",
        0,
        9,
        1,
    ),
    ("Staff Reports", "heading", 0, 0, 2),
    (
        "It was the first time in a decade that the bridge had been closed, and the detour is long.",
        "paragraph",
        2,
        8,
        2,
    ),
    ("Home About Contact Jobs Press Blog", "list_item", 6, 0, 3),
    (
        "Read the filing at the regulator's site, and the two letters that the council sent to it.",
        "paragraph",
        12,
        6,
        3,
    ),
    ("\u00a9 2024 Example News Ltd", "paragraph", 0, 0, 4),
    ("ALL RIGHTS RESERVED by the authors of this site", "paragraph", 0, 2, 4),
    ("Copyright (c) 2019 Stra\u00dfe GmbH", "paragraph", 0, 0, 4),
    ("Upper, lower and right: a night of light, thought the knight (and bought it).", "paragraph", 0, 1, 5),
    ("A spec line: 12 V, 3 A, 50 Hz, IP65, 2 kg, aluminium casing and steel", "list_item", 0, 0, 5),
    # prose whose stopword density (4 of 22 words) is good under the Polish share, near-good under English's
    (
        "Rada miasta zebrała się we wtorek i postanowiła, że stary most zostanie zamknięty na czas remontu "
        "aż do wiosny, a objazd potrwa.",
        "paragraph",
        0,
        4,
        5,
    ),
    # without a language: Thai prose (no mark, UNSPACED_CHARS_PER_WORD), Latin as unspaced (no such script),
    # Khmer prose with its own full stop
    ("\u0e01\u0e23\u0e38\u0e07\u0e40\u0e17\u0e1e" * 20 + " \u0e1d\u0e19" * 2, "paragraph", 0, 0, 5),
    ("AllThingsDigital" * 8 + " Telecommunications", "paragraph", 0, 0, 5),
    ("\u1797\u17d2\u179b\u17c0\u1784 \u1792\u17d2\u179b\u17b6\u1780\u17cb\u17d4 " * 12, "paragraph", 0, 0, 5),
    ("12 Comments", "heading", 0, 0, 6),
    (
        "Eve says: I agree with every word of this, and I have said so before, many times.",
        "paragraph",
        0,
        7,
        6,
    ),
    ("Advertisement", "paragraph", 1, 0, 7),
    ("\u0130stanbul \u00a9 ght", "paragraph", 0, 0, 7),
    ("ALL RIGHTS RESERVED \u2014 Stra\u00dfe", "paragraph", 0, 0, 7),
    # short lines between good text past share buttons (PASSED_LINK_MAX_CHARS): one that stands, one word
    # alone, one with a link
    (
        "The bridge will open again in the spring, and the work on both of its towers will go on all the "
        "winter.",
        "paragraph",
        0,
        9,
        10,
    ),
    ("Two cloves of garlic", "paragraph", 0, 1, 10),
    ("Subscribers", "paragraph", 0, 0, 10),
    ("See the map", "paragraph", 1, 1, 10),
    ("Pin It", "paragraph", 2, 0, 10),
    ("Tweet", "paragraph", 1, 0, 10),
    (
        "The old ferry will run again while the bridge is closed, and the town will pay for all the extra "
        "trips.",
        "paragraph",
        0,
        9,
        10,
    ),
    ("short", "paragraph", 1, 0, 8),
    # a linked comment heading with more of the article after it (classify.comment_tail: passed over
    # in the range of the last five blocks) or less (cut at in the four from "short")
    (
        "The mayor said on Monday that the new bridge would "
        "carry far more traffic than the old one had ever carried.",
        "paragraph",
        0,
        8,
        9,
    ),
    ("Comments", "paragraph", 1, 0, 9),
    (
        "The work on the river banks will go on for another "
        "year or more, and the costs are shared by the two towns.",
        "paragraph",
        0,
        8,
        9,
    ),
    (
        "Both of the towns have agreed to pay for the "
        "new lights, and the council will look after all the footpaths.",
        "paragraph",
        0,
        8,
        9,
    ),
    (
        "The first cars are expected to cross it in the "
        "spring, when the last of the road works are done with.",
        "paragraph",
        0,
        8,
        9,
    ),
    # after the good paragraph above, the closing sentence (CLOSING_SENTENCE_MIN_CHARS): one that stands,
    # one with a link, one too short, then a link list
    ("It will cost more than planned.", "paragraph", 0, 3, 8),
    ("See the plan on our site.", "paragraph", 2, 2, 8),
    ("Thanks all.", "paragraph", 0, 0, 8),
    ("Home About Contact Jobs Press Blog", "list_item", 6, 0, 9),
)


def _decide_canaries() -> tuple[tuple[Any, ...], ...]:
    texts = [t for t, *_ in _DECIDE_BLOCKS]
    kinds = [k for _, k, *_ in _DECIDE_BLOCKS]
    chars = [len(t) for t in texts]
    words = [len(t.split()) for t in texts]
    lw = [b[2] for b in _DECIDE_BLOCKS]
    ld = [a / b for a, b in zip(lw, words, strict=True)]
    stops = [b[3] for b in _DECIDE_BLOCKS]
    owners = [b[4] for b in _DECIDE_BLOCKS]
    n = len(texts)
    some = [False, False, True, False, False, True] + [False] * (n - 6)
    marks = ([False] * n, some, [False] + [True] * (n - 1))
    out = []
    for lo, hi in ((0, n), (2, 9), (9, n), (0, 0), (3, 4), (n - 5, n), (n - 6, n - 2)):
        idx = list(range(lo, hi))
        cols = (texts[lo:hi], kinds[lo:hi], chars[lo:hi], words[lo:hi], lw[lo:hi], ld[lo:hi], stops[lo:hi])
        # English good stopword share, a language's scaled one (hm.STOPWORD_GOOD_SHARE), none
        en, pl = hm.STOPWORD_GOOD_SHARE["en"], hm.STOPWORD_GOOD_SHARE["pl"]
        for marked, comment, good_share in (
            (None, None, en), (None, None, pl), (marks[1], None, None), (marks[2], marks[1], pl),
        ):  # fmt: skip
            out.append((*cols, idx, list(range(n)), marked, comment, good_share))
            out.append((*cols, idx, owners, comment, marked, good_share))
    return tuple(out)


def decider(
    numbers: tuple[float, ...],
    classes: tuple[str, re.Pattern[str], tuple[str, ...], tuple[str, ...], tuple[tuple[int, int], ...]],
    tests: tuple[Callable[[str], object], Callable[[str], object], Callable[[str], object]],
    reference: Decide,
) -> Decide:
    """The C block classification if it equals `reference` on the canaries; else `reference`, which also
    decides for columns the C code does not expect."""
    if _native is None:
        _STATUS["decide"] = _NOT_BUILT
        return reference
    ext = _native
    edge, punct, ends, anchors, scripts = classes
    off = "native block classification off, the Python code runs"

    def configure() -> str | None:
        chars = _character_class(punct.pattern)
        if chars is None or any(len(e) != 1 for e in ends):
            return f"the punctuation {punct.pattern!r} / {ends!r} is no set of characters"
        ext.configure_classify(
            tuple(float(n) for n in numbers), edge, chars, "".join(ends), anchors, *tests,
            "heading", "paragraph", _bounds(scripts),
        )  # fmt: skip
        return None

    if not _passes("decide", off, configure):
        return reference
    return _declining("decide", off, reference, "decide", _decide_canaries())


def _native_count_page(
    fps: array[int], counts: array[float], page: set[int] | frozenset[int] | array[int], unit: float
) -> array[int]:
    new = _native.count_page(fps, counts, page, unit)
    if new is None:  # a fingerprint no array("Q") holds: the Python code raises as it always did
        from worker.clean import sitememory

        return sitememory._count_page_python(fps, counts, page, unit)
    return array("Q", new)


def _native_prune(fps: array[int], counts: array[float], keep: int) -> tuple[array[int], array[float]]:
    kept = _native.prune(fps, counts, keep)
    if kept is None:  # nothing to drop: the Python code decides
        from worker.clean import sitememory

        return sitememory._prune_python(fps, counts, keep)
    return array("Q", kept[0]), array("f", kept[1])


Scan = Callable[[str], tuple[int, list[tuple[int, int]]]]
NestingCounts = Callable[[str], tuple[int, int, int]]

# Markup for the guard's scans: long tags and runs without `>`, `<` or both, at every offset against the
# scan's blocks; end tags, void, formatting and other names in both cases, names cut by the end, by `<` or
# by characters beyond ASCII, options; each also with characters beyond Latin-1 (the other two storage
# kinds of a str).
GUARD_CANARIES = (
    "",
    "<",
    ">x",
    "a>" * 3000,
    "<" * 3000,
    "<p " + "a=1 " * 800 + ">x</p>" + "<option>" * 50 + "<OPTION><Option>",
    "<div>" * 3000 + "</div>" * 2999 + "</",
    "<script>" + "x" * 5000 + "</script>" + '<img src="' + "y" * 3000 + '">' + "<b>x</b>" * 900,
    '<p title="' + "x>" * 700 + '">' + "</p>" * 5000 + "<option" * 3,
    "".join(">" * k + "<" + "x" * (1020 + k) + ">" + "y" * k for k in range(0, 1100, 37)),
    "<BR><br/><hr\t<Img\n<meta\f<embed\r<brx><b><B id=1><strike><STRONG><a<b></b></A></x></ <a</b",
    "<font><b\x00><ix><i>x</i></i></i></bx><tt\u212a><s><nobr><small></u><big><code><em>" * 40 + "<br",
    "</" + "<b>x" * 200 + "</p><p>x" * 300 + "<option><OPTION><optionx" * 7 + "<img",
)


# The nesting counts (guard._nesting_counts_python) are compared on a canary's first and last
# NESTING_SAMPLE_CHARS // 2 characters when it is longer. Their C loop keeps five counters and reads the
# markup sixteen characters a step, then the tail one at a time: no state of it grows with the markup's
# length, so a head and a tail still meet every name kind, end tags below depth 0, every offset of a `<`
# in a step, the tail loop and a spelling cut by the end; the long canaries are for the scans. The whole
# canaries (the long ones in one storage kind) cost one page's `clean` 101 million more instructions,
# 1024 characters 10 million more (callgrind).
NESTING_SAMPLE_CHARS = 512


def _nesting_sample(text: str) -> str:
    """`text`, or its head and tail when it is longer than NESTING_SAMPLE_CHARS (see there)."""
    half = NESTING_SAMPLE_CHARS // 2
    return text if len(text) <= NESTING_SAMPLE_CHARS else text[:half] + text[-half:]


CountAttributes = Callable[[str, int, int], int]
# Attribute lists: quoted, unquoted and empty values, spaces around "=", stray and unclosed quotes, names
# holding quotes, slashes, whitespace beyond ASCII.
ATTRIBUTE_CANARIES = (
    '<p a=1 b="2 3" c=\'4\' d e = "5"f=6 g= h=>',
    '<p x"y=1 \'z\' "open=2 a="unclosed b c>',
    "<div data-x = 'a' / checked  class=\"a b\"/ id=x\u3000y=z\u00a0w>",
    "<img src=a>b c=d e=\"f>g\" h='i\n j' k=l\tm=n",
    "= = == a==b a= =b '' \"\" ' \" /a/b/",
)


def _tree_reading_off() -> str | None:
    """Why the C code may not read trees (None: it may). Stages that read nodes and attributes as the
    segmentation walk does rely on its layout check (segment.py configures the walk and runs it)."""
    from worker.clean import segment  # noqa: F401  (configures and checks the C walk's reading of trees)

    status = _STATUS.get("segment")
    return None if status == "native" else f"the C reading of trees is off: {status}"


def _tree_canaries(bodies: tuple[str, ...], body_attrs: str = "") -> list[str]:
    """Pages of `bodies` (a body with `body_attrs`), then the segmentation's canaries."""
    pages = [f"<html><head></head><body{body_attrs}>{b}</body></html>" for b in bodies]
    return [*pages, *_canaries(hm.MAX_DEPTH, deep_too=False)]


# _native.marked(root address, tag ids, class words, id words, limit, max_chars): (class, id, text) per
# element.
Marker = Callable[[LexborNode, Any, int, int], list[tuple[str | None, str | None, str | None]]]
# Pages whose elements are marked, or nearly, in every way the scan reads: the root itself, words in any
# case and across words ("upDATEd"), non-ASCII around them, an empty or valueless class, a <template>'s
# content (not in the tree), <script> in SVG, elements inside matches, text split over nodes and comments.
MARK_CANARIES = (
    '<div class="Date x">a<span id="xdatex">b</span></div><script>s()</script><template><p class=date>t'
    "</p></template><svg><script>q</script><style>z</style></svg><noscript><style>n</style></noscript>"
    '<div class="dÄte date">c</div><p class="DATE"><!-- c -->d<b>e</b> f</p><p class>g</p><p class=""'
    ' id="">h</p><p id="\u212aDATE">i</p><div class="date" class="x" id="a" id="b">j</div>',
    '<article class="post-meta published"><time datetime="2020-01-02">2 Jan</time><span class="byline'
    ' author">By <a rel="author">Jo</a></span></article><div class="TIMEline"><h1>Title</h1></div>'
    "<style>p{}</style><p>über 漢字 😀</p><script>var x = '<p class=date>';</script>",
)


# (limit, max_chars) pairs of the check: none, one, a few elements; texts cut at every length up to one
# character of four bytes, and not at all.
_MARK_LIMITS = ((0, 9), (1, 0), (3, 1), (3, 2), (1 << 30, 3), (1 << 30, 4), (1 << 30, 1 << 62))


def _told(cache: dict[Any, tuple[Any, ...]], wanted: Any) -> tuple[Any, ...]:
    """`wanted.native_args()` (a selector list's or marks' arguments to C), made once per `wanted`."""
    told = cache.get(wanted)
    if told is None:
        told = cache[wanted] = wanted.native_args()
    return told


def marker(reference: Marker, marks: tuple[Any, ...]) -> Marker:
    """The C scan of marked elements if it equals `reference` on the canaries, for each of `marks` (things
    with `native_args()`: tag ids, class words, id words); else `reference`."""

    def native(ext: Any) -> Marker:
        args: dict[Any, tuple[Any, ...]] = {}

        def scan(
            root: LexborNode, wanted: Any, limit: int, max_chars: int
        ) -> list[tuple[str | None, str | None, str | None]]:
            return ext.marked(root.mem_id, *_told(args, wanted), limit, max_chars)  # type: ignore[no-any-return]

        return scan

    def check(ext: Any) -> str | None:
        if problem := _tree_reading_off():
            return problem
        scan = native(ext)
        for i, html in enumerate(_tree_canaries(MARK_CANARIES, " class='date'")):
            tree = LexborHTMLParser(html)
            # The limits cut what the scan returns and the roots move where it starts, which MARK_CANARIES
            # are made to test (elements of every mark, texts of every width); the segmentation's pages
            # after them add kinds of node, every one of which the unlimited scan from the root reads.
            # Those pages every way too: 13 million more instructions of one page's `clean` (callgrind).
            own = i < len(MARK_CANARIES)
            for root in (tree.body, tree.root) if own else (tree.root,):
                assert root is not None
                for wanted in marks:
                    for limit, max_chars in _MARK_LIMITS if own else _MARK_LIMITS[-1:]:
                        got = scan(root, wanted, limit, max_chars)
                        want = reference(root, wanted, limit, max_chars)
                        if got != want:
                            return f"marked elements differ on a canary: {got} != {want}"
        return None

    off = "native scan of marked elements off, lexbor's CSS scan runs"
    return _chosen("marked", off, reference, check, native)


# _native.select(root, compounds): the elements a selector list names, as selectolax nodes (meta/select.py).
NodeSelector = Callable[[LexborNode, Any], list[LexborNode]]
# Pages of elements the metadata's selector lists name, or nearly, in every way the scan tests them: a
# document in quirks mode (no doctype), in limited quirks mode and in standards mode; values in any case,
# across words and with every whitespace lexbor splits at; elements in SVG and MathML; valueless and
# empty attributes; an element named by several compounds; a <template>'s content (not in the tree).
SELECT_CANARIES = (
    '<meta name=a content=b><link rel=canonical href=x><title>t</title><script type="application/LD+JSON">'
    '{}</script><p class="Author x">a</p><p class="x\tauthor\fy">b</p><a rel="nofollow AUTHOR">c</a>'
    '<svg><a rel="AUTHOR">d</a><title class=author>e</title><script type=ld+json>s</script></svg>'
    "<math><mi itemprop=x>f</mi></math><span property content>g</span><span property>h</span>"
    "<meta itemprop=datePublished content=2020 property=x class=author><abbr title>i</abbr>"
    '<template><p class=author>t</p></template><p class=authors data-x="author">j</p><p class="">k</p>',
    '<div class="\u212author author\u00a0">l</div><a rel="author\vx">m</a><a rel>n</a><h1 class=AUTHOR>'
    'o<time itemprop>p</time></h1><script type="text/json+ld">q</script><link rel><link><i itemprop=author>r'
    '</i><i itemprop="Author">s</i><i itemprop=" author">t</i><i itemprop="author x" class="FN">u</i>'
    '<b class="fn x" itemprop="author">v</b><b itemprop="AUTHOR" itemprop="author">w</b>',
)
_STANDARDS_DOCTYPE = "<!DOCTYPE html>"
_SELECT_DOCTYPES = (
    "",
    _STANDARDS_DOCTYPE,
    '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
    '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">',
)


def _canary_roots(pages: list[str], own: int) -> Iterator[tuple[LexborHTMLParser, LexborNode]]:
    """The first `own` pages (a stage's own canaries) parsed in quirks, limited-quirks and standards mode,
    from the root in each mode and from the head and the body in standards mode too; the others
    (_tree_canaries' pages of the segmentation, there for their kinds of node) as every stage parses
    them, from the root only. The modes change which elements a selector names, which the root's scan
    meets every one of; the roots change where a scan starts, which one mode shows. The segmentation's
    pages every way too: 14 million more instructions of one page's `clean`; the own pages from every
    root in every mode: 10 million more (callgrind)."""
    for i, page in enumerate(pages):
        for doctype in _SELECT_DOCTYPES if i < own else ("",):
            tree = LexborHTMLParser(doctype + page)
            every = i < own and doctype == _STANDARDS_DOCTYPE
            for root in (tree.head, tree.body, tree.root) if every else (tree.root,):
                assert root is not None
                yield tree, root


def selector(reference: NodeSelector, lists: tuple[Any, ...]) -> NodeSelector:
    """The C scan of the elements a selector list names if it equals `reference` on the canaries (in the
    page's head, body and root, each page in quirks, limited-quirks and standards mode) for each of
    `lists` (things with `native_args()`: compounds of lexbor tag ids and attribute tests); else
    `reference`. The nodes it makes must be selectolax's own: the same node, parser, tag, attributes
    and text."""

    def native(ext: Any) -> NodeSelector:
        args: dict[Any, tuple[Any, ...]] = {}

        def scan(root: LexborNode, wanted: Any) -> list[LexborNode]:
            return ext.select(root, _told(args, wanted))  # type: ignore[no-any-return]

        return scan

    def check(ext: Any) -> str | None:
        if problem := _tree_reading_off():
            return problem
        sample = LexborHTMLParser("<html><head></head><body></body></html>")
        assert sample.body is not None
        ext.configure_nodes(sample.body, sample.body.mem_id, sample)
        scan = native(ext)
        pages = _tree_canaries(SELECT_CANARIES, " class=author itemprop=x")
        for tree, root in _canary_roots(pages, len(SELECT_CANARIES)):
            for wanted in lists:
                got, want = scan(root, wanted), reference(root, wanted)
                if [_seen(n) for n in got] != [_seen(n) for n in want]:
                    return f"selected elements differ on a canary: {got} != {want}"
                if any(g.parser is not tree for g in got):
                    return "a selected node is not of the page's parser"
        return None

    off = "native selection of elements off, lexbor's CSS scan runs"
    return _chosen("select", off, reference, check, native)


# _native.select_metas(root, compounds, ...): select()'s nodes, a <meta> as (key, content) (meta/collect.py).
MetaScanner = Callable[[LexborNode, Any], list[Any]]
# Pages of <meta> elements read in every way the keys are made: each of the four key attributes, empty ones
# passed over, valueless and empty contents, keys in any case with whitespace of every kind around them,
# schema.org's prefixes (with further slashes and colons), keys whose lower case is ASCII only beyond it
# ("İ", the Kelvin sign), keys longer than the C buffer, repeated attributes, a <meta> in SVG, a <meta>
# named by several compounds, and keys the tables do not read.
META_CANARIES = (
    '<meta property="og:title" content="T"><meta name=" Description\t" content=""><meta name=x content>'
    '<meta property="" name="AUTHOR" content="a"><meta itemprop="schema:datePublished" content="2020-01-02">'
    '<meta http-equiv="Last-Modified" content="Tue, 03 Mar 2020"><meta name="viewport" content="w">'
    '<meta property="https://schema.org/a:dateModified" content="2020-03-04"><meta content="no key">'
    '<meta name="\u212aeywords" content="k"><meta name="\u0130mage" content="i"><meta name="og:image">'
    '<meta name="\x1cdate\x1f\u3000" content="2019-01-01"><meta name="\u00a0date" content="2019-01-02">'
    '<meta name="date" name="x" content="c1" content="c2"><svg><meta name="date" content="2018-05-06"></svg>'
    '<meta itemprop="datePublished" property="article:published_time" content="2017-01-01" class=author>'
    '<meta name="' + "k" * 300 + '" content="long"><meta property="Schema:Headline" content="h">'
    '<meta name="http://schema.org/" content="e"><meta name="SCHEMA:" content="f"><title>t</title>'
    '<span itemprop="name">n</span><span itemprop="DatePublished" content="2020-01-01">d</span><p itemprop>'
    '<p itemprop="">e</p><time itemprop="x">t</time><h1 itemprop="name">h</h1><div itemprop="\u0130author">'
    '</div><div itemprop="AUTHOR" itemprop="x" class=author>a</div><i itemprop=" author">s</i><b itemprop='
    '"headline">h</b><b itemprop="x" property="og:title" content="c">p</b><span itemprop="' + "x" * 70 + '">',
)


def meta_scanner(
    reference: MetaScanner,
    lists: tuple[Any, ...],
    meta_id: int,
    wanted: frozenset[str],
    prefixes: tuple[str, ...],
    normalize: Callable[[str], str],
    by_tag: tuple[int, ...],
    itemprops: frozenset[str],
) -> MetaScanner:
    """The C scan of a selector list that reads <meta> elements itself and leaves out elements not of
    `by_tag` whose itemprop is none of `itemprops`, if it equals `reference` on the canaries (in the
    page's head, body and root, in quirks, limited-quirks and standards mode) for each of `lists`; else
    `reference`. Its nodes are compared as selector()'s are, its (key, content) pairs as they are."""
    told_prefixes = tuple(p.encode("ascii") for p in prefixes)

    def native(ext: Any) -> MetaScanner:
        args: dict[Any, tuple[Any, ...]] = {}

        def scan(root: LexborNode, selector: Any) -> list[Any]:
            told = _told(args, selector)
            return ext.select_metas(  # type: ignore[no-any-return]
                root, told, meta_id, wanted, told_prefixes, normalize, by_tag, itemprops
            )

        return scan

    def seen(items: list[Any]) -> list[Any]:
        return [item if isinstance(item, tuple) else _seen(item) for item in items]

    def check(ext: Any) -> str | None:
        if _STATUS.get("select") != "native":
            return f"the C selection of elements is off: {_STATUS.get('select')}"
        scan = native(ext)
        pages = _tree_canaries(META_CANARIES + SELECT_CANARIES, " class=author itemprop=x")
        head = "<head>" + META_CANARIES[0] + "</head>"
        pages = [page.replace("<head></head>", head) for page in pages]
        for _, root in _canary_roots(pages, len(META_CANARIES + SELECT_CANARIES)):
            for wanted_list in lists:
                got, want = scan(root, wanted_list), reference(root, wanted_list)
                if seen(got) != seen(want):
                    return f"scanned elements differ on a canary: {got} != {want}"
        return None

    off = "native reading of <meta> elements off, the Python dispatch reads them"
    return _chosen("metas", off, reference, check, native)


def _seen(node: LexborNode) -> tuple[int, str | None, dict[str, str | None], str, int]:
    """What selectolax says of a node: its address, tag, attributes, text and parent's address."""
    return node.mem_id, node.tag, node.attributes, node.text(deep=True), _address(node.parent)


# The text of a node without its marked elements' (meta/marked.py's unmarked_text): (root, marks) -> text.
Unmarker = Callable[[LexborNode, Any], str]
# Pages whose skipped texts test every rule of the cuts: a text also written before its element (cut
# there: str.find's first occurrence), texts shorter than the minimum, nested marked elements, text split
# over nodes and comments, whitespace of every kind at the cuts, non-ASCII text.
UNMARK_CANARIES = (
    "<p>var x = 1;</p><script>var x = 1;</script><style>p{}</style><b>bold <p>para</p></b>x\u3000y "
    "<noscript><p>no script</p></noscript><svg><style>svg style</style><script>q</script></svg>"
    "<template>t</template><p> \u00a0über\n漢字 😀 </p><!-- c --><p></p><b>1234567</b><b>12345678</b>"
    "<p>12345678 again</p> tail\u2028",
)


def unmarker(reference: Unmarker, marks: tuple[Any, ...], min_chars: int) -> Unmarker:
    """The C text without marked elements' if it equals `reference` on the canaries for each of `marks`
    (things with `native_args()`; tags alone: words in class or id are for `marker`), from every element
    of the canaries; else `reference`. Text that is not valid UTF-8 is left to `reference`."""

    def native(ext: Any) -> Unmarker:
        args: dict[Any, tuple[int, ...]] = {}

        def text(root: LexborNode, wanted: Any) -> str:
            tag_ids = args.get(wanted)
            if tag_ids is None:
                tag_ids, in_class, in_id = wanted.native_args()
                if in_class or in_id:
                    raise ValueError(f"only tags are cut out of a text, not {wanted}")
                args[wanted] = tag_ids
            got = ext.unmarked_text(root.mem_id, tag_ids, min_chars)
            return reference(root, wanted) if got is None else got

        return text

    def check(ext: Any) -> str | None:
        if problem := _tree_reading_off():
            return problem
        ours = native(ext)
        for page in _tree_canaries(UNMARK_CANARIES):
            body = LexborHTMLParser(page).body
            assert body is not None
            for node in _nodes(body):
                for wanted in marks:
                    got, want = ours(node, wanted), reference(node, wanted)
                    if got != want:
                        return f"text without marked elements differs on a canary: {got!r} != {want!r}"
        return None

    off = "native text without marked elements off, the Python cuts run"
    return _chosen("unmarked", off, reference, check, native)


# Whether an ancestor's class or id names something (meta/collect.py's _in_comment): node -> bool.
AncestorMarker = Callable[[LexborNode], bool]
# Pages of elements below ancestors named in every way the test reads them: in class or id, in any case,
# inside other words, further up than the depth, on the root and past it, next to characters whose
# lower case is ASCII ("İ", "K").
ANCESTOR_CANARIES = (
    '<div class="x-COMMENT-list"><p><time>1</time></p></div><ul id="Comments"><li><time>2</time></li></ul>'
    '<div class="comment"><div><div><div><div><div><div><time>deep</time></div></div></div></div></div></div>'
    '</div><p class="İ comm ent" id="x"><b class>3</b></p><p id="Kcomment"><i>4</i></p>',
)


def ancestor_marker(reference: AncestorMarker, words: tuple[str, ...], depth: int) -> AncestorMarker:
    """The C test of the `depth` nearest ancestors' class and id for `words` if it equals `reference` from
    every node of the canaries (in documents whose root is named too); else `reference`. Words must be
    ASCII letters that str.lower makes from no other character (none of "k" (from the Kelvin sign) and
    "i" (from "İ", with a combining dot after it) at a word's end), or the reference runs."""
    told = tuple(w.encode("ascii") for w in words if w.isascii())

    def native(ext: Any) -> AncestorMarker:
        def marked(node: LexborNode) -> bool:
            return ext.in_marked_ancestor(node.mem_id, depth, told)  # type: ignore[no-any-return]

        return marked

    def check(ext: Any) -> str | None:
        if problem := _tree_reading_off():
            return problem
        if len(told) != len(words) or any(
            not w or w != w.lower() or b"k" in w or w.endswith(b"i") for w in told
        ):
            return f"words the C test cannot read as str.lower does: {words}"
        ours = native(ext)
        for page in _tree_canaries(ANCESTOR_CANARIES, ' class="comment-body"'):
            tree = LexborHTMLParser(page.replace("<html>", '<html id="comments">'))
            assert tree.root is not None
            for node in _nodes(tree.root):
                if ours(node) != reference(node):
                    return f"ancestors' marks differ on a canary below {node.parent}"
        return None

    off = "native test of ancestors' class and id off, the Python test runs"
    return _chosen("ancestors", off, reference, check, native)


# A walk from the headline (header.py): (node, limit) -> the text after or before it.
HeaderWalk = Callable[[LexborNode, int], str]
# Pages around a headline: text split over nodes and comments, skipped and stopping elements at every
# depth, whitespace of every kind, a title with a dateline of its own, and more nodes than the walks
# visit (the empty items of a menu).
HEADER_CANARIES = (
    '<nav><a>Home</a></nav><p>Jan 18, 2019 | <b>Politics</b></p><h1 class="title">The  title<small>'
    " 02.02.2022</small></h1><div><p>By <a>Jane</a>\u00a0Doe<!-- c --> | March\n3, 2020</p><script>x"
    "</script><style>p{}</style><svg><text>no</text></svg><noscript>ns</noscript><template>t</template>"
    "<p>\u3000 </p><p>über 漢字 😀 text that goes on and on</p></div>",
    "<ul>" + "<li></li>" * 410 + "</ul><h1>Menu title</h1>" + "<p></p>" * 410 + "<p>far 1.2.2020</p>",
    "<h1>alone</h1>",
    "<div><div><h1></h1></div></div>x<h1>a<b>b</b></h1><p>  </p>tail",
)
# Limits of the check: none, one character, a word; then each walk's shipped limit, the one it is called
# with (header_walks' `limits`). Each walk at the other's limit too (150 and 500) gave the same text as at
# its own from every node of every canary (none has 150 characters within the walks' reach): 17 million
# instructions of one page's `clean` for no other comparison (callgrind).
_HEADER_LIMITS = (0, 1, 7)


def header_walks(
    after: HeaderWalk,
    before: HeaderWalk,
    max_nodes: int,
    skipped: tuple[int, ...],
    stops: tuple[int, ...],
    limits: tuple[int, int],
) -> tuple[HeaderWalk, HeaderWalk]:
    """The C walks from the headline if they equal `after` and `before` from every element of the canaries
    (walking at most `max_nodes` steps, into no element of `skipped`, out of none of `stops`; each at the
    small limits and at its own of `limits`, the one the pipeline calls it with); else those."""

    def native(ext: Any) -> tuple[HeaderWalk, HeaderWalk]:
        # A text that is not valid UTF-8 (None from C) is left to the Python walk, as selectolax decodes it.
        def walk_after(node: LexborNode, limit: int) -> str:
            got = ext.header_text(node.mem_id, True, limit, max_nodes, skipped, stops)
            return after(node, limit) if got is None else got

        def walk_before(node: LexborNode, limit: int) -> str:
            got = ext.header_text(node.mem_id, False, limit, max_nodes, skipped, stops)
            return before(node, limit) if got is None else got

        return walk_after, walk_before

    def check(ext: Any) -> str | None:
        if problem := _tree_reading_off():
            return problem
        walks = native(ext)
        for i, html in enumerate(_tree_canaries(HEADER_CANARIES)):
            body = LexborHTMLParser(html).body
            assert body is not None
            nodes = list(_nodes(body))
            # The small limits test where a walk stops and cuts, which HEADER_CANARIES are made for; the
            # segmentation's pages after them add kinds of node, which the walks at the shipped limits
            # start from and pass through (at the small limits too: 16 million more instructions of one
            # page's `clean`, callgrind).
            small = _HEADER_LIMITS if i < len(HEADER_CANARIES) else ()
            # From every node of a small page; from its headline on the page longer than the walks.
            for node in nodes if len(nodes) < 100 else body.css("h1"):
                for ours, reference, shipped in zip(walks, (after, before), limits, strict=True):
                    for limit in (*small, shipped):
                        got, want = ours(node, limit), reference(node, limit)
                        if got != want:
                            return f"header text differs on a canary: {got!r} != {want!r}"
        return None

    off = "native walks from the headline off, the Python walks run"
    return _chosen("header", off, (after, before), check, native)


def guard_scans(
    scan: Scan,
    nesting_counts: NestingCounts,
    count_attributes: CountAttributes,
    long_tag: int,
    step: int,
    voids: tuple[str, ...],
    formatting: tuple[str, ...],
    spellings: tuple[str, ...],
) -> tuple[Scan, NestingCounts, CountAttributes]:
    """The C scans of the guard if they equal the Python ones on the canaries; else the Python ones."""
    if _native is None:
        _STATUS["guard"] = _NOT_BUILT
        return scan, nesting_counts, count_attributes
    ext = _native

    def scans(markup: str) -> tuple[int, list[tuple[int, int]]]:
        return ext.scan(markup, long_tag, step)

    def counts(markup: str) -> tuple[int, int, int]:
        return ext.nesting_counts(markup, voids, formatting, spellings)

    def check() -> str | None:
        problem = None
        for markup in GUARD_CANARIES:
            wide = {markup.replace("x", c) for c in ("\u00e9", "\u4e00", "\U0001f600")} - {markup}
            for text in (markup, *sorted(wide)):
                # The nesting counts on a head and a tail of the long canaries (NESTING_SAMPLE_CHARS),
                # in every storage kind; the scans on the whole canaries.
                sample = _nesting_sample(text)
                if scans(text) != scan(text) or counts(sample) != nesting_counts(sample):
                    problem = f"guard scans differ on {text[:40]!r}"
        for text in ATTRIBUTE_CANARIES:
            for start, close in ((0, len(text)), (1, len(text) - 1), (3, 7)):
                if ext.count_attributes(text, start, close) != count_attributes(text, start, close):
                    problem = f"attribute counts differ on {text[start:close][:40]!r}"
        return problem

    if not _passes("guard", "native guard scans off, the Python ones run", check):
        return scan, nesting_counts, count_attributes
    return scans, counts, ext.count_attributes


def _chosen(
    stage: str, off: str, reference: F, check: Callable[[Any], str | None], native: Callable[[Any], F]
) -> F:
    """`native(extension)` when the extension is built and `check(extension)` passes (see _passes); else
    `reference`."""
    if _native is None:
        _STATUS[stage] = _NOT_BUILT
        return reference
    ext = _native
    return native(ext) if _passes(stage, off, lambda: check(ext)) else reference


IdentFlags = Callable[[list[str], list[str]], bytes]


# Where a table word stands in a class (_ident_canaries).
IDENT_SHAPES = ("{}", "{}x", "x-{}", "x_{}", "{}-x", "{}_x", "X{}", "{}-", "-{}", "a b-{}-c", "{}\x1c{}")
# The readings of a word in a shape: alone as the class, as the id, upper-cased, after another word with a
# post's id, beyond ASCII (the C code asks flags_of instead of reading the tables).
IDENT_READINGS: tuple[Callable[[str], tuple[str, str]], ...] = (
    lambda text: (text, ""),
    lambda text: ("", text),
    lambda text: (text.upper(), "row"),
    lambda text: ("col " + text, "post-4711"),
    lambda text: (text.replace("a", "\u00e4"), "menu"),
)


def _ident_canaries(tables: tuple[frozenset[str] | tuple[str, ...], ...]) -> list[tuple[str, str]]:
    """(class, id) pairs that exercise every table word in every place the rules look at it."""
    words = sorted({w for table in tables for w in table})
    shapes, readings = IDENT_SHAPES, IDENT_READINGS
    out = [("", ""), (" ", ""), ("", "Post-12"), ("post-", "post-1a"), ("POST-7 Nav", ""), ("Ünï-nav", "x")]
    # Every word in two shapes, every shape with many words (all words in all shapes cost 20 ms at
    # import); the tests compare both paths on generated and shared pages. A word's own part of the C
    # code is its table lookup, which every reading but the last makes; the readings are otherwise the
    # same code for every word, so each word-shape takes one of them in turn: a word's two are next to
    # each other in IDENT_READINGS, never both the last, and every table meets every reading
    # (tests/unit/test_native.py). All five readings of every word-shape: 70 million more instructions
    # of one page's `clean` (callgrind).
    for i, w in enumerate(words):
        for k, shape in enumerate((shapes[i % len(shapes)], shapes[(i * 7 + 3) % len(shapes)])):
            out.append(readings[(2 * i + k) % len(readings)](shape.format(w, w)))
    return out


def ident_flagger(
    bits: tuple[int, int, int, int, int, int],
    tables: tuple[frozenset[str] | tuple[str, ...], ...],
    flags_of: Callable[[str, str], int],
    reference: IdentFlags,
) -> IdentFlags:
    """The C class/id flags if they equal the Python ones on the canaries; else the Python ones."""

    def check(ext: Any) -> str | None:
        ext.configure_idents(bits, tuple(tuple(sorted(t)) for t in tables), flags_of)
        pairs = _ident_canaries(tables)
        classes, ids = [c for c, _ in pairs], [i for _, i in pairs]
        got, want = ext.ident_flags(classes, ids), reference(classes, ids)
        for pair, g, w in zip(pairs, got, want, strict=True):
            if g != w:
                return f"class/id flags differ on {pair!r}: {g} != {w}"
        return None

    off = "native class/id flags off, the Python code runs"
    return _chosen("idents", off, reference, check, lambda ext: ext.ident_flags)


StopHits = Callable[[list[str]], tuple[list[int], list[int]]]
QualityCounts = Callable[[list[str], frozenset[str] | None, dict[str, float] | None], tuple[Any, ...]]
# Texts that exercise the tokenizers: cases, Unicode spaces and case mappings that change lengths, digits
# and symbols beyond ASCII, apostrophes inside words, the mark characters themselves.
TEXT_CANARIES = (
    "The Cat sat on the MAT, and it was über-happy: 12 cats!",
    "Der Hund und die Katze sind nicht hier. Aber wo?",
    "l’eau de la ville, c'est très « bon » — 3,5 € / kg…",
    "İstanbul\u2003ΣΟΦΟΣ σοφος\u00a0x\u1680y z\x1cw",
    "\x01\x02\x03 a'b ’c’ 'd' ½ ² ٣ ７ १२",
    "「これは日本語です。」 и это тоже по-русски, да?",
    "\ud800 lone \udfff surrogates; tabs\tand\nnewlines\r\x0b\x0c end.",
    "won't don’t it's ’tis rock’n’roll #hashtag @user https://ex.org/a?b=c&d=1",
    "a",
    "。",
)


def stop_hitter(lists_of: dict[str, tuple[int, ...]], nlangs: int, reference: StopHits) -> StopHits:
    """The C stopword counts if they equal the Python ones on the canaries; else the Python ones."""

    def native(ext: Any) -> StopHits:
        def hits(texts: list[str]) -> tuple[list[int], list[int]]:
            return ext.stop_hits(texts, lists_of, nlangs)  # type: ignore[no-any-return]

        return hits

    def check(ext: Any) -> str | None:
        texts = [*TEXT_CANARIES, " ".join(sorted(lists_of)), " ".join(sorted(lists_of)).upper()]
        got, want = native(ext)(texts), reference(texts)
        return None if got == want else f"stopword counts differ: {got} != {want}"

    off = "native stopword counts off, the Python code runs"
    return _chosen("stop_hits", off, reference, check, native)


def quality_counter(
    digits: str, symbols: str, apostrophes: str, marks: str, line_end: str, reference: QualityCounts
) -> QualityCounts:
    """The C quality counts if they equal the Python ones on the canaries; else the Python ones."""

    def check(ext: Any) -> str | None:
        ext.configure_tokens(digits, symbols, apostrophes, marks, line_end)
        texts = [*TEXT_CANARIES, symbols, apostrophes + digits + " x" + line_end]
        words = {w for t in texts for w in t.lower().replace("’", "'").split()}
        stoplist = frozenset(sorted(words)[::2])
        zipf = {w: 0.1 + len(w) / 3.0 for w in sorted(words)[::3]}
        for table, model in ((None, None), (stoplist, None), (None, zipf), (stoplist, zipf)):
            got, want = ext.quality_counts(texts, table, model), reference(texts, table, model)
            if got != want:
                return f"quality counts differ: {got} != {want}"
        return None

    off = "native quality counts off, the Python code runs"
    return _chosen("quality_counts", off, reference, check, lambda ext: ext.quality_counts)


PerText = Callable[[Any], list[Any]]


def quality_builder(cls: type, reference: PerText, canaries: Callable[[], list[Any]]) -> PerText:
    """The C per-text Quality (its slots filled directly) if it equals `reference` on the canaries' counts
    (quality.Counts); else the Python one."""
    members = tuple(cls.__dict__[f.name] for f in fields(cls))

    def native(ext: Any) -> PerText:
        def build(c: Any) -> list[Any]:
            columns = (
                c.words,
                c.nonspace,
                c.symbols,
                c.digits,
                c.tokens,
                c.stopwords,
                c.punctuated,
                c.zipf_sums,
            )
            return ext.qualities(*columns)  # type: ignore[no-any-return]

        return build

    def check(ext: Any) -> str | None:
        ext.configure_quality(cls, members)
        for counts in canaries():
            got, want = native(ext)(counts), reference(counts)
            if [type(q) for q in got] != [cls] * len(want) or got != want:
                return f"per-text qualities differ: {got} != {want}"
        return None

    off = "native per-text qualities off, the Python code runs"
    return _chosen("qualities", off, reference, check, native)


Instances = Callable[[tuple[list[Any], ...]], list[Any]]


def instances_maker(cls: type, reference: Instances, canaries: tuple[list[Any], ...]) -> Instances:
    """The C `reference` (one instance of `cls` per row of its columns, each field its column's value) if it
    makes the same instances as `reference` on the `canaries` columns, field by field (a field that takes no
    part in comparisons too); else `reference`. `cls` must be a slotted dataclass whose slots are its
    fields and whose __init__ only sets them (no __post_init__)."""
    names = tuple(f.name for f in fields(cls))
    members = tuple(cls.__dict__[name] for name in names)

    def native(ext: Any) -> Instances:
        def make(columns: tuple[list[Any], ...]) -> list[Any]:
            return ext.instances(cls, members, columns)  # type: ignore[no-any-return]

        return make

    def check(ext: Any) -> str | None:
        if tuple(cls.__dict__.get("__slots__", ())) != names or hasattr(cls, "__post_init__"):
            return f"{cls.__name__} is no slotted dataclass of its fields alone"
        got, want = native(ext)(canaries), reference(canaries)
        if len(got) != len(want):
            return f"{cls.__name__} instances differ in number: {len(got)} != {len(want)}"
        for g, w in zip(got, want, strict=True):
            if type(g) is not cls or any(getattr(g, n) is not getattr(w, n) for n in names):
                return f"{cls.__name__} instances differ: {g!r} != {w!r}"
        return None

    off = f"native {cls.__name__} instances off, the Python code runs"
    return _chosen(f"instances.{cls.__name__}", off, reference, check, native)


def instance_maker(cls: Callable[P, T], canary: tuple[Any, ...]) -> Callable[P, T]:
    """`cls(...)` made in C, its slots filled directly, with `cls`'s own signature (positional values in
    field order, keywords, the fields' plain defaults), if that makes the same instance as `cls` does of the
    `canary` values (every field, in field order), field by field (a field that takes no part in comparisons
    too); else `cls` itself. `cls` must be a slotted dataclass whose slots are its fields and whose __init__
    only sets them (no __post_init__; a field with a default_factory must be given): a frozen one's __init__
    sets each field through object.__setattr__ (~1,000 instructions a field, callgrind)."""
    kind = cast(type, cls)
    names = tuple(f.name for f in fields(kind))
    members = tuple(kind.__dict__[name] for name in names)
    # each field's default; `members` itself stands for none (the C code asks for the field then)
    defaults = tuple(members if f.default is MISSING else f.default for f in fields(kind))

    def native(ext: Any) -> Callable[P, T]:
        return functools.partial(ext.instance, kind, members, defaults)

    def check(ext: Any) -> str | None:
        if tuple(kind.__dict__.get("__slots__", ())) != names or hasattr(kind, "__post_init__"):
            return f"{kind.__name__} is no slotted dataclass of its fields alone"
        made = native(ext)
        got, want = made(*canary), cls(*canary)  # type: ignore[call-arg]
        named = made(**dict(zip(names, canary, strict=True)))  # type: ignore[call-arg]
        for one in (got, named):
            if type(one) is not kind or any(getattr(one, n) is not getattr(want, n) for n in names):
                return f"{kind.__name__} instances differ: {one!r} != {want!r}"
        return None

    off = f"native {kind.__name__} instances off, the Python code runs"
    return _chosen(f"instance.{kind.__name__}", off, cls, check, native)


QualityDict = Callable[[Any], dict[str, Any]]


def quality_dicter(
    cls: type, reference: QualityDict, rounding: tuple[float, float, float, Any]
) -> QualityDict:
    """The C render.quality_dict if it equals `reference` on canary values; else the Python one.
    `rounding`: render._rounded's scale, largest scaled value, distance to a half, and the function."""
    members = tuple(cls.__dict__[f.name] for f in fields(cls))
    values = (0.0, -0.0, 1.0005, 0.0005, -1e-12, 2.675, 1 / 3, 1e300, float("inf"), float("nan"), 5e-324)

    def check(ext: Any) -> str | None:
        ext.configure_quality(cls, members)
        ext.configure_quality_dict(*rounding)
        for v in values:
            for q in (
                cls(7, v, v, v, v, v, v),
                cls(1, v, 0.5, 0.25, None, 1.0, None),
                cls(2, 3, 1, 0, 1, 0, 2),
            ):
                got, want = ext.quality_dict(q), reference(q)
                if repr(got) != repr(want):  # types, signs of zeros and NaNs too
                    return f"quality dicts differ: {got} != {want}"
        return None

    off = "native quality dicts off, the Python code runs"
    return _chosen("quality_dict", off, reference, check, lambda ext: ext.quality_dict)


NativeScore = Callable[..., "tuple[Any, ...] | None"]
# Pages whose scores exercise every rule: marks by class, id and tag, comment sections, content containers,
# page-level classes, marks over most of the prose, link-dense and unpunctuated blocks, kinds.
SCORE_CANARIES = (
    '<div class="nav"><a href="/">Home</a> <a href="/a">About us</a></div><article><h1>Title</h1>'
    "<p>Long prose, with commas. And sentences!</p><blockquote>Quoted: yes</blockquote></article>"
    '<div id="comments"><p>A reader wrote this, politely.</p></div><footer>(c) 2024 Site</footer>',
    '<div class="sidebar"><p>Most of the page is here, marked, which is wrong. It goes on and on, at length.'
    '</p></div><div class="post-body entry-content"><p>Short text.</p></div><aside>Aside text</aside>',
    '<div class="main-content header"><ul><li>one item</li><li><a href="/x">link item</a></li></ul>'
    "<pre>code block here</pre><table><tr><td>cell, one</td></tr></table></div><nav><p>menu</p></nav>",
    "<p>こんにちは。これは日本語の文です！</p><p>" + "word " * 40 + "</p><div class='share'>Share: x</div>",
    # unspaced prose without marks (Thai, Japanese), a Latin run as long (no such script), script marks
    "<p>" + "\u0e01\u0e23\u0e38\u0e07\u0e40\u0e17\u0e1e" * 4 + " \u0e1d\u0e19</p>"
    "<p>東京では今朝から強い雨が降り続いています</p><p>AllThingsDigital_Telecommunications</p>"
    "<p>alpha beta\u17d4 gamma</p><p>alpha\u104b beta</p><p>漢字かなカナ and Latin, mixed.</p>",
    # a link density of 8/41, whose (1 - ld) ** 2 libm's pow and a plain square round apart
    "<p>" + "word " * 32 + '<a href="/">' + "link " * 8 + "</a>end.</p>",
    "",
)


def scorer(
    kind_weight: dict[str, float],
    max_ld: float,
    no_punct: float,
    punct: re.Pattern[str],
    mark_max_share: float,
    boost: float,
    marks_max_removed: float,
    unspaced: float,
    scripts: tuple[tuple[int, int], ...],
    dense: tuple[tuple[int, int], ...],
    dense_weight: float,
    bad_tags: tuple[str, ...],
    page_tags: tuple[str, ...],
    article: str,
    bits: tuple[int, int, int],
    reference: Callable[[Any, bytes], Any],
) -> NativeScore | None:
    """The C scoring if it equals `reference` on the canary pages; else None (the Python code runs)."""

    def check(ext: Any) -> str | None:
        from worker.clean import idents
        from worker.clean.segment import segment

        chars = _character_class(punct.pattern)
        if chars is None:
            return f"the sentence punctuation {punct.pattern!r} is no plain character class"
        ext.configure_score(
            kind_weight, max_ld, no_punct, chars, mark_max_share, boost, marks_max_removed, unspaced,
            _bounds(scripts), _bounds(dense), dense_weight, bad_tags, page_tags, article, bits,
        )  # fmt: skip
        pages = [*_canaries(hm.MAX_DEPTH, deep_too=False), *(f"<body>{b}</body>" for b in SCORE_CANARIES)]
        for html in pages:
            body = LexborHTMLParser(html).body
            assert body is not None
            seg = segment(body, Budget(float("inf")))
            flags = idents.ident_flags(seg.classes, seg.ids)
            want = reference(seg, flags)
            got = ext.score(
                seg.tags, seg.firsts, seg.ends, seg.skips, seg.owners, seg.texts, seg.kinds, seg.chars,
                seg.words, seg.link_chars, seg.link_words, flags,
            )  # fmt: skip
            if got is None or (*got, flags) != tuple(getattr(want, f.name) for f in fields(want)):
                return f"scores differ on {html[:60]!r}"
        return None

    off = "native scoring off, the Python code runs"
    return _chosen("score", off, None, check, lambda ext: cast(NativeScore, ext.score))


def model_stage(name: str, check: Callable[[Any], str | None]) -> Any:
    """The block model's C function `name` if `check` passes (the model's own comparison of it with its
    numpy code on canaries: this module does not import numpy); else None (numpy runs)."""
    off = f"native {name} off, numpy runs"
    return _chosen(name, off, None, lambda ext: check(getattr(ext, name)), lambda ext: getattr(ext, name))


def _bounds(ranges: tuple[tuple[int, int], ...]) -> str:
    """Code point ranges as the C code reads them: a str of each range's first and last character."""
    return "".join(chr(lo) + chr(hi) for lo, hi in ranges)


def _character_class(pattern: str) -> str | None:
    """The characters of a regex like "[.!?]" (no escapes, ranges or negation), None for other patterns."""
    inner = pattern[1:-1]
    plain = pattern.startswith("[") and pattern.endswith("]") and inner and not set("\\^-[]") & set(inner)
    return inner if plain else None


@contextmanager
def python_only() -> Iterator[None]:
    """Run the Python reference stages inside (tests and measurements compare both paths)."""
    from worker.clean import (
        classify,
        dom,
        fingerprint,
        guard,
        idents,
        kinds,
        lang,
        posts,
        quality,
        region,
        render,
        repeats,
        score,
        segment,
        sitememory,
        template,
    )
    from worker.clean.meta import collect, header, marked, select, text

    # (module, attribute, its Python reference): swapped in for the block, restored after it by name
    swaps: list[tuple[Any, str, Any]] = [
        (idents, "ident_flags", idents.ident_flags_python),
        (lang, "stop_hits", lang.stop_hits_python),
        (quality, "_counts", quality.count_python),
        (quality, "_per_text", quality.per_text_python),
        (render, "quality_dict", render.quality_dict_python),
        (score, "_accel", None),
        (segment, "_accel", None),
        (fingerprint, "_accel", None),
        (sitememory, "_count_page", sitememory._count_page_python),
        (sitememory, "_template", sitememory._template_python),
        (sitememory, "_prune", sitememory._prune_python),
        (sitememory, "_page_positions", sitememory._page_positions_python),
        (sitememory, "_kept_positions", sitememory._kept_positions_python),
        (template, "_slot_blocks", template._slot_blocks_python),
        (template, "_template_strips", template._template_strips_python),
        (template, "stable_path", segment.stable_path_python),
        (region, "stable_path", segment.stable_path_python),
        (guard, "_scan", guard._scan_python),
        (guard, "_nesting_counts", guard._nesting_counts_python),
        (guard, "_count_attributes", guard._count_attributes_python),
        (marked, "marked", marked.marked_python),
        (marked, "unmarked_text", marked.unmarked_text_python),
        (header, "_after", header._after_python),
        (header, "_before", header._before_python),
        (select, "select", select.select_python),
        (collect, "_in_comment", collect.in_comment_python),
        (collect, "scan", collect.scan_python),
        (dom, "utf8", dom.utf8_python),
        (text, "_date_starts", text.date_starts_python),
        (dom, "head_unread", dom.head_unread_python),
        (segment, "_cut_blocks", segment.cut_blocks_python),
        (classify, "_decide", classify.decide_python),
        (repeats, "_repeats", repeats.repeats_python),
        (classify, "_repeated_quotes", classify.repeated_quotes_python),
        (posts, "indexes", segment.indexes_python),
        (kinds, "indexes", segment.indexes_python),
    ]
    # the block model's modules, loaded with it only (they need numpy)
    names = ("worker.clean.model.trees", "worker.clean.model.features")
    swaps += [(m, name, None) for m in map(sys.modules.get, names) if m is not None for name in m._NATIVE]
    saved = [(module, name, getattr(module, name)) for module, name, _ in swaps]
    for module, name, reference in swaps:
        setattr(module, name, reference)
    try:
        yield
    finally:
        for module, name, value in saved:
            setattr(module, name, value)


def _configure(t: SegmentTables) -> None:
    assert _native is not None
    kinds = (t.default_kind, *sorted(set(t.kind_by_id.values()) - {t.default_kind}))
    _native.configure(
        _lexbor.__file__,
        t.text_id,
        t.a_id,
        t.br_id,
        t.block_names,
        t.void_ids,
        t.skip_ids,
        {tag_id: kinds.index(kind) for tag_id, kind in t.kind_by_id.items()},
        kinds,
        t.max_depth,
        t.every,
        t.hidden_class,
        t.hidden_style,
        tuple(hint.encode("ascii") for hint in t.class_hints),
        TooManyNodes,
    )


# Canary pages: every branch of the walk (block, inline, void, skipped and custom elements, hidden ones by
# attribute, style and class, <br> runs, links, whitespace and text beyond ASCII, subtrees deeper than
# MAX_DEPTH, which _canaries() adds).
CANARIES = (
    '<div id="main" class="post entry"><h1>Title\u00a0here</h1><p>First <b>bold</b><i>it</i> end,'
    ' <a href="/x">a link</a><a href="/y">another</a>.</p>tail text<ul><li>one</li><li> two <br> half'
    "<br><br>three</li></ul></div>",
    "<table><tr><th>Head</th><td>cell \u3000 wide\u2003space</td></tr></table><pre>  code\n  kept"
    "</pre><blockquote>quoted</blockquote><dl><dt>term</dt><dd>def</dd></dl>",
    '<div hidden>gone</div><p aria-hidden="TRUE">gone</p><p aria-hidden="false">kept</p>'
    '<div style="COLOR: red; Display : NONE">gone</div><div style="visibility:hidden">gone</div>'
    '<div style="color:red">kept</div><div class="x sr-only">gone</div><div class="Hidden">gone</div>'
    '<div class="HIDDEN">kept</div><span style="display:none">gone</span><br hidden><p>after</p>',
    "<p>a<script>b()</script>c<style>p{}</style><!-- comment --></p><noscript>no</noscript>"
    "<svg><text>svg</text></svg><select><option>opt</option></select><button>btn</button>"
    '<textarea>ta</textarea><iframe src="x"></iframe><p>x<img alt="alt">y<wbr>z<input value="v"></p>',
    '<my-widget data-x="1">custom <foo-bar>text</foo-bar></my-widget><foo>unknown</foo>'
    '<a href="/"><div>block in a link</div>tail</a><p>über 漢字 😀 Ωmega</p><p>&#0;nul&amp;</p>',
    '<section CLASS="a b" ID="c" data-y title><article><header>h</header><p>x</p><footer>f</footer>'
    '<p id="post-4711" class="x Y">n</p></article></section>\n\t <center>c</center><form><fieldset>'
    "<legend>l</legend></fieldset></form>",
)


def _canaries(max_depth: int, deep_too: bool = True) -> list[str]:
    """The canary pages; the last one nests deeper than max_depth (when deep_too)."""
    deep = (
        "<div>" * (max_depth + 3)
        + '<span>deep <a href="/">link</a><br>x<br><br>y<div hidden>no</div><p>block</p></span>'
        + "</div>" * (max_depth + 3)
        + "<p>" + "<b>" * (max_depth + 3) + "inline <a>deep</a><br>run" + "</b>" * (max_depth + 3) + "</p>"
    )  # fmt: skip
    bodies = (*CANARIES, deep) if deep_too else CANARIES
    return [f"<html><head><title>t</title></head><body>{body}</body></html>" for body in bodies]


def _nodes(node: LexborNode) -> Iterator[LexborNode]:
    """`node` and its descendants, in document order (no recursion: canaries nest deeper than Python)."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        kids = []
        kid = node.first_child
        while kid is not None:
            kids.append(kid)
            kid = kid.next
        stack.extend(reversed(kids))


def _address(node: LexborNode | None) -> int:
    return node.mem_id if node is not None else 0


def _check_layout(t: SegmentTables) -> str | None:
    """Every node below <body> of the canaries, read by the C code, against selectolax's accessors (the
    deep canary adds no kind of node, only depth)."""
    assert _native is not None
    for html in _canaries(t.max_depth, deep_too=False):
        body = LexborHTMLParser(html).body
        assert body is not None
        for node in _nodes(body):
            tag_id, kind, *links = _native.node(node.mem_id)
            want = [node.next, node.prev, node.parent, node.first_child, node.last_child]
            if tag_id != node.tag_id or links != [_address(n) for n in want]:
                return f"node layout: {node.tag} read as tag id {tag_id}, links {links}"
            if (kind == 1) != node.is_element_node or (kind == 3) != node.is_text_node:
                return f"node layout: {node.tag} read as node type {kind}"
            if node.is_text_node:
                text = node.text_content or ""
                data = _native.text(node.mem_id, len(text.encode("utf-8")))
                if data is None or data.decode("utf-8", "replace") != text:
                    return f"text layout: {text[:40]!r} read as {data[:40]!r}" if data else "text layout"
            elif node.is_element_node:
                attrs = [
                    (k.decode("utf-8", "replace"), None if v is None else v.decode("utf-8", "replace"))
                    for k, v in _native.attributes(node.mem_id)
                ]
                if attrs != list(node.attributes.items()):
                    return f"attributes of {node.tag}: {attrs} against {node.attributes}"
    return None


def _check_segment(t: SegmentTables, segmentation: type[Any], reference: Callable[..., Any]) -> str | None:
    """The C walk against the Python walk on every canary, field by field, and under the node limit (on
    the deep canary, whose flat reading counts nodes as well)."""
    assert _native is not None
    names = tuple(f.name for f in fields(segmentation))
    if names != _native.FIELDS:
        return f"the C walk yields {_native.FIELDS}, the Segmentation has {names}"
    for html in _canaries(t.max_depth):
        body = LexborHTMLParser(html).body
        assert body is not None
        want = reference(body, Budget(float("inf")))
        got = _native.segment(body.mem_id, body.tag or "body", False, Budget(float("inf")), 1 << 62)
        if got is None:
            return "a canary's text read as invalid UTF-8"
        for name, value in zip(names, got, strict=True):
            if value != getattr(want, name):
                return f"{name} differs on a canary: {value!r} against {getattr(want, name)!r}"
    limit = t.max_depth + 2  # reached inside the deep canary's flat reading
    deep = body  # the last canary's
    assert deep is not None
    outcomes = []
    for walk in (
        lambda: reference(deep, Budget(float("inf")), limit),
        lambda: _native.segment(deep.mem_id, deep.tag or "body", False, Budget(float("inf")), limit),
    ):
        try:
            walk()
            outcomes.append("")
        except TooManyNodes as exc:
            outcomes.append(str(exc))
    if outcomes[0] != outcomes[1] or not outcomes[0]:
        return f"node limit {limit}: {outcomes[1]!r} against {outcomes[0]!r}"
    return None


def _check_fingerprint(
    reference: Callable[..., Any], text_hash: Callable[[str], int], segment: Callable[..., Any]
) -> str | None:
    """The C fingerprints against the Python ones on every canary page and text."""
    assert _native is not None
    texts = list(HASH_CANARIES)
    got = _native.text_hashes(texts)
    want = [text_hash(t) for t in texts]
    if got != want:
        return f"text hashes {got} against {want}"
    for html in _canaries(hm.MAX_DEPTH, deep_too=False):
        body = LexborHTMLParser(html).body
        assert body is not None
        seg = segment(body, Budget(float("inf")))
        fps = reference(seg)
        result = _native.fingerprint(
            seg.texts, seg.tags, seg.classes, seg.ids, seg.parents, seg.firsts, seg.ends
        )
        expected = (fps.elems.tobytes(), fps.text_fps.tobytes(), fps.elem_paths.tobytes())
        if result is None or result != expected:
            return f"fingerprints differ on a canary: {result} against {expected}"
    return None
