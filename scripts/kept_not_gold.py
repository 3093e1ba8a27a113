#!/usr/bin/env python3
"""Precision and recall mining on the training pages: the kept lines whose text the gold does not hold, or
(`--missed`) the page's blocks the output lacks whose text the gold holds, by cause.

    .venv/bin/python scripts/kept_not_gold.py [--missed] [--memory] [--as-gold] [--group NAME] [--top N]

Cleans dragnet and cleaneval_dev with the heuristics (`--memory`: the site memory fed each set in id order,
as scripts/eval_model.py does) and reports on the TRAINING pages only (dragnet split == "train",
cleaneval_dev): per output line whose words the gold does not hold, what removing that line alone would
change in the set's macro precision and recall (the scorer's word 4-gram shingles, worker.evaluate), in
units of 1e-4; lines are grouped by a plausible cause (CAUSES, else by place and length). Prints each group's
total, then the costliest lines (of `--group` when given). The evaluation pages (dragnet's test split and
the other sets) are cleaned for the memory but never shown.

`--missed`: per block of the page's segmentation that the output lacks and whose words the gold holds, what
adding that block alone (at its place in the output) would change in the set's macro P, R and F1 (1e-4), for
the blocks where F1 rises; grouped by the stage that lost it (traced through the pipeline's steps): outside
the region (by how many levels above the target the block's box and the target meet), dropped by classify
(by block kind, link density and length), dropped after it (the post's lines, the page's chrome, captions,
the headline, the quality filter), or no output at all. "not segmented" is the gold's share (recall, 1e-4)
that no block of the page holds: text the walk skips or never sees.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from worker.clean import pipeline  # noqa: E402
from worker.clean.options import CleanOptions  # noqa: E402
from worker.clean.pipeline import clean_page  # noqa: E402
from worker.clean.region import Region  # noqa: E402
from worker.clean.segment import Segmentation  # noqa: E402
from worker.clean.sitememory import SiteMemory  # noqa: E402
from worker.evaluate import TOKEN, page_tp_fp_fn, precision, recall, shingles  # noqa: E402
from worker.io import iter_jsonl, page_from_record  # noqa: E402
from worker.io.readers import ReadStats  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
CAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("clock time", re.compile(r"(?i)\b\d{1,2}:\d\d(:\d\d)?\s*([ap]\.?m\.?)?\b")),
    (
        "credit",
        re.compile(r"(?i)^\(?(photos?|images?|pictures?)( courtesy| credit)?( of| by)?\s*[:\-]|courtesy of"),
    ),
    ("source/via", re.compile(r"(?i)^(source|via|h/t|hat tip)\s*:")),
    ("social", re.compile(r"(?i)(facebook|twitter|google\+|subscribe|follow (me|us)|rss\b)")),
    ("promo", re.compile(r"(?i)(click here|sign up|newsletter|download|buy |free bet)")),
    ("byline", re.compile(r"(?i)^(by|posted by|written by|article by)\b")),
    ("related", re.compile(r"(?i)^(related|see also|more|previously|read more)\b")),
    (
        "dated title",
        re.compile(r" [-–—] (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* \d{1,2}, \d{4}\s*$"),
    ),
)


def _cause(line: str, at: int, count: int) -> str:
    for name, pattern in CAUSES:
        if pattern.search(line):
            return name
    place = "first" if at == 0 else "last" if at >= count - 1 else "inner"
    return f"{place} line" + (", short" if len(TOKEN.findall(line)) < 10 else "")


def _pr(gold: str, text: str) -> tuple[float, float]:
    row = page_tp_fp_fn(gold, text)
    return precision(*row), recall(*row)


class Stages(NamedTuple):
    """What each stage of clean_page kept on a page's last extraction (the one its text came from)."""

    seg: Segmentation
    region: Region
    classified: set[int]  # classify's blocks
    joined: set[int]  # with the joining steps'
    extracted: set[int]  # extract's (the post's lines out)
    outside_chrome: set[int]  # with the intro lines, without the page's chrome
    text: list[int]  # the text's blocks (the quality filter is off: the document's)


class Trace:
    """The pipeline's steps, wrapped to record what each returned on the page being cleaned (`seen`, cleared
    by the caller before each page)."""

    STEPS = ("choose", "classify_region", "join_dropped", "extract", "outside_chrome", "text_blocks")

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}
        for name in self.STEPS:
            setattr(pipeline, name, self._wrap(name, getattr(pipeline, name)))

    def _wrap(self, name: str, step: Callable[..., Any]) -> Callable[..., Any]:
        def traced(*args: Any, **kwargs: Any) -> Any:
            out = step(*args, **kwargs)
            self.seen[name] = out
            if name == "text_blocks":
                self.seen["seg"] = args[0]
            return out

        return traced

    def stages(self) -> Stages | None:
        """The page's stages (None: it never reached the text's blocks)."""
        seen = self.seen
        if "text_blocks" not in seen:
            return None
        return Stages(
            seen["seg"],
            seen["choose"],
            set(seen["classify_region"].kept),
            set(seen["join_dropped"]),
            set(seen["extract"].classified.kept),
            set(seen["outside_chrome"]),
            list(seen["text_blocks"][0]),
        )


def _levels(seg: Segmentation, a: int, b: int) -> int:
    """How many levels above element `b` it meets element `a`'s ancestry."""
    up: set[int] = set()
    while a != -1:
        up.add(a)
        a = seg.parents[a]
    n = 0
    while b != -1 and b not in up:
        b, n = seg.parents[b], n + 1
    return n


def _lost_where(st: Stages, i: int, kept: list[int]) -> str:
    """The stage that lost block `i` (not in the text `kept`), and what kind of block it is there."""
    seg, region = st.seg, st.region
    if not kept:
        return "no output"
    if not any(lo <= i < hi for lo, hi in region.ranges):
        side = "before" if i < kept[0] else "after" if i > kept[-1] else "between"
        n = _levels(seg, seg.owners[i], region.target)
        return f"outside {side}, meets {'1' if n <= 1 else '2-3' if n <= 3 else '4+'} up"
    if i in st.outside_chrome:
        return "caption/headline"  # text_blocks: a caption, or the headline (without --as-gold)
    if i in st.extracted:
        return "chrome"
    if i in st.joined or i in st.classified:
        return "post lines"
    words = seg.words[i]
    ld = seg.link_words[i] / words if words else 0.0
    place = "before the text" if i < kept[0] else "after the text" if i > kept[-1] else "in the text"
    linked = ", linked" if ld > 0.5 else ", short" if words < 10 else ""
    return f"classify {seg.kinds[i]}{linked}, {place}"


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def missed(name: str, pages: list[tuple[str, str, str, Stages | None]], args: argparse.Namespace) -> None:
    """The recall side: the blocks the output lacks that the gold holds, by where they were lost."""
    rows = [page_tp_fp_fn(gold, text) for _, gold, text, _ in pages]
    ps = [precision(*r) if r[0] + r[1] > 0 else None for r in rows]
    rs = [recall(*r) if r[0] + r[2] > 0 else None for r in rows]
    sp, np_ = sum(p for p in ps if p is not None), sum(p is not None for p in ps)
    sr, nr = sum(r for r in rs if r is not None), sum(r is not None for r in rs)
    f0 = _f1(sp / np_, sr / nr)

    def change(k: int, row: tuple[float, float, float]) -> tuple[float, float, float]:
        p1 = precision(*row) if row[0] + row[1] > 0 else None
        r1 = recall(*row) if row[0] + row[2] > 0 else None
        p0, r0 = ps[k], rs[k]
        qp = (sp - (p0 or 0.0) + (p1 or 0.0)) / (np_ - (p0 is not None) + (p1 is not None))
        qr = (sr - (r0 or 0.0) + (r1 or 0.0)) / (nr - (r0 is not None) + (r1 is not None))
        return (qp - sp / np_) * 1e4, (qr - sr / nr) * 1e4, (_f1(qp, qr) - f0) * 1e4

    groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    blocks: list[tuple[float, float, float, str, str, str]] = []
    unseen = 0.0
    for k, (pid, gold, _, st) in enumerate(pages):
        if st is None:
            continue
        seg, text = st.seg, st.text
        held = " ".join(TOKEN.findall(gold))
        # the gold's shingles no block holds (a shingle across two blocks counts as held)
        g = shingles(gold)
        total = sum(g.values())
        if total:
            unseen += sum((g - shingles("\n".join(seg.texts))).values()) / total / nr * 1e4
        kept = sorted(text)
        out = set(kept)
        for i, block in enumerate(seg.texts):
            if i in out:
                continue
            words = " ".join(TOKEN.findall(block))
            if not words or words not in held:
                continue
            at = sum(1 for j in kept if j < i)
            joined = [seg.texts[j] for j in kept[:at]] + [block] + [seg.texts[j] for j in kept[at:]]
            dp, dr, df = change(k, page_tp_fp_fn(gold, "\n\n".join(joined)))
            if df <= 0:
                continue
            cause = _lost_where(st, i, kept)
            group = groups[cause]
            group[0] += dp
            group[1] += dr
            group[2] += df
            group[3] += 1
            blocks.append((df, dp, dr, cause, pid, f"[{i} {seg.tags[seg.owners[i]]}] {block}"))
    mode = ("memory" if args.memory else "single") + (", as gold" if args.as_gold else "")
    head = f"== {name} ({mode}): {len(pages)} training pages, F1 {f0:.5f}"
    print(f"{head}; adding the block alone: dP dR dF1 (1e-4), blocks")
    print(f"   {'not segmented':46s} {'':8s} {unseen:8.2f}")
    for cause, (dp, dr, df, count) in sorted(groups.items(), key=lambda kv: -kv[1][2]):
        print(f"   {cause:46s} {dp:8.2f} {dr:8.2f} {df:8.2f} {count:5.0f}")
    shown = [x for x in blocks if args.group in (None, x[3])]
    for df, dp, dr, cause, pid, block in sorted(shown, key=lambda x: -x[0])[: args.top]:
        print(f"   {df:6.2f} {dp:6.2f} {dr:6.2f} {pid:>7} {cause:44.44s} {block[:80]}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memory", action="store_true", help="feed the site memory each set in id order")
    parser.add_argument("--as-gold", action="store_true", help="keep the headline, as these sets' gold does")
    parser.add_argument("--missed", action="store_true", help="the recall side: the gold's blocks not kept")
    parser.add_argument("--group", default=None, help="list this group's lines")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    options = CleanOptions(block_model=False, keep_headline=args.as_gold)
    trace = Trace() if args.missed else None
    for name in ("dragnet", "cleaneval_dev"):
        path = DATA / name / "pages.jsonl.gz"
        if not path.exists():
            continue
        memory = SiteMemory() if args.memory else None
        pages: list[tuple[str, str, str, Stages | None]] = []
        for _, rec in iter_jsonl(path, ReadStats()):
            if "id" not in rec:
                continue
            if trace is not None:
                trace.seen.clear()
            text = clean_page(page_from_record(rec, str(rec["id"])), memory, options).text
            training = rec.get("split") == "train" if name == "dragnet" else True
            if training and (rec.get("gold") or "").strip() and not rec.get("suspect_gold_mismatch"):
                st = trace.stages() if trace is not None else None
                pages.append((str(rec["id"]), rec["gold"], text, st))
        if args.missed:
            missed(name, pages, args)
            continue
        groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        lines: list[tuple[float, float, str, str, str]] = []
        n = len(pages)
        for pid, gold, text, _ in pages:
            held = " ".join(TOKEN.findall(gold))
            rows = text.split("\n")
            p0, r0 = _pr(gold, text)
            for at, line in enumerate(rows):
                if not TOKEN.search(line) or " ".join(TOKEN.findall(line)) in held:
                    continue
                p1, r1 = _pr(gold, "\n".join(rows[:at] + rows[at + 1 :]))
                dp, dr = (p1 - p0) / n * 1e4, (r1 - r0) / n * 1e4
                if dp <= 0:
                    continue
                cause = _cause(line, at, len(rows))
                groups[cause][0] += dp
                groups[cause][1] += dr
                groups[cause][2] += 1
                lines.append((dp, dr, cause, pid, line))
        mode = ("memory" if args.memory else "single") + (", as gold" if args.as_gold else "")
        print(f"== {name} ({mode}): {n} training pages; removing the line alone: dP dR (1e-4), lines")
        for cause, (dp, dr, count) in sorted(groups.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
            print(f"   {cause:20s} {dp:8.2f} {dr:8.2f} {count:5.0f}")
        shown = [x for x in lines if args.group in (None, x[2])]
        for dp, dr, cause, pid, line in sorted(shown, key=lambda x: -(x[0] + x[1]))[: args.top]:
            print(f"   {dp:6.2f} {dr:6.2f} {pid:>7} {cause:14.14s} {line[:100]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
