"""A LightGBM booster's trees as the complete depth-3 trees worker.clean.model.trees reads."""

from __future__ import annotations

import math
from typing import Any

from worker.clean.model.trees import DEPTH, LEAVES, NODES


def flatten(dump: dict[str, Any]) -> dict[str, Any]:
    """`Booster.dump_model()` -> {depth, feature, threshold, leaves, bias}, every tree padded to depth 3.

    Only numerical `<=` splits are produced by our training (no categorical features, no missing values:
    every feature is a finite number), and anything else is refused rather than mis-read."""
    feature: list[int] = []
    threshold: list[float | None] = []
    leaves: list[float] = []
    for info in dump["tree_info"]:
        f, t, v = [0] * NODES, [math.inf] * NODES, [0.0] * LEAVES

        def fill(
            node: dict[str, Any], k: int, f: list[int] = f, t: list[float] = t, v: list[float] = v
        ) -> None:
            if k >= NODES:
                if "leaf_value" not in node:
                    raise ValueError(f"a tree deeper than {DEPTH}: train with max_depth={DEPTH}")
                v[k - NODES] = float(node["leaf_value"])
            elif "leaf_value" in node:  # a shallow leaf: pad with always-left comparisons
                fill(node, 2 * k + 1)
                fill(node, 2 * k + 2)
            else:
                if node.get("decision_type") != "<=":
                    raise ValueError(f"unsupported split {node.get('decision_type')!r}")
                f[k], t[k] = int(node["split_feature"]), float(node["threshold"])
                fill(node["left_child"], 2 * k + 1)
                fill(node["right_child"], 2 * k + 2)

        fill(info["tree_structure"], 0)
        feature += f
        # JSON has no infinity: a padding comparison's threshold is written as null. Thresholds keep every
        # bit: LightGBM puts them halfway between neighbouring training values.
        threshold += [None if math.isinf(x) else x for x in t]
        leaves += v
    return {"depth": DEPTH, "feature": feature, "threshold": threshold, "leaves": leaves, "bias": 0.0}
