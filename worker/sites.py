"""Which site a page belongs to: the registered domain (eTLD+1) of its URL.

Template memory is kept per site, so this must be stable and offline: publicsuffixlist reads only the
public suffix list bundled with its wheel (no fetch, no cache directory). Private suffixes count, so
alice.blogspot.com and bob.blogspot.com are different sites with different templates.
"""

from __future__ import annotations

import functools
from hashlib import blake2b
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # loaded on first use (~30 ms to read the list): records that name their site skip it
    from publicsuffixlist import PublicSuffixList

# Longest site identifier kept as it is: the longest DNS name. A site is a key of the template memory,
# of output records and of changelog snapshots, and it can come from an unbounded Kafka key or header;
# a longer one becomes its first SITE_PREFIX_CHARS characters, `~` and a hash of the whole.
SITE_MAX_CHARS = 253
SITE_PREFIX_CHARS = 64
SITE_HASH_BYTES = 12


@functools.cache
def _suffixes() -> PublicSuffixList:
    # Built once, read-only afterwards. accept_unknown=False: a host under no listed suffix (an intranet
    # name, .example, .test, an IP) has no registered domain; its whole host is the site (site_of).
    # accept_encoded_idn=False: the punycode copy of every IDN rule took 24-48 of the build's 36-60 ms
    # (one page's `clean` starts in ~250 ms); a host's punycode labels are decoded for the lookup instead.
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList(accept_unknown=False, accept_encoded_idn=False)


def _unicode_host(host: str) -> str:
    """`host` with each punycode label ("xn--...") decoded, as the list's IDN rules are written; a label
    that does not decode to one label stays as it is. The labels keep their number and order."""
    if "xn--" not in host:
        return host
    labels = host.split(".")
    for i, label in enumerate(labels):
        if label.startswith("xn--"):
            try:
                decoded = label.encode("ascii").decode("idna")
            except (UnicodeError, ValueError):
                continue
            if decoded and "." not in decoded:
                labels[i] = decoded
    return ".".join(labels)


def _host(url: str) -> str | None:
    """The URL's host, lower-cased, without brackets or a trailing dot; a URL may lack its scheme."""
    try:
        split = urlsplit(url)
        if not split.netloc:  # "example.com/a": no scheme, so no netloc either
            split = urlsplit("//" + url)
        host = split.hostname
    except ValueError:  # an invalid IPv6 literal or port
        return None
    return host.rstrip(".") if host else None


def site_of(url: str | None) -> str | None:
    """Registered domain of `url`, lower-cased; the bare host for IPs and suffix-less hosts; None for
    no host or a host that is itself a public suffix. Bounded like every site (`bounded_site`): a URL
    can be long and its host made up."""
    if not url or not url.strip():
        return None
    host = _host(url.strip())
    if not host or any(c.isspace() for c in host):
        return None
    suffixes = _suffixes()
    lookup = _unicode_host(host)
    registered = suffixes.privatesuffix(lookup)
    if registered:  # as many of the host's own labels (a punycode host's site stays punycode)
        return bounded_site(".".join(host.split(".")[-(registered.count(".") + 1) :]))
    if suffixes.is_public(lookup):
        return None
    # IPs, intranet names and reserved TLDs (.example, .test, .local): the whole host, less "www.".
    return bounded_site(host.removeprefix("www.")) or None


def bounded_site(site: str) -> str:
    """`site` itself when it is at most SITE_MAX_CHARS long, else a bounded identifier for it: readable
    prefix, `~`, 24 hex digits of BLAKE2b (distinct long keys stay distinct sites)."""
    if len(site) <= SITE_MAX_CHARS:
        return site
    digest = blake2b(site.encode("utf-8", "surrogatepass"), digest_size=SITE_HASH_BYTES).hexdigest()
    return f"{site[:SITE_PREFIX_CHARS]}~{digest}"
