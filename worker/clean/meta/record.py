"""The metadata of one page, as frozen records (no behaviour here)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FoundDate:
    """A calendar day and the rule that found it, e.g. "json-ld:datePublished", "url", "byline"."""

    date: str  # ISO 8601 day, YYYY-MM-DD
    rule: str


@dataclass(frozen=True, slots=True)
class PageMetadata:
    """What a page says about itself. Every field may be empty: most pages say only some of it."""

    title: str | None = None  # the article's own headline, without the site suffix <title> carries
    published: FoundDate | None = None
    modified: FoundDate | None = None
    authors: tuple[str, ...] = ()
    site_name: str | None = None
    description: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()


EMPTY = PageMetadata()
