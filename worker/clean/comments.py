"""Reader comments, kept apart from the article: found on the segmentation the article was extracted from.

1. Where: the outermost elements whose class/id names a comment section (WordPress "commentlist",
   "comment-body", Blogger "comments-block", Disqus "disqus_thread", "discussion", "responses"...; the
   marks worker.clean.score computes), outside the article's target element, and the flat tail that
   follows a "12 Comments" heading inside the target (worker.clean.classify.comment_tail).
2. What is not a comment there: the reply form (its labels and notes), headings that count or invite
   comments, controls ("Reply", "Report", "Like") and link lists (pagination, "older comments").
3. One comment each: a comment starts at each element of one signature (tag and first class, digits
   ignored) and runs to the next one (Blogger's flat <dt>/<dd> pairs), and replies nested in a comment
   under the same signature are comments of their own. The signature is the one the section's
   comment-marked elements repeat most often; without any, the one some element's children repeat most.
4. Author and date where marked (worker.clean.repeats.header_facts): the comment's block in an element
   named like an author ("comment-author", "fn", "vcard", "username"), written "X says:", or starting
   with a name the page marks inline (repeats.Bylines); the first day written in a short block of it.

Every table is in worker.clean.heuristics ("comments"); tuned on dragnet's pages with comments
(`eval --comments`).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from datetime import date

from worker.clean import heuristics as h
from worker.clean.idents import has_part
from worker.clean.repeats import Bylines, header_facts, item_ranges, most_repeated, signatures_of
from worker.clean.score import Scores
from worker.clean.segment import Segmentation
from worker.models import Comment


@dataclass(slots=True)
class Section:
    """One comment section: its element and the blocks that are comment text, in document order."""

    root: int
    blocks: list[int]
    marked: list[int]  # elements inside the root whose own class/id names a comment part


def find_comments(
    seg: Segmentation,
    scores: Scores,
    target: int,
    kept: list[int],
    tail: list[int],
    today: date,
    bylines: Bylines,
) -> list[Comment]:
    """The page's reader comments, in document order; none of the article's blocks (`kept`) is in one."""
    in_text = set(kept)
    out: list[Comment] = []
    for section in sections(seg, scores, target, in_text, tail):
        out.extend(split(seg, section, today, bylines))
    return out


def sections(
    seg: Segmentation, scores: Scores, target: int, in_text: set[int], tail: list[int]
) -> list[Section]:
    """The comment sections: marked ones outside the target, then the target's flat comment tail."""
    firsts, ends = seg.firsts, seg.ends
    out: list[Section] = []
    end = -1
    marks = scores.comment_marked
    for k, e in enumerate(marks):
        if firsts[e] < end:
            continue  # inside a section already taken
        if firsts[e] <= firsts[target] and ends[target] <= ends[e]:
            continue  # holds the article (a "comments-open" wrapper): its inner sections are looked at
        blocks = _comment_blocks(seg, scores, e, range(firsts[e], ends[e]), in_text)
        end = ends[e]
        if blocks:
            # marks are in document order: the ones inside e follow it up to its subtree's end (a slice, not
            # a scan of every later mark: sibling sections by the thousand made that quadratic)
            out.append(Section(e, blocks, marks[k + 1 : bisect_left(marks, seg.skips[e], k + 1)]))
    if tail:
        covered = {b for s in out for b in s.blocks}
        blocks = _comment_blocks(seg, scores, target, [b for b in tail if b not in covered], in_text)
        if blocks:
            out.append(Section(target, blocks, []))
        out.sort(key=lambda s: s.blocks[0])
    return out


def _comment_blocks(
    seg: Segmentation, scores: Scores, root: int, blocks: range | list[int], in_text: set[int]
) -> list[int]:
    """The blocks of a section that are comment text (not the form, the controls, the counts)."""
    texts, owners, kinds = seg.texts, seg.owners, seg.kinds
    link_density = scores.link_density
    form = _form_elements(seg, root)
    out = []
    for b in blocks:
        if b in in_text or owners[b] in form:
            continue
        text = texts[b]
        if len(text) <= h.COMMENT_CONTROL_MAX_CHARS and h.COMMENT_CONTROL.match(text):
            continue
        if len(text) <= h.COMMENT_COUNT_MAX_CHARS and (
            h.COMMENT_COUNT.match(text)
            or (
                (kinds[b] == "heading" or len(text) <= h.COMMENT_HEADING_MAX_CHARS)
                and h.COMMENT_HEADING.match(text)
            )
        ):
            continue  # "12 Comments", "Leave a Reply", "Post a Comment"
        if (
            link_density[b] > h.COMMENT_MAX_LINK_DENSITY
            and seg.words[b] > h.COMMENT_LINK_LIST_WORDS
            and not _has_digit(text)  # a permalink's date ("March 3, 2011 at 4:00 PM") is no link list
        ):
            continue
        out.append(b)
    return out


def _has_digit(text: str) -> bool:
    return any(d in text for d in "0123456789")


def _form_elements(seg: Segmentation, root: int) -> set[int]:
    """Elements of `root`'s subtree inside a reply form ("Leave a Reply", its labels and notes)."""
    form: set[int] = set()
    skips, tags = seg.skips, seg.tags
    e = root
    end = skips[root]
    while e < end:
        if tags[e] == "form" or _is_form_ident(seg.ident(e)):
            form.update(range(e, skips[e]))
            e = skips[e]
        else:
            e += 1
    return form


def _is_form_ident(ident: str) -> bool:
    return bool(ident) and has_part(ident, h.COMMENT_FORM_PREFIXES)


def _marked_items(seg: Segmentation, section: Section) -> tuple[int, str] | None:
    """The signature that the section's comment-marked elements repeat most often (the first of equally
    frequent ones in document order: a comment's wrapper comes before its marked parts), with its count;
    None when nothing inside is marked (then the structure decides: repeats.most_repeated). Marks, not
    structure, where there are any: one comment of several paragraphs repeats <p> more than the list
    repeats its comments."""
    firsts, ends = seg.firsts, seg.ends
    counts: dict[str, int] = {}
    for e, sig in zip(section.marked, signatures_of(seg, section.marked), strict=True):
        if ends[e] > firsts[e]:
            counts[sig] = counts.get(sig, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    return best, next(sig for sig, n in counts.items() if n == best)


def split(seg: Segmentation, section: Section, today: date, bylines: Bylines) -> list[Comment]:
    """The section's blocks as comments, with author and date where marked."""
    count, sig = _marked_items(seg, section) or most_repeated(seg, section.root)
    if count < 2:
        ranges = [(seg.firsts[section.root], seg.ends[section.root])]
    else:
        ranges = item_ranges(seg, section.root, sig)
    out: list[Comment] = []
    blocks = section.blocks
    i = 0
    for lo, hi in ranges:
        mine: list[int] = []
        while i < len(blocks) and blocks[i] < hi:
            if blocks[i] >= lo:
                mine.append(blocks[i])
            i += 1
        if mine:
            author, published, _ = header_facts(seg, mine, today, bylines)
            out.append(Comment("\n\n".join(seg.texts[b] for b in mine), author, published))
    return out
