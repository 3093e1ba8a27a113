"""The article's header: the text just after (and just before) its headline, where sites print the
article's own date ("By Jane Doe | March 3, 2020", "Stand: 07.11.2023", a dateline above the title).

The headline is found in the tree, not by searching the body's text for the headline's words: a page
lists its own headline in menus and teaser lists too, and the first occurrence in the text is often
one of those. From the headline element the walk goes through the text nodes that follow (or
precede) it in document order, skipping scripts, styles and <nav> menus, until it has read enough
characters: its cost is bounded by HEADER_NODES_MAX, whatever the size of the page.
"""

from __future__ import annotations

from datetime import date

from selectolax.lexbor import LexborNode

from worker.clean import native
from worker.clean.meta.text import TextDate, text_dates

# Characters read after the headline: the byline and dateline of news and blog templates are within
# the first few lines; further on, the article's own text mentions other days. On htmldate's pages
# (scripts/eval_dates.py) 500 to 1000 give the same accuracy (0.936), 300 loses 5 pages, 1500 two;
# 500 is the cheaper end of the plateau.
HEADER_AFTER = 500
# ... and before it: a kicker or dateline above the title ("Jan 18, 2019 | Politics"). 80 to 300
# give the same accuracy there, 0 loses a page.
HEADER_BEFORE = 150
# Nodes visited per direction at most (a menu of hundreds of empty items costs no more than this).
HEADER_NODES_MAX = 400
# Class or id words of an <h1> that holds the site's name, not an article's title (WordPress themes'
# "site-title", "logo" elsewhere): its neighbourhood is the site's menu. On htmldate's pages: +1 dev,
# +1 check, nothing lost.
LOGO_MARKERS: tuple[str, ...] = ("logo", "site-title", "site-name", "sitename", "branding")

# Elements whose text no reader sees, and <nav>: the site's menus, whose links name other pages'
# days (on htmldate's pages skipping <nav> gains 1 dev page and loses none).
_SKIPPED_TAGS: frozenset[int] = frozenset(
    native.element(name).tag_id for name in ("script", "style", "noscript", "template", "svg", "head", "nav")
)
_TEXT_TAG = 2  # lexbor's tag id of a text node (LXB_TAG__TEXT)
_STOP_TAGS: frozenset[int] = frozenset(native.element(name).tag_id for name in ("body", "html"))


def _after_python(node: LexborNode, limit: int) -> str:
    """The visible text of `node` and what follows it in document order, about `limit` characters
    (a headline may hold its dateline: "<h1>Title <small>02.02.2022</small></h1>")."""
    parts: list[str] = []
    size = 0
    cur: LexborNode | None = node
    descend = True
    # The headline's first text is the title's words: a day in them is the article's subject ("Protokoll
    # der Sitzung vom 10. Oktober 2019"); a dateline in the headline has an element of its own.
    title_words = True
    for _ in range(HEADER_NODES_MAX):
        nxt = cur.child if descend and cur is not None else None
        while nxt is None and cur is not None:
            nxt = cur.next
            if nxt is None:
                cur = cur.parent
                if cur is None or cur.tag_id in _STOP_TAGS:
                    return " ".join(parts)
        if nxt is None:
            break
        cur = nxt
        tag = cur.tag_id
        descend = tag not in _SKIPPED_TAGS and tag != _TEXT_TAG
        if tag == _TEXT_TAG:
            text = " ".join((cur.text_content or "").split())
            if text and title_words:
                title_words = False
                continue
            if text:
                parts.append(text)
                size += len(text) + 1
                if size >= limit:
                    break
    return " ".join(parts)[:limit]


def _before_python(node: LexborNode, limit: int) -> str:
    """The visible text that precedes `node` in document order, its last `limit` characters."""
    parts: list[str] = []
    size = 0
    cur: LexborNode | None = node
    for _ in range(HEADER_NODES_MAX):
        if cur is None:
            break
        prev = cur.prev
        if prev is None:
            cur = cur.parent  # an ancestor has no text of its own: go on before it
            if cur is None or cur.tag_id in _STOP_TAGS:
                break
            continue
        cur = prev
        # the last text of `prev`'s subtree comes just before: go down its last children
        while cur.tag_id not in _SKIPPED_TAGS and cur.last_child is not None:
            cur = cur.last_child
        if cur.tag_id == _TEXT_TAG:
            text = " ".join((cur.text_content or "").split())
            if text:
                parts.append(text)
                size += len(text) + 1
                if size >= limit:
                    break
    text = " ".join(reversed(parts))
    return text[-limit:] if len(text) > limit else text


# The walks in C (worker/clean/_native.c: the same steps without a Python node per step), once native.py
# has checked them against these on canary pages; else these.
_after, _before = native.header_walks(
    _after_python,
    _before_python,
    HEADER_NODES_MAX,
    tuple(sorted(_SKIPPED_TAGS)),
    tuple(sorted(_STOP_TAGS)),
    (HEADER_AFTER, HEADER_BEFORE),
)


def _is_logo(node: LexborNode) -> bool:
    attrs = node.attributes
    words = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()
    return any(marker in words for marker in LOGO_MARKERS)


def headline(h1s: list[tuple[LexborNode, str]], title: str | None) -> LexborNode | None:
    """The <h1> that holds the article's title (the metadata's title contains its text, or it the
    title's), else the first <h1> that is no logo: a site's logo is often the page's first <h1>."""
    h1s = [(node, text) for node, text in h1s if not _is_logo(node)]
    if not h1s:
        return None
    if title:
        wanted = title.casefold()
        for node, text in h1s:
            text = text.casefold()
            if text in wanted or wanted in text:
                return node
    return h1s[0][0]


def header_dates(h1s: list[tuple[LexborNode, str]], title: str | None, latest: date) -> list[TextDate]:
    """Dates around the headline that no cue marks as something else, closest first: those after it
    in order, then those before it from the nearest back. None when the page has no <h1>."""
    node = headline(h1s, title)
    return [] if node is None else dates_around(node, latest)


def dates_around(headline: LexborNode, latest: date) -> list[TextDate]:
    after = text_dates(_after(headline, HEADER_AFTER), latest, short_years=True)
    before = text_dates(_before(headline, HEADER_BEFORE), latest, short_years=True)
    after = [d for d in after if d.dates_page]
    before = [d for d in before if d.dates_page]
    return after + before[::-1]
