"""Input readers, output writers and site derivation."""

from __future__ import annotations

import base64
import gzip
import io
import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from worker.io import DocumentWriter, ReadStats, read_pages
from worker.models import Block, DocStats, Document
from worker.sample import SITE, sample_dir, sample_pages
from worker.sites import site_of


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.bbc.co.uk/news/x", "bbc.co.uk"),
        ("http://News.Example.COM:8080/a?b", "example.com"),
        ("https://alice.blogspot.com/2020/post", "alice.blogspot.com"),
        ("http://127.0.0.1:9000/p", "127.0.0.1"),
        ("http://localhost/p", "localhost"),
        ("https://www.larkfield-courier.example/a", "larkfield-courier.example"),
        ("https://User:pw@Shop.Example.ORG./x", "example.org"),  # user info, trailing dot
        ("example.com/path", "example.com"),  # no scheme
        ("http://a.b.city.kawasaki.jp/", "city.kawasaki.jp"),  # an exception rule of the list
        ("http://xn--mnchen-3ya.de/", "xn--mnchen-3ya.de"),
        ("http://[::1]:8080/x", "::1"),
        ("http://co.uk/", None),  # a public suffix is nobody's site
        ("http://blogspot.com/", None),  # a private suffix neither
        ("", None),
        (None, None),
        ("not a url", None),
        ("http://[::1", None),
    ],
)
def test_site_of(url: str | None, site: str | None) -> None:
    assert site_of(url) == site


def test_html_folder_is_recursive_sorted_and_ignores_other_files(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.htm").write_bytes(b"<p>z</p>")
    (tmp_path / "a.HTML").write_bytes(b'<link rel="canonical" href="https://x.blogspot.com/p"><p>a</p>')
    (tmp_path / "notes.txt").write_text("skip me")
    stats = ReadStats()
    pages = list(read_pages(tmp_path, stats))
    assert [p.id for p in pages] == ["a.HTML", "b/z.htm"]
    assert pages[0].url == "https://x.blogspot.com/p"
    assert pages[0].site == "x.blogspot.com"
    assert pages[1].body == b"<p>z</p>"
    assert pages[1].site is None
    assert (stats.pages, stats.bad) == (2, 0)


def test_single_html_file_keeps_bytes(tmp_path: Path) -> None:
    f = tmp_path / "p.html"
    f.write_bytes("<p>café</p>".encode("cp1252"))
    (page,) = read_pages(f)
    assert page.id == str(f)
    assert page.body == b"<p>caf\xe9</p>"
    assert page.html is None


def _jsonl(lines: list[bytes]) -> bytes:
    return b"\n".join(lines) + b"\n"


def test_jsonl_html_and_base64_body_and_bad_lines(tmp_path: Path) -> None:
    body = base64.b64encode("<p>ß</p>".encode("cp1252")).decode()
    f = tmp_path / "in.jsonl.gz"
    f.write_bytes(
        gzip.compress(
            _jsonl(
                [
                    orjson.dumps({"id": "1", "url": "https://www.example.co.uk/a", "html": "<p>one</p>"}),
                    b"{not json",
                    b"",
                    b"[1, 2]",
                    orjson.dumps({"id": "4", "body": body, "content_type": "text/html; charset=latin1"}),
                    orjson.dumps({"id": "5", "site": "given.org", "url": "https://other.com/", "html": "x"}),
                    orjson.dumps({"id": "6"}),
                    orjson.dumps({"id": "7", "body": "%%%not base64"}),
                    orjson.dumps({"id": "8", "html": 42}),
                ]
            )
        )
    )
    stats = ReadStats()
    pages = list(read_pages([f], stats))
    assert [p.id for p in pages] == ["1", "4", "5"]
    assert pages[0].site == "example.co.uk"
    assert pages[1].body == b"<p>\xdf</p>"
    assert pages[1].content_type == "text/html; charset=latin1"
    assert pages[2].site == "given.org"
    assert stats.bad == 5
    assert stats.problems[0].startswith(f"{f}:2: invalid JSON")
    assert any(p.startswith(f"{f}:7:") and "no 'html' or 'body'" in p for p in stats.problems)


@given(st.lists(st.binary(max_size=80), max_size=12))
def test_any_jsonl_lines_never_crash_the_reader(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "fuzz.jsonl"
        f.write_bytes(b"\n".join(line.replace(b"\n", b" ") for line in lines))
        stats = ReadStats()
        pages = list(read_pages(f, stats))
        assert stats.pages == len(pages)
        assert all(p.html is not None or p.body is not None for p in pages)


def test_truncated_gzip_keeps_what_was_read(tmp_path: Path) -> None:
    data = gzip.compress(_jsonl([orjson.dumps({"id": str(i), "html": "<p>x</p>" * 200}) for i in range(50)]))
    f = tmp_path / "cut.jsonl.gz"
    f.write_bytes(data[: len(data) // 2])
    stats = ReadStats()
    pages = list(read_pages(f, stats))
    assert 0 < len(pages) < 50
    assert stats.bad == 1
    assert "unreadable from here on" in stats.problems[0]


def test_missing_input_is_reported_not_raised(tmp_path: Path) -> None:
    stats = ReadStats()
    assert list(read_pages([tmp_path / "nope.jsonl"], stats)) == []
    assert stats.bad == 1


def _warc(path: Path) -> None:
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=True)
        for uri, ctype, payload in [
            ("https://www.example.com/a", "text/html; charset=utf-8", b"<p>hello</p>"),
            ("https://www.example.com/logo.png", "image/png", b"\x89PNG"),
            ("https://blog.example.org/b", "text/html", "<p>Grüße</p>".encode()),
        ]:
            headers = StatusAndHeaders("200 OK", [("Content-Type", ctype)], protocol="HTTP/1.1")
            rec = writer.create_warc_record(
                uri, "response", payload=io.BytesIO(payload), http_headers=headers
            )
            writer.write_record(rec)
        meta = writer.create_warc_record(
            "https://www.example.com/a", "metadata", payload=io.BytesIO(b"x"), warc_content_type="text/plain"
        )
        writer.write_record(meta)


def test_warc_response_records(tmp_path: Path) -> None:
    f = tmp_path / "crawl.warc.gz"
    _warc(f)
    stats = ReadStats()
    pages = list(read_pages(f, stats))
    assert [p.url for p in pages] == ["https://www.example.com/a", "https://blog.example.org/b"]
    assert pages[0].id.startswith("urn:uuid:")
    assert pages[0].body == b"<p>hello</p>"
    assert pages[0].content_type == "text/html; charset=utf-8"
    assert pages[0].status == 200
    assert pages[1].site == "example.org"
    assert stats.skipped_non_html == 1


def test_garbage_warc_is_reported(tmp_path: Path) -> None:
    f = tmp_path / "bad.warc"
    f.write_bytes(b"this is not a warc file\r\n\r\n")
    stats = ReadStats()
    assert list(read_pages(f, stats)) == []
    assert stats.bad == 1


def _doc(i: int, text: str) -> Document:
    blocks = (Block("paragraph", text),) if text else ()
    return Document(f"d{i}", None, None, "T", text, blocks, "density", DocStats(1, len(text), 1, 0, 0.1))


def test_jsonl_writer_to_gzip(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl.gz"
    with DocumentWriter(out, "jsonl") as w:
        w.write(_doc(1, "one"))
        w.write(_doc(2, "two"))
    lines = gzip.decompress(out.read_bytes()).splitlines()
    assert [orjson.loads(x)["text"] for x in lines] == ["one", "two"]


def test_text_writer_separates_documents(tmp_path: Path) -> None:
    out = tmp_path / "o.txt"
    with DocumentWriter(out, "cleaneval") as w:
        w.write(_doc(1, "one"))
        w.write(_doc(2, "two"))
    assert out.read_text() == "URL: d1\n<p>one\n\f\nURL: d2\n<p>two\n"


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        DocumentWriter(tmp_path / "x", "pdf")  # type: ignore[arg-type]


def test_sample_site_is_six_pages_of_one_site_with_a_cp1252_page() -> None:
    paths = sample_pages()
    assert len(paths) == 6
    pages = list(read_pages(sample_dir()))
    assert {p.site for p in pages} == {SITE}
    raw = {p.id: p.body or b"" for p in pages}
    assert b'<meta charset="windows-1252">' in raw["library-festival.html"]
    with pytest.raises(UnicodeDecodeError):
        raw["library-festival.html"].decode("utf-8")
