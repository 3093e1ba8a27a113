"""Subtree fingerprints for per-site template learning, computed from density's segmentation.

density's one walk over the DOM (worker.clean.blocks.segment) already yields every block-level element in
pre-order with the range of text blocks under it; fingerprinting reads that instead of walking the tree a
second time (which cost as much as the whole density extraction). Every block-level element whose subtree
carries text gets two 64-bit fingerprints:

- text fingerprint: hash of (tag path, normalised subtree text). The tag path is the chain of tag names
  with stable id/class tokens from <html> down to the element, without positions, so the same navigation
  block on two pages of a site hashes equal even when it moved in the sibling order. Text is case-folded,
  whitespace-folded and every run of digits becomes "0", so counters and years do not break the match.
  The text part is a rolling hash over the hashes of the element's text blocks: O(1) per element.
- structure fingerprint: hash of (tag path, child tag sequence). It recognises template blocks whose text
  changes ("Posted by X on <date>"), so it is only offered for short blocks that are unique on the page
  and hold no heading; plain paragraphs of the article share their structure across pages.

Hashing is blake2b with an 8-byte digest: deterministic across processes (Python's own str hash is salted),
in the standard library; xxhash would save ~0.3 us per element, not worth a dependency.
"""

from __future__ import annotations

import re
import sys
from array import array
from dataclasses import dataclass
from hashlib import blake2b
from itertools import accumulate

from selectolax.lexbor import LexborNode

from worker.clean.blocks import Segmentation, segment

# Classes on <html>/<body> describe the page (post id, category, logged-in state), not the template.
PAGE_STATE_TAGS = frozenset({"html", "body"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# At most this many stable class tokens per element: WordPress-style class lists append per-page tokens
# ("category-sports", "tag-foo") after the stable ones.
MAX_CLASS_TOKENS = 2
# Structure-only matches are for short bylines, date lines, counters; longer text must match by text.
STRUCT_MAX_WORDS = 16

_STABLE_TOKEN = re.compile(r"^[a-z][a-z_-]{0,39}$")
_CAMEL_HUMPS = re.compile(r"[a-z][A-Z].*[a-z][A-Z]|[A-Z]{2}[a-z]")  # "bdVaJa", "sc-AxjAm": generated names
# Digit runs become one "0" ("page 9 of 12" = "page 10 of 120"). A regex, not str.translate, which costs
# three times more on the hot path.
_DIGIT = re.compile(r"\d+")
_LITTLE = sys.byteorder == "little"


def stable_token(token: str) -> bool:
    """Does a class/id token look hand-written (kept in the path) rather than generated (dropped)?"""
    # The cheap test first: most generated tokens (ids with digits) fail it already.
    return _STABLE_TOKEN.match(token.lower()) is not None and _CAMEL_HUMPS.search(token) is None


def normalise(text: str) -> str:
    return _DIGIT.sub("0", " ".join(text.lower().split()))


def hash64(data: str) -> int:
    return int.from_bytes(blake2b(data.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")


@dataclass(slots=True)
class PageFingerprints:
    """Per text-carrying block-level element, in document (pre-)order: parents before descendants."""

    elems: list[int]  # index into Segmentation.elems
    depths: list[int]
    paths: list[str]  # readable tag paths, only when asked for (empty otherwise)
    tags: list[str]
    text_fps: list[int]
    struct_fps: list[int]  # 0 when the element may not be matched by structure alone
    text_lens: list[int]  # length of the normalised subtree text
    total_text: int

    def observed(self) -> set[int]:
        """Fingerprints this page contributes to its site's statistics (each once per page)."""
        out = set(self.text_fps)
        if any(self.struct_fps):  # all 0 unless structure fingerprints were asked for
            out.update(filter(None, self.struct_fps))
        out.discard(0)
        return out


def _elem_signature(tag: str, ident: str, id_attr: str) -> str:
    classes = ident.split()
    if id_attr and classes:
        classes.pop()  # Elem.ident is "class id", lower-cased
    if tag in PAGE_STATE_TAGS or not ident.isascii():
        return signature_of(tag, id_attr, classes)
    # signature_of, short-cut for lower-cased ASCII classes (~36 new class lists a page): they hold no
    # capitals for _CAMEL_HUMPS and lower() leaves them as they are, so one match per token decides.
    kept: list[str] = []
    for t in classes:
        if _STABLE_TOKEN.match(t) is not None:
            kept.append(t)
            if len(kept) == MAX_CLASS_TOKENS:
                break
    sig = tag
    if id_attr and stable_token(id_attr):
        sig += "#" + id_attr.lower()
    if kept:
        sig += "." + ".".join(sorted(kept))
    return sig


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


def fingerprint_segmentation(
    seg: Segmentation, structure: bool = True, with_paths: bool = False
) -> PageFingerprints:
    """Fingerprint every text-carrying element of density's segmentation (no second walk of the DOM).

    The segmentation already is the bottom-up pass: block-level elements in pre-order, each with the
    range of text blocks under it. An element's text is its blocks' normalised texts joined by spaces;
    inline elements (<a>, <span>...) are part of their block, so bylines are matched as whole lines.
    Paths are hashed incrementally; the readable path strings are built only `with_paths` (tests, debugging).
    """
    elems, blocks = seg.elems, seg.blocks
    norm, encoded = _normalise_blocks([b.text for b in blocks])
    # Rolling hash over the blocks' hashes: the text hash of any element (a range of blocks) is O(1),
    # instead of re-hashing every ancestor's whole text.
    mask, base, base2 = _MASK, _BASE, _BASE2
    prefix = [0]
    acc = 0
    for h in _block_hashes(encoded):
        acc = (acc * base + h) & mask
        prefix.append(acc)
    lens = [0, *accumulate(len(t) + 1 for t in norm)]
    powers = _powers(len(blocks))
    n = len(elems)
    path_hs = [0] * n  # rolling hash of the path: no string hashing per element
    depths = [0] * n
    sigs = [""] * n
    keep: list[int] = []
    text_fps: list[int] = []
    text_lens: list[int] = []
    sig_of = _SIGNATURES.get
    for i, e in enumerate(elems):
        lo, hi = e.first_block, e.end_block
        if hi <= lo:
            continue  # no text here, so none below either: the path is never needed
        keep.append(i)
        key = (e.tag, e.cls, e.id_attr)
        known = sig_of(key)
        if known is None:
            known = _signature_entry(key)
        sigs[i], sh = known
        p = e.parent
        if p >= 0:
            ph = path_hs[i] = (path_hs[p] * base + sh) & mask
            depths[i] = depths[p] + 1
        else:
            ph = path_hs[i] = sh
        # (path hash) xor (rolling text hash times an odd constant): cheaper than hashing bytes again.
        # No finaliser (splitmix64 until snapshot version 2): a bijective mix collides exactly where this
        # does, and it cost a tenth of the fingerprinting. Equality is all the memory needs.
        text_fps.append(ph ^ ((((prefix[hi] - prefix[lo] * powers[hi - lo]) & mask) * base2) & mask))
        text_lens.append(lens[hi] - lens[lo] - 1)
    paths = [""] * n
    if with_paths:
        for i in keep:
            p = elems[i].parent
            paths[i] = paths[p] + ">" + sigs[i] if p >= 0 else sigs[i]
    struct_fps = _structure(seg, keep, path_hs, sigs, norm) if structure else [0] * len(keep)
    return PageFingerprints(
        elems=keep,
        depths=[depths[i] for i in keep],
        paths=[paths[i] for i in keep] if with_paths else [],
        tags=[elems[i].tag for i in keep],
        text_fps=text_fps,
        struct_fps=struct_fps,
        text_lens=text_lens,
        total_text=lens[-1] - 1 if norm else 0,
    )


_MASK = (1 << 64) - 1
_BASE = 0x100000001B3  # the 64-bit FNV prime: odd, so multiplication is a bijection mod 2**64
_BASE2 = 0x9E3779B97F4A7C15  # golden-ratio constant: keeps path and text parts from cancelling out
# Block texts are whitespace-folded by the segmentation, so they hold no newline: a page's blocks are
# normalised and hashed as one newline-joined text, with C-level passes over its UTF-8 instead of a regex
# per block (the regex scan alone cost more than the rest of fingerprinting). A newline bounds
# str.lower's one context rule (final sigma) exactly as a block boundary does.
_SEP = "\n"
_ASCII_DIGITS = bytes.maketrans(b"123456789", b"000000000")
_ASCII = bytes(range(128))


def _normalise_blocks(texts: list[str]) -> tuple[list[str], list[bytes]]:
    """normalise() of already whitespace-folded texts, as str and as UTF-8 (what hash64 hashes)."""
    if not texts:
        return [], []
    joined = _SEP.join(texts).lower()
    data = joined.encode("utf-8", "surrogatepass")
    if (
        joined.count(_SEP) != len(texts) - 1  # a text with a newline: not from the segmentation
        # Digits beyond ASCII (Arabic-Indic, fullwidth...) need the regex: look at the non-ASCII bytes.
        or (
            not joined.isascii()
            and _DIGIT.search(data.translate(None, _ASCII).decode("utf-8", "surrogatepass"))
        )
    ):
        norm = [_DIGIT.sub("0", t.lower()) for t in texts]
        return norm, [t.encode("utf-8", "surrogatepass") for t in norm]
    # Every digit becomes "0", then runs of "0" (all digits now) fold to one: the regex's r"\d+" -> "0".
    data = _fold_zeros(data.translate(_ASCII_DIGITS))
    return data.decode("utf-8", "surrogatepass").split(_SEP), data.split(b"\n")


def _fold_zeros(data: bytes) -> bytes:
    """Each run of b"0" to one b"0" (one split and join; repeated replace cost four times more)."""
    if b"00" not in data:
        return data
    parts = data.split(b"0")
    out = b"0".join([p for p in parts if p])
    if not out:
        return b"0"
    if not parts[0]:
        out = b"0" + out
    if not parts[-1]:
        out += b"0"
    return out


def _block_hashes(parts: list[bytes]) -> array[int]:
    """hash64 of every text: the 8-byte digests land in one buffer, read back as little-endian words."""
    out = array("Q", b"".join([blake2b(p, digest_size=8).digest() for p in parts]))
    if not _LITTLE:
        out.byteswap()
    return out


# Powers of _BASE mod 2**64, grown on demand (a pure table: never depends on page order).
_POWER_TABLE = [1]


def _powers(k: int) -> list[int]:
    table = _POWER_TABLE
    while len(table) <= k:
        table.append((table[-1] * _BASE) & _MASK)
    return table


# (tag, class, id) -> (signature, its hash). A pure function's memo, cleared when full, so the output
# never depends on what was seen before; one dict lookup per element instead of two cached calls.
_SIGNATURES: dict[tuple[str, str, str], tuple[str, int]] = {}
_SIGNATURES_MAX = 16384
_SIG_HASHES: dict[str, int] = {}


def _signature_entry(key: tuple[str, str, str]) -> tuple[str, int]:
    tag, cls, id_attr = key
    ident = f"{cls} {id_attr}".lower() if cls or id_attr else ""  # as blocks.Elem.ident
    sig = _elem_signature(tag, ident, id_attr)
    if len(_SIGNATURES) >= _SIGNATURES_MAX:
        _SIGNATURES.clear()
        _SIG_HASHES.clear()
    sh = _SIG_HASHES.get(sig)
    if sh is None:  # far fewer signatures than class lists: most new class lists reuse one
        sh = _SIG_HASHES[sig] = hash64(sig)
    entry = _SIGNATURES[key] = (sig, sh)
    return entry


def _structure(
    seg: Segmentation, keep: list[int], path_hs: list[int], sigs: list[str], norm: list[str]
) -> list[int]:
    elems = seg.elems
    heads = [e.tag in HEADINGS for e in elems]
    for i in range(len(elems) - 1, 0, -1):  # pre-order: children come after parents
        if heads[i]:
            heads[elems[i].parent] = True
    raw: list[int] = []
    counts: dict[int, int] = {}
    for i in keep:
        e = elems[i]
        words = sum(t.count(" ") + 1 for t in norm[e.first_block : e.end_block])
        if i and not heads[i] and words <= STRUCT_MAX_WORDS:
            fp = hash64(f"{path_hs[i]:x}\x1e" + ",".join(sigs[c] for c in e.children))
            counts[fp] = counts.get(fp, 0) + 1
        else:
            fp = 0
        raw.append(fp)
    # A structure repeated within one page is a list of like items (comments, teasers): leave those to text.
    return [fp if fp and counts[fp] == 1 else 0 for fp in raw]


def fingerprint(root: LexborNode, structure: bool = True) -> PageFingerprints:
    """Segment `root` like density does and fingerprint it (for callers without a segmentation)."""
    return fingerprint_segmentation(segment(root, float("inf")), structure, with_paths=True)
