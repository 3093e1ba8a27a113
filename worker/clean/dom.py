"""selectolax (lexbor) parsing. (The title is the metadata's: worker.clean.meta.)

Nothing is taken out of the tree: the segmentation (worker.clean.segment) steps over what is never text
and over hidden elements, which costs it nothing extra, where finding them first cost passes over the
whole tree.

Markup that swallows the page: an element whose text is raw (<title>, <textarea>, <script>, <style>,
<xmp>, <iframe>, <noembed>, <noframes>) or a comment that is never closed runs to the end of the file
under the HTML5 rules lexbor follows, and so do today's browsers: the page renders blank, and its text is
lost to us. The parsers of the browsers such pages were written for (Internet Explorer, Gecko before its
HTML5 parser) recovered: the element ended where its text meets the first tag, a comment at its first
`>`. `unswallowed` finds the swallowing on the parsed tree (the last node of the head or of the document
is the raw text or comment, and it holds the rest of the file) and rewrites the markup that way; the
caller parses the rewrite. On a well-formed page it costs two walks down the last children (a few
microseconds); it rewrites nothing on any page of the shared sets.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import native

_SPACE = re.compile(r"\s+")
# Elements whose content lexbor reads as text up to their own end tag (RCDATA, RAWTEXT, script data).
RAW_TEXT_TAGS = frozenset({"title", "textarea", "script", "style", "xmp", "iframe", "noembed", "noframes"})
# Characters of the swallowed text's end that must match the file's end: the swallowing ran to EOF.
_TAIL_CHARS = 16
_TAIL_WINDOW = 4096  # trailing whitespace longer than this hides a swallowing (never seen)
# Rewrites of one page at most: each can reveal another swallowing element further on.
MAX_RECOVERIES = 4
_TAG_START = re.compile(r"<[A-Za-z/!?]")


def fold(text: str) -> str:
    """Collapse every whitespace run to one space and trim, as a browser renders inline text."""
    return _SPACE.sub(" ", text).strip()


def utf8_python(text: str) -> bytes:
    """A page's UTF-8 (what lexbor reads); raises UnicodeEncodeError on a lone surrogate."""
    return text.encode("utf-8")


def parse(text: str | bytes) -> LexborHTMLParser:
    """Parse a page; bytes must be UTF-8 (lexbor's own encoding, so nothing is re-encoded)."""
    if isinstance(text, bytes):
        return LexborHTMLParser(text)
    try:
        return LexborHTMLParser(text)
    except UnicodeEncodeError:
        # lexbor wants UTF-8; lone surrogates (surrogateescape decoding) cannot be encoded: replace them.
        return LexborHTMLParser(text.encode("utf-8", "replace").decode("utf-8"))


def parse_page(markup: str, encoded: bytes | None = None) -> tuple[LexborHTMLParser, int]:
    """Parse a page (its UTF-8 `encoded` when given, without the text of its head's scripts and styles:
    head_unread), recovering markup that swallows the rest of the file (see the module docstring); also how
    many swallowing elements were recovered."""
    tree = parse(markup if encoded is None else head_unread(encoded))
    recovered = 0
    while recovered < MAX_RECOVERIES:
        fixed = unswallowed(tree, markup)
        if fixed is None:
            break
        markup, recovered = fixed, recovered + 1
        tree = parse(markup)
    return tree, recovered


def unswallowed(tree: LexborHTMLParser, markup: str) -> str | None:
    """`markup` rewritten the way pre-HTML5 browsers read it when an unclosed raw-text element or comment
    swallows the rest of the file in `tree` (its parse); None when nothing does."""
    for part in (tree.head, tree.root):
        if part is None:
            continue
        leaf = _last_leaf(part)
        parent = leaf.parent
        if leaf.tag == "-comment":
            swallowed, opener = leaf.comment_content or "", "<!--"
        elif leaf.tag == "-text" and parent is not None and parent.tag in RAW_TEXT_TAGS:
            swallowed, opener = leaf.text_content or "", "<" + (parent.tag or "")
        else:
            continue
        # Bounded copies: a page's last script can be long, and most end with one.
        tail = swallowed[-_TAIL_WINDOW:].rstrip()[-_TAIL_CHARS:]
        if not tail or not markup[-_TAIL_WINDOW:].rstrip().endswith(tail) or "<" not in swallowed:
            continue  # closed before the end of the file, or no markup in it
        fixed = _recover(markup, opener, len(swallowed))
        if fixed is not None:
            return fixed
    return None


def _last_leaf(node: LexborNode) -> LexborNode:
    child = node.last_child
    while child is not None:
        node, child = child, child.last_child
    return node


def _recover(markup: str, opener: str, swallowed: int) -> str | None:
    """Close the element (or comment) opened by `opener` whose content, `swallowed` characters as parsed,
    runs to the end of `markup`: before the first tag in it (at its first `>`, for a comment)."""
    lower = markup.lower()  # only on a page that was swallowed
    end = len(markup)
    closer = "-->" if opener == "<!--" else "</" + opener[1:]
    start = lower.rfind(closer) + 1  # the swallowing opener comes after the last closer
    # Of the openers after it, the one whose content's length is closest to what the parser saw.
    best: tuple[int, int] | None = None
    for found in re.finditer(re.escape(opener) + (r"" if opener == "<!--" else r"(?=[\s/>])"), lower[start:]):
        at = start + found.start()
        if opener == "<!--":
            content = at + 4
        else:
            gt = markup.find(">", at)
            if gt < 0:
                continue
            content = gt + 1
        off = abs((end - content) - swallowed)
        if best is None or off < best[0]:
            best = (off, at if opener == "<!--" else content)
    if best is None:
        return None
    at = best[1]
    if opener == "<!--":  # "<!-" then not "-": a bogus comment, which ends at the first ">"
        return markup[:at] + "<!- " + markup[at + 4 :]
    tag = _TAG_START.search(markup, at)
    if tag is None:
        return None
    return markup[: tag.start()] + closer + ">" + markup[tag.start() :]


# In C (worker/clean/_native.c: runs of ASCII four code units a step), once native.py has checked it
# against str.encode; else str.encode.
utf8 = native.utf8_encoder(utf8_python)

# The tokens a head holds (HTML's tokenizer and its tree builder's "initial" to "after head" modes): what
# head_unread_python reads before the first other token, which it copies as it stands with all that follows.
_HTML_SPACE = b"\t\n\x0c\r "
_TAG_NAME_END = _HTML_SPACE + b"/>"
_HEAD_TAGS = frozenset({b"meta", b"link", b"base", b"basefont", b"bgsound", b"html", b"head"})
_RAW_HEAD_TAGS = frozenset({b"title", b"script", b"style"})
# A head's <noscript> holds these (HTML's "in head noscript" mode); any other token ends the scan.
_NOSCRIPT_TAGS = frozenset({b"link", b"meta", b"basefont", b"bgsound", b"style"})
# str.isspace's ASCII characters (str.rstrip's whitespace: unswallowed's)
_PY_ASCII_SPACE = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "
_SPACE_BYTES = frozenset(bytes([c]) for c in _HTML_SPACE)


def head_unread_python(markup: bytes) -> bytes:
    """`markup` (UTF-8) without the text of its head's scripts and styles and without the head's <link>s
    but the canonical one, which nothing reads (the walk and the metadata read the body; the head's JSON-LD,
    its title and its <meta>s stay): lexbor tokenised the texts at ~13 instructions a byte, 13 KB a page
    on the bench's pages, ~2% of a page's cleaning, and the links' 1.7 KB at ~40. A <link> goes only
    before </head> and with whitespace after it (a text node of the head then ends the head as before:
    unswallowed reads its last node). Only the
    elements before the head's first other token (<template>, <body>, text; in a <noscript>, any but
    <link>, <meta> and <style>, which the parser, run without scripting, reads as a head's) go: past it a
    script may sit in the body, whose text (deep text of an element, the visible text) is read. A script
    whose text holds "<!--" stops the scan (the tokenizer's escaped states decide where such a script
    ends); one whose start tag holds "ld+json" or a character reference ("ld&#x2B;json") is JSON-LD and
    stays; a text whose last character is the page's last one stays (unswallowed compares the two: a
    swallowing script that ends the file); `markup` itself when nothing goes."""
    n, i = len(markup), 0
    last = _last_unspaced(markup)
    if last is None or last >= 0x80:
        return markup
    pieces: list[bytes] = []
    copied, in_head = 0, True  # before </head> (after it a <link> still goes to the head, the space not)
    noscript = False  # in a <noscript> of the head
    while i < n:
        if markup[i] in _HTML_SPACE:
            i += 1
            continue
        if markup[i] != 0x3C:  # "<"
            break
        if markup.startswith(b"<!--", i):
            i = _comment_end(markup, i + 4)
            if i < 0:
                break
            continue
        if markup[i + 1 : i + 9].lower() == b"!doctype":
            i = markup.find(b">", i) + 1
            if i <= 0:
                break
            continue
        end_tag = markup.startswith(b"</", i)
        k = start = i + (2 if end_tag else 1)
        while k < n and markup[k] not in _TAG_NAME_END:
            k += 1
        name = markup[start:k].lower()
        if noscript and name not in (_NOSCRIPT_TAGS if not end_tag else (b"noscript",)):
            break
        if name == b"noscript":  # the parser runs without scripting: its content is the head's tokens
            t = _tag_end(markup, k) if in_head and noscript == end_tag else -1
            if t < 0:
                break
            noscript, i = not end_tag, t
            continue
        if end_tag or name in _HEAD_TAGS:
            t = _tag_end(markup, k) if not end_tag or name == b"head" else -1
            if t < 0:
                break
            tag, in_head = markup[i:t], in_head and not end_tag
            if name == b"link" and in_head and markup[t : t + 1] in _SPACE_BYTES and _unread_link(tag):
                pieces.append(markup[copied:i])
                copied = t
            i = t
            continue
        if name not in _RAW_HEAD_TAGS:
            break
        t = _tag_end(markup, k)
        e = _raw_text_end(markup, t, name) if t >= 0 else -1
        after = _tag_end(markup, e + 2 + len(name)) if e >= 0 else -1
        if after < 0:
            break
        text = markup[t:e]
        if name == b"script" and b"<!--" in text:
            break
        json_ld = name == b"script" and (b"ld+json" in markup[i:t].lower() or b"&" in markup[i:t])
        tail = _last_unspaced(text)
        if name != b"title" and text and not json_ld and (tail is None or (tail < 0x80 and tail != last)):
            pieces.append(markup[copied:t])
            copied = e
        i = after
    if not pieces:
        return markup
    pieces.append(markup[copied:])
    return b"".join(pieces)


def _unread_link(tag: bytes) -> bool:
    """A <link> the metadata does not read: only the canonical one is (rel holding "canonical" in any case,
    which a character reference could also spell)."""
    return b"&" not in tag and b"canonical" not in tag.lower()


def _last_unspaced(data: bytes) -> int | None:
    """The last byte that is no ASCII whitespace of str.isspace (a byte >= 0x80 may be part of another)."""
    stripped = data.rstrip(_PY_ASCII_SPACE)
    return stripped[-1] if stripped else None


def _comment_end(markup: bytes, i: int) -> int:
    """Past the comment whose text starts at markup[i] ("<!-->" and "<!--->" end at once; then the first
    "-->" or "--!>"); -1 when it runs to the end."""
    if markup.startswith(b">", i):
        return i + 1
    if markup.startswith(b"->", i):
        return i + 2
    ends = [k + len(closer) for closer in (b"-->", b"--!>") if (k := markup.find(closer, i)) >= 0]
    return min(ends) if ends else -1


def _tag_end(markup: bytes, i: int) -> int:
    """Past the '>' of the tag whose name ends at markup[i], its attributes read as the tokenizer reads
    them (a quoted value may hold '>'); -1 when the input ends first."""
    n = len(markup)
    while True:
        while i < n and (markup[i] in _HTML_SPACE or markup[i] == 0x2F):
            i += 1
        if i >= n:
            return -1
        if markup[i] == 0x3E:
            return i + 1
        i += 1  # the attribute's name (a leading "=" is part of it)
        while i < n and markup[i] not in _TAG_NAME_END and markup[i] != 0x3D:
            i += 1
        while i < n and markup[i] in _HTML_SPACE:
            i += 1
        if i < n and markup[i] == 0x3D:
            i += 1
            while i < n and markup[i] in _HTML_SPACE:
                i += 1
            if i >= n:
                return -1
            if markup[i] in b"\"'":
                i = markup.find(markup[i : i + 1], i + 1) + 1
                if i <= 0:
                    return -1
            elif markup[i] == 0x3E:
                return i + 1
            else:
                while i < n and markup[i] not in _HTML_SPACE and markup[i] != 0x3E:
                    i += 1


def _raw_text_end(markup: bytes, i: int, name: bytes) -> int:
    """Where the raw text from markup[i] ends: its "</name" (any ASCII case) followed by whitespace, "/" or
    ">"; -1 when none does."""
    n, m = len(markup), len(name) + 2
    while (i := markup.find(b"<", i)) >= 0:
        if i + m < n and markup[i + 1 : i + m].lower() == b"/" + name and markup[i + m] in _TAG_NAME_END:
            return i
        i += 1
    return -1


# In C (worker/clean/_native.c), once native.py has checked it against head_unread_python on canaries.
head_unread = native.head_unread_stripper(head_unread_python)
