"""The site of a URL: the registered domain, the same for a host in punycode or in Unicode."""

from __future__ import annotations

import io

from publicsuffixlist import PSLFILE, PublicSuffixList, encode_idn

from worker.sites import bounded_site, site_of


def _reference_site(suffixes: PublicSuffixList, host: str) -> str | None:
    """site_of's rule on a list built with the punycode copy of every IDN rule (what site_of used before)."""
    registered = suffixes.privatesuffix(host)
    if registered:
        return bounded_site(registered)
    if suffixes.is_public(host):
        return None
    return bounded_site(host.removeprefix("www.")) or None


def test_idn_hosts_get_the_sites_the_punycode_rules_gave() -> None:
    # every IDN rule of the bundled list, in Unicode and in punycode, as a suffix, below it and two labels
    # below it: the site found by decoding the host's labels equals the one the list's own punycode copies
    # of its rules gave, label for label (a punycode host's site stays punycode)
    reference = PublicSuffixList(accept_unknown=False)
    with open(PSLFILE, encoding="utf-8") as f:
        rules = [line.split()[0].lstrip("!") for line in f if line.strip() and not line.startswith("//")]
    idn = [r.replace("*", "wild") for r in rules if not r.isascii()]
    assert len(idn) > 100
    checked = 0
    for rule in idn:
        for form in (rule, encode_idn(rule)):
            for host in (form, "a." + form, "www.b.a." + form, "xn--mnchen-3ya." + form, "xn--zz." + form):
                assert site_of(f"http://{host}/") == _reference_site(reference, host), host
                checked += 1
    assert checked == len(idn) * 10
    assert site_of("https://www.xn--mnchen-3ya.de/a") == "xn--mnchen-3ya.de"
    assert site_of("http://b.a.xn--fiqs8s/") == "a.xn--fiqs8s"


def test_the_suffix_list_is_read_as_the_library_reads_it() -> None:
    from worker import sites

    ours = sites._suffixes()
    theirs = PublicSuffixList(accept_unknown=False, accept_encoded_idn=False)
    assert type(ours) is not PublicSuffixList  # our parse, not the library's
    assert (ours._publicsuffix, ours._maxlabel) == (theirs._publicsuffix, theirs._maxlabel)
    # odd lines, from a binary file as the list is read: comments, blank and indented lines, upper case,
    # whitespace after a rule, a space inside one, exceptions and wildcards, bytes that are no UTF-8
    odd = b"// c\n\n  x.y\nA.B\t\nc.d e\n\xc3\x9c.de\r\n!www.ck\n*.ck\nbad\xff.x\n//end"
    mine = type(ours)(io.BytesIO(odd), accept_unknown=False, accept_encoded_idn=False)
    lib = PublicSuffixList(io.BytesIO(odd), accept_unknown=False, accept_encoded_idn=False)
    assert (mine._publicsuffix, mine._maxlabel) == (lib._publicsuffix, lib._maxlabel)
    assert len(lib._publicsuffix) == 6
