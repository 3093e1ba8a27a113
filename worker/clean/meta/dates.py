"""Dates in attribute values, visible text and URLs, as calendar days.

Every regex here sees page content, so every quantifier is bounded (no `*` or `+`): each match
attempt then costs at most a constant number of steps and a scan is linear in the text's length,
whatever the text (tests/unit/test_meta_regex.py checks the ratios on adversarial inputs). Text is
whitespace-folded before it gets here, so a single literal space stands for any run of whitespace.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, timedelta

from worker.clean import native
from worker.clean.meta.months import MONTHS

# Publication dates before this are taken for something else (a birth date, a founding year, a
# law's date): the web had no publications to date before then. htmldate's floor, for the same reason.
EARLIEST = date(1995, 1, 1)

# Two-digit years ("14.03.19") up to this value are read as 20xx, the rest as 19xx.
TWO_DIGIT_PIVOT = 69

# An attribute value in ISO 8601 (also without dashes: 20190314), with the time of day and the UTC
# offset when written; matched at the start of a stripped value.
_ISO = re.compile(
    r"([12][0-9]{3})(-?)([01][0-9])\2([0-3][0-9])"
    r"(?:[T ]([0-2][0-9]):?([0-5][0-9])(?::?[0-5][0-9](?:[.,][0-9]{1,9})?)?"
    r" ?(Z|[+-][01][0-9](?::?[0-5][0-9])?)?)?"
    r"(?![0-9])"
)

# Dates in running text. One alternation, each branch of bounded length; the branch that matched is
# read from the named group. Letters that may be a month name are captured as [^\W\d_]{3,12} and
# looked up in MONTHS (one dict lookup instead of a 300-name alternation).
_WORD = r"[^\W\d_]{3,12}"
# Every branch starts with an ASCII digit, but "mdy" with a letter that starts a word: the lookahead
# says so first, so a position that starts no date (most letters, spaces, punctuation) fails one test
# instead of all six branches. The same matches and groups (tests/unit/test_meta_regex.py) for ~35% less
# of the search's CPU on the windows text.text_dates searches (~2% of a --no-templates page, callgrind).
TEXT_DATE_STARTS = r"(?=[0-9]|(?<![^\W\d_])[^\W\d_])"
# The branches, in the order they are tried (the first that matches wins).
# 2019-03-14, 2019/03/14, 2019.03.14, "2019. 3. 14." (Korean, Hungarian)
_YMD = (
    r"(?P<ymd>(?<![0-9])(?P<y1>[12][0-9]{3})(?P<s1>[-/.]) ?(?P<m1>[01]?[0-9])(?P=s1) ?"
    r"(?P<d1>[0-3]?[0-9])(?![0-9]))"
)
# 2019年3月14日 (Chinese, Japanese)
_CJK = r"(?P<cjk>(?P<y2>[12][0-9]{3}) ?年 ?(?P<m2>[01]?[0-9]) ?月 ?(?P<d2>[0-3]?[0-9]) ?日)"
# 14.03.2019, 14. 3. 2019, 14.03.19, 14/03/2019, 03/14/2019, 14-03-2019
_NUM = (
    r"(?P<num>(?<![0-9.])(?P<a3>[0-3]?[0-9])(?P<s3>[-/.]) ?(?P<b3>[01]?[0-9])(?P=s3) ?"
    r"(?P<y3>[12][0-9]{3}|[0-9]{2})(?![0-9]))"
)
# 14 March 2019, 14. März 2019, 1er mars 2019, 14 de marzo de 2019, 14th of March, 2019
_DMY = (
    r"(?P<dmy>(?<![0-9])(?P<d4>[0-3]?[0-9])(?:\.|st|nd|rd|th|er|º|°)? ?(?:de |of )?(?P<w4>"
    + _WORD
    + r")\.?,? ?(?:de |del )?(?P<y4>[12][0-9]{3})(?![0-9]))"
)
# March 14, 2019, Mar. 14 2019, Jan 28 15:28:56 CET 2020 (Java's Date.toString)
_MDY = (
    r"(?P<mdy>(?<![^\W\d_])(?P<w5>" + _WORD + r")\.? (?P<d5>[0-3]?[0-9])(?:st|nd|rd|th)?,? "
    r"(?:[0-2][0-9]:[0-5][0-9](?::[0-5][0-9])? (?:[A-Z]{2,5} )?)?(?P<y5>[12][0-9]{3})(?![0-9]))"
)
# 2019. március 14. (Hungarian), 2019 Mar 14
_YDM = r"(?P<ydm>(?<![0-9])(?P<y6>[12][0-9]{3})\.? (?P<w6>" + _WORD + r")\.? (?P<d6>[0-3]?[0-9])(?![0-9]))"
# The branches behind lookaheads that say what each needs after its first digits, one test for the
# branches that share it: "ymd" and "cjk" a year before "-", "/", "." or "年"; "num" and "dmy" a run
# of one or two digits; "ydm" a year, an optional "." and a space before a letter. A position tried
# by text.text_dates (a year, a day, a month's name; most fail) then enters one or two branches instead
# of all six: each lookahead is implied by its branches, so the same matches, branches and groups in
# the same order (tests/unit/test_meta_regex.py compares it with the plain alternation): 13 K
# instructions a page fewer single-page, 24 K with the site memory (callgrind).
TEXT_DATE = re.compile(
    TEXT_DATE_STARTS
    + r"(?:(?=[12][0-9]{3}(?:[-/.]| ?年))(?:"
    + _YMD
    + "|"
    + _CJK
    + r")|(?=[0-9]{1,2}(?![0-9]))(?:"
    + _NUM
    + "|"
    + _DMY
    + ")|"
    + _MDY
    + r"|(?=[12][0-9]{3}\.? [^\W\d_])"
    + _YDM
    + ")"
)


# Every branch of TEXT_DATE holds a day, a month or a year in ASCII digits: a text without one holds no date.
# Searched for first (a character-set scan, a twentieth of TEXT_DATE's search on the same text), it saves
# the search on the half of find_dates' texts that have none (a post's header lines, bylines).
_ASCII_DIGIT = re.compile("[0-9]")


@dataclass(frozen=True, slots=True)
class Stamp:
    """A calendar day, with the time of day and UTC offset (minutes) when the value wrote them.

    The offset matters because a late-evening story in America is already dated the next day in UTC:
    a UTC stamp is moved to the site's local day when the page says its offset elsewhere.
    """

    day: date
    hour: int | None = None
    minute: int = 0
    offset: int | None = None  # minutes east of UTC; 0 for "Z"


def plausible(day: date, latest: date) -> bool:
    return EARLIEST <= day <= latest


def _day(year: int, month: int, day: int, latest: date) -> date | None:
    try:
        found = date(year, month, day)
    except ValueError:
        return None
    return found if plausible(found, latest) else None


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:
        year += 2000 if year <= TWO_DIGIT_PIVOT else 1900
    return year


# A page repeats its date values (a CMS writes the same stamp in several metas, its JSON-LD and <time>): the
# last PARSED_VALUES parses are kept, two in five calls on the shared sets' pages (a Stamp is immutable).
PARSED_VALUES = 32


@functools.lru_cache(maxsize=PARSED_VALUES)
def parse_value(value: str, latest: date) -> Stamp | None:
    """The day in a machine-readable value (meta content, JSON-LD, datetime attribute), else None.

    ISO 8601 first (almost every value); then the textual forms some CMSs put there
    ("Tue Jan 28 15:28:56 CET 2020", "Wed, 02 Feb 2022 09:12:22 +0100", "11.11.2021").
    """
    value = value.strip()[:80]
    m = _ISO.match(value)
    if m is not None:
        found = _day(int(m[1]), int(m[3]), int(m[4]), latest)
        if found is None:
            return None
        if m[5] is None:
            return _new_stamp(found)
        return _new_stamp(found, int(m[5]), int(m[6]), _offset(m[7]))
    # Machine values write slashed dates the way US-locale defaults print them: month first.
    days = find_dates(value, latest, limit=1, month_first=True)
    return _new_stamp(days[0]) if days else None


# Stamp made in C (its slots filled directly), once native.py has checked it against its
# own __init__ (which sets each field through object.__setattr__).
_new_stamp = native.instance_maker(Stamp, (date(2020, 1, 2), 3, 4, 60))


def _offset(tz: str | None) -> int | None:
    if tz is None:
        return None
    if tz == "Z":
        return 0
    digits = tz[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + (int(digits[2:4]) if len(digits) >= 4 else 0)
    return -minutes if tz[0] == "-" else minutes


def local_day(stamp: Stamp, offset: int) -> date:
    """The day of a UTC stamp at `offset` minutes east of UTC (stamps with another offset unchanged)."""
    if stamp.offset != 0 or stamp.hour is None:
        return stamp.day
    minutes = stamp.hour * 60 + stamp.minute + offset
    if minutes >= 24 * 60:
        return stamp.day + timedelta(days=1)
    if minutes < 0:
        return stamp.day - timedelta(days=1)
    return stamp.day


def find_dates(text: str, latest: date, limit: int = 8, month_first: bool = False) -> list[date]:
    """The plausible days written in `text` (whitespace-folded), in order, at most `limit`.

    Numeric day/month orders are read day first (Europe), unless `month_first` and written with
    slashes (03/14/2019, the US order);
    an order that only one reading makes valid (13/03 or 03/13) is read that way whatever the hint.
    """
    if _ASCII_DIGIT.search(text) is None:
        return []  # every form of TEXT_DATE holds an ASCII digit (see _ASCII_DIGIT)
    found: list[date] = []
    pos = 0
    while len(found) < limit:
        m = TEXT_DATE.search(text, pos)
        if m is None:
            break
        day = match_day(m, latest, month_first)
        if day is not None:
            found.append(day)
            pos = m.end()
        else:
            # The letters were no month name: retry one character on, where another branch may fit.
            pos = m.start() + 1
    return found


def match_day(m: re.Match[str], latest: date, month_first: bool) -> date | None:
    kind = m.lastgroup
    if kind == "ymd":
        return _day(int(m["y1"]), int(m["m1"]), int(m["d1"]), latest)
    if kind == "cjk":
        return _day(int(m["y2"]), int(m["m2"]), int(m["d2"]), latest)
    if kind == "num":
        if len(m["y3"]) == 2 and (len(m["a3"]) < 2 or len(m["b3"]) < 2):
            return None  # "1.2.19" is a version number; a two-digit year is only read in "14.03.19"
        first, second, year = int(m["a3"]), int(m["b3"]), _year(m["y3"])
        if m["s3"] != "/" or first > 12 or (second <= 12 and not month_first):
            return _day(year, second, first, latest)  # 14.03.2019: day first, as most of the world
        return _day(year, first, second, latest)  # 03/14/2019, or an American page
    n = {"dmy": 4, "mdy": 5}.get(kind or "", 6)  # the named month's branch: w4/d4/y4, w5..., w6...
    month = MONTHS.get(m[f"w{n}"].lower())
    return None if month is None else _day(int(m[f"y{n}"]), month, int(m[f"d{n}"]), latest)


# Dates in a URL path: /2019/03/14/, /2019-03-14-, _20190314_ (CMS permalinks are set once, at
# publication, and never follow later edits). Both URL patterns test "no digit before" after their first
# digit ("[12](?<![0-9][12])" is "(?<![0-9])[12]"; "[0-9](?<![0-9][0-9])(?:(?<=[0-3])[0-9])?" is
# "(?<![0-9])[0-3]?[0-9]", whose one-digit reading never fits where a second digit follows): a pattern
# that starts with a character class is searched by skipping to it, half the CPU of the plain forms
# (tests/unit/test_meta_regex.py checks they find the same).
_URL_DAY = re.compile(r"([12](?<![0-9][12])[0-9]{3})([-_/]?)([01]?[0-9])\2([0-3]?[0-9])(?![0-9])")
# ... and day first, as European CMSs and press offices write it in slugs: /meldungen/29-10-2021,
# /23-01-2022-titel, _22.04.2020_. Weaker than a permalink's year-first path (it may be a day the
# title names), so it is a tier-2 source (choose.py), below the page's own date markup.
_URL_DMY = re.compile(
    r"([0-9](?<![0-9][0-9])(?:(?<=[0-3])[0-9])?)([-_.])([01]?[0-9])\2([12][0-9]{3})(?![0-9])"
)
# ... and the year and month alone (/2019/03/slug): not a day, but a check on the days found elsewhere.
_URL_MONTH = re.compile(r"/([12][0-9]{3})/([01]?[0-9])/")


def url_day(path: str, latest: date) -> date | None:
    """The day a URL path says, None when it says none or an implausible one (an id like 20201234)."""
    for m in _URL_DAY.finditer(path):
        if not m[2] and (len(m[3]) < 2 or len(m[4]) < 2):
            continue  # undelimited digits must be exactly YYYYMMDD
        if m[2] == "/" and path[m.end() : m.end() + 1] not in ("", "/", ".", "?", "#"):
            continue  # /2023/10/3-fragen-an: the "3" starts the slug, the URL has only a month
        found = _day(int(m[1]), int(m[3]), int(m[4]), latest)
        if found is not None:
            return found
    return None


def url_dmy_day(path: str, latest: date) -> date | None:
    """The day a URL path writes day first (29-10-2021), None when it writes none."""
    for m in _URL_DMY.finditer(path):
        found = _day(int(m[4]), int(m[3]), int(m[1]), latest)
        if found is not None:
            return found
    return None


def url_month(path: str) -> tuple[int, int] | None:
    m = _URL_MONTH.search(path)
    if m is None or not 1 <= int(m[2]) <= 12:
        return None
    return int(m[1]), int(m[2])
