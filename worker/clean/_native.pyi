"""Types of the C accelerator (worker/clean/_native.c); worker/clean/native.py is its only user."""

from array import array
from collections.abc import Callable, Iterable, Mapping
from typing import Any

FIELDS: tuple[str, ...]

def configure(
    lexbor_library: str,
    text_id: int,
    a_id: int,
    br_id: int,
    block_names: Mapping[int, str],
    void_ids: Iterable[int],
    skip_ids: Iterable[int],
    kind_by_id: Mapping[int, int],
    kinds: tuple[str, ...],
    max_depth: int,
    every: int,
    hidden_class: Callable[[str], bool],
    hidden_style: Callable[[str], bool],
    class_hints: tuple[bytes, ...],
    too_many_nodes: type[Exception],
    /,
) -> None: ...
def segment(
    node: int, root_tag: str, root_link: bool, budget: Any, max_nodes: int, /
) -> tuple[Any, ...] | None: ...
def node(address: int, /) -> tuple[int, int, int, int, int, int, int]: ...
def text(address: int, expected_length: int, /) -> bytes | None: ...
def attributes(address: int, /) -> list[tuple[bytes, bytes | None]]: ...
def marked(
    address: int,
    tag_ids: tuple[int, ...],
    in_class: tuple[bytes, ...],
    in_id: tuple[bytes, ...],
    limit: int,
    max_chars: int,
    /,
) -> list[tuple[str | None, str | None, str | None]]: ...
def configure_fingerprint(
    signature_hash: Callable[[tuple[str, str, str]], int],
    base: int,
    memo_max: int,
    stable_ascii: str,
    page_state: tuple[str, ...],
    max_class_tokens: int,
    /,
) -> None: ...
def signature(tag: str, cls: str, id: str, /) -> int: ...
def fingerprint(
    texts: list[str],
    tags: list[str],
    classes: list[str],
    ids: list[str],
    parents: list[int],
    firsts: list[int],
    ends: list[int],
    /,
) -> tuple[bytes, bytes, bytes] | None: ...
def text_hashes(texts: list[str], /) -> list[int]: ...
def utf8(text: str, /) -> bytes | None: ...
def clear_memo() -> None: ...
def count_page(
    fps: array[int], counts: array[float], page: set[int] | frozenset[int] | array[int], unit: float, /
) -> bytes | None: ...
def learn_positions(
    paths: array[int],
    parents: list[int],
    owners: list[int],
    kept: list[int],
    positions: array[int],
    position_seen: array[float],
    position_kept: array[float],
    unit: float,
    /,
) -> bytes | None: ...
def slot_blocks(
    paths: array[int], parents: list[int], owners: list[int], kept: list[int], slots: frozenset[int], /
) -> list[int] | None: ...
def template_strips(
    fps: array[int],
    counts: array[float],
    bar: float,
    elems: array[int],
    text_fps: array[int],
    firsts: list[int],
    ends: list[int],
    /,
) -> list[int] | None: ...
def stable_path(
    tags: list[str], ids: list[str], classes: list[str], parents: list[int], elem: int, /
) -> str | None: ...
def kept_positions(
    positions: array[int],
    position_kept: array[float],
    position_seen: array[float],
    bar: float,
    share: float,
    /,
) -> frozenset[int] | None: ...
def prune(fps: array[int], counts: array[float], keep: int, /) -> tuple[bytes, bytes] | None: ...
def template_set(fps: array[int], counts: array[float], bar: float, /) -> frozenset[int]: ...
def scan(markup: str, long_tag: int, step: int, /) -> tuple[int, list[tuple[int, int]]]: ...
def nesting_counts(
    markup: str, voids: tuple[str, ...], formatting: tuple[str, ...], spellings: tuple[str, ...], /
) -> tuple[int, int, int]: ...
def configure_idents(
    bits: tuple[int, int, int, int, int],
    tables: tuple[tuple[str, ...], ...],
    python: Callable[[str, str], int],
    /,
) -> None: ...
def ident_flags(classes: list[str], ids: list[str], /) -> bytes: ...
def configure_tokens(digits: str, symbols: str, apostrophes: str, marks: str, line_end: str, /) -> None: ...
def quality_counts(
    texts: list[str], stoplist: frozenset[str] | None, zipf: dict[str, float] | None, /
) -> tuple[Any, ...]: ...
def configure_quality(cls: type, members: tuple[Any, ...], /) -> None: ...
def qualities(
    words: list[int],
    nonspace: list[int],
    symbols: list[int],
    digits: list[int],
    tokens: list[int],
    stopwords: list[int] | None,
    punctuated: list[bool],
    zipf_sums: list[float] | None,
    /,
) -> list[Any]: ...
def instances(cls: type, members: tuple[Any, ...], columns: tuple[list[Any], ...], /) -> list[Any]: ...
def instance(
    cls: type, members: tuple[Any, ...], defaults: tuple[Any, ...], /, *values: Any, **named: Any
) -> Any: ...
def configure_quality_dict(scale: float, scaled_max: float, tolerance: float, rounded: Any, /) -> None: ...
def quality_dict(q: Any, /) -> dict[str, Any]: ...
def stop_hits(
    texts: list[str], lists_of: dict[str, tuple[int, ...]], nlangs: int, /
) -> tuple[list[int], list[int]]: ...
def configure_score(
    kind_weight: dict[str, float],
    max_ld: float,
    no_punct: float,
    punct: str,
    mark_max_share: float,
    boost: float,
    marks_max_removed: float,
    unspaced: float,
    scripts: str,
    dense: str,
    dense_weight: float,
    bad_tags: tuple[str, ...],
    page_tags: tuple[str, ...],
    article: str,
    bits: tuple[int, int, int],
    /,
) -> None: ...
def score(
    tags: list[str],
    firsts: list[int],
    ends: list[int],
    skips: list[int],
    owners: list[int],
    texts: list[str],
    kinds: list[str],
    chars: list[int],
    words: list[int],
    link_chars: list[int],
    link_words: list[int],
    flags: bytes,
    /,
) -> tuple[Any, ...] | None: ...
def count_attributes(markup: str, start: int, close: int, /) -> int: ...
def date_starts(text: str, start: int, end: int, last: int, /) -> list[int] | None: ...
def repeated_quotes(texts: Any, kept: Any, quotes: Any, share: float, /) -> set[int] | None: ...
def tree_scores(xt: Any, feature: bytes, threshold: bytes, leaves: bytes, bias: float, /) -> bytes: ...
def configure_nodes(sample: Any, address: int, parser: Any, /) -> tuple[int, int]: ...
def select(
    root: Any, compounds: tuple[tuple[int, tuple[tuple[bytes, int, bytes, int], ...]], ...], /
) -> list[Any]: ...
def unmarked_text(address: int, tag_ids: tuple[int, ...], min_chars: int, /) -> str | None: ...
def in_marked_ancestor(address: int, depth: int, words: tuple[bytes, ...], /) -> bool: ...
def repeats(
    tags: list[str],
    classes: list[str],
    parents: list[int],
    firsts: list[int],
    ends: list[int],
    root: int,
    end: int,
    want: str | None,
    /,
) -> tuple[int, str, list[int]] | None: ...
def configure_classify(
    numbers: tuple[float, ...],
    edge: str,
    punct: str,
    ends: str,
    anchors: tuple[str, ...],
    boiler: Callable[[str], object],
    copyright: Callable[[str], object],
    comment_heading: Callable[[str], object],
    heading: str,
    paragraph: str,
    scripts: str,
    /,
) -> None: ...
def decide(
    texts: list[str],
    kinds: list[str],
    chars: list[int],
    words: list[int],
    link_words: list[int],
    link_density: list[float],
    stop_words: list[int],
    idx: list[int],
    owners: list[int],
    marked: list[bool] | None,
    comment: list[bool] | None,
    good_share: float | None,
    /,
) -> tuple[list[int], int] | None: ...
def positions(items: list[str], value: str, /) -> list[int] | None: ...
def cut(
    firsts: list[int], ends: list[int], elems: list[int], columns: list[list[Any]], /
) -> tuple[list[int], list[int], list[list[Any]]] | None: ...
def select_metas(
    root: Any,
    compounds: tuple[tuple[int, tuple[tuple[bytes, int, bytes, int], ...]], ...],
    meta_id: int,
    wanted: frozenset[str],
    prefixes: tuple[bytes, ...],
    normalize: Callable[[str], str],
    by_tag: tuple[int, ...],
    itemprops: frozenset[str],
    /,
) -> list[Any]: ...
