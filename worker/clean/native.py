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

import logging
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Any

from selectolax import lexbor as _lexbor
from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import heuristics as hm
from worker.clean.options import Budget, TooManyNodes

log = logging.getLogger(__name__)

try:
    from worker.clean import _native
except ImportError as exc:  # not built: the pure-Python core runs
    _native = None  # type: ignore[assignment]  # (the stub types the module as always there)
    _NOT_BUILT = f"not built ({exc})"

# Stage -> "native", or why it runs in Python.
_STATUS: dict[str, str] = {}


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


# _native.fingerprint(texts, tags, classes, ids, parents, firsts, ends): (elems, text_fps), or None when the
# columns are not a segmentation's.
NativeFingerprint = Callable[
    [list[str], list[str], list[str], list[str], list[int], list[int], list[int]],
    tuple[list[int], list[int], list[int]] | None,
]


# Texts whose normalised hashes are compared at import: digits of other scripts, capitals beyond ASCII
# (only ASCII is case-folded), characters of every UTF-8 length, a lone surrogate (surrogatepass).
HASH_CANARIES = (
    "Page 9 of 12, 2024",
    "ÜBER Straße ١٢٣ ۴۵ ߁ x",
    "ΣΊΣΥΦΟΣ ǅ",
    "漢字 ｱ １２ 😀 \ud800",
    "",
    "0",
)


def fingerprinter(
    signature_hash: Callable[[tuple[str, str, str]], int],
    base: int,
    memo_max: int,
    stable_ascii: str,
    reference: Callable[..., Any],
    text_hash: Callable[[str], int],
    segment: Callable[..., Any],
) -> NativeFingerprint | None:
    """The C fingerprints, if they equal `reference` (and `text_hash`) on the canaries."""
    if _native is None:
        _STATUS["fingerprint"] = _NOT_BUILT
        return None
    ext = _native

    def check() -> str | None:
        ext.configure_fingerprint(signature_hash, base, memo_max, stable_ascii)
        return _check_fingerprint(reference, text_hash, segment)

    ok = _passes("fingerprint", "native fingerprints off, the Python code runs", check)
    return ext.fingerprint if ok else None


def clear_memo() -> None:
    """Forget the C fingerprints' memoised signature hashes (fingerprint.clear_memo)."""
    if _native is not None:
        _native.clear_memo()


CountPage = Callable[["array[int]", "array[float]", "set[int] | frozenset[int]", float], "array[int]"]
TemplateSet = Callable[["array[int]", "array[float]", float], frozenset[int]]
Prune = Callable[["array[int]", "array[float]", int], "tuple[array[int], array[float]]"]


def memory_counters(
    count_page: CountPage, template: TemplateSet, prune: Prune
) -> tuple[CountPage, TemplateSet, Prune]:
    """The C counting of a page into a site's arrays, template set and pruning, if they equal the Python
    ones on canary arrays (counts that round in float32 and tie, a fingerprint tracked twice, fingerprints
    at both ends of the 64-bit range); else the Python ones."""
    if _native is None:
        _STATUS["memory"] = _NOT_BUILT
        return count_page, template, prune
    off = "native site memory counts off, the Python ones run"
    if not _passes("memory", off, lambda: _check_memory(count_page, template, prune)):
        return count_page, template, prune
    return _native_count_page, _native.template_set, _native_prune


def _check_memory(count_page: CountPage, template: TemplateSet, prune: Prune) -> str | None:
    fps = [0, 1, 2**63, 2**64 - 1, 12345678901234567, 7, 7, *range(1000, 1600, 3)]
    pages: tuple[set[int] | frozenset[int], ...] = (
        {1, 2**64 - 1, 7, 5, 2**63 + 1, *range(1200, 1700, 5)},
        set(),
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


def _native_count_page(
    fps: array[int], counts: array[float], page: set[int] | frozenset[int], unit: float
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


ProbeRuns = Callable[[str], list[tuple[int, int]]]
NestingCounts = Callable[[str], tuple[int, int]]

# Markup for the guard's scans: long tags and runs without `>`, `<` or both, end tags and options across
# chunk boundaries; each also with characters beyond Latin-1 (the other two storage kinds of a str).
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
)


def guard_scans(
    probe_runs: ProbeRuns,
    nesting_counts: NestingCounts,
    long_tag: int,
    step: int,
    chunk: int,
    spellings: tuple[str, ...],
) -> tuple[ProbeRuns, NestingCounts]:
    """The C scans of the guard if they equal the Python ones on the canaries; else the Python ones."""
    if _native is None:
        _STATUS["guard"] = _NOT_BUILT
        return probe_runs, nesting_counts
    ext = _native

    def runs(markup: str) -> list[tuple[int, int]]:
        return ext.probe_runs(markup, long_tag, step)

    def counts(markup: str) -> tuple[int, int]:
        return ext.nesting_counts(markup, chunk, spellings)

    def check() -> str | None:
        problem = None
        for markup in GUARD_CANARIES:
            for text in (
                markup,
                markup.replace("x", "\u00e9"),
                markup.replace("x", "\u4e00"),
                markup.replace("x", "\U0001f600"),
            ):
                if runs(text) != probe_runs(text) or counts(text) != nesting_counts(text):
                    problem = f"guard scans differ on {text[:40]!r}"
        return problem

    if not _passes("guard", "native guard scans off, the Python ones run", check):
        return probe_runs, nesting_counts
    return runs, counts


@contextmanager
def python_only() -> Iterator[None]:
    """Run the Python reference stages inside (tests and measurements compare both paths)."""
    from worker.clean import fingerprint, guard, segment, sitememory

    saved = (
        segment._accel,
        fingerprint._accel,
        sitememory._count_page,
        sitememory._template,
        sitememory._prune,
        guard._probe_runs,
        guard._nesting_counts,
    )
    segment._accel = fingerprint._accel = None
    sitememory._count_page = sitememory._count_page_python
    sitememory._template = sitememory._template_python
    sitememory._prune = sitememory._prune_python
    guard._probe_runs, guard._nesting_counts = guard._probe_runs_python, guard._nesting_counts_python
    try:
        yield
    finally:
        segment._accel, fingerprint._accel = saved[:2]
        sitememory._count_page, sitememory._template, sitememory._prune = saved[2:5]
        guard._probe_runs, guard._nesting_counts = saved[5:]


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
        expected = (fps.elems, fps.text_fps, fps.path_fps)
        if result is None or result != expected:
            return f"fingerprints differ on a canary: {result} against {expected}"
    return None
