"""Everything that reads input runs in time linear in it: each parser and regex is timed on adversarial
input of two sizes, 16x apart, and must not take more than 64x longer on the larger (linear: 16x; the
quadratic regexes this replaced took 256x). The guard's cases start above its tag threshold, so both sizes
take the same path through it. Ratios of CPU time, not absolute times: the machine is shared and noisy,
so each size is timed several times, interleaved, and the fastest run counts."""

from __future__ import annotations

import gc
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from worker import messages
from worker.clean import classify, decode, dom, fingerprint, guard, quality, render
from worker.clean import heuristics as h
from worker.clean.options import CleanOptions
from worker.clean.pipeline import clean_page
from worker.io import readers
from worker.io.warc import read_warc
from worker.models import Block, DocStats, Document, Page
from worker.sites import bounded_site, site_of

# FURNITURE_LINE's and WIDGET_LINE's rules, as classify matches them (one pattern).
_line_rules = h.FURNITURE_OR_WIDGET_LINE.fullmatch


def _assess(texts: list[str]) -> object:
    return quality.assess(texts, "en", 4.0)


def _comment_page(n: int) -> str:
    """A page of n comments whose authors are marked inline only (so every one is looked up by name)."""
    items = "".join(
        f"<li class='comment'><header><span class='author'>Reader {i}</span> • 5 years ago</header>"
        f"<p>Comment {i} says that the bridge is a fine bridge and the repairs took a long time.</p></li>"
        for i in range(n)
    )
    return f"<html><body><article><p>{'Article words. ' * 40}</p></article><ol id='comments'>{items}</ol>"


def _comments(html: str) -> object:
    return clean_page(Page(id="p", html=html), None, CleanOptions(keep_comments=True))


def _comment_sections_page(n: int) -> str:
    """A page of n sibling comment sections (each its own element named like one) beside the article."""
    sections = "".join(
        f"<div class='comments' id='c{i}'><p>Reader {i} wrote: the bridge is fine and I agree.</p></div>"
        for i in range(n)
    )
    return f"<html><body><article><p>{'Article words. ' * 400}</p></article>{sections}</body></html>"


def _galleries_page(n: int) -> str:
    """n small photo galleries before an article's text: each gallery inside the target is weighed against
    the target's prose."""
    galleries = "".join(
        f"<div class='gallery'><img src='a{i}.jpg'><p>Photo {i}: Reuters</p></div>" for i in range(n)
    )
    return f"<html><body><h1>Title</h1>{galleries}<p>{'Article words here. ' * 20}</p></body></html>"


def _nested_lists_page(n: int) -> str:
    """A post of 16 lists nesting n deep, of prose and linked items: each list's items are read once (not
    again for every list around them) and each box's name once (not again for every item below it)."""
    prose = "The bridge reopened on time and under budget, the council said on Monday after years of work."
    levels = "".join(
        f"<ul><li>{prose} {i}</li><li><a href='/{i}'>Part {i}</a></li><li>{prose}</li>" for i in range(n)
    )
    lists = (levels + "</ul>" * n) * 16
    return f"<html><body><h1>Title</h1><div class='post'>{lists}</div></body></html>"


def _posts_page(n: int) -> str:
    posts = "".join(
        f"<div class='post hentry'><h2>Post {i}</h2><p class='byline'>by Ann Lee, May {i % 28 + 1}, 2024</p>"
        f"<p>{'The bridge reopened on time and under budget, the council said. ' * 4}</p></div>"
        for i in range(n)
    )
    return f"<html><body>{posts}</body></html>"


def _posts(html: str) -> object:
    return clean_page(Page(id="p", html=html))


def _linked_comment_lines(n: int) -> tuple[classify.Candidates, list[str]]:
    """A region of n linked "Comments" lines, each before a paragraph: the first third are passed over (the
    article goes on after them), so the comment tail weighs the good text around each of them."""
    prose = "The bridge reopened on time and under budget, the council said on Monday. " * 3
    rows = [(prose, 0.0, classify.GOOD)]
    for _ in range(n):
        rows += [("Comments", 1.0, classify.BAD), (prose, 0.0, classify.GOOD)]
    texts = [t for t, _, _ in rows]
    words = [len(t.split()) for t in texts]
    link_words = [w if ld else 0 for w, (_, ld, _) in zip(words, rows, strict=True)]
    blocks = classify.Candidates(
        texts, ["paragraph"] * len(rows), [len(t) for t in texts], words, link_words,
        [ld for _, ld, _ in rows], [0] * len(rows),
    )  # fmt: skip
    return blocks, [c for _, _, c in rows]


GROWTH = 16  # the larger input is this many times the smaller
MAX_RATIO = 64  # 4x slack over linear (caches and allocation); quadratic would be 256x
REPEATS = 5


def seconds(run: Callable[[Any], object], arg: Any) -> float:
    # This thread's CPU time, not the wall clock: on a busy machine a run longer than a scheduler slice is
    # preempted and a short one is not, which made wall-clock ratios of linear code pass 64x (8-12 of these
    # cases failed with eight memory-bound processes beside the suite on two cores, none with CPU time).
    started = time.thread_time()
    run(arg)
    return time.thread_time() - started


def assert_linear(
    make: Callable[[int], Any], run: Callable[[Any], object], n: int, repeats: int = REPEATS
) -> None:
    small, large = make(n), make(n * GROWTH)
    gc.disable()
    try:
        best_small = best_large = float("inf")
        for _ in range(repeats):
            best_small = min(best_small, seconds(run, small))
            best_large = min(best_large, seconds(run, large))
    finally:
        gc.enable()
    # A floor for the small run: a few microseconds of call overhead must not make a ratio out of noise.
    ratio = best_large / max(best_small, 2e-4)
    assert ratio < MAX_RATIO, (
        f"{GROWTH}x the input took {ratio:.0f}x the time ({best_small:.5f}s -> {best_large:.5f}s)"
    )


class Rec:
    def __init__(self, value: bytes, headers: list[tuple[str, bytes]], key: bytes | None = None) -> None:
        self.topic, self.partition, self.offset, self.timestamp = "pages", 0, 1, 0
        self.value, self.headers, self.key = value, headers, key


def raw_record(**headers: str) -> Rec:
    return Rec(
        b"<p>x</p>", [("url", b"https://a.example.com/"), *((k, v.encode()) for k, v in headers.items())]
    )


def json_record(**fields: Any) -> Rec:
    return Rec(orjson.dumps({"url": "https://a.example.com/", "html": "<p>x</p>", **fields}), [])


def document(blocks: int) -> Document:
    many = tuple(Block("code", "```" * 50 + '"\\' * 50) for _ in range(blocks))
    return Document(
        "d", "https://a.example.com/", "a.example.com", "T", "", many, "density", DocStats(0, 0, 0, 0, 0)
    )


def check(markup: str) -> guard.Verdict:
    return guard.check(markup, max_nodes=10**9)  # no node limit: time the scans, not an early refusal


def replay(markup: str) -> guard.Shape:
    return guard.shape(markup, max_nodes=10**9)


DECODE = messages.decode_page
CASES: dict[str, tuple[Callable[[int], Any], Callable[[Any], object], int]] = {
    # decode.py: the charset regexes (charset= then spaces was quadratic), the NUL sniff, the whole decode
    "content-type charset, spaces": (
        lambda n: "text/html; charset=" + " " * n,
        decode.charset_from_content_type,
        20_000,
    ),
    "content-type, repeated charset=": (lambda n: "charset=" * n, decode.charset_from_content_type, 5_000),
    "meta charset, spaces": (lambda n: b"<meta charset=" + b" " * n, decode.sniff_meta, 20_000),
    "meta, repeated <meta": (lambda n: b"<meta " * n, decode.sniff_meta, 5_000),
    "meta, repeated charset": (lambda n: b"<meta " + b"charset " * n, decode.sniff_meta, 5_000),
    "xml declaration": (lambda n: b"<?xml " + b"encoding " * n, decode.sniff_meta, 5_000),
    "decode_html, declared spaces": (
        lambda n: (b"<p>x</p>" * n, "text/html; charset=" + " " * n),
        lambda a: decode.decode_html(*a),
        5_000,
    ),
    "decode_html, NUL pattern": (lambda n: "<p>x</p>".encode("utf-16-le") * n, decode.decode_html, 5_000),
    # messages.py: both input forms with over-long fields
    "raw form, long content-type": (
        lambda n: raw_record(**{"content-type": "text/html;" + " " * n}),
        lambda r: DECODE(r, max_bytes=10**7),
        50_000,
    ),
    "raw form, long url": (
        lambda n: Rec(b"<p>x</p>", [("url", b"https://a.example.com/" + b"a" * n)]),
        lambda r: DECODE(r, max_bytes=10**7),
        50_000,
    ),
    "raw form, long site": (lambda n: raw_record(site="s" * n), lambda r: DECODE(r, max_bytes=10**7), 50_000),
    "raw form, long key": (
        lambda n: Rec(b"<p>x</p>", [("url", b"https://a.example.com/")], b"k" * n),
        lambda r: DECODE(r, max_bytes=10**7),
        50_000,
    ),
    "raw form, long status": (
        lambda n: raw_record(status="9" * n),
        lambda r: DECODE(r, max_bytes=10**7),
        50_000,
    ),
    "json form, long content-type": (
        lambda n: json_record(content_type="text/html;" + " " * n),
        lambda r: DECODE(r, max_bytes=10**7),
        50_000,
    ),
    "json form, long id": (lambda n: json_record(id="i" * n), lambda r: DECODE(r, max_bytes=10**7), 50_000),
    "json form, long site": (
        lambda n: json_record(site="s" * n),
        lambda r: DECODE(r, max_bytes=10**7),
        50_000,
    ),
    # sites.py
    "site_of, long host": (lambda n: "https://" + "a." * n + "example.com/", site_of, 5_000),
    "bounded_site": (lambda n: "s" * n, bounded_site, 100_000),
    # io: readers and WARC
    "canonical link regex": (lambda n: b"<link rel=canonical " * n, readers._canonical().search, 2_000),
    "og:url regex": (lambda n: b"<meta property='og:url' " * n, readers._canonical().search, 2_000),
    "jsonl record": (
        lambda n: {"id": "x" * n, "url": "https://a.example.com/" + "u" * n, "html": "<p>" * n},
        lambda r: readers.page_from_record(r, "f:1"),
        20_000,
    ),
    # the guard and the flat rewrite
    "guard, nested divs": (lambda n: "<div>" * n, check, 5_000),
    "guard, unclosed formatting": (
        lambda n: "".join(f"<b id={k}>" for k in range(n)),
        check,
        5_000,
    ),
    "guard, one tag with many attributes": (
        lambda n: "<div " + "a " * n + ">",
        check,
        5_000,
    ),
    "guard replay, rebuilt formatting": (
        lambda n: "<p>" + "<b id=1><i id=2>" * 100 + "</p><p>x" * n,
        replay,
        200,
    ),
    "guard, quoted tags": (
        lambda n: "<div title='" + "<b " * n + "'>",
        check,
        5_000,
    ),
    "guard, unclosed comment": (
        lambda n: "<!--" + "-" * n + "<div>" * n,
        check,
        5_000,
    ),
    "guard, unclosed script": (lambda n: "<script>" + "<div>" * n, check, 5_000),
    "guard replay": (lambda n: "<table><tr><td>x" * n, replay, 2_000),
    "flatten": (lambda n: "<div><a href=x><b id=1>t</b></a><li>" * n, guard.flatten, 500),
    # the head scan before the parser (dom.head_unread: the C scan where built, and its Python reference)
    **{
        f"head scan{where}, {name}": (make, scan, n)
        for where, scan in (("", dom.head_unread), (" (Python)", dom.head_unread_python))
        for name, make, n in (
            ("scripts", lambda n: b"<head>" + b"<script>f()</script>" * n + b"<p>x", 2_000),
            ("links", lambda n: b"<head>" + b"<link rel=icon href=a>\n" * n + b"<p>x", 2_000),
            ("unclosed comment", lambda n: b"<head><!--" + b"-!" * n + b"<p>x", 5_000),
            ("end-tag prefixes", lambda n: b"<head><script>" + b"</scrip" * n + b"</script><p>x", 5_000),
            ("quoted attributes", lambda n: b"<head><meta " + b"a='>' " * n + b"><p>x", 5_000),
        )
    },
    # heuristics and helpers that see page text
    "comment heading": (lambda n: "comments " + "x" * n, h.COMMENT_HEADING.match, 50_000),
    "boilerplate line": (lambda n: "share " * n, h.BOILERPLATE_LINE.match, 20_000),
    "copyright": (lambda n: "(c) " * n, h.COPYRIGHT.search, 20_000),
    "hidden style": (lambda n: "display:" * n, h.HIDDEN_STYLE.search, 20_000),
    "sentence punctuation": (lambda n: "word " * n, h.SENTENCE_PUNCT.search, 20_000),
    "stable class tokens": (lambda n: "a-" * n, fingerprint._STABLE_TOKENS.findall, 20_000),
    "camel humps": (lambda n: "aA" + "a" * n, fingerprint._CAMEL_HUMPS.search, 20_000),
    "normalise": (lambda n: "Page 12 of 13 " * n, fingerprint.normalise, 1_000),
    "fold whitespace": (lambda n: " \t\n x" * n, dom.fold, 20_000),
    "comment controls": (lambda n: "-" * n + "x", h.COMMENT_CONTROL.match, 20_000),
    "comment count": (lambda n: "1" * n + " x", h.COMMENT_COUNT.match, 20_000),
    "says": (lambda n: "Ann " * n, h.SAYS.match, 20_000),
    "author by": (lambda n: "by " * n + "x", h.AUTHOR_BY.search, 20_000),
    "author tail": (lambda n: " on" * n + "x", h.AUTHOR_TAIL.search, 20_000),
    "taxonomy label, spaces": (lambda n: "tags" + " " * n, h.TAXONOMY_LABEL.search, 20_000),
    "taxonomy label, repeated": (lambda n: "filed under " * n, h.TAXONOMY_LABEL.search, 5_000),
    "sign-off": (lambda n: "follow " + "on " * n + "x", re.compile(h.SIGN_OFF, re.IGNORECASE).match, 20_000),
    "sign-off call": (
        lambda n: "to receive " + "e" * n,
        re.compile(h.SIGN_OFF_CALL, re.IGNORECASE).match,
        20_000,
    ),
    "sign-off notice": (
        lambda n: "want more " + "? " * n,
        re.compile(h.SIGN_OFF_NOTICE, re.IGNORECASE).match,
        20_000,
    ),
    "furniture line": (lambda n: "visit " + "a " * n + "on", _line_rules, 20_000),
    "widget line, pager": (lambda n: "1 " * n + "x", _line_rules, 20_000),
    "widget line, vendor": (lambda n: "powered by " + "a - " * n + "x", _line_rules, 20_000),
    "post meta line": (lambda n: "comments (1) " * n + "x", h.POST_META_LINE.fullmatch, 20_000),
    "share count": (lambda n: "1," * n + "x", h.SHARE_COUNT.fullmatch, 20_000),
    "author heading": (lambda n: "ABOUT X" + "'" * n + " y", h.AUTHOR_HEADING.match, 20_000),
    "quality signals": (lambda n: ["It's 2 of the words, don't you think?"] * n, _assess, 500),
    "comment tail, linked comment lines": (_linked_comment_lines, lambda a: classify.comment_tail(*a), 300),
    "comments, inline authors": (_comment_page, _comments, 100),
    "comments, sibling sections": (_comment_sections_page, _comments, 800),
    "posts": (_posts_page, _posts, 50),
    "galleries beside the text": (_galleries_page, _posts, 300),
    "nested lists": (_nested_lists_page, _posts, 25),
    "markdown, fences": (document, render.to_markdown, 100),
    "block spans": (document, render.block_spans, 100),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_grows_linearly(case: str) -> None:
    make, run, n = CASES[case]
    assert_linear(make, run, n)


def test_warc_with_a_long_header_reads_in_linear_time(tmp_path: Path) -> None:
    def make(n: int) -> Path:
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html;" + b" " * n + b"\r\n\r\n<p>x</p>"
        record = (
            b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example.com/\r\n"
            b"WARC-Record-ID: <urn:uuid:1>\r\nContent-Type: application/http; msgtype=response\r\n"
            b"Content-Length: " + str(len(http)).encode() + b"\r\n\r\n" + http + b"\r\n\r\n"
        )
        path = tmp_path / f"{n}.warc"
        path.write_bytes(record)
        return path

    def run(path: Path) -> None:
        pages = list(read_warc(path, readers.ReadStats()))
        assert len(pages) == 1

    assert_linear(make, run, 20_000)


def test_the_check_catches_a_quadratic_regex() -> None:
    """The test above can fail: the charset regex this module replaced is caught."""
    import re

    old = re.compile(rb"charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]+)", re.IGNORECASE)
    with pytest.raises(AssertionError, match="took"):
        assert_linear(lambda n: b"charset=" + b" " * n, old.search, 300, repeats=2)


def test_a_jsonl_line_reads_in_linear_time() -> None:
    def make(n: int) -> bytes:
        return orjson.dumps({"id": "x", "url": "https://a.example.com/", "html": "<p>" + "é" * n}) + b"\n"

    def run(line: bytes) -> None:
        records = list(readers.pages_from_records([("f:1", orjson.loads(line))], readers.ReadStats()))
        assert records

    assert_linear(make, run, 50_000)
