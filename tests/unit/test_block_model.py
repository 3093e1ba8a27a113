"""The learned block model: labels from gold, features (memory ones included), the shipped model file (it
loads, reproduces stored scores, was trained only on training data), the tree export, and inference on
generated pages.

Regenerate the stored scores after retraining: `.venv/bin/python -m tests.unit.test_block_model`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3
from tests.unit.test_properties_extract import TREES
from worker.clean import native
from worker.clean.classify import Classified, classify_region
from worker.clean.kinds import captions
from worker.clean.model import decide
from worker.clean.model import features as features_mod
from worker.clean.model import trees as trees_mod
from worker.clean.model.features import FEATURES, block_features
from worker.clean.model.trees import Trees
from worker.clean.options import Budget, CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.region import choose
from worker.clean.score import score
from worker.clean.segment import segment
from worker.clean.sitememory import SiteMemory
from worker.clean.template import SiteFacts
from worker.models import Page
from worker.sample import sample_pages
from worker.train.collect import Recorder
from worker.train.labels import align

SCORES = Path(__file__).resolve().parents[1] / "golden" / "block_model_scores.json"
EVALUATION_ONLY = {"scrapinghub_aeb", "trafilatura_eval"}


def _stages(html: str) -> tuple[Any, Any, Any, Classified]:
    seg = segment(LexborHTMLParser(html).body, Budget(10_000))  # type: ignore[arg-type]
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    return seg, scores, region, classify_region(seg, scores, region)


def _col(x: np.ndarray[Any, Any], name: str) -> list[float]:
    return [float(v) for v in x[FEATURES.index(name)]]


# --- labels ---------------------------------------------------------------------------------------


def test_a_block_is_content_when_half_its_shingles_are_in_the_gold() -> None:
    gold = "one two three four five six seven eight nine ten eleven twelve"
    labels = align(["one two three four five six", "one two three four x y z w", "a b c d e f"], gold)
    # 3/3 shingles; 1/5 shingles; none
    assert labels.content == [True, False, False]
    assert labels.share == [1.0, 0.2, 0.0]
    assert labels.weights == pytest.approx([3 / 11, 5 / 11, 3 / 11])


def test_short_blocks_need_their_whole_sequence_and_rare_single_words() -> None:
    gold = "the cat sat on the mat and the dog sat on the cat and the bird sat on the mat"
    labels = align(["the", "dog", "sat on", "Home", "!!"], gold)
    # "the" is in the gold 6 times: says nothing; "dog" once; "sat on" is a 2-token run of the gold
    assert labels.content == [False, True, True, False, False]
    assert labels.weights[-1] == 0.0  # no token: nothing the scorer sees


def test_the_article_header_and_captions_are_not_body() -> None:
    body = "the bridge over the river reopened on monday after eight months of repairs to its bearings"
    gold = f"Bridge reopens\n\nBy Jane Doe\n\n{body}\n\nA caption under the photo"
    texts = ["Bridge reopens", "By Jane Doe", body, "A caption under the photo"]
    kinds = ["heading", "paragraph", "paragraph", "paragraph"]
    labels = align(texts, gold, kinds, [False, False, False, True])
    assert labels.content == [False, False, True, False]
    assert align(texts, gold).content == [True, True, True, True]  # without kinds: the gold's own view


def test_a_repeat_of_text_already_claimed_is_not_content() -> None:
    lead = "the bridge over the river reopened on monday after eight months of repairs"
    gold = f"{lead}\n\nit carries nine thousand cars a day across the valley"
    texts = [lead, "it carries nine thousand cars a day across the valley", lead]
    # the teaser (block 0) repeats the lead the heuristics kept (block 2): the gold holds it once
    assert align(texts, gold, first=[1, 2]).content == [False, True, True]
    # without a kept block, the first in document order claims it
    assert align(texts, gold).content == [True, True, False]
    # a text the gold holds twice covers two blocks
    assert align(texts, f"{gold}\n\n{lead}", first=[2]).content == [True, True, True]


def test_captions_are_blocks_under_figure_and_figcaption() -> None:
    seg, *_ = _stages(
        f"<body><p>{PROSE}</p><figure><div>photo</div><figcaption>Caption</figcaption></figure></body>"
    )
    assert captions(seg) == [False, True, True]


# --- features -------------------------------------------------------------------------------------

PAGE = f"""<body><div class="menu">{NAV}</div>
<div class="post"><h1>Bridge opens</h1><p>{PROSE}</p><p>{PROSE2}</p><p>{PROSE3}</p></div>
<div class="footer"><p>Contact us</p></div></body>"""


def test_features_of_a_fixture_page() -> None:
    seg, scores, region, heur = _stages(PAGE)
    x = block_features(seg, scores, region, heur.kept, None)
    n = len(seg.texts)
    assert x.shape == (len(FEATURES), n)
    assert np.isfinite(x).all()
    prose = seg.texts.index(PROSE)
    assert _col(x, "log_chars")[prose] == pytest.approx(math.log1p(len(PROSE)))
    assert _col(x, "heur_kept") == [1.0 if i in heur.kept else 0.0 for i in range(n)]
    assert _col(x, "in_region")[prose] == 1.0
    assert _col(x, "in_region")[0] == 0.0  # the menu
    assert _col(x, "region_distance")[0] < 0 < _col(x, "region_distance")[-1]
    # neighbours: the block before's value, -1 before the first block
    assert _col(x, "log_chars@-1")[1:] == _col(x, "log_chars")[:-1]
    assert _col(x, "log_chars@-1")[0] == -1.0
    assert _col(x, "log_chars@+2")[: n - 2] == _col(x, "log_chars")[2:]
    assert _col(x, "has_memory") == [0.0] * n


def test_context_features_read_the_kept_blocks() -> None:
    texts = ["Share this", "A lead. It repeats.", "Menu", "A lead. It repeats.", "Body text, still going"]
    out = np.zeros((len(FEATURES), len(texts)))
    features_mod._repeats(out, texts, [3, 4])
    assert _col(out, "repeats_kept") == [0.0, 1.0, 0.0, 0.0, 0.0]  # the kept block itself is no repeat
    assert features_mod._kept_gap(5, [3, 4]).tolist() == [3.0, 2.0, 1.0, 0.0, 0.0]
    assert features_mod._kept_gap(80, [0])[-1] == 50.0  # at most _FAR
    assert features_mod._kept_gap(2, []).tolist() == [50.0, 50.0]
    none = np.zeros((len(FEATURES), 2))
    features_mod._repeats(none, ["One.", "Two"], [])
    assert _col(none, "repeats_kept") == [0.0, 0.0]


@pytest.mark.parametrize("python", [True, False])
def test_sentence_ends_and_kept_gaps_in_both_paths(python: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if python:
        monkeypatch.setattr(features_mod, "_accel", None)
    seg, scores, region, _ = _stages(
        "<body><p>A lead. It repeats.</p><p>Menu</p><p>He said \u201cyes.\u201d</p>"
        "<p>\u3053\u3093\u306b\u3061\u306f\u3002</p><p>Body text, still going</p></body>"
    )
    x = block_features(seg, scores, region, [3], None)
    assert _col(x, "ends_sentence") == [1.0, 0.0, 1.0, 1.0, 0.0]
    assert _col(x, "kept_gap") == [3.0, 2.0, 1.0, 0.0, 1.0]


def _site_page(i: int) -> Page:
    article = [PROSE, PROSE2, PROSE3][i % 3]
    html = (
        f"<body><div class='menu'>{NAV}</div><div class='post'><p>{article} Page {'x' * i}.</p></div></body>"
    )
    return Page(id=str(i), url=f"https://example.org/{i}", site="example.org", html=html)


def test_memory_features_on_a_tiny_synthetic_site() -> None:
    memory = SiteMemory()
    calls = []
    for i in range(2):  # two pages: the site is still cold, nothing is stripped, every block is seen
        recorder = Recorder()
        clean_page(_site_page(i), memory, model=recorder)
        calls.append(recorder.calls[0])
    x, seg, _ = calls[-1]
    rows = x.T
    shares = _col(rows, "elem_share")
    menu = [i for i, t in enumerate(seg.texts) if "Page" not in t]
    post = [i for i, t in enumerate(seg.texts) if "Page" in t]
    assert menu
    assert post
    assert all(shares[i] == pytest.approx(1.0, abs=1e-5) for i in menu)  # on both pages
    assert all(0.0 < shares[i] < 0.6 for i in post)  # only on this one
    assert set(_col(rows, "has_memory")) == {1.0}
    assert _col(rows, "site_log_pages") == pytest.approx([math.log1p(2)] * len(seg.texts))
    single = Recorder()
    clean_page(_site_page(1), None, model=single)
    assert set(_col(single.calls[0][0].T, "has_memory")) == {0.0}


def test_features_on_a_stripped_page_read_the_learned_content_location() -> None:
    memory = SiteMemory()
    recorder = Recorder()
    for i in range(8):
        recorder = Recorder()
        clean_page(_site_page(i), memory, model=recorder)
    x, _, _ = recorder.calls[0]
    assert set(_col(x.T, "in_learned")) == {1.0}  # the menu is gone; what is left is the learned post


# --- the shipped model ----------------------------------------------------------------------------


def _shipped_scores() -> dict[str, list[float]]:
    model = decide.shipped()
    out = {}
    for path in sample_pages():
        seg, scores, region, heur = _stages(path.read_bytes().decode("utf-8", "replace"))
        out[path.name] = model.scores(block_features(seg, scores, region, heur.kept, None)).tolist()
    return out


def test_the_shipped_model_reproduces_its_stored_scores() -> None:
    stored = json.loads(SCORES.read_text())
    got = _shipped_scores()
    assert got.keys() == stored.keys()
    for name, values in stored.items():
        assert got[name] == pytest.approx(values, abs=1e-9), name


def test_the_shipped_model_is_small_and_trained_only_on_training_data() -> None:
    path = Path(decide.__file__).with_name(decide.MODEL_FILE)
    assert path.stat().st_size < 2 * 1024 * 1024
    manifest = decide.shipped().manifest
    names = {s["name"]: s["split"] for s in manifest["sources"]}
    assert names.keys() & EVALUATION_ONLY == set()
    assert names.get("dragnet", "train") == "train"  # never dragnet's test split
    assert manifest["seed"] == 7


def test_the_model_keeps_the_article_of_a_sample_page() -> None:
    path = sample_pages()[0]
    doc = clean_page(Page(id="p", body=path.read_bytes()), options=CleanOptions(block_model=True))
    heur = clean_page(Page(id="p", body=path.read_bytes()))
    assert doc.error is None
    assert doc.text
    assert heur.text
    heur_words = set(heur.text.split())
    assert len(heur_words & set(doc.text.split())) >= 0.8 * len(heur_words)


def test_the_model_adds_to_every_joining_step_of_the_heuristics() -> None:
    # a post's own short list between link lines (with_item_runs) and a line introducing a quote
    # (with_intro_lines): smoothing drops both; with a decider that adds nothing the text is the heuristics'
    from tests.unit.test_classify import FEATURE_LIST, FEATURES, INTRO, LINK_LINE, LINKS, QUOTED

    post = f"<p>{PROSE}</p>{LINK_LINE}{FEATURE_LIST}{LINK_LINE}<p>{PROSE2}</p>{LINKS}<p>{INTRO}</p>{QUOTED}"
    page = Page(id="p", html=f"{NAV}<div class='post'>{post}</div>")
    recorder = Recorder()
    text = clean_page(page, None, model=recorder).text
    assert recorder.calls  # the decider ran
    assert text == clean_page(page).text
    assert all(t in text for t in [*FEATURES, INTRO])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 99}, "format"),
        ({"features": ["x"]}, "features"),
        ({"trees": {"depth": 4}}, "depth"),
    ],
)
def test_a_model_file_for_other_code_is_refused(change: dict[str, Any], message: str) -> None:
    data = json.loads(Path(decide.__file__).with_name(decide.MODEL_FILE).read_text())
    data.update(change)
    with pytest.raises(ValueError, match=message):
        decide.BlockModel.from_json(data)


def test_trees_reading_features_that_do_not_exist_are_refused() -> None:
    trees = {"depth": 3, "feature": [99] * 7, "threshold": [0.0] * 7, "leaves": [0.0] * 8, "bias": 0.0}
    with pytest.raises(ValueError, match="feature"):
        Trees.from_json(trees, 10)


def test_the_export_reproduces_lightgbm() -> None:
    lgb = pytest.importorskip("lightgbm")
    from worker.train.export import flatten

    rng = np.random.default_rng(3)
    x = rng.normal(size=(2000, 6))
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(float)
    params = {"objective": "binary", "max_depth": 3, "num_leaves": 8, "verbose": -1, "seed": 1}
    booster = lgb.train(params, lgb.Dataset(x, y), 20)
    trees = Trees.from_json(flatten(booster.dump_model()), 6)
    assert trees.raw(np.ascontiguousarray(x.T)) == pytest.approx(booster.predict(x, raw_score=True), abs=1e-9)


@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(0, 60), st.integers(1, 8))
def test_tree_scores_in_c_equal_numpys(seed: int, n_trees: int, blocks: int, n_features: int) -> None:
    if trees_mod._accel is None:
        pytest.skip(f"native tree scores off: {native.status().get('tree_scores')}")
    trees, xt = _canary_case(seed, n_trees, blocks, n_features)
    assert trees.raw(xt).tobytes() == trees.raw_python(xt).tobytes()


def _canary_case(seed: int, n_trees: int, blocks: int, n_features: int) -> tuple[Trees, np.ndarray]:
    """Random trees and a feature matrix of ties, signed zeros, NaN, infinities and normal values."""
    rng = np.random.default_rng(seed)
    trees = trees_mod._canary_trees(rng, n_features, n_trees)
    values = [-1.0, 0.0, -0.0, 0.5, 1.0, 2.5, np.nan, np.inf, -np.inf, *rng.normal(size=4)]
    return trees, np.ascontiguousarray(rng.choice(values, size=(n_features, blocks)))


@given(
    st.integers(0, 2**32 - 1),
    st.integers(1, 40),
    st.integers(0, 60),
    st.integers(1, 8),
    st.sampled_from([-1, 0, 1]),
    st.sampled_from(["tie", "median", "low", "high"]),
)
def test_tree_above_in_c_equals_numpys(
    seed: int, n_trees: int, blocks: int, n_features: int, zero_row: int, where: str
) -> None:
    if trees_mod._above is None:
        pytest.skip(f"native tree above off: {native.status().get('tree_above')}")
    trees, xt = _canary_case(seed, n_trees, blocks, n_features)
    raw = trees.raw_python(xt)
    cut = {
        "tie": float(raw[0]) if blocks else 0.0,  # a block scored exactly at the cut is not above it
        "median": float(np.median(raw)) if blocks else 0.0,
        "low": -np.inf,
        "high": np.inf,
    }[where]
    row = min(zero_row, n_features - 1)
    assert trees.above(xt, cut, row) == Trees.above_python(raw, xt, cut, row)


@pytest.mark.parametrize("blocks", [1, 2, 3, 5, 30])
def test_neighbour_rows_in_c_equal_numpys(blocks: int) -> None:
    if features_mod._shift is None:
        pytest.skip(f"native block neighbours off: {native.status().get('block_neighbours')}")
    rng = np.random.default_rng(blocks)
    want = rng.choice([-1.0, 0.0, -0.0, 0.5, 2.5, np.nan, np.inf], size=(len(FEATURES), blocks))
    got = want.copy()
    features_mod._neighbours(want)
    features_mod._shift(got, features_mod._CORE_TUPLE, features_mod._NEIGHBOUR_STARTS, features_mod.OFFSETS)
    assert got.tobytes() == want.tobytes()
    assert _col(got, "log_chars@+1")[-1] == -1.0  # past the last block


def test_neighbour_rows_that_overwrite_a_core_row_are_refused() -> None:
    if features_mod._shift is None:
        pytest.skip(f"native block neighbours off: {native.status().get('block_neighbours')}")
    core = features_mod._CORE_TUPLE
    with pytest.raises(ValueError, match="core row"):
        features_mod._shift(np.zeros((len(FEATURES), 3)), core, (core[0],), (1,))


def test_repeats_of_kept_text_in_both_paths() -> None:
    seg, scores, region, _ = _stages(
        "<body><p>Said twice, word for word.</p><p>Said twice, word for word.</p><p>Once.</p></body>"
    )
    got = block_features(seg, scores, region, [0], None)
    with native.python_only():
        want = block_features(seg, scores, region, [0], None)
    assert _col(got, "repeats_kept") == [0.0, 1.0, 0.0]  # the kept block itself is no repeat
    assert got.tobytes() == want.tobytes()


@settings(max_examples=80, deadline=None)
@given(TREES, st.sampled_from(["none", "heuristics", "all"]))
def test_features_in_c_equal_numpys_on_generated_pages(body: str, which: str) -> None:
    if features_mod._accel is None:
        pytest.skip(f"native block features off: {native.status().get('block_features')}")
    seg, scores, region, heur = _stages(f"<body>{body}</body>")
    if not seg.texts:
        return
    kept = {"none": [], "heuristics": heur.kept, "all": list(range(len(seg.texts)))}[which]
    site = SiteFacts(3, dict.fromkeys(range(len(seg.tags)), 0.5), 12345)
    for facts in (None, site):
        got = block_features(seg, scores, region, kept, facts)
        with native.python_only():
            want = block_features(seg, scores, region, kept, facts)
        assert got.tobytes() == want.tobytes()


def test_python_only_scores_trees_with_numpy() -> None:
    trees = decide.shipped().trees
    with native.python_only():
        assert (trees_mod._accel, trees_mod._above) == (None, None)
        assert (features_mod._accel, features_mod._shift) == (None, None)
        xt = np.zeros((len(FEATURES), 3))
        assert trees.raw(xt).tobytes() == trees.raw_python(xt).tobytes()
    assert (trees_mod._accel is None) == (native.status().get("tree_scores") != "native")
    assert (trees_mod._above is None) == (native.status().get("tree_above") != "native")
    assert (features_mod._shift is None) == (native.status().get("block_neighbours") != "native")


@settings(max_examples=60, deadline=None)
@given(TREES)
def test_inference_never_raises_on_generated_pages(body: str) -> None:
    seg, scores, region, heur = _stages(f"<body>{body}</body>")
    site = SiteFacts(3, dict.fromkeys(range(len(seg.tags)), 0.5), 12345)
    for facts in (None, site):
        stages = decide.Stages(seg, scores, region, heur, facts)
        kept = decide.shipped().decide(stages).kept
        assert kept == sorted(set(kept))
        assert all(0 <= i < len(seg.texts) for i in kept)
        with native.python_only():
            assert decide.shipped().decide(stages).kept == kept  # the numpy path keeps the same blocks


if __name__ == "__main__":
    SCORES.write_text(json.dumps(_shipped_scores(), indent=1) + "\n")
    print(f"wrote {SCORES}")
