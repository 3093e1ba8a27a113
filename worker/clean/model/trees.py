"""A gradient-boosted tree ensemble read from the shipped model file and evaluated with numpy.

The file (JSON) holds the trees flattened into parallel arrays over all nodes of all trees: split feature,
threshold, left and right child (global node indices), and the leaf value. A leaf points to itself on both
sides with threshold +inf, so every tree can be stepped the same number of times (the deepest tree's depth)
with no per-tree loop: all blocks times all trees move one level per step, as one numpy gather each.
LightGBM's convention is kept: a value <= threshold goes left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Trees:
    feature: npt.NDArray[np.intp]
    threshold: npt.NDArray[np.float64]
    left: npt.NDArray[np.intp]
    right: npt.NDArray[np.intp]
    value: npt.NDArray[np.float64]
    roots: npt.NDArray[np.intp]
    depth: int
    bias: float

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trees:
        """The trees of a model file; ValueError naming what is wrong when they are not well formed."""
        n = len(data["feature"])
        arrays = {
            "feature": np.array(data["feature"], dtype=np.intp),
            "threshold": np.array(data["threshold"], dtype=np.float64),
            "left": np.array(data["left"], dtype=np.intp),
            "right": np.array(data["right"], dtype=np.intp),
            "value": np.array(data["value"], dtype=np.float64),
        }
        for name, arr in arrays.items():
            if arr.shape != (n,):
                raise ValueError(f"model trees: '{name}' has {arr.shape[0]} entries, expected {n}")
        roots = np.array(data["roots"], dtype=np.intp)
        for name in ("left", "right"):
            arr = arrays[name]
            if n and (arr.min() < 0 or arr.max() >= n):
                raise ValueError(f"model trees: '{name}' points outside the {n} nodes")
        if len(roots) and (roots.min() < 0 or roots.max() >= n):
            raise ValueError(f"model trees: a root points outside the {n} nodes")
        threshold = arrays["threshold"]
        return cls(
            arrays["feature"], np.where(np.isnan(threshold), np.inf, threshold), arrays["left"],
            arrays["right"], arrays["value"], roots, int(data["depth"]), float(data["bias"]),
        )  # fmt: skip

    def raw(self, x: Matrix) -> npt.NDArray[np.float64]:
        """The ensemble's raw score (log-odds) per row of `x`."""
        rows = np.arange(x.shape[0])[:, None]
        node = np.broadcast_to(self.roots, (x.shape[0], len(self.roots)))
        feature, threshold, left, right = self.feature, self.threshold, self.left, self.right
        for _ in range(self.depth):
            go_left = x[rows, feature[node]] <= threshold[node]
            node = np.where(go_left, left[node], right[node])
        out: npt.NDArray[np.float64] = self.value[node].sum(axis=1) + self.bias
        return out
