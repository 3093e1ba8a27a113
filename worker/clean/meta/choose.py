"""Choosing the publication date among the candidates: which source wins, and when none is trusted.

Order (each step only when the ones before found nothing):
1. the URL's day (permalinks are set once, at publication);
2. markup made for the publication date (tier 1), by SOURCE_RANK;
3. creation and generic dates (tier 2: also a URL's day-first date), by SOURCE_RANK;
   the choice of steps 1-3 is checked against the article's header (header.py, `checked`): where
   the markup gives several days (published and modified, sources that disagree) and the header
   shows one of them but not the one chosen, or where the choice is a generic tier-2 date the header
   contradicts, the header's day is taken;
4. the first date of the article's header;
5. dates written for readers elsewhere: plain <time> (tier 3), date-like elements, the visible text
   (a publication cue, the headline found in the text, a repeated first date, and last a stated
   update).
A wrong date is worse than none: sources that contradict themselves are dropped, not voted on.
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser

from worker.clean import native
from worker.clean.meta import marked as mk
from worker.clean.meta.collect import SKIPPED_MARKS, Candidate, Harvest, date_element_date
from worker.clean.meta.dates import local_day
from worker.clean.meta.text import TextDate, text_dates
from worker.models import FoundDate

# Within a tier, the source whose day is taken (lower first). JSON-LD before Open Graph: where they
# disagree, article:published_time is more often the last update (Medium, some WordPress plugins).
SOURCE_RANK: dict[str, int] = {"json-ld": 0, "meta": 1, "microdata": 2, "abbr.published": 3, "time": 4}
# Country domains of Central European Time (UTC+1, +2 in summer): a UTC stamp of a page there is
# moved to its local day when the page writes no local offset itself ("22:04Z" is after midnight).
CET_DOMAINS: frozenset[str] = frozenset(
    {"de", "at", "ch", "li", "fr", "it", "es", "nl", "be", "lu", "pl", "cz", "sk", "hu", "si", "hr",
     "dk", "se", "no", "rs", "ba", "mk", "al", "me", "mt", "ad", "mc", "sm", "va"}
)  # fmt: skip
# Months in which Central Europe is on summer time (from the last Sunday of March to the last of
# October; March and October are counted as winter, which is wrong near midnight for a week only).
CET_SUMMER_MONTHS = range(4, 11)
# After the headline, a date this many characters on still belongs to the article's header.
HEADLINE_REACH = 1000
# ... and before it, this many (a dateline or kicker above the title: "Jan 18, 2019 | Politics").
HEADLINE_BEFORE = 150


def _found(day: date, rule: str) -> FoundDate:
    return _new_found(day.isoformat(), rule)


# FoundDate made in C (its slots filled directly), once native.py has checked it against its own __init__.
_new_found = native.instance_maker(FoundDate, ("2020-01-02", "url"))


def _rank(c: Candidate) -> int:
    return SOURCE_RANK.get(c.rule.split(":", 1)[0].split("[", 1)[0], len(SOURCE_RANK))


def site_offset(h: Harvest) -> int | None:
    """The site's UTC offset in minutes: the first local offset its own timestamps write, else None
    (then the country domain decides, see _local)."""
    for c in (*h.published, *h.modified):
        if c.stamp.offset:
            return c.stamp.offset
    return None


def _local(c: Candidate, offset: int | None, domain_cet: bool) -> date:
    if c.stamp.offset != 0 or c.stamp.hour is None:
        return c.stamp.day
    if offset is None:
        if not domain_cet:
            return c.stamp.day
        offset = 120 if c.stamp.day.month in CET_SUMMER_MONTHS else 60
    return local_day(c.stamp, offset)


def _consistent(cands: list[Candidate]) -> list[Candidate]:
    """Drop <time> elements marked "published" when they disagree: such a page lists teasers or
    comments, each with its own date, and the first is as likely someone else's as the article's."""
    marked = {c.stamp.day for c in cands if c.rule == "time[pubdate]"}
    if len(marked) <= 1:
        return cands
    return [c for c in cands if c.rule != "time[pubdate]"]


def _year_only(c: Candidate) -> bool:
    """1 January without a time of day: a year written as a date (bettycrocker's dateCreated
    "01/01/2004" on a 2019 recipe), no day of publication. On htmldate's pages every other 1 January
    stamp carries its time; this one rule moved 1 wrong page to right (check half), none the other way."""
    return c.stamp.hour is None and c.stamp.day.month == 1 and c.stamp.day.day == 1


def _pick(h: Harvest, tier: int, offset: int | None, domain_cet: bool, latest: date) -> FoundDate | None:
    cands = _consistent([c for c in h.published if c.tier == tier and not _year_only(c)])
    if not cands:
        return None
    best = min(cands, key=_rank)  # min keeps the first of equal rank: document order
    day = _local(best, offset, domain_cet)
    return _found(day if day <= latest else best.stamp.day, best.rule)


class Markup(NamedTuple):
    found: FoundDate
    tier: int  # 0 for the URL, else the tier of the source (tables.py)


def from_markup(h: Harvest, url_day: date | None, suffix: str, latest: date) -> Markup | None:
    """Steps 1-3: the URL's day, else the best tier-1 source, else the best tier-2 source."""
    if url_day is not None:
        return Markup(_found(url_day, "url"), 0)
    offset = site_offset(h)
    for tier in (1, 2):
        found = _pick(h, tier, offset, suffix in CET_DOMAINS, latest)
        if found is not None:
            return Markup(found, tier)
    return None


def header_decides(markup: Markup | None, days: set[date]) -> bool:
    """Whether the article's header can change the choice (it is read only then): no markup date, a
    generic one (tier 2), or markup that gives several days."""
    return markup is None or markup.tier == 2 or len(days) > 1


def from_time(h: Harvest, suffix: str, latest: date) -> FoundDate | None:
    """Step 5's first source: plain <time> elements (tier 3)."""
    return _pick(h, 3, site_offset(h), suffix in CET_DOMAINS, latest)


def markup_days(h: Harvest, url_day: date | None, suffix: str) -> set[date]:
    """Every day the page's markup and URL give, published or modified, each as written and as the
    site's local day (a UTC stamp near midnight names both)."""
    offset = site_offset(h)
    domain_cet = suffix in CET_DOMAINS
    days = {url_day} if url_day is not None else set()
    for c in (*h.published, *h.modified):
        days.add(c.stamp.day)
        days.add(_local(c, offset, domain_cet))
    return days


def checked(markup: Markup | None, days: set[date], header: list[TextDate]) -> FoundDate | None:
    """The markup's choice, unless the article's header shows another day and not the chosen one:
    then the header's day where the markup gives it too, or where the choice was a generic date.

    The header's day is the one the site presents the article with: an article republished after an
    update shows the update's day there, while its markup still says when it was first published
    (htmldate's gold follows the page). Requiring the day to be one the markup gives too keeps a
    date the article's text mentions from being taken; generic keys (tier 2: "date", "dc.date") are
    filled by some CMSs with the day the page was generated or last touched, and yield to the header
    without that check (on htmldate's pages: 4 of 4 such disagreements, the header was right).
    """
    if markup is None:
        return None
    found = markup.found
    if not header or date.fromisoformat(found.date) in {d.day for d in header}:
        return found
    first = header[0].day
    if first in days:
        return _found(first, "text:header+markup")
    return _found(first, "text:header") if markup.tier == 2 else found


def from_header(header: list[TextDate]) -> FoundDate | None:
    return _found(header[0].day, "text:header") if header else None


def from_elements(tree: LexborHTMLParser, latest: date) -> FoundDate | None:
    found = date_element_date(tree, latest)
    return _found(found.stamp.day, found.rule) if found is not None else None


def from_text(tree: LexborHTMLParser, h: Harvest, title: str | None, latest: date) -> FoundDate | None:
    body = tree.body
    if body is None:
        return None
    text = mk.unmarked_text(body, SKIPPED_MARKS)
    found = text_dates(text, latest)
    if not found:
        return None
    for d in found:
        if d.cue == "published":
            return _found(d.day, "text:published")
    k = text.find(h.h1) if h.h1 else -1
    if k < 0 and title:
        k = text.find(title)  # no <h1>, or a logo in it: the headline the metadata names
    if k >= 0:
        for d in found:
            if k <= d.position < k + HEADLINE_REACH and d.dates_page:
                return _found(d.day, "text:headline")
        for d in reversed(found):
            if k - HEADLINE_BEFORE <= d.position < k and d.dates_page:
                return _found(d.day, "text:headline")
    days = [d.day for d in found if d.dates_page]
    if days and (len(set(days)) == 1 or days.count(days[0]) >= 2):
        return _found(days[0], "text:first")
    # Last: the day the page says it was last changed, when it gives no other ("Letzte Änderung",
    # "last edited" of wikis, "Date of Last Revision" of terms): the current text is from that day.
    # On htmldate's pages: +1 dev, +2 check, 1 wrong (check).
    for d in found:
        if d.cue == "updated":
            return _found(d.day, "text:updated")
    return None


def modified(h: Harvest) -> FoundDate | None:
    if not h.modified:
        return None
    best = min(h.modified, key=_rank)
    return _found(best.stamp.day, best.rule)
