"""Choosing among the candidates a Harvest holds: the date rules' order and the fields' precedence."""

from __future__ import annotations

from datetime import date

from selectolax.lexbor import LexborHTMLParser

from worker.clean.meta.collect import Candidate, Harvest
from worker.clean.meta.text import text_dates, visible_text
from worker.clean.meta.record import FoundDate


def _found(day: date, rule: str) -> FoundDate:
    return FoundDate(day.isoformat(), rule)


def published(h: Harvest, url_day: date | None) -> FoundDate | None:
    if url_day is not None:
        return _found(url_day, "url")
    for tier in (1, 2, 3):
        cands = [c for c in h.published if c.tier == tier]
        if cands:
            best = _best(cands)
            return _found(best.stamp.day, best.rule)
    return None


def _best(cands: list[Candidate]) -> Candidate:
    return cands[0]


def modified(h: Harvest) -> FoundDate | None:
    if not h.modified:
        return None
    best = h.modified[0]
    return _found(best.stamp.day, best.rule)


# After the headline, a date this many characters on still belongs to the article's header.
HEADLINE_REACH = 1000


def from_text(tree: LexborHTMLParser, h: Harvest, latest: date) -> FoundDate | None:
    body = tree.body
    if body is None:
        return None
    body_text = body.text(deep=True)
    skipped = [n.text(deep=True) for n in h.skipped if n.parent is not None]
    text = " ".join(visible_text(body_text, skipped).split())
    found = text_dates(text, latest)
    if not found:
        return None
    for d in found:
        if d.cue == "published":
            return _found(d.day, "text:published")
    k = text.find(h.h1) if h.h1 else -1
    if k >= 0:
        for d in found:
            if k <= d.position < k + HEADLINE_REACH and d.cue != "other":
                return _found(d.day, "text:headline")
    for d in found:
        if d.cue != "other":
            return _found(d.day, "text:first")
    return None
