"""The learned block model's step of the pipeline: features, tree scores, the kept blocks.

It runs after the heuristics (score, region, classify) on the same segmentation and reads their results as
features; the blocks it keeps are added to theirs. It runs with `--block-model` (Settings.block_model, off
by default); without it the heuristics' decision stands.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, Protocol

from worker.clean import heuristics as h
from worker.clean.classify import Classified, is_boilerplate
from worker.clean.model.features import FEATURES, Matrix, block_features
from worker.clean.model.trees import Trees
from worker.clean.region import Region
from worker.clean.score import Scores
from worker.clean.segment import Segmentation
from worker.clean.template import SiteFacts

MODEL_FILE = "block_model.json"
_COMMENT_ROW = FEATURES.index("comment")
# Model files this code reads; a file written for another layout is refused with ValueError.
FORMAT = 1


@dataclass(frozen=True, slots=True)
class Stages:
    """What the heuristics made of one segmentation, and what the model step is told about the page."""

    seg: Segmentation
    scores: Scores
    region: Region
    heur: Classified
    site: SiteFacts | None


class BlockDecider(Protocol):
    """Decides which blocks of a page are kept, given what the heuristics made of it."""

    def decide(self, stages: Stages) -> Classified: ...


@dataclass(frozen=True, slots=True)
class BlockModel:
    trees: Trees
    cut: float  # keep a block whose log-odds are above this
    manifest: dict[str, Any]  # what it was trained on, with which seed and settings

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BlockModel:
        if data.get("format") != FORMAT:
            raise ValueError(f"block model format {data.get('format')!r}, this code reads {FORMAT}")
        if tuple(data.get("features", ())) != FEATURES:
            raise ValueError("block model was trained on other features than this code computes")
        return cls(Trees.from_json(data["trees"], len(FEATURES)), float(data["cut"]), dict(data["manifest"]))

    def scores(self, xt: Matrix) -> Matrix:
        """Log-odds per block (`xt` feature-major) that the block is article text."""
        return self.trees.raw(xt)

    def decide(self, stages: Stages) -> Classified:
        seg, scores, region, heur = stages.seg, stages.scores, stages.region, stages.heur
        xt = block_features(seg, scores, region, heur.kept, stages.site)
        # rule: comment sections are not the article (worker.clean.comments reads them apart), whatever the
        # model says; nor is the region's flat comment tail
        comment_row = -1 if scores.comment[region.target] else _COMMENT_ROW  # the block's owner's mark
        kept = set(heur.kept)
        skip = kept.union(heur.tail)
        texts, chars, ld = seg.texts, seg.chars, scores.link_density
        for i in self.trees.above(xt, self.cut, comment_row):
            # rule: an added block is never a boilerplate line or a cross-link (heuristics.CROSS_LINK)
            if i in skip or is_boilerplate(texts[i], chars[i], ld[i]) or h.CROSS_LINK.search(texts[i]):
                continue
            kept.add(i)
        # rule: the model adds blocks, what the heuristics keep stays (dragnet test split 0.9164 against
        # 0.9163 with the model deciding alone, scrapinghub_aeb 0.9683 against 0.9645, trafilatura_eval
        # 0.9118 against 0.9079: where the model drops a block the heuristics keep, it is mostly wrong).
        return replace(heur, kept=sorted(kept))  # whatever else classify found stays


@dataclass(frozen=True, slots=True)
class Step:
    """The model's step for one page: the decider and what the site memory knows of the page."""

    model: BlockDecider
    site: SiteFacts | None

    def decide(self, seg: Segmentation, scores: Scores, region: Region, heur: Classified) -> Classified:
        return self.model.decide(Stages(seg, scores, region, heur, self.site))


def load(path: str | None = None) -> BlockModel:
    """A model file (the shipped one by default); ValueError when it is not one this code can use."""
    if path is None:
        text = resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8")
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    return BlockModel.from_json(json.loads(text))


@cache
def shipped() -> BlockModel:
    """The model shipped in the package, read once per process (it is immutable)."""
    return load()
