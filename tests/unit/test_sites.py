"""The site of a URL: the registered domain, the same for a host in punycode or in Unicode."""

from __future__ import annotations

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
