"""Guards before the parser: what a page's markup will cost lexbor, bounded in linear time, and a flat
rewrite of the pages that would cost too much.

lexbor, like every HTML5 tree builder, does work that grows faster than its input on some markup, and a
parse runs in C where no budget check can stop it. Measured with selectolax 1.0.2 (one parse, n doubling
from 1,000 to 16,000; `.venv/bin/python scripts/parser_costs.py` prints the curves):

| markup                                        | what grows                              | cost           |
|-----------------------------------------------|-----------------------------------------|----------------|
| `<div>` x n (also ul/li, dl/dd, b+div, a+div) | scope checks walk the open elements     | 0.82 ns * n^2  |
| `<span>` x n, then `</i>` x n                 | "any other end tag" walks them too      | 2.0 ns * n^2   |
| `<b id=k>` x n (distinct attributes)          | Noah's Ark compares the formatting list | 3.1 ns * n^2   |
| `<select>`, then `<option>` x n               | lexbor's select handling                | 2.4 ns * n^2   |
| one tag with n distinct attributes            | the duplicate-attribute check           | 1.35 ns * n^2  |
| `<p>` + k `<b id=j>`, then `</p><p>x` x n     | every `<p>` rebuilds the k formatting   | k * n elements |

100,000 nested divs take 32 s; a 128 KB page of the last kind builds 4.1 million elements in 3.1 s.

The guard has to be cheap: one regex pass over a page costs ~0.25 ms, 15% of cleaning it, and `check`
costs ~0.03 ms (mean of the 2,610 benchmark pages). It works in tiers, C-speed until the page looks
dangerous:
1. Tags are counted (`<`), in one vectorised pass that also marks the stretches without `>` tier 2
   needs. Every quadratic row above needs many tags; with at most `SAFE_TAGS` no arrangement of them
   reaches MAX_WORK_NS (97% of the 2,610 benchmark pages stop here).
2. A tag with many attributes is the one danger that needs few tags; it needs a long run of markup
   without `>`, which a probe every ATTRIBUTE_PROBE_CHARS characters finds (C-speed `find`s, only where
   such a stretch is near). A run that may be in a tag (its `<` starts one, or an earlier `<` since the
   last `>` does) and is long enough to carry MAX_ATTRIBUTES attributes is counted exactly; past the
   limit, so are the attributes of the page's real tags (a comment or `i < n` in a script is no tag).
3. Pages with more tags get upper bounds from one pass over their `<`: a running count of open elements
   (every start tag opens one but the names void wherever they stand, every end tag closes one) and of
   active formatting entries, which bounds every walk the parser makes and the elements it builds,
   rebuilt formatting elements included; only when a bound is over its limit (1 of the 2,610 benchmark
   pages; it was 4 of them with a bound per 8 KB chunk that took every `<` for an element left open) is
   the page replayed (`shape`): a simplified HTML5 tree builder (open elements and their scopes, implied
   table rows, the active formatting list with Noah's Ark and reconstruction, foreign content) over a
   regex tokenizer, which estimates the elements, the deepest nesting and the superlinear work in ns.

What the tiers cannot see: markup written to hide its shape from them (end tags the parser ignores, a
quoted `>` inside a huge tag, formatting elements rebuilt by thousands of paragraphs on a page with
few tags: the last row above). Those pages are stopped by the element limit after parsing or by the
per-page deadline of the cleaning child, not here.

Past a limit the page is `flatten`ed rather than refused: its text and its paragraph, heading, list
item and link boundaries survive, nothing nests (each block is closed before the next opens), and
attributes and inline formatting go. lexbor parses the result in linear time whatever the input was.
Users lose the page's layout hints (classes, tables, menus) and the site's template for that page, not
its text; a dead letter would lose the text too, and such pages exist in the wild (generated markup
that never closes a tag, old `<font>` soup). A page with more start tags than `max_nodes` is refused
before parsing (`too_many_nodes`, the limit the parser's output would have hit anyway).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

from worker.clean import native

# --- limits, each from the measurements above -----------------------------------------------------

# Superlinear parser work a page may cause, in ns of the table above: the whole cleaning of about 20
# median pages (a 2 s time budget is 40x that), and 60x the most any of the 2,610 benchmark pages is
# estimated at (0.82 ms).
MAX_WORK_NS = 50_000_000
# Cost per unit of each mechanism (ns on the reference machine, from the table).
NS_PER_SCOPE_STEP = 1.6  # one open element walked by a scope check or an end tag (0.82 ns * n^2 / (n^2/2))
NS_PER_FORMATTING_STEP = 6.2  # one formatting-list entry compared by Noah's Ark
NS_PER_OPTION_STEP = 4.8  # one earlier option of the same <select>
WORST_NS_PER_TAG_PAIR = 3.1  # the dearest row of the table, per pair of tags
# With this many tags or fewer no arrangement reaches MAX_WORK_NS (3.1 ns * n^2).
SAFE_TAGS = math.isqrt(int(MAX_WORK_NS / WORST_NS_PER_TAG_PAIR))
# Deepest estimated nesting: real pages stay far below (the benchmark pages: median 16, max 51); a
# chain this deep costs lexbor 0.2 ms, and the cap bounds any walk the replay does not model.
MAX_DEPTH = 512
# Most attributes one tag may have: lexbor's duplicate check costs 1.35 ns * n^2, 0.35 ms here; real
# pages stay below 160 (the benchmark pages: max 151).
MAX_ATTRIBUTES = 512
# A tag with MAX_ATTRIBUTES attributes is at least this long (a separator and a name character each).
LONG_TAG_CHARS = 2 * MAX_ATTRIBUTES
# Distance between two probes for long tags: a tag no probe lands in is shorter, so costs lexbor at
# most 1.35 ns * (n/2)^2 for its n characters: 5 MB of such tags stay under 0.2 s.
ATTRIBUTE_PROBE_CHARS = LONG_TAG_CHARS

Action = Literal["parse", "flatten", "reject"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What `check` decided: parse the page as it is, parse `markup` (flattened), or reject it."""

    action: Action
    markup: str  # what to parse: the page itself or its flat rewrite ("" when rejected)
    reason: str = ""  # why it was flattened or rejected


# Verdict made in C (its slots filled directly), once native.py has checked it against its
# own __init__: the verdict of every page.
_new_verdict = native.instance_maker(Verdict, ("parse", "<p>x", ""))


def check(markup: str, max_nodes: int) -> Verdict:
    """The page to parse: `markup` itself, or its flat rewrite when lexbor would take superlinear time
    or build more than `max_nodes` elements on it; or a rejection when it has more start tags than that."""
    tags, runs = _scan(markup)
    if tags > max_nodes:
        starts = tags - markup.count("</")
        if starts > max_nodes:
            return Verdict("reject", "", f"{starts} start tags > limit {max_nodes} (before parsing)")
    if runs and max(_count_attributes(markup, start, close) for start, close in runs) > MAX_ATTRIBUTES:
        attributes = most_attributes(markup)  # the probe can land in a script: count real tags only
        if attributes > MAX_ATTRIBUTES:
            return Verdict("flatten", flatten(markup), f"a tag with {attributes} attributes")
    if tags <= SAFE_TAGS or _nesting_bound_ok(markup, max_nodes):
        return _new_verdict("parse", markup)
    found = shape(markup, max_nodes)
    if found.over is None:
        return Verdict("parse", markup)
    return Verdict("flatten", flatten(markup), found.describe())


def _scan_python(markup: str) -> tuple[int, list[tuple[int, int]]]:
    """Tiers 1 and 2 in one pass: the page's `<` and the runs of _probe_runs_python."""
    return markup.count("<"), _probe_runs_python(markup)


def _count_attributes_python(markup: str, start: int, close: int) -> int:
    """The attribute-like words of markup[start:close] (a tag's attribute list)."""
    return len(_ATTRIBUTE.findall(markup, start, close))


# What starts a tag, whose attributes the tokenizer reads. A run from any other `<` (a comment or
# CDATA in a script, `i < n`) is in no tag unless an earlier `<` since the last `>` starts one: such runs
# are left out (they sent 49 of the 2,610 benchmark pages to most_attributes, ~1.1 ms each).
_TAG_OPEN = re.compile(r"</?[A-Za-z]")


def _probe_runs_python(markup: str) -> list[tuple[int, int]]:
    """The runs from `<` to `>` (or the end) at least LONG_TAG_CHARS long that a probe lands in and that
    may be in a tag, as (start, close) in the order the probes meet them. Probes are ATTRIBUTE_PROBE_CHARS
    apart, so every such run holds one."""
    runs: list[tuple[int, int]] = []
    end = len(markup)
    pos = 0
    while pos < end:
        close = markup.find(">", pos)
        if close < 0:
            close = end
        start = markup.rfind("<", 0, pos + 1)
        if (
            start >= 0
            and close - start >= LONG_TAG_CHARS
            and markup.rfind(">", start, pos) < 0
            and (
                _TAG_OPEN.match(markup, start)
                or markup.rfind("<", markup.rfind(">", 0, start) + 1, start) >= 0
            )
        ):
            runs.append((start, close))
        # A run without `>` from here to `close` belongs to the tag that ends at `close`: probe there next.
        pos = close if close > pos + ATTRIBUTE_PROBE_CHARS else pos + ATTRIBUTE_PROBE_CHARS
    return runs


def _nesting_bound_ok(markup: str, max_nodes: int) -> bool:
    """Tier 3: are upper bounds on the elements lexbor builds and on its superlinear work within limits?

    One pass over the page's `<` keeps a count of open elements and one of active formatting entries:
    every start tag opens an element unless it is void wherever it stands (NEVER_OPEN), formatting ones
    add an entry, every end tag closes one element (a formatting one also an entry), never below zero
    (an end tag the parser ignores is one way to hide a page's shape: see above). Every `<` is charged
    a walk over both counts; after every tag (what closes elements) the text may rebuild every entry
    (elements without tags: the last row of the table). Options are charged against each other."""
    steps, elements, options = _nesting_counts(markup)
    work = NS_PER_FORMATTING_STEP * steps + NS_PER_OPTION_STEP * options * options / 2
    return elements <= max_nodes and work <= MAX_WORK_NS


# Void elements that are void wherever they stand: in SVG and MathML they end the foreign content first
# (other void names, such as <input> or <link>, open an element there).
NEVER_OPEN = ("br", "embed", "hr", "img", "meta")
# Elements that go on the active formatting list (the tree builder's, as _FORMATTING below).
FORMATTING_NAMES = (
    "a",
    "b",
    "big",
    "code",
    "em",
    "font",
    "i",
    "nobr",
    "s",
    "small",
    "strike",
    "strong",
    "tt",
    "u",
)
# How an <option> start tag is spelled where the options are counted (other spellings are not).
OPTION_SPELLINGS = ("<option", "<OPTION")
# Every `<`, as (slash, name) of an end or start tag (a name ends where the tokenizer ends it, or at a
# `<`: every `<` is met), or ("", "") when it starts no tag (text, a comment, a doctype).
_NESTING_TAG = re.compile(r"<(?:(/?)([A-Za-z][^\t\n\f\r /><]*+))?")
_NAME_KINDS = {**dict.fromkeys(NEVER_OPEN, "void"), **dict.fromkeys(FORMATTING_NAMES, "formatting")}


def _nesting_counts_python(markup: str) -> tuple[int, int, int]:
    """(steps, elements, options) of _nesting_bound_ok."""
    depth = formatting = steps = elements = 0
    kinds = _NAME_KINDS
    for slash, name in _NESTING_TAG.findall(markup):
        kind = kinds.get(name.lower(), "") if name.isascii() else ""
        if name and not slash:
            elements += 1
            depth += kind != "void"
            formatting += kind == "formatting"
        steps += depth + formatting
        if name:
            elements += formatting
        if slash:
            depth -= depth > 0
            formatting -= kind == "formatting" and formatting > 0
    return steps, elements, sum(map(markup.count, OPTION_SPELLINGS))


# --- the tokenizer ------------------------------------------------------------------------------------

_RAW = "script|style|xmp|iframe|noembed|noframes|textarea|title"
# Where a tag name ends (so `<li-item>` is not `<li>`).
_NAME_END = r"(?![^\t\n\f\r />])"
# A tag's attributes up to its `>`: a quote opens a value only right after `=`, as in the HTML tokenizer.
_ATTRIBUTES = r"[^>=]*+(?:=\s*+(?:\"[^\"]*+\"|'[^']*+'|)[^>=]*+)*+>?"
# A comment's body after `<!--`, up to and including its end (`-->`, `--!>`, or the abrupt `>`, `->`).
_COMMENT = r"(?:>|->|(?:[^-]++|-(?!-!?>))*+(?:--!?>)?)"
# One pass that consumes every comment, bogus comment, raw-text element and tag whole (a quoted attribute
# value included, as the HTML tokenizer reads it: a quote opens a value only right after `=`), so nothing
# inside them reads as a tag. Every loop is possessive or a negated class: no input makes it backtrack.
# Groups: (name, attributes) of a tag, both empty for everything else; then the raw-text element's name.
# A pattern's source, compiled by re's own cache on first use: only pages the probes flag reach it
# (most_attributes, shape), and compiling it and the flat rewrite's patterns at import cost one page's
# `clean` 17 million instructions (callgrind).
_TOKEN = (
    r"<(?:"
    r"(/?(?!(?i:" + _RAW + r"|plaintext)" + _NAME_END + r")[A-Za-z][^\t\n\f\r />]*+)"
    r"(" + _ATTRIBUTES.removesuffix(">?") + r")>?"
    r"|!--" + _COMMENT + r"|[!?][^>]*+>?|/(?![A-Za-z])[^>]*+>?"
    r"|(?P<raw>(?i:" + _RAW + r"))" + _NAME_END + r"[^>]*+>?"
    r"[^<]*+(?:<(?!/(?i:(?P=raw))" + _NAME_END + r")[^<]*+)*+"
    r"|(?i:plaintext)" + _NAME_END + r"[\s\S]*+"
    r")"
)
# One attribute of an attribute list: a name and an optional value, or a stray quote.
_ATTRIBUTE = re.compile(r"[^\s/>\"'=][^\s/>=]*+(?:\s*+=\s*+(?:\"[^\"]*+\"|'[^']*+'|[^\s>]*+))?+|[\"']")


def most_attributes(markup: str) -> int:
    """The most attributes on one tag of `markup` (tags in comments and raw text do not count)."""
    most = 0
    for _name, attrs, _raw in re.findall(_TOKEN, markup):
        if len(attrs) >= LONG_TAG_CHARS:
            most = max(most, len(_ATTRIBUTE.findall(attrs)))
    return most


# --- element tables (WHATWG HTML, "tree construction") ------------------------------------------------


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


_VOID = _names(
    "area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr"
)
# Start tags that first close an open <p> (a button-scope check that walks the open elements).
_CLOSES_P = _names(
    "address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer"
    " form header hgroup hr main menu nav ol p pre listing search section summary table ul xmp"
    " h1 h2 h3 h4 h5 h6"
)
_HEADINGS = _names("h1 h2 h3 h4 h5 h6")
_FORMATTING = frozenset(FORMATTING_NAMES)
_SCOPE = _names("applet caption html table td th marquee object template")  # "has an element in scope"
_MARKERS = _names("applet caption marquee object template td th")  # formatting-list markers
_SPECIAL = _names(
    "address applet area article aside base basefont bgsound blockquote body br button caption center col"
    " colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2"
    " h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing main marquee menu meta"
    " nav noembed noframes noscript object ol p param plaintext pre script search section select source"
    " style summary table tbody td template textarea tfoot th thead title tr track ul wbr xmp"
)
_FOREIGN = _names("svg math")
# HTML start tags that end foreign content.
_BREAKOUT = _names(
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing"
    " menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var"
)
_TABLE_PARTS = _names("tbody thead tfoot tr td th caption")
_SECTIONS = _names("tbody thead tfoot")
_CELLS = _names("td th")
_LIST_ITEMS = _names("li dd dt")
_IGNORED = _names("html head body frameset colgroup")
CLOSED, REMOVED = -1, -2  # states of a formatting-list entry that has no open element


@dataclass(frozen=True, slots=True)
class Shape:
    """What lexbor will build from some markup, estimated (high) by the replay."""

    tags: int  # start tags read
    elements: int  # elements lexbor creates: tags, implied table parts, rebuilt formatting elements
    depth: int  # deepest nesting of open elements
    work_ns: float  # superlinear parser work, ns on the reference machine
    over: str | None  # the first limit passed (the replay stopped there), or None

    def describe(self) -> str:
        return (
            f"{self.over or 'within limits'} ({self.tags} tags, ~{self.elements} elements, depth"
            f" ~{self.depth}, ~{self.work_ns / 1e6:.1f} ms of superlinear parsing)"
        )


class _Entry:
    """An entry of the active formatting list: `state` is the stack index of its open element, or
    CLOSED (a block end closed it; the next text rebuilds it), or REMOVED (off the list)."""

    __slots__ = ("key", "name", "state")

    def __init__(self, name: str, key: str, state: int) -> None:
        self.name, self.key, self.state = name, key, state


class _Replay:
    """The open elements and the active formatting list, with the indices the scope checks need."""

    __slots__ = (
        "afe",
        "bbounds",
        "bounds",
        "closed",
        "depth",
        "elements",
        "fopen",
        "foreign",
        "keys",
        "lbounds",
        "mark_at",
        "marks",
        "options",
        "ps",
        "selects",
        "stack",
        "steps_fmt",
        "steps_option",
        "steps_scope",
        "tables",
    )

    def __init__(self) -> None:
        self.stack: list[str] = []  # open elements under <html><body>
        self.bounds: list[int] = []  # stack indices of scope boundaries
        self.bbounds: list[int] = []  # ... and of <button> (button scope)
        self.lbounds: list[int] = []  # special elements other than address/div/p (the <li> walk stops there)
        self.ps: list[int] = []  # open <p>
        self.tables: list[int] = []
        self.selects: list[int] = []
        self.foreign: list[int] = []
        self.marks: list[int] = []  # elements that put a marker on the formatting list
        self.afe: list[_Entry | None] = []  # the active formatting list; None is a marker
        self.mark_at: list[int] = []  # positions of the markers in afe
        self.keys: dict[str, int] = {}  # entries per (name + attributes) after the last marker
        self.fopen: list[tuple[int, _Entry]] = []  # (stack index, entry) of the open entries
        self.closed = 0  # entries a block end closed: the next text rebuilds them
        self.elements = 0
        self.depth = 2  # html, body
        self.options = 0
        self.steps_scope = 0  # open elements walked
        self.steps_fmt = 0  # formatting-list entries compared
        self.steps_option = 0  # earlier options of a select

    def push(self, name: str) -> None:
        i = len(self.stack)
        self.stack.append(name)
        self.elements += 1
        if i + 3 > self.depth:
            self.depth = i + 3
        if name in _SPECIAL and name not in ("address", "div", "p"):
            self.lbounds.append(i)
            if name in _SCOPE:
                self.bounds.append(i)
                self.bbounds.append(i)
                if name in _MARKERS:
                    self.marks.append(i)
                    self.mark_at.append(len(self.afe))
                    self.afe.append(None)
                    self.keys = {}
                    self.closed = 0
                elif name == "table":
                    self.tables.append(i)
            elif name == "button":
                self.bbounds.append(i)
            elif name == "select":
                self.selects.append(i)
                self.options = 0
        elif name == "p":
            self.ps.append(i)
        elif name in _FOREIGN:
            self.foreign.append(i)

    def pop_to(self, i: int) -> None:
        """Close the open elements from the top down to index `i`, included."""
        del self.stack[i:]
        for where in (self.lbounds, self.bounds, self.bbounds, self.ps, self.tables, self.foreign):
            while where and where[-1] >= i:
                where.pop()
        while self.marks and self.marks[-1] >= i:
            self.marks.pop()
            del self.afe[self.mark_at.pop() :]
            start = self._start()
            self.keys = {}
            for entry in self.afe[start:]:
                if entry is not None:
                    self.keys[entry.key] = self.keys.get(entry.key, 0) + 1
            self.closed = sum(1 for e in self.afe[start:] if e is not None and e.state == CLOSED)
        while self.selects and self.selects[-1] >= i:
            self.selects.pop()
            self.options = 0
        fopen = self.fopen
        while fopen and fopen[-1][0] >= i:
            index, entry = fopen.pop()
            if entry.state == index:
                entry.state = CLOSED
                self.closed += 1

    def walk(self, found: int, limit: int) -> int:
        """Charge a walk from the top down to `found` or `limit`; `found` when it is above the limit."""
        self.steps_scope += len(self.stack) - max(found, limit)
        return found if found > limit else -1

    def find(self, names: frozenset[str] | tuple[str, ...], floor: int = -1) -> int:
        """Index of the innermost open element named in `names` above `floor`, else -1."""
        stack = self.stack
        for i in range(len(stack) - 1, floor, -1):
            if stack[i] in names:
                return i
        return -1

    def p_in_button_scope(self) -> int:
        return self.walk(self.ps[-1] if self.ps else -1, self.bbounds[-1] if self.bbounds else -1)

    # -- the active formatting list --

    def _start(self) -> int:
        return self.mark_at[-1] + 1 if self.mark_at else 0

    def add_formatting(self, name: str, key: str) -> None:
        """A formatting element was pushed: Noah's Ark (at most three identical entries), then the entry."""
        afe = self.afe
        start = self._start()
        self.steps_fmt += len(afe) - start
        same = self.keys.get(key, 0)
        if same >= 3:
            for j in range(start, len(afe)):
                entry = afe[j]
                if entry is not None and entry.key == key:
                    self._remove(j)
                    break
        self.keys[key] = self.keys.get(key, 0) + 1
        entry = _Entry(name, key, len(self.stack) - 1)
        afe.append(entry)
        self.fopen.append((entry.state, entry))

    def _remove(self, j: int) -> int:
        """Take entry `j` off the list; its state before."""
        entry = self.afe.pop(j)
        assert entry is not None
        state = entry.state
        if state == CLOSED:
            self.closed -= 1
        entry.state = REMOVED
        self.keys[entry.key] -= 1
        return state

    def take_entry(self, name: str) -> int | None:
        """Take the last entry named `name` off the list (the adoption agency): its open element's index
        (CLOSED when it is not open), or None when there is none."""
        afe = self.afe
        start = self._start()
        self.steps_fmt += len(afe) - start
        for j in range(len(afe) - 1, start - 1, -1):
            entry = afe[j]
            if entry is not None and entry.name == name:
                return self._remove(j)
        return None

    def adopt(self, name: str) -> bool:
        """The adoption agency for formatting element `name`; False when it has no list entry.

        With no special element above it, the element and everything above it close. With one (the
        "furthest block"), the element leaves the stack and a clone of it goes in above that block: the
        nesting stays as deep, which is how `<a><div>` repeated grows without bound."""
        state = self.take_entry(name)
        if state is None:
            return False
        if state >= 0:
            above = self.find(_SPECIAL, state)
            self.steps_scope += len(self.stack) - state
            if above < 0:
                self.pop_to(state)
            else:
                self.elements += 1  # the clone
        return True

    def reconstruct(self) -> None:
        """Reopen the formatting elements a block end closed (text after it does that in the parser)."""
        if not self.closed:
            return
        for entry in self.afe[self._start() :]:
            if entry is not None and entry.state == CLOSED:
                self.push(entry.name)
                entry.state = len(self.stack) - 1
                self.fopen.append((entry.state, entry))
        self.closed = 0


def shape(markup: str, max_nodes: int) -> Shape:
    """Replay the tree builder over `markup`; stops at the first limit passed."""
    r = _Replay()
    tags = 0
    over: str | None = None
    lower: dict[str, str] = {}
    for m in re.finditer(_TOKEN, markup):  # lazily: a hostile page is given up on long before its end
        raw = m.group(1)
        if not raw:
            continue  # a comment or raw text
        attrs = m.group(2)
        name = lower.get(raw)
        if name is None:
            name = lower[raw] = raw.lower()
        if name[0] == "/":
            _end(r, name[1:])
        else:
            tags += 1
            _start(r, name, attrs)
        if r.elements > max_nodes:
            over = f"more than {max_nodes} elements"
            break
        if r.depth > MAX_DEPTH:
            over = f"nesting deeper than {MAX_DEPTH}"
            break
        if _work(r) > MAX_WORK_NS:
            over = f"over {MAX_WORK_NS / 1e6:.0f} ms of superlinear parsing"
            break
    return Shape(tags, r.elements, r.depth, _work(r), over)


def _work(r: _Replay) -> float:
    return (
        r.steps_scope * NS_PER_SCOPE_STEP
        + r.steps_fmt * NS_PER_FORMATTING_STEP
        + r.steps_option * NS_PER_OPTION_STEP
    )


def _start(r: _Replay, name: str, attrs: str) -> None:
    if name in _IGNORED:
        return
    if r.foreign:
        if name not in _BREAKOUT and not (name == "font" and attrs.strip()):
            if attrs.endswith("/"):
                r.elements += 1  # self-closing in SVG and MathML
            else:
                r.push(name)
            return
        r.pop_to(r.foreign[0])
    if name in _VOID:
        r.elements += 1
        if name == "hr":
            p = r.p_in_button_scope()
            if p >= 0:
                r.pop_to(p)
        return
    if name in _CLOSES_P:
        if name == "form" and r.find(("form",)) >= 0:
            return  # a form inside a form is ignored
        p = r.p_in_button_scope()
        if p >= 0:
            r.pop_to(p)
        if name in _HEADINGS and r.stack and r.stack[-1] in _HEADINGS:
            r.pop_to(len(r.stack) - 1)
        r.push(name)
        r.reconstruct()  # the text inside it rebuilds what a block end closed
        return
    if name in _LIST_ITEMS:
        limit = r.lbounds[-1] if r.lbounds else -1
        found = r.find(("li",) if name == "li" else ("dd", "dt"), limit)
        if r.walk(found, limit) >= 0:
            r.pop_to(found)
        p = r.p_in_button_scope()
        if p >= 0:
            r.pop_to(p)
        r.push(name)
        r.reconstruct()
        return
    if name in _TABLE_PARTS:
        _table_part(r, name)
        return
    if name in _FORMATTING:
        r.reconstruct()
        if name in ("a", "nobr"):
            r.adopt(name)  # an open <a> ends where the next one starts
        r.push(name)
        r.add_formatting(name, name + attrs.strip())
        return
    if name == "select":
        r.reconstruct()
        if r.selects:
            r.pop_to(r.selects[-1])  # a select inside a select closes it
            return
        r.push(name)
        return
    if name in ("option", "optgroup"):
        if r.selects:
            r.steps_option += r.options
            r.options += 1
        if r.stack and r.stack[-1] == "option":
            r.pop_to(len(r.stack) - 1)
        if name == "optgroup" and r.stack and r.stack[-1] == "optgroup":
            r.pop_to(len(r.stack) - 1)
        r.reconstruct()
        r.push(name)
        return
    if name == "button":
        i = r.walk(r.find(("button",)), r.bounds[-1] if r.bounds else -1)
        if i >= 0:
            r.pop_to(i)
    r.reconstruct()
    r.push(name)


def _table_part(r: _Replay, name: str) -> None:
    if not r.tables:
        return  # table parts outside a table are ignored
    table = r.tables[-1]
    cell = r.find(_CELLS, table)
    if cell >= 0:
        r.pop_to(cell)
    if name == "caption" or name in _SECTIONS:
        r.pop_to(table + 1)
        r.push(name)
        return
    row = r.find(("tr",), table)
    if name == "tr":
        if row >= 0:
            r.pop_to(row)
        if len(r.stack) == table + 1:
            r.push("tbody")  # a row needs a section: the parser makes one up
        r.push("tr")
        return
    if row < 0:  # a cell needs a row (and a section)
        if len(r.stack) == table + 1:
            r.push("tbody")
        r.push("tr")
    r.push(name)


def _end(r: _Replay, name: str) -> None:
    if name in _IGNORED or (name in _VOID and name != "br"):
        return
    if r.foreign and name not in _SPECIAL:
        i = r.find((name,), r.foreign[0] - 1)
        if i >= 0:
            r.pop_to(i)
        return
    if name == "p":
        p = r.p_in_button_scope()
        if p >= 0:
            r.pop_to(p)
        else:
            r.elements += 1  # </p> with no open <p> makes an empty one
        return
    if name in _FORMATTING:
        if r.adopt(name):
            return
    elif name in _SPECIAL:
        if name == "br":
            r.elements += 1  # </br> is read as <br>
            return
        if name == "table" or name in _TABLE_PARTS:
            i = r.find((name,), r.tables[-1] - 1 if r.tables and name != "table" else -1)
            if i >= 0:
                r.pop_to(i)
            return
        limit = r.bounds[-1] if r.bounds else -1
        i = r.find(_HEADINGS if name in _HEADINGS else (name,), limit)
        if name == "li" and i >= 0 and r.find(("ol", "ul"), i) >= 0:
            i = -1  # an <li> outside the innermost list is not in list-item scope
        if r.walk(i, limit) >= 0:
            r.pop_to(i)
        return
    # Any other end tag walks down to an element of its name, and gives up at a special element.
    stack = r.stack
    for j in range(len(stack) - 1, -1, -1):
        if stack[j] == name:
            r.walk(j, -1)
            r.pop_to(j)
            return
        if stack[j] in _SPECIAL:
            r.walk(-1, j)
            return
    r.walk(-1, -1)


# --- the flat rewrite ---------------------------------------------------------------------------------

# Pattern sources, compiled by re's own cache when a page is first flattened (see _TOKEN).

# What goes with its content: comments, bogus comments, raw text (scripts and styles: pre-cleaning drops
# them anyway); the first <title> keeps its text.
_FLAT_DROP = (
    r"<(?:!--" + _COMMENT + r"|[!?][^>]*+>?|/(?![A-Za-z])[^>]*+>?"
    r"|(?P<raw>(?i:script|style|xmp|iframe|noembed|noframes|textarea|title))" + _NAME_END + r"[^>]*+>?"
    r"(?P<text>[^<]*+(?:<(?!/(?i:(?P=raw))" + _NAME_END + r")[^<]*+)*+)"
    r"(?:</(?i:(?P=raw))" + _NAME_END + r"[^>]*+>?)?)"
)
# Headings, list items and preformatted text keep their kind; any other block-level tag, start or end,
# becomes a paragraph break. Every block tag first closes whatever block (and link) is open: end tags of
# elements that are not open are ignored by the parser, so this needs no state and nothing can nest.
_FLAT_CLOSE = "</a></h1></li></pre>"
_FLAT_HEADING = r"<(/?)((?i:h[1-6]))" + _NAME_END + _ATTRIBUTES
_FLAT_ITEM = r"<(/?)(?i:li|dd|dt)" + _NAME_END + _ATTRIBUTES
_FLAT_PRE = r"<(/?)(?i:pre|listing)" + _NAME_END + _ATTRIBUTES
_FLAT_BLOCK = (
    r"</?(?i:address|article|aside|blockquote|body|br|caption|center|details|dialog|dir|div|dl|fieldset"
    r"|figcaption|figure|footer|form|header|hgroup|hr|html|legend|main|menu|nav|noscript|ol|optgroup|option"
    r"|p|plaintext|search|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)" + _NAME_END + _ATTRIBUTES
)
_FLAT_LINK = r"<(/?)(?i:a)" + _NAME_END + _ATTRIBUTES
# A `<` that starts no tag, comment or end tag is text to the parser; escaped first, because the passes
# below delete markup after it and could join it to the letters beyond into a tag ("<" "<script>" "x>").
_FLAT_STRAY_LT = r"<(?![A-Za-z!?/])"
# Every other tag goes, except the bare ones the passes above wrote.
_FLAT_OTHER = r"<(?!/?(?:a|p|li|pre|title|h[1-6])>)/?[A-Za-z][^\t\n\f\r />]*+" + _ATTRIBUTES


def flatten(markup: str) -> str:
    """The text of `markup` in blocks that never nest: headings, list items, <pre>, <p> and <a>, no more.

    Regex substitutions with fixed replacements (C speed, linear), and lexbor is linear on the result:
    every block tag closes the previous block and any open link, at most one link is ever open, and no
    tag carries an attribute.
    """
    titles: list[str] = []
    markup = re.sub(_FLAT_STRAY_LT, "&lt;", markup)
    markup = re.sub(_FLAT_DROP, lambda m: _dropped(m, titles), markup)
    markup = re.sub(
        _FLAT_HEADING,
        lambda m: _FLAT_CLOSE if m.group(1) else _FLAT_CLOSE + f"<{m.group(2).lower()}>",
        markup,
    )
    markup = re.sub(_FLAT_ITEM, lambda m: _FLAT_CLOSE if m.group(1) else _FLAT_CLOSE + "<li>", markup)
    markup = re.sub(_FLAT_PRE, lambda m: _FLAT_CLOSE if m.group(1) else _FLAT_CLOSE + "<pre>", markup)
    markup = re.sub(_FLAT_BLOCK, _FLAT_CLOSE + "<p>", markup)
    markup = re.sub(_FLAT_LINK, r"<\1a>", markup)
    return re.sub(_FLAT_OTHER, "", markup)


def _dropped(m: re.Match[str], titles: list[str]) -> str:
    """What a comment or raw-text element leaves: nothing, but the first <title> keeps its text."""
    if (m.group("raw") or "").lower() != "title" or titles:
        return ""
    titles.append(m.group("text"))
    # RCDATA: entities stay as written; `<` is escaped so the passes after this one see no tag in it.
    return "<title>" + m.group("text").replace("<", "&lt;") + "</title>"


# The scans in C (worker/clean/_native.c: one vectorised pass for the `<` and the probes' blocks, one over
# the `<` for tier 3, the attribute count without an interpreter step per character), once native.py has
# checked them against these on canary markup; else these.
_scan, _nesting_counts, _count_attributes = native.guard_scans(
    _scan_python,
    _nesting_counts_python,
    _count_attributes_python,
    LONG_TAG_CHARS,
    ATTRIBUTE_PROBE_CHARS,
    NEVER_OPEN,
    FORMATTING_NAMES,
    OPTION_SPELLINGS,
)
