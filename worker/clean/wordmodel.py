"""Word-frequency models of languages: the Zipf frequency of each word, for worker.clean.quality's lm_score.

The data is the "small" word lists that the wordfreq package ships (wordfreq/data/small_<lang>.msgpack.gz,
~30,000 words per language, every word used at least once per million words), read straight from the
installed package: nothing is fetched, and wordfreq itself is never imported (its import costs ~75 ms of
start-up, the file ~8 ms). A language's table is read the first time a page in that language needs it,
then kept for the process (read-only: the output of a page never depends on which pages came before).

The file format is wordfreq's "cBpack": gzipped msgpack of [header, bin 0, bin 1, ...] where bin i holds
the words whose frequency is 10^(-i/100) (centibels); a word's Zipf value is 9 - i/100.
"""

from __future__ import annotations

import gzip
import importlib.util
import logging
from pathlib import Path

import msgpack

log = logging.getLogger(__name__)

PACKAGE = "wordfreq"
# A Zipf value is log10 of a word's occurrences per billion words; cBpack bins are centibels of frequency.
ZIPF_OF_BIN_0 = 9.0

# lang -> its table, or None when the package has no list for it (tried once).
_TABLES: dict[str, dict[str, float] | None] = {}


def data_dir() -> Path | None:
    """wordfreq's data folder, found without importing the package; None when it is not installed."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def read_cbpack(path: Path) -> dict[str, float]:
    """word -> Zipf frequency from one cBpack file."""
    with gzip.open(path, "rb") as f:
        data = msgpack.load(f, raw=False)
    header = data[0]
    if not isinstance(header, dict) or header.get("format") != "cB":
        raise ValueError(f"{path}: not a cBpack word list (header {header!r:.80})")
    table: dict[str, float] = {}
    for i, words in enumerate(data[1:]):
        zipf = ZIPF_OF_BIN_0 - i / 100.0
        for word in words:
            table[word] = zipf
    return table


def zipf_table(lang: str) -> dict[str, float] | None:
    """The language's word -> Zipf table, read on first use; None when there is none."""
    if lang in _TABLES:
        return _TABLES[lang]
    table: dict[str, float] | None = None
    folder = data_dir()
    path = folder / f"small_{lang}.msgpack.gz" if folder is not None and lang.isalpha() else None
    if path is not None and path.exists():
        try:
            table = read_cbpack(path)
        except (OSError, ValueError, msgpack.UnpackException) as exc:
            log.warning("word list for %r unreadable, no lm_score in that language: %s", lang, exc)
    _TABLES[lang] = table
    return table
