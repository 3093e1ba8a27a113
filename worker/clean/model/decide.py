"""The learned block model's step of the pipeline: features, tree scores, context smoothing, the kept blocks.

It runs after the heuristics (score, region, classify) on the same segmentation and reads their results as
features; what it returns replaces their decision. `--no-model` (Settings.no_model) leaves the heuristics'
decision as it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

import numpy as np

from worker.clean.classify import Classified
from worker.clean.model.features import FEATURES, Matrix, SiteFacts, block_features
from worker.clean.model.trees import Trees
from worker.clean.region import Region
from worker.clean.score import Scores
from worker.clean.segment import Segmentation

MODEL_FILE = "block_model.json"
# Model files this code reads; a file written for another layout is refused with ValueError.
FORMAT = 1


class BlockDecider(Protocol):
    """Decides which blocks of a page are kept, given what the heuristics made of it."""

    def decide(
        self, seg: Segmentation, scores: Scores, region: Region, heur: Classified, site: SiteFacts | None
    ) -> Classified: ...


@dataclass(frozen=True, slots=True)
class BlockModel:
    trees: Trees
    cut: float  # keep a block whose smoothed log-odds are above this
    smooth: tuple[float, ...]  # weights of the log-odds of the blocks at offsets -k..k (sum 1)
    manifest: dict[str, Any]  # what it was trained on, with which seed and settings

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BlockModel:
        if data.get("format") != FORMAT:
            raise ValueError(f"block model format {data.get('format')!r}, this code reads {FORMAT}")
        if tuple(data.get("features", ())) != FEATURES:
            raise ValueError("block model was trained on other features than this code computes")
        smooth = tuple(float(w) for w in data["smooth"])
        if len(smooth) % 2 != 1:
            raise ValueError(f"block model smoothing needs an odd number of weights, has {len(smooth)}")
        return cls(Trees.from_json(data["trees"]), float(data["cut"]), smooth, dict(data["manifest"]))

    def scores(self, x: Matrix) -> Matrix:
        """Smoothed log-odds per block: each block's, mixed with its neighbours' (the page edges repeat)."""
        raw = self.trees.raw(x)
        k = len(self.smooth) // 2
        if not k or len(raw) < 2:
            return raw
        padded = np.concatenate((np.repeat(raw[:1], k), raw, np.repeat(raw[-1:], k)))
        out: Matrix = np.convolve(padded, np.array(self.smooth[::-1]), mode="valid")
        return out

    def decide(
        self, seg: Segmentation, scores: Scores, region: Region, heur: Classified, site: SiteFacts | None
    ) -> Classified:
        x = block_features(seg, scores, region, heur.kept, site)
        kept = np.flatnonzero(self.scores(x) > self.cut).tolist()
        return Classified(kept, heur.lang)


@dataclass(frozen=True, slots=True)
class Step:
    """The model's step for one page: the decider and what the site memory knows of the page."""

    model: BlockDecider
    site: SiteFacts | None

    def decide(self, seg: Segmentation, scores: Scores, region: Region, heur: Classified) -> Classified:
        return self.model.decide(seg, scores, region, heur, self.site)


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
