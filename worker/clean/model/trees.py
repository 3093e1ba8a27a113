"""A gradient-boosted tree ensemble read from the shipped model file and evaluated with numpy.

Every tree is a complete binary tree of depth DEPTH = 3 in heap order (node k has children 2k+1 and 2k+2):
7 comparisons "feature > threshold" (go right) and 8 leaves. A shallower branch of the trained tree is padded
with comparisons that always go left (threshold +inf) down to copies of its leaf. Evaluation takes, for all
trees at once, the 7 comparisons of every block (one gather of feature rows, one comparison), packs each
tree's 7 answers into a byte, and reads the leaf value from a per-tree table of the 128 possible bytes: four
numpy calls over (trees x 7 x blocks) values, no loop over trees or levels. LightGBM's convention is kept:
a value <= threshold goes left.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from worker.clean import native

Matrix = npt.NDArray[np.float64]
DEPTH = 3
NODES = 2**DEPTH - 1  # comparisons per tree
LEAVES = 2**DEPTH


def _leaf_of_pattern() -> npt.NDArray[np.intp]:
    """For each byte of comparison answers (bit k = node k goes right), the leaf the path ends in."""
    out = np.zeros(2**NODES, dtype=np.intp)
    for code in range(2**NODES):
        k = 0
        for _ in range(DEPTH):
            k = 2 * k + 1 + ((code >> k) & 1)
        out[code] = k - NODES
    return out


_LEAF_OF = _leaf_of_pattern()
_POWERS = (1 << np.arange(NODES)).astype(np.uint8)


@dataclass(frozen=True, slots=True)
class Trees:
    feature: npt.NDArray[np.intp]  # (trees * NODES,) feature index per comparison
    threshold: npt.NDArray[np.float64]  # (trees * NODES, 1)
    table: npt.NDArray[np.float64]  # (trees * 2**NODES,) leaf value per tree and answer byte
    offsets: npt.NDArray[np.intp]  # (trees, 1): where each tree's table starts
    bias: float
    # What the C scores read: int32 features, float64 thresholds (+inf for padding), float64 leaves.
    packed: tuple[bytes, bytes, bytes]

    @classmethod
    def from_json(cls, data: dict[str, Any], n_features: int) -> Trees:
        """The trees of a model file; ValueError naming what is wrong when they are not well formed."""
        if data.get("depth") != DEPTH:
            raise ValueError(f"model trees have depth {data.get('depth')!r}, this code reads {DEPTH}")
        feature = np.array(data["feature"], dtype=np.intp)
        threshold = np.array(data["threshold"], dtype=np.float64)  # JSON null (a padding node) -> nan
        leaves = np.array(data["leaves"], dtype=np.float64)
        trees = len(leaves) // LEAVES
        shape = (trees * NODES,)
        if len(leaves) != trees * LEAVES or feature.shape != shape or threshold.shape != shape:
            raise ValueError(
                f"model trees: {len(feature)} comparisons and {len(leaves)} leaves are not {trees} trees"
            )
        if len(feature) and (feature.min() < 0 or feature.max() >= n_features):
            raise ValueError(f"model trees: a comparison reads a feature outside the {n_features}")
        if not np.isfinite(leaves).all():
            raise ValueError("model trees: a leaf value is not a finite number")
        threshold = np.where(np.isnan(threshold), np.inf, threshold)
        table = leaves.reshape(trees, LEAVES)[:, _LEAF_OF].ravel()
        offsets = (np.arange(trees, dtype=np.intp) * 2**NODES)[:, None]
        packed = (feature.astype(np.int32).tobytes(), threshold.tobytes(), leaves.tobytes())
        return cls(feature, threshold[:, None], table, offsets, float(data["bias"]), packed)

    @property
    def count(self) -> int:
        return len(self.offsets)

    def raw(self, xt: Matrix) -> Matrix:
        """The ensemble's raw score (log-odds) per block; `xt` is feature-major (features x blocks). In C
        when the accelerator passed its check (equal to raw_python to the bit), else raw_python."""
        if _accel is None:
            return self.raw_python(xt)
        scores = _accel(np.ascontiguousarray(xt, dtype=np.float64), *self.packed, self.bias)
        return np.frombuffer(scores, dtype=np.float64)

    def above(self, xt: Matrix, cut: float, zero_row: int = -1) -> list[int]:
        """The blocks (in order) whose raw score is above `cut` and, when `zero_row` >= 0, whose feature
        `zero_row` is 0. In C when the accelerator passed its check, else with raw()."""
        if _above is None:
            return self.above_python(self.raw(xt), xt, cut, zero_row)
        return _above(np.ascontiguousarray(xt, dtype=np.float64), *self.packed, self.bias, cut, zero_row)

    @staticmethod
    def above_python(raw: Matrix, xt: Matrix, cut: float, zero_row: int) -> list[int]:
        """above() given the raw scores."""
        keep = raw > cut
        if zero_row >= 0:
            keep &= xt[zero_row] == 0
        return np.flatnonzero(keep).tolist()

    def raw_python(self, xt: Matrix) -> Matrix:
        """raw() with numpy: every comparison of every tree for all blocks at once."""
        right = xt.take(self.feature, axis=0) > self.threshold  # (trees * NODES, blocks)
        # Each tree's 7 answers as one byte: a contraction with the powers of two (numpy's packbits is
        # several times slower along a middle axis). At most 127: uint8 cannot overflow.
        codes = np.einsum("tkn,k->tn", right.view(np.uint8).reshape(self.count, NODES, -1), _POWERS)
        # Summed tree by tree in order (cumsum), for every block count alike: sum(axis=0) switches to
        # pairwise summation for a single block, which the C code would then differ from in the last bit.
        out: Matrix = self.table.take(codes + self.offsets).cumsum(axis=0)[-1] + self.bias
        return out


def _canary_trees(rng: np.random.Generator, n_features: int, trees: int) -> Trees:
    """Random trees with padding comparisons, thresholds on the canary's values, and signed zero leaves."""
    threshold = rng.choice([-1.0, 0.0, 0.5, 1.0, 2.5, np.nan], size=trees * NODES).tolist()
    leaves = rng.normal(size=trees * LEAVES)
    leaves[::5] = -0.0
    data = {
        "depth": DEPTH,
        "feature": rng.integers(0, n_features, size=trees * NODES).tolist(),
        "threshold": [None if t != t else t for t in threshold],
        "leaves": leaves.tolist(),
        "bias": float(rng.normal()),
    }
    return Trees.from_json(data, n_features)


TreeScores = Callable[[Matrix, bytes, bytes, bytes, float], bytes]


def _canaries(seed: int) -> Iterator[tuple[Trees, Matrix]]:
    """Canary trees and matrices: ties at the thresholds, NaN, infinities, signed zeros, one tree and many,
    one block (where numpy's sum went pairwise) and none."""
    rng = np.random.default_rng(seed)
    for n_features, n_trees, blocks in ((4, 1, 5), (6, 30, 40), (6, 100, 1), (3, 2, 7), (5, 9, 0)):
        trees = _canary_trees(rng, n_features, n_trees)
        xt = rng.choice(
            [-1.0, 0.0, -0.0, 0.5, 1.0, 2.5, 3.0, np.nan, np.inf, -np.inf], size=(n_features, blocks)
        )
        yield trees, np.ascontiguousarray(xt)


def _check(scores: TreeScores) -> str | None:
    """The C scores against raw_python, to the bit, on the canaries."""
    for trees, xt in _canaries(12):
        n_trees, blocks = trees.count, xt.shape[1]
        got = scores(xt, *trees.packed, trees.bias)
        if got != trees.raw_python(xt).tobytes():
            return f"tree scores differ on a canary of {n_trees} trees and {blocks} blocks"
    return None


TreeAbove = Callable[[Matrix, bytes, bytes, bytes, float, float, int], list[int]]


def _check_above(above: TreeAbove) -> str | None:
    """The C blocks above a cut against above_python on raw_python, on the canaries: cuts that tie scores,
    below and above them all, and a zero row holding signed zeros, NaN and infinities."""
    for trees, xt in _canaries(13):
        n_features, n_trees, blocks = xt.shape[0], trees.count, xt.shape[1]
        raw = trees.raw_python(xt)
        for cut in (*raw[:3].tolist(), float(np.median(raw)) if blocks else 0.0, -np.inf, np.inf):
            for zero_row in (-1, 0, n_features - 1):
                got = above(xt, *trees.packed, trees.bias, cut, zero_row)
                if got != Trees.above_python(raw, xt, cut, zero_row):
                    return f"blocks above a cut differ on a canary of {n_trees} trees and {blocks} blocks"
    return None


# The accelerated functions that native.python_only turns off (the numpy code runs instead).
_NATIVE = ("_accel", "_above")
_accel: TreeScores | None = native.model_stage("tree_scores", _check)
_above: TreeAbove | None = native.model_stage("tree_above", _check_above)
