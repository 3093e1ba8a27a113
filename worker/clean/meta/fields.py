"""The non-date fields: each from its most specific source, cleaned of what sites wrap around it."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from worker.clean.meta import tables as t
from worker.clean.meta.collect import AUTHOR_MAX, Harvest, fold

# Separators between a page's title and its site's name in <title> and og:title ("Story | Site").
TITLE_SEPARATORS: tuple[str, ...] = (" | ", " – ", " — ", " - ", " · ", " :: ", " « ", " » ", " // ")
# Words that introduce a byline's names ("By Jane Doe", "Von Max Muster", "Par Jean Dupont").
_BYLINE_PREFIX = re.compile(r"^(?:by|von|par|por|di|door|av|af|autor(?:in)?:?|author:?)\s", re.IGNORECASE)
# Separators between several authors in one string.
_AUTHOR_SPLIT = re.compile(r"\s(?:and|und|et|y|e|en|och|og)\s|\s?[,;&/|]\s?")
# At most this many authors, tags and categories are kept (a keyword-stuffed page lists hundreds).
MAX_AUTHORS = 10
MAX_TAGS = 50
# A tag or category longer than this is a sentence, not a label.
TAG_MAX = 100


def clean(value: str | None) -> str | None:
    """Whitespace folded, HTML entities decoded (JSON-LD carries them escaped), None when empty."""
    if not value:
        return None
    if "&" in value:
        # imported here: 47 of the first 358 pages of the shared sets have an entity in a field, and the
        # html module's entity table cost one page's `clean` 7.6 million instructions (callgrind)
        from html import unescape

        value = unescape(value)
    value = fold(value)
    return value or None


def _handle(value: str | None) -> str | None:
    """Drop social handles and profile URLs where a name is wanted ("@site", "https://fb.com/x")."""
    value = clean(value)
    if value is None or value.startswith(("@", "http://", "https://", "/")):
        return None
    return value


def strip_site(title: str, site_name: str | None) -> str:
    """The title without the site's name around it: "Story | Site" -> "Story"."""
    for sep in TITLE_SEPARATORS:
        if sep not in title:
            continue
        parts = [p.strip() for p in title.split(sep)]
        if site_name:
            low = site_name.lower()
            kept = [p for p in parts if p.lower() != low]
            if len(kept) < len(parts) and kept:
                return sep.join(kept)
        # Without a known site name: the site's part is the shorter end ("Story - Site").
        if len(parts) == 2:
            return max(parts, key=len)
        return title
    return title


def site_name(h: Harvest) -> str | None:
    for key in t.META_SITE_NAME:
        value = _handle(h.meta.get(key))
        if value:
            return value
    return _handle(h.linked.site_name)


def title(h: Harvest, site: str | None) -> str | None:
    """The article's own headline: schema.org headline, og:title, itemprop headline, <h1>, <title>."""
    for value in (h.linked.headline, *(h.meta.get(k) for k in t.META_TITLE), h.itemprop_headline):
        value = clean(value)
        if value:
            return strip_site(value, site)
    if h.h1:
        return h.h1
    value = clean(h.title)
    return strip_site(value, site) if value else None


def _split_names(value: str) -> list[str]:
    value = _BYLINE_PREFIX.sub("", value).strip()
    return [p.strip() for p in _AUTHOR_SPLIT.split(value) if p.strip()]


def authors(h: Harvest) -> tuple[str, ...]:
    """Names from the most specific source that gives any: JSON-LD, <meta>, microdata, bylines."""
    sources: list[list[str]] = [h.linked.authors, [], [], []]
    for rule, name in h.authors:
        slot = 1 if rule.startswith("meta") else 2 if rule.startswith("microdata") else 3
        sources[slot].append(name)
    for names in sources:
        out: list[str] = []
        seen: set[str] = set()
        for raw in names:
            value = _handle(raw)
            if value is None:
                continue
            for name in _split_names(value) if len(value) > 2 else ():
                key = name.casefold()
                if key not in seen and len(name) <= AUTHOR_MAX and not name.isdigit():
                    seen.add(key)
                    out.append(name)
        if out:
            return tuple(out[:MAX_AUTHORS])
    return ()


def first_meta(h: Harvest, keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = clean(h.meta.get(key))
        if value:
            return value
    return None


def url(value: str | None, base: str | None) -> str | None:
    value = clean(value)
    if value is None:
        return None
    if base and not value.startswith(("https://", "http://")):
        try:
            return urljoin(base, value)
        except ValueError:  # a malformed URL (bad IPv6 literal) is kept as written
            return value
    return value


def labels(*lists: list[str]) -> tuple[str, ...]:
    """Tags or categories from several sources, deduplicated case-insensitively, in order."""
    out: list[str] = []
    seen: set[str] = set()
    for values in lists:
        for raw in values:
            value = clean(raw)
            if value is None or len(value) > TAG_MAX:
                continue
            key = value.casefold()
            if key not in seen:
                seen.add(key)
                out.append(value)
                if len(out) >= MAX_TAGS:
                    return tuple(out)
    return tuple(out)
