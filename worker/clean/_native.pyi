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
def configure_fingerprint(
    signature_hash: Callable[[tuple[str, str, str]], int], base: int, memo_max: int, stable_ascii: str, /
) -> None: ...
def fingerprint(
    texts: list[str],
    tags: list[str],
    classes: list[str],
    ids: list[str],
    parents: list[int],
    firsts: list[int],
    ends: list[int],
    /,
) -> tuple[list[int], list[int], list[int]] | None: ...
def text_hashes(texts: list[str], /) -> list[int]: ...
def clear_memo() -> None: ...
def count_page(
    fps: array[int], counts: array[float], page: set[int] | frozenset[int], unit: float, /
) -> bytes | None: ...
def prune(fps: array[int], counts: array[float], keep: int, /) -> tuple[bytes, bytes] | None: ...
def template_set(fps: array[int], counts: array[float], bar: float, /) -> frozenset[int]: ...
def probe_runs(markup: str, long_tag: int, step: int, /) -> list[tuple[int, int]]: ...
def nesting_counts(markup: str, chunk: int, spellings: tuple[str, ...], /) -> tuple[int, int]: ...
