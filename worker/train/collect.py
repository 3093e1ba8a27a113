"""Training rows: every page of the training sets cleaned as the worker cleans it, each block's features
recorded where the block model would run, and labelled from the gold (worker.train.labels).

Each set is cleaned twice, in id order: single-page, and with one site memory fed the whole set (every page,
test pages included, as the stream would feed it: the memory never sees gold), so the model learns both the
page without memory features and with them. Rows come only from pages `trainable` allows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from worker.clean.classify import Classified
from worker.clean.kinds import captions
from worker.clean.model.decide import Stages
from worker.clean.model.features import Matrix, block_features
from worker.clean.pipeline import clean_page
from worker.clean.segment import Segmentation
from worker.clean.sitememory import SiteMemory
from worker.io import page_from_record
from worker.train.labels import align

log = logging.getLogger(__name__)


@dataclass
class Rows:
    """Blocks of many pages: features, labels, weights, and where each came from."""

    x: list[Matrix] = field(default_factory=list)
    y: list[np.ndarray[Any, np.dtype[np.float64]]] = field(default_factory=list)
    w: list[np.ndarray[Any, np.dtype[np.float64]]] = field(default_factory=list)
    page: list[str] = field(default_factory=list)  # "set/id/mode/run" per page-run
    texts: list[list[str]] = field(default_factory=list)  # block texts per page-run (offline scoring)
    gold: list[str] = field(default_factory=list)

    def add(self, key: str, x: Matrix, seg: Segmentation, gold: str, kept: list[int]) -> None:
        texts = seg.texts
        labels = align(texts, gold, seg.kinds, captions(seg), kept)
        self.x.append(x)
        self.y.append(np.array(labels.content, dtype=np.float64))
        self.w.append(np.array(labels.weights, dtype=np.float64))
        self.page.append(key)
        self.texts.append(texts)
        self.gold.append(gold)

    def subset(self, keep: list[bool]) -> Rows:
        """The page runs where `keep` (one flag per page run) is true."""
        out = Rows()
        for k, x, y, w, page, texts, gold in zip(
            keep, self.x, self.y, self.w, self.page, self.texts, self.gold, strict=True
        ):
            if k:
                out.x.append(x)
                out.y.append(y)
                out.w.append(w)
                out.page.append(page)
                out.texts.append(texts)
                out.gold.append(gold)
        return out


class Recorder:
    """A BlockDecider that records each call's features and leaves the heuristics' decision as it is."""

    def __init__(self) -> None:
        self.calls: list[tuple[Matrix, Segmentation, list[int]]] = []

    def decide(self, stages: Stages) -> Classified:
        s = stages
        xt = block_features(s.seg, s.scores, s.region, s.heur.kept, s.site)
        self.calls.append((np.ascontiguousarray(xt.T), s.seg, s.heur.kept))
        return s.heur


def collect(
    name: str,
    records: Iterable[dict[str, Any]],
    trainable: Callable[[dict[str, Any]], bool],
    rows: Rows,
    memory: bool,
) -> int:
    """Clean `records` in order (with one site memory when `memory`); rows of the trainable pages.

    Returns the number of pages that gave rows."""
    site_memory = SiteMemory() if memory else None
    mode = "memory" if memory else "single"
    pages = 0
    for rec in records:
        recorder = Recorder()
        page = page_from_record(rec, str(rec["id"]))
        clean_page(page, site_memory, model=recorder)
        gold = rec.get("gold") or ""
        if not trainable(rec) or not gold.strip() or rec.get("suspect_gold_mismatch"):
            continue
        pages += 1
        for run, (x, seg, kept) in enumerate(recorder.calls):
            rows.add(f"{name}/{rec['id']}/{mode}/{run}", x, seg, gold, kept)
    log.info("%s (%s): %d training pages", name, mode, pages)
    return pages
