"""What an element's own class and id say: boilerplate, a comment section, a content container, one post,
a caption, a photo gallery.

Scoring (worker.clean.score), the post finder (worker.clean.posts), the caption kind (worker.clean.kinds)
and the region's post and gallery rules (worker.clean.region) read these flags for every element;
`ident_flags` computes them for a whole segmentation in one call. The functions below are the reference;
the C accelerator (worker/clean/_native.c, checked against them at import by worker/clean/native.py)
computes the same flags for ASCII class/id strings and asks `flags_of` for the others, whose lower-casing
is Unicode's.
"""

from __future__ import annotations

from functools import lru_cache

from worker.clean import heuristics as h
from worker.clean import native

# The bits of an element's flags.
BAD, COMMENT, GOOD, POST, CAPTION, GALLERY = 1, 2, 4, 8, 16, 32
# A class/id word's categories (_word_flags).
_MARKER, _COMMENT, _STRONG, _WEAK, _GOOD = 1, 2, 4, 8, 16


@lru_cache(maxsize=16384)
def _word_flags(word: str) -> int:
    """Categories of one class/id word, checked at its start and after each "-" in it.

    Memoised like classify_ident: pure, and words ("post", "row", "col-md-6") repeat across pages.
    """
    flags = 0
    start = 0
    while True:
        part = word[start:]
        if part in h.CONTENT_MARKERS or (part.startswith("post-") and part[5:].isdigit()):
            return _MARKER
        if part.startswith(h.COMMENT_TOKEN_PREFIXES):
            flags |= _COMMENT
        elif part.startswith(h.STRONG_BAD_PREFIXES):
            flags |= _STRONG
        elif part.startswith(h.WEAK_BAD_PREFIXES) or part.split("-", 1)[0] in h.BAD_EXACT:
            flags |= _WEAK
        elif part.startswith(h.GOOD_TOKEN_PREFIXES):
            flags |= _GOOD
        start = word.find("-", start) + 1
        if start == 0:
            return flags


@lru_cache(maxsize=8192)
def classify_ident(ident: str) -> tuple[bool, bool, bool]:
    """(boilerplate, comment section, content container) from a lower-cased "class id" string.

    Memoised: a pure function of its argument, so the cache cannot make output depend on page order,
    and pages of one site repeat the same class lists.
    """
    flags = 0
    for word in ident.replace("_", " ").split():
        flags |= _word_flags(word)
    if flags & _MARKER:
        return False, False, True
    good = bool(flags & _GOOD)
    if flags & _COMMENT:
        return False, True, good
    return bool(flags & _STRONG) or (bool(flags & _WEAK) and not good), False, good


@lru_cache(maxsize=16384)
def has_part(ident: str, prefixes: tuple[str, ...]) -> bool:
    """Does a class/id word start with one of `prefixes`, at its start or after a "-" or "_"?

    Memoised: a pure function, and a comment list repeats the same few class lists hundreds of times."""
    for word in ident.replace("_", "-").split():
        start = 0
        while True:
            if word.startswith(prefixes, start):
                return True
            start = word.find("-", start) + 1
            if start == 0:
                break
    return False


def is_post(ident: str) -> bool:
    """A lower-cased "class id" naming one post ("hentry", "post-123", "postbit")."""
    words = ident.replace("_", "-").split()
    return any(w in h.POST_MARKERS or (w.startswith("post-") and w[5:].isdigit()) for w in words) or (
        has_part(ident, h.POST_MARKER_PREFIXES)
    )


@lru_cache(maxsize=16384)
def flags_of(cls: str, id_attr: str) -> int:
    """The flags of an element with this class and id attribute (0 without either)."""
    if not (cls or id_attr):
        return 0
    ident = f"{cls} {id_attr}".lower()
    bad, comment, good = classify_ident(ident)
    flags = (BAD if bad else 0) | (COMMENT if comment else 0) | (GOOD if good else 0)
    return (
        flags
        | (POST if is_post(ident) else 0)
        | (CAPTION if has_part(ident, h.CAPTION_PREFIXES) else 0)
        | (GALLERY if has_part(ident, h.GALLERY_PREFIXES) else 0)
    )


def ident_flags_python(classes: list[str], ids: list[str]) -> bytes:
    """Per element, the flags of its class and id (the reference of the C code)."""
    return bytes(map(flags_of, classes, ids))


# The word tables the C code looks class and id words up in, in the order its configuration reads them.
TABLES: tuple[frozenset[str] | tuple[str, ...], ...] = (
    h.CONTENT_MARKERS,
    h.COMMENT_TOKEN_PREFIXES,
    h.STRONG_BAD_PREFIXES,
    h.WEAK_BAD_PREFIXES,
    h.BAD_EXACT,
    h.GOOD_TOKEN_PREFIXES,
    h.POST_MARKERS,
    h.POST_MARKER_PREFIXES,
    h.CAPTION_PREFIXES,
    h.GALLERY_PREFIXES,
)
ident_flags = native.ident_flagger(
    (BAD, COMMENT, GOOD, POST, CAPTION, GALLERY), TABLES, flags_of, ident_flags_python
)
