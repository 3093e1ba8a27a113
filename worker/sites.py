"""Which site a page belongs to: the registered domain (eTLD+1) of its URL.

Template memory is kept per site, so this must be stable and offline: publicsuffixlist reads only the
public suffix list bundled with its wheel (no fetch, no cache directory). Private suffixes count, so
alice.blogspot.com and bob.blogspot.com are different sites with different templates.
"""

from __future__ import annotations

import functools
import re
from _blake2 import blake2b  # hashlib's own, without importing OpenSSL (9 M instructions of start-up)
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:  # loaded on first use (to read the list): records that name their site skip it
    from publicsuffixlist import PublicSuffixList

# Longest site identifier kept as it is: the longest DNS name. A site is a key of the template memory,
# of output records and of changelog snapshots, and it can come from an unbounded Kafka key or header;
# a longer one becomes its first SITE_PREFIX_CHARS characters, `~` and a hash of the whole.
SITE_MAX_CHARS = 253
SITE_PREFIX_CHARS = 64
SITE_HASH_BYTES = 12


# A host is looked up in a list made of the lines that can hold its rules (those holding its last label; at
# most PER_LABEL_LISTS labels a process, the others share the whole list): the whole list took 110 million of
# one page's ~1,070 million instructions, the lines of "com" ~30 million, found and read (callgrind).
PER_LABEL_LISTS = 8
_BEYOND_ASCII = bytes(range(128)) + b"\x80" * 128  # (bytes.translate: each byte beyond ASCII as 0x80)
# The characters beyond ASCII whose lower case holds an ASCII character ("İ" -> "i̇", the Kelvin sign -> "k";
# test_sites checks every code point). A lone surrogate (an undecodable byte) is its own lower case.
_LOWER_CASE_ASCII = ("\u0130", "\u212a")
_BY_LAST_LABEL: dict[str, PublicSuffixList] = {}


def _new_list(lines: list[bytes] | None = None) -> PublicSuffixList:
    """The bundled list (or those of its lines). accept_unknown=False: a host under no listed suffix (an
    intranet name, .example, .test, an IP) has no registered domain; its whole host is the site (site_of).
    accept_encoded_idn=False: the punycode copy of every IDN rule took 24-48 of the whole list's 36-60 ms;
    a host's punycode labels are decoded for the lookup instead."""
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList(lines, accept_unknown=False, accept_encoded_idn=False)


@functools.cache
def _whole_list() -> PublicSuffixList:
    return _new_list()


def lines_holding(label: str) -> list[bytes]:
    """The lines of the bundled list (split at b"\\n", as publicsuffixlist reads its file) that are no
    comment and hold `label` (not empty) once decoded as publicsuffixlist decodes them and lower-cased, in
    file order.

    Each line is found by a regex search from its first match to its end, then its start (a test of every
    line, in Python or in C, took 10-40 million instructions). An ASCII line's bytes lower-cased are its
    text lower-cased; a line beyond ASCII is decoded and tested when the label is beyond ASCII too, or when
    the list holds a character whose lower case holds ASCII (_LOWER_CASE_ASCII)."""
    from publicsuffixlist import PSLFILE

    with open(PSLFILE, "rb") as f:
        data = f.read()
    spans: list[tuple[int, int]] = []  # each taken line's start and end, in file order
    if label.isascii():
        lowered = data.lower()
        found = re.finditer(re.escape(label.encode("ascii")) + rb"[^\n]*", lowered)  # one match a line
        spans = [(lowered.rfind(b"\n", 0, start) + 1, end) for start, end in map(re.Match.span, found)]
    if not label.isascii() or any(c.encode("utf-8") in data for c in _LOWER_CASE_ASCII):
        taken = dict(spans)
        for m in re.finditer(rb"\x80[^\n]*", data.translate(_BEYOND_ASCII)):
            start = data.rfind(b"\n", 0, m.start()) + 1
            if label in data[start : m.end()].decode("utf-8", "surrogateescape").lower():
                taken[start] = m.end()
        spans = sorted(taken.items())
    return [data[start:end] for start, end in spans if not data.startswith(b"//", start)]


def _suffixes(host: str) -> PublicSuffixList:
    """A list that answers for `host` (lower-cased by the lookup) as the whole list does; made once.

    publicsuffixlist's lookup (_countpublic) tests only names made of the host's last labels, with "!" or
    "*." before them, so only a rule that ends in the host's last label can match, and every such rule's
    line holds that label (lines_holding); a list of fewer rules only starts the lookup at fewer labels,
    where none of its rules could match anyway."""
    label = host.removesuffix(".").lower().rsplit(".", 1)[-1]
    found = _BY_LAST_LABEL.get(label)
    if found is None:
        if len(_BY_LAST_LABEL) >= PER_LABEL_LISTS or not label:
            return _whole_list()
        found = _BY_LAST_LABEL[label] = _new_list(lines_holding(label))
    return found


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
    lookup = _unicode_host(host)
    suffixes = _suffixes(lookup)
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
