"""SiteMemory: counting per distinct page, decay, caps, LRU budget, snapshots, determinism."""

from __future__ import annotations

import struct
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from worker.clean.pipeline import clean_page
from worker.clean.sitememory import (
    MAX_POSITIONS,
    PRUNE_TO,
    SITE_OVERHEAD,
    MemoryConfig,
    SiteMemory,
    SiteState,
    key_hash,
    name_bytes,
)
from worker.models import Page
from worker.sample import SITE as SAMPLE_SITE
from worker.sample import sample_pages

CFG = MemoryConfig(min_pages=2, theta=0.6, half_life=10.0, max_fingerprints=64, url_window=16)

fp_sets = st.sets(st.integers(min_value=1, max_value=2**64 - 1), max_size=80)


def test_share_counts_distinct_pages_and_ignores_repeated_urls() -> None:
    mem = SiteMemory(CFG)
    mem.observe("s", "u1", {1, 2})
    mem.observe("s", "u2", {1, 3})
    state = mem.observe("s", "u1", {1, 2, 99})  # same URL again: not counted
    assert state.pages_seen == 2
    assert state.share(1) == pytest.approx(1.0)
    assert state.share(2) == pytest.approx(CFG.decay / (1 + CFG.decay))
    assert state.share(99) == 0.0
    assert 1 in state.template(CFG.theta)
    assert 2 not in state.template(CFG.theta)


def test_count_says_whether_the_page_was_counted() -> None:
    mem = SiteMemory(CFG)
    state, counted = mem.count("s", "u1", {1, 2})
    assert counted
    assert mem.count("s", "u1", {1, 2}) == (state, False)  # a page key seen recently
    assert mem.count("s", "u2", {1}) == (state, True)
    mem.count("t", "u1", {5})
    mem.learning = False  # frozen: nothing counted, the site still the most recently used
    assert mem.count("s", "u3", {1}) == (state, False)
    assert state.pages_seen == 2
    assert mem.sites() == ["t", "s"]
    fresh, counted = mem.count("new", "u1", {1})
    assert (fresh.pages_seen, counted) == (0, False)
    assert "new" not in mem


def test_redesign_is_relearned_within_a_few_half_lives() -> None:
    mem = SiteMemory(CFG)
    for i in range(30):
        mem.observe("s", f"old{i}", {1})
    for i in range(30):
        state = mem.observe("s", f"new{i}", {2})
    assert 1 not in state.template(CFG.theta)
    assert 2 in state.template(CFG.theta)
    assert state.share(1) < 0.2


def test_sites_are_independent_and_memory_is_not_global() -> None:
    a, b = SiteMemory(CFG), SiteMemory(CFG)
    a.observe("s", "u", {1})
    assert b.get("s") is None
    a.observe("t", "u", {2})
    assert a.get("s") is not None
    assert a.get("t") is not None
    assert a.get("s").share(2) == 0.0  # type: ignore[union-attr]


@given(st.lists(fp_sets, min_size=1, max_size=40))
def test_cap_shares_and_weights_stay_bounded(pages: list[set[int]]) -> None:
    mem = SiteMemory(CFG)
    for i, fps in enumerate(pages):
        state = mem.observe("s", f"u{i}", fps)
        assert len(state.fps) == len(state.counts) <= CFG.max_fingerprints
        assert len(set(state.fps)) == len(state.fps)
        assert 0.0 < state.pages_weight <= 1.0 / (1.0 - CFG.decay) + 1e-6
        assert all(0.0 <= state.share(fp) <= 1.0 + 1e-5 for fp in fps)


@given(
    st.lists(
        st.sets(st.integers(min_value=100, max_value=10**9), max_size=CFG.max_fingerprints // 2), max_size=40
    )
)
def test_a_block_on_every_page_survives_any_noise_within_half_the_cap(noise: list[set[int]]) -> None:
    mem = SiteMemory(CFG)
    state = mem.observe("s", "first", {7})
    for i, fps in enumerate(noise):
        state = mem.observe("s", f"u{i}", fps | {7})
        assert state.share(7) == pytest.approx(1.0, rel=1e-4)
        assert 7 in state.template(CFG.theta)


@given(st.lists(fp_sets, max_size=25))
def test_snapshot_round_trips_and_is_deterministic(pages: list[set[int]]) -> None:
    one, two = SiteMemory(CFG), SiteMemory(CFG)
    for i, fps in enumerate(pages):
        one.observe("s", f"u{i}", fps)
        two.observe("s", f"u{i}", sorted(fps, reverse=True))  # same fingerprints, other order
    if not pages:
        assert one.dump("s") is None
        return
    data = one.dump("s")
    assert data is not None
    assert data == two.dump("s")
    restored = SiteState.from_bytes(data)
    assert restored.to_bytes() == data
    assert restored.template(CFG.theta) == one.get("s").template(CFG.theta)  # type: ignore[union-attr]
    assert restored.nbytes() == len(data) + SITE_OVERHEAD  # the snapshot plus a fixed overhead


def test_restored_site_keeps_its_recent_urls() -> None:
    mem = SiteMemory(CFG)
    mem.observe("s", "u1", {1})
    copy = SiteMemory(CFG)
    copy.load("s", mem.dump("s"))
    assert copy.observe("s", "u1", {1}).pages_seen == 1
    copy.load("s", None)  # a tombstone deletes
    assert "s" not in copy


def test_snapshot_rejects_garbage() -> None:
    with pytest.raises(ValueError, match="version"):
        SiteState.from_bytes(b"\x09" + bytes(64))
    good = SiteMemory(CFG)
    good.observe("s", "u", {1, 2, 3})
    data = good.dump("s")
    assert data is not None
    with pytest.raises(ValueError, match="truncated"):
        SiteState.from_bytes(data[:-3])


def test_lru_evicts_least_recent_site_under_the_budget() -> None:
    probe = SiteMemory(CFG)
    probe.observe("x", "u", set(range(1, 41)))
    per_site = probe.bytes_in_use
    mem = SiteMemory(MemoryConfig(budget_mb=(per_site * 3.5) / (1024 * 1024), max_fingerprints=64))
    for site in ("a", "b", "c"):
        mem.observe(site, "u", set(range(1, 41)))
    mem.get("a")  # touch: "b" is now the least recently used
    mem.observe("d", "u", set(range(1, 41)))
    assert mem.sites() == ["c", "a", "d"]
    assert mem.evictions == 1
    assert mem.bytes_in_use <= mem.budget_bytes
    assert mem.bytes_in_use == sum(
        mem.get(s).nbytes() + name_bytes(s)  # type: ignore[union-attr]
        for s in mem.sites()
    )


def test_dirty_sites_are_reported_once() -> None:
    mem = SiteMemory(CFG)
    mem.observe("b", "u", {1})
    mem.observe("a", "u", {1})
    mem.observe("a", "u", {1})  # repeat: no change, but already dirty
    assert mem.take_dirty() == ["a", "b"]
    assert mem.take_dirty() == []
    mem.observe("a", "u", {1})  # repeated URL: nothing changed
    assert mem.take_dirty() == []


def test_content_path_needs_a_majority() -> None:
    mem = SiteMemory(CFG)
    for i in range(4):
        mem.observe("s", f"u{i}", {1})
        mem.observe_content_path("s", "html>body>div#main" if i else "html>body>div#other")
    state = mem.get("s")
    assert state is not None
    assert state.content_path() == key_hash("html>body>div#main")


def test_default_site_stays_under_32_kb() -> None:
    mem = SiteMemory()
    cap = mem.config.max_fingerprints
    sizes, peak = [], 0
    for i in range(200):
        state = mem.observe("s", f"u{i}", {i * 1000 + j for j in range(60)} | set(range(1, 200)))
        sizes.append(len(state.fps))
        peak = max(peak, state.nbytes())
    assert cap - 60 < max(sizes) <= cap  # fills up to the cap, never past it
    assert min(sizes[20:]) >= int(PRUNE_TO * cap)  # pruned back to the low-water mark, not further
    assert set(range(1, 200)) <= set(state.fps)  # the fingerprints on every page always survive
    assert peak <= 32 * 1024


def test_frozen_memory_counts_nothing() -> None:
    mem = SiteMemory(CFG)
    mem.observe("s", "u1", {1})
    mem.learning = False
    assert mem.observe("s", "u2", {2}).pages_seen == 1
    assert mem.observe("new", "u", {3}).pages_seen == 0
    assert "new" not in mem
    assert mem.take_dirty() == ["s"]


def test_snapshots_of_older_fingerprints_are_rejected() -> None:
    # Versions 1 to 3 held fingerprints the fingerprinting no longer computes, version 4 no structure
    # positions: never reuse them.
    mem = SiteMemory(CFG)
    mem.observe("s", "u", {1, 2})
    data = mem.dump("s")
    assert data is not None
    assert data[0] == 5
    for old in (1, 2, 3, 4):
        with pytest.raises(ValueError, match="version"):
            SiteState.from_bytes(bytes([old]) + data[1:])


@given(
    st.lists(st.sets(st.integers(min_value=1, max_value=12), max_size=6), min_size=1, max_size=60),
    st.sampled_from([0.5, 3.0, 50.0]),
)
def test_lazy_decay_gives_the_explicitly_decayed_shares(pages: list[set[int]], half_life: float) -> None:
    # Half-life 0.5 makes every page weigh 4x the one before: the rescaling runs every 16 pages.
    cfg = MemoryConfig(half_life=half_life, max_fingerprints=64, url_window=4)
    mem = SiteMemory(cfg)
    counts: dict[int, float] = {}
    weight = 0.0
    for i, fps in enumerate(pages):
        state = mem.observe("s", f"u{i}", fps)
        counts = {fp: c * cfg.decay for fp, c in counts.items()}
        for fp in fps:
            counts[fp] = counts.get(fp, 0.0) + 1.0
        weight = weight * cfg.decay + 1.0
    assert state.pages_weight == pytest.approx(weight, rel=1e-6)
    for fp in range(1, 13):
        assert state.share(fp) == pytest.approx(counts.get(fp, 0.0) / weight, rel=1e-4, abs=1e-9)


# --- snapshots read back are checked (a bad changelog record must not poison a site) -----------


# Small enough that the sample site fills the page-key ring and prunes fingerprints: every field is used.
SMALL = MemoryConfig(min_pages=2, max_fingerprints=16, url_window=4)


def _sample_snapshot() -> tuple[bytes, list[Page]]:
    pages = [
        Page(id=p.name, body=p.read_bytes(), url=f"https://{SAMPLE_SITE}/{p.name}", site=SAMPLE_SITE)
        for p in sample_pages()
    ]
    memory = SiteMemory(SMALL)
    for page in pages:
        clean_page(page, memory)
    data = memory.dump(SAMPLE_SITE)
    assert data is not None
    return data, pages


SNAPSHOT, SAMPLE = _sample_snapshot()
# Header fields (offset, struct format) of a version-5 snapshot: pages_seen, weight, unit, n_fps, n_urls,
# url_pos, n_paths, n_positions.
HEADER_FIELDS = [(1, "<I"), (5, "<d"), (13, "<d"), (21, "<I"), (25, "<H"), (27, "<H"), (29, "<B"), (30, "<B")]
ODD_VALUES = [0, 1, 2, 7, 255, 65535, 2**31, -1.0, 0.0, 0.5, 1e300, float("nan"), float("inf"), -float("inf")]


def _cleans_without_error(state: SiteState) -> None:
    memory = SiteMemory(SMALL)
    memory.load(SAMPLE_SITE, state.to_bytes())
    for page in SAMPLE:
        doc = clean_page(replace(page, id=page.id + "-again"), memory)  # a new page key: counted
        assert doc.error is None, (doc.error, doc.error_detail)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_load_into_a_usable_state_or_raise_value_error(data: bytes) -> None:
    for candidate in (data, SNAPSHOT[:1] + data, SNAPSHOT[:32] + data):
        try:
            state = SiteState.from_bytes(candidate)
        except ValueError:
            continue
        _cleans_without_error(state)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, len(SNAPSHOT) - 1), st.integers(0, 255)), max_size=6),
    st.lists(st.tuples(st.sampled_from(HEADER_FIELDS), st.sampled_from(ODD_VALUES)), max_size=3),
)
def test_mutated_snapshots_load_into_a_usable_state_or_raise_value_error(
    flips: list[tuple[int, int]], fields: list[tuple[tuple[int, str], float]]
) -> None:
    data = bytearray(SNAPSHOT)
    for where, byte in flips:
        data[where] = byte
    for (offset, fmt), value in fields:
        try:
            struct.pack_into(fmt, data, offset, int(value) if fmt[1] in "IHB" else value)
        except (struct.error, ValueError, OverflowError):
            continue  # not representable in that field
    try:
        state = SiteState.from_bytes(bytes(data))
    except ValueError:
        return
    _cleans_without_error(state)


@pytest.mark.parametrize(
    ("offset", "fmt", "value", "complaint"),
    [
        (5, "<d", float("nan"), "weight"),
        (5, "<d", -1.0, "weight"),
        (13, "<d", 0.0, "unit"),
        (13, "<d", float("inf"), "unit"),
        (27, "<H", 60000, "ring position"),
        (29, "<B", 9, "content paths"),  # also makes the length wrong: either complaint will do
        (30, "<B", MAX_POSITIONS + 1, "structure positions"),
    ],
)
def test_each_field_is_checked(offset: int, fmt: str, value: float, complaint: str) -> None:
    data = bytearray(SNAPSHOT)
    struct.pack_into(fmt, data, offset, value)
    with pytest.raises(ValueError, match=f"{complaint}|truncated"):
        SiteState.from_bytes(bytes(data))


@pytest.mark.parametrize(
    ("counts", "keys", "complaint"),
    [("counts", "fps", "fingerprint twice"), ("position_kept", "positions", "position twice")],
)
def test_nan_and_negative_counts_and_repeated_keys_are_refused(
    counts: str, keys: str, complaint: str
) -> None:
    state = SiteState.from_bytes(SNAPSHOT)
    assert len(getattr(state, keys)) >= 2  # the sample site's pages fill both (its articles' slots too)
    for poison in (float("nan"), -1.0, float("inf")):
        bad = SiteState.from_bytes(SNAPSHOT)
        getattr(bad, counts)[0] = poison
        with pytest.raises(ValueError, match="count"):
            SiteState.from_bytes(bad.to_bytes())
    twice = SiteState.from_bytes(SNAPSHOT)
    getattr(twice, keys)[1] = getattr(twice, keys)[0]
    with pytest.raises(ValueError, match=complaint):
        SiteState.from_bytes(twice.to_bytes())
    assert SiteState.from_bytes(state.to_bytes()).to_bytes() == SNAPSHOT


def test_the_budget_counts_site_names() -> None:
    mem = SiteMemory(MemoryConfig(budget_mb=1.0))
    names = [f"{i}-" + "k" * 65_536 for i in range(40)]  # 40 sites with 64 KB names: 2.6 MB of names
    for name in names:
        mem.observe(name, "u", {1, 2, 3})
    assert mem.bytes_in_use <= mem.budget_bytes
    assert len(mem) < 16  # names alone overflow the budget: old sites were evicted
    assert mem.bytes_in_use == sum(
        mem.get(s).nbytes() + name_bytes(s)  # type: ignore[union-attr]
        for s in mem.sites()
    )
    for site in mem.sites():
        mem.drop(site)
    assert mem.bytes_in_use == 0


# --- structure positions: where density keeps blocks on a site's pages ---------------------------


def _positions_after(pages: list[tuple[set[int], set[int]]]) -> SiteState:
    mem = SiteMemory(CFG)
    for i, (seen, kept) in enumerate(pages):
        mem.observe("s", f"u{i}", {1})
        mem.observe_positions("s", seen, kept)
    state = mem.get("s")
    assert state is not None
    return state


def test_a_position_kept_on_every_page_holding_it_is_a_slot() -> None:
    # 10: kept on every page. 20: kept on one page of four. 30: kept once, on the newest page only.
    both = {10, 20}
    state = _positions_after([(both, both), (both, {10}), (both, {10}), ({10, 20, 30}, {10, 30})])
    assert state.kept_positions(1.5, 0.95) == frozenset({10})
    assert state.kept_positions(0.9, 0.95) == frozenset({10, 30})  # one page's evidence is enough at 0.9
    assert state.kept_positions(0.5, 0.2) == frozenset({10, 20, 30})  # 20: kept on 1 of 4 (decayed: 0.81)


def test_positions_are_counted_only_once_kept_and_stay_bounded() -> None:
    mem = SiteMemory(CFG)
    for i in range(40):
        mem.observe("s", f"u{i}", {1})
        mem.observe_positions("s", {7, 1000 + i, 2000 + i}, {7, 1000 + i})  # 2000 + i: seen, never kept
        state = mem.get("s")
        assert state is not None
        assert len(state.positions) <= MAX_POSITIONS
        assert mem.bytes_in_use == state.nbytes() + name_bytes("s")  # the budget counts them
    assert 7 in state.positions
    assert not any(p >= 2000 for p in state.positions)
    assert state.kept_positions(1.5, 0.95) == frozenset({7})
    restored = SiteState.from_bytes(state.to_bytes())
    assert restored.kept_positions(1.5, 0.95) == frozenset({7})
    assert list(restored.positions) == list(state.positions)


def test_a_slot_fades_when_density_stops_keeping_it() -> None:
    state = _positions_after([({5}, {5})] * 3 + [({5}, set())] * 2)
    assert state.kept_positions(1.5, 0.95) == frozenset()


def test_frozen_memory_learns_no_positions() -> None:
    mem = SiteMemory(CFG)
    mem.observe("s", "u", {1})
    mem.learning = False
    mem.observe_positions("s", {5}, {5})
    state = mem.get("s")
    assert state is not None
    assert len(state.positions) == 0


def test_key_hash_is_blake2b_of_the_keys_utf8_whatever_was_hashed_before() -> None:
    # key_hash copies one shared empty state: a key hashed before must not leak into the next one's value.
    from _blake2 import blake2b

    keys = ["https://example.com/a", "", "caf\u00e9 \udcff", "https://example.com/a"]
    got = [key_hash(k) for k in keys]
    want = [
        int.from_bytes(blake2b(k.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")
        for k in keys
    ]
    assert got == want
    assert got[0] == got[3] == 0xA4E5475FEB9D4AF2  # pinned: snapshots hold these values
