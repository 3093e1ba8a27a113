"""bytes -> text: which rule wins, WHATWG label mapping, and never raising."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given
from hypothesis import strategies as st

from worker.clean.decode import (
    BINARY_MIN_CONTROLS,
    binary_data,
    canonical_codec,
    charset_from_content_type,
    decode_html,
    is_html_content_type,
    not_html,
    sniff_meta,
)

GERMAN = (
    "<p>Der Bürgermeister sagte, dass die Straße gesperrt wird, weil Bauarbeiten nötig sind. "
    "Über die Kosten äußerte er sich nicht, aber die Anwohner ärgern sich über den Lärm.</p>"
)

RUSSIAN = (
    "<html><body><p>Москва - столица России, крупнейший по численности населения город страны. "
    "Город расположен на реке Москве.</p></body></html>"
)


def test_declared_content_type_wins_and_latin1_means_cp1252() -> None:
    body = "<p>café – 5 €</p>".encode("cp1252")
    d = decode_html(body, "text/html; charset=ISO-8859-1")
    assert (d.text, d.encoding, d.rule) == ("<p>café – 5 €</p>", "cp1252", "declared")


def test_bare_charset_label_is_accepted() -> None:
    d = decode_html("<p>naïve</p>".encode("cp1252"), "latin1")
    assert d.text == "<p>naïve</p>"
    assert d.rule == "declared"


def test_bom_beats_a_wrong_declaration() -> None:
    d = decode_html(codecs.BOM_UTF8 + "<p>ß</p>".encode(), "text/html; charset=windows-1252")
    assert (d.text, d.encoding, d.rule) == ("<p>ß</p>", "utf-8", "bom")


def test_utf16_bom() -> None:
    d = decode_html(codecs.BOM_UTF16_LE + "<p>日本</p>".encode("utf-16-le"), None)
    assert (d.text, d.rule) == ("<p>日本</p>", "bom")


def test_meta_charset_used_when_nothing_declared() -> None:
    body = '<html><head><meta charset="windows-1252"></head><p>“quoted” café</p>'.encode("cp1252")
    d = decode_html(body, None)
    assert (d.encoding, d.rule) == ("cp1252", "meta")
    assert "“quoted” café" in (d.text or "")


def test_http_equiv_meta() -> None:
    body = (
        b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r"><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>'
    )
    d = decode_html(body, "text/html")
    assert (d.encoding, d.rule) == ("koi8-r", "meta")
    assert "Привет" in (d.text or "")


def test_xml_declaration() -> None:
    body = '<?xml version="1.0" encoding="ISO-8859-15"?><html><p>€</p></html>'.encode("iso8859-15")
    d = decode_html(body, None)
    assert d.rule == "meta"
    assert "€" in (d.text or "")


def test_wrong_http_charset_loses_to_a_meta_that_decodes() -> None:
    body = '<meta charset="windows-1252"><p>café</p>'.encode("cp1252")
    d = decode_html(body, "text/html; charset=utf-8")
    assert (d.encoding, d.rule) == ("cp1252", "meta")


def test_declared_utf8_with_one_stray_byte_stays_utf8() -> None:
    body = ("<p>" + "Grüße aus Köln. " * 100 + "</p>").encode() + b"\xff"
    d = decode_html(body, "text/html; charset=utf-8")
    assert (d.encoding, d.rule) == ("utf-8", "declared-lossy")
    assert (d.text or "").count("\ufffd") == 1


def test_undeclared_utf8() -> None:
    d = decode_html("<p>Grüße</p>".encode(), None)
    assert (d.text, d.encoding, d.rule) == ("<p>Grüße</p>", "utf-8", "utf8")


def test_detection_prefers_cp1252_for_latin_text() -> None:
    d = decode_html(GERMAN.encode("cp1252"), None)
    assert (d.encoding, d.rule) == ("cp1252", "detected")
    assert d.text == GERMAN


def test_detection_of_shift_jis() -> None:
    text = "<p>日本語のテキストです。これは文字コードの判定のためのテストの文章です。</p>"
    d = decode_html(text.encode("shift_jis"), None)
    assert d.rule == "detected"
    assert d.text == text


@pytest.mark.parametrize(
    ("text", "encoding", "codec"),
    [
        (RUSSIAN, "cp1251", "cp1251"),
        (RUSSIAN, "koi8-r", "koi8-r"),
        ("<p>北京是中华人民共和国的首都，是全国的政治中心、文化中心。</p>", "gb18030", "gb18030"),
        ("<p>서울특별시는 대한민국의 수도이자 최대 도시이다.</p>", "euc-kr", "cp949"),
    ],
)
def test_detection_of_other_scripts(text: str, encoding: str, codec: str) -> None:
    d = decode_html(text.encode(encoding), None)
    assert (d.text, d.encoding, d.rule) == (text, codec, "detected")


def test_cp1252_undefined_bytes_map_to_c1_like_browsers() -> None:
    d = decode_html(b"<p>a\x81b\x9dc</p>", "windows-1252")
    assert (d.text, d.rule) == ("<p>a\x81b\x9dc</p>", "declared")


@pytest.mark.parametrize(
    "label", ["utf-7", "base64", "rot13", "x-nonsense", "unicode_escape", "", "\x00utf-8", "\udcff", "é" * 50]
)
def test_unknown_or_unsafe_labels_are_skipped(label: str) -> None:
    d = decode_html(b"<p>+AGEAYgBj-</p>", f"text/html; charset={label}")
    assert d.text == "<p>+AGEAYgBj-</p>"
    assert d.rule == "utf8"


def test_meta_claiming_utf16_means_utf8() -> None:
    assert canonical_codec("utf-16", "meta") == "utf-8"
    assert canonical_codec("utf-16le", "declared") == "utf-16-le"


@pytest.mark.parametrize(
    ("label", "codec"),
    [
        ("ISO-8859-1", "cp1252"),
        ("us-ascii", "cp1252"),
        ("latin1", "cp1252"),
        ("ISO-8859-9", "cp1254"),
        ("gb2312", "gb18030"),
        ("Shift_JIS", "cp932"),
        ("euc-kr", "cp949"),
        ("'UTF-8'", "utf-8"),
        ("windows-874", "cp874"),
        ("bogus", None),
    ],
)
def test_whatwg_label_mapping(label: str, codec: str | None) -> None:
    assert canonical_codec(label) == codec


def test_charset_from_content_type() -> None:
    assert charset_from_content_type('text/html; charset="utf-8"') == "utf-8"
    assert charset_from_content_type("text/html") is None
    assert charset_from_content_type("windows-1251") == "windows-1251"
    assert charset_from_content_type(None) is None


def test_sniff_meta_looks_only_at_markup() -> None:
    assert sniff_meta(b"<META CHARSET=Shift_JIS>") == "Shift_JIS"
    assert sniff_meta(b"<p>charset=utf-8</p>") is None


@pytest.mark.parametrize(
    ("ct", "expected"),
    [
        ("text/html; charset=utf-8", True),
        ("application/xhtml+xml", True),
        ("TEXT/HTML", True),
        (None, True),
        ("", True),
        ("application/pdf", False),
        ("image/png", False),
        ("text/plain", False),
    ],
)
def test_is_html_content_type(ct: str | None, expected: bool) -> None:
    assert is_html_content_type(ct) is expected


@pytest.mark.parametrize(
    ("content_type", "body", "reason"),
    [
        ("application/pdf", b"<p>x</p>", "content type application/pdf"),
        (None, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3", "body starts with the signature of a PDF file"),
        ("text/html", b"\r\n\x89PNG\r\n\x1a\n", "body starts with the signature of a PNG file"),
        ("text/html; charset=utf-8", b"\x1f\x8b\x08\x00", "body starts with the signature of a gzip file"),
        (None, b"\x28\xb5\x2f\xfd\x00", "body starts with the signature of a zstd file"),
        ("text/html", b"<!doctype html><p>%PDF-1.7 is a format</p>", None),
        (None, None, None),
    ],
)
def test_another_format_is_named_by_its_type_or_its_first_bytes(
    content_type: str | None, body: bytes | None, reason: str | None
) -> None:
    assert not_html(content_type, body) == reason


def test_binary_data_is_told_from_text_by_its_control_characters() -> None:
    noise = bytes((i * 7919 + 13) % 256 for i in range(8192))  # every byte value, spread
    assert binary_data(decode_html(noise).text) == "binary data: 114 control characters in the first 1024"
    assert binary_data(RUSSIAN) is None
    assert binary_data("") is None
    # a page with a few stray control characters is still text: at most 1% of its first 1,024 characters ...
    assert binary_data("<p>" + "\x00" * 10 + "Words of a page. " * 300 + "</p>") is None
    assert binary_data("<p>" + "\x00" * 11 + "Words of a page. " * 300 + "</p>") is not None
    # ... and fewer than BINARY_MIN_CONTROLS in a short fragment
    few = "\x0b" * (BINARY_MIN_CONTROLS - 1)
    assert binary_data(f"<p>Hello{few}</p>") is None
    assert binary_data(f"<p>Hello{few}\x0b</p>") is not None


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc",)), max_size=5000))
def test_text_without_controls_is_never_binary(text: str) -> None:
    assert binary_data(text) is None


@given(st.binary(max_size=2048), st.one_of(st.none(), st.text(max_size=40)))
def test_any_bytes_decode_without_raising(body: bytes, declared: str | None) -> None:
    d = decode_html(body, declared)
    assert isinstance(d.text, str)
    assert d.rule
    assert d.encoding is not None


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=500))
def test_declared_utf8_round_trips(text: str) -> None:
    d = decode_html(text.encode("utf-8"), "text/html; charset=utf-8")
    # A leading U+FEFF is indistinguishable from a byte-order mark, which is dropped.
    assert d.text == text.removeprefix("\ufeff")


WIDE_PAGE = (
    "<html><head><meta charset=utf-8><title>Wide</title></head><body><p>Grüße aus 東京</p></body></html>"
)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_without_bom_are_recognised_before_any_declaration(codec: str) -> None:
    body = WIDE_PAGE.encode(codec)
    for declared in ("text/html; charset=utf-8", "text/html; charset=windows-1252", None):
        d = decode_html(body, declared)  # the <meta> inside says utf-8 too: both lie
        assert (d.text, d.encoding, d.rule) == (WIDE_PAGE, codec, "nul-pattern")


@pytest.mark.parametrize("codec", ["utf-32-le", "utf-32-be"])
def test_utf32_bom(codec: str) -> None:
    bom = codecs.BOM_UTF32_LE if codec.endswith("le") else codecs.BOM_UTF32_BE
    d = decode_html(bom + WIDE_PAGE.encode(codec), None)
    assert (d.text, d.encoding, d.rule) == (WIDE_PAGE, codec, "bom")


def test_a_few_nul_bytes_do_not_make_a_page_utf16() -> None:
    body = ("<html><body><p>" + "text " * 200 + "</p></body></html>").encode() + b"\x00\x00\x00"
    d = decode_html(body, "text/html; charset=utf-8")
    assert (d.encoding, d.rule) == ("utf-8", "declared")


def test_nul_bytes_without_markup_are_not_taken_for_utf16() -> None:
    d = decode_html(b"a\x00" * 500, None)  # UTF-16 of "aaa...": no markup, not worth trusting
    assert d.rule != "nul-pattern"


@given(st.binary(max_size=4096))
def test_sniffing_never_raises(body: bytes) -> None:
    from worker.clean.decode import sniff_wide

    assert sniff_wide(body) in (None, "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
    assert decode_html(body, None).text is not None


def test_charset_regexes_read_long_runs_of_spaces() -> None:
    # Quadratic before: 36 s at 64 KB. Now one pass; a wrong result would show as a found charset.
    spaces = " " * 200_000
    assert charset_from_content_type("text/html; charset=" + spaces) is None
    assert sniff_meta(b"<meta charset=" + spaces.encode() + b">") is None
    assert sniff_meta(b"<meta " * 20_000) is None
    assert charset_from_content_type("text/html; charset=" + spaces + "utf-8") == "utf-8"


@given(
    st.binary(max_size=2048),
    st.sampled_from([None, "text/html; charset=utf-8", "text/html; charset=latin-1"]),
)
def test_the_body_stands_for_the_text_only_when_it_is_its_utf8(body: bytes, declared: str | None) -> None:
    decoded = decode_html(body, declared)
    if decoded.utf8 is not None:
        assert decoded.utf8 == body
        assert decoded.text is not None
        assert decoded.text.encode("utf-8") == body


def test_a_utf8_page_is_handed_to_the_parser_as_it_came() -> None:
    body = "<p>caf\u00e9 \u201cquoted\u201d</p>".encode()
    assert decode_html(body, "text/html; charset=utf-8").utf8 is body
    assert decode_html(body).utf8 is body  # no declaration: strict UTF-8 first
    assert decode_html(b"<p>caf\xe9</p>", "text/html; charset=windows-1252").utf8 is None
