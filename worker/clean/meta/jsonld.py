"""schema.org JSON-LD: the entity the page is about, out of every <script type="application/ld+json">.

Pages put several entities in one script (an @graph, a list) or several scripts (the article, the
breadcrumbs, the publisher, the site search box); the article is the first entity of an article type
(tables.JSONLD_ARTICLE_TYPES), else the first page type. Invalid JSON is common (raw newlines in
strings, trailing commas, two objects pasted together): then the date and headline properties are read
with one bounded regex, which still finds what the page meant.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson

from worker.clean.meta import tables as t

# How deep nested entities are followed (@graph inside mainEntity...): real pages nest two or three.
MAX_DEPTH = 4
# Entities read per page at most: a front page may list hundreds of articles in JSON-LD.
MAX_ENTITIES = 64

# Fallback for scripts orjson rejects: "key": "string value" of the properties the dates need.
_LOOSE = re.compile(
    r'"(datePublished|dateCreated|dateModified|uploadDate|headline)" {0,4}: {0,4}"([^"\\]{1,300})"'
)


@dataclass(slots=True)
class LinkedData:
    """What the JSON-LD of a page says, as the page wrote it (values not yet parsed)."""

    published: list[tuple[str, str]] = field(default_factory=list)  # (property, value), best first
    modified: str | None = None
    headline: str | None = None
    authors: list[str] = field(default_factory=list)
    site_name: str | None = None
    description: str | None = None
    image: str | None = None
    url: str | None = None
    keywords: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)


def _types(entity: dict[str, Any]) -> set[str]:
    raw = entity.get("@type")
    names = raw if isinstance(raw, list) else [raw]
    # "NewsArticle", "schema:NewsArticle" and "http://schema.org/NewsArticle" are the same type.
    return {n.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() for n in names if isinstance(n, str)}


def _entities(value: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    if depth > MAX_DEPTH:
        return
    if isinstance(value, list):
        for item in value:
            yield from _entities(item, depth + 1)
    elif isinstance(value, dict):
        yield value
        for key in t.JSONLD_NESTED:
            nested = value.get(key)
            if isinstance(nested, dict | list):
                yield from _entities(nested, depth + 1)


def _text(value: Any) -> str | None:
    """A plain string property, or the first string of a list (schema.org allows both)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return None


def _names(value: Any) -> list[str]:
    """Names of persons/organisations: a string, {"name": ...}, or a list of either."""
    items = value if isinstance(value, list) else [value]
    names: list[str] = []
    for item in items[:16]:
        if isinstance(item, dict):
            item = item.get("name")
        name = _text(item)
        if name:
            names.append(name)
    return names


def _url(value: Any) -> str | None:
    """An image or URL property: a string, {"url": ...} / {"@id": ...}, or a list of either."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("url") or value.get("contentUrl") or value.get("@id")
    return _text(value)


def _list(value: Any) -> list[str]:
    """Keywords or sections: a comma-separated string or a list of strings."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return []


def read(scripts: list[str]) -> LinkedData:
    """The page's JSON-LD, from the text of each ld+json script in document order."""
    found = LinkedData()
    article: dict[str, Any] | None = None
    page: dict[str, Any] | None = None
    seen = 0
    for script in scripts:
        try:
            data = orjson.loads(script)
        except orjson.JSONDecodeError:
            _loose(script, found)
            continue
        for entity in _entities(data):
            seen += 1
            if seen > MAX_ENTITIES:
                break
            types = _types(entity)
            if types & t.JSONLD_ARTICLE_TYPES:
                # The first article with a date wins over an earlier one without (a teaser list).
                if article is None or ("datePublished" not in article and "datePublished" in entity):
                    article = entity
            elif page is None and types & t.JSONLD_PAGE_TYPES:
                page = entity
            elif found.site_name is None and types & {"website", "newsmediaorganization"}:
                found.site_name = _text(entity.get("name"))
    for chosen in (article, page):
        if chosen is not None:
            _take(chosen, found)
    return found


def _take(entity: dict[str, Any], found: LinkedData) -> None:
    for prop in ("datePublished", "dateCreated", "uploadDate"):
        value = _text(entity.get(prop))
        if value:
            found.published.append((prop, value))
    found.modified = found.modified or _text(entity.get("dateModified"))
    found.headline = found.headline or _text(entity.get("headline")) or _text(entity.get("name"))
    if not found.authors:
        found.authors = _names(entity.get("author")) or _names(entity.get("creator"))
    publisher = entity.get("publisher")
    if found.site_name is None and isinstance(publisher, dict):
        found.site_name = _text(publisher.get("name"))
    found.description = found.description or _text(entity.get("description"))
    found.image = found.image or _url(entity.get("image")) or _url(entity.get("thumbnailUrl"))
    found.url = found.url or _url(entity.get("url"))
    found.keywords = found.keywords or _list(entity.get("keywords"))
    found.sections = found.sections or _list(entity.get("articleSection"))


def _loose(script: str, found: LinkedData) -> None:
    for m in _LOOSE.finditer(script):
        prop, value = m[1], m[2].strip()
        if prop == "dateModified":
            found.modified = found.modified or value
        elif prop == "headline":
            found.headline = found.headline or value
        else:
            found.published.append((prop, value))
