"""Scoring: hand-computed values, and equality with ../shared/eval/score.py where it is present."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import pytest

from worker.evaluate import Gold, page_tp_fp_fn, score, shingle_metrics, shingles, snippet_counts

SCORE_PY = Path(__file__).resolve().parents[3] / "shared" / "eval" / "score.py"


def test_shingles_of_short_and_empty_texts() -> None:
    assert shingles("") == {}
    assert shingles("...") == {}
    assert shingles("a b") == {("a", "b"): 1}
    assert shingles("a b c d e") == {("a", "b", "c", "d"): 1, ("b", "c", "d", "e"): 1}


def test_page_counts_are_normalised() -> None:
    # gold shingles: abcd bcde ; pred shingles: abcd bcdx -> tp 1, fp 1, fn 1
    tp, fp, fn = page_tp_fp_fn("a b c d e", "a b c d x")
    assert (tp, fp, fn) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert page_tp_fp_fn("", "") == (0.0, 0.0, 0.0)
    assert page_tp_fp_fn("a b c d", "a b c d") == (1.0, 0.0, 0.0)


def test_macro_average_by_hand() -> None:
    rows = [
        (1.0, 0.0, 0.0),  # perfect: P=1, R=1
        (0.0, 0.0, 1.0),  # empty output: no precision, R=0
        (0.5, 0.5, 0.0),  # P=0.5, R=1 (fn == 0 but fp > 0)
    ]
    m = shingle_metrics(rows)
    assert m["precision"] == pytest.approx(0.75)  # mean(1, 0.5); the empty page has no precision
    assert m["recall"] == pytest.approx(2 / 3)
    assert m["f1"] == pytest.approx(2 * 0.75 * (2 / 3) / (0.75 + 2 / 3))
    assert m["pages"] == 3


def test_snippets() -> None:
    assert snippet_counts(["a  b", "zz"], ["c"], "x a\nb c") == (1, 1, 1)


def test_score_skips_suspect_and_empty_gold_and_counts_missing() -> None:
    golds = [
        Gold.from_record({"id": 1, "site": "s", "gold": "a b c d"}),
        Gold.from_record({"id": "2", "site": "s", "gold": "  "}),
        Gold.from_record({"id": "3", "site": "s", "gold": "x y", "suspect_gold_mismatch": True}),
        Gold.from_record({"id": "4", "site": "t", "gold": "p q r s"}),
    ]
    out = score(golds, {"1": "a b c d"})
    assert out["skipped_pages"] == 2
    assert out["missing_predictions"] == 3
    assert out["shingle"]["pages"] == 2
    assert out["shingle"]["precision"] == 1.0
    assert out["shingle"]["recall"] == 0.5
    only_big = score(golds, {"1": "a b c d"}, sites_min=2, by_site=True)
    assert only_big["shingle"]["pages"] == 1
    assert list(only_big["by_site"]) == ["s"]


def test_snippet_dataset() -> None:
    golds = [Gold.from_record({"id": "a", "with": ["keep this"], "without": ["drop"]})]
    out = score(golds, {"a": "keep   this and drop"})
    assert out["snippet"] == {"precision": 0.5, "recall": 1.0, "f1": pytest.approx(2 / 3), "pages": 1}
    assert "shingle" not in out


def _load_score_py() -> ModuleType:
    if not SCORE_PY.exists():
        pytest.skip(f"{SCORE_PY} not present")
    spec = importlib.util.spec_from_file_location("shared_score", SCORE_PY)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _synthetic(rng: random.Random) -> tuple[list[dict[str, object]], dict[str, str]]:
    words = [
        "the",
        "bridge",
        "reopened",
        "on",
        "monday",
        "after",
        "repairs",
        "to",
        "its",
        "deck",
        "ß",
        "日本",
    ]
    records: list[dict[str, object]] = []
    preds: dict[str, str] = {}
    for i in range(60):
        gold = " ".join(rng.choice(words) for _ in range(rng.randint(0, 40)))
        rec: dict[str, object] = {"id": f"p{i}", "site": rng.choice(["a.com", "b.com", "c.com", None])}
        if i % 5 == 4:
            rec["with"] = [gold[:15]] if gold else []
            rec["without"] = [rng.choice(words)]
        else:
            rec["gold"] = gold
            rec["suspect_gold_mismatch"] = rng.random() < 0.1
        records.append(rec)
        kind = rng.random()
        if kind < 0.1:
            continue  # missing prediction
        if kind < 0.3:
            preds[f"p{i}"] = gold
        elif kind < 0.4:
            preds[f"p{i}"] = ""
        else:
            cut = gold.split()
            rng.shuffle(cut)
            preds[f"p{i}"] = " ".join(cut[: rng.randint(0, len(cut))]) + " extra words here now"
    return records, preds


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("sites_min", [0, 10])
def test_equals_shared_score_py(tmp_path: Path, seed: int, sites_min: int) -> None:
    ref = _load_score_py()
    records, preds = _synthetic(random.Random(seed))
    dataset, pred_file = tmp_path / "d.jsonl", tmp_path / "p.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in records))
    pred_file.write_text("".join(json.dumps({"id": k, "text": v}) + "\n" for k, v in preds.items()))
    expected = ref.score(str(dataset), str(pred_file), by_site=True, sites_min=sites_min)
    ours = score([Gold.from_record(r) for r in records], preds, sites_min=sites_min, by_site=True)
    expected.pop("dataset")
    assert ours == expected  # exact float equality, not approx
