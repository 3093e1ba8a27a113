"""Whatever a producer writes, a record yields exactly one valid output and nothing raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson
from hypothesis import given
from hypothesis import strategies as st

from worker.messages import validator
from worker.settings import Settings
from worker.stream.handle import handle_record

SETTINGS = Settings(output_topic="docs", dead_letter_topic="dead", max_bytes=20_000, max_nodes=500)
OPTIONS = SETTINGS.clean_options()


@dataclass
class Rec:
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes]] = field(default_factory=list)
    topic: str = "pages"
    partition: int = 0
    offset: int = 7
    timestamp: int = -1


html_bits = st.sampled_from(
    [
        "<p>",
        "</p>",
        "<div>",
        "<script>x</script>",
        "text words here ",
        "<!--",
        "&amp;",
        "\u00e9",
        "<",
        "\x00",
        "<h1>",
    ]
)
htmlish = st.lists(html_bits, max_size=40).map("".join)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**62), 2**62),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    htmlish,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "id": scalars,
        "url": st.one_of(
            scalars, st.sampled_from(["https://a.example.com/x", "http://[::1]/", "//x", "https://"])
        ),
        "site": scalars,
        "fetched_at": scalars,
        "status": scalars,
        "content_type": st.one_of(
            scalars, st.sampled_from(["text/html", "image/png", "text/html; charset=bogus"])
        ),
        "headers": st.one_of(scalars, st.dictionaries(st.text(max_size=12), scalars, max_size=3)),
        "html": st.one_of(scalars, htmlish),
        "body": st.one_of(scalars, st.sampled_from(["PGI+eDwvYj4=", "", "////", "%%%"])),
    },
)
json_values = fields.map(orjson.dumps)
raw_values = st.one_of(st.binary(max_size=300), htmlish.map(str.encode))
header_lists = st.lists(
    st.tuples(
        st.sampled_from(["url", "content-type", "fetched-at", "id", "status", "x"]), st.binary(max_size=40)
    ),
    max_size=4,
)


def check(record: Rec) -> None:
    output, _ = handle_record(record, SETTINGS, OPTIONS)
    assert output.topic in {"docs", "dead"}
    schema = validator("document" if output.topic == "docs" else "dead_letter")
    message: Any = orjson.loads(output.value)
    errors = list(schema.iter_errors(message))
    assert not errors, errors[0].message
    if output.topic == "dead":
        assert output.reason == message["reason"]
    else:
        assert output.key == message["site"].encode()


@given(st.one_of(st.none(), st.binary(max_size=20)), json_values, header_lists)
def test_any_json_record_yields_one_valid_output(key: bytes | None, value: bytes, headers: Any) -> None:
    check(Rec(key, value, headers))


@given(st.one_of(st.none(), st.binary(max_size=20)), st.one_of(st.none(), raw_values), header_lists)
def test_any_raw_record_yields_one_valid_output(key: bytes | None, value: bytes | None, headers: Any) -> None:
    check(Rec(key, value, [*headers, ("url", b"https://raw.example.com/p")]))
    check(Rec(key, value, headers))


def test_a_clean_page_becomes_a_document() -> None:
    value = orjson.dumps(
        {"url": "https://a.example.com/", "html": "<h1>Hello</h1><p>" + "word " * 40 + "</p>"}
    )
    output, document = handle_record(Rec(None, value), SETTINGS, OPTIONS)
    assert output.topic == "docs", output.value
    assert document is not None
    assert output.method == document.method
