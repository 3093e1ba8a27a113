"""Per-site template statistics: which subtree fingerprints recur on a site's recent distinct pages.

Each site keeps, in compact arrays, a decayed count per tracked fingerprint and the decayed number of pages
(both multiplied by d = 0.5 ** (1 / half_life) per new page), so count / pages is the share of the site's
recent pages holding that fingerprint and a redesigned site re-learns within a few half-lives. The decay is
applied lazily: rather than multiplying every count by d, each new page weighs 1/d times the one before
(`unit`), and counts are rescaled only when that weight grows large. Shares are ratios, so they are the same.
Besides text fingerprints, a site counts the STRUCTURE POSITIONS (tag-path hashes, worker.clean.fingerprint's
path_fps) of the blocks density kept: per position, the decayed number of pages holding it since it
was first kept and of those where density kept it (at most MAX_POSITIONS, the least kept pruned first). A
position kept on most of the site's pages holding it is the site's article slot, whatever its text
(`kept_positions`; worker.clean.template).
A site tracks at most `max_fingerprints` fingerprints: past that, the lowest counts are dropped down to
PRUNE_TO of the cap (hysteresis: the sort is not paid on every page of a big site). Because of the decay, an
old one-off fingerprint always ranks below one seen on the current page, so a template block that is new
survives long enough to be seen again (a frequent-items sketch in the spirit of Space-Saving, with decay as
the tie-break instead of over-estimated counts, which would make every survivor look frequent).

A page whose key (URL, else id) is among the site's last `url_window` keys is not counted again: redelivered
and re-fetched pages must not inflate a block's frequency.

`SiteMemory` holds the sites in LRU order under a byte budget. Bytes are accounted per site as the size of
its serialized snapshot plus a fixed per-object overhead (SITE_OVERHEAD, measured with tracemalloc: see
bench/templates.py), which is what the arrays really hold, plus the site's name (`name_bytes`: a name can
come from an unbounded Kafka key, and the memory keeps it); nothing here is a module global.

A snapshot read back (`SiteState.from_bytes`, from the changelog) is checked field by field and refused
with ValueError unless every count, position and weight is one this module could have written: a bad
record must cost its site a relearn, not poison every later page of the site.
"""

from __future__ import annotations

import math
import struct
import sys
from _blake2 import blake2b  # hashlib's own, without importing OpenSSL (9 M instructions of start-up)
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import compress

from worker.clean import native
from worker.settings import Settings

_DEFAULTS = Settings()
# Python objects around the arrays of one site (the SiteState, 8 array headers and their over-allocation,
# the LRU entry and its key): tracemalloc over 578 restored dragnet + scrapinghub_aeb sites gave 4361 bytes
# per site against 3171 bytes of snapshot (bench/templates.py's _bytes), so ~1190; the payload itself is
# counted exactly.
SITE_OVERHEAD = 1200
# Share of a site's recent pages on which density must have found one content path for it to be "learned".
CONTENT_PATH_SHARE = 0.5
MAX_CONTENT_PATHS = 8
# Page keys (URL, else id) a site remembers, so that a redelivered or re-fetched page is not counted twice:
# a few times the pages of a site a crawler fetches in one pass over its front pages.
URL_WINDOW = 128

# Structure positions a site tracks: a page keeps 5-20 distinct ones (dragnet), and a site has a few
# article layouts.
MAX_POSITIONS = 64

# version, pages_seen, weight, unit, n_fps, n_urls, url_pos, n_paths, n_positions
_HEADER = struct.Struct("<BIddIHHBB")
# 2: text fingerprints lost their splitmix finaliser (worker.clean.fingerprint). 3: block texts hashed with
# crc32/adler32 and summed; counts scaled by `unit`. 4: block texts without digits, only ASCII case-folded.
# 5: structure positions of kept blocks (positions, position_seen, position_kept).
# Older fingerprints would never match again: the changelog restore skips a snapshot it cannot read and
# the site re-learns.
_VERSION = 5
# When a site passes max_fingerprints, the lowest counts go until this share of the cap is left.
PRUNE_TO = 0.75
# Counts are float32 multiples of the newest page's weight: rescale long before they could overflow.
_RESCALE_AT = 2.0**32
# The newest page's weight starts at 1 and only grows (by 1/decay a page) until it passes _RESCALE_AT and
# is set back to 1/decay: a snapshot outside [1, _UNIT_MAX] was not written here (2^64 leaves room for a
# half-life down to 1/32 of a page).
_UNIT_MAX = 2.0**64
_LITTLE = sys.byteorder == "little"
_FLOAT32 = struct.Struct("=f")  # one count as array("f") stores it (native order)
_NO_POSITIONS: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class MemoryConfig:
    """The template memory's settings (template_* and memory_budget_mb); defaults are the Settings'."""

    min_pages: int = _DEFAULTS.template_min_pages
    theta: float = _DEFAULTS.template_theta
    half_life: float = _DEFAULTS.template_half_life
    max_fingerprints: int = _DEFAULTS.template_max_fingerprints
    budget_mb: float = _DEFAULTS.memory_budget_mb
    url_window: int = URL_WINDOW

    @classmethod
    def from_settings(cls, settings: Settings) -> MemoryConfig:
        return cls(
            min_pages=settings.template_min_pages,
            theta=settings.template_theta,
            half_life=settings.template_half_life,
            max_fingerprints=settings.template_max_fingerprints,
            budget_mb=settings.memory_budget_mb,
        )

    @property
    def decay(self) -> float:
        return float(0.5 ** (1.0 / self.half_life)) if self.half_life > 0 else 1.0


def name_bytes(site: str) -> int:
    """What a site's name costs the memory that keeps it (the str object)."""
    return sys.getsizeof(site)


def key_hash(key: str) -> int:
    h = _BLAKE2B_8.copy()  # a copy of the empty state: no keyword arguments nor parameter block per call
    h.update(key.encode("utf-8", "surrogatepass"))
    return int.from_bytes(h.digest(), "little")


# blake2b with an 8-byte digest, nothing hashed yet (only ever copied: key_hash's -27% instructions a call).
_BLAKE2B_8 = blake2b(digest_size=8)


def path_hash(path: str) -> int:
    """key_hash of a content path, memoised: a site's pages repeat a few paths (a pure function's memo,
    cleared when full, so no result depends on what was seen before)."""
    known = _PATH_HASHES.get(path)
    if known is None:
        if len(_PATH_HASHES) >= _PATH_HASHES_MAX:
            _PATH_HASHES.clear()
        known = _PATH_HASHES[path] = key_hash(path)
    return known


_PATH_HASHES: dict[str, int] = {}
_PATH_HASHES_MAX = 4096


class SiteState:
    """The statistics of one site. Arrays, not dicts: about 12 bytes per tracked fingerprint.

    Counts, the page weight and the content-path counts are all in units where the newest page weighs
    `unit`; `pages_weight` and `share` give the decayed values."""

    __slots__ = (
        "counts",
        "fps",
        "pages_seen",
        "path_counts",
        "paths",
        "position_kept",
        "position_seen",
        "positions",
        "unit",
        "url_pos",
        "urls",
        "weight",
    )

    def __init__(self) -> None:
        self.fps = array("Q")  # tracked fingerprints, in the order they were first seen
        self.counts = array("f")  # scaled decayed number of pages holding fps[i]
        self.pages_seen = 0  # distinct pages ever counted (not decayed): the cold-start gate
        self.weight = 0.0  # scaled decayed number of pages: the denominator of every share
        self.unit = 1.0  # the weight of the newest page
        self.urls = array("Q")  # ring of recent page-key hashes
        self.url_pos = 0
        self.paths = array("Q")  # hashes of content paths density chose
        self.path_counts = array("f")
        self.positions = array("Q")  # structure positions (tag-path hashes) where density kept a block
        self.position_seen = array("f")  # scaled decayed pages holding positions[i] since it was first kept
        self.position_kept = array("f")  # of those, the pages where density kept a block there

    @property
    def pages_weight(self) -> float:
        """The decayed number of pages seen (1 for the newest page, d for the one before...)."""
        return self.weight / self.unit

    def observe(self, key: int, fps: Iterable[int], config: MemoryConfig) -> bool:
        """Count one page's fingerprints; False (nothing counted) when the page key was seen recently."""
        if key in self.urls:
            return False
        if len(self.urls) < config.url_window:
            self.urls.append(key)
        else:
            self.urls[self.url_pos] = key
            self.url_pos = (self.url_pos + 1) % config.url_window
        unit = self.unit / config.decay if self.pages_seen else 1.0
        if unit > _RESCALE_AT:
            self._rescale(1.0 / self.unit)
            unit = 1.0 / config.decay
        counts = self.counts
        new = _count_page(self.fps, counts, _page(fps), unit)
        self.fps.extend(new)
        if new:  # their counts start at this page's weight (float32 bytes, as the array holds them)
            counts.frombytes(_FLOAT32.pack(unit) * len(new))
        if len(counts) > config.max_fingerprints:
            self._prune(max(1, int(PRUNE_TO * config.max_fingerprints)))
        self.unit = unit
        self.weight += unit
        self.pages_seen += 1
        return True

    def _rescale(self, factor: float) -> None:
        self.counts = array("f", map(factor.__mul__, self.counts))
        self.path_counts = array("f", map(factor.__mul__, self.path_counts))
        self.position_seen = array("f", map(factor.__mul__, self.position_seen))
        self.position_kept = array("f", map(factor.__mul__, self.position_kept))
        self.weight *= factor
        self.unit *= factor

    def _prune(self, keep: int) -> None:
        """Keep the `keep` highest counts; among counts equal to the cut, the earliest tracked go first."""
        self.fps, self.counts = _prune(self.fps, self.counts, keep)

    def observe_content_path(self, path: str) -> None:
        """Count where density found the main content on the page just observed."""
        h = path_hash(path)
        if h in self.paths:  # (a C-level scan of at most MAX_CONTENT_PATHS)
            self.path_counts[self.paths.index(h)] += self.unit
            return
        if len(self.paths) >= MAX_CONTENT_PATHS:
            low = min(range(len(self.paths)), key=self.path_counts.__getitem__)
            self.paths[low] = h
            self.path_counts[low] = self.unit
        else:
            self.paths.append(h)
            self.path_counts.append(self.unit)

    def content_path(self) -> int | None:
        """Hash of the content path density chose on most recent pages, if one dominates."""
        if not self.paths or self.weight <= 0:
            return None
        best = max(range(len(self.paths)), key=self.path_counts.__getitem__)
        if self.path_counts[best] >= CONTENT_PATH_SHARE * self.weight:
            return int(self.paths[best])
        return None

    def observe_positions(self, seen: set[int], kept: set[int]) -> None:
        """Count the structure positions of the page just observed (`kept`: where density kept a block)."""
        counts = self.positions, self.position_seen, self.position_kept
        self._track_positions(_count_positions_python(*counts, seen, kept, self.unit))

    def observe_page_positions(
        self, paths: array[int], parents: list[int], owners: list[int], kept: list[int]
    ) -> None:
        """observe_positions of a page's blocks: block b's position is paths[parents[owners[b]]], and
        `kept` lists the blocks density kept."""
        counts = self.positions, self.position_seen, self.position_kept
        self._track_positions(_page_positions(paths, parents, owners, kept, *counts, self.unit))

    def _track_positions(self, new: Sequence[int]) -> None:
        """Track the positions density kept for the first time (sorted), with this page's weight."""
        unit, tracked = self.unit, self.positions
        if new:
            tracked.extend(new)
            weights = _FLOAT32.pack(unit) * len(new)
            self.position_seen.frombytes(weights)
            self.position_kept.frombytes(weights)
        if len(tracked) > MAX_POSITIONS:
            keep = int(PRUNE_TO * MAX_POSITIONS)
            self.positions, self.position_kept = _prune(tracked, self.position_kept, keep)
            # _prune keeps the survivors in their order: their seen counts follow the same mask.
            seen_of = dict(zip(tracked, self.position_seen, strict=True))
            self.position_seen = array("f", [seen_of[p] for p in self.positions])

    def kept_positions(self, min_pages: float, share: float) -> frozenset[int]:
        """Positions density kept on at least `min_pages` (decayed) of the site's pages and on at least
        `share` of the pages holding them since it first kept them."""
        if not self.positions:
            return _NO_POSITIONS  # nothing kept yet (a site's first page: half the bench mix's): no call
        bar = min_pages * self.unit
        return _kept_positions(self.positions, self.position_kept, self.position_seen, bar, share)

    def share(self, fp: int) -> float:
        try:
            i = self.fps.index(fp)
        except ValueError:
            return 0.0
        return float(self.counts[i]) / self.weight if self.weight > 0 else 0.0

    def shares(self, fps: Sequence[int]) -> list[float]:
        """share() of each of `fps` (one index of the tracked fingerprints for all of them)."""
        if self.weight <= 0:
            return [0.0] * len(fps)
        counts = dict(zip(self.fps, self.counts, strict=True)).get
        weight = self.weight
        return [(counts(fp) or 0.0) / weight for fp in fps]

    def template(self, theta: float) -> frozenset[int]:
        """Fingerprints on at least `theta` of the site's recent pages."""
        return _template(self.fps, self.counts, self.template_bar(theta))

    def template_bar(self, theta: float) -> float:
        """The scaled count a fingerprint needs to be template: on `theta` of the site's recent pages."""
        # float32 counts: allow for rounding so a block on every page is never just under the bar.
        return theta * self.weight * (1.0 - 1e-5)

    def nbytes(self) -> int:
        """Honest size: the array payloads (as serialized) plus the measured per-object overhead."""
        payload = _payload(len(self.fps), len(self.urls), len(self.paths), len(self.positions))
        return _HEADER.size + payload + SITE_OVERHEAD

    def to_bytes(self) -> bytes:
        header = _HEADER.pack(
            _VERSION,
            self.pages_seen,
            self.weight,
            self.unit,
            len(self.fps),
            len(self.urls),
            self.url_pos,
            len(self.paths),
            len(self.positions),
        )
        chunks = [header]
        for a in (
            self.fps,
            self.counts,
            self.urls,
            self.paths,
            self.path_counts,
            self.positions,
            self.position_seen,
            self.position_kept,
        ):
            if not _LITTLE:
                a = array(a.typecode, a)
                a.byteswap()
            chunks.append(a.tobytes())
        return b"".join(chunks)

    @classmethod
    def from_bytes(cls, data: bytes) -> SiteState:
        """Read a snapshot back; ValueError, naming the field, unless it is one `to_bytes` could write."""
        if len(data) < _HEADER.size:
            raise ValueError(f"truncated site snapshot: {len(data)} bytes")
        header = _HEADER.unpack_from(data, 0)
        version, pages_seen, weight, unit, n_fps, n_urls, url_pos, n_paths, n_pos = header
        if version != _VERSION:
            raise ValueError(f"unknown site snapshot version {version}")
        expected = _HEADER.size + _payload(n_fps, n_urls, n_paths, n_pos)
        if len(data) != expected:
            raise ValueError(f"truncated site snapshot: {len(data)} bytes, expected {expected}")
        if not (math.isfinite(weight) and weight >= 0.0):
            raise ValueError(f"site snapshot weight {weight!r} is not a finite non-negative number")
        if not (math.isfinite(unit) and 1.0 <= unit <= _UNIT_MAX):
            raise ValueError(f"site snapshot unit {unit!r} is outside [1, 2^64]")
        if url_pos >= max(n_urls, 1):
            raise ValueError(f"site snapshot ring position {url_pos} is past its {n_urls} page keys")
        if n_paths > MAX_CONTENT_PATHS:
            raise ValueError(f"site snapshot has {n_paths} content paths, at most {MAX_CONTENT_PATHS}")
        if n_pos > MAX_POSITIONS:
            raise ValueError(f"site snapshot has {n_pos} structure positions, at most {MAX_POSITIONS}")
        state = cls()
        state.pages_seen, state.weight, state.unit, state.url_pos = pages_seen, weight, unit, url_pos
        offset = _HEADER.size
        for name, code, n in (
            ("fps", "Q", n_fps),
            ("counts", "f", n_fps),
            ("urls", "Q", n_urls),
            ("paths", "Q", n_paths),
            ("path_counts", "f", n_paths),
            ("positions", "Q", n_pos),
            ("position_seen", "f", n_pos),
            ("position_kept", "f", n_pos),
        ):
            a = array(code)
            size = a.itemsize * n
            a.frombytes(data[offset : offset + size])
            if not _LITTLE:
                a.byteswap()
            setattr(state, name, a)
            offset += size
        for name, counts in (
            ("count", state.counts),
            ("content path count", state.path_counts),
            ("position count", state.position_seen),
            ("position count", state.position_kept),
        ):
            if counts and not (all(map(math.isfinite, counts)) and min(counts) >= 0.0):
                raise ValueError(f"site snapshot has a {name} that is not a finite non-negative number")
        if len(set(state.fps)) != n_fps:
            raise ValueError("site snapshot tracks a fingerprint twice")
        if len(set(state.positions)) != n_pos:
            raise ValueError("site snapshot tracks a structure position twice")
        return state


def _page(fps: Iterable[int]) -> set[int] | frozenset[int] | array[int]:
    """A page's fingerprints as the counting takes them: a set, or an array('Q') (PageFingerprints')."""
    # the pipeline's array (PageFingerprints.observed) tested first: it is what every page passes
    if (isinstance(fps, array) and fps.typecode == "Q") or isinstance(fps, (set, frozenset)):
        return fps
    return set(fps)


def _count_page_python(
    fps: array[int], counts: array[float], page: set[int] | frozenset[int] | array[int], unit: float
) -> array[int]:
    """Add `unit` to the count of every tracked fingerprint on the page, each once (0 never: it stands for
    no fingerprint); the page's untracked ones, sorted (the state must not depend on set order)."""
    distinct = set(page)
    distinct.discard(0)
    if counts:
        index = dict(zip(fps, range(len(counts)), strict=True)).get
        new: list[int] = []
        for fp in distinct:
            i = index(fp)
            if i is None:
                new.append(fp)
            else:
                counts[i] += unit
    else:
        new = list(distinct)
    new.sort()
    return array("Q", new)


def _prune_python(fps: array[int], counts: array[float], keep: int) -> tuple[array[int], array[float]]:
    """The `keep` highest counts and their fingerprints; among counts equal to the cut, the earliest
    tracked go first."""
    values = counts.tolist()
    drop = len(values) - keep
    ranked = sorted(values)
    cut = ranked[drop - 1]
    # Everything below the cut goes, and the first `ties` entries equal to it: C-level scans.
    ties = drop - bisect_left(ranked, cut)
    j = -1
    for _ in range(ties):
        j = values.index(cut, j + 1)
        values[j] = -1.0
    mask = list(map(cut.__le__, values))
    return array("Q", compress(fps, mask)), array("f", compress(counts, mask))


def _template_python(fps: array[int], counts: array[float], bar: float) -> frozenset[int]:
    """The tracked fingerprints whose count reaches `bar`."""
    return frozenset(compress(fps, map(bar.__le__, counts)))


def _count_positions_python(
    positions: array[int],
    position_seen: array[float],
    position_kept: array[float],
    seen: set[int],
    kept: set[int],
    unit: float,
) -> list[int]:
    """Add `unit` to the seen count of every tracked position among `seen`, and to its kept count when it
    is among `kept` too; the kept positions not tracked yet, sorted (the state must not depend on set
    order)."""
    index = dict(zip(positions, range(len(positions)), strict=True))
    for p in seen.intersection(index):  # a page holds ~50 positions, a site tracks a few
        i = index[p]
        position_seen[i] += unit
        if p in kept:
            position_kept[i] += unit
    return sorted(kept.difference(index))


def block_positions(paths: array[int], parents: list[int], owners: list[int]) -> list[int]:
    """Each block's structure position: the path fingerprint of its innermost element's parent."""
    return list(map(paths.__getitem__, map(parents.__getitem__, owners)))


def position_sets(
    paths: array[int], parents: list[int], owners: list[int], kept: list[int]
) -> tuple[set[int], set[int]]:
    """The structure positions of the page's blocks, and of the blocks in `kept`."""
    positions = block_positions(paths, parents, owners)
    return set(positions), set(map(positions.__getitem__, kept))


def _page_positions_python(
    paths: array[int],
    parents: list[int],
    owners: list[int],
    kept: list[int],
    positions: array[int],
    position_seen: array[float],
    position_kept: array[float],
    unit: float,
) -> list[int]:
    """_count_positions_python with a page's blocks (position_sets)."""
    seen, held = position_sets(paths, parents, owners, kept)
    return _count_positions_python(positions, position_seen, position_kept, seen, held, unit)


def _kept_positions_python(
    positions: array[int], position_kept: array[float], position_seen: array[float], bar: float, share: float
) -> frozenset[int]:
    """The positions kept on at least `bar` (scaled) pages and on at least `share` of those holding them."""
    return frozenset(
        p
        for p, k, n in zip(positions, position_kept, position_seen, strict=True)
        if k >= bar and k >= share * n
    )


def _payload(n_fps: int, n_urls: int, n_paths: int, n_positions: int) -> int:
    """Serialized bytes of the arrays: a fingerprint or a path is 8 + 4 (count), a page key 8, a structure
    position 8 + 4 + 4 (its two counts)."""
    return 12 * n_fps + 8 * n_urls + 12 * n_paths + 16 * n_positions


class SiteMemory:
    """All sites one worker (or one partition) has learned, least recently used first out."""

    def __init__(self, config: MemoryConfig | None = None) -> None:
        self.config = config or MemoryConfig()
        self._sites: OrderedDict[str, SiteState] = OrderedDict()
        self._bytes = 0
        self._dirty: set[str] = set()
        self.evictions = 0
        # False freezes the statistics (the second pass of --two-pass): pages are cleaned with what was
        # learned but counted nowhere.
        self.learning = True

    @property
    def budget_bytes(self) -> int:
        return int(self.config.budget_mb * 1024 * 1024)

    @property
    def bytes_in_use(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._sites)

    def __contains__(self, site: str) -> bool:
        return site in self._sites

    def sites(self) -> list[str]:
        return list(self._sites)

    def get(self, site: str) -> SiteState | None:
        state = self._sites.get(site)
        if state is not None:
            self._sites.move_to_end(site)
        return state

    def observe(self, site: str, page_key: str, fps: Iterable[int]) -> SiteState:
        """Count one page of `site` (once per page key) and return the site's state."""
        return self.count(site, page_key, fps)[0]

    def count(self, site: str, page_key: str, fps: Iterable[int]) -> tuple[SiteState, bool]:
        """observe, and whether the page was counted (a page key not seen recently, the memory learning)."""
        state = self._sites.get(site)
        if not self.learning:
            if state is None:
                return SiteState(), False
            self._sites.move_to_end(site)
            return state, False
        if state is None:
            state = self._sites[site] = SiteState()
            self._bytes += state.nbytes() + name_bytes(site)
        else:
            self._sites.move_to_end(site)
        before = state.nbytes()
        counted = state.observe(key_hash(page_key), fps, self.config)
        if counted:
            self._dirty.add(site)
        self._bytes += state.nbytes() - before
        self._evict(keep=site)
        return state, counted

    def observe_content_path(self, site: str, path: str) -> None:
        state = self._sites.get(site)
        if state is not None and self.learning:
            before = state.nbytes()
            state.observe_content_path(path)
            self._bytes += state.nbytes() - before

    def observe_positions(self, site: str, seen: set[int], kept: set[int]) -> None:
        state = self._sites.get(site)
        if state is not None and self.learning:
            before = state.nbytes()
            state.observe_positions(seen, kept)
            self._bytes += state.nbytes() - before
            self._evict(keep=site)

    def observe_extraction(
        self, site: str, path: str, paths: array[int], parents: list[int], owners: list[int], kept: list[int]
    ) -> None:
        """observe_content_path and the page's block positions (SiteState.observe_page_positions) at once:
        what density found on the page just observed."""
        state = self._sites.get(site)
        if state is not None and self.learning:
            before = state.nbytes()
            state.observe_content_path(path)
            state.observe_page_positions(paths, parents, owners, kept)
            self._bytes += state.nbytes() - before
            self._evict(keep=site)

    def set_budget_mb(self, budget_mb: float) -> None:
        """Change the budget (the stream splits one budget over its partitions); evicts at once."""
        self.config = replace(self.config, budget_mb=budget_mb)
        self._evict(keep="")

    def _evict(self, keep: str) -> None:
        while self._bytes > self.budget_bytes and len(self._sites) > 1:
            site = next(iter(self._sites))
            if site == keep:
                break
            self.drop(site)
            self.evictions += 1

    # Snapshot / restore, for the changelog.
    def dump(self, site: str) -> bytes | None:
        state = self._sites.get(site)
        return None if state is None else state.to_bytes()

    def load(self, site: str, data: bytes | None) -> None:
        """Install a snapshot (None deletes the site): last value wins."""
        self.drop(site)
        if data is None:
            return
        state = SiteState.from_bytes(data)
        self._sites[site] = state
        self._bytes += state.nbytes() + name_bytes(site)
        self._evict(keep=site)

    def drop(self, site: str) -> None:
        state = self._sites.pop(site, None)
        if state is not None:
            self._bytes -= state.nbytes() + name_bytes(site)
        self._dirty.discard(site)

    def take_dirty(self) -> list[str]:
        """Sites changed since the last call, in a stable order; clears the set."""
        dirty = sorted(s for s in self._dirty if s in self._sites)
        self._dirty.clear()
        return dirty


# In C (worker/clean/_native.c: on the arrays' storage, no dict of the site's fingerprints per page, no
# int or float object per count), once native.py has checked them against the Python ones; else these.
_count_page, _template, _prune = native.memory_counters(_count_page_python, _template_python, _prune_python)
# In C as well (no set, dict or int object per position or block), once native.py has checked them; else
# these. The C page positions leave to Python what it does not read (an index out of range).
_page_positions, _kept_positions = native.position_counters(_page_positions_python, _kept_positions_python)
