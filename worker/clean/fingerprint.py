"""Subtree fingerprints for per-site template learning: one bottom-up pass over the DOM.

Every element whose subtree carries text gets two 64-bit fingerprints:

- text fingerprint: hash of (tag path, normalised subtree text). The tag path is the chain of tag names with
  stable id/class tokens from <html> down to the element, without positions, so the same navigation block on
  two pages of a site hashes equal even when it moved in the sibling order. Text is case-folded,
  whitespace-folded and every run of digits becomes "0", so counters and years do not break the match.
- structure fingerprint: hash of (tag path, child tag sequence). It recognises template blocks whose text
  changes ("Posted by X on <date>"), so it is only offered for small, unique, non-heading blocks (see
  `struct_ok`); plain paragraphs of the article share their structure across pages and must never match.

Hashing is blake2b with an 8-byte digest: deterministic across processes (Python's own str hash is salted),
in the standard library, and about as fast as xxhash for these short inputs once the per-node Python
overhead is counted (the walk, not the hash, dominates).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from hashlib import blake2b

from selectolax.lexbor import LexborNode

# Subtrees that never carry visible text of their own.
SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "-comment", "svg", "iframe", "head", "title"})
# Classes on <html>/<body> describe the page (post id, category, logged-in state), not the template.
PAGE_STATE_TAGS = frozenset({"html", "body"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Inline elements are parts of sentences and bylines ("Written by", "Posted in"): their text counts for the
# enclosing block, they get no fingerprint of their own (which also halves the work per page).
INLINE_TAGS = frozenset(
    {"a", "span", "b", "strong", "i", "em", "font", "small", "abbr", "sup", "sub", "u", "label", "time", "cite",
     "br", "img", "code", "q", "s", "strike", "mark", "wbr", "bdi", "bdo", "dfn", "kbd", "samp", "var", "big", "tt"}
)
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


def stable_token(token: str) -> bool:
    """Does a class/id token look hand-written (kept in the path) rather than generated (dropped)?"""
    return _CAMEL_HUMPS.search(token) is None and _STABLE_TOKEN.match(token.lower()) is not None


def signature(node: LexborNode) -> str:
    """Tag plus stable id/class tokens, e.g. 'div#sidebar.widget'. No positions."""
    tag = node.tag or ""
    if tag in PAGE_STATE_TAGS:
        return tag
    attrs = node.attributes
    sig = tag
    ident = attrs.get("id")
    if ident and stable_token(ident):
        sig += "#" + ident.lower()
    classes = attrs.get("class")
    if classes:
        kept = [t.lower() for t in classes.split() if stable_token(t)][:MAX_CLASS_TOKENS]
        if kept:
            sig += "." + ".".join(sorted(kept))
    return sig


def normalise(text: str) -> str:
    return _DIGIT.sub("0", " ".join(text.lower().split()))


def hash64(data: str) -> int:
    return int.from_bytes(blake2b(data.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "little")


@dataclass(slots=True)
class PageFingerprints:
    """Per text-carrying element, in document (pre-)order: parents come before their descendants."""

    nodes: list[LexborNode]
    depths: list[int]
    paths: list[str]
    tags: list[str]
    text_fps: list[int]
    struct_fps: list[int]  # 0 when the element may not be matched by structure alone
    text_lens: list[int]  # length of the normalised subtree text
    total_text: int

    def observed(self) -> set[int]:
        """Fingerprints this page contributes to its site's statistics (each once per page)."""
        out = set(self.text_fps)
        out.update(fp for fp in self.struct_fps if fp)
        out.discard(0)
        return out


def fingerprint(root: LexborNode, structure: bool = True) -> PageFingerprints:
    """Fingerprint every text-carrying element under `root` in one iterative bottom-up pass.

    `structure=False` skips the structure fingerprints (all 0) for callers that do not match by structure.

    An element's text is its own text nodes followed by its children's texts (not interleaved): the hash
    only has to be stable and to change when the text changes, and this keeps the walk to one visit per node.
    """
    nodes: list[LexborNode] = []
    depths: list[int] = []
    paths: list[str] = []
    parents: list[int] = []
    tags: list[str] = []
    heads: list[bool] = []  # the subtree holds a heading: never matched by structure alone
    own: list[list[str]] = []  # normalised own text parts, then children's texts appended on close
    kids: list[list[str]] = []  # child signatures
    texts: list[str] = []  # normalised subtree text, set when the element closes
    sigs: dict[tuple[str, str | None, str | None], str] = {}
    # Stack items: record index to close (int) or (node, parent record, depth) to open.
    stack: list[tuple[LexborNode, int, int] | int] = [(root, -1, 0)]
    pop, push = stack.pop, stack.append
    norm = normalise
    while stack:
        item = pop()
        if isinstance(item, int):
            parent = parents[item]
            text = texts[item] = " ".join(own[item])
            if parent >= 0:
                if text:
                    own[parent].append(text)
                if heads[item]:
                    heads[parent] = True
            continue
        node, parent, depth = item
        tag = node.tag or ""
        attrs = node.attributes
        key = (tag, attrs.get("id"), attrs.get("class"))
        sig = sigs.get(key)
        if sig is None:
            sig = sigs[key] = signature(node)
        rec = len(nodes)
        if parent >= 0:
            kids[parent].append(sig)  # inline children append their bare tag while the parent is open
            paths.append(paths[parent] + ">" + sig)
        else:
            paths.append(sig)
        nodes.append(node)
        depths.append(depth)
        tags.append(tag)
        parents.append(parent)
        heads.append(tag in HEADINGS)
        parts: list[str] = []
        own.append(parts)
        texts.append("")
        kids.append([])
        push(rec)
        children = []
        child_tags = kids[rec]
        for child in node.iter(include_text=True):
            if child.is_text_node:
                raw = child.text_content
                if raw and not raw.isspace():
                    parts.append(norm(raw))
                continue
            ctag = child.tag
            if ctag in INLINE_TAGS:
                # One C-level call for the whole inline subtree instead of visiting its nodes.
                raw = child.text(deep=True)
                if raw and not raw.isspace():
                    parts.append(norm(raw))
                child_tags.append(ctag)
            elif ctag and ctag not in SKIP_TAGS and child.is_element_node:
                children.append((child, rec, depth + 1))
        children.reverse()
        stack.extend(children)
    child_sigs = [",".join(k) for k in kids] if structure else []
    return _finish(nodes, depths, paths, tags, texts, child_sigs, heads, structure)


def _finish(
    nodes: list[LexborNode],
    depths: list[int],
    paths: list[str],
    tags: list[str],
    texts: list[str],
    child_sigs: list[str],
    heads: list[bool],
    structure: bool,
) -> PageFingerprints:
    keep = [i for i, t in enumerate(texts) if t]
    struct_raw: list[int] = []
    counts: dict[int, int] = {}
    for i in keep:
        text = texts[i]
        if structure and i and child_sigs[i] and not heads[i] and text.count(" ") < STRUCT_MAX_WORDS:
            fp = hash64(paths[i] + "\x1e" + child_sigs[i])
            counts[fp] = counts.get(fp, 0) + 1
        else:
            fp = 0
        struct_raw.append(fp)
    # A structure repeated within one page is a list of like items (comments, teasers): leave those to text.
    struct_fps = [fp if fp and counts[fp] == 1 else 0 for fp in struct_raw]
    text_fps = [hash64(paths[i] + "\x1f" + texts[i]) for i in keep]
    total = len(texts[0]) if texts else 0
    return PageFingerprints(
        nodes=[nodes[i] for i in keep],
        depths=[depths[i] for i in keep],
        paths=[paths[i] for i in keep],
        tags=[tags[i] for i in keep],
        text_fps=text_fps,
        struct_fps=struct_fps,
        text_lens=[len(texts[i]) for i in keep],
        total_text=total,
    )
