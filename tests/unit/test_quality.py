"""Quality signals, the word model they read, and the optional filter."""

from __future__ import annotations

import gzip
from pathlib import Path

import msgpack
import pytest

from tests.unit.cleankit import NAV, PROSE, PROSE2, PROSE3
from worker.clean import quality, wordmodel
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.models import Page

KEYWORDS = "cheap flights hotels deals xbox ps5 nft crypto casino bonus loans mortgage refinance quote"


def test_signals_by_hand_without_a_language() -> None:
    (q,), whole = (lambda a: (a.blocks, a.whole))(quality.assess(["Tom's 2 cats, 3 dogs."], None))
    assert q.words == 5
    assert q.mean_word_length == pytest.approx(17 / 5)  # 21 characters, 4 of them spaces
    assert q.digit_ratio == pytest.approx(2 / 17)
    assert q.symbol_ratio == pytest.approx(3 / 17)  # the apostrophe, the comma, the full stop
    assert q.punctuated_lines == 1.0
    assert (q.stopword_ratio, q.lm_score) == (None, None)  # no language: no stoplist, no model
    assert whole == q


def test_prose_reads_better_than_keywords() -> None:
    judged = quality.assess([PROSE, KEYWORDS], "en")
    prose, stuffing = judged.blocks
    assert prose.lm_score is not None
    assert stuffing.lm_score is not None
    assert prose.lm_score > 5.0 > stuffing.lm_score
    assert prose.stopword_ratio is not None
    assert stuffing.stopword_ratio == 0.0
    assert prose.stopword_ratio > 0.3
    assert stuffing.punctuated_lines == 0.0


def test_document_signals_are_the_blocks_summed() -> None:
    judged = quality.assess([PROSE, PROSE2], "en")
    assert judged.whole is not None
    assert judged.whole.words == judged.blocks[0].words + judged.blocks[1].words
    assert min(b.lm_score or 0 for b in judged.blocks) <= (judged.whole.lm_score or 0)


def test_the_filter_drops_only_long_enough_blocks_under_the_threshold() -> None:
    judged = quality.assess([PROSE, KEYWORDS, "Sign up now"], "en", min_score=4.5)
    assert judged.keep == [True, False, True]  # three words are too few to judge
    assert judged.whole is not None
    assert judged.whole.words == judged.blocks[0].words + judged.blocks[2].words


def test_pipeline_counts_filtered_blocks() -> None:
    html = (
        f"<html><body>{NAV}<article><p>{PROSE}</p><p>{KEYWORDS}.</p><p>{PROSE2}</p><p>{PROSE3}</p></article>"
    )
    plain = clean_page(Page(id="p", html=html))
    filtered = clean_page(Page(id="p", html=html), options=CleanOptions(min_block_quality=4.5))
    assert [b.text for b in filtered.blocks] == [PROSE, PROSE2, PROSE3]
    assert filtered.stats.blocks_filtered == 1
    assert filtered.stats.blocks_dropped == plain.stats.blocks_dropped + 1
    assert plain.stats.blocks_filtered == 0
    assert all(b.quality is not None for b in plain.blocks)


def test_wordmodel_reads_a_cbpack_file(tmp_path: Path) -> None:
    path = tmp_path / "small_xx.msgpack.gz"
    bins: list[object] = [{"format": "cB", "version": 1}, *([] for _ in range(300)), ["the"]]
    bins[1 + 100] = ["alpha", "beta"]
    with gzip.open(path, "wb") as f:
        f.write(msgpack.packb(bins))
    table = wordmodel.read_cbpack(path)
    assert table == {"alpha": pytest.approx(8.0), "beta": pytest.approx(8.0), "the": pytest.approx(6.0)}


def test_wordmodel_refuses_other_files(tmp_path: Path) -> None:
    path = tmp_path / "small_xx.msgpack.gz"
    with gzip.open(path, "wb") as f:
        f.write(msgpack.packb([{"format": "other"}, ["a"]]))
    with pytest.raises(ValueError, match="not a cBpack"):
        wordmodel.read_cbpack(path)


def test_wordmodel_ships_the_stoplist_languages_and_knows_what_it_lacks() -> None:
    english = wordmodel.zipf_table("en")
    assert english is not None
    assert english["the"] > 7.0
    assert wordmodel.zipf_table("qq") is None
    assert wordmodel.zipf_table("../en") is None  # a language code is never a path


def test_loading_a_word_list_also_builds_the_counters_table_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # The C counter builds its table of a (stoplist, word list) pair on the pair's first use: 3-5 ms of CPU
    # that the page's budget does not pay when load_word_list (outside the budget) has made it.
    seen: list[tuple[object, object]] = []
    counts = quality._counts

    def spy(texts: list[str], stoplist: object, zipf: object) -> tuple[object, ...]:
        seen.append((stoplist, zipf))
        return counts(texts, stoplist, zipf)

    monkeypatch.setattr(quality, "_counts", spy)
    quality.load_word_list("en")
    english = wordmodel.zipf_table("en")
    assert english is not None
    assert len(seen) == 1
    assert seen[0][0] is quality.lang_mod.STOPWORDS["en"]
    assert seen[0][1] is english  # the very objects count() passes for "en"
    quality.load_word_list(None)
    assert len(seen) == 1
