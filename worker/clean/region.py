"""The content region: the element holding the article (Baisa 2009, Algorithm 1), its twins and its lead.

From <body>, descend into the child holding the most content weight while it holds at least half of its
parent's. On a page whose template was stripped, the site's learned content location is preferred when
this page has it, and the target is widened over the headline and byline beside it and over the
article's continuation box after it, and an unnamed target climbs to the post body holding it; single-page,
a target that leaves the headline out grows to hold it (the copy of the headline nearest the target: a page
header repeating the title is not the article's), and a table cell target grows to the cell holding it when
that cell opens with a heading.
The page's one post element (and, single-page, the post under a heading headline) replaces a column or
sidebar target beside it, and a photo gallery whose captions outweigh the article's prose beside it is
neither the target nor in the region. Twins of the target (same tag and class: an article split into
chunks; or cousins at its depth, a table layout's rows) join it, and so does a lead paragraph in the
article header just before it; single-page, so do its neighbouring prose boxes (over short unnamed boxes
between them) and a table layout's neighbouring cells holding prose. What density keeps inside the page's
footer, side column or navigation is not the article (`outside_chrome`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, chain

from worker.clean import heuristics as h
from worker.clean import idents
from worker.clean.segment import Segmentation, stable_path
from worker.clean.sitememory import path_hash


@dataclass(frozen=True, slots=True)
class Steer:
    """What the site memory adds to the choice on a page it stripped."""

    learned_path: int | None  # path_hash of the site's usual content path, when one dominates


@dataclass(slots=True)
class Region:
    target: int  # the element chosen as the article
    ranges: list[tuple[int, int]]  # block ranges to classify, in document order
    located: int  # the target before the headline anchor: what the site memory learns as its location
    settled: bool = True  # the site may learn from `located` (region.settled)


def choose(
    seg: Segmentation,
    weights: list[float],
    link_density: list[float],
    steer: Steer | None,
    headline: int | None = None,
    flags: bytes | None = None,
    repeats: Sequence[int] = (),
) -> Region:
    """The region; `headline` is the headline's block (kinds.find_headlines), when the page has one, and
    `repeats` the later blocks that are the headline too; `flags` the elements' class/id flags
    (worker.clean.idents), which the post and gallery rules need."""
    prefix = [0.0, *accumulate(weights)]
    target = descend(seg, prefix)
    sure = True
    if steer is not None:
        if steer.learned_path is not None:
            target = prefer_learned(seg, prefix, target, steer.learned_path)
        start, target = target, widen(seg, prefix, target, link_density)
        if flags is not None:  # rule: STRIPPED_POST_LEVELS
            target = named_post_body(seg, target, flags)
        sure = settled(seg, prefix, link_density, start, target)
    located = target
    if headline is not None and steer is None:
        if repeats:  # rule: the headline's block nearest the article (HEADLINE_REPEAT_KIND)
            headline = nearest_headline(seg, target, headline, repeats)
        target = anchor(seg, prefix, target, headline)
        if flags is not None:
            target = post_of_headline(seg, prefix, target, headline, flags)
    if steer is None:  # rule: HEADED_CELL_LEVELS
        target = headed_cell(seg, link_density, target)
    galleries: list[int] = []
    if flags is not None:
        target = the_one_post(seg, prefix, target, flags)
        target, galleries = beside_galleries(seg, prefix, link_density, target, flags)
    ranges = with_twins(seg, prefix, target)
    for g in galleries:
        ranges = _cut(seg, ranges, g)
    if steer is None:
        ranges = with_prose_neighbours(seg, prefix, link_density, target, ranges)
        ranges = with_prose_columns(seg, prefix, link_density, target, ranges)
        ranges = with_announced_box(seg, ranges)  # rule: ANNOUNCING_HEADING_ENDS
    return Region(target, with_lead_paragraph(seg, link_density, ranges, prefix, target), located, sure)


def descend(seg: Segmentation, prefix: list[float]) -> int:
    """Baisa's descent: follow the child that keeps at least DESCEND_SHARE of the content."""
    firsts, ends = seg.firsts, seg.ends
    cur = 0
    while True:
        here = prefix[ends[cur]] - prefix[firsts[cur]]
        if here <= 0:
            return cur
        best, best_content = -1, 0.0
        for c in seg.children(cur):
            cc = prefix[ends[c]] - prefix[firsts[c]]
            if cc > best_content:
                best, best_content = c, cc
        if best < 0 or best_content < h.DESCEND_SHARE * here:
            return cur
        if seg.tags[best] in h.LEAF_TAGS or ends[best] - firsts[best] < h.MIN_TARGET_BLOCKS:
            return cur  # a single paragraph is never the whole article
        cur = best


def prefer_learned(seg: Segmentation, prefix: list[float], target: int, learned: int) -> int:
    """The element at the site's learned content path, when this page has one holding comparable content.

    Density's own choice stands when the page does not agree (no such element, or it is nearly empty).
    Only elements with at least LEARNED_MIN_SHARE of the target's content are looked at, which keeps
    the path computations to the handful of big containers.
    """
    firsts, ends = seg.firsts, seg.ends
    bar = h.LEARNED_MIN_SHARE * (prefix[ends[target]] - prefix[firsts[target]])
    if bar <= 0:
        return target
    if path_hash(stable_path(seg, target)) == learned:
        return target
    for i in range(len(firsts)):
        if prefix[ends[i]] - prefix[firsts[i]] >= bar and path_hash(stable_path(seg, i)) == learned:
            return i
    return target


def widen(seg: Segmentation, prefix: list[float], target: int, link_density: list[float]) -> int:
    """Climb from the target to ancestors that add little content of their own (the template is gone,
    so what sits beside the article in its container is the page's own: headline, byline, dateline).
    The article's continuation box after the target is its own content, not content after it."""
    firsts, ends, parents = seg.firsts, seg.ends, seg.parents
    for _ in range(h.WIDEN_LEVELS):
        p = parents[target]
        if p < 0 or seg.tags[p] in ("body", "html"):
            break
        own = prefix[ends[target]] - prefix[firsts[target]]
        before = prefix[firsts[target]] - prefix[firsts[p]]
        after = prefix[ends[p]] - prefix[ends[target]]
        if after > h.WIDEN_AFTER * own:  # rule: WIDEN_CONTINUATION_BOXES
            after -= continuation(seg, prefix, link_density, target, p)
        if before + after > h.WIDEN_RATIO * own or after > h.WIDEN_AFTER * own:
            break
        target = p
    return target


def named_post_body(seg: Segmentation, target: int, flags: bytes) -> int:
    """On a page the memory stripped, the nearest ancestor named as the post or its content ("post-body",
    "entry-content": idents.POST or GOOD) of an unnamed target, up to STRIPPED_POST_LEVELS levels up over
    unnamed boxes: the site's learned location was one unnamed box of a post body split into several (a blog
    post's paragraphs in loose <div>s), and widening stopped at the boxes before it. The target otherwise."""
    if seg.ident(target) or flags[target] & (idents.POST | idents.GOOD):
        return target
    e = seg.parents[target]
    for _ in range(h.STRIPPED_POST_LEVELS):
        if e <= 0 or flags[e] & idents.BAD:
            return target
        if flags[e] & (idents.POST | idents.GOOD):
            return e
        if seg.ident(e):
            return target
        e = seg.parents[e]
    return target


def settled(
    seg: Segmentation, prefix: list[float], link_density: list[float], start: int, located: int
) -> bool:
    """May the site learn from `located`, the target `widen` reached from `start`? Not when it climbed to
    within UNSETTLED_MAX_DEPTH levels of <body> over a preceding sibling holding prose: density started
    from a column after the article (a sidebar outweighing a short post) and took both."""
    if located == start or _depth(seg, located) > h.UNSETTLED_MAX_DEPTH:
        return True
    node = start
    while node != located:
        parent = seg.parents[node]
        for c in seg.children(parent):
            if c == node:
                break
            if _prose_box(seg, prefix, link_density, c):
                return False
        node = parent
    return True


def _depth(seg: Segmentation, e: int) -> int:
    """Levels from <body> down to element `e` (1: a child of <body>)."""
    depth, parents, tags = 0, seg.parents, seg.tags
    while e >= 0 and tags[e] not in ("body", "html"):
        e, depth = parents[e], depth + 1
    return depth


def continuation(
    seg: Segmentation, prefix: list[float], link_density: list[float], target: int, p: int
) -> float:
    """Content weight of the article's continuation boxes right after `target` in its parent `p`: up to
    WIDEN_CONTINUATION_BOXES siblings of its tag, named like it ("entry-more" after "entry-body"), holding
    prose."""
    stem = _class_stem(seg.first_class(target))
    if not stem:
        return 0.0
    siblings = seg.children(p)
    weight, boxes = 0.0, 0
    for c in siblings[siblings.index(target) + 1 :]:
        if boxes >= h.WIDEN_CONTINUATION_BOXES:
            break
        if seg.firsts[c] == seg.ends[c]:
            continue  # no text: stepped over
        name = seg.first_class(c)
        if (
            seg.tags[c] != seg.tags[target]
            or name == seg.first_class(target)
            or _class_stem(name) != stem
            or not _prose_box(seg, prefix, link_density, c)
        ):
            break
        weight += prefix[seg.ends[c]] - prefix[seg.firsts[c]]
        boxes += 1
    return weight


def _class_stem(name: str) -> str:
    """A class name's part before its first "-" ("entry" of "entry-body"), or "" when it has none."""
    stem, dash, _ = name.partition("-")
    return stem if dash else ""


def nearest_headline(seg: Segmentation, target: int, first: int, repeats: Sequence[int]) -> int:
    """The headline's block to anchor the target on: of the first block that is the headline and the later
    ones (`repeats`, headings: kinds.find_headlines with HEADLINE_REPEAT_KIND), the one whose lowest common
    ancestor with the target is the deepest (the earliest of those). A page that repeats its title above the
    article (a page header's tagline or title cell, a roundup's heading over the post) holds the article's
    own headline nearer the article, and anchoring on the first one took that header or roundup in."""
    firsts, ends, parents = seg.firsts, seg.ends, seg.parents
    best, fewest = first, -1
    for b in (first, *repeats):
        a, levels = target, 0
        while a >= 0 and not firsts[a] <= b < ends[a]:
            a, levels = parents[a], levels + 1
        if fewest < 0 or levels < fewest:
            best, fewest = b, levels
    return best


def anchor(seg: Segmentation, prefix: list[float], target: int, headline: int) -> int:
    """The target's nearest ancestor holding the headline's block, when it is not <body> and holds
    more content than the target (which was then a fragment of the article); the target otherwise."""
    firsts, ends, parents = seg.firsts, seg.ends, seg.parents
    a = target
    while a >= 0 and not firsts[a] <= headline < ends[a]:
        a = parents[a]
    if a == target or a < 0 or seg.tags[a] in ("body", "html"):
        return target
    own = prefix[ends[target]] - prefix[firsts[target]]
    if prefix[ends[a]] - prefix[firsts[a]] <= (1.0 + h.ANCHOR_MIN_GAIN) * own:
        return target
    return a


def headed_cell(seg: Segmentation, link_density: list[float], target: int) -> int:
    """The table cell holding a table-cell target, when that cell's text opens with a heading and holds no
    link list before the target: an old table layout nests the article's body in a table inside the article's
    cell, and the descent followed the body's cell, leaving the heading and the lines under it. The nearest
    enclosing cell up to HEADED_CELL_LEVELS levels up; the target otherwise."""
    tags, parents, firsts, cells = seg.tags, seg.parents, seg.firsts, h.PROSE_COLUMN_TAGS
    if tags[target] not in cells:
        return target
    a = parents[target]
    for _ in range(h.HEADED_CELL_LEVELS - 1):
        if a <= 0 or tags[a] in cells:
            break
        a = parents[a]
    if a <= 0 or tags[a] not in cells:
        return target
    lo, hi = firsts[a], firsts[target]
    if lo == hi or seg.kinds[lo] != "heading":
        return target
    most = h.MAX_LINK_DENSITY
    return target if any(link_density[j] > most for j in range(lo, hi)) else a


def post_of_headline(seg: Segmentation, prefix: list[float], target: int, headline: int, flags: bytes) -> int:
    """The post element holding the headline inside the target, when the target also holds a column
    beside the post (an "about me" box, recent posts' summaries) that outweighs a short post: the
    outermost element below the target on the headline's path named like a post or content ("hentry",
    "entry", "post-123"), when the headline is a heading, the post's prose after it weighs
    HEADLINE_POST_MIN_WEIGHT or more, and the post holds HEADLINE_POST_MIN_SHARE of the target's
    weight (a headline matched in a teaser is not the article). The target otherwise."""
    firsts, ends, parents = seg.firsts, seg.ends, seg.parents
    if seg.kinds[headline] != "heading" or not firsts[target] <= headline < ends[target]:
        return target
    post, e = -1, seg.owners[headline]
    while e != target and e > 0:
        if flags[e] & (idents.POST | idents.GOOD):
            post = e
        e = parents[e]
    if post < 0 or e != target:
        return target
    kinds = seg.kinds
    after = sum(prefix[j + 1] - prefix[j] for j in range(headline + 1, ends[post]) if kinds[j] != "heading")
    whole = prefix[ends[post]] - prefix[firsts[post]]
    if after < h.HEADLINE_POST_MIN_WEIGHT or whole < h.HEADLINE_POST_MIN_SHARE * (
        prefix[ends[target]] - prefix[firsts[target]]
    ):
        return target
    return post


# Maps an element's class/id flags to 1 where they name a post (idents.POST), 0 elsewhere: bytes.find on the
# mapped flags finds the posts in C.
_POST_BYTE = bytes(1 if f & idents.POST else 0 for f in range(256))


def the_one_post(seg: Segmentation, prefix: list[float], target: int, flags: bytes) -> int:
    """The page's post element, when the page has one and the target is not inside it: a post page's
    prose sits in its one element named like a post ("hentry", "post-123", Blogger's "post"), while
    density stopped at a column holding it beside the sidebar, or in the sidebar itself (a profile or
    widget text outweighing a short post). The post needs SINGLE_POST_MIN_WEIGHT of content weight (any,
    SINGLE_POST_BODY_MIN_WEIGHT, when the target is <body>: density found no column at all); a
    target outside it is left only when it sits in an element named or tagged as boilerplate (density
    found the article elsewhere otherwise). Posts nested in a post count as one; a page listing several
    posts keeps its target. Also on a page the site memory stripped: what it could not strip (a sidebar
    whose teasers change on every page) outweighs a short post there too."""
    marks = flags.translate(_POST_BYTE)
    firsts, ends, skips = seg.firsts, seg.ends, seg.skips
    post, e = -1, marks.find(1, 1)  # element 0 is <body>: page-level classes describe the page
    while e >= 0:
        if ends[e] > firsts[e]:  # a post holding text
            if post >= 0:
                return target
            post = e
        e = marks.find(1, skips[e])
    if post < 0 or post <= target < skips[post]:
        return target
    least = h.SINGLE_POST_BODY_MIN_WEIGHT if target == 0 else h.SINGLE_POST_MIN_WEIGHT
    if prefix[ends[post]] - prefix[firsts[post]] < least:
        return target
    if target < post < skips[target]:
        return post
    e = target
    while e > 0:  # rule: the target outside the post is boilerplate by its own or an ancestor's mark
        if flags[e] & idents.BAD or seg.tags[e] in h.BAD_TAGS:
            return post
        e = seg.parents[e]
    return target


def beside_galleries(
    seg: Segmentation, prefix: list[float], link_density: list[float], target: int, flags: bytes
) -> tuple[int, list[int]]:
    """The target, out of a photo gallery it sits in, and the galleries inside it to leave out of the region:
    a gallery or slideshow (an element named like one, idents.GALLERY, holding no prose box of its own:
    captions are list items or short lines) whose captions outweigh a short article draws the descent in.
    A target inside one climbs, up to GALLERY_LEVELS levels above the gallery, to the first ancestor holding
    prose outside it; the galleries inside the target with prose beside them go (the target's twins keep
    theirs: a twin is another chunk of text)."""
    marks = flags.translate(_GALLERY_BYTE)
    g = marks.find(1, 1)  # element 0 is <body>: page-level classes describe the page
    skips = seg.skips
    while 0 <= g < target and skips[g] <= target:  # the outermost galleries before the target
        g = marks.find(1, skips[g])
    if g < 0:
        return target, []
    if g <= target:  # the target is in gallery g (the outermost one holding it)
        if _prose_box(seg, prefix, link_density, g):
            return target, []
        a = g
        for _ in range(h.GALLERY_LEVELS):
            a = seg.parents[a]
            if a <= 0:
                return target, []
            if _prose_box(seg, prefix, link_density, a, without=g):
                break
        else:
            return target, []
        target = a
        g = marks.find(1, target + 1)
    firsts, ends, galleries = seg.firsts, seg.ends, []
    # The target's first and last prose blocks, found once: "prose beside gallery g" is one of them outside
    # g (asking _prose_box(target, without=g) of each gallery scanned the target once per gallery).
    prose: tuple[int, int] | None = None
    weight = prefix[ends[target]] - prefix[firsts[target]]
    while 0 <= g < skips[target]:  # the outermost galleries inside the target holding text
        if (
            ends[g] > firsts[g]
            and weight - (prefix[ends[g]] - prefix[firsts[g]]) >= h.PROSE_BOX_MIN_WEIGHT
            and not _prose_box(seg, prefix, link_density, g)
        ):
            first, last = prose = prose or _prose_ends(seg, link_density, target)
            if first >= 0 and (first < firsts[g] or last >= ends[g]):
                galleries.append(g)
        g = marks.find(1, skips[g])
    return target, galleries


# Maps an element's class/id flags to 1 where they name a gallery (idents.GALLERY), 0 elsewhere: bytes.find on
# the mapped flags finds the galleries in C.
_GALLERY_BYTE = bytes(1 if f & idents.GALLERY else 0 for f in range(256))


def _cut(seg: Segmentation, ranges: list[tuple[int, int]], g: int) -> list[tuple[int, int]]:
    """`ranges` without element `g`'s blocks."""
    glo, ghi = seg.firsts[g], seg.ends[g]
    return [(a, b) for lo, hi in ranges for a, b in ((lo, min(hi, glo)), (max(lo, ghi), hi)) if a < b]


def with_twins(seg: Segmentation, prefix: list[float], target: int) -> list[tuple[int, int]]:
    """Block ranges of the target plus its twins: articles split into repeated containers
    ("div.article-chunk", "section.post__content") are one text, though the descent keeps only one. Its
    siblings or an ancestor's siblings named like it; without those, its cousins (`cousin_twins`)."""
    firsts, ends, tags = seg.firsts, seg.ends, seg.tags
    node = target
    for _ in range(h.CHUNK_LEVELS):
        parent = seg.parents[node]
        if parent < 0:
            break
        ident = seg.ident(node)
        if ident:
            tag, first_class = tags[node], seg.first_class(node)
            twins = [
                c
                for c in seg.children(parent)
                if c != node
                and tags[c] == tag
                and (seg.ident(c) == ident or (first_class and seg.first_class(c) == first_class))
                and prefix[ends[c]] - prefix[firsts[c]] >= h.CHUNK_MIN_WEIGHT
                and not _related_box(seg, c)
            ]
            if twins:
                return sorted([(firsts[target], ends[target])] + [(firsts[c], ends[c]) for c in twins])
        node = parent
    return sorted(
        [(firsts[target], ends[target])] + [(firsts[c], ends[c]) for c in cousin_twins(seg, prefix, target)]
    )


def cousin_twins(seg: Segmentation, prefix: list[float], target: int) -> list[int]:
    """The target's cousins named like it (its tag, and its class and id or its first class), at its depth
    below its ancestor COUSIN_TWIN_LEVELS levels up, holding CHUNK_MIN_WEIGHT: a table layout puts the
    article's parts in the cells of different rows ("td > div.cc" in two rows), which are not siblings at
    any level. Elements of other tags are passed over by list.index (a C scan)."""
    parents, tags, skips = seg.parents, seg.tags, seg.skips
    ident = seg.ident(target)
    top, levels = target, 0
    while levels < h.COUSIN_TWIN_LEVELS and parents[top] >= 0:
        top, levels = parents[top], levels + 1
    if not ident or top == target:
        return []
    tag, first_class, classes, ids = tags[target], seg.first_class(target), seg.classes, seg.ids
    # str.lower keeps a str's length but for "\u0130" (the one character it makes two of): an element
    # whose "class id" is not the ident's length cannot be named like it, and is passed over untested
    size, dotted = len(ident) - 1, "\u0130"
    found: list[int] = []
    at, end = top, skips[top]
    while True:
        try:
            at = tags.index(tag, at + 1, end)
        except ValueError:
            return found
        if at == target:
            at = skips[at] - 1
        elif (
            ((c := classes[at]) or ids[at])
            # seg.ident(at) == ident or seg.first_class(at) == first_class, without the calls
            and (
                (first_class and first_class in c and c.split(None, 1)[0] == first_class)
                or (
                    (len(c) + len(i := ids[at]) == size or dotted in c or dotted in i)
                    and f"{c} {i}".lower() == ident
                )
            )
            and not at < target < skips[at]
        ):
            if (
                prefix[seg.ends[at]] - prefix[seg.firsts[at]] >= h.CHUNK_MIN_WEIGHT
                and _levels_below(seg, at, top) == levels
                and not _related_box(seg, at)
            ):
                found.append(at)
            at = skips[at] - 1  # a box named like the target inside another is not a chunk of its own


def _levels_below(seg: Segmentation, e: int, top: int) -> int:
    """Levels from element `top` down to its descendant `e`."""
    levels, parents = 0, seg.parents
    while e != top and e >= 0:
        e, levels = parents[e], levels + 1
    return levels


# A prose box's long block by default (a table layout's cells take table cells too: PROSE_COLUMN_KINDS).
_PARAGRAPHS = frozenset({"paragraph"})


def _prose_box(
    seg: Segmentation,
    prefix: list[float],
    link_density: list[float],
    e: int,
    kinds_of_prose: frozenset[str] = _PARAGRAPHS,
    without: int = -1,
) -> bool:
    """Does element `e` hold prose: PROSE_BOX_MIN_WEIGHT of content weight and a block of LENGTH_HIGH+
    characters with little link text, of one of `kinds_of_prose` (a paragraph; a table cell's ending a
    sentence)? Outside its descendant `without`, when one is given."""
    lo, hi = seg.firsts[e], seg.ends[e]
    weight, blocks = prefix[hi] - prefix[lo], chain(range(lo, hi))
    if without >= 0:
        glo, ghi = seg.firsts[without], seg.ends[without]
        weight, blocks = weight - (prefix[ghi] - prefix[glo]), chain(range(lo, glo), range(ghi, hi))
    if weight < h.PROSE_BOX_MIN_WEIGHT:
        return False
    return next(_prose_blocks(seg, link_density, blocks, kinds_of_prose), -1) >= 0


def _prose_blocks(
    seg: Segmentation, link_density: list[float], blocks: Iterable[int], kinds_of_prose: frozenset[str]
) -> Iterator[int]:
    """The blocks of `blocks` that make a box a prose box: LENGTH_HIGH+ characters with little link text, of
    one of `kinds_of_prose` (a table cell's ending a sentence)."""
    chars, kinds, most_linked, texts = seg.chars, seg.kinds, h.PROSE_BOX_LINK_DENSITY, seg.texts
    return (
        j
        for j in blocks
        if chars[j] >= h.LENGTH_HIGH
        and kinds[j] in kinds_of_prose
        and link_density[j] <= most_linked
        and (kinds[j] != "table_cell" or texts[j].endswith(h.PROSE_CELL_END))  # rule: PROSE_CELL_END
    )


def _prose_ends(seg: Segmentation, link_density: list[float], e: int) -> tuple[int, int]:
    """Element `e`'s first and last paragraph blocks that make a prose box; (-1, -1) when it has none."""
    lo, hi = seg.firsts[e], seg.ends[e]
    first = next(_prose_blocks(seg, link_density, range(lo, hi), _PARAGRAPHS), -1)
    if first < 0:
        return -1, -1
    return first, next(_prose_blocks(seg, link_density, range(hi - 1, first - 1, -1), _PARAGRAPHS))


def with_prose_neighbours(
    seg: Segmentation,
    prefix: list[float],
    link_density: list[float],
    target: int,
    ranges: list[tuple[int, int]],
    kinds_of_prose: frozenset[str] = _PARAGRAPHS,
) -> list[tuple[int, int]]:
    """Add the target's neighbouring siblings that hold prose (a lead box, numbered sections, the
    article's continuation after an inline box), outward from the target until a sibling holding text
    does not, or is the author's box; siblings without text are stepped over, and so are up to
    PROSE_BRIDGE_BOXES short unnamed ones of the target's tag, when an unnamed target's prose continues
    after them."""
    parent = seg.parents[target]
    if parent < 0 or seg.tags[parent] in ("body", "html"):
        return ranges
    siblings = seg.children(parent)
    at = siblings.index(target)
    firsts, ends, tag, unnamed = seg.firsts, seg.ends, seg.tags[target], not seg.ident(target)
    extra: list[tuple[int, int]] = []
    for side in (siblings[at - 1 :: -1] if at else [], siblings[at + 1 :]):
        bridge: list[tuple[int, int]] = []
        for c in side:
            if firsts[c] == ends[c]:
                continue
            if any(lo <= firsts[c] < hi for lo, hi in ranges) or _author_box(seg, c) or _related_box(seg, c):
                break
            if _prose_box(seg, prefix, link_density, c, kinds_of_prose):
                extra += bridge
                extra.append((firsts[c], ends[c]))
                bridge = []
            elif (  # rule: PROSE_BRIDGE_BOXES
                unnamed
                and len(bridge) < h.PROSE_BRIDGE_BOXES
                and seg.tags[c] == tag
                and not seg.ident(c)
                and prefix[ends[c]] - prefix[firsts[c]] < h.PROSE_BOX_MIN_WEIGHT
            ):
                bridge.append((firsts[c], ends[c]))
            else:
                break
    if not extra:
        return ranges
    return sorted(ranges + extra)


def with_prose_columns(
    seg: Segmentation,
    prefix: list[float],
    link_density: list[float],
    target: int,
    ranges: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Add the neighbouring cells that hold prose of the target and of every table cell (h.PROSE_COLUMN_TAGS)
    above it: a table layout splits one text over the cells of a row, and descent followed the heavier
    column (a table cell's text is prose when it ends a sentence: h.PROSE_CELL_END)."""
    tags, parents, columns = seg.tags, seg.parents, h.PROSE_COLUMN_TAGS
    a = target
    while a > 0:  # element 0 is <body>
        if tags[a] in columns:
            ranges = with_prose_neighbours(seg, prefix, link_density, a, ranges, h.PROSE_COLUMN_KINDS)
        a = parents[a]
    return ranges


def with_announced_box(seg: Segmentation, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Add the box right after the region when the region ends on a heading announcing it (a question or a
    colon: h.ANNOUNCING_HEADING_ENDS): the article goes on there, past a container closed early (broken
    markup closing the article's <div> before its list). The box is the first element holding text after
    the heading's box, at the heading's level or above, starting right after the region; it joins unless it
    is link text (over h.MAX_LINK_DENSITY of its words), an author's box or a related box."""
    hi = ranges[-1][1]
    last = hi - 1
    if last < 0 or seg.kinds[last] != "heading" or not seg.texts[last].endswith(h.ANNOUNCING_HEADING_ENDS):
        return ranges
    firsts, ends, parents = seg.firsts, seg.ends, seg.parents
    e = seg.owners[last]
    while e > 0:
        siblings = seg.children(parents[e])
        for c in siblings[siblings.index(e) + 1 :]:
            if firsts[c] == ends[c]:
                continue  # no text: stepped over
            if firsts[c] != hi or _related_box(seg, c) or _author_box(seg, c):
                return ranges
            words = sum(seg.words[firsts[c] : ends[c]])
            if not words or sum(seg.link_words[firsts[c] : ends[c]]) > h.MAX_LINK_DENSITY * words:
                return ranges
            return [*ranges, (firsts[c], ends[c])]
        e = parents[e]
    return ranges


def _related_box(seg: Segmentation, e: int) -> bool:
    """Does element `e` open with a heading of related posts ("You might also like", "Related posts":
    h.TAIL_HEADING)? Such a box holds teasers of other posts, whatever its name and its prose."""
    b = seg.firsts[e]
    if b == seg.ends[e] or seg.kinds[b] not in h.TAIL_HEADING_KINDS:
        return False
    text = seg.texts[b]
    return len(text) <= h.TAIL_HEADING_MAX_CHARS and h.TAIL_HEADING.fullmatch(text) is not None


def _author_box(seg: Segmentation, e: int) -> bool:
    """Is element `e` named as the author's box ("post-author", "author-bio", "bio")? (rule:
    AUTHOR_BOX_PREFIXES)"""
    ident = seg.ident(e)
    return bool(ident) and idents.has_part(ident, h.AUTHOR_BOX_PREFIXES)


@lru_cache(maxsize=8192)
def _is_lead_class(ident: str) -> bool:
    return _named_with(ident, h.LEAD_TOKEN_PREFIXES)


@lru_cache(maxsize=8192)
def _is_summary_class(ident: str) -> bool:
    return _named_with(ident, h.SUMMARY_HEADING_PREFIXES)


def _named_with(ident: str, prefixes: tuple[str, ...]) -> bool:
    """Does a part of `ident` (its words, and each word's parts after a "-") start with one of `prefixes`?"""
    for word in ident.replace("_", " ").split():
        start = 0
        while True:
            if word[start:].startswith(prefixes):
                return True
            start = word.find("-", start) + 1
            if start == 0:
                break
    return False


def with_lead_paragraph(
    seg: Segmentation,
    link_density: list[float],
    ranges: list[tuple[int, int]],
    prefix: list[float],
    target: int,
) -> list[tuple[int, int]]:
    """Take the article's lead ("standfirst", "teaser-text", "intro") that sits in the article header
    just before the target: a prose block shortly before it, in an element named like a lead, or a
    prose paragraph inside the target's parent that no mark took out (`prefix`: the content weights); with
    the lead blocks right before it, up to h.LEAD_PARAGRAPH_RUN in all (a lead of several paragraphs).
    Further back, up to h.LEAD_NAMED_BLOCKS, only a prose block named like a lead starts the run."""
    lo = ranges[0][0]
    parent = seg.parents[target]
    first = last = -1  # the lead run found: blocks first..last
    for j in range(lo - 1, max(-1, lo - 1 - max(h.LEAD_PARAGRAPH_BLOCKS, h.LEAD_NAMED_BLOCKS)), -1):
        skip = (
            (seg.kinds[j] == "heading" and not summary_heading(seg, j))  # rule: SUMMARY_HEADING_PREFIXES
            or seg.chars[j] < h.LENGTH_LOW
            or link_density[j] > h.MAX_LINK_DENSITY
        )
        # rule: a named lead further back (LEAD_NAMED_BLOCKS)
        if last < 0 and lo - j > h.LEAD_PARAGRAPH_BLOCKS:
            if (
                not skip
                and seg.chars[j] >= h.LEAD_PROSE_MIN_CHARS
                and link_density[j] <= h.LEAD_PROSE_MAX_LINK_DENSITY
                and named_lead(seg, j)
            ):
                first = last = j
            continue
        if last >= 0:  # rule: the lead blocks right before the lead join it (LEAD_PARAGRAPH_RUN)
            if (
                skip
                or last - j + 1 > h.LEAD_PARAGRAPH_RUN
                or not _lead_block(seg, link_density, prefix, parent, j)
            ):
                break
            first = j
        elif not skip and _lead_block(seg, link_density, prefix, parent, j):
            first = last = j
    return ranges if last < 0 else [(first, last + 1), *ranges]


def _lead_block(
    seg: Segmentation, link_density: list[float], prefix: list[float], parent: int, j: int
) -> bool:
    """Is block `j` (a prose block shortly before the target) a lead: an unnamed prose paragraph inside the
    target's `parent`, with content weight, or a block in an element named like a lead?"""
    if (  # rule: an unnamed lead paragraph (LEAD_PROSE_MIN_CHARS)
        seg.chars[j] >= h.LEAD_PROSE_MIN_CHARS
        and (
            seg.kinds[j] == "paragraph" or (seg.kinds[j] in h.LEAD_CELL_KINDS and _in_cell_of(seg, j, parent))
        )
        and link_density[j] <= h.LEAD_PROSE_MAX_LINK_DENSITY
        and prefix[j + 1] > prefix[j]
        and parent >= 0
        and seg.firsts[parent] <= j
    ):
        return True
    return named_lead(seg, j)


def named_lead(seg: Segmentation, j: int, named: Callable[[str], bool] = _is_lead_class) -> bool:
    """Is block `j` in an element named like a lead (`named`: h.LEAD_TOKEN_PREFIXES), its owner or up to 2
    above?"""
    e, levels = seg.owners[j], 0
    while e > 0 and levels < 3:
        ident = seg.ident(e)
        if ident and named(ident):
            return True
        e, levels = seg.parents[e], levels + 1
    return False


def summary_heading(seg: Segmentation, j: int) -> bool:
    """Is block `j` (a heading) in an element named as the article's summary (h.SUMMARY_HEADING_PREFIXES:
    "div.intro > div.dek > h2"), its owner or up to 2 above? Such a heading is a lead, not a title."""
    return named_lead(seg, j, _is_summary_class)


def _in_cell_of(seg: Segmentation, j: int, parent: int) -> bool:
    """Is block `j` in the table cell (h.PROSE_COLUMN_TAGS) nearest it that also holds element `parent`?"""
    e, tags, cells, skips = seg.owners[j], seg.tags, h.PROSE_COLUMN_TAGS, seg.skips
    while e > 0 and tags[e] not in cells:
        e = seg.parents[e]
    return e > 0 and e <= parent < skips[e]


def outside_chrome(
    seg: Segmentation, flags: bytes, kept: list[int], spared: frozenset[int] = frozenset()
) -> list[int]:
    """`kept` without the blocks inside the page's footer, side column or navigation: an element tagged
    h.CHROME_TAGS or named with h.CHROME_PREFIXES (boilerplate by its name too), met walking up from the
    block before any element tagged or named as the article (<article>, a post, a content name that is not
    also boilerplate). `flags`: the segmentation's worker.clean.idents flags; `spared`: blocks that stay
    whatever their place (the block model's additions: it was trained on the boilerplate marks). Each element
    is decided once (the kept blocks share their ancestors)."""
    if not kept:
        return kept
    tags, parents, owners = seg.tags, seg.parents, seg.owners
    chrome_tags, article_tag = h.CHROME_TAGS, h.ARTICLE_TAG
    BAD, GOOD, POST = idents.BAD, idents.GOOD, idents.POST
    decided: dict[int, bool] = {}
    out: list[int] = []
    for i in kept:
        e = owners[i]
        walked: list[int] = []
        verdict = False
        while e > 0:  # element 0, <body>, is the page
            known = decided.get(e)
            if known is not None:
                verdict = known
                break
            f, tag = flags[e], tags[e]
            if tag == article_tag or f & POST or (f & GOOD and not f & BAD):
                break
            if tag in chrome_tags or (f & BAD and idents.has_part(seg.ident(e), h.CHROME_PREFIXES)):
                verdict = True
                break
            walked.append(e)
            e = parents[e]
        if e > 0:
            decided[e] = verdict
        for w in walked:
            decided[w] = verdict
        if not verdict or i in spared:
            out.append(i)
    return out if len(out) < len(kept) else kept
