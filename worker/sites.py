"""Which site a page belongs to: the registered domain (eTLD+1) of its URL.

Template memory is kept per site, so this must be stable and offline: tldextract reads only the public
suffix snapshot bundled with the package (no fetch, no cache directory). Private suffixes count, so
alice.blogspot.com and bob.blogspot.com are different sites with different templates.
"""

from __future__ import annotations

import functools
from hashlib import blake2b
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported on first use: tldextract pulls in requests and filelock (~50 ms at start-up)
    import tldextract

# Longest site identifier kept as it is: the longest DNS name. A site is a key of the template memory,
# of output records and of changelog snapshots, and it can come from an unbounded Kafka key or header;
# a longer one becomes its first SITE_PREFIX_CHARS characters, `~` and a hash of the whole.
SITE_MAX_CHARS = 253
SITE_PREFIX_CHARS = 64
SITE_HASH_BYTES = 12


@functools.cache
def _extractor() -> tldextract.TLDExtract:
    # Built once: loading the snapshot costs a few ms, and the table is read-only afterwards.
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


def site_of(url: str | None) -> str | None:
    """Registered domain of `url`, lower-cased; the bare host for IPs and suffix-less hosts; else None.
    Bounded like every site (`bounded_site`): a URL can be long and its host made up."""
    if not url or not url.strip():
        return None
    try:
        ext = _extractor()(url.strip())
    except Exception:  # a malformed URL must cost the page its site, not the run
        return None
    if ext.suffix and ext.domain:
        return bounded_site(f"{ext.domain}.{ext.suffix}".lower())
    # IPs, intranet names and reserved TLDs (.example, .test, .local) have no public suffix: the
    # whole host, less a leading "www.", is the site.
    host = ".".join(p for p in (ext.subdomain, ext.domain) if p).strip("[]").lower()
    host = host.removeprefix("www.")
    return bounded_site(host) if host and not any(c.isspace() for c in host) else None


def bounded_site(site: str) -> str:
    """`site` itself when it is at most SITE_MAX_CHARS long, else a bounded identifier for it: readable
    prefix, `~`, 24 hex digits of BLAKE2b (distinct long keys stay distinct sites)."""
    if len(site) <= SITE_MAX_CHARS:
        return site
    digest = blake2b(site.encode("utf-8", "surrogatepass"), digest_size=SITE_HASH_BYTES).hexdigest()
    return f"{site[:SITE_PREFIX_CHARS]}~{digest}"
