"""Bytes to text the way a browser would, and which rule decided.

Order: byte-order mark, the NUL-byte pattern of UTF-16/32 without a BOM, the caller's declared charset
(HTTP Content-Type), a <meta>/XML declaration in the first bytes, strict UTF-8, charset-normalizer
detection, then UTF-8 with replacement characters. The BOM comes first because browsers (WHATWG "decode")
let it override everything, HTTP included. The NUL pattern comes next because no declaration can be true
of such bytes: markup in UTF-16 has a NUL in every other byte, which no 8-bit or UTF-8 page has, and a
`<meta charset=utf-8>` that is itself written in UTF-16 is a lie (strict UTF-8 accepts NULs, so the
markup would come out as text).
Labels go through a WHATWG-style table: ISO-8859-1, ASCII and friends mean windows-1252, GB2312 means
GB18030, and so on. Unknown or non-text labels are skipped. Nothing here raises on any input.
"""

from __future__ import annotations

import codecs
import functools
import re
from dataclasses import dataclass
from typing import Literal

Source = Literal["declared", "meta"]

# How far into the document a <meta charset> is looked for (WHATWG's prescan reads 1024 bytes;
# real pages put long <script>/<link> runs first, so we look further).
META_SCAN_BYTES = 4096
# A declared multi-byte charset that fails strict decoding is still trusted when the damage is this
# small (a truncated body or a stray byte), rather than falling back to guessing.
LOSSY_MAX_SHARE = 0.001
LOSSY_MIN_ALLOWED = 4
# charset-normalizer is slow on big inputs and its verdict settles early; it sees this prefix.
DETECT_SAMPLE_BYTES = 64 * 1024

_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE, whose BOM is its first two bytes
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# How much of the body the NUL-pattern sniff reads: markup opens every page, and 512 code units of it
# leave no doubt.
NUL_SNIFF_BYTES = 2048
# The share of code units whose high byte(s) are NUL for the sniff to call it UTF-16/32 (ASCII markup
# has them all NUL; a CJK page's first KB is still mostly tags), and the most of the other positions that
# may be NUL (U+xx00 characters are rare; real 8-bit and UTF-8 pages have no NUL at all).
NUL_SHARE_MIN = 0.4
NUL_SHARE_OTHER_MAX = 0.05

# First bytes of formats a crawler fetches that are never HTML (a document, an image, an archive, a gzip
# body the fetcher did not inflate, a font, media); a body opening with one is refused as `not_html`,
# whatever its Content-Type says: its bytes decoded as text are noise.
BINARY_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "PDF"),
    (b"\x89PNG", "PNG"),
    (b"GIF8", "GIF"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"PK\x03\x04", "ZIP"),
    (b"\x1f\x8b", "gzip"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"\xd0\xcf\x11\xe0", "OLE (Office)"),
    (b"wOFF", "WOFF"),
    (b"wOF2", "WOFF2"),
    (b"OggS", "Ogg"),
    (b"\x1a\x45\xdf\xa3", "WebM"),
    (b"\x7fELF", "ELF"),
)
# Where a body has no signature: the share of the first BINARY_SNIFF_CHARS decoded characters that are
# C0 controls no text holds (WHATWG MIME sniffing's "binary data bytes": all but tab, LF, FF, CR and ESC)
# above which the page is binary data (`not_html`), once there are BINARY_MIN_CONTROLS of them (a short
# fragment with a stray control is not binary). No page of the shared sets has one in its first 4 KB
# (3,389 pages; 0.011% at most over a whole page); random or compressed bytes have ~10%. WHATWG's sniff
# reads 1,445 bytes; 1,024 characters cost ~1 us a page.
BINARY_SNIFF_CHARS = 1024
BINARY_SHARE_MAX = 0.01
BINARY_MIN_CONTROLS = 8
_BINARY_BYTES = bytes((*range(0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)))

# WHATWG label -> Python codec, for labels Python maps differently (browsers decode ISO-8859-1 and
# ASCII as windows-1252, GB2312/GBK as GB18030, Shift_JIS as Microsoft's cp932, EUC-KR as cp949).
_LABEL_OVERRIDES = {
    "iso8859-1": "cp1252",
    "ascii": "cp1252",
    "iso8859-9": "cp1254",
    "tis-620": "cp874",
    "iso8859-11": "cp874",
    "windows-874": "cp874",
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "shift_jis": "cp932",
    "x-sjis": "cp932",
    "windows-31j": "cp932",
    "euc_kr": "cp949",
    "big5": "big5hkscs",
    "iso-8859-8-i": "iso8859-8",
    "x-mac-roman": "mac-roman",
    "x-mac-cyrillic": "mac-cyrillic",
    "x-user-defined": "cp1252",
    # detector names for the same families
    "shift_jis_2004": "cp932",
    "shift_jisx0213": "cp932",
    "euc_jis_2004": "euc_jp",
    "euc_jisx0213": "euc_jp",
}

# Python codecs that correspond to a WHATWG encoding; anything else (utf-7, rot13, base64, idna,
# unicode_escape...) is refused because a page must not pick a non-web or bytes-to-bytes codec.
_ALLOWED = frozenset(
    {
        "utf-8", "utf-16", "utf-16-le", "utf-16-be", "cp866", "koi8-r", "koi8-u", "mac-roman",
        "mac-cyrillic", "cp874", "gb18030", "big5hkscs", "euc_jp", "iso2022_jp", "cp932", "cp949",
        *(f"cp{n}" for n in range(1250, 1259)),
        *(f"iso8859-{n}" for n in (2, 3, 4, 5, 6, 7, 8, 10, 13, 14, 15, 16)),
    }
)  # fmt: skip

# Single-byte Latin code pages detectors confuse with each other on short or mostly-ASCII text;
# windows-1252 is by far the most common on the web, so it wins when it decodes the bytes cleanly.
_LATIN_SINGLE_BYTE = frozenset(
    {
        "latin_1", "iso8859_1", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_9", "iso8859_10",
        "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16", "cp1250", "cp1254", "cp1257",
        "cp1258", "cp437", "cp775", "cp850", "cp852", "cp857", "cp858", "cp860", "cp861", "cp863",
        "cp865", "mac_roman", "mac_latin2", "mac_iceland", "mac_turkish",
    }
)  # fmt: skip


@functools.cache
def _declarations() -> tuple[re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes]]:
    """The patterns of a Content-Type's charset, a <meta> charset and an XML declaration, compiled on first
    use: a page given as text (`clean` reading JSONL) needs none (2 million instructions of start-up).

    Every repetition is possessive, and a <meta> scan stops at the next `<`: no input makes these backtrack,
    so each runs in time linear in what it reads (`charset=` followed by 64 KB of spaces was quadratic)."""
    return (
        re.compile(rb"charset\s*+=\s*+[\"']?+\s*+([A-Za-z0-9_.:\-]++)", re.IGNORECASE),
        re.compile(rb"<meta\b[^<>]*?charset\s*+=\s*+[\"']?+\s*+([A-Za-z0-9_.:\-]++)", re.IGNORECASE),
        re.compile(rb"\s*+<\?xml[^<>]*?encoding\s*+=\s*+[\"']([A-Za-z0-9_.:\-]++)", re.IGNORECASE),
    )


_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml"})


def _c1_passthrough(exc: UnicodeError) -> tuple[str, int]:
    # windows-1252 leaves five bytes undefined; browsers map them to the C1 control of the same
    # value instead of failing, so the page still decodes as the charset it declared.
    if isinstance(exc, UnicodeDecodeError):
        bad = exc.object[exc.start : exc.end]
        return "".join(chr(b) for b in bad), exc.end
    raise exc


_C1 = "cleanstream-c1"
codecs.register_error(_C1, _c1_passthrough)


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str | None
    encoding: str | None
    rule: str
    # The body itself when it is exactly the text's UTF-8 (a strict UTF-8 decode): what lexbor reads, so
    # the text is not encoded again.
    utf8: bytes | None = None


def canonical_codec(label: str | bytes | None, source: Source = "declared") -> str | None:
    """The Python codec a browser would use for `label`, or None when the label is unknown/unsafe."""
    if label is None:
        return None
    if isinstance(label, bytes):
        label = label.decode("ascii", "replace")
    label = label.strip().strip("\"'").strip().lower()
    if not label or len(label) > 40:
        return None
    name = _LABEL_OVERRIDES.get(label)
    if name is None:
        try:
            name = codecs.lookup(label).name
        except (LookupError, ValueError):
            return None
        name = _LABEL_OVERRIDES.get(name, name)
    if name not in _ALLOWED:
        return None
    # WHATWG: a <meta> that claims UTF-16 was read as ASCII, so it cannot be UTF-16; use UTF-8.
    if source == "meta" and name.startswith("utf-16"):
        return "utf-8"
    return name


def charset_from_content_type(declared: str | None) -> str | None:
    """The charset label in a Content-Type ("text/html; charset=x") or a bare label ("x")."""
    if not declared:
        return None
    raw = declared.encode("latin-1", "replace")
    m = _declarations()[0].search(raw)
    if m:
        return m.group(1).decode("ascii")
    if b"/" in raw or b";" in raw or b"=" in raw:
        return None  # a content type without a charset parameter
    return declared.strip()


def sniff_meta(head: bytes) -> str | None:
    """Charset label from an XML declaration or <meta> in the document head, if any."""
    _, meta, xml_declaration = _declarations()
    m = xml_declaration.match(head) or meta.search(head)
    return m.group(1).decode("ascii") if m else None


def is_html_content_type(ct: str | None) -> bool:
    """Whether a Content-Type is worth cleaning. Missing means unknown: let the content decide."""
    if ct is None or not ct.strip():
        return True
    return ct.split(";", 1)[0].strip().lower() in _HTML_TYPES


def _errors_for(codec: str) -> str:
    return _C1 if codec == "cp1252" else "strict"


def _try(body: bytes, codec: str, lossy: bool) -> str | None:
    """Decode strictly; with `lossy`, also accept a decode with a few replacement characters."""
    try:
        text = body.decode(codec, _errors_for(codec))
    except (UnicodeDecodeError, LookupError):
        text = None
    if text is not None:
        # UTF-16/32 decode almost any bytes of the right length; a misdeclared ASCII page shows no markup.
        return text if not codec.startswith(("utf-16", "utf-32")) or "<" in text else None
    if not lossy:
        return None
    try:
        text = body.decode(codec, "replace")
    except LookupError:
        return None
    allowed = max(LOSSY_MIN_ALLOWED, int(len(text) * LOSSY_MAX_SHARE))
    if codec.startswith(("utf-16", "utf-32")) and "<" not in text:
        return None
    return text if text.count("\ufffd") <= allowed else None


def _cp1252_clean(body: bytes) -> bool:
    try:
        body.decode("cp1252")
    except UnicodeDecodeError:
        return False
    return True


def _detect(body: bytes) -> str | None:
    # Imported here, not with the module: only bytes without a declared or sniffed charset come this far,
    # and a run over str pages (JSONL, the stream) never does; the import cost one page's `clean` ~6 ms
    # (python -X importtime).
    import charset_normalizer

    try:
        best = charset_normalizer.from_bytes(body[:DETECT_SAMPLE_BYTES]).best()
    except Exception:  # a third-party detector must not take the page down with it
        return None
    if best is None:
        return None
    guess: str = best.encoding
    codec = canonical_codec(guess)
    # A Latin or DOS code page, a codec no browser offers, or UTF-8 (whose strict decode already
    # failed) are the detector's weak guesses; windows-1252 is the web's legacy default and wins
    # whenever it decodes the bytes without touching its undefined positions.
    weak = guess in _LATIN_SINGLE_BYTE or codec is None or codec == "utf-8"
    if weak and _cp1252_clean(body):
        return "cp1252"
    return codec


def sniff_wide(body: bytes) -> str | None:
    """UTF-16 or UTF-32 (and which byte order) from where the NUL bytes are, or None.

    Markup is ASCII, so in UTF-32 three bytes of four are NUL (two for other BMP characters) and in
    UTF-16 one of two; the position of the non-NUL byte gives the byte order."""
    sample = body[: NUL_SNIFF_BYTES - NUL_SNIFF_BYTES % 4]
    if sample.count(0) < len(sample) * NUL_SHARE_MIN / 2 or len(sample) < 8:
        return None
    quads = len(sample) // 4
    z = [sample[i::4].count(0) / quads for i in range(4)]
    if z[2] >= 1 - NUL_SHARE_OTHER_MAX and z[3] >= 1 - NUL_SHARE_OTHER_MAX and z[0] <= NUL_SHARE_OTHER_MAX:
        return "utf-32-le"
    if z[0] >= 1 - NUL_SHARE_OTHER_MAX and z[1] >= 1 - NUL_SHARE_OTHER_MAX and z[3] <= NUL_SHARE_OTHER_MAX:
        return "utf-32-be"
    even, odd = (z[0] + z[2]) / 2, (z[1] + z[3]) / 2
    if odd >= NUL_SHARE_MIN and even <= NUL_SHARE_OTHER_MAX:
        return "utf-16-le"
    if even >= NUL_SHARE_MIN and odd <= NUL_SHARE_OTHER_MAX:
        return "utf-16-be"
    return None


def not_html(content_type: str | None, body: bytes | None) -> str | None:
    """Why a page is another format and not HTML, from its Content-Type or its body's first bytes
    (BINARY_MAGIC; leading whitespace skipped), or None."""
    if not is_html_content_type(content_type):
        assert content_type is not None
        return f"content type {content_type.split(';', 1)[0].strip().lower()}"
    head = body[:64].lstrip() if body is not None else b""
    name = next((name for magic, name in BINARY_MAGIC if head.startswith(magic)), None)
    return f"body starts with the signature of a {name} file" if name else None


def binary_data(text: str) -> str | None:
    """Why `text` is binary data and not a page (its first BINARY_SNIFF_CHARS characters hold more than
    BINARY_SHARE_MAX and at least BINARY_MIN_CONTROLS binary data controls), or None."""
    head = text[:BINARY_SNIFF_CHARS]
    # UTF-8 writes every control as its own byte and none inside another character's bytes; deleting
    # them from the bytes runs in C (a regex over the characters cost ~20 us a page)
    raw = head.encode("utf-8", "surrogatepass")
    controls = len(raw) - len(raw.translate(None, _BINARY_BYTES))
    if controls < BINARY_MIN_CONTROLS or controls <= BINARY_SHARE_MAX * len(head):
        return None
    return f"binary data: {controls} control characters in the first {len(head)}"


def decode_html(body: bytes, declared: str | None = None) -> Decoded:
    """Decode a fetched HTML body. Never raises; `text` is always set for bytes input."""
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return Decoded(body[len(bom) :].decode(codec, "replace"), codec, "bom")
    wide = sniff_wide(body)
    if wide is not None:
        text = _try(body, wide, lossy=True)
        if text is not None:
            return Decoded(text, wide, "nul-pattern")

    candidates: list[tuple[str, str]] = []
    for rule, maybe in (
        ("declared", canonical_codec(charset_from_content_type(declared), "declared")),
        ("meta", canonical_codec(sniff_meta(body[:META_SCAN_BYTES]), "meta")),
    ):
        if maybe is not None and all(maybe != c for _, c in candidates):
            candidates.append((rule, maybe))
    # Strict first for every declaration, so a wrong HTTP header loses to a right <meta>; only then
    # accept a declaration with a few broken bytes (truncated body, one stray byte).
    for lossy in (False, True):
        for rule, codec in candidates:
            text = _try(body, codec, lossy)
            if text is not None:
                same = body if codec == "utf-8" and not lossy else None
                return Decoded(text, codec, rule + ("-lossy" if lossy else ""), same)
        if not lossy and all(c != "utf-8" for _, c in candidates):
            try:
                return Decoded(body.decode("utf-8"), "utf-8", "utf8", body)
            except UnicodeDecodeError:
                pass

    detected = _detect(body)
    if detected is not None:
        try:
            return Decoded(body.decode(detected, "replace"), detected, "detected")
        except LookupError:
            pass
    return Decoded(body.decode("utf-8", "replace"), "utf-8", "utf8-replace")
