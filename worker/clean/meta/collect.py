"""One scan of the parsed tree for every element that carries metadata, sorted into a Harvest.

lexbor runs a CSS selector as one walk of the tree whatever the number of alternatives in it, so every
element kind the extractor reads is named in one selector (SELECTOR) and the matches are dispatched by
tag in Python, in document order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from selectolax.lexbor import LexborHTMLParser, LexborNode

from worker.clean.meta import jsonld
from worker.clean.meta import tables as t
from worker.clean.meta.dates import Stamp, find_dates, parse_value

SELECTOR = (
    "meta, link[rel], title, script, style, noscript, template, time, abbr[title], [itemprop], h1,"
    " a[rel~='author'], [class*='date' i], [id*='date' i], [class*='publish' i], [class*='byline' i],"
    " [class*='posted' i], [class*='datum' i], [class*='meta' i], [class*='author' i]"
)

_SPACE = re.compile(r"\s+")
# Text longer than this in a date-like element is a container of the whole article, not a date line.
DATE_TEXT_MAX = 200
# Date-like elements read per page at most (a comment list has one per comment).
DATE_ELEMENTS_MAX = 12
# Author names longer than this are a sentence, not a name.
AUTHOR_MAX = 80


_SKIPPED = frozenset({"script", "style", "noscript", "template"})


def fold(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


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
    h1: str | None = None
    itemprop_headline: str | None = None
    linked: jsonld.LinkedData = field(default_factory=jsonld.LinkedData)
    date_elements: int = 0
    skipped: list[LexborNode] = field(default_factory=list)  # scripts and styles in document order


def _classes(node: LexborNode) -> set[str]:
    return set((node.attributes.get("class") or "").lower().split())


def _add_date(h: Harvest, value: str | None, rule: str, tier: int, latest: date, modified: bool) -> None:
    if not value:
        return
    stamp = parse_value(value, latest)
    if stamp is not None:
        (h.modified if modified else h.published).append(Candidate(stamp, rule, tier))


def _meta(node: LexborNode, h: Harvest, latest: date) -> None:
    attrs = node.attributes
    content = attrs.get("content")
    if content is None:
        return
    for attr in ("property", "name", "itemprop", "http-equiv"):
        key = attrs.get(attr)
        if not key:
            continue
        key = key.strip().lower()
        if key in t.META_PUBLISHED:
            _add_date(h, content, f"meta:{key}", 1, latest, modified=False)
        elif key in t.META_CREATED:
            _add_date(h, content, f"meta:{key}", 2, latest, modified=False)
        elif key in t.META_MODIFIED:
            _add_date(h, content, f"meta:{key}", 1, latest, modified=True)
        elif key in t.META_TAGS:
            h.tags.extend(p.strip() for p in content.split(",") if p.strip())
        elif key in t.META_SECTION:
            h.sections.extend(p.strip() for p in content.split(",") if p.strip())
        elif key in t.META_AUTHOR:
            h.authors.append((f"meta:{key}", content))
        else:
            h.meta.setdefault(key, content)
        return


def _time(node: LexborNode, h: Harvest, latest: date) -> None:
    attrs = node.attributes
    value = attrs.get("datetime") or node.text(deep=True)
    classes = _classes(node)
    prop = (attrs.get("itemprop") or "").lower()
    if "pubdate" in attrs or prop == "datepublished" or classes & t.PUBLISHED_CLASSES:
        _add_date(h, value, "time[pubdate]", 1, latest, modified=False)
    elif prop == "datemodified" or classes & t.MODIFIED_CLASSES:
        _add_date(h, value, "time[updated]", 1, latest, modified=True)
    else:
        _add_date(h, value, "time", 3, latest, modified=False)


def _itemprop(node: LexborNode, h: Harvest, latest: date) -> None:
    attrs = node.attributes
    prop = (attrs.get("itemprop") or "").lower()
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


def _date_element(node: LexborNode, h: Harvest, latest: date) -> None:
    if h.date_elements >= DATE_ELEMENTS_MAX:
        return
    text = node.text(deep=True)
    if len(text) > DATE_TEXT_MAX * 4:
        return
    text = fold(text)
    if not 6 <= len(text) <= DATE_TEXT_MAX:
        return
    h.date_elements += 1
    for day in find_dates(text, latest, limit=1):
        h.published.append(Candidate(Stamp(day), "text:date-element", 3))


def collect(tree: LexborHTMLParser, latest: date) -> Harvest:
    h = Harvest()
    scripts: list[str] = []
    for node in tree.css(SELECTOR):
        tag = node.tag
        if tag == "meta":
            _meta(node, h, latest)
        elif tag in _SKIPPED:
            h.skipped.append(node)
            if tag == "script" and "ld+json" in (node.attributes.get("type") or "").lower():
                scripts.append(node.text(deep=True))
        elif tag == "link":
            rel = (node.attributes.get("rel") or "").lower().split()
            if "canonical" in rel and h.canonical is None:
                h.canonical = node.attributes.get("href")
        elif tag == "title":
            if h.title is None:
                h.title = fold(node.text(deep=True))
        elif tag == "time":
            _time(node, h, latest)
        elif tag == "h1":
            if h.h1 is None:
                h.h1 = fold(node.text(deep=True)) or None
        elif tag == "abbr" and _classes(node) & (t.PUBLISHED_CLASSES | t.MODIFIED_CLASSES):
            modified = bool(_classes(node) & t.MODIFIED_CLASSES)
            _add_date(h, node.attributes.get("title"), "abbr.published", 1, latest, modified)
        elif "itemprop" in node.attributes:
            _itemprop(node, h, latest)
        elif tag == "a":
            name = fold(node.text(deep=True))
            if name and len(name) <= AUTHOR_MAX:
                h.authors.append(("rel=author", name))
        else:
            _date_element(node, h, latest)
    h.linked = jsonld.read(scripts)
    for prop, value in h.linked.published:
        _add_date(h, value, f"json-ld:{prop}", 1 if prop == "datePublished" else 2, latest, False)
    _add_date(h, h.linked.modified, "json-ld:dateModified", 1, latest, modified=True)
    return h
