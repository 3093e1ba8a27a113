"""Features of every text block of a page, for the learned block model: one row per block, numpy columns.

Five groups (the names, in column order, are FEATURES; a model file records the list it was trained on):
- shallow: the block's length, words, link density, punctuation, kind, tag, depth and position, and what
  scoring made of it (prose weight per character, boilerplate / comment / content marks by class and tag);
- neighbours: the shallow core of the two blocks before and after it;
- container: the block's place relative to the density target and region, and the heuristics' decision
  (kept or not), its owner's and its owner's parent's share of the page's prose weight;
- site memory (zero on a page cleaned without it): whether the memory planned for the page, how many pages
  the site has, the share of the site's recent pages holding the block's element (text fingerprint), and
  whether the block sits under the site's learned content location;
- context: whether the block repeats a kept block's text, its distance to the nearest kept block, whether it
  ends a sentence (5-fold CV on the training sets, cut 0: dragnet's train split 0.9349 -> 0.9358
  single-page, 0.9404 -> 0.9411 with the memory, cleaneval_dev 0.8806 -> 0.8837; the distance alone 0.9358,
  0.9412, 0.8835, but lowered scrapinghub_aeb and trafilatura_eval by 0.0002-0.0007).

Everything is computed from the lists the earlier stages already hold: the shallow, container and context
groups in one C pass when the accelerator is built (numpy takes its log1p in place), the neighbours in a
second (they copy log_chars), else with a handful of list passes and vectorised numpy arithmetic
(`_page_features_python`, the reference); the memory group with numpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import itemgetter

import numpy as np
import numpy.typing as npt

from worker.clean import heuristics as h
from worker.clean import native
from worker.clean.region import Region
from worker.clean.score import Scores
from worker.clean.segment import Segmentation, stable_path
from worker.clean.sitememory import key_hash
from worker.clean.template import SiteFacts

Matrix = npt.NDArray[np.float64]

KIND_CODES = {"paragraph": 0, "heading": 1, "list_item": 2, "table_cell": 3, "quote": 4, "code": 5}
# Owner tags the model tells apart; every other block-level tag is one code (len(TAG_CODES)).
TAG_CODES = {
    tag: i
    for i, tag in enumerate(
        ("p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "span", "section", "article",
         "main", "header", "footer", "nav", "aside", "blockquote", "pre", "dd", "dt", "figcaption", "body",
         "form", "address", "center", "font", "table", "ul", "ol", "caption", "figure", "summary", "legend")
    )
}  # fmt: skip
_OTHER_TAG = len(TAG_CODES)
# Neighbour offsets whose shallow core is a feature of the block.
OFFSETS = (-2, -1, 1, 2)
_CORE = ("log_chars", "link_density", "weight_per_char", "heur_kept", "kind")
# Distances (in blocks) beyond this are all "far".
_FAR = 50.0

SHALLOW = (
    "log_chars", "log_words", "link_density", "weight_per_char", "kind", "tag", "depth", "position",
    "periods_per_word", "commas_per_word", "marked", "comment", "good",
)  # fmt: skip
CONTAINER = (
    "in_target", "in_region", "heur_kept", "region_distance", "owner_share", "parent_share",
    "owner_blocks", "target_share", "page_blocks", "page_log_chars", "region_log_chars",
)  # fmt: skip
MEMORY = ("has_memory", "site_log_pages", "elem_share", "in_learned")
NEIGHBOURS = tuple(f"{name}@{off:+d}" for off in OFFSETS for name in _CORE)
CONTEXT = ("repeats_kept", "kept_gap", "ends_sentence")
FEATURES: tuple[str, ...] = SHALLOW + CONTAINER + NEIGHBOURS + MEMORY + CONTEXT
_CORE_ROWS = [FEATURES.index(name) for name in _CORE]
_NEIGHBOUR_ROWS = [
    slice(FEATURES.index(f"{_CORE[0]}@{off:+d}"), FEATURES.index(f"{_CORE[-1]}@{off:+d}") + 1)
    for off in OFFSETS
]


def learned_element(seg: Segmentation, target: int, learned_path: int) -> int:
    """The deepest element on the target's chain of ancestors (itself included) at the learned content
    path, -1 when none is: region.prefer_learned has already moved the target there when the page agrees."""
    chain = []
    e = target
    while e >= 0:
        chain.append(e)
        e = seg.parents[e]
    for e in chain:
        if key_hash(stable_path(seg, e)) == learned_path:
            return e
    return -1


def _small(values: Iterable[int]) -> npt.NDArray[np.uint8]:
    """Small non-negative ints (codes, bools) as an array: bytes() reads them in C, np.array per item."""
    return np.frombuffer(bytes(values), dtype=np.uint8)


def depths(parents: list[int]) -> list[int]:
    out = [0] * len(parents)
    for i in range(1, len(parents)):
        out[i] = out[parents[i]] + 1
    return out


def block_features(
    seg: Segmentation, scores: Scores, region: Region, kept: list[int], site: SiteFacts | None
) -> Matrix:
    """Feature-major: one row per feature of FEATURES, one column per block of `seg`."""
    n = len(seg.texts)
    if not n or _accel is None:
        out = np.zeros((len(FEATURES), n))
        if n:
            _page_features_python(out, seg, scores, region, kept)
    else:
        # the C code and the neighbours fill every other row whole: no zeroing of the page's matrix (the
        # calloc's memset was a tenth of the step's instructions, callgrind)
        out = np.empty((len(FEATURES), n))
        _page_features_native(_accel, out, seg, scores, region, kept)
        out[_MEMORY_ROWS] = 0.0

    if site is not None:
        idx = np.arange(n)
        owners = np.array(seg.owners, dtype=np.intp)
        out[_ROW["has_memory"]] = 1.0
        out[_ROW["site_log_pages"]] = math.log1p(site.pages_seen)
        if site.elem_share:
            share = np.zeros(len(seg.tags))
            for e, s in site.elem_share.items():
                share[e] = s
            out[_ROW["elem_share"]] = share[owners]
        if site.learned_path is not None:
            learned = learned_element(seg, region.target, site.learned_path)
            if learned >= 0:
                out[_ROW["in_learned"]] = (idx >= seg.firsts[learned]) & (idx < seg.ends[learned])
    return out


# What a block ending a sentence ends with: h.SENTENCE_END's stops, or a closing quote after one.
_SENTENCE_ENDS = "".join(h.SENTENCE_END) + '"\u201d'


def _repeats(out: Matrix, texts: list[str], kept: list[int]) -> None:
    """The row of `repeats_kept`: whether the block repeats the text of a block the heuristics keep (the
    output holds it already: worker.train.labels gives such a repeat no label)."""
    if not kept:
        return
    held = set(map(texts.__getitem__, kept))
    repeats = out[_ROW["repeats_kept"]]
    repeats[:] = np.frombuffer(bytes(map(held.__contains__, texts)), dtype=np.uint8)
    repeats[kept] = 0.0


def _kept_gap(n: int, kept: list[int]) -> Matrix:
    """Each block's distance in blocks to the nearest kept block (0 for a kept block), at most _FAR (_FAR
    when none is kept)."""
    if not kept:
        return np.full(n, _FAR, dtype=np.float64)
    at = np.sort(np.asarray(kept, dtype=np.intp))
    idx = np.arange(n)
    nxt = np.minimum(np.searchsorted(at, idx), len(at) - 1)  # the first kept block at or after (or the last)
    prev = np.maximum(nxt - 1, 0)
    gap: Matrix = np.minimum(np.minimum(np.abs(at[nxt] - idx), np.abs(idx - at[prev])), _FAR)
    return gap


def _kind_codes(kinds: list[str]) -> bytes:
    return bytes(map(KIND_CODES.get, kinds, repeat(len(KIND_CODES))))


def _tag_codes(tags: list[str]) -> bytes:
    return bytes(map(TAG_CODES.get, tags, repeat(_OTHER_TAG)))


def _page_features_python(
    out: Matrix, seg: Segmentation, scores: Scores, region: Region, kept: list[int]
) -> None:
    """The rows of SHALLOW, CONTAINER, NEIGHBOURS and CONTEXT (the reference of the C code)."""
    n = len(seg.texts)
    col = dict(zip(FEATURES, out, strict=True))
    chars = np.array(seg.chars, dtype=np.float64)
    words = np.array(seg.words, dtype=np.float64)
    owners = np.array(seg.owners, dtype=np.intp)
    weights = np.array(scores.weights)
    col["log_chars"][:] = np.log1p(chars)
    col["log_words"][:] = np.log1p(words)
    col["link_density"][:] = scores.link_density
    col["weight_per_char"][:] = weights / chars
    col["kind"][:] = np.frombuffer(_kind_codes(seg.kinds), dtype=np.uint8)
    col["tag"][:] = np.frombuffer(_tag_codes(seg.tags), dtype=np.uint8)[owners]
    col["depth"][:] = np.array(depths(seg.parents), dtype=np.float64)[owners]
    col["position"][:] = np.arange(n) / n
    texts = seg.texts
    col["periods_per_word"][:] = np.fromiter(map(str.count, texts, repeat(".")), np.float64, n) / words
    col["commas_per_word"][:] = np.fromiter(map(str.count, texts, repeat(",")), np.float64, n) / words
    col["marked"][:] = _small(scores.marked)[owners]
    col["comment"][:] = _small(scores.comment)[owners]
    col["good"][:] = _small(scores.good)[owners]

    firsts = np.array(seg.firsts, dtype=np.intp)
    ends = np.array(seg.ends, dtype=np.intp)
    target = region.target
    idx = np.arange(n)
    col["in_target"][:] = (idx >= seg.firsts[target]) & (idx < seg.ends[target])
    in_region = np.zeros(n, dtype=bool)
    for lo, hi in region.ranges:
        in_region[lo:hi] = True
    col["in_region"][:] = in_region
    heur = np.zeros(n)
    heur[kept] = 1.0
    col["heur_kept"][:] = heur
    lo, hi = region.ranges[0][0], region.ranges[-1][1]
    distance = np.where(idx < lo, idx - lo, np.where(idx >= hi, idx - hi + 1, 0))
    col["region_distance"][:] = np.clip(distance, -_FAR, _FAR)
    prefix = np.concatenate(([0.0], np.cumsum(weights)))
    total = prefix[-1] or 1.0
    subtree = (prefix[ends] - prefix[firsts]) / total
    col["owner_share"][:] = subtree[owners]
    parents = np.array(seg.parents, dtype=np.intp)
    col["parent_share"][:] = subtree[np.maximum(parents, 0)][owners]
    col["owner_blocks"][:] = np.log1p((ends - firsts)[owners])
    col["target_share"][:] = subtree[target]
    col["page_blocks"][:] = math.log1p(n)
    col["page_log_chars"][:] = math.log1p(float(chars.sum()))
    col["region_log_chars"][:] = math.log1p(float(chars[in_region].sum()))
    ends_sentence = map(_SENTENCE_ENDS.__contains__, map(itemgetter(-1), texts))
    col["ends_sentence"][:] = np.frombuffer(bytes(ends_sentence), dtype=np.uint8)
    col["kept_gap"][:] = _kept_gap(n, kept)
    _repeats(out, texts, kept)

    _neighbours(out)


def _page_features_native(
    build: Callable[..., None],
    out: Matrix,
    seg: Segmentation,
    scores: Scores,
    region: Region,
    kept: list[int],
) -> None:
    """_page_features_python with the C code, on any `out` (it fills every row but MEMORY's whole): the C
    code leaves the counts in the log1p rows (numpy's log1p is not libm's to the bit, and the model was
    trained on numpy's), which numpy takes in place before the neighbour rows copy log_chars."""
    build(
        out, _NAMED_ROWS, seg.chars, seg.words, seg.owners, scores.weights, scores.link_density,
        seg.kinds, KIND_CODES, seg.tags, TAG_CODES, seg.parents, seg.firsts, seg.ends, seg.texts,
        scores.marked, scores.comment, scores.good, region.target, region.ranges, kept, _SENTENCE_ENDS,
    )  # fmt: skip
    for rows in _LOG_SLICES:
        np.log1p(out[rows], out=out[rows])
    if _shift is None:
        _neighbours(out)
    else:
        _shift(out, _CORE_TUPLE, _NEIGHBOUR_STARTS, OFFSETS)


def _neighbours(out: Matrix) -> None:
    """The rows of NEIGHBOURS from those of _CORE."""
    core = out[_CORE_ROWS]
    for off, rows in zip(OFFSETS, _NEIGHBOUR_ROWS, strict=True):
        dst = out[rows]  # a view: the rows are consecutive
        if off < 0:
            dst[:, -off:] = core[:, :off]
            dst[:, :-off] = -1.0  # before the page's first block
        else:
            dst[:, :-off] = core[:, off:]
            dst[:, -off:] = -1.0


_ROW = {name: i for i, name in enumerate(FEATURES)}
_C_CONTEXT = ("ends_sentence", "kept_gap", "repeats_kept")  # CONTEXT in the C code's order
# What the C features write: the rows of SHALLOW, CONTAINER and CONTEXT; of these, the counts whose log1p
# numpy takes (in place, on runs of consecutive rows: a slice is a view, a list of rows a copy).
_NAMED_ROWS = tuple(_ROW[name] for name in (*SHALLOW, *CONTAINER, *_C_CONTEXT))
_LOG_ROWS = sorted(_ROW[name] for name in ("log_chars", "log_words", "owner_blocks"))


def _runs(rows: list[int]) -> list[slice]:
    """Sorted rows as slices of consecutive rows."""
    out: list[slice] = []
    for row in rows:
        if out and out[-1].stop == row:
            out[-1] = slice(out[-1].start, row + 1)
        else:
            out.append(slice(row, row + 1))
    return out


_LOG_SLICES = _runs(_LOG_ROWS)
(_MEMORY_ROWS,) = _runs(sorted(_ROW[name] for name in MEMORY))  # consecutive: one slice
# What the C neighbours read: the core rows, and the first of each offset's neighbour rows (in _CORE order).
_CORE_TUPLE = tuple(_CORE_ROWS)
_NEIGHBOUR_STARTS = tuple(rows.start for rows in _NEIGHBOUR_ROWS)
# A page of every kind of block, mark, region and neighbour the features read (the C code's canaries).
_CANARIES = (
    '<div class="nav"><a href="/">Home</a> <a href="/a">About us</a></div><article><h1>Title, here.</h1>'
    "<p>Long prose, with commas. And sentences!</p><blockquote>Quoted: yes.</blockquote>"
    "<ul><li>one, two</li><li>three</li></ul><pre>code</pre><table><tr><td>cell, one.</td></tr></table>"
    '</article><div id="comments"><p>A reader wrote this, politely.</p></div><footer>(c) 2024 Site</footer>',
    '<div class="sidebar"><p>Most of the page is here, marked, which is wrong. It goes on and on.</p></div>'
    '<div class="post-body entry-content"><section><p>Short text.</p><p>More; and more.</p></section></div>'
    "<aside>Aside text</aside><form><p>Sign up</p></form><font><center>old markup.</center></font>",
    "<p>こんにちは。これは日本語の文です！</p><p>" + "word " * 40 + "</p><div class='share'>Share: x</div>"
    "<p>He said \u201cyes.\u201d</p><p>Then she asked?</p>",
    "<p>One block only.</p>",
    "<p>Said twice, word for word.</p><p>Said twice, word for word.</p><p>Once.</p>"
    "<p>Said twice, word for word.</p><p>Once.</p>",
    "<div><div><div><p>deep, deeper. deepest</p></div></div><p>" + "x " * 300 + "</p></div><p>-</p>",
)


def _check(build: Callable[..., None]) -> str | None:
    """The C features against _page_features_python, to the bit, on the canary pages (every kept set:
    none, the heuristics', every other block, all blocks)."""
    from worker.clean import dom
    from worker.clean.classify import classify_region
    from worker.clean.options import Budget
    from worker.clean.region import choose
    from worker.clean.score import score
    from worker.clean.segment import segment

    for html in _CANARIES:
        body = dom.parse(f"<html><body>{html}</body></html>").body
        assert body is not None
        seg = segment(body, Budget(float("inf")))
        scores = score(seg)
        region = choose(seg, scores.weights, scores.link_density, None)
        n = len(seg.texts)
        for kept in ([], classify_region(seg, scores, region).kept, list(range(0, n, 2)), list(range(n))):
            want, got = np.zeros((len(FEATURES), n)), np.full((len(FEATURES), n), np.nan)
            _page_features_python(want, seg, scores, region, kept)
            _page_features_native(build, got, seg, scores, region, kept)  # fills every row but MEMORY's
            got[_MEMORY_ROWS] = 0.0
            if got.tobytes() != want.tobytes():
                rows = sorted({FEATURES[r] for r in np.flatnonzero((got != want).any(axis=1))})
                return f"features differ on {html[:40]!r}: {', '.join(rows)}"
    return None


def _check_neighbours(shift: Callable[..., None]) -> str | None:
    """The C neighbour rows against _neighbours, to the bit, on canary matrices of 1 to 7 blocks (fewer
    than an offset's reach, and more) with signed zeros, NaN and infinities in the core rows."""
    rng = np.random.default_rng(5)
    values = [-1.0, 0.0, -0.0, 0.5, 2.5, np.nan, np.inf, -np.inf]
    for n in (1, 2, 3, 4, 7):
        want = rng.choice(values, size=(len(FEATURES), n))
        got = want.copy()
        _neighbours(want)
        shift(got, _CORE_TUPLE, _NEIGHBOUR_STARTS, OFFSETS)
        if got.tobytes() != want.tobytes():
            return f"neighbour rows differ on a canary of {n} blocks"
    return None


# The accelerated functions that native.python_only turns off (the numpy code runs instead).
_NATIVE = ("_shift", "_accel")
_shift: Callable[..., None] | None = native.model_stage("block_neighbours", _check_neighbours)
_accel: Callable[..., None] | None = native.model_stage("block_features", _check)
