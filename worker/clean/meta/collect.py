"""The scans of the parsed tree for every element that carries metadata, sorted into a Harvest.

The element kinds read are named in one selector list per scan (HEAD, BODY: one walk of the tree each,
in C with the accelerator, select.py) and the matches are dispatched by tag in Python, in document order;
the scan (scan_python, in C with the accelerator) hands over each <meta> as its (key, content) and only
when its key is read, and leaves out the elements whose itemprop says nothing read. The date-like
elements (DATE_MARKS) are read only when no markup dated the page, by a scan that gives their strings,
not nodes (marked.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean import native
from worker.clean.meta import jsonld
from worker.clean.meta import marked as mk
from worker.clean.meta import select as sel
from worker.clean.meta import tables as t
from worker.clean.meta.dates import Stamp, parse_value
from worker.clean.meta.marked import Marks
from worker.clean.meta.select import Attr, Compound, Selector
from worker.clean.meta.text import text_dates

_LD_JSON = Compound("script", (Attr("type", "*=", "ld+json", any_case=True),))
# Everything a head holds that the extractor reads: "meta, link[rel*='canonical' i], title,
# script[type*='ld+json' i]". Of the links only the canonical one is read: the others (stylesheets, icons,
# preloads: 16 a page on the shared pages, a third of the elements dispatched) are not listed. Every rel
# whose lower-cased words hold "canonical" holds it in any ASCII case (str.lower makes its letters from no
# non-ASCII character but "İ", which gives "i" and a combining dot), so _dispatch sees the same canonical
# links.
HEAD = Selector(
    (
        Compound("meta"),
        Compound("link", (Attr("rel", "*=", "canonical", any_case=True),)),
        Compound("title"),
        _LD_JSON,
    )
)
# What a body holds: only element kinds that are rare (tag names, attribute presence, and the byline
# class of WordPress and most themes). "meta, script[type*='ld+json' i], time, abbr[title], [itemprop],
# [property][content], h1, a[rel~='author'], .author"
BODY = Selector(
    (
        Compound("meta"),
        _LD_JSON,
        Compound("time"),
        Compound("abbr", (Attr("title"),)),
        Compound(attrs=(Attr("itemprop"),)),
        Compound(attrs=(Attr("property"), Attr("content"))),
        Compound("h1"),
        Compound("a", (Attr("rel", "~=", "author"),)),
        Compound(cls="author"),
    )
)
# What the text fallback cuts out of the body's text.
SKIPPED_MARKS = Marks(tags=("script", "style", "noscript", "template"))
# Elements whose class or id names a date or byline, read only when markup gave no date (a quarter of
# the pages). An element is read once per word it holds ("post-meta published" twice), as lexbor's CSS
# scan listed it before the C scan replaced it: DATE_ELEMENTS_MAX counts those readings.
DATE_MARKS = Marks(in_class=("date", "publish", "byline", "posted", "datum", "meta", "time"), in_id=("date",))

# Text longer than this in a date-like element is a container of the whole article, not a date line.
DATE_TEXT_MAX = 200
# Date-like elements read per page at most (a comment list has one per comment).
DATE_ELEMENTS_MAX = 12
# Class or id words of date-like elements that date a reader's comment, not the page ("comment-meta",
# "commentmetadata" of WordPress themes). On htmldate's pages: 1 wrong date fewer (check), none lost.
COMMENT_MARKERS: tuple[str, ...] = ("comment",)
# Ancestors of a <time> read for those words (WordPress: time < a < div.comment-metadata < footer <
# article.comment-body < li.comment). On htmldate's pages: 1 wrong date fewer (dev), none lost.
COMMENT_DEPTH = 6
# Author names longer than this are a sentence, not a name.
AUTHOR_MAX = 80
# <h1> elements kept per page at most (the site's logo, the article's title, teasers on a front page).
H1_MAX = 8


_SCHEMA_PREFIXES = ("schema:", "http://schema.org/", "https://schema.org/")
_META, _SCRIPT, _LINK, _TITLE, _TIME, _H1, _ABBR = (
    native.element(name).tag_id for name in ("meta", "script", "link", "title", "time", "h1", "abbr")
)


def fold(text: str) -> str:
    """Whitespace runs as one space, none at the ends (str.split's whitespace is re's \\s: both are
    str.isspace; splitting is ~3x cheaper than the substitution)."""
    return " ".join(text.split())


@dataclass(slots=True)
class Candidate:
    stamp: Stamp
    rule: str
    tier: int


@dataclass(slots=True)
class Harvest:
    published: list[Candidate] = field(default_factory=list)
    modified: list[Candidate] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)  # first value of each meta key
    tags: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    authors: list[tuple[str, str]] = field(default_factory=list)  # (rule, name)
    canonical: str | None = None
    title: str | None = None
    h1: str | None = None  # the first <h1> with text
    h1_nodes: list[tuple[LexborNode, str]] = field(default_factory=list)  # (<h1>, its text) with text
    itemprop_headline: str | None = None
    linked: jsonld.LinkedData = field(default_factory=jsonld.LinkedData)


def _classes(attrs: dict[str, str | None]) -> set[str]:
    return set((attrs.get("class") or "").lower().split())


def _add_date(h: Harvest, value: str | None, rule: str, tier: int, latest: date, modified: bool) -> None:
    if not value:
        return
    stamp = parse_value(value, latest)
    if stamp is not None:
        (h.modified if modified else h.published).append(Candidate(stamp, rule, tier))


def meta_key(raw: str) -> str:
    """A <meta> key as the tables write it: stripped, lower-cased, a schema.org term without its prefix."""
    key = raw.strip().lower()
    if key.startswith(_SCHEMA_PREFIXES):  # RDFa and microdata name schema.org terms with a prefix
        key = key.rsplit("/", 1)[-1].rsplit(":", 1)[-1]
    return key


def _meta_pair(attrs: dict[str, str | None]) -> tuple[str, str] | None:
    """(key, content) of an element's meta attributes, None without a content or a key."""
    content = attrs.get("content")
    if content is None:
        return None
    key = attrs.get("property") or attrs.get("name") or attrs.get("itemprop") or attrs.get("http-equiv")
    return (meta_key(key), content) if key else None


def _meta(attrs: dict[str, str | None], h: Harvest, latest: date) -> None:
    if (pair := _meta_pair(attrs)) is not None:
        _meta_value(*pair, h, latest)


def _meta_value(key: str, content: str, h: Harvest, latest: date) -> None:
    role = t.META_ROLE.get(key)
    if role is None:
        h.meta.setdefault(key, content)
    elif role == "published":
        _add_date(h, content, "meta:" + key, 1, latest, modified=False)
    elif role == "created":
        _add_date(h, content, "meta:" + key, 2, latest, modified=False)
    elif role == "modified":
        _add_date(h, content, "meta:" + key, 1, latest, modified=True)
    elif role == "tag":
        h.tags.extend(p.strip() for p in content.split(",") if p.strip())
    elif role == "section":
        h.sections.extend(p.strip() for p in content.split(",") if p.strip())
    else:
        h.authors.append(("meta:" + key, content))


# A scan's element: a node, or a <meta> read as (key, content).
Scanned = LexborNode | tuple[str, str]
# The tags _dispatch reads by their tag, whatever their attributes.
_BY_TAG = (_SCRIPT, _LINK, _TITLE, _TIME, _H1, _ABBR)
# The microdata properties _itemprop reads (lower-cased): an element of another tag whose itemprop is none
# of them says nothing _dispatch reads ("name", "url", "image": 3 elements a page on the shared pages).
ITEMPROPS_READ: frozenset[str] = frozenset(
    {"datepublished", "datecreated", "datemodified", "author", "headline"}
)


def scan_python(root: LexborNode, selector: Selector) -> list[Scanned]:
    """The elements `selector` names at and below `root` (select.py) that _dispatch reads: each <meta> as
    its (key, content), left out when it gives none or a key the extractor never reads (tables.META_READ);
    an element not of _BY_TAG whose itemprop is none of ITEMPROPS_READ left out."""
    out: list[Scanned] = []
    for node in sel.select(root, selector):
        tag = node.tag_id
        if tag == _META:
            if (pair := _meta_pair(node.attributes)) is not None and pair[0] in t.META_READ:
                out.append(pair)
        elif (
            tag in _BY_TAG
            or "itemprop" not in (attrs := node.attributes)
            or (attrs["itemprop"] or "").lower() in ITEMPROPS_READ
        ):
            out.append(node)
    return out


# In C, once native.py has checked it against scan_python on canary pages: a <meta> whose key is not read,
# an element whose itemprop is not read, is never made a node nor its attributes a dict (an element
# dispatched in Python cost ~1.5 us; a page has 19 <meta>s on the shared pages, 4 of them read).
scan = native.meta_scanner(
    scan_python, (HEAD, BODY), _META, t.META_READ, _SCHEMA_PREFIXES, meta_key, _BY_TAG, ITEMPROPS_READ
)


def in_comment_python(node: LexborNode) -> bool:
    """Whether one of the COMMENT_DEPTH nearest ancestors is named like a comment ("comment-body",
    "comment-list"): the <time> of a reader's comment dates the comment, not the page."""
    parent = node.parent
    for _ in range(COMMENT_DEPTH):
        if parent is None:
            return False
        attrs = parent.attributes
        names = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()
        if any(marker in names for marker in COMMENT_MARKERS):
            return True
        parent = parent.parent
    return False


# In C, once native.py has checked it against in_comment_python on canary pages (the ancestors' class and
# id without a Python dict each).
_in_comment = native.ancestor_marker(in_comment_python, COMMENT_MARKERS, COMMENT_DEPTH)


def _time(node: LexborNode, h: Harvest, latest: date) -> None:
    if _in_comment(node):
        return
    attrs = node.attributes
    value = attrs.get("datetime") or node.text(deep=True)
    classes = _classes(attrs)
    prop = (attrs.get("itemprop") or "").lower()
    if "pubdate" in attrs or prop == "datepublished" or classes & t.PUBLISHED_CLASSES:
        _add_date(h, value, "time[pubdate]", 1, latest, modified=False)
    elif prop == "datemodified" or classes & t.MODIFIED_CLASSES:
        _add_date(h, value, "time[updated]", 1, latest, modified=True)
    else:
        _add_date(h, value, "time", 3, latest, modified=False)


def _itemprop(node: LexborNode, attrs: dict[str, str | None], h: Harvest, latest: date) -> None:
    prop = (attrs.get("itemprop") or "").lower()  # one of ITEMPROPS_READ, or nothing is read
    if prop in ("datepublished", "datecreated", "datemodified"):
        value = attrs.get("content") or attrs.get("datetime") or fold(node.text(deep=True))
        tier = 1 if prop == "datepublished" else 2
        _add_date(h, value, f"microdata:{prop}", tier, latest, modified=prop == "datemodified")
    elif prop == "author":
        name_node = node.css_first("[itemprop='name']")
        name = fold((name_node or node).text(deep=True))
        if name:
            h.authors.append(("microdata:author", name))
    elif prop == "headline" and h.itemprop_headline is None:
        h.itemprop_headline = fold(node.text(deep=True)) or None


def date_element_date(tree: LexborHTMLParser, latest: date) -> Candidate | None:
    """The first date in the text of a date-like element (class "date", "byline", "posted"...), read
    only when markup gave no date: each element's first date, skipping comments' dates and dates whose
    cue says they are no publication date ("bis", "zuletzt geändert"); the elements after the first
    that dates the page are not read."""
    body = tree.body
    elements = mk.marked(body, DATE_MARKS, DATE_ELEMENTS_MAX, DATE_TEXT_MAX * 4) if body is not None else []
    for cls, ident, text in elements:
        names = f"{cls or ''} {ident or ''}".lower()
        if any(marker in names for marker in COMMENT_MARKERS):
            continue
        if text is None:  # longer than DATE_TEXT_MAX * 4: not read past that
            continue
        text = fold(text)
        if not 6 <= len(text) <= DATE_TEXT_MAX:
            continue
        for d in text_dates(text, latest, limit=1):
            if d.dates_page:
                return Candidate(Stamp(d.day), "text:date-element", 3)
    return None


def collect(tree: LexborHTMLParser, latest: date) -> Harvest:
    """Everything the head and body say in markup (the date-like elements are left to
    date_element_date)."""
    h = Harvest()
    scripts: list[str] = []
    head, body = tree.head, tree.body
    for root, selector in ((head, HEAD), (body, BODY)):
        for item in scan(root, selector) if root is not None else ():
            if isinstance(item, tuple):
                key, content = item
                _meta_value(key, content, h, latest)
            else:
                _dispatch(item, h, latest, scripts)
    h.linked = jsonld.read(scripts)
    for prop, value in h.linked.published:
        _add_date(h, value, f"json-ld:{prop}", 1 if prop == "datePublished" else 2, latest, False)
    _add_date(h, h.linked.modified, "json-ld:dateModified", 1, latest, modified=True)
    return h


def _dispatch(node: LexborNode, h: Harvest, latest: date, scripts: list[str]) -> None:
    tag = node.tag_id  # an int read; node.tag would decode a new str per node (a <meta> comes as a pair)
    if tag == _SCRIPT:
        if "ld+json" in (node.attributes.get("type") or "").lower():
            scripts.append(node.text(deep=True))
    elif tag == _LINK:
        rel = (node.attributes.get("rel") or "").lower().split()
        if "canonical" in rel and h.canonical is None:
            h.canonical = node.attributes.get("href")
    elif tag == _TITLE:
        if h.title is None:
            h.title = fold(node.text(deep=True))
    elif tag == _TIME:
        _time(node, h, latest)
    elif tag == _H1:
        text = fold(node.text(deep=True))
        if text and len(h.h1_nodes) < H1_MAX:
            h.h1_nodes.append((node, text))
            if h.h1 is None:
                h.h1 = text
    elif tag == _ABBR:
        # hAtom's <abbr class="published" title="2019-03-14T...">. Other abbr titles are not read:
        # on htmldate's development half they dated 2 pages, both wrong.
        attrs = node.attributes
        classes = _classes(attrs)
        modified = bool(classes & t.MODIFIED_CLASSES)
        marked = modified or bool(classes & t.PUBLISHED_CLASSES)
        if marked:
            _add_date(h, attrs.get("title"), "abbr.published", 1, latest, modified)
    elif "itemprop" in (attrs := node.attributes):
        _itemprop(node, attrs, h, latest)
    elif "property" in attrs:
        _meta(attrs, h, latest)  # RDFa: <span property="schema:dateCreated" content="...">
    else:  # a[rel=author], .author: a byline's name
        name = fold(node.text(deep=True))
        if name and len(name) <= AUTHOR_MAX:
            h.authors.append(("byline", name))
