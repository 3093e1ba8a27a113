"""Cross-validated pipeline scores of the block model on the training sets (`train --cv K`).

Every choice about the model (features, trees, the cut, the rules on top) is made on training data: the
training pages are split into K folds by site (a site's pages never straddle folds, as the site memory would
otherwise carry one fold's layout into another), K models are fitted on the other folds, and every page is
cleaned by the pipeline with the model of its own fold, single-page and with the site memory (fed the whole
set in id order, as in training). Scores are the evaluation's (worker.evaluate), beside the heuristics'.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from worker.clean.model.decide import BlockModel
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.sitememory import SiteMemory
from worker.evaluate import Gold, score
from worker.io import page_from_record
from worker.train import fit
from worker.train.collect import Rows

log = logging.getLogger(__name__)

HEURISTICS = CleanOptions()


def fold_of(record: dict[str, Any], k: int) -> int:
    """A page's fold: a stable hash of its site (its id when it has none)."""
    key = str(record.get("site") or record["id"]).encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:4], "big") % k


def cross_validate(
    sets: Sequence[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]],
    rows: Rows,
    k: int,
    seed: int = fit.SEED,
    trees: int = fit.TREES,
) -> dict[str, dict[str, str]]:
    """`sets`: (name, every record in stream order, the trainable ones).

    Returns row -> mode -> "F1 (P, R)"."""
    folds: dict[str, int] = {}
    for name, _, trainable in sets:
        for rec in trainable:
            folds[f"{name}/{rec['id']}"] = fold_of(rec, k)
    page_fold = [folds["/".join(key.split("/")[:2])] for key in rows.page]
    models = []
    for f in range(k):
        part = rows.subset([pf != f for pf in page_fold])
        models.append(BlockModel.from_json(fit.fit(part, [], seed=seed, trees=trees)))
        log.info("fold %d of %d fitted on %d page runs", f + 1, k, len(part.page))
    table: dict[str, dict[str, str]] = {}
    for name, records, trainable in sets:
        golds = [Gold.from_record(r) for r in trainable]
        wanted = {g.id for g in golds}
        for memory in (False, True):
            mode = "memory" if memory else "single"
            preds: dict[str, dict[str, str]] = {"heuristics": {}, "model": {}}
            for use_model in (False, True):
                site_memory = SiteMemory() if memory else None
                out = preds["model" if use_model else "heuristics"]
                for rec in records:
                    rid = str(rec["id"])
                    page = page_from_record(rec, rid)
                    if use_model and rid in wanted:
                        doc = clean_page(page, site_memory, model=models[folds[f"{name}/{rid}"]])
                    else:
                        doc = clean_page(page, site_memory, HEURISTICS)
                    if rid in wanted:
                        out[rid] = doc.text
            for which, p in preds.items():
                m = score(golds, p).get("shingle", {})
                table.setdefault(f"{name} {which}", {})[mode] = (
                    f"{m.get('f1', 0.0):.4f} (P {m.get('precision', 0.0):.4f} R {m.get('recall', 0.0):.4f})"
                )
    return table
