"""Several posts on one page (blog front pages, archives, forum threads): each post's title, author, date
and text, from the segmentation.

1. The items: the outermost elements marked as a post (hAtom "hentry", microformats2 "h-entry",
   WordPress "type-post" and "post-<id>", forum "post" / "postbody" / "message" containers, <article>);
   where the markup names none, the children of one element that repeat one signature (tag and first
   class) most often, outside comment sections.
2. A list, not one article: at least POSTS_MIN items with prose, holding together at least
   POSTS_MIN_SHARE of the page's prose, no single one holding most of it (a single post with its
   teaser list of related posts is one article), and most of them dated or signed (the sections of one
   article are not).
3. Each post: its first heading is the title, author and date as for comments (worker.clean.repeats), the
   text its prose blocks (not link lists, not the title, not the byline).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator
from datetime import date

from worker.clean import heuristics as h
from worker.clean import idents, native
from worker.clean.repeats import Bylines, header_facts, repeated_items
from worker.clean.score import Scores
from worker.clean.segment import Segmentation, indexes
from worker.models import Post


def find_posts(seg: Segmentation, scores: Scores, today: date, bylines: Bylines) -> list[Post]:
    """The posts of a page that lists several; [] for a page that holds one article (most pages)."""
    ranges = _marked(seg, scores) or _repeated(seg, scores)
    if not _is_list(scores, ranges):
        return []
    # Posts say when or by whom they were written; sections of one article, teasers and link cards do not:
    # at least POSTS_STATED_SHARE of them must. Items are read in order (a header costs ~30 us); once even
    # every item left stating it could not lift the share (nor none: the share of stated posts is linear
    # in the stated ones added), the page is no list whatever they say.
    posts: list[Post] = []
    stated = 0
    for k, (lo, hi) in enumerate(ranges):
        post = _post(seg, scores, lo, hi, today, bylines)
        if post is not None:
            posts.append(post)
            stated += bool(post.published or post.author)
        left = len(ranges) - k - 1
        if len(posts) + left < h.POSTS_MIN or (
            stated + left < h.POSTS_STATED_SHARE * (len(posts) + left)
            and stated < h.POSTS_STATED_SHARE * len(posts)
        ):
            return []
    return posts


def _marked(seg: Segmentation, scores: Scores) -> list[tuple[int, int]]:
    """Block ranges of the outermost post-marked elements (outside comment sections)."""
    firsts, ends, comment = seg.firsts, seg.ends, scores.comment
    out: list[tuple[int, int]] = []
    end = -1
    # Only <article>s and post-marked elements can start a post: found with C scans, not one Python
    # step per element. <body> (0) is never one: a page-level class ("single-post") describes the page.
    candidates = set(_positions(scores.idents.translate(_POST_MARKED), 1))
    candidates.update(indexes(seg.tags, h.ARTICLE_TAG))
    candidates.discard(0)
    for e in sorted(candidates):
        first, last = firsts[e], ends[e]
        if first < end or last == first or comment[e]:
            continue
        out.append((first, last))
        end = last
    return out


# idents' flags -> 1 where the POST flag is set, else 0 (bytes.translate's table).
_POST_MARKED = bytes(1 if flags & idents.POST else 0 for flags in range(256))


def _positions(data: bytes, value: int) -> Iterator[int]:
    at = data.find(value)
    while at >= 0:
        yield at
        at = data.find(value, at + 1)


def _repeated(seg: Segmentation, scores: Scores) -> list[tuple[int, int]]:
    """Without markup: the items of the most repeated signature on the page, each with a heading."""
    # Items are disjoint and each needs a heading: a page with fewer headings than POSTS_MIN has no list.
    headings = indexes(seg.kinds, "heading")
    if len(headings) < h.POSTS_MIN:
        return []
    count, items = repeated_items(seg, 0, lead=False)
    if count < h.POSTS_MIN:
        return []
    comment, owners = scores.comment, seg.owners
    with_heading = [
        (lo, hi)
        for lo, hi in items
        if not comment[owners[lo]] and (at := bisect_left(headings, lo)) < len(headings) and headings[at] < hi
    ]
    return with_heading if len(with_heading) >= h.POSTS_MIN else []


def _is_list(scores: Scores, ranges: list[tuple[int, int]]) -> bool:
    weights = scores.weights
    prose = [sum(weights[lo:hi]) for lo, hi in ranges]
    with_prose = [w for w in prose if w >= h.POST_MIN_PROSE]
    if len(with_prose) < h.POSTS_MIN:
        return False
    total = sum(prose)
    return total >= h.POSTS_MIN_SHARE * sum(weights) and max(prose) <= h.POST_MAX_SHARE * total


def _post(seg: Segmentation, scores: Scores, lo: int, hi: int, today: date, bylines: Bylines) -> Post | None:
    """One post: the title is its first heading; what comes before it is the post's header (a forum's
    poster profile, a live blog's time), what comes after it the byline and the text."""
    texts, kinds, link_density, owners, marked = (
        seg.texts,
        seg.kinds,
        scores.link_density,
        seg.owners,
        scores.marked,
    )
    # Marks on the item's own elements count (its footer, its share bar); a mark the whole item inherits
    # from its container (Blogger's "date-outer" reads like a date widget) does not.
    item = _element_of(seg, lo, hi)
    inherited = marked[item]
    title_at = next((b for b in range(lo, hi) if kinds[b] == "heading"), None)
    blocks = list(range(lo, hi) if title_at is None else range(title_at + 1, hi))
    author, published, byline = header_facts(seg, list(range(lo, hi)), today, bylines)
    body = [
        texts[b]
        for b in blocks
        if link_density[b] <= h.MAX_LINK_DENSITY
        and b not in byline
        and (inherited or not marked[owners[b]])
        and not (len(texts[b]) <= h.BOILERPLATE_MAX_CHARS and h.BOILERPLATE_LINE.match(texts[b].lower()))
    ]
    if not body:
        return None
    title = texts[title_at] if title_at is not None else None
    return _new_post("\n\n".join(body), title, author, published)


# Post made in C (its slots filled directly), once native.py has checked it against its
# own __init__ (which sets each field through object.__setattr__).
_new_post = native.instance_maker(Post, ("Text.", "Title", "Jane Doe", "2020-01-02"))


def _element_of(seg: Segmentation, lo: int, hi: int) -> int:
    """The outermost element holding exactly the blocks from `lo` and none past `hi`: the item itself."""
    e = seg.owners[lo]
    parents, firsts, ends = seg.parents, seg.firsts, seg.ends
    while (p := parents[e]) > 0 and firsts[p] == lo and ends[p] <= hi:
        e = p
    return e
