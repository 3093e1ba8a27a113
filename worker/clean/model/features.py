"""Features of every text block of a page, for the learned block model: one row per block, numpy columns.

Four groups (the names, in column order, are FEATURES; a model file records the list it was trained on):
- shallow: the block's length, words, link density, punctuation, kind, tag, depth and position, and what
  scoring made of it (prose weight per character, boilerplate / comment / content marks by class and tag);
- neighbours: the shallow core of the two blocks before and after it;
- container: the block's place relative to the density target and region, and the heuristics' decision
  (kept or not), its owner's and its owner's parent's share of the page's prose weight;
- site memory (zero on a page cleaned without it): whether the memory planned for the page, how many pages
  the site has, the share of the site's recent pages holding the block's element (text fingerprint), and
  whether the block sits under the site's learned content location.

Everything is computed from the lists the earlier stages already hold, with a handful of list passes and
vectorised numpy arithmetic: no per-block Python beyond two str.count maps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from itertools import repeat

import numpy as np
import numpy.typing as npt

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
FEATURES: tuple[str, ...] = SHALLOW + CONTAINER + NEIGHBOURS + MEMORY
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
    out = np.zeros((len(FEATURES), n))
    if not n:
        return out
    col = dict(zip(FEATURES, out, strict=True))
    chars = np.array(seg.chars, dtype=np.float64)
    words = np.array(seg.words, dtype=np.float64)
    owners = np.array(seg.owners, dtype=np.intp)
    weights = np.array(scores.weights)
    col["log_chars"][:] = np.log1p(chars)
    col["log_words"][:] = np.log1p(words)
    col["link_density"][:] = scores.link_density
    col["weight_per_char"][:] = weights / chars
    col["kind"][:] = _small(map(KIND_CODES.get, seg.kinds, repeat(len(KIND_CODES))))
    col["tag"][:] = _small(map(TAG_CODES.get, seg.tags, repeat(_OTHER_TAG)))[owners]
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

    core = out[_CORE_ROWS]
    for off, rows in zip(OFFSETS, _NEIGHBOUR_ROWS, strict=True):
        dst = out[rows]  # a view: the rows are consecutive
        if off < 0:
            dst[:, -off:] = core[:, :off]
            dst[:, :-off] = -1.0  # before the page's first block
        else:
            dst[:, :-off] = core[:, off:]
            dst[:, -off:] = -1.0

    if site is not None:
        col["has_memory"][:] = 1.0
        col["site_log_pages"][:] = math.log1p(site.pages_seen)
        if site.elem_share:
            share = np.zeros(len(seg.tags))
            for e, s in site.elem_share.items():
                share[e] = s
            col["elem_share"][:] = share[owners]
        if site.learned_path is not None:
            learned = learned_element(seg, target, site.learned_path)
            if learned >= 0:
                col["in_learned"][:] = (idx >= seg.firsts[learned]) & (idx < seg.ends[learned])
    return out
