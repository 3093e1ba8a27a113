"""The message codec: page records in (both forms), documents and dead letters out, all schema-checked."""

from __future__ import annotations

import base64
import hashlib
import json
import typing
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from worker import messages
from worker.messages import (
    Rejection,
    decode_page,
    encode_dead_letter,
    encode_document,
    page_to_record,
    validator,
)
from worker.models import (
    Block,
    Comment,
    DocStats,
    Document,
    ErrorReason,
    FoundDate,
    Page,
    PageMetadata,
    Post,
    Quality,
    TemplateInfo,
)

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Rec:
    key: bytes | None = None
    value: bytes | None = None
    headers: list[tuple[str, bytes]] = field(default_factory=list)
    topic: str = "pages"
    partition: int = 3
    offset: int = 42
    timestamp: int = 1_700_000_000_000


def decode(value: bytes | None, key: bytes | None = None, headers: Any = (), max_bytes: int = 10_000) -> Any:
    return decode_page(Rec(key, value, list(headers)), max_bytes=max_bytes)


def page_json(**fields: Any) -> bytes:
    return orjson.dumps({"url": "https://www.example.co.uk/a", "html": "<p>hello</p>", **fields})


# --- input ---------------------------------------------------------------------------------------


def test_json_page_with_defaults() -> None:
    page = decode(page_json())
    assert page == Page(
        id="pages:3:42", html="<p>hello</p>", url="https://www.example.co.uk/a", site="example.co.uk"
    )


def test_site_precedence_field_then_key_then_registered_domain() -> None:
    assert decode(page_json(site="given"), key=b"from-key").site == "given"
    assert decode(page_json(), key=b"from-key").site == "from-key"
    assert decode(page_json(), key=b"\xff\xfe").site == "example.co.uk"  # undecodable key is ignored
    assert decode(page_json(url="http://10.0.0.1:8080/x")).site == "10.0.0.1"


def test_ids_given_or_traceable_to_the_record() -> None:
    assert decode(page_json(id="abc")).id == "abc"
    assert decode(page_json(id=17)).id == "17"
    assert decode(page_json()).id == "pages:3:42"
    raw = decode(b"<p>x</p>", headers=[("url", b"https://a.example.com/")])
    assert raw.id == "pages:3:42"


def test_body_base64_content_type_from_http_headers_and_timestamps() -> None:
    body = "<p>caf\u00e9</p>".encode("latin-1")
    page = decode(
        orjson.dumps(
            {
                "url": "https://a.example.com/",
                "body": base64.b64encode(body).decode(),
                "headers": {"Content-Type": "text/html; charset=ISO-8859-1"},
                "fetched_at": 1_700_000_000,
                "status": 200,
            }
        )
    )
    assert page.body == body
    assert page.html is None
    assert page.content_type == "text/html; charset=ISO-8859-1"
    assert page.fetched_at == "2023-11-14T22:13:20.000Z"
    assert page.status == 200
    assert decode(page_json(fetched_at=1_700_000_000_123)).fetched_at == "2023-11-14T22:13:20.123Z"


def test_raw_html_form_reads_kafka_headers() -> None:
    headers = [
        ("URL", b"https://news.example.org/1"),
        ("content-type", b"text/html; charset=utf-8"),
        ("fetched-at", b"2024-01-01T00:00:00Z"),
        ("id", b"r1"),
        ("status", b"404"),
    ]
    page = decode(b"<html><p>hi</p></html>", headers=headers)
    assert page == Page(
        id="r1",
        body=b"<html><p>hi</p></html>",
        url="https://news.example.org/1",
        site="example.org",
        content_type="text/html; charset=utf-8",
        fetched_at="2024-01-01T00:00:00Z",
        status=404,
    )
    # A JSON value with a url header is still the JSON form.
    assert decode(page_json(id="j"), headers=[("url", b"https://x.example.com/")]).id == "j"


@pytest.mark.parametrize(
    ("value", "headers", "reason"),
    [
        (b"{nope", [], "invalid_json"),
        (b"[]", [], "invalid_json"),
        (b'"just a string"', [], "invalid_json"),
        (b'{"url": "https://a.example.com/", "html": "\xff"}', [], "undecodable"),
        (orjson.dumps({"html": "<p>x</p>"}), [], "schema_violation"),
        (orjson.dumps({"url": None, "html": "<p>x</p>"}), [], "schema_violation"),
        (page_json(status="200"), [], "schema_violation"),
        (page_json(url="no-scheme"), [], "schema_violation"),
        (page_json(url="mailto:me@example.com"), [], "schema_violation"),
        (orjson.dumps({"url": "https://a.example.com/", "body": "not base64!"}), [], "schema_violation"),
        (page_json(body="PHA+"), [], "schema_violation"),
        (page_json(headers={"content-type": 5}), [], "schema_violation"),
        (b"", [], "empty_input"),
        (None, [], "empty_input"),
        (orjson.dumps({"url": "https://a.example.com/"}), [], "empty_input"),
        (page_json(content_type="image/png"), [], "not_html"),
        (page_json(headers={"Content-Type": "application/json"}), [], "not_html"),
        (b"%PDF-1.4 ...", [("url", b"https://a.example.com/f")], "not_html"),
        (b"\x89PNG\r\n", [("url", b"https://a.example.com/f"), ("content-type", b"text/html")], "not_html"),
        (b"x" * 100_000, [("url", b"https://a.example.com/")], "too_large"),
    ],
)
def test_rejections(value: bytes | None, headers: list[tuple[str, bytes]], reason: str) -> None:
    result = decode(value, headers=headers)
    assert isinstance(result, Rejection), result
    assert result.reason == reason, result.detail
    assert result.detail


def test_rejection_keeps_what_is_known_for_tracing() -> None:
    rejected = decode(page_json(id="p9", content_type="application/pdf"))
    assert (rejected.page_id, rejected.url, rejected.site) == (
        "p9",
        "https://www.example.co.uk/a",
        "example.co.uk",
    )
    assert decode(b"{bad").page_id == "pages:3:42"


urls = st.builds(
    "https://{}/{}".format,
    st.sampled_from(["www.example.com", "a.b.example.co.uk", "127.0.0.1:8080", "blog.example.org"]),
    st.text(alphabet="abcxyz019-_/", max_size=20),
)
pages = st.builds(
    Page,
    id=st.text(min_size=1, max_size=20).filter(lambda s: s.isprintable() and s == s.strip()),
    html=st.one_of(st.none(), st.text(min_size=1, max_size=200).map(lambda t: "<p>" + t)),
    url=urls,
    site=st.one_of(st.none(), st.sampled_from(["example.com", "other.org"])),
    fetched_at=st.one_of(st.none(), st.just("2024-05-01T12:00:00Z")),
    status=st.one_of(st.none(), st.integers(100, 599)),
)


@given(page=pages, as_headers=st.booleans(), raw_body=st.booleans())
def test_page_to_record_round_trips(page: Page, as_headers: bool, raw_body: bool) -> None:
    """decode_page(page_to_record(p)) gives p back (site and defaults filled in) in both input forms."""
    if page.html is None or raw_body:
        page = replace(
            page, html=None, body=b"<html><p>bytes \xe9</p>", content_type="text/html; charset=latin-1"
        )
    key, value, headers = page_to_record(page, as_headers=as_headers)
    decoded = decode_page(Rec(key, value, headers), max_bytes=1_000_000)
    assert isinstance(decoded, Page), decoded
    expected_site = page.site or messages.site_of(page.url)
    assert key == (expected_site.encode() if expected_site else None)
    if as_headers and page.body is None:  # the raw form carries bytes; html comes back as UTF-8 body
        assert decoded.body == (page.html or "").encode()
        assert decoded.content_type == "text/html; charset=utf-8"
        page = replace(page, html=None, body=decoded.body, content_type=decoded.content_type)
    assert decoded == replace(page, site=expected_site)


# --- output --------------------------------------------------------------------------------------


def make_doc(**overrides: Any) -> Document:
    base: dict[str, Any] = {
        "id": "d1",
        "url": "https://www.example.com/x",
        "site": "example.com",
        "title": "T",
        "text": "Hello\n\nWorld",
        "blocks": (Block("heading", "Hello"), Block("paragraph", "World")),
        "method": "density",
        "stats": DocStats(100, 12, 2, 3, 1.23456),
        "lang": "en",
        "encoding": "utf-8",
        "encoding_rule": "declared",
    }
    base.update(overrides)
    return Document(**base)


PAGE = Page(
    id="d1", html="<p>x</p>", url="https://www.example.com/x", site="example.com", fetched_at="2024-01-01"
)


def test_document_message_is_valid_and_keyed_by_site() -> None:
    source = messages.Source("pages", 1, 7)
    key, value, headers = encode_document(
        make_doc(), PAGE, processed_at="2024-01-02T00:00:00.000Z", source=source
    )
    msg = orjson.loads(value)
    validator("document").validate(msg)
    assert key == b"example.com"
    assert dict(headers)["id"] == b"d1"
    assert msg["text"] == "Hello\n\nWorld"
    assert msg["blocks"] == [
        {"kind": "heading", "start": 0, "end": 5},
        {"kind": "paragraph", "start": 7, "end": 12},
    ]
    assert msg["truncated"] is False
    assert msg["source"] == {"topic": "pages", "partition": 1, "offset": 7}
    assert msg["template"] is None
    assert msg["schema_version"] == 2
    assert dict(headers)["schema"] == b"cleanstream.document.v2"
    assert msg["fetched_at"] == "2024-01-01"
    templated = make_doc(method="template", template=TemplateInfo(pages_seen=9, blocks_stripped=4))
    msg = orjson.loads(encode_document(templated, PAGE)[1])
    validator("document").validate(msg)
    assert msg["template"] == {"pages_seen": 9, "blocks_stripped": 4, "fallback_reason": None}


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda m: m.pop("text"),
        lambda m: m.update(method="magic"),
        lambda m: m.update(schema_version=1),
        lambda m: m.update(unexpected_field=1),
        lambda m: m["blocks"].append({"kind": "footer", "start": 0, "end": 1}),
        lambda m: m["blocks"].append({"kind": "heading", "text": "x"}),  # version 1's copy of the text
        lambda m: m.pop("truncated"),
        lambda m: m["stats"].update(input_bytes=-1),
        lambda m: m.update(template={"pages_seen": 1}),
    ],
)
def test_document_schema_rejects_drift(corrupt: Any) -> None:
    msg = orjson.loads(encode_document(make_doc(), PAGE)[1])
    corrupt(msg)
    assert list(validator("document").iter_errors(msg))


def test_dead_letter_inlines_small_values_and_references_large_ones() -> None:
    rec = Rec(key=b"example.com", value=b"{bad", headers=[("url", b"https://x/"), ("n", b"\x00\xff")])
    rejection = decode_page(rec, max_bytes=100)
    assert isinstance(rejection, Rejection)
    key, value, headers = encode_dead_letter(
        rec, rejection, max_value_bytes=10, failed_at="2024-01-01T00:00:00Z"
    )
    msg = orjson.loads(value)
    validator("dead_letter").validate(msg)
    assert key == b"example.com"
    assert dict(headers)["reason"] == b"invalid_json"
    assert base64.b64decode(msg["value_b64"]) == b"{bad"
    assert msg["value_ref"] is None
    assert [(h["key"], base64.b64decode(h["value_b64"])) for h in msg["headers"]] == rec.headers
    assert msg["source"] == {"topic": "pages", "partition": 3, "offset": 42, "timestamp_ms": rec.timestamp}
    assert msg["value_sha256"] == hashlib.sha256(b"{bad").hexdigest()
    big = Rec(value=b"{" + b"x" * 50)
    msg = orjson.loads(encode_dead_letter(big, rejection, max_value_bytes=10)[1])
    validator("dead_letter").validate(msg)
    assert msg["value_b64"] is None
    assert msg["value_bytes"] == 51
    assert msg["value_ref"] == {"topic": "pages", "partition": 3, "offset": 42}
    msg["reason"] = "made_up"
    assert list(validator("dead_letter").iter_errors(msg))


def test_document_errors_become_dead_letters_with_the_same_reason() -> None:
    assert messages.rejection_of(make_doc()) is None
    failed = make_doc(text="", blocks=(), method="none", error="too_many_nodes", error_detail="over 10")
    rejection = messages.rejection_of(failed)
    assert rejection is not None
    assert (rejection.reason, rejection.detail, rejection.stage) == ("too_many_nodes", "over 10", "extract")
    msg = orjson.loads(encode_dead_letter(Rec(value=b"x"), rejection, max_value_bytes=10)[1])
    validator("dead_letter").validate(msg)


def test_every_pipeline_error_reason_is_a_valid_dead_letter_reason() -> None:
    allowed = set(validator("dead_letter").schema["properties"]["reason"]["enum"])
    assert set(typing.get_args(ErrorReason)) <= allowed
    assert {"invalid_json", "schema_violation"} <= allowed


def test_schemas_are_valid_and_one_copy() -> None:
    for name in ("page", "document", "dead_letter"):
        validator(name)  # check_schema runs inside
        top = json.loads((REPO / "schemas" / f"{name}.json").read_text())
        assert top == messages.load_schema(name)


json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 2000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=5),
    st.lists(st.text(max_size=3), max_size=2),
    st.dictionaries(
        st.text(max_size=3), st.one_of(st.text(max_size=3), st.integers(), st.lists(st.text())), max_size=2
    ),
)
page_keys = st.sampled_from(
    ["id", "url", "site", "fetched_at", "status", "content_type", "headers", "html", "body", "other"]
)


@given(st.dictionaries(page_keys, json_values, max_size=6), st.booleans())
def test_quick_page_check_never_accepts_what_the_schema_rejects(msg: dict[str, Any], with_url: bool) -> None:
    if with_url:
        msg["url"] = "https://a.example.com/"
    if messages.quick_valid_page(msg):
        assert validator("page").is_valid(msg), msg


def test_quick_page_check_accepts_the_common_forms() -> None:
    for value in (
        page_json(),
        page_json(id=3, status=200, fetched_at=1.5, headers={"a": "b"}),
        page_json(site=None),
    ):
        assert messages.quick_valid_page(orjson.loads(value))


# --- field limits: one rule for both forms ------------------------------------------------------

LONG = "x" * 100_000


def both_forms(url: str = "https://a.example.com/p", **fields: str) -> list[Any]:
    """The same page sent as a JSON envelope and as raw HTML with Kafka headers."""
    header_names = {"content_type": "content-type", "fetched_at": "fetched-at"}
    headers = [("url", url.encode())] + [(header_names.get(k, k), v.encode()) for k, v in fields.items()]
    return [
        decode(page_json(url=url, **fields), max_bytes=1_000_000),
        decode(b"<p>hello</p>", headers=headers, max_bytes=1_000_000),
    ]


@pytest.mark.parametrize(
    ("field_name", "fields"),
    [
        ("url", {"url": "https://a.example.com/" + LONG}),
        ("id", {"id": LONG}),
        ("content_type", {"content_type": "text/html; charset=" + LONG}),
        ("fetched_at", {"fetched_at": LONG}),
    ],
)
def test_an_over_long_field_is_a_dead_letter_naming_it_in_both_forms(
    field_name: str, fields: dict[str, str]
) -> None:
    for result in both_forms(**fields):
        assert isinstance(result, Rejection), result
        assert result.reason == "schema_violation"
        limit = messages.FIELD_LIMITS[field_name]
        assert result.detail.startswith(f"{field_name}: ")
        assert f"the limit is {limit}" in result.detail
        assert LONG[:1000] not in result.detail  # the value itself is not echoed
        assert result.page_id == "pages:3:42" or len(result.page_id or "") <= messages.FIELD_LIMITS["id"]


def test_fields_at_their_limit_are_accepted_in_both_forms() -> None:
    url = "https://a.example.com/" + "p" * (messages.FIELD_LIMITS["url"] - 22)
    fields = {
        "id": "i" * messages.FIELD_LIMITS["id"],
        "content_type": "text/html; charset=utf-8" + " " * (messages.FIELD_LIMITS["content_type"] - 24),
        "fetched_at": "2024-01-01T00:00:00Z".ljust(messages.FIELD_LIMITS["fetched_at"]),
    }
    for result in both_forms(url, **fields):
        assert isinstance(result, Page), result


def test_a_content_type_from_the_http_headers_map_obeys_the_same_limit() -> None:
    result = decode(page_json(headers={"Content-Type": "text/html; " + LONG}), max_bytes=1_000_000)
    assert isinstance(result, Rejection)
    assert result.detail.startswith("content_type: ")


def test_a_bad_status_header_is_refused_like_a_bad_status_field() -> None:
    for status in ("9" * 5000, "abc", "-1", "1000", "２００"):
        json_form = decode(page_json(status=status))
        raw_form = decode(
            b"<p>x</p>", headers=[("url", b"https://a.example.com/"), ("status", status.encode())]
        )
        assert isinstance(json_form, Rejection)
        assert isinstance(raw_form, Rejection)
        assert raw_form.reason == json_form.reason == "schema_violation"
    assert decode(b"<p>x</p>", headers=[("url", b"https://a.example.com/"), ("status", b"")]).status is None


def test_schema_and_code_share_the_field_limits() -> None:
    props = messages.load_schema("page")["properties"]
    assert {name: props[name]["maxLength"] for name in messages.FIELD_LIMITS} == messages.FIELD_LIMITS
    assert "maxLength" not in props["site"]  # sites are bounded by hashing, not refused


@pytest.mark.parametrize("source", ["site field", "site header", "key"])
def test_a_long_site_becomes_a_bounded_identifier(source: str) -> None:
    long_site = "s" * 64 + "-" + LONG
    if source == "site field":
        page = decode(page_json(site=long_site), max_bytes=1_000_000)
    elif source == "site header":
        page = decode(b"<p>x</p>", headers=[("url", b"https://a.example.com/"), ("site", long_site.encode())])
    else:
        page = decode(page_json(), key=long_site.encode(), max_bytes=1_000_000)
    assert isinstance(page, Page)
    assert page.site == messages.bounded_site(long_site)
    assert len(page.site) <= 253
    assert page.site.startswith("s" * 64 + "~")
    other = messages.bounded_site(long_site + "!")
    assert other != page.site  # distinct long keys stay distinct sites
    assert messages.bounded_site("example.com") == "example.com"
    assert messages.bounded_site("k" * 253) == "k" * 253


# --- the document carries its text once, and always fits the produce limit ----------------------

BIG_BLOCKS = tuple(Block("paragraph", f"Paragraph {i}: " + "word " * 200) for i in range(600))


def test_the_text_is_carried_once() -> None:
    doc = make_doc(blocks=BIG_BLOCKS, text="\n\n".join(b.text for b in BIG_BLOCKS))
    value = encode_document(doc, PAGE)[1]
    text_bytes = len(orjson.dumps(doc.text))
    assert text_bytes < len(value) < text_bytes * 1.1  # version 1 carried it twice: > 2x
    msg = orjson.loads(value)
    assert [msg["text"][b["start"] : b["end"]] for b in msg["blocks"]] == [b.text for b in BIG_BLOCKS]


@pytest.mark.parametrize("limit", [2_000, 20_000, 300_000])
def test_a_document_over_the_produce_limit_is_cut_to_fit(limit: int) -> None:
    doc = make_doc(blocks=BIG_BLOCKS, text="")
    value = encode_document(doc, PAGE, max_bytes=limit)[1]
    assert len(value) <= limit
    msg = orjson.loads(value)
    validator("document").validate(msg)
    assert msg["truncated"] is True
    assert msg["stats"]["output_chars"] == len(msg["text"]) > limit // 3
    kept = [msg["text"][b["start"] : b["end"]] for b in msg["blocks"]]
    assert kept[:-1] == [b.text for b in BIG_BLOCKS[: len(kept) - 1]]
    assert BIG_BLOCKS[len(kept) - 1].text.startswith(kept[-1])
    assert msg["text"].endswith(kept[-1])


def test_escapes_and_wide_characters_are_counted_when_cutting() -> None:
    hostile = tuple(Block("paragraph", '€"\\\x01' * 3000) for _ in range(20))  # 3-byte, escaped, control
    value = encode_document(make_doc(blocks=hostile, text=""), PAGE, max_bytes=50_000)[1]
    assert len(value) <= 50_000
    msg = orjson.loads(value)
    assert "\x01" not in msg["text"]  # controls are written as spaces: one character each
    assert all(msg["text"][b["start"] : b["end"]] for b in msg["blocks"])


def test_a_document_that_fits_is_not_marked() -> None:
    msg = orjson.loads(encode_document(make_doc(), PAGE, max_bytes=1_000_000)[1])
    assert msg["truncated"] is False
    assert msg["text"] == "Hello\n\nWorld"


FULL = {
    "metadata": PageMetadata(
        title="T",
        published=FoundDate("2024-01-01", "json-ld:datePublished"),
        authors=("Ann Lee",),
        description="d" * 5000,
        tags=("roads",),
    ),
    "comments": (Comment("First!", "Bo", "2024-01-02"), Comment("Second.")),
    "posts": (Post("Body.", "Title", None, "2024-01-01"),),
    "quality": Quality(2, 5.0, 0.1, 0.0, 0.5, 1.0, 5.5),
    "blocks": (
        Block("heading", "Hello", Quality(1, 5.0, 0.0, 0.0, 0.0, 0.0, 6.0)),
        Block("paragraph", "World"),
    ),
}


def test_metadata_comments_posts_and_quality_are_in_the_message() -> None:
    msg = orjson.loads(encode_document(make_doc(**FULL), PAGE, processed_at="2024-01-02T00:00:00Z")[1])
    validator("document").validate(msg)
    assert msg["metadata"]["published"] == {"date": "2024-01-01", "rule": "json-ld:datePublished"}
    assert len(msg["metadata"]["description"]) == 2048  # cut: a <meta> can be as long as the page
    assert msg["comments"][0] == {"author": "Bo", "published": "2024-01-02", "text": "First!"}
    assert msg["posts"] == [{"title": "Title", "author": None, "published": "2024-01-01", "text": "Body."}]
    assert msg["quality"]["lm_score"] == 5.5
    assert msg["blocks"][0]["quality"]["lm_score"] == 6.0
    assert "quality" not in msg["blocks"][1]


def test_a_document_over_the_limit_loses_its_comments_and_posts_first() -> None:
    comments = tuple(Comment("word " * 500) for _ in range(40))
    doc = make_doc(comments=comments, posts=FULL["posts"])
    whole = len(encode_document(doc, PAGE)[1])
    value = encode_document(doc, PAGE, max_bytes=whole - 1000)[1]
    msg = orjson.loads(value)
    validator("document").validate(msg)
    assert msg["truncated"] is True
    assert (msg["comments"], msg["posts"]) == ([], [])
    assert msg["text"] == "Hello\n\nWorld"  # the text fits once they are gone
