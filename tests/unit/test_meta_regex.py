"""Every regex of the metadata extractor that sees page content runs in linear time.

Measured by ratios: the time on an adversarial input of 16n characters over the time of 16 runs on n
characters, so both sides do the same work for linear code and take about as long (timing a single small
run against the large one measured microseconds against a noisy machine: a 16x bound of 64 failed at 67x
under load). Linear code gives ~1, quadratic ~16; the bound of 4 leaves 4x on either side.
Inputs are the shapes that make backtracking regexes blow up: long runs of what a pattern's optional
and repeated parts accept, without the part that would complete a match.
"""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from worker.clean.meta import collect, dates, fields, jsonld, text

LATEST = date(2024, 6, 2)
SIZE = 4_000
GROWTH = 16
MAX_RATIO = 4.0

# Units repeated to build inputs: digits, separators, month names, cue words and their near misses.
UNITS = (
    "1", "12", "2019", "1.", "12.", "1. ", "2019-", "2019-03-", "14.03.", "1/", "14/03/", " ", "a",
    "März ", "14 März ", "Jan 14 ", "de ", "14 de ", "2019 März ", "2019. ", "T10:00", "+01:00",
    '"datePublished": "', '"headline":', "by ", " and ", ", ", "veröffentlicht ", "bis ", "-",
    "/2019/03/", "/2019", "年", "2019年3月", "\u00a0", "Mär.", "1er ", "31.10.", "31/10/",
)  # fmt: skip

REGEXES: dict[str, re.Pattern[str]] = {
    "dates.TEXT_DATE": dates.TEXT_DATE,
    "dates._ISO": dates._ISO,
    "dates._URL_DAY": dates._URL_DAY,
    "dates._URL_MONTH": dates._URL_MONTH,
    "dates._URL_DMY": dates._URL_DMY,
    "text._YEAR_1990S": text._YEAR_1990S,
    "text._YEAR_2000S": text._YEAR_2000S,
    "text._YEAR_OR_SHORT_DATE": text._YEAR_OR_SHORT_DATE,
    "text._DATE_START": text._DATE_START,
    "text.PUBLISHED_CUE": text.PUBLISHED_CUE,
    "text.OTHER_CUE": text.OTHER_CUE,
    "jsonld._LOOSE": jsonld._LOOSE,
    "fields._BYLINE_PREFIX": fields._BYLINE_PREFIX,
    "fields._AUTHOR_SPLIT": fields._AUTHOR_SPLIT,
}

# The functions that run the regexes over page content, as the extractor calls them.
FUNCTIONS: dict[str, Callable[[str], object]] = {
    "find_dates": lambda s: dates.find_dates(s, LATEST, limit=10**9),
    "parse_value": lambda s: dates.parse_value(s, LATEST),
    "text_dates": lambda s: text.text_dates(s, LATEST, limit=10**9),
    "text_dates(short_years)": lambda s: text.text_dates(s, LATEST, limit=10**9, short_years=True),
    "url_day": lambda s: dates.url_day(s, LATEST),
    "url_dmy_day": lambda s: dates.url_dmy_day(s, LATEST),
    "visible_text": lambda s: text.visible_text(s, [s[: len(s) // 3], s[len(s) // 2 :]]),
}


def _seconds(fn: Callable[[str], object], s: str) -> float:
    # Best of 5 with the garbage collector off: a collection triggered by the many match objects
    # of the large input made single runs 3x slower. This thread's CPU time, not the wall clock: on a
    # busy machine a long run is preempted where a short one is not (tests/unit/test_linear_time.py).
    best = float("inf")
    gc.disable()
    try:
        for _ in range(5):
            t0 = time.thread_time()
            fn(s)
            best = min(best, time.thread_time() - t0)
    finally:
        gc.enable()
    return max(best, 1e-6)


def _worst_ratio(fn: Callable[[str], object], stop_above: float = float("inf")) -> tuple[float, str]:
    """The largest ratio over the units, and its unit. The first ratio above `stop_above` ends the search:
    it already decides a `> stop_above` assertion, and each quadratic unit takes 10-30 s on a slow machine."""
    worst, which = 0.0, ""
    for unit in UNITS:
        small = unit * (SIZE // len(unit) + 1)
        large = small * GROWTH
        ratio = _seconds(fn, large) / _seconds(lambda s: [fn(s) for _ in range(GROWTH)], small)
        if ratio > worst:
            worst, which = ratio, unit
        if worst > stop_above:
            break
    return worst, which


def _all_matches(pattern: re.Pattern[str]) -> Callable[[str], object]:
    """A scan for every match: each start position is tried, so a backtracking pattern shows."""

    def run(s: str) -> object:
        return [m.span() for m in pattern.finditer(s)]

    return run


@pytest.mark.parametrize("name", sorted(REGEXES))
def test_regex_is_linear(name: str) -> None:
    ratio, unit = _worst_ratio(_all_matches(REGEXES[name]))
    assert ratio < MAX_RATIO, f"{name}: {ratio:.1f}x the time of {GROWTH} runs on a {GROWTH}th of {unit!r}"


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_scanning_function_is_linear(name: str) -> None:
    ratio, unit = _worst_ratio(FUNCTIONS[name])
    assert ratio < MAX_RATIO, f"{name}: {ratio:.1f}x the time of {GROWTH} runs on a {GROWTH}th of {unit!r}"


def test_the_ratio_test_catches_a_quadratic_regex() -> None:
    # an unbounded run before a part that never comes: each start position rescans the run (".*" rescans
    # fastest: a ratio of 11-17 like "[0-9]*x", in ~11 s instead of ~26 s on a slow machine)
    ratio, _ = _worst_ratio(_all_matches(re.compile(r".*x")), stop_above=MAX_RATIO)
    assert ratio > MAX_RATIO


# The year scans test "no digit before" after the year's first digits (a pattern that starts with a
# literal or a character is searched faster): they find what the plain lookbehind form finds.
PLAIN_YEAR = re.compile(r"(?<![0-9])(?:199[5-9]|20[0-9]{2})(?![0-9])")
PLAIN_YEAR_OR_SHORT_DATE = re.compile(
    r"(?<![0-9])(?:199[5-9]|20[0-9]{2})(?![0-9])|(?<![0-9.])[0-3][0-9]([./])[01][0-9]\1[0-9]{2}(?![0-9])"
)


@given(st.text(alphabet="0123456789./ x\u0661", max_size=40))
def test_year_scans_find_what_the_plain_lookbehind_finds(s: str) -> None:
    assert [m.span() for m in text.years(s)] == [m.span() for m in PLAIN_YEAR.finditer(s)]
    assert [(m.span(), m.groups()) for m in text._YEAR_OR_SHORT_DATE.finditer(s)] == [
        (m.span(), m.groups()) for m in PLAIN_YEAR_OR_SHORT_DATE.finditer(s)
    ]


# The URL scans likewise (dates.py): what the plain lookbehind forms find, with the same groups.
PLAIN_URL_DAY = re.compile(r"(?<![0-9])([12][0-9]{3})([-_/]?)([01]?[0-9])\2([0-3]?[0-9])(?![0-9])")
PLAIN_URL_DMY = re.compile(r"(?<![0-9])([0-3]?[0-9])([-_.])([01]?[0-9])\2([12][0-9]{3})(?![0-9])")


@given(st.text(alphabet="0123456789-_./x\u0661", max_size=40))
def test_url_scans_find_what_the_plain_lookbehind_finds(s: str) -> None:
    for ours, plain in ((dates._URL_DAY, PLAIN_URL_DAY), (dates._URL_DMY, PLAIN_URL_DMY)):
        assert [(m.span(), m.groups()) for m in ours.finditer(s)] == [
            (m.span(), m.groups()) for m in plain.finditer(s)
        ]


WHITESPACE = "".join(chr(c) for c in range(0x3100) if chr(c).isspace())


@given(st.text(alphabet=st.sampled_from(WHITESPACE + "ab\u00e4\u200b\x00"), max_size=30))
def test_fold_is_the_whitespace_substitution(s: str) -> None:
    assert collect.fold(s) == re.sub(r"\s+", " ", s).strip()


# Pieces of every date form around a year, and what stands next to years in running text.
DATEISH_PIECES = ["14 ", "14. ", "14.03.", "3/14/", "14-3-", "March ", "März ", "Mar. ", "2019", "1999",
                  "-03-14", "/3/1", "年3月14日", " 年 3 月", ". március 14", " Mar 3", ", ", " ", "x", "©",
                  "12:30 CET ", "de ", "1er ", "th, ", "\u0663"]  # fmt: skip
DATEISH = st.lists(st.sampled_from(DATEISH_PIECES), max_size=8).map("".join)


# ... and what a date start may hide: a year inside a longer run before "年", a month after "年", two- and
# three-digit runs.
DATE_PIECES = [*DATEISH_PIECES, "12019年", "年Sept. 3 ", "120193", "123 ", "5", "99", "ab", "Sept. 3 "]


@settings(max_examples=500)
@given(DATEISH)
def test_a_year_without_another_digit_in_its_window_starts_no_date_around_it(s: str) -> None:
    # text_dates skips such a year: no search the loop could make from the window's start finds a date
    # that spans it.
    for year in text.years(s):
        start, end = max(0, year.start() - text.WINDOW_BEFORE), min(len(s), year.end() + text.WINDOW_AFTER)
        if text._DIGIT.search(s, start, year.start()) or text._DIGIT.search(s, year.end(), end):
            continue
        for p in range(start, year.start() + 1):
            m = dates.TEXT_DATE.match(s, p, end)
            assert m is None or m.end() < year.end()


@settings(max_examples=500)
@given(st.lists(st.sampled_from(DATE_PIECES), max_size=8).map("".join), st.integers(0, 40))
def test_every_position_text_date_matches_at_is_a_date_start(s: str, cut: int) -> None:
    # text_dates tries TEXT_DATE at _DATE_START's positions only: the search it replaces found a match
    # at any other position (with the window's end anywhere, as text_dates sets it)
    end = max(0, len(s) - cut)
    starts = {m.start() for m in text._DATE_START.finditer(s, 0, end)}
    for p in range(end + 1):
        if dates.TEXT_DATE.match(s, p, end) is not None:
            assert p in starts, (s, p, end)


@settings(max_examples=500)
@given(DATEISH)
def test_text_date_matches_only_where_an_ascii_digit_is(s: str) -> None:
    # find_dates returns [] for a text without an ASCII digit, before any TEXT_DATE search
    digitless = re.sub("[0-9]", "", s)
    assert dates.TEXT_DATE.search(digitless) is None
    assert dates.find_dates(digitless, date(2030, 1, 1)) == []


# TEXT_DATE tests where a date may start before its branches and what each group of branches needs after
# its first digits (dates.py): what the plain alternation of its branches finds, at every start position,
# with the same groups and branch, searched and matched with the window's end anywhere (as text_dates does).
_PLAIN_WORD = r"[^\W\d_]{3,12}"
PLAIN_TEXT_DATE = re.compile(
    r"(?P<ymd>(?<![0-9])(?P<y1>[12][0-9]{3})(?P<s1>[-/.]) ?(?P<m1>[01]?[0-9])(?P=s1) ?"
    r"(?P<d1>[0-3]?[0-9])(?![0-9]))"
    r"|(?P<cjk>(?P<y2>[12][0-9]{3}) ?年 ?(?P<m2>[01]?[0-9]) ?月 ?(?P<d2>[0-3]?[0-9]) ?日)"
    r"|(?P<num>(?<![0-9.])(?P<a3>[0-3]?[0-9])(?P<s3>[-/.]) ?(?P<b3>[01]?[0-9])(?P=s3) ?"
    r"(?P<y3>[12][0-9]{3}|[0-9]{2})(?![0-9]))"
    r"|(?P<dmy>(?<![0-9])(?P<d4>[0-3]?[0-9])(?:\.|st|nd|rd|th|er|º|°)? ?(?:de |of )?(?P<w4>"
    + _PLAIN_WORD
    + r")\.?,? ?"
    r"(?:de |del )?(?P<y4>[12][0-9]{3})(?![0-9]))"
    r"|(?P<mdy>(?<![^\W\d_])(?P<w5>" + _PLAIN_WORD + r")\.? (?P<d5>[0-3]?[0-9])(?:st|nd|rd|th)?,? "
    r"(?:[0-2][0-9]:[0-5][0-9](?::[0-5][0-9])? (?:[A-Z]{2,5} )?)?(?P<y5>[12][0-9]{3})(?![0-9]))"
    r"|(?P<ydm>(?<![0-9])(?P<y6>[12][0-9]{3})\.? (?P<w6>"
    + _PLAIN_WORD
    + r")\.? (?P<d6>[0-3]?[0-9])(?![0-9]))"
)
# Dates of every branch's form with each optional part present or not, some with a part left out or
# swapped for a piece of another form (near misses: what makes a branch fail late), between other text.
_YEARS = st.sampled_from(["2019", "1999", "12019", "201", "20190", "19"])
_DAYS = st.sampled_from(["14", "3", "03", "31", "0", "123"])
_MONTHS = st.sampled_from(["March", "Mar", "März", "Sept", "ab", "Abcdefghijklm", "x\u00b2z"])
_OPT = st.sampled_from(["", " ", ".", ". ", ",", "-", "/", "年", "日", "º", "th", "de ", "12:30 ", "\u0663"])
_SEP = st.sampled_from(["-", "/", ".", ". ", " ", "- "])
_S = st.sampled_from


_FORMS = (
    (_YEARS, _SEP, _DAYS, _SEP, _DAYS, _S(["", "日", "x", "1"])),  # ymd
    # cjk
    (_YEARS, _S(["年", " 年", " 年 ", "年 "]), _DAYS, _S(["月", " 月 ", "月 "]), _DAYS,
     _S(["日", " 日", ""])),
    (_DAYS, _SEP, _DAYS, _SEP, _YEARS),  # num
    (_DAYS, _S(["", ".", "st", "er", "º", "°", "th"]), _S(["", " "]), _S(["", "de ", "of "]), _MONTHS,
     _S(["", ".", ",", ".,"]), _S(["", " "]), _S(["", "de ", "del "]), _YEARS),  # dmy
    (_MONTHS, _S(["", "."]), _S([" ", ""]), _DAYS, _S(["", "st", "th"]), _S(["", ","]), _S([" ", ""]),
     _S(["", "12:30 ", "12:30:45 CET ", "12:30 C "]), _YEARS),  # mdy
    # ydm
    (_YEARS, _S(["", "."]), _S([" ", ""]), _MONTHS, _S(["", "."]), _S([" ", ""]), _DAYS, _S(["", "1", "x"])),
)  # fmt: skip


@st.composite
def date_shaped(draw: st.DrawFn) -> str:
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        pieces = [draw(piece) for piece in draw(st.sampled_from(_FORMS))]
        if draw(st.booleans()):
            pieces[draw(st.integers(0, len(pieces) - 1))] = draw(_OPT)
        parts.append(draw(st.sampled_from(["", " ", "x", "1", "."])) + "".join(pieces))
    return "".join(parts)


def _assert_text_date_is_the_plain_alternation(s: str, cut: int) -> None:
    end = max(0, len(s) - cut)
    for p in range(len(s) + 1):
        assert _seen(dates.TEXT_DATE.search(s, p)) == _seen(PLAIN_TEXT_DATE.search(s, p)), (s, p)
        ours, plain = dates.TEXT_DATE.match(s, p, end), PLAIN_TEXT_DATE.match(s, p, end)
        assert _seen(ours) == _seen(plain), (s, p, end)
        assert ours is None or ours.groupdict() == plain.groupdict()


@settings(max_examples=500)
@given(st.one_of(DATEISH, st.lists(st.sampled_from(DATE_PIECES), max_size=8).map("".join)), st.integers(0, 9))
def test_text_date_finds_what_the_plain_alternation_finds(s: str, cut: int) -> None:
    _assert_text_date_is_the_plain_alternation(s, cut)


@settings(max_examples=1000)
@given(date_shaped(), st.integers(0, 12))
def test_text_date_finds_what_the_plain_alternation_finds_in_generated_text(s: str, cut: int) -> None:
    _assert_text_date_is_the_plain_alternation(s, cut)


def _seen(m: re.Match[str] | None) -> object:
    """What text_dates and match_day read of a match."""
    return None if m is None else (m.span(), m.groups(), m.lastgroup)


# text.OTHER_CUE is its alternatives as written, each made to start with a literal: the same matches.
PLAIN_OTHER_CUE = re.compile(text.OTHER_CUE_ALTERNATIVES)
CUE_PIECES = st.sampled_from(
    ["bis", "ab", "zum", "until", "from", "next", "since", "depuis", "seit", "born", "registered", "x",
     "\u00e9", "_", "1", "23.", "-", "\u2013", " ", ".", "abbis", "nextx", "9 "]
)  # fmt: skip


@settings(max_examples=500)
@given(st.lists(CUE_PIECES, max_size=12).map("".join))
def test_other_cue_finds_what_its_alternatives_as_written_find(s: str) -> None:
    assert PLAIN_OTHER_CUE.pattern != text.OTHER_CUE.pattern
    assert [m.span() for m in text.OTHER_CUE.finditer(s)] == [m.span() for m in PLAIN_OTHER_CUE.finditer(s)]
