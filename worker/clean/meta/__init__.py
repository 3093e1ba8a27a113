"""Page metadata: publication and modification dates, authors, site name, description, canonical URL,
image, tags, categories and the article's own headline, read from the parsed tree in one scan.

    extract_metadata(tree, url) -> PageMetadata

`tree` must be the page as parsed, before pre-cleaning: JSON-LD lives in <script>, which pre-cleaning
removes.
"""

from __future__ import annotations

from datetime import date, timedelta
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from worker.clean.meta import choose
from worker.clean.meta.collect import collect
from worker.clean.meta.dates import url_day
from worker.clean.meta.record import EMPTY, FoundDate, PageMetadata

__all__ = ["EMPTY", "FoundDate", "PageMetadata", "extract_metadata"]


def extract_metadata(tree: LexborHTMLParser, url: str | None = None, today: date | None = None) -> PageMetadata:
    """What the page says about itself. `today` bounds plausible dates (default: the local date)."""
    latest = (today or date.today()) + timedelta(days=1)
    h = collect(tree, latest)
    path = ""
    if url:
        split = urlsplit(url)
        path = split.path + ("?" + split.query if split.query else "")
    day = url_day(path, latest) if path else None
    published = choose.published(h, day)
    if published is None:
        published = choose.from_text(tree, h, latest)
    return PageMetadata(
        title=h.linked.headline or h.h1 or h.title,
        published=published,
        modified=choose.modified(h),
    )
