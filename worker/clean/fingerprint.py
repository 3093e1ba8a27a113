"""Subtree fingerprints for per-site template learning, computed from the page's segmentation.

The segmentation (worker.clean.segment) already lists every block-level element in pre-order with the
range of text blocks under it; fingerprinting reads that instead of walking the tree a second time. Every
block-level element whose subtree carries text gets a 64-bit text fingerprint: a hash of (tag path,
normalised subtree text). The tag path is the chain of tag names with stable id/class tokens from <html>
down to the element, without positions, so the same navigation block on two pages of a site hashes equal
even when it moved in the sibling order. Text is case-folded, whitespace-folded and every run of digits
becomes "0", so counters and years do not break the match. The text part is the sum of the element's block
hashes, a difference of prefix sums: O(1) per element.

Hashes must be deterministic across processes (snapshots outlive them; Python's str hash is salted).
Block texts (~170 a page) and signatures are hashed with crc32 and adler32 side by side: 64 bits from
zlib's C loops. blake2b's per-call cost was a sixth of fingerprinting, and the memory only asks for
equality between a site's own pages, never for resistance to crafted collisions.

Tried and not kept (the bench mix in place, shared machine; the C fingerprints take ~40 us a page, a
second call on the same page ~18): fingerprinting inside the C walk, each block hashed from the walk's
buffer as it is flushed and each signature from the attribute bytes, moved ~37 us a page from the plan
into the walk and saved no time (interleaved A/B); a per-page signature memo, and a memo whose entries
hold their key's bytes in one cache line instead of the earlier pages' strs, left the ~40 us as it was.
"""

from __future__ import annotations

import re
import string
from array import array
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import lshift, or_
from zlib import adler32, crc32

from selectolax.lexbor import LexborNode

from worker.clean import native
from worker.clean.heuristics import PAGE_STATE_TAGS
from worker.clean.options import Budget
from worker.clean.segment import Segmentation, segment

# At most this many stable class tokens per element: WordPress-style class lists append per-page tokens
# ("category-sports", "tag-foo") after the stable ones.
MAX_CLASS_TOKENS = 2

_STABLE_TOKEN = re.compile(r"[a-z][a-z_-]{0,39}")  # the whole token (fullmatch: "nav\n" is not stable)
# Every ASCII character a stable token may hold (_STABLE_TOKEN, before lower-casing): the C fingerprints
# know that an id holding another ASCII character is not stable without asking.
_STABLE_ASCII = string.ascii_letters + "_-"
# Every whitespace-separated token of a (lower-cased) class list that _STABLE_TOKEN would accept, in one scan.
_STABLE_TOKENS = re.compile(r"(?<!\S)[a-z][a-z_-]{0,39}(?!\S)")
_CAMEL_HUMPS = re.compile(r"[a-z][A-Z].*[a-z][A-Z]|[A-Z]{2}[a-z]")  # "bdVaJa", "sc-AxjAm": generated names
# Digits, ASCII or not, are left out of the text ("page 9 of 12" = "page 10 of 120"), so counters, dates
# and years do not break a match.
_DIGIT = re.compile(r"\d+")


def stable_token(token: str) -> bool:
    """Does a class/id token look hand-written (kept in the path) rather than generated (dropped)?"""
    # The cheap test first: most generated tokens (ids with digits) fail it already.
    return _STABLE_TOKEN.fullmatch(token.lower()) is not None and _CAMEL_HUMPS.search(token) is None


def normalise(text: str) -> bytes:
    """What a block's text hash reads: whitespace folded, digits left out, ASCII letters lower-cased.

    Only ASCII is case-folded (bytes.lower): str.lower has a context rule (Greek final sigma) that compiled
    and interpreted Python apply differently, and a fingerprint must be the same in every worker.
    """
    return _DIGIT.sub("", " ".join(text.split())).encode("utf-8", "surrogatepass").lower()


def block_hash(data: bytes) -> int:
    """64-bit hash of one normalised block text or one element signature (their UTF-8)."""
    return crc32(data) << 32 | adler32(data)


@dataclass(slots=True)
class PageFingerprints:
    """Per text-carrying block-level element, in document (pre-)order: parents before descendants.

    Arrays, not lists: the site memory reads them in C (sitememory's counting), and a page's few hundred
    64-bit fingerprints as int objects cost more than the hashing that computed them."""

    elems: array[int]  # index into the segmentation's elements ('q')
    text_fps: array[int]  # ('Q')
    # Per segmentation element (not per text-carrying one), the path part of its text fingerprint: its
    # structure position (0 for an element without text); one more at the end, <body>'s again, so that
    # elem_paths[-1] (a block right in <body> has parent -1) is <body>'s position. ('Q')
    elem_paths: array[int]
    paths: list[str]  # readable tag paths, only when asked for (empty otherwise)

    @property
    def path_fps(self) -> list[int]:
        """The path part of each text fingerprint (tests, debugging)."""
        return [self.elem_paths[i] for i in self.elems]

    def observed(self) -> array[int]:
        """Fingerprints this page contributes to its site's statistics (the counting takes each once and
        never 0)."""
        return self.text_fps


def _elem_signature(tag: str, cls: str, id_attr: str) -> str:
    """signature_of(tag, id_attr, lower-cased class tokens), the class part memoised by class attribute.

    Lower case holds no capitals for _CAMEL_HUMPS: camelCase class names are hand-written far more often
    than generated, so for class tokens one match decides."""
    return _compose(tag, cls, id_attr if id_attr and stable_token(id_attr) else "")


def _compose(tag: str, cls: str, stable_id: str) -> str:
    if tag in PAGE_STATE_TAGS:
        return tag
    part = _CLASS_PARTS.get(cls)
    if part is None:
        kept = _STABLE_TOKENS.findall(cls.lower())[:MAX_CLASS_TOKENS]
        part = _CLASS_PARTS[cls] = "." + ".".join(sorted(kept)) if kept else ""
    return f"{tag}#{stable_id.lower()}{part}" if stable_id else tag + part


def signature_of(tag: str, ident: str | None, classes: list[str]) -> str:
    """Tag plus stable id/class tokens, e.g. 'div#sidebar.widget'. No positions."""
    if tag in PAGE_STATE_TAGS:
        return tag
    sig = tag
    if ident and stable_token(ident):
        sig += "#" + ident.lower()
    kept = [t.lower() for t in classes if stable_token(t)][:MAX_CLASS_TOKENS]
    if kept:
        sig += "." + ".".join(sorted(kept))
    return sig


def signature(node: LexborNode) -> str:
    attrs = node.attributes
    return signature_of(node.tag or "", attrs.get("id"), (attrs.get("class") or "").split())


def fingerprint_segmentation(seg: Segmentation, with_paths: bool = False) -> PageFingerprints:
    """Fingerprint every text-carrying element of the segmentation (see fingerprint_segmentation_python).

    Computed in C (worker/clean/_native.c) when the accelerator is built and passed its checks at import
    (worker/clean/native.py), with the same values; readable paths are only built in Python.
    """
    accel = _accel
    if accel is not None and not with_paths:
        got = accel(seg.texts, seg.tags, seg.classes, seg.ids, seg.parents, seg.firsts, seg.ends)
        if got is not None:
            return PageFingerprints(array("q", got[0]), array("Q", got[1]), array("Q", got[2]), [])
    return fingerprint_segmentation_python(seg, with_paths)


def fingerprint_segmentation_python(seg: Segmentation, with_paths: bool = False) -> PageFingerprints:
    """Fingerprint every text-carrying element of the segmentation (no second walk of the DOM).

    The segmentation already is the bottom-up pass: block-level elements in pre-order, each with the
    range of text blocks under it. An element's text is its blocks' normalised texts joined by spaces;
    inline elements (<a>, <span>...) are part of their block, so bylines are matched as whole lines.
    Paths are hashed incrementally; the readable path strings are built only `with_paths` (tests, debugging).
    """
    firsts, ends = seg.firsts, seg.ends
    if not firsts or ends[0] <= firsts[0]:
        return PageFingerprints(array("q"), array("Q"), array("Q", bytes(8 * len(firsts) + 8)), [])
    norm = _normalise_text(_SEP.join(seg.texts), len(seg.texts))
    # An element's text is a range of blocks: summing the blocks' hashes makes the text hash of any
    # element O(1) (a difference of prefix sums) instead of re-hashing every ancestor's whole text. A sum
    # ignores block order, so a reordered menu still matches; it never cancels a block out, as xor would.
    # block_hash of every block, spelled as maps so that no Python-level call is made per block.
    sums = [0, *accumulate(map(or_, map(lshift, map(crc32, norm), repeat(32)), map(adler32, norm)))]
    mask, base = _MASK, _BASE
    tags, classes, ids, parents = seg.tags, seg.classes, seg.ids, seg.parents
    n = len(tags)
    path_hs = [0] * (n + 1)  # rolling hash of the path: no string hashing per element
    path_hs[0] = path_hs[n] = ph = _signature_hash((tags[0], classes[0], ids[0]))
    keep = [0]
    text_fps = [ph ^ (sums[ends[0]] - sums[firsts[0]]) & mask]
    sig_of = _SIG_HASHES.get
    add_keep, add_fp = keep.append, text_fps.append
    keys = zip(tags[1:], classes[1:], ids[1:], strict=True)
    rows = zip(range(1, n), firsts[1:], ends[1:], parents[1:], keys, strict=True)
    for i, lo, hi, parent, key in rows:
        if hi <= lo:
            continue  # no text here, so none below either: the path is never needed
        add_keep(i)
        known = sig_of(key)
        if known is None:
            known = _signature_entry(key)
        ph = path_hs[i] = (path_hs[parent] * base + known) & mask
        # Path hash (a polynomial in signature hashes) xor text hash (a sum of block hashes). No finaliser:
        # equality is all the memory needs, and a bijective mix collides exactly where this does.
        add_fp(ph ^ (sums[hi] - sums[lo]) & mask)
    paths: list[str] = []
    if with_paths:
        by_elem = [""] * len(tags)
        for i in keep:
            sig = _signature_string((tags[i], classes[i], ids[i]))
            by_elem[i] = by_elem[parents[i]] + ">" + sig if i else sig
        paths = [by_elem[i] for i in keep]
    return PageFingerprints(array("q", keep), array("Q", text_fps), array("Q", path_hs), paths)


_MASK = (1 << 64) - 1
_BASE = 0x100000001B3  # the 64-bit FNV prime: odd, so multiplication is a bijection mod 2**64
# Block texts are whitespace-folded by the segmentation, so they hold no newline: a page's blocks are
# normalised as one newline-separated text, with C-level passes over its UTF-8 instead of a call per block.
_SEP = "\n"
_ASCII_DIGITS = b"0123456789"
_ASCII = bytes(range(128))


def _normalise_text(text: str, n: int) -> list[bytes]:
    """normalise() of each of the `n` newline-separated, whitespace-folded block texts.

    The segmentation's block texts are whitespace-folded, so they hold no newline."""
    if not n:
        return []
    data = text.encode("utf-8", "surrogatepass")
    # Digits beyond ASCII (Arabic-Indic, fullwidth...) need the regex: look at the non-ASCII bytes.
    if not data.isascii() and _DIGIT.search(data.translate(None, _ASCII).decode("utf-8", "surrogatepass")):
        data = _DIGIT.sub("", text).encode("utf-8", "surrogatepass")
    return data.translate(None, _ASCII_DIGITS).lower().split(b"\n")


def _normalise_blocks(texts: list[str]) -> list[bytes]:
    """normalise() of already whitespace-folded texts (as the segmentation makes them)."""
    if any(_SEP in t for t in texts):  # not from the segmentation, whose block texts hold no newline
        return [normalise(t) for t in texts]
    return _normalise_text(_SEP.join(texts), len(texts))


# (tag, class, id) -> the hash of its signature. A pure function's memo, cleared when full, so the output
# never depends on what was seen before. Small enough for the C memo's table (40 bytes a slot, twice the
# entries) to stay in a core's L2 cache: a page asks it ~240 times at random places. In place over the
# bench mix (memory mode, shared machine, best of 3 runs) the C fingerprints took 44 us a page with 2048
# entries against 48 with 16384, though a page's new class lists (~40) fill it every ~50 pages.
_SIG_HASHES: dict[tuple[str, str, str], int] = {}
_SIG_HASHES_MAX = 2048
# class attribute -> its part of the signature (".a.b"): a site's class lists recur under many tags and ids.
_CLASS_PARTS: dict[str, str] = {}


def clear_memo() -> None:
    """Forget the memoised signatures (benchmarks start each run cold, as a worker meets a new site)."""
    _clear_python_memo()
    native.clear_memo()


def _clear_python_memo() -> None:
    _SIG_HASHES.clear()
    _CLASS_PARTS.clear()


def _signature_string(key: tuple[str, str, str]) -> str:
    tag, cls, id_attr = key
    return _elem_signature(tag, cls, id_attr)


def _signature_hash(key: tuple[str, str, str]) -> int:
    known = _SIG_HASHES.get(key)
    return known if known is not None else _signature_entry(key)


def _signature_entry(key: tuple[str, str, str]) -> int:
    """The signature hash of a (tag, class, id) the memo does not hold."""
    tag, cls, id_attr = key
    if id_attr and not stable_token(id_attr):
        # A generated id ("post-4711") is left out of the signature. Such ids make most keys unique (on
        # dragnet, 15k of 21k distinct keys held an id): memoised without it, they reuse one entry.
        key = (tag, cls, "")
        known = _SIG_HASHES.get(key)
        if known is not None:
            return known
        id_attr = ""
    if len(_SIG_HASHES) >= _SIG_HASHES_MAX:
        _clear_python_memo()  # the C memo, which may be asking right now, clears itself
    sig = _compose(tag, cls, id_attr)
    entry = _SIG_HASHES[key] = block_hash(sig.encode("utf-8", "surrogatepass"))
    return entry


def fingerprint(root: LexborNode) -> PageFingerprints:
    """Segment `root` as the pipeline does and fingerprint it, with paths (tests, debugging)."""
    return fingerprint_segmentation(segment(root, Budget(float("inf"))), with_paths=True)


# The C fingerprints, once native.py has checked them against fingerprint_segmentation_python (None: not
# built, or the check failed, or the reference path was asked for).
_accel: native.NativeFingerprint | None = native.fingerprinter(
    _signature_hash,
    _BASE,
    _SIG_HASHES_MAX,
    _STABLE_ASCII,
    tuple(sorted(PAGE_STATE_TAGS)),
    MAX_CLASS_TOKENS,
    fingerprint_segmentation_python,
    lambda text: block_hash(normalise(text)),
    segment,
)
