"""Page metadata: publication and modification dates, authors, site name, description, canonical URL,
image, tags, categories and the article's own headline, read from the parsed tree.

    extract_metadata(tree, url) -> PageMetadata

`tree` must be the page as parsed, before pre-cleaning: JSON-LD lives in <script>, which pre-cleaning
removes. The tree is only read, never changed. Cost: one selector scan of <head>, one of <body>; a
short walk from the headline where the markup gives no date or several; pages that neither dates get a
scan for date-like elements and, failing that, a search of the visible text (the scans, the walk and the
visible text in C with the accelerator: select.py, header.py, marked.py).
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from worker.clean import native
from worker.clean.meta import choose, fields
from worker.clean.meta import tables as t
from worker.clean.meta.collect import Candidate
from worker.clean.meta.collect import collect as harvest
from worker.clean.meta.dates import Stamp, url_day, url_dmy_day
from worker.clean.meta.header import header_dates
from worker.models import NO_METADATA, FoundDate, PageMetadata

__all__ = ["NO_METADATA", "FoundDate", "PageMetadata", "extract_metadata"]


# A URL of the usual form: "http(s)://", a host of letters, digits, dots and hyphens, an optional port,
# then "/", "?", "#" or its end, with none of the characters urlsplit removes (tab, CR, LF). Its parts are
# read here as urlsplit reads them (the netloc ends at the first "/", "?" or "#"; the fragment is cut at
# the first "#", then the query at the first "?"): urlsplit and its hostname cost ~35 K instructions a
# page in pure Python (callgrind), the match a tenth of that. Any other URL goes through urlsplit.
_PLAIN_URL = re.compile(r"https?://([A-Za-z0-9.-]*)(?::[0-9]*)?([/?#][^\t\r\n]*)?")


def _url_parts(url: str | None) -> tuple[str, str]:
    """The path (with its query) and the country-domain suffix of a page URL, "" when unknown."""
    if not url:
        return "", ""
    plain = _PLAIN_URL.fullmatch(url)
    if plain is not None:
        path, _, query = (plain[2] or "").split("#", 1)[0].partition("?")
        return path + ("?" + query if query else ""), plain[1].lower().rsplit(".", 1)[-1]
    return _split_url_parts(url)


def _split_url_parts(url: str) -> tuple[str, str]:
    """_url_parts by urlsplit: any URL (the reference of _PLAIN_URL's reading)."""
    try:
        split = urlsplit(url)
        host = split.hostname or ""
    except ValueError:  # malformed (an unclosed IPv6 bracket): no URL evidence
        return "", ""
    return split.path + ("?" + split.query if split.query else ""), host.rsplit(".", 1)[-1]


def _url_days(
    url: str | None, path: str, canonical: str | None, latest: date
) -> tuple[date | None, date | None]:
    """The permalink's year-first day and a slug's day-first day, from the fetched URL (`path` is its
    path) or else the canonical one: the permalink, which may carry the date the fetched URL lacks (AMP,
    short links, ?p=123). A canonical URL that is the fetched one (9 pages in 10) is not read twice."""
    paths = [path]
    if canonical and canonical != url:
        paths.append(_url_parts(canonical)[0])
    day = next((d for p in paths if p and (d := url_day(p, latest)) is not None), None)
    dmy = next((d for p in paths if p and (d := url_dmy_day(p, latest)) is not None), None)
    return day, dmy


def extract_metadata(
    tree: LexborHTMLParser, url: str | None = None, today: date | None = None
) -> PageMetadata:
    """What the page says about itself. `today` bounds plausible dates (default: the local date)."""
    latest = (today or date.today()) + timedelta(days=1)  # a day's slack for time zones ahead of ours
    h = harvest(tree, latest)
    path, suffix = _url_parts(url)
    canonical = h.canonical or h.meta.get("og:url") or h.linked.url
    day, dmy = _url_days(url, path, canonical, latest)
    if dmy is not None:  # a slug's day-first date is weaker: a tier-2 source among the markup's
        h.published.append(Candidate(Stamp(dmy), "url:dmy", 2))
    site = fields.site_name(h)
    title = fields.title(h, site)
    markup = choose.from_markup(h, day, suffix, latest)
    days = choose.markup_days(h, day, suffix)
    header = header_dates(h.h1_nodes, title, latest) if choose.header_decides(markup, days) else []
    published = (
        choose.checked(markup, days, header)
        or choose.from_header(header)
        or choose.from_time(h, suffix, latest)
        or choose.from_elements(tree, latest)
        or choose.from_text(tree, h, title, latest)
    )
    image = fields.first_meta(h, t.META_IMAGE) or h.linked.image
    return _new_metadata(
        title=title,
        published=published,
        modified=choose.modified(h),
        authors=fields.authors(h),
        site_name=site,
        description=fields.first_meta(h, t.META_DESCRIPTION) or fields.clean(h.linked.description),
        canonical_url=fields.url(canonical, url),
        image=fields.url(image, url),
        tags=fields.labels(h.tags, h.linked.keywords),
        categories=fields.labels(h.sections, h.linked.sections),
    )


# PageMetadata made in C (its slots filled directly), once native.py has checked it against the dataclass's
# own __init__, which sets each field through object.__setattr__ (~10 K instructions a page, callgrind).
_new_metadata = native.instance_maker(
    PageMetadata, ("t", None, FoundDate("2020-01-02", "url"), ("a",), "s", "d", "c", "i", ("x",), ())
)
