"""Block classification inside the region, language guess, context smoothing, comment tails."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3, seg_of
from worker.clean import classify as classify_mod
from worker.clean import heuristics as h
from worker.clean import native, wordmodel
from worker.clean.classify import (
    BAD,
    GOOD,
    NEAR,
    SHORT,
    Candidates,
    KeptText,
    _copyright,
    classify,
    classify_region,
    comment_tail,
    decide_python,
    join_dropped,
    language,
    smooth,
    with_caption_runs,
    with_closing_lines,
    with_edge_sentences,
    with_inner_lines,
    with_item_runs,
    with_linked_headings,
    with_linked_items,
    with_linked_lines,
    with_list_siblings,
    with_listed_post_titles,
    with_numbered_gaps,
    with_numbered_lines,
    with_text_headings,
)
from worker.clean.lang import LANGS, STOPWORDS
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.clean.region import choose
from worker.clean.score import score
from worker.models import Page

EN = h.STOPWORD_GOOD_SHARE["en"]


def _blocks(*specs: tuple[str, str, int]) -> Candidates:
    """(text, kind, link words) per block."""
    texts = [t for t, _, _ in specs]
    words = [len(t.split()) for t in texts]
    lw = [k for _, _, k in specs]
    return Candidates(
        texts, [k for _, k, _ in specs], [len(t) for t in texts], words, lw,
        [a / b for a, b in zip(lw, words, strict=True)], [0] * len(texts),
    )  # fmt: skip


def _plain(*texts: str, kind: str = "paragraph") -> Candidates:
    return _blocks(*((t, kind, 0) for t in texts))


def _classified(html: str) -> tuple[list[str], list[str]]:
    """The texts kept, and those of the flat comment tail cut after them."""
    seg = seg_of(html)
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    classified = classify_region(seg, scores, region)
    return [seg.texts[i] for i in classified.kept], [seg.texts[i] for i in classified.tail]


def _kept(html: str) -> list[str]:
    return _classified(html)[0]


def test_classify_link_clusters_boilerplate_and_prose() -> None:
    blocks = _blocks(
        (PROSE, "paragraph", 0),
        ("Home News Sport Weather More", "paragraph", 5),
        ("Advertisement", "paragraph", 0),
        ("© 2024 Example Media Group", "paragraph", 0),
        ("Short line", "paragraph", 0),
        ("Tuesday 12 March 2024 | Wednesday 13 March 2024 | Thursday 14 March 2024", "paragraph", 0),
    )
    blocks.stop_words[0] = 12
    # A long line without stopwords is near-good: its neighbours decide (STOPWORDS_GOOD).
    assert classify(blocks, EN, [False] * 6) == [GOOD, BAD, BAD, BAD, SHORT, NEAR]
    # Without a stoplist, length and punctuation decide.
    assert classify(blocks, None, [False] * 6)[0] == GOOD
    # A boilerplate container overrides everything.
    assert classify(blocks, EN, [True] * 6)[0] == BAD


def test_language_counts_stopwords_of_long_blocks() -> None:
    blocks = _plain(PROSE, PROSE2, "Short one")
    assert language(blocks) == "en"
    assert blocks.stop_words[0] == sum(w in STOPWORDS["en"] for w in PROSE.lower().split())
    assert blocks.stop_words[0] > 0
    assert blocks.stop_words[2] == 0  # too short to be tested


@pytest.mark.skipif(wordmodel.data_dir() is None, reason="wordfreq's data is not installed")
def test_the_stoplist_coverage_is_recomputed_from_wordfreq() -> None:
    # h.STOPLIST_COVERAGE: the sum over a stoplist's words of 10**(zipf - 9) in wordfreq's small lists
    assert set(h.STOPLIST_COVERAGE) == set(LANGS)
    for lang in LANGS:
        table = wordmodel.zipf_table(lang)
        assert table is not None, lang
        coverage = sum(10 ** (table[w] - 9) for w in STOPWORDS[lang] if w in table)
        assert abs(coverage - h.STOPLIST_COVERAGE[lang]) <= 0.005, (lang, coverage)


def test_the_good_stopword_share_is_scaled_down_by_the_stoplists_coverage() -> None:
    english = h.STOPWORDS_GOOD
    assert h.STOPWORD_GOOD_SHARE["en"] == english  # the English classes are unchanged
    assert set(h.STOPWORD_GOOD_SHARE) == set(LANGS)
    for lang, c in h.STOPLIST_COVERAGE.items():
        scale = c / h.STOPLIST_COVERAGE["en"]
        want = english if scale >= 1 else english * scale
        assert h.STOPWORD_GOOD_SHARE[lang] == pytest.approx(want), lang
    assert h.STOPWORD_GOOD_SHARE["de"] == english  # a list covering more than English's asks for no more
    assert h.STOPWORD_GOOD_SHARE["pl"] == pytest.approx(0.162, abs=0.0005)
    assert h.STOPWORD_GOOD_SHARE["pl"] < h.STOPWORD_GOOD_SHARE["it"] < h.STOPWORDS_GOOD


# Long lines (over LENGTH_HIGH) of 20 words: a spec line without sentence punctuation, and one with it; a
# line between LENGTH_LOW and LENGTH_HIGH.
SPEC = (
    "Voltage twelve volts current three amperes frequency fifty hertz rating IP65 weight two kilograms "
    "casing aluminium steel black matt finish"
)
SPEC_PUNCT = (
    "Voltage: twelve volts, current: three amperes, frequency: fifty hertz, rating: IP65, weight: two "
    "kilograms; casing aluminium, steel in matt black."
)
MEDIUM = "The bridge will stay shut for the whole of the winter, the council says."


def test_under_the_good_share_a_long_block_is_near_good_whatever_its_punctuation() -> None:
    # rule (STOPWORDS_GOOD): a long block under the language's good stopword share is near-good, with
    # sentence punctuation or without, with some stopwords or none; at or over the share it is good past
    # LENGTH_HIGH, near-good under it
    blocks = _plain(SPEC, SPEC_PUNCT, SPEC, SPEC_PUNCT, SPEC, MEDIUM)
    assert all(w == 20 for w in blocks.words[:5])
    assert all(c >= h.NOSTOP_GOOD_LENGTH > h.LENGTH_HIGH for c in blocks.chars[:5])
    assert h.LENGTH_LOW <= blocks.chars[5] <= h.LENGTH_HIGH
    share = 0.2  # 4 of 20 words
    blocks.stop_words[:] = [0, 0, 3, 3, 4, blocks.words[5]]
    assert classify(blocks, share, [False] * 6) == [NEAR, NEAR, NEAR, NEAR, GOOD, NEAR]
    assert classify(blocks, 0.0, [False] * 6) == [GOOD, GOOD, GOOD, GOOD, GOOD, NEAR]
    # without a language, length and punctuation decide (NOSTOP_GOOD_LENGTH)
    assert classify(blocks, None, [False] * 6)[:2] == [NEAR, GOOD]


# Polish prose, and a Polish paragraph whose stopword density (4 of 19 words) is under the English good
# share and over the Polish one (h.STOPWORD_GOOD_SHARE), between link lists.
PL_PROSE = (
    "To był jeden z najtrudniejszych dni w historii miasta, ale mieszkańcy nie tracili nadziei, że most "
    "zostanie otwarty jeszcze przed zimą."
)
PL_PROSE2 = (
    "Nowy most ma być gotowy za dwa lata, a jego budowa będzie kosztować więcej niż planowano, bo ceny stali "
    "są wysokie."
)
PL_SPARSE = (
    "Rada miasta zebrała się wieczorem i postanowiła zamknąć stary most kolejowy nad rzeką Wisłą na czas "
    "długiego remontu zimowego"
)
PL_LINKS = "<ul>" + "".join(f"<li><a href='/w{i}'>Wiadomości dnia {i}</a></li>" for i in range(4)) + "</ul>"


def test_polish_prose_under_the_english_good_bound_is_good_under_the_polish_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blocks = _plain(PL_PROSE, PL_SPARSE, PL_PROSE2)
    assert language(blocks) == "pl"
    pl = h.STOPWORD_GOOD_SHARE["pl"]
    assert pl <= blocks.stop_words[1] / blocks.words[1] < h.STOPWORDS_GOOD
    assert classify(blocks, pl, [False] * 3) == [GOOD, GOOD, GOOD]
    assert classify(blocks, EN, [False] * 3) == [GOOD, NEAR, GOOD]
    # on a page, between link lists: kept with the Polish share, dropped with the English one; in C and
    # in Python
    body = f"<p>{PL_PROSE}</p>{PL_LINKS}<p>{PL_SPARSE}</p>{PL_LINKS}<p>{PL_PROSE2}</p>"
    html = f"{NAV}<article>{body}</article>"
    for decide in (classify_mod._decide, decide_python):
        monkeypatch.setattr(classify_mod, "_decide", decide)
        monkeypatch.setitem(h.STOPWORD_GOOD_SHARE, "pl", pl)
        assert _kept(html) == [PL_PROSE, PL_SPARSE, PL_PROSE2]
        monkeypatch.setitem(h.STOPWORD_GOOD_SHARE, "pl", EN)
        assert _kept(html) == [PL_PROSE, PL_PROSE2]


@pytest.mark.parametrize(
    ("classes", "expected"),
    [
        ([GOOD, SHORT, GOOD], [GOOD, GOOD, GOOD]),  # short between good: part of the text
        ([BAD, SHORT, BAD], [BAD, BAD, BAD]),  # short between bad: boilerplate
        ([GOOD, SHORT, BAD], [GOOD, BAD, BAD]),  # undecided short: dropped
        ([GOOD, NEAR, BAD], [GOOD, GOOD, BAD]),  # near-good next to good: kept
        ([BAD, NEAR, BAD], [BAD, BAD, BAD]),  # near-good between bad: dropped
        ([BAD, NEAR, SHORT, GOOD], [BAD, GOOD, GOOD, GOOD]),  # short after a near-good run joins the text
        ([BAD, SHORT, GOOD], [BAD, BAD, GOOD]),  # ... but not right after boilerplate
    ],
)
def test_context_smoothing(classes: list[str], expected: list[str]) -> None:
    blocks = _plain(*("x" * (100 if c in (GOOD, NEAR) else 10) for c in classes))
    assert smooth(blocks, classes) == expected


def test_edges_of_the_region_count_as_content() -> None:
    # A short first line (a dateline) before the article text is decided by the text, not the page edge.
    assert h.EDGE_CLASS == GOOD
    assert smooth(_plain("Staff Reports", PROSE), [SHORT, GOOD]) == [GOOD, GOOD]


def test_headings_before_good_text_are_kept() -> None:
    blocks = _blocks(("x" * 300, "paragraph", 0), ("Background", "heading", 0), (PROSE, "paragraph", 0))
    assert smooth(blocks, [BAD, SHORT, GOOD]) == [BAD, GOOD, GOOD]


@pytest.mark.parametrize(
    ("line", "button", "kept"),
    [
        (("Two cloves of garlic", "paragraph", 0), ("Pin It", "paragraph", 2), True),
        (("Subscribers", "paragraph", 0), ("Pin It", "paragraph", 2), False),  # a one-word label
        (("Two cloves of garlic", "paragraph", 1), ("Pin It", "paragraph", 2), False),  # link text
        (("Two cloves of garlic", "paragraph", 0), ("Share on Facebook", "paragraph", 3), False),  # longer
    ],
)
def test_short_lines_between_good_text_stand_past_share_buttons(
    monkeypatch: pytest.MonkeyPatch, line: tuple[str, str, int], button: tuple[str, str, int], kept: bool
) -> None:
    # jusText keeps a short block between good ones; a share button's short link line does not part them
    blocks = _blocks((PROSE, "paragraph", 0), line, button, (PROSE2, "paragraph", 0))
    assert smooth(blocks, [GOOD, SHORT, BAD, GOOD]) == [GOOD, GOOD if kept else BAD, BAD, GOOD]
    monkeypatch.setattr(h, "PASSED_LINK_MAX_CHARS", 0)
    assert smooth(blocks, [GOOD, SHORT, BAD, GOOD]) == [GOOD, BAD, BAD, GOOD]


def test_comment_tail_starts_at_the_comments_heading_after_good_text() -> None:
    blocks = _blocks((PROSE, "paragraph", 0), ("3 Comments", "heading", 0), (PROSE2, "paragraph", 0))
    assert comment_tail(blocks, [GOOD, NEAR, GOOD]) == 1
    assert comment_tail(blocks, [BAD, NEAR, GOOD]) == 3  # no good text before it: not a tail


def test_a_linked_comments_line_ends_the_article_only_when_little_follows() -> None:
    # a side rail's "Comments" link after the first paragraph: the article goes on after it
    linked = ("Comments", "paragraph", 1)
    blocks = _blocks((PROSE, "paragraph", 0), linked, (PROSE2, "paragraph", 0), (PROSE3, "paragraph", 0))
    assert comment_tail(blocks, [GOOD, BAD, GOOD, GOOD]) == 4  # rule: COMMENT_LINK_AFTER_SHARE
    unlinked = _blocks((PROSE, "paragraph", 0), ("Comments", "paragraph", 0), (PROSE2, "paragraph", 0))
    assert comment_tail(unlinked, [GOOD, BAD, GOOD]) == 1
    # a share bar's link after the story, before its teasers: the tail starts there
    blocks = _blocks((PROSE, "paragraph", 0), (PROSE3, "paragraph", 0), linked, (PROSE2, "paragraph", 0))
    assert comment_tail(blocks, [GOOD, GOOD, BAD, GOOD]) == 2
    # the same in C (worker/clean/_native.c) as in Python
    for decide in (decide_python, classify_mod._decide):
        cols, four = [PROSE, "Comments", PROSE2, PROSE3], [0, 1, 2, 3]
        got = decide(
            cols, ["paragraph"] * 4, [len(t) for t in cols], [len(t.split()) for t in cols], [0, 1, 0, 0],
            [0.0, 1.0, 0.0, 0.0], [12, 0, 12, 12], four, four, None, None, EN,
        )  # fmt: skip
        assert got == ([0, 2, 3], 4)


def test_flat_comment_section_is_cut_and_handed_on_as_the_tail() -> None:
    html = (
        f"<div class='post'><p>{PROSE}</p><p>{PROSE2}</p><h3>3 Comments</h3>"
        f"<p>{PROSE3}</p><p>Posted by: reader at 10:51 am</p></div>{NAV}"
    )
    kept, tail = _classified(html)
    assert kept == [PROSE, PROSE2]
    assert tail == ["3 Comments", PROSE3, "Posted by: reader at 10:51 am"]


def test_table_of_short_cells_survives_when_smoothing_has_no_anchor() -> None:
    rows = "".join(f"<tr><td>{i}</td><td>Driver {i}</td><td>{5000 - i}</td></tr>" for i in range(1, 9))
    kept = _kept(
        f"{NAV}<div class='article-body'><p>Final standings after the last race:</p>"
        f"<table>{rows}</table></div>"
    )
    assert kept[0] == "Final standings after the last race:"
    assert "Driver 8" in kept
    assert len(kept) == 1 + 8 * 3


def test_marks_above_the_target_describe_the_container_and_are_ignored() -> None:
    content = f"<div class='content'><p>{PROSE}</p><p>{PROSE2}</p></div>"
    html = f"<div class='main-sidebar-layout'>{content}</div>{NAV}"
    assert _kept(html) == [PROSE, PROSE2]


def test_marks_holding_most_of_the_containers_prose_are_ignored() -> None:
    # A blog that marks its post's box "widget": the box holds most of the container's prose (but not
    # so much of the page's that the mark is dropped for the whole page).
    half = "The opening ceremony was attended by the mayor and by hundreds of people from the town."
    note = (
        "A note beside the article about the weather on the day of the opening, which was cold and wet, "
        "and about the crowds that came to watch from the river."
    )
    html = (
        f"{NAV}<div id='wrap'><p>{PROSE}</p><div class='widget'><p>{PROSE2}</p><p>{PROSE3}</p>"
        f"<p>{half}</p></div></div><div id='note'><p>{note}</p></div>"
    )
    assert _kept(html) == [PROSE, PROSE2, PROSE3, half]


def test_marks_holding_a_minority_of_the_containers_prose_still_drop_it() -> None:
    widget = "A box of text about something else that the page marks as a widget beside the article."
    html = (
        f"{NAV}<article id='post'><p>{PROSE}</p><p>{PROSE2}</p><div class='widget'><p>{widget}</p></div>"
        "</article>"
    )
    assert _kept(html) == [PROSE, PROSE2]


# A job listing: each ad's description is a long sentence with few function words (near-good) between
# link titles (bad); smoothing alone drops it.
AD = (
    "Job type: Full time | Pay: $8.00 - $10.00/hour Office assistant, Lancaster PA office, "
    "typing 40 wpm, phones, filing, scheduling."
)
AD_TITLE = "<p><a href='/j1'>Office Assistant Lancaster</a></p>"
# A sentence citing its sources: link density over MAX_LINK_DENSITY.
CITE = "The full <a href='/f'>filing is on the SEC website</a> and in <a href='/s'>the company statement</a>."
CITED = "The full filing is on the SEC website and in the company statement."
# A recipe's last ingredient line before the post's share button at the region's end.
INGREDIENT = "Two cloves of garlic"
PIN = "<a href='/pin'>Pin It</a>"
# The article's closing line, a short sentence, before a link list.
CLOSING = "It will cost more than planned."
LINKS = "<ul>" + "".join(f"<li><a href='/r{i}'>Related story number {i}</a></li>" for i in range(4)) + "</ul>"


@pytest.mark.parametrize(
    ("html", "text", "variants", "rule"),
    [
        (  # SENTENCE_BOX_MIN_CHARS: not with link text, nor when it ends no sentence
            f"{NAV}<div class='listing'><p>{PROSE}</p><p>{PROSE2}</p>{AD_TITLE}<p>{AD}</p>{AD_TITLE}</div>",
            AD,
            [("Lancaster PA office", "<a href='/o'>Lancaster PA office</a>"), ("scheduling.", "scheduling")],
            ("SENTENCE_BOX_MIN_CHARS", 10_000),
        ),
        (  # LINKED_SENTENCE_MAX_LINK_DENSITY: not in a list item, nor when it ends no sentence
            f"{NAV}<article><p>{PROSE}</p><p>{PROSE2}</p><p>{CITE}</p></article>",
            CITED,
            [(f"<p>{CITE}</p>", f"<ul><li>{CITE}</li></ul>"), ("</a>.</p>", "</a></p>")],
            ("LINKED_SENTENCE_MAX_LINK_DENSITY", h.MAX_LINK_DENSITY),
        ),
        (  # CLOSING_SENTENCE_MIN_CHARS: not with link text, nor when it ends no sentence, nor a list item
            f"{NAV}<article><p>{PROSE}</p><p>{PROSE2}</p><p>{CLOSING}</p>{LINKS}</article>",
            CLOSING,
            [
                ("more than planned", "more than <a href='/p'>planned</a>"),
                ("planned.", "planned"),
                (f"<p>{CLOSING}</p>", f"<ul><li>{CLOSING}</li></ul>"),
            ],
            ("CLOSING_SENTENCE_MIN_CHARS", 10_000),
        ),
        (  # PASSED_LINK_MAX_CHARS: not with link text, nor one word alone, nor past a longer link line
            f"{NAV}<article><p>{PROSE}</p><p>{PROSE2}</p><p>{INGREDIENT}</p><p>{PIN}</p></article>",
            INGREDIENT,
            [
                ("cloves of garlic", "cloves of <a href='/g'>garlic</a>"),
                (INGREDIENT, "Garlic"),
                (">Pin It<", ">Share this post on Facebook<"),
            ],
            ("PASSED_LINK_MAX_CHARS", 0),
        ),
    ],
)
def test_prose_that_smoothing_or_link_density_would_drop_stands(
    monkeypatch: pytest.MonkeyPatch,
    html: str,
    text: str,
    variants: list[tuple[str, str]],
    rule: tuple[str, float],
) -> None:
    assert _kept(html) == [PROSE, PROSE2, text]
    for old, new in variants:
        assert _kept(html.replace(old, new)) == [PROSE, PROSE2]
    # without the rule, it is dropped (the Python reference: the C code is told the rules at import)
    monkeypatch.setattr(h, *rule)
    monkeypatch.setattr(classify_mod, "_decide", decide_python)
    assert _kept(html) == [PROSE, PROSE2]


def test_every_copyright_match_holds_an_anchor() -> None:
    # each alternative of the pattern holds an anchor ...
    for alternative in h.COPYRIGHT.pattern.split("|"):
        assert any(a in alternative.lower() for a in h.COPYRIGHT_ANCHORS), alternative
    # ... and every character the pattern matches with an anchor's character (IGNORECASE) lower-cases to it
    chars = "".join(sorted(set("".join(h.COPYRIGHT_ANCHORS))))
    either = re.compile(f"[{re.escape(chars)}]", h.COPYRIGHT.flags)
    matched = [chr(c) for c in range(sys.maxunicode + 1) if either.fullmatch(chr(c))]
    assert matched
    assert all(c.lower() in chars for c in matched)
    for ch in chars:
        alike = [c for c in matched if re.fullmatch(re.escape(ch), c, h.COPYRIGHT.flags)]
        assert {c.lower() for c in alike} == {ch}


COPYRIGHT_PIECES = st.one_of(
    st.sampled_from(["©", "&copy", "&COPY", "(c)", "(C) 2024", "(c)1999", "All Rights Reserved", "rıghts"]),
    st.sampled_from(["all", "rights", "reſerved", "RİGHTS", "ght", "&", "(", " ", "ſ", "İ", "K"]),
    st.text(max_size=5),
)


@settings(max_examples=400)
@given(st.lists(COPYRIGHT_PIECES, max_size=10).map(" ".join))
def test_the_copyright_test_is_the_patterns_search(text: str) -> None:
    assert _copyright(text) == (h.COPYRIGHT.search(text) is not None)


# The block classification in C (classify.decide_python): blocks drawn from texts that reach every rule
# (boilerplate lines, copyright lines ASCII and not, comment headings, prose with and without stopwords,
# sentence ends, link text), with marks, comment sections and languages.
BLOCK_TEXTS = st.one_of(
    st.sampled_from(
        [PROSE, PROSE2, PROSE3, CITED, "Share this", "Advertisement", "12 Comments", "Leave a Reply",
         "© 2024 Example Ltd", "(c) 2019 Straße GmbH", "ALL RIGHTS RESERVED", "The night was right.",
         "ALL RIGHTS RESERVED — Straße",
         "Staff Reports", "Tags: news", "Read more »", "A spec line: 12 V, 3 A, 50 Hz, IP65, 2 kg, steel",
         "İstanbul ght", "これは日本語の文です。", "x" * 120, "word " * 30, PROSE[:99] + ".", "Pin It",
         "Tweet", "Two cloves of garlic", "Subscribers"]
    ),
    COPYRIGHT_PIECES,
)  # fmt: skip
BLOCKS = st.tuples(
    BLOCK_TEXTS,
    st.sampled_from(["paragraph", "heading", "list_item", "table_cell"]),
    st.integers(0, 12),  # link words
    st.integers(0, 20),  # stopwords
    st.integers(0, 5),  # owner
)
FLAGS = st.one_of(st.none(), st.lists(st.booleans(), min_size=6, max_size=6))
# no language, every language's good stopword share (the scaled ones among them), and shares between
GOOD_SHARES = st.one_of(
    st.none(),
    st.sampled_from(sorted(set(h.STOPWORD_GOOD_SHARE.values()))),
    st.floats(0.0, 0.5),
)


@pytest.mark.skipif(native.status().get("decide") != "native", reason="the C classification is not active")
@settings(max_examples=400)
@given(st.lists(BLOCKS, max_size=30), FLAGS, FLAGS, GOOD_SHARES, st.integers(0, 3))
def test_the_c_classification_equals_pythons(
    blocks: list[tuple[str, str, int, int, int]],
    marked: list[bool] | None,
    comment: list[bool] | None,
    good_share: float | None,
    first: int,
) -> None:
    texts = [t for t, *_ in blocks]
    words = [max(1, len(t.split())) for t in texts]
    lw = [min(b[2], w) for b, w in zip(blocks, words, strict=True)]
    stops = [min(b[3], w) for b, w in zip(blocks, words, strict=True)]
    ld = [a / w for a, w in zip(lw, words, strict=True)]
    columns = (texts, [b[1] for b in blocks], [len(t) for t in texts], words, lw, ld, stops)
    idx = list(range(first, first + len(blocks)))
    owners = [0] * first + [b[4] for b in blocks]
    args = (*columns, idx, owners, marked, comment, good_share)
    assert classify_mod._decide(*args) == decide_python(*args)


def test_a_block_without_words_is_left_to_python() -> None:
    # the stopword density divides by the words: Python's ZeroDivisionError stands
    args = ([PROSE], ["paragraph"], [len(PROSE)], [0], [0], [0.0], [0], [0], [0], None, None, EN)
    with pytest.raises(ZeroDivisionError):
        classify_mod._decide(*args)


def test_only_an_anchors_own_characters_and_their_ascii_capitals_lower_case_to_one() -> None:
    # The C copyright test reads the text with ASCII capitals lower-cased and every other character as it
    # is (_native.c: holds_anchor): exact when no other character's lower() holds an anchor's character.
    anchor_chars = set("".join(h.COPYRIGHT_ANCHORS))
    assert all(a.lower() == a for a in h.COPYRIGHT_ANCHORS)
    for code in range(sys.maxunicode + 1):
        low = chr(code).lower()
        if anchor_chars & set(low):
            assert low in anchor_chars, hex(code)
            assert low == chr(code) or code < 128, hex(code)


def test_a_forum_quote_of_a_kept_post_is_not_a_second_copy() -> None:
    # rule: FORUM_QUOTE, a quote box whose words the other kept blocks already hold
    texts = [PROSE, PROSE2, f"Originally posted by Loudergood: {PROSE}", PROSE3]
    assert classify_mod.without_repeated_quotes(texts, [0, 1, 2, 3]) == [0, 1, 3]
    texts[2] = f"Quote: Originally Posted by Jim Pappas/Jabba: {PROSE}"
    assert classify_mod.without_repeated_quotes(texts, [0, 1, 2, 3]) == [0, 1, 3]
    # ... not a quote of a post the text does not hold (its post is on an earlier page of the thread)
    assert classify_mod.without_repeated_quotes(texts, [1, 2, 3]) == [1, 2, 3]
    # ... on every page: the post's lines step (template.post_lines) takes it out
    from worker.clean.template import post_lines

    seg = seg_of(
        f"<p>{PROSE}</p><p>{PROSE2}</p><div>Originally posted by Loudergood: {PROSE}</div><p>{PROSE3}</p>"
    )
    assert post_lines(seg, [0, 1, 2, 3]) == [0, 1, 3]
    # ... nor a post that merely mentions such a line
    texts = [PROSE, f"He wrote it, as originally posted by Jim: {PROSE}"]
    assert classify_mod.without_repeated_quotes(texts, [0, 1]) == [0, 1]


def _word_grams(text: str) -> set[tuple[str, ...]]:
    """The word 4-grams of `text`, lower-cased, as without_repeated_quotes read them before its one pass."""
    words = classify_mod._WORD.findall(text.lower())
    return {tuple(words[i : i + 4]) for i in range(len(words) - 3)}


def test_quote_words_and_grams_are_findalls() -> None:
    # without_repeated_quotes reads words by a byte translation (ASCII texts) and zips the 4-grams: the same
    # as _WORD.findall(text.lower()) and the slices of _word_grams (the definition, above)
    every_ascii = "".join(map(chr, range(128)))
    odd = "Ab_c d-e f’g ÄÖ x\u00a0y 1a 2_ b"
    texts = [every_ascii, every_ascii.upper(), odd, "İstanbul ſ K", "", "a b c"]
    for text in texts:
        assert classify_mod._words(text) == classify_mod._WORD.findall(text.lower())
        assert classify_mod._grams(classify_mod._words(text)) == _word_grams(text)


@given(st.lists(st.text(alphabet=st.sampled_from("ab ’-_.Ü\u00a0Σ"), max_size=40), max_size=6))
@settings(max_examples=200, deadline=None)
def test_repeated_quotes_as_counted_per_gram(bodies: list[str]) -> None:
    # the drop rule as written before the one-pass sets: a quote goes when at least FORUM_QUOTE_REPEATED of
    # its 4-grams stand in another kept block
    texts = [("Originally posted by x: " if k % 2 else "") + b for k, b in enumerate(bodies)]
    kept = list(range(len(texts)))
    grams = {i: _word_grams(texts[i]) for i in kept}
    drop = {
        q
        for q in kept
        if h.FORUM_QUOTE.match(texts[q])
        and grams[q]
        and sum(any(g in grams[j] for j in kept if j != q) for g in grams[q])
        >= h.FORUM_QUOTE_REPEATED * len(grams[q])
    }
    assert classify_mod.without_repeated_quotes(texts, kept) == [i for i in kept if i not in drop]


def test_trailing_sign_off_lines_are_not_the_article() -> None:
    texts = [
        "Follow Scott Shane on Twitter at @ScottShaneNYT.",
        PROSE,
        "Write to Jane Roe at jane.roe@example.com",
        "A version of this article appeared in print on 11/06/2012, on page D5.",
        "This entry was posted on Monday, November 5th, 2012 and is filed under News.",
    ]
    kinds = ["paragraph"] * len(texts)
    assert classify_mod.without_sign_off(texts, kinds, [0, 1, 2, 3, 4]) == [0, 1]  # SIGN_OFF, trailing only
    assert classify_mod.without_sign_off(texts, kinds, [2, 3]) == [2]  # the first kept block stays
    assert classify_mod.without_sign_off(texts, kinds, [1]) == [1]


def test_trailing_calls_to_subscribe_and_wire_lines_are_not_the_article() -> None:
    # rule: SIGN_OFF_CALL, matched on trailing lines only
    calls = [
        "To receive these entries once a month by e-mail, sign up for the Crypto-Gram Newsletter.",
        "Don't miss a post! Subscribe to our newsletter and get weekly updates delivered to your inbox.",
        "Sign up for free email updates and be entered to win our monthly giveaway!",
        "Sign-up to the Daily Blog Tips newsletter and you will be able to download the eBook for free.",
        "Subscribe to the PrintRunner Blog feed using your RSS readers here.",
        "If you enjoyed this article, enter your email below to get free updates!",
        "Get the latest Industry news sent straight to your Wall.",
        "Copyright 2011 Thomson Reuters. Click for restrictions.",
        "This article is written by Sara Carter who likes social networks.",
        "© Kamps Consulting Ltd. This article is licenced for use on Pixiq only.",  # a "©" line too
    ]
    # ... not where the article goes on after them, and not lines that only mention such things
    refund = "To receive a refund, customers must return the product within 30 days."
    _assert_dropped_when_trailing(calls, refund)
    # a trailing "©" line no longer hides the notice before it
    notice = "Back to school - If you like my articles, there's a pretty good chance you'll like my school."
    texts = [PROSE, notice, calls[-1]]
    assert classify_mod.without_sign_off(texts, ["paragraph"] * 3, [0, 1, 2]) == [0]


def _assert_dropped_when_trailing(lines: list[str], last: str) -> None:
    """without_sign_off drops each of `lines` after a paragraph, but none before more of the article or
    before `last` (a line the rule must keep)."""
    for line in lines:
        assert classify_mod.without_sign_off([PROSE, line], ["paragraph"] * 2, [0, 1]) == [0], line
    texts = [PROSE, lines[0], PROSE2, last]
    assert classify_mod.without_sign_off(texts, ["paragraph"] * 4, [0, 1, 2, 3]) == [0, 1, 2, 3]


def test_photo_credits_are_not_the_article() -> None:
    # rule: PHOTO_CREDIT, anywhere in the kept text
    credits = [
        "Jim Wilson/The New York Times",
        "KIMIHIRO HOSHINO/AFP/GettyImages",
        "Orlando Barria / EPA",
        "(Jasper Juinen/Getty Images)",
        "Mark Turner/London Array Photos",
    ]
    # ... not slashes in prose, nor a name and a non-agency, nor a long line
    others = [
        "AC/DC played in Sydney.",
        "Pros/cons of the new plan",
        "Jim Wilson/Tom Jones",
        f"{PROSE} Photo: Jim Wilson/The New York Times",
    ]
    _assert_drops_lines(classify_mod.without_page_lines, credits, others)


def _assert_drops_lines(
    drop: Callable[[list[str], list[int], list[int]], list[int]], lines: list[str], others: list[str]
) -> None:
    """`drop` (texts, chars, kept -> kept) takes every one of `lines` out of the kept text between two
    paragraphs, and none of `others`."""
    texts = [PROSE, *lines, PROSE2]
    assert drop(texts, [len(t) for t in texts], list(range(len(texts)))) == [0, len(texts) - 1]
    kept = list(range(len(others)))
    assert drop(others, [len(t) for t in others], kept) == kept


def test_trailing_notices_and_invitations_are_not_the_article() -> None:
    # rule: SIGN_OFF_NOTICE, matched on trailing lines only
    notices = [
        "This page is best viewed in an up-to-date web browser with style sheets (CSS) enabled.",
        'All information available through Ask Yahoo! is informational only and provided "as is".',
        "NOTE: In accordance with Title 17 U.S.C. section 107, this material is distributed without profit.",
        "Join over 104,000 monthly readers! Subscribe to the free email newsletter.",
        "Want more weird health news? Find The Body Odd on Facebook.",
        "Can't get enough of Spencer? Check out his work at StanGraphs.",
        "Can’t get enough of Spencer? Check out his work at StanGraphs.",  # a typographic apostrophe too
        "Did you enjoy this article?",
        "Back to school - If you like my articles, you'll like my Photography School as well.",
        "This article last reviewed April 2005.",
        "Last updated: 12 March 2006",
    ]
    # ... not where the article goes on after them, and not an author's disclosure
    _assert_dropped_when_trailing(notices, "Disclaimer: the author holds shares of Apple.")


def test_page_furniture_is_not_the_article() -> None:
    # rule: FURNITURE_LINE and FURNITURE_ENDINGS, anywhere in the kept text
    furniture = [
        "Be Sociable, Share!",
        "Sharing Is Caring!",
        "(Click To Enlarge)",
        "Click here for a larger image",
        "Previous 1 / 18 Next",
        "Visit the FDA on Facebook, Flickr, YouTube and Twitter",
        "Twitter (17,951 followers) • Facebook (3,507 likes) • Flickr (4,218 contacts)",
        "RSS Feed for FDA News Releases",
        "James Holmes in Court: Colorado Shooting Suspect's Strange Demeanor Watch Video",
        "Will iPad lovers give Windows 8 tablets a chance? That’s the question we asked for t… Read More...",
        "Mouseover photo to load notes or add comment",
        "Loading Slideshow",
        "“Start Quote",
        "End Quote Alex Salmond First Minister",
        "This message has been edited. Last edited by: Jamilla,",
        "Standard Podcast [ 51:03 ] Play Now | Play in Popup | Download",
        "Brought to you by MTBR Reviews",
        "Follow @NBCNewsUS",
    ]
    # ... not prose that mentions such things, nor a long line
    others = [
        "Click here to read the full report.",
        "Visit the museum on Sunday.",
        "We share everything.",
        "Previous winners include 3 of 5 finalists.",
        "The podcast lets you play in the car.",
        "Loading the truck took an hour.",
        f"{PROSE} Visit us on Facebook",
        "Follow @NBCNewsUS for updates on the storm.",
    ]
    _assert_drops_lines(classify_mod.without_page_lines, furniture, others)


# FURNITURE_OR_WIDGET_LINE with FURNITURE_LINE's and WIDGET_LINE's forms as one flat alternation: what its
# branches by first character (heuristics._by_first_character) must match alike.
_FLAT_LINES = re.compile(
    rf"\W*(?:{h.WIDGET_PAGER}|{'|'.join(h.FURNITURE_LINE + h.WIDGET_LINE)})\W*", re.IGNORECASE
)


@settings(max_examples=500)
@given(
    st.sampled_from((*h.FURNITURE_LINE, *h.WIDGET_LINE, h.WIDGET_PAGER)).flatmap(
        lambda form: st.from_regex(re.compile(form, re.IGNORECASE), fullmatch=True)
    ),
    st.sampled_from(["", " ", "(", "» ", "x"]),
    st.sampled_from(["", "!", " x", ")", "\u2026"]),
    st.sampled_from([str, str.upper, str.title, lambda t: t[:-1]]),
)
def test_furniture_or_widget_line_matches_what_its_flat_forms_match(
    line: str, before: str, after: str, case: Callable[[str], str]
) -> None:
    text = before + case(line) + after
    assert (h.FURNITURE_OR_WIDGET_LINE.fullmatch(text) is None) == (_FLAT_LINES.fullmatch(text) is None)


# TAIL_HEADING as it was written before its forms were matched as branches by first character
# (heuristics._by_first_character): one flat alternation, its optional leading words in the forms. What
# either matches the other must.
_FLAT_TAIL_HEADING = re.compile(
    r"\W*(?:more (?:from|in) .{1,40}|more (?:news|stories|posts|articles|videos|galleries|photos|pictures)"
    r"\b.{0,30}"
    r"|related(?: posts?| articles?| stories| links| content| reading| coverage| videos)?"
    r"|you (?:may|might) also (?:like|enjoy)\b.{0,20}|(?:recommended|popular|recent"
    r"|most (?:recent|read|popular|viewed|shared)|trending|latest|previously posted|other)\b.{0,30}"
    r"\b(?:posts?|stories|articles|news|items|reads|videos)\b.{0,40}|further reading"
    r"|.{0,40}\b(?:newsletter|never miss|sign[- ]?up (?:for|to)|subscribe (?:to|for|now))\b.{0,40}"
    r"|mehr (?:zum thema|aus|von|zu|aus der rubrik)\b.{0,40}"
    r"|weitere (?:artikel|beiträge|nachrichten|meldungen"
    r"|themen|news)\b.{0,40}|(?:ähnliche|verwandte|empfohlene) (?:artikel|beiträge|themen)"
    r"|das könnte (?:sie|dich) (?:auch )?interessieren|auch interessant|lesen sie auch|meistgelesen\w*"
    r"|(?:à )?lire aussi|sur le même sujet|articles (?:similaires|liés|recommandés)|dans la même rubrique"
    r"|vous (?:aimerez|aimeriez) aussi|à voir aussi|les plus lus|(?:noticias|artículos) relacionad[oa]s"
    r"|(?:también )?te puede interesar|lo más leído|más noticias|lee también|czytaj (?:także|też)"
    r"|zobacz (?:też|także|również)|(?:podobne|powiązane|polecane) artykuły|najczęściej czytane|lees ook"
    r"|gerelateerde artikelen|meer nieuws|meest gelezen|leggi anche|articoli correlati"
    r"|(?:ti )?potrebbe (?:anche )?interessarti|(?:i )?più letti|leia também|(?:artigos|notícias)"
    r" relacionad[oa]s|veja também|(?:você|voce) (?:também )?pode (?:também )?gostar\b.{0,20}|mais lidas"
    r"|läs (?:också|även)|relaterade artiklar|mest lästa"
    r"|читайте также|похожие (?:статьи|материалы)|по теме)\W*",
    re.IGNORECASE,
)


@settings(max_examples=1000)
@given(
    st.sampled_from((*h.TAIL_HEADINGS, h.TAIL_NEWSLETTER, _FLAT_TAIL_HEADING.pattern)).flatmap(
        lambda form: st.from_regex(re.compile(form, re.IGNORECASE), fullmatch=True)
    ),
    st.sampled_from(["", " ", "(", "» ", "x", "more ", "à ", "i "]),
    st.sampled_from(["", "!", " x", ":", "\u2026"]),
    st.sampled_from([str, str.upper, str.title, lambda t: t[:-1], lambda t: t[1:]]),
)
def test_tail_heading_matches_what_its_flat_alternation_matches(
    line: str, before: str, after: str, case: Callable[[str], str]
) -> None:
    text = before + case(line) + after
    assert (h.TAIL_HEADING.fullmatch(text) is None) == (_FLAT_TAIL_HEADING.fullmatch(text) is None)


def test_widget_lines_are_not_the_article() -> None:
    # rule: WIDGET_LINE, anywhere in the kept text
    widgets = [
        "Also on HuffPost:",
        "Related on HuffPost:",
        "Read our Blog: FDA Voice",
        "STORY HIGHLIGHTS",
        "Live Poll",
        "Most Popular",
        "Click to jump to:",
        "Show full PR text",
        "Newsroom powered by Online Press Release Distribution - SubmitMyPressRelease.com",
        "Display Page #:",
        "1 2 3 Next >",
        "Next Page »",
        "« Previous article",
        "« Regulation as a Prisoner's Dilemma | Main | Micromorts »",  # a blog's post navigator
        "« Previous | Main | Next »",
        "See more video »",  # a pointer to a video box
        "Complete coverage: Massacre in Aurora",  # a pointer to a topic page
    ]
    # ... not prose that mentions such things, nor a comment's reply to a handle, nor a long line
    others = [
        "More on that later: the board meets on Monday.",
        "The car is powered by a V8 engine, the maker says.",
        "Most popular among the voters was the second plan.",
        "Read our blog post from last year to see why.",
        "@Alex",
        "1 2 3",
        "The next page lists the costs.",
        "Newsroom",
        "Home | Main | Contact",
        "« The main | plot »",
        f"{PROSE} Also on HuffPost:",
        "See more video of the crash on our site, where the full report is.",
        "Complete coverage: the report's authors read every file. They found the missing pages.",
    ]
    _assert_drops_lines(classify_mod.without_page_lines, widgets, others)


def test_a_long_post_navigator_is_not_the_article() -> None:
    # rule: POST_NAVIGATOR, a navigator longer than FURNITURE_MAX_CHARS
    navigators = [
        "« Amusement Park Owner Hires Squire Sanders to Lobby on OSHA Regulations | Main | 'Significant'"
        " Layoffs Made at National Whistleblowers Center »",
    ]
    # ... not a long line that only mentions "Main", nor a navigator longer than POST_NAVIGATOR_MAX_CHARS
    others = [
        "« The main question | Main | the answer » was the title the two authors chose for the paper they"
        " wrote on the subject last year.",
        f"« {PROSE} | Main | {PROSE2} »",
        f"{PROSE} « Amusement Park Owner Hires Squire Sanders | Main | Layoffs Made at National Center »",
    ]
    _assert_drops_lines(classify_mod.without_page_lines, navigators, others)


def test_a_posts_meta_bar_is_not_the_article() -> None:
    # rule: POST_META_LINE, anywhere in the kept text
    bars = [
        "Friday December 15, 2006 | permalink | comments (1)",
        "06 November 2012 by Cory Gunther Discuss (0)",
        "Nov 6th '12 by Tom Breihan @ 11:18am Comment Tweet",
        "Posted on: 08-7-2012 With: 1 Comment Posted by: Bob Walsh",
        "No Comments »",
    ]
    # ... not a byline counting its comments (dragnet's gold keeps it), nor prose about comments
    others = [
        "by A Photo Editor on November 12, 2012 · 4 comments",
        "Posted on November 11, 2012 11:47AM by Camilla Salem · 1 comment",
        "The council took no comments from the public at the meeting.",
        f"{PROSE} Comments (3)",
    ]
    _assert_drops_lines(classify_mod.without_page_lines, bars, others)


def test_a_share_count_ending_the_text_is_not_the_article() -> None:
    # rule: SHARE_COUNT, a trailing paragraph only
    sign_off, paragraphs = classify_mod.without_sign_off, ["paragraph"] * 3
    for count in ("1587", "75", "1,204", "2.3k"):
        assert sign_off([PROSE, count], paragraphs, [0, 1]) == [0], count
        assert sign_off([PROSE, count, PROSE2], paragraphs, [0, 1, 2]) == [0, 1, 2], count
    # ... not a table's last cell, nor the first kept block, nor a number with words
    assert sign_off([PROSE, "75"], ["paragraph", "table_cell"], [0, 1]) == [0, 1]
    assert sign_off(["75"], paragraphs, [0]) == [0]
    assert sign_off([PROSE, "75 votes"], paragraphs, [0, 1]) == [0, 1]


def test_the_authors_box_at_the_end_is_not_the_article() -> None:
    # rule: AUTHOR_HEADING, among the last AUTHOR_HEADING_TAIL_BLOCKS kept blocks
    bio = "Annie Downs is a freelance writer in Nashville, Tennessee, who writes about faith and friendship."
    for heading in ("About the Author", "ABOUT ANNIE DOWNS", "Written by Marie LeBaron", "About Me:"):
        texts = [PROSE, PROSE2, heading, bio]
        kinds = ["paragraph", "paragraph", "heading", "paragraph"]
        assert classify_mod.without_sign_off(texts, kinds, [0, 1, 2, 3]) == [0, 1], heading
    # ... not a section heading of the article, nor such a line that is no heading, nor far before the end
    section, line = ("About the Real-Time Home Price Tracker", "heading"), ("About the Author", "paragraph")
    for heading, kind in (section, line):
        texts = [PROSE, heading, PROSE2]
        assert classify_mod.without_sign_off(texts, ["paragraph", kind, "paragraph"], [0, 1, 2]) == [0, 1, 2]
    texts = [PROSE, "About the Author", *[PROSE2] * h.AUTHOR_HEADING_TAIL_BLOCKS]
    kinds = ["paragraph", "heading", *["paragraph"] * h.AUTHOR_HEADING_TAIL_BLOCKS]
    assert classify_mod.without_sign_off(texts, kinds, list(range(len(texts)))) == list(range(len(texts)))
    # the first kept block always stays
    assert classify_mod.without_sign_off(["ABOUT US", bio], ["heading", "paragraph"], [0, 1]) == [0, 1]


def test_a_breadcrumb_trail_or_welcome_box_opening_the_text_is_not_the_article() -> None:
    # rule: BREADCRUMB, the first kept block only
    trails = [
        "Auto Sales > Car Loans > Financing and Credit > Honda 0 Percent Financing",
        "Home » News » World",
        "News › Politics › Election 2012",
        # rule: WELCOME_BOX, the first kept block only
        "If you're new here, you may want to subscribe to my RSS feed. Thanks for visiting!",
        "Welcome to Million Dollar Journey! If you’re new here, you can learn about me, read our user guide.",
    ]
    kinds = ["paragraph"] * 3
    for trail in trails:
        texts = [trail, PROSE, PROSE2]
        assert classify_mod.without_page_chrome(texts, kinds, [len(t) for t in texts], [0, 1, 2]) == [1, 2]
    # ... not a menu path inside a how-to, nor a first line with a sentence or only two parts
    for texts in (
        [PROSE, "Settings > Privacy > Location Services", PROSE2],
        ["Go to Settings > Privacy > Location. Turn it off.", PROSE, PROSE2],
        ["Home > News", PROSE, PROSE2],
        [PROSE, "If you're new here, start with the first chapter.", PROSE2],
        ["Welcome to the London Olympic marathon. The race is underway.", PROSE, PROSE2],
    ):
        assert classify_mod.without_page_chrome(texts, kinds, [len(t) for t in texts], [0, 1, 2]) == [0, 1, 2]


def test_a_browser_notice_opening_the_text_is_not_the_article() -> None:
    # rule: BROWSER_NOTICE, the first kept block only, even when it is the whole text
    notices = [
        "This page is best viewed in an up-to-date web browser with style sheets (CSS) enabled. While you"
        " will be able to view the content of this page in your current browser, you will not be able to get"
        " the full visual experience. Please consider upgrading your browser software or enabling style"
        " sheets (CSS) if you are able to do so.",
        "Please note: Your browser has been unable to load the stylesheet that accompanies this page. The"
        " page is still readable. [Accessibility statement]",
    ]
    assert len(notices[0]) > 300
    kinds = ["paragraph"] * 3
    for notice in notices:
        texts = [notice, PROSE, PROSE2]
        assert classify_mod.without_page_chrome(texts, kinds, [len(t) for t in texts], [0, 1, 2]) == [1, 2]
        assert classify_mod.without_page_chrome(texts, kinds, [len(t) for t in texts], [0]) == []
    # ... not an article about browsers, nor a notice past the text's first block
    for texts in (
        [
            "Your browser is the program you read this page with, and it was not able to load it.",
            PROSE,
            PROSE2,
        ],
        [PROSE, notices[1], PROSE2],
        [notices[1] + " " + PROSE * 3, PROSE, PROSE2],
    ):
        assert classify_mod.without_page_chrome(texts, kinds, [len(t) for t in texts], [0, 1, 2]) == [0, 1, 2]


def test_an_ad_unit_inside_the_text_is_not_the_article() -> None:
    # rule: AD_UNIT_LABEL, its label and the list items right after it
    ads = ["ERP Study For Hi Tech Companies Download ERP success stories.", "Discover iShares ETFs."]
    for label in ("BW MALL SPONSORED LINKS", "Ads by Google", "Sponsored Links:"):
        texts = [PROSE, label, *ads, PROSE2]
        kinds = ["paragraph", "paragraph", "list_item", "list_item", "paragraph"]
        chars = [len(t) for t in texts]
        assert classify_mod.without_page_chrome(texts, kinds, chars, [0, 1, 2, 3, 4]) == [0, 4], label
        # the list of the article after its next paragraph stays
        texts, kinds = [*texts, "First point of the article."], [*kinds, "list_item"]
        kept = list(range(6))
        assert classify_mod.without_page_chrome(texts, kinds, [*chars, 27], kept) == [0, 4, 5]
    # ... not prose that mentions sponsored links
    texts = [PROSE, "Sponsored links are marked as such on the results page.", PROSE2]
    kept = [0, 1, 2]
    assert classify_mod.without_page_chrome(texts, ["paragraph"] * 3, [len(t) for t in texts], kept) == kept


def test_a_box_of_related_posts_or_a_newsletter_ending_the_text_is_not_the_article() -> None:
    # rule: TAIL_HEADING, a heading among the last TAIL_HEADING_BLOCKS kept blocks and what follows
    teaser = "If You Touch a Baby Bird, Will Its Mother Really Abandon It?"
    headings = [
        "More from mental_floss…",
        "Other Car News:",
        "Related Posts",
        "You might also like:",
        "Sign-up To The Newsletter And Get A Free eBook",
        "never miss a recipe",
    ]
    kinds = ["paragraph", "paragraph", "heading", "list_item"]
    for heading in headings:
        texts = [PROSE, PROSE2, heading, teaser]
        assert classify_mod.without_sign_off(texts, kinds, [0, 1, 2, 3]) == [0, 1], heading
    # an old table layout's label cell
    texts = [PROSE, PROSE2, "Most recent posts on the Camelot Communities board:", teaser]
    kinds = ["table_cell"] * 4
    assert classify_mod.without_sign_off(texts, kinds, [0, 1, 2, 3]) == [0, 1]
    # ... not a section heading of the article, nor such a line that is no heading
    for line, kind in (
        ("Top 10 tips for the road", "heading"),
        ("Other albums of note out this week:", "paragraph"),
        ("Space is limited so sign up today!", "paragraph"),
    ):
        texts = [PROSE, PROSE2, line, teaser]
        kinds = ["paragraph", "paragraph", kind, "list_item"]
        assert classify_mod.without_sign_off(texts, kinds, [0, 1, 2, 3]) == [0, 1, 2, 3], line


def test_a_long_box_of_gallery_teasers_ending_the_text_is_not_the_article() -> None:
    # rule: TAIL_HEADING's "More galleries", among the last TAIL_HEADING_BLOCKS kept blocks (a box of teasers
    # is longer than an author's box)
    teasers = [f"24 hours of news photos: {n} July 2012" for n in range(20, 30)]
    texts = [PROSE, PROSE2, "More galleries", *teasers]
    kinds = ["paragraph", "paragraph", "heading", *["paragraph"] * len(teasers)]
    kept = list(range(len(texts)))
    assert classify_mod.without_sign_off(texts, kinds, kept) == [0, 1]
    for heading in ("More photos", "More pictures"):
        assert classify_mod.without_sign_off([PROSE, PROSE2, heading, *teasers], kinds, kept) == [0, 1]
    # an author's box is still looked for among the last AUTHOR_HEADING_TAIL_BLOCKS only
    texts = [PROSE, PROSE2, "About the author", *teasers]
    assert classify_mod.without_sign_off(texts, kinds, kept) == kept


def test_a_posts_dated_footer_is_not_the_article() -> None:
    # rule: SIGN_OFF_POSTED, matched on trailing lines only
    footers = [
        "Posted by James Hamilton at October 28, 2012 01:23 PM",
        "Posted October 26, 2012 @ 2:49 PM by Robert Brady",
        "Originally posted 2011-04-26 19:03:38.",
        "Written by: tmatt on August 9, 2012.",
    ]
    # ... not where the article goes on after them, nor an undated byline, nor a long line
    _assert_dropped_when_trailing(footers, "Posted by Ka-Ping Yee, Software Engineer, Google Crisis Response")
    long_line = f"Published in 2012, the study {'followed the patients for years and ' * 5}found no effect."
    assert classify_mod.without_sign_off([PROSE, long_line], ["paragraph"] * 2, [0, 1]) == [0, 1]


def _joined(step: Callable[[KeptText], list[int]], html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps on the page `html`, and those kept once `step` (a joining step) has run."""
    seg = seg_of(html)
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    c = classify_region(seg, scores, region)
    joined = sorted(c.kept + step(KeptText(seg, scores, region, c.kept, set(c.kept), frozenset(c.tail))))
    return [seg.texts[i] for i in c.kept], [seg.texts[i] for i in joined]


def _with_linked_items(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the post's own linked items join them."""
    return _joined(with_linked_items, html)


def _item(words: str, linked: str) -> str:
    return f"<li><a href='/{len(words)}'>{linked}</a> {words}</li>"


def test_linked_items_between_the_kept_text_join_it() -> None:
    series = _item("by John Hunter today", "Series of posts on profound knowledge")  # 6 of 10 words linked
    roundup = _item("and more", "The week in music publishing: auctions")  # 6 of 8: 0.75, over the bound
    short = _item("here", "Read")  # under LINKED_ITEM_MIN_CHARS
    related = _item("and what it will cost", "Related: a story on the bridge")  # a cross-link
    html = (
        f"{NAV}<div class='post'><p>{PROSE}</p><ul>{series}{roundup}{short}{related}</ul>"
        f"<p>{PROSE2}</p><ul>{_item('by Jane Doe', 'Another post about the new bridge')}</ul></div>"
    )
    kept, joined = _with_linked_items(html)
    series_text = "Series of posts on profound knowledge by John Hunter today"
    assert series_text not in kept  # dropped for its links
    assert joined == [PROSE, series_text, PROSE2]  # not after the last kept block: a related list's place


def test_linked_items_join_no_marked_box_nor_a_paragraph() -> None:
    series = _item("by John Hunter today", "Series of posts on profound knowledge")
    linked_paragraph = "<p><a href='/p'>Series of posts on profound knowledge</a> by John Hunter today</p>"
    html = (
        f"{NAV}<div class='post'><p>{PROSE}</p><div class='related-posts'><ul>{series}</ul></div>"
        f"{linked_paragraph}<p>{PROSE2}</p><p>{PROSE3}</p></div>"
    )
    kept, joined = _with_linked_items(html)
    assert joined == kept == [PROSE, PROSE2, PROSE3]


def test_the_heuristics_pipeline_keeps_the_posts_own_linked_items() -> None:
    series = _item("by John Hunter today", "Series of posts on profound knowledge")
    html = f"{NAV}<div class='post'><p>{PROSE}</p><ul>{series}</ul><p>{PROSE2}</p></div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert "Series of posts on profound knowledge by John Hunter today" in text


def _with_linked_headings(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the linked titles of kept text join them."""
    return _joined(with_linked_headings, html)


def test_a_linked_heading_right_before_kept_text_is_its_title() -> None:
    posts = "".join(
        f"<div class='entry'><h2><a href='/{i}'>Post number {i} of the week</a></h2><p>{text}</p></div>"
        for i, text in enumerate((PROSE, PROSE2))
    )
    promo = "<div class='promo-heading'><h3><a href='/x'>Another story you might like</a></h3></div>"
    html = f"{NAV}<div id='posts'>{posts}{promo}<p>{PROSE3}</p><h3><a href='/all'>Older posts</a></h3></div>"
    kept, joined = _with_linked_headings(html)
    assert kept == [PROSE, PROSE2, PROSE3]  # the titles dropped for their links
    # rule: LINKED_HEADING_MAX_CHARS; not a promo's title (in a box named as boilerplate) though kept text
    # follows it, nor a heading before no kept text
    assert joined == ["Post number 0 of the week", PROSE, "Post number 1 of the week", PROSE2, PROSE3]


def test_the_heuristics_pipeline_keeps_a_posts_linked_title_single_page() -> None:
    posts = "".join(
        f"<div class='entry'><h2><a href='/{i}'>Post number {i} of the week</a></h2><p>{text}</p></div>"
        for i, text in enumerate((PROSE, PROSE2))
    )
    text = clean_page(
        Page(id="p", html=f"{NAV}<div id='posts'>{posts}</div>"), None, CleanOptions(block_model=False)
    ).text
    assert "Post number 1 of the week" in text


def test_where_the_memory_stripped_the_page_only_the_listed_posts_titles_join() -> None:
    def post(i: int, text: str, extra: str = "") -> str:
        title = f"<h2><a href='/{i}'>Post number {i} of the week</a></h2>"
        return f"<div class='entry'>{title}<p>{text}</p>{extra}</div>"

    related = "<ul><li><h6><a href='/r'>Another story about the bridge (May 2, 2012)</a></h6></li></ul>"
    blurb = "Twenty-four hours of news photos and more."
    teaser = f"<div class='more'><h3><a href='/g'>Day in pictures</a></h3><p>{blurb}</p></div>"
    second = post(1, PROSE2, f"{related}<p>{PROSE3}</p>{teaser}")
    html = f"{NAV}<div id='posts'>{post(0, PROSE)}{second}</div>"
    seg = seg_of(html)
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    c = classify_region(seg, scores, region)
    assert [seg.texts[i] for i in c.kept] == [PROSE, PROSE2, PROSE3]  # the titles dropped for their links
    joined = [seg.texts[i] for i in join_dropped(seg, scores, region, c, single_page=False)]
    # rule: LISTED_TITLE_MIN_NEXT_CHARS; not the title opening the text (the headline), nor a related list's
    # linked item before the text's next paragraph (its box holds no more than it)
    assert joined == [PROSE, "Post number 1 of the week", PROSE2, PROSE3]
    # a teaser's linked title over its short blurb (kept here) stays out; single-page's step takes it
    kept = sorted([*c.kept, seg.texts.index(blurb)])
    step = KeptText(seg, scores, region, kept, set(kept), frozenset(c.tail))
    assert "Day in pictures" in [seg.texts[i] for i in with_linked_headings(step)]
    assert len(blurb) < h.LISTED_TITLE_MIN_NEXT_CHARS
    assert [seg.texts[i] for i in with_listed_post_titles(step)] == ["Post number 1 of the week"]


# A link line on either side of the article's own short list: smoothing drops the list (ITEM_RUN_*).
LINK_LINE = "<p><a href='/d'>Download the portable app from the official site today</a></p>"
NEAR_ITEM = "Export the journal to PDF, HTML, LaTeX or plain text files"
FEATURES = ["Tagging", "Automatic saving", "Backup to a zip archive", NEAR_ITEM]


def _with_item_runs(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the post's own short lists join them."""
    return _joined(with_item_runs, html)


def _list(items: list[str], attrs: str = "") -> str:
    return f"<ul{attrs}>{''.join(f'<li>{t}</li>' for t in items)}</ul>"


FEATURE_LIST = _list(FEATURES)


def test_a_run_of_short_items_between_the_kept_text_joins_it() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{FEATURE_LIST}{LINK_LINE}<p>{PROSE2}</p></div>"
    kept, joined = _with_item_runs(html)
    assert kept == [PROSE, PROSE2]  # smoothing drops them: short and near-good blocks between link lines
    assert joined == [PROSE, *FEATURES, PROSE2]
    assert h.LENGTH_LOW <= len(NEAR_ITEM) <= h.ITEM_RUN_MAX_CHARS  # a near-good item joins too


def test_a_rows_short_cells_between_the_kept_text_join_it() -> None:
    row = "<table><tr>" + "".join(f"<td>{t}</td>" for t in FEATURES) + "</tr></table>"
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{row}{LINK_LINE}<p>{PROSE2}</p></div>"
    kept, joined = _with_item_runs(html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, *FEATURES, PROSE2]


def test_an_item_run_needs_its_length_no_links_no_marked_box_and_kept_text_after_it() -> None:
    linked = [f"<a href='/{i}'>{t}</a>" for i, t in enumerate(FEATURES)]
    one = _list(FEATURES[:1])  # shorter than ITEM_RUN_MIN_BLOCKS
    assert h.ITEM_RUN_MIN_BLOCKS > 1
    for box in (one, _list(linked), f"<div class='related-posts'>{_list(FEATURES)}</div>"):
        html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{box}{LINK_LINE}<p>{PROSE2}</p></div>"
        kept, joined = _with_item_runs(html)
        assert joined == kept == [PROSE, PROSE2]
    # after the last kept block: a list ending the post is where its related links stand
    html = f"{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p>{LINK_LINE}{FEATURE_LIST}{LINK_LINE}</div>"
    kept, joined = _with_item_runs(html)
    assert joined == kept == [PROSE, PROSE2]


def test_the_heuristics_pipeline_keeps_the_posts_own_short_list() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{FEATURE_LIST}{LINK_LINE}<p>{PROSE2}</p></div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert all(t in text for t in FEATURES)


# A list some of whose items density keeps is the post's list: its linked or short items join it
# (LIST_SIBLING_*).
TITLES = ["Study: fan sharing is worth a lot", "Infographic: what music services pay", "Upward Spiral #12"]


def _roundup(attrs: str = "", titles: list[str] = TITLES) -> str:
    linked = "".join(f"<li><a href='/{i}'>{t}</a></li>" for i, t in enumerate(titles))
    return f"<ul{attrs}><li>{PROSE2}</li>{linked}<li>{PROSE3}</li></ul>"


def test_the_linked_items_of_a_list_the_text_keeps_join_it() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{_roundup()}</div>"
    kept, joined = _joined(with_list_siblings, html)
    assert kept == [PROSE, PROSE2, PROSE3]  # the linked titles are dropped for their links
    assert joined == [PROSE, PROSE2, *TITLES, PROSE3]
    # 5 items, 2 kept: over the list's least size and share
    assert len(TITLES) + 2 >= h.LIST_SIBLING_MIN_ITEMS
    assert h.LIST_SIBLING_MIN_SHARE * (len(TITLES) + 2) <= 2


def test_a_lists_items_join_only_where_it_is_kept_in_part_and_not_named_as_boilerplate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a list without a kept item, in a related box, or of too few items stays out
    nothing = f"{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p>{_list(TITLES)}<p>{PROSE3}</p></div>"
    related = _roundup(" class='related-posts'")
    named = f"{NAV}<div class='post'><p>{PROSE}</p>{related}</div>"
    for html in (nothing, named):
        kept, joined = _joined(with_list_siblings, html)
        assert joined == kept
    monkeypatch.setattr(h, "LIST_SIBLING_MIN_ITEMS", len(TITLES) + 3)
    kept, joined = _joined(with_list_siblings, f"{NAV}<div class='post'><p>{PROSE}</p>{_roundup()}</div>")
    assert joined == kept == [PROSE, PROSE2, PROSE3]
    monkeypatch.setattr(h, "LIST_SIBLING_MIN_ITEMS", 3)
    monkeypatch.setattr(h, "LIST_SIBLING_MIN_SHARE", 0.5)  # 2 of 5 items kept: under half
    kept, joined = _joined(with_list_siblings, f"{NAV}<div class='post'><p>{PROSE}</p>{_roundup()}</div>")
    assert joined == kept


def test_the_heuristics_pipeline_keeps_the_linked_items_of_the_posts_list() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{_roundup()}</div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert all(t in text for t in TITLES)


# The heading of lines a joining step added: smoothing brought headings back before the steps ran
# (TEXT_HEADING_MAX_CHARS).
def _with_list_and_heading(html: str) -> tuple[list[str], list[str]]:
    """The texts kept once the post's short lists join, and once their headings join them too."""
    seg = seg_of(html)
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    c = classify_region(seg, scores, region)
    kept = KeptText(seg, scores, region, c.kept, set(c.kept), frozenset(c.tail))
    kept.blocks = sorted(kept.blocks + with_item_runs(kept))
    kept.inside = set(kept.blocks)
    joined = sorted(kept.blocks + with_text_headings(kept))
    return [seg.texts[i] for i in kept.blocks], [seg.texts[i] for i in joined]


def test_the_heading_of_a_joined_list_joins_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # short items, and link lines past smoothing's reach for a heading (MAX_HEADING_DISTANCE characters)
    items = FEATURES[:3]
    links = LINK_LINE * (h.MAX_HEADING_DISTANCE // len(LINK_LINE) + 2)
    post = f"<p>{PROSE}</p>{LINK_LINE}<h3>Features</h3>{_list(items)}{links}<p>{PROSE2}</p>"
    html = f"{NAV}<div class='post'>{post}</div>"
    kept, joined = _with_list_and_heading(html)
    assert kept == [PROSE, *items, PROSE2]  # the list joined, its heading did not
    assert joined == [PROSE, "Features", *items, PROSE2]
    # linked, or in a box marked as boilerplate, it stays out; so without the rule's length
    linked = html.replace("<h3>Features</h3>", "<h3><a href='/f'>Features</a></h3>")
    marked = html.replace("<h3>Features</h3>", "<div class='sidebar-widget'><h3>Features</h3></div>")
    for page in (linked, marked):
        kept, joined = _with_list_and_heading(page)
        assert "Features" not in joined
    monkeypatch.setattr(h, "TEXT_HEADING_MAX_CHARS", 0)
    kept, joined = _with_list_and_heading(html)
    assert joined == kept


# A post's own line with links between two kept siblings: density drops it for its links (LINKED_LINE_*).
VIA = "via <a href='https://lenscratch.com'>L E N S C R A T C H</a>."


def test_a_linked_sentence_between_two_kept_siblings_joins_them(monkeypatch: pytest.MonkeyPatch) -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p><p>{VIA}</p><p>{PROSE2}</p></div>"
    kept, joined = _joined(with_linked_lines, html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, "via L E N S C R A T C H.", PROSE2]
    # no sentence, another box than the kept blocks', or after the last kept block: it stays out
    for other in (
        html.replace("</a>.", "</a>"),
        html.replace(f"<p>{VIA}</p>", f"<div class='credit'><p>{VIA}</p></div>"),
        f"{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p><p>{VIA}</p></div>",
    ):
        kept, joined = _joined(with_linked_lines, other)
        assert joined == kept
    monkeypatch.setattr(h, "LINKED_LINE_MAX_RUN", 0)
    kept, joined = _joined(with_linked_lines, html)
    assert joined == kept


def test_a_linked_sentence_in_a_cell_between_two_kept_cells_of_its_row_joins_them() -> None:
    cells = f"<td>{PROSE}</td><td>{VIA}</td><td>{PROSE2}</td>"
    html = f"{NAV}<table class='post'><tr>{cells}</tr></table>"
    kept, joined = _joined(with_linked_lines, html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, "via L E N S C R A T C H.", PROSE2]
    assert "table_cell" in h.LINKED_LINE_KINDS


# The article's closing short lines before its footer's link line: smoothing drops them (CLOSING_RUN_*).
INGREDIENTS = ["1 tsp cumin", "4 cloves garlic", "salt and pepper to taste"]


def _with_closing_lines(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the article's closing lines join them."""
    return _joined(with_closing_lines, html)


def _post(lines: str, after: str = LINK_LINE) -> str:
    return f"{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p>{lines}{after}</div>"


def test_short_lines_closing_the_article_join_it() -> None:
    kept, joined = _with_closing_lines(_post("".join(f"<p>{t}</p>" for t in INGREDIENTS)))
    assert kept == [PROSE, PROSE2]  # smoothing drops them: short blocks before a link line
    assert joined == [PROSE, PROSE2, *INGREDIENTS]


def test_closing_lines_need_a_run_no_links_and_the_articles_box() -> None:
    assert h.CLOSING_RUN_MIN_BLOCKS > 1
    linked = "".join(f"<p><a href='/{i}'>{t}</a></p>" for i, t in enumerate(INGREDIENTS))
    boxed = "<div class='more'>" + "".join(f"<p>{t}</p>" for t in INGREDIENTS) + "</div>"
    for lines in (f"<p>{INGREDIENTS[0]}</p>", linked, boxed):
        kept, joined = _with_closing_lines(_post(lines))
        assert joined == kept == [PROSE, PROSE2]


def test_the_heuristics_pipeline_keeps_the_articles_closing_lines() -> None:
    html = _post("".join(f"<p>{t}</p>" for t in INGREDIENTS))
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert all(t in text for t in INGREDIENTS)


# The post's numbered short lines (a playlist's tracks, a column's points): smoothing drops them
# (NUMBERED_LINE*).
TRACKS = ["1. In The Dirt - S. Carey", "2. What We Gained in the Fire - Mynabirds", "3. Orchids - M. Taylor"]


def _with_numbered_lines(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the post's numbered lines join them."""
    return _joined(with_numbered_lines, html)


def _lines(texts: list[str]) -> str:
    return "".join(f"<p>{t}</p>" for t in texts)


def test_a_counted_run_of_numbered_lines_after_the_kept_text_joins_it() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{_lines(TRACKS)}{LINK_LINE}</div>"
    kept, joined = _with_numbered_lines(html)
    assert kept == [PROSE]  # smoothing drops them: short blocks between link lines
    assert joined == [PROSE, *TRACKS]


def test_a_numbered_line_between_the_kept_text_joins_it() -> None:
    point = "4. Romney was not able to expand the map"
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}<p>{point}</p>{LINK_LINE}<p>{PROSE2}</p></div>"
    kept, joined = _with_numbered_lines(html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, point, PROSE2]


def test_numbered_lines_need_a_count_or_kept_text_after_them_no_links_and_no_marked_box() -> None:
    shuffled = [TRACKS[0], TRACKS[2]]  # 1, 3: not counted
    linked = "".join(f"<p><a href='/{i}'>{t}</a></p>" for i, t in enumerate(TRACKS))
    boxed = f"<div class='related-posts'>{_lines(TRACKS)}</div>"
    for lines in (_lines(TRACKS[:1]), _lines(shuffled), linked, boxed, _lines(["Tagging", "Backup"])):
        html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{lines}{LINK_LINE}</div>"
        kept, joined = _with_numbered_lines(html)
        assert joined == kept == [PROSE]


# An index post's numbered entries: density drops the most linked one between kept ones (NUMBERED_GAP_LINE).
ENTRIES = [
    "17. Arguments That Make You Ashamed to be a Lawyer, and Why the Memo Got It So Wrong (June 9, 2004)",
    "18. <a href='/18'>Yoo: If you don't like our torture, vote us out of office</a> (June 11, 2004)",
    "19. Moral Clarity, and What the Administration Says About It Now in Its Briefs (June 13, 2004)",
]
LINKED_ENTRY = "18. Yoo: If you don't like our torture, vote us out of office (June 11, 2004)"


def _entries(texts: list[str]) -> str:
    return "".join(f"<p>{t}</p>" for t in texts)


def test_a_dropped_entry_numbered_between_two_kept_ones_joins_them() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{_entries(ENTRIES)}<p>{PROSE2}</p></div>"
    kept, joined = _joined(with_numbered_gaps, html)
    assert kept == [PROSE, ENTRIES[0], ENTRIES[2], PROSE2]  # its links (10 of 14 words) drop it
    assert joined == [PROSE, ENTRIES[0], LINKED_ENTRY, ENTRIES[2], PROSE2]


def test_numbered_gaps_need_the_next_number_on_both_sides_one_box_and_no_marked_box() -> None:
    skipped = _entries([ENTRIES[0], ENTRIES[1], ENTRIES[2].replace("19.", "21.")])  # 17, 18, 21: no count
    unnumbered = _entries([ENTRIES[0], ENTRIES[1].replace("18. ", ""), ENTRIES[2]])
    related = f"<div class='related-posts'><p>{ENTRIES[1]}</p></div>"
    boxed = f"{_entries(ENTRIES[:1])}{related}{_entries(ENTRIES[2:])}"
    for entries in (skipped, unnumbered, boxed):
        html = f"{NAV}<div class='post'><p>{PROSE}</p>{entries}<p>{PROSE2}</p></div>"
        kept, joined = _joined(with_numbered_gaps, html)
        assert joined == kept


def test_the_heuristics_pipeline_keeps_the_posts_numbered_lines() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{_lines(TRACKS)}{LINK_LINE}</div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert all(t in text for t in TRACKS)


# The post's short lines between photos: smoothing reads the captions beside them as bad (CAPTION_RUN_KINDS).
CAPTION = "<div class='wp-caption'><img src='/a.jpg'><p class='wp-caption-text'>(Associated Press)</p></div>"
GAME_LINES = ["It is game time, folks!", "Way to drag the toes and keep the drive alive!"]


def _with_caption_runs(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the lines beside captions join them."""
    return _joined(with_caption_runs, html)


def test_short_lines_between_captions_and_kept_text_join_it() -> None:
    lines = "".join(f"<p>{t}</p>" for t in GAME_LINES)
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{CAPTION}{lines}{CAPTION}<p>{PROSE2}</p></div>"
    kept, joined = _with_caption_runs(html)
    assert kept == [PROSE, PROSE2]  # smoothing drops them: short blocks between captions
    assert joined == [PROSE, *GAME_LINES, PROSE2]  # the captions stay out


def test_caption_runs_need_sentences_no_links_a_caption_and_kept_text_after_them() -> None:
    for lines in (
        "<p>Game time</p>",  # no sentence punctuation
        "<p><a href='/g'>It is game time, folks!</a></p>",
    ):
        html = f"{NAV}<div class='post'><p>{PROSE}</p>{CAPTION}{lines}{CAPTION}<p>{PROSE2}</p></div>"
        kept, joined = _with_caption_runs(html)
        assert joined == kept == [PROSE, PROSE2]
    lines = "".join(f"<p>{t}</p>" for t in GAME_LINES)
    # after the last kept block
    kept, joined = _with_caption_runs(
        f"{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p>{CAPTION}{lines}</div>"
    )
    assert joined == kept == [PROSE, PROSE2]
    # between link lines and no caption: smoothing's decision stands
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{lines}{LINK_LINE}<p>{PROSE2}</p></div>"
    kept, joined = _with_caption_runs(html)
    assert joined == kept


def test_short_lines_between_marked_boxes_and_kept_text_join_it(monkeypatch: pytest.MonkeyPatch) -> None:
    share = "<div class='share-box'><p>Share this story with your friends</p></div>"
    lines = "".join(f"<p>{t}</p>" for t in GAME_LINES)
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{share}{lines}{share}<p>{PROSE2}</p></div>"
    kept, joined = _with_caption_runs(html)
    assert kept == [PROSE, PROSE2]  # smoothing drops them: short blocks between boilerplate
    assert joined == [PROSE, *GAME_LINES, PROSE2]  # the boxes stay out
    monkeypatch.setattr(h, "CAPTION_RUN_PASS_MARKED", False)  # rule: captions alone
    kept, joined = _with_caption_runs(html)
    assert joined == kept == [PROSE, PROSE2]


def test_a_caption_run_may_hold_some_link_text() -> None:
    line = "Watch the touchdown run in the game <a href='/h'>highlights</a>, folks!"
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{CAPTION}<p>{line}</p>{CAPTION}<p>{PROSE2}</p></div>"
    kept, joined = _with_caption_runs(html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, "Watch the touchdown run in the game highlights, folks!", PROSE2]


def test_the_heuristics_pipeline_keeps_the_lines_between_captions() -> None:
    lines = "".join(f"<p>{t}</p>" for t in GAME_LINES)
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{CAPTION}{lines}{CAPTION}<p>{PROSE2}</p></div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert all(t in text for t in GAME_LINES)


# A line introducing the quote after it, dropped by smoothing after a link list (INTRO_LINE_*).
INTRO = "KPCC reports that:"
QUOTED = f"<blockquote><p>{PROSE2}</p></blockquote>"


def _with_intro_lines(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the lines introducing them join them."""
    seg = seg_of(html)
    scores = score(seg)
    region = choose(seg, scores.weights, scores.link_density, None)
    kept = classify_region(seg, scores, region).kept
    joined = classify_mod.with_intro_lines(seg, scores, kept)
    return [seg.texts[i] for i in kept], [seg.texts[i] for i in joined]


def test_a_line_introducing_a_kept_block_joins_it(monkeypatch: pytest.MonkeyPatch) -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINKS}<p>{INTRO}</p>{QUOTED}</div>"
    kept, joined = _with_intro_lines(html)
    assert kept == [PROSE, PROSE2]  # smoothing drops it: a short block after boilerplate
    assert joined == [PROSE, INTRO, PROSE2]
    # a linked source too (the quote's)
    linked = html.replace("KPCC reports", "<a href='/kpcc'>KPCC</a> reports")
    assert _with_intro_lines(linked)[1] == [PROSE, INTRO, PROSE2]
    # rule off: dropped
    monkeypatch.setattr(h, "INTRO_LINE_MAX_CHARS", 0)
    assert _with_intro_lines(html)[1] == [PROSE, PROSE2]


def test_a_line_introducing_a_kept_block_passes_a_short_line_between(monkeypatch: pytest.MonkeyPatch) -> None:
    credit = "<p><a href='/via'>Via KPCC Radio</a></p>"  # the quote's credit line, dropped
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINKS}<p>{INTRO}</p>{credit}{QUOTED}</div>"
    kept, joined = _with_intro_lines(html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, INTRO, PROSE2]
    assert len("Via KPCC Radio") <= h.INTRO_LINE_PASSED_MAX_CHARS
    # a longer line between: no introduction of the kept block
    long_line = "<p><a href='/via'>" + "Via the public radio station of Southern California" * 2 + "</a></p>"
    assert _with_intro_lines(html.replace(credit, long_line))[1] == [PROSE, PROSE2]
    # rule off: dropped
    monkeypatch.setattr(h, "INTRO_LINE_PASSED_MAX_CHARS", 0)
    assert _with_intro_lines(html)[1] == [PROSE, PROSE2]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (INTRO, "KPCC reports that"),  # no colon
        (INTRO, "KPCC reports:"),  # under INTRO_LINE_MIN_WORDS
        (INTRO, "Related stories from KPCC:"),  # a cross-link
        (INTRO, "Tags: KPCC, health care:"),  # a taxonomy line
        (f"<p>{INTRO}</p>", f"<div class='box'><p>{INTRO}</p></div>"),  # not in the box holding the quote
        (f"<p>{INTRO}</p>", f"<ul><li>{INTRO}</li></ul>"),  # a list item
        (f"<p>{INTRO}</p>", f"<p>{INTRO}</p>{LINKS}"),  # before a dropped block
    ],
)
def test_a_line_introducing_a_kept_block_joins_only_as_such(old: str, new: str) -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINKS}<p>{INTRO}</p>{QUOTED}</div>".replace(old, new)
    kept, joined = _with_intro_lines(html)
    assert joined == kept == [PROSE, PROSE2]


def test_the_heuristics_pipeline_keeps_the_line_introducing_a_quote() -> None:
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINKS}<p>{INTRO}</p>{QUOTED}</div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert INTRO in text
    assert PROSE2 in text


# The post's short sentence or low-stopword line beside a link line: smoothing drops it (INNER_LINE_*).
SHORT_LINE = "Wow, just wow."


def _with_inner_lines(html: str) -> tuple[list[str], list[str]]:
    """The texts classify keeps, and those kept once the post's lines inside its text join them."""
    return _joined(with_inner_lines, html)


def test_a_short_sentence_between_the_kept_text_joins_it() -> None:
    line = f"{LINK_LINE}<p>{SHORT_LINE}</p>{LINK_LINE}"
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{line}<p>{PROSE2}</p></div>"
    kept, joined = _with_inner_lines(html)
    assert kept == [PROSE, PROSE2]  # smoothing drops it: a short block between link lines
    assert joined == [PROSE, SHORT_LINE, PROSE2]
    assert len(SHORT_LINE) < h.LENGTH_LOW
    assert SHORT_LINE.endswith(h.INNER_LINE_END)


def test_a_short_sentence_needs_its_end_no_links_the_posts_box_and_kept_text_after_it() -> None:
    for line in (
        "<p>Wow, just wow</p>",  # no sentence end, under INNER_LINE_MIN_WORDS words
        f"<p><a href='/w'>{SHORT_LINE}</a></p>",
        f"<div><p>{SHORT_LINE}</p></div>",  # another box than the kept text's
        f"<div class='share-box'><p>{SHORT_LINE}</p></div>",  # marked
    ):
        html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}{line}{LINK_LINE}<p>{PROSE2}</p></div>"
        kept, joined = _with_inner_lines(html)
        assert joined == kept == [PROSE, PROSE2]
    # after the last kept block
    line = f"{LINK_LINE}<p>{SHORT_LINE}</p>{LINK_LINE}"
    html = f"{NAV}<div class='post'><p>{PROSE}</p><p>{PROSE2}</p>{line}</div>"
    kept, joined = _with_inner_lines(html)
    assert joined == kept == [PROSE, PROSE2]


def test_a_short_line_of_enough_words_between_the_kept_text_joins_it() -> None:
    words = "Sunday at the Astoria market"  # no sentence end
    assert len(words.split()) >= h.INNER_LINE_MIN_WORDS
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}<p>{words}</p>{LINK_LINE}<p>{PROSE2}</p></div>"
    kept, joined = _with_inner_lines(html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, words, PROSE2]


def test_a_near_good_line_between_the_kept_text_joins_it() -> None:
    menu = "Hamburger sliders, sweet potato fries, pickled okra, ginger beer floats"  # few stopwords
    assert len(menu) >= h.LENGTH_LOW
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}<p>{menu}</p>{LINK_LINE}<p>{PROSE2}</p></div>"
    kept, joined = _with_inner_lines(html)
    assert kept == [PROSE, PROSE2]  # smoothing drops it: a near-good block between link lines
    assert joined == [PROSE, menu, PROSE2]


def test_a_short_sentence_with_one_kept_neighbour_in_its_element_joins_it() -> None:
    # rule: INNER_SENTENCE_ONE_SIDE_END; the kept text after it is a quote's paragraph, in another element
    quote = f"<blockquote><p>{PROSE2}</p></blockquote>"
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}<p>{SHORT_LINE}</p>{LINK_LINE}{quote}</div>"
    kept, joined = _with_inner_lines(html)
    assert kept == [PROSE, PROSE2]
    assert joined == [PROSE, SHORT_LINE, PROSE2]
    assert SHORT_LINE.endswith(h.INNER_SENTENCE_ONE_SIDE_END)
    # a line of words that ends no sentence still needs both neighbours in its element
    words = "Sunday at the Astoria market"
    kept, joined = _with_inner_lines(html.replace(SHORT_LINE, words))
    assert joined == kept == [PROSE, PROSE2]
    # and neither in its element: out
    kept, joined = _with_inner_lines(html.replace(f"<p>{SHORT_LINE}</p>", f"<div><p>{SHORT_LINE}</p></div>"))
    assert joined == kept == [PROSE, PROSE2]


# The post's short opening sentence and its sign-off at the kept text's edges (EDGE_SENTENCE_*).
OPENING = "Nobody spoiled his party."
SIGN_OFF = "Good luck!"


def _edges(opening: str, sign_off: str) -> str:
    text = f"<p>{PROSE}</p><p>{PROSE2}</p>"
    return f"{NAV}<div class='post'>{LINK_LINE}{opening}{text}{sign_off}{LINK_LINE}</div>"


def test_short_sentences_at_the_kept_texts_edges_join_it() -> None:
    kept, joined = _joined(with_edge_sentences, _edges(f"<p>{OPENING}</p>", f"<p>{SIGN_OFF}</p>"))
    assert kept == [PROSE, PROSE2]  # smoothing drops both: short blocks beside bad ones
    assert joined == [OPENING, PROSE, PROSE2, SIGN_OFF]
    assert len(SIGN_OFF) < h.CLOSING_SENTENCE_MIN_CHARS  # the decide step's closing sentence misses it
    assert OPENING.endswith(h.EDGE_SENTENCE_END)
    assert SIGN_OFF.endswith(h.EDGE_SENTENCE_END)


@pytest.mark.parametrize(
    ("opening", "sign_off"),
    [
        ("<p>Nobody spoiled his party</p>", "<p>Good luck</p>"),  # no sentence end
        (f"<p><a href='/o'>{OPENING}</a></p>", f"<p><a href='/s'>{SIGN_OFF}</a></p>"),  # link text
        (f"<div><p>{OPENING}</p></div>", f"<div><p>{SIGN_OFF}</p></div>"),  # not in the kept text's element
    ],
)
def test_the_edges_take_only_unlinked_sentences_in_the_kept_texts_box(opening: str, sign_off: str) -> None:
    kept, joined = _joined(with_edge_sentences, _edges(opening, sign_off))
    assert joined == kept == [PROSE, PROSE2]


def test_the_heuristics_pipeline_keeps_the_posts_sign_off() -> None:
    html = _edges(f"<p>{OPENING}</p>", f"<p>{SIGN_OFF}</p>")
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert OPENING in text
    assert SIGN_OFF in text


def test_a_short_sentence_next_to_a_kept_heading_stays_out() -> None:
    # a blog's tagline under its kept name: the kept blocks on both sides of it must be no headings
    html = (
        f"{NAV}<div class='post'><p>{PROSE}</p>{LINK_LINE}<p>{SHORT_LINE}</p>{LINK_LINE}"
        f"<h2>A heading of the post</h2><p>{PROSE2}</p></div>"
    )
    kept, joined = _with_inner_lines(html)
    assert "A heading of the post" in kept
    assert SHORT_LINE not in joined


def test_the_heuristics_pipeline_keeps_the_posts_short_sentence() -> None:
    line = f"{LINK_LINE}<p>{SHORT_LINE}</p>{LINK_LINE}"
    html = f"{NAV}<div class='post'><p>{PROSE}</p>{line}<p>{PROSE2}</p></div>"
    text = clean_page(Page(id="p", html=html), None, CleanOptions(block_model=False)).text
    assert SHORT_LINE in text


def test_a_listings_date_stamps_are_not_the_article() -> None:
    # rule: DATE_STAMP, when at least DATE_STAMPS_MIN bare dates stand in the kept text (one per listed item)
    stamps = classify_mod.without_date_stamps
    texts = ["12-20-06", PROSE, "12-13-06", PROSE2, "11/1/2006", PROSE]
    chars = [len(t) for t in texts]
    assert stamps(texts, chars, list(range(6))) == [1, 3, 5]
    # ... not the article's one or two datelines (dragnet's gold keeps a lone "11/06/2012"), nor prose
    assert stamps(texts, chars, [0, 1, 2, 3]) == [0, 1, 2, 3]
    dated = ["On 12-20-06 the council met.", "12-13-06 and then", "11/1/2006 meeting", PROSE]
    assert stamps(dated, [len(t) for t in dated], [0, 1, 2, 3]) == [0, 1, 2, 3]
    # ... on every page: the post's lines step (template.post_lines) takes them out
    from worker.clean.template import post_lines

    seg = seg_of(f"<p>12-20-06</p><p>{PROSE}</p><p>12-13-06</p><p>{PROSE2}</p><p>11/1/2006</p><p>{PROSE}</p>")
    assert post_lines(seg, list(range(6))) == [1, 3, 5]


def test_a_call_to_act_now_is_not_the_article() -> None:
    # rule: CALL_NOW_LINE (in FURNITURE_LINE), anywhere in the kept text
    calls = ["Sign up Now!", "Buy a link now!", "Order today!", "Call us now!"]
    # ... not without its exclamation mark, nor prose that asks the reader to act
    others = [
        "Sign up now",
        "Now is the time to call your representative.",
        f"{PROSE} Sign up now!",
    ]
    _assert_drops_lines(classify_mod.without_page_lines, calls, others)
