"""The site of a URL: the registered domain, the same for a host in punycode or in Unicode."""

from __future__ import annotations

from pathlib import Path

import publicsuffixlist
import pytest
from publicsuffixlist import PSLFILE, PublicSuffixList, encode_idn

from worker import sites
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


def _rules() -> list[str]:
    with open(PSLFILE, encoding="utf-8") as f:
        return [line.split()[0] for line in f if line.strip() and not line.startswith("//")]


def test_each_last_label_s_own_list_gives_the_sites_the_whole_list_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every rule of the bundled list as a host, one and two labels below it (a wildcard's "*" and an
    # exception's "!" as label characters), in Unicode and in punycode, and hosts under no rule: the sites
    # from the lists of the lines that hold each host's last label (every label of the list given its own
    # list here) equal the sites from the whole list, host for host
    monkeypatch.setattr(sites, "PER_LABEL_LISTS", 10**6)
    monkeypatch.setattr(sites, "_BY_LAST_LABEL", {})
    hosts = [
        "localhost", "intranet", "192.168.0.1", "[::1]", "a.example", "b.test", "x.local", "WWW.Example.COM",
        "foo.CO.UK", "city.kobe.jp", "www.ck", "a.b.c.d.e.f.g.h.i.j.com", "münchen.de", "xn--mnchen-3ya.de",
    ]  # fmt: skip
    for rule in _rules():
        for form in {rule, encode_idn(rule.lstrip("!*."))}:
            hosts += [form, "a." + form, "b.a." + form]
    urls = [f"http://{host.replace('*', 'wild').replace('!', 'x')}/" for host in hosts]
    ours = [site_of(url) for url in urls]
    assert len(sites._BY_LAST_LABEL) > 1000  # the list's top-level labels, each one's list made
    whole = sites._whole_list()
    monkeypatch.setattr(sites, "_suffixes", lambda host: whole)
    assert [site_of(url) for url in urls] == ours


def _holding(data: bytes, label: str) -> list[bytes]:
    """lines_holding's lines, line by line: every line decoded and lower-cased."""
    lines = [x for x in data.split(b"\n") if not x.startswith(b"//")]
    return [x for x in lines if label in x.decode("utf-8", "surrogateescape").lower()]


def test_the_lines_holding_a_label_are_those_a_line_by_line_test_takes() -> None:
    with open(PSLFILE, "rb") as f:
        data = f.read()
    for label in ("com", "jp", "uk", "co", "k", "1", "рф", "中国", "ελ", "xn--p1ai", "nosuchlabel"):
        assert sites.lines_holding(label) == _holding(data, label), label


def test_a_line_whose_lower_case_alone_holds_the_label_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the Kelvin sign's and "İ"'s lower cases hold ASCII ("k", "i"): a line holding one is tested decoded
    listed = tmp_path / "list.dat"
    listed.write_bytes(
        "// \u212aelvin comment\n\u212aelvin.example\nm\u0131\u0131.com\n".encode()
        + "\u0130stanbul.example\nplain.example\n".encode()
        + b"\xff\xfe bad.example\n"  # not UTF-8: decoded with surrogateescape, as publicsuffixlist does
    )
    monkeypatch.setattr(publicsuffixlist, "PSLFILE", str(listed))
    data = listed.read_bytes()
    for label in ("kelvin", "example", "i\u0307stanbul", "bad", "com"):
        assert sites.lines_holding(label) == _holding(data, label), label
    assert sites.lines_holding("kelvin") == ["\u212aelvin.example".encode()]
    monkeypatch.setattr(sites, "_LOWER_CASE_ASCII", ())  # without the guard the line is missed
    assert sites.lines_holding("kelvin") == []


def test_only_the_listed_characters_have_lower_cases_holding_ascii() -> None:
    # lines_holding tests a line beyond ASCII for an ASCII label only when the list holds one of these
    found = tuple(c for c in map(chr, range(0x80, 0x110000)) if any(x.isascii() for x in c.lower()))
    assert found == sites._LOWER_CASE_ASCII


def test_a_process_makes_a_few_labels_lists_then_uses_the_whole_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sites, "_BY_LAST_LABEL", {})
    labels = ["com", "org", "net", "de", "uk", "jp", "fr", "it", "es", "nl", "pl"]
    for label in labels:
        assert site_of(f"https://www.example.{label}/a") == f"example.{label}"
    assert list(sites._BY_LAST_LABEL) == labels[: sites.PER_LABEL_LISTS]
    assert sites._suffixes("a.pl") is sites._whole_list()
    assert sites._suffixes("a.com") is sites._BY_LAST_LABEL["com"]


def test_the_blake2b_of_sites_and_of_the_memory_is_hashlib_s() -> None:
    import hashlib

    from worker.clean import sitememory

    assert sites.blake2b is hashlib.blake2b
    assert sitememory.blake2b is hashlib.blake2b
