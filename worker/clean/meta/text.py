"""Dates written for readers in the page's visible text: the last resort when no markup dates the page.

The body's text is read once (lexbor concatenates it in C); the text of scripts and styles is cut out
of it, then the text is searched for four-digit years only (a fast scan), and the date regex runs on a
short window around each year. What precedes a date says what it is: "veröffentlicht am", "posted on"
(publication) or "bis", "zuletzt geändert" (something else).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from operator import methodcaller

from worker.clean import native
from worker.clean.meta.dates import TEXT_DATE, match_day

# A plausible year of publication, not part of a longer number (the window around it is then parsed).
# The "no digit before" test follows the year's first digits ("199(?<![0-9]199)" is "(?<![0-9])199"): a
# pattern that starts with a literal is searched for like str.find, and the two decades' scans together
# cost a quarter of one scan for either (whose first character re tests against a set, character by
# character); that scan of a page's whole text was half the metadata's CPU on pages without markup.
_YEAR_1990S = re.compile(r"199(?<![0-9]199)[5-9](?![0-9])")
_YEAR_2000S = re.compile(r"20(?<![0-9]20)[0-9]{2}(?![0-9])")
_START = methodcaller("start")
# A year as above, or a numeric date with a two-digit year ("14.03.19"). Both start with a digit from 0 to
# 3, matched first ("[0-3]", then each branch tests its own first digit by a lookbehind, "(?<=1)"): re's
# search then skips to such a digit before it tries the branches (it does so for a class or a literal
# that starts the pattern, never for alternatives or a lookbehind first). The same matches as the plain
# form (tests/unit/test_meta_regex.py) for a quarter of the CPU: that scan of the header's text was half
# the header's date search.
_YEAR_OR_SHORT_DATE = re.compile(
    r"[0-3](?:(?<=1)(?<![0-9]1)99[5-9](?![0-9])|(?<=2)(?<![0-9]2)0[0-9]{2}(?![0-9])"
    r"|(?<![0-9.][0-3])[0-9]([./])[01][0-9]\1[0-9]{2}(?![0-9]))"
)
# A date around a four-digit year has its day or month in digits on one side of it, within the window:
# TEXT_DATE's forms hold no digit runs but their groups, so a match that spans a year has it as its year
# group, with a day or month group before it ("14.03.2019", "14 March 2019", "March 14, 2019") or after
# it ("2019-03-14", "2019年3月14日", "2019. március 14."). A window without another digit (most years in
# running text: "© 2019", "in 2019 the") is not searched (a third of the text fallback's CPU).
_DIGIT = re.compile("[0-9]")
# Where a TEXT_DATE match can start. Every branch but "mdy" starts with a run of ASCII digits, none before
# it, of 1 or 2 digits (a day, a month) or 4 starting with 1 or 2 (a year), then no digit; but "cjk" may
# start inside a longer run ("12019年"). "mdy" starts a word of 3 to 12 letters followed by an optional
# ".", a space and a digit (its month's letters are greedy and bounded: a longer run fails it). TEXT_DATE's
# search tries every position of a window, each through its lookahead and six branches; tried at these
# positions only, in order, it finds the same (16 K instructions a page fewer in the metadata, callgrind).
# A match here spans no other such position (a digit run, a single digit, a word and its ". "), so
# finditer lists them all (tests/unit/test_meta_regex.py: every position TEXT_DATE matches at is listed).
_DATE_START = re.compile(
    r"(?<![0-9])(?:[0-9]{1,2}|[12][0-9]{3})(?![0-9])"  # a day, a month or a year
    r"|[12](?=[0-9]{3} ?年)"  # a year before 年, inside a longer run
    r"|(?<![^\W\d_])[^\W\d_]{3,12}\.? (?=[0-9])"  # a month's name before its day
)


def date_starts_python(text: str, start: int, end: int, last: int) -> list[int]:
    """Where _DATE_START matches in text[start:end] (finditer's: each search resumes at the previous match's
    end), up to `last`: the positions text_dates tries TEXT_DATE at around a year ending after `last`."""
    out: list[int] = []
    for at in _DATE_START.finditer(text, start, end):
        if at.start() > last:
            break
        out.append(at.start())
    return out


# date_starts_python in C (a scan of the window's characters, not re's match attempt at each of them: 87 K
# instructions a page fewer single-page, callgrind), once native.py has checked it on canaries.
_date_starts = native.date_starter(date_starts_python)
# How far before a year a date may start ("14. September 2019": 13 characters; "Mittwoch, 14. de
# septiembre de 2019" is longer) and after it end ("2019. március 14.").
WINDOW_BEFORE = 40
WINDOW_AFTER = 20
# Skipped texts shorter than this are left in the visible text: an empty or tiny script cannot hold a
# date, and searching for it could match prose.
SKIPPED_MIN_CHARS = 8
# Years looked at per page at most: archives list hundreds of months.
MAX_YEARS = 300
# How many characters before a date are read for its cue.
CUE_CHARS = 40

# Words just before a date that say it is the publication date, in the languages of the web
# (lower-cased; matched anywhere in the CUE_CHARS before the date).
PUBLISHED_CUE = re.compile(
    r"ver[öo]ffentlicht|erschienen|erstellt|publiziert|gepostet|geschrieben|eingestellt|datum:|"
    r"gespeichert|published|posted|submitted|written|date:|publié|publie le|mis en ligne|publicado|"
    r"fecha|pubblicato|"
    r"gepubliceerd|geplaatst|opublikowano|publicerad|julkaistu|publikováno"
)
# ... that it is the last update ("Aktualisiert:", "last edited", "Letzte Änderung"): no publication
# date, but the only date some pages give (wikis, terms of service), read last (choose.from_text).
UPDATED_CUE = re.compile(
    r"aktualisiert|updated|mis à jour|actualizado|aggiornato|geändert|modified|edited|bearbeitet|"
    r"letzte|last"
)
# ... that it is something else: a deadline, a period, a birthday, an announced event ("der nächste
# Stammtisch findet am ... statt", "next meeting"; htmldate eval: +1 dev, none lost). As written here;
# OTHER_CUE is the same alternatives each starting with a literal (_literal_first).
OTHER_CUE_ALTERNATIVES = (
    r"\bbis\b|\bab\b|\bzum\b|\buntil\b|\bfrom\b|geburtstag|born|geboren|"
    r"nächste|findet|\bnext\b|upcoming|"
    # a forum's page clock ("Aktuelle Zeit:", "It is currently": the day it was fetched) and its posters'
    # profiles ("Registriert: 18.09.2008", "Joined:"): never the post's day (htmldate eval: +1 dev,
    # none lost)
    r"aktuelle zeit|it is currently|current time|heure actuelle|"
    r"registriert|registered|joined|beigetreten|inscrit|iscritto|"
    # the start of a state the text describes ("Seit 4. August 2014 ist in Bolivien ..."): an event's day
    # (no \b before "seit": the body's text joins a heading to the next paragraph, "BolivienSeit";
    # htmldate eval: +1 check, none lost)
    r"seit\b|\bsince\b|\bdepuis\b|"
    # the end of a range: "23.-26.8.2017"
    r"[0-9]\.? ?[-–] ?$"
)


def _literal_first(alternatives: str) -> str:
    """`alternatives` with each starting with a literal character: "\\bbis" as "b(?<!\\wb)is" (a word
    boundary before a letter is no word character before it) and "[0-9]x" as one alternative per digit.
    re's search then skips to the positions holding one of their first characters, which it does for a
    pattern whose every alternative starts with a literal only: a third of the CPU of the alternatives as
    written on a date's cue (tests/unit/test_meta_regex.py: the same matches)."""
    out: list[str] = []
    for alternative in alternatives.split("|"):
        if alternative.startswith("\\b") and alternative[2:3].isalpha():
            first = alternative[2]
            out.append(f"{first}(?<!\\w{first}){alternative[3:]}")
        elif alternative.startswith("[0-9]"):
            out.extend(digit + alternative[5:] for digit in "0123456789")
        else:
            out.append(alternative)
    return "|".join(out)


OTHER_CUE = re.compile(_literal_first(OTHER_CUE_ALTERNATIVES))


@dataclass(frozen=True, slots=True)
class TextDate:
    day: date
    position: int  # character offset in the text
    cue: str  # "published", "updated", "other" or ""

    @property
    def dates_page(self) -> bool:
        """Whether the date may be the page's publication date (no cue says it is something else)."""
        return self.cue in ("", "published")


# TextDate made in C (its slots filled directly), once native.py has checked it against its own __init__.
_new_text_date = native.instance_maker(TextDate, (date(2020, 1, 2), 3, "published"))


def years(text: str) -> Iterator[re.Match[str]]:
    """The plausible years in `text`, in order: the two scans' matches never overlap (each is four digits
    between non-digits)."""
    return heapq.merge(_YEAR_1990S.finditer(text), _YEAR_2000S.finditer(text), key=_START)


def visible_text(body_text: str, skipped: list[str]) -> str:
    """`body_text` with each of `skipped` (the texts of scripts and styles, in document order) cut out.

    lexbor's text() concatenates text nodes in document order, so each skipped text is found after
    the previous one: one forward pass.
    """
    if not skipped:
        return body_text
    pieces: list[str] = []
    pos = 0
    for s in skipped:
        if len(s) < SKIPPED_MIN_CHARS:
            continue
        k = body_text.find(s, pos)
        if k >= 0:
            pieces.append(body_text[pos:k])
            pos = k + len(s)
    pieces.append(body_text[pos:])
    return " ".join(pieces)


def text_dates(text: str, latest: date, limit: int = 40, short_years: bool = False) -> list[TextDate]:
    """Dates in `text` (whitespace-folded), in order, with the cue before each; with `short_years`
    also numeric dates with a two-digit year."""
    found: list[TextDate] = []
    pos = 0
    size = len(text)
    for n, year in enumerate(_YEAR_OR_SHORT_DATE.finditer(text) if short_years else years(text)):
        if n >= MAX_YEARS or len(found) >= limit:
            break
        if year.start() < pos:
            continue  # inside the date found before
        end = min(size, year.end() + WINDOW_AFTER)
        day, m = None, None
        start = max(pos, year.start() - WINDOW_BEFORE)
        if len(year[0]) == 4 and not (
            _DIGIT.search(text, start, year.start()) or _DIGIT.search(text, year.end(), end)
        ):
            continue  # no day or month in the window: no date around this year (see _DIGIT)
        # TEXT_DATE is tried where a date can start (_DATE_START), in order: what searching from the window's
        # start, and again one character past each match that gives no date, would find.
        for at in _date_starts(text, start, end, year.start()):  # after it: no date around this year
            m = TEXT_DATE.match(text, at, end)
            if m is None:
                continue
            if m.end() == end and end < size:
                break  # a date cut by the window's end
            if m.end() >= year.end():
                day = match_day(m, latest, False)
                if day is not None:
                    break
            # ends before this year, or letters that are no month: look on
        if day is None or m is None:
            continue
        found.append(_new_text_date(day, m.start(), _cue(text[max(pos, m.start() - CUE_CHARS) : m.start()])))
        pos = m.end()
    return found


def _cue(before: str) -> str:
    """The cue closest to the date wins ("erschienen am 3.5.2019, aktualisiert am ..." )."""
    before = before.lower()
    best, best_end = "", -1
    for kind, pattern in (("published", PUBLISHED_CUE), ("updated", UPDATED_CUE), ("other", OTHER_CUE)):
        for m in pattern.finditer(before):
            if m.end() > best_end:
                best, best_end = kind, m.end()
    return best
