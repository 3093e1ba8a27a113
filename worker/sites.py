"""Which site a page belongs to: the registered domain (eTLD+1) of its URL.

Template memory is kept per site, so this must be stable and offline: tldextract reads only the public
suffix snapshot bundled with the package (no fetch, no cache directory). Private suffixes count, so
alice.blogspot.com and bob.blogspot.com are different sites with different templates.
"""

from __future__ import annotations

import functools

import tldextract


@functools.cache
def _extractor() -> tldextract.TLDExtract:
    # Built once: loading the snapshot costs a few ms, and the table is read-only afterwards.
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=True)


def site_of(url: str | None) -> str | None:
    """Registered domain of `url`, lower-cased; the bare host for IPs and suffix-less hosts; else None."""
    if not url or not url.strip():
        return None
    try:
        ext = _extractor()(url.strip())
    except Exception:  # a malformed URL must cost the page its site, not the run
        return None
    if ext.suffix and ext.domain:
        return f"{ext.domain}.{ext.suffix}".lower()
    # IPs, intranet names and reserved TLDs (.example, .test, .local) have no public suffix: the
    # whole host, less a leading "www.", is the site.
    host = ".".join(p for p in (ext.subdomain, ext.domain) if p).strip("[]").lower()
    host = host.removeprefix("www.")
    return host if host and not any(c.isspace() for c in host) else None
