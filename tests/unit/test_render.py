"""Renderings of a Document."""

from __future__ import annotations

import math

import orjson
import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st

from worker.clean import native, render
from worker.models import (
    Block,
    Comment,
    DocStats,
    Document,
    FoundDate,
    PageMetadata,
    Post,
    Quality,
    TemplateInfo,
)

STATS = DocStats(input_bytes=1000, output_chars=120, blocks_kept=6, blocks_dropped=9, elapsed_ms=1.23456)


def doc(**kw: object) -> Document:
    fields: dict[str, object] = {
        "id": "p1",
        "url": "https://news.example.com/a",
        "site": "example.com",
        "title": "Bridge reopens",
        "text": "",
        "blocks": (
            Block("paragraph", "The bridge reopened."),
            Block("heading", "What was done"),
            Block("list_item", "new bearings"),
            Block("list_item", "new   asphalt"),
            Block("quote", "It was a long\nwinter."),
            Block("code", "x = 1\n```\ny = 2"),
            Block("paragraph", "# not a heading"),
        ),
        "method": "density",
        "stats": STATS,
    }
    fields.update(kw)
    return Document(**fields)  # type: ignore[arg-type]


def test_json_dict_core_fields_and_optional_ones_only_when_set() -> None:
    d = render.to_json_dict(doc(text="t"))
    assert list(d)[:6] == ["id", "url", "title", "text", "blocks", "method"]
    assert d["blocks"][2] == {"kind": "list_item", "start": 37, "end": 49}
    assert d["text"][37:49] == "new bearings"  # the text once; blocks are slices of it
    assert [d["text"][b["start"] : b["end"]] for b in d["blocks"]] == [b.text for b in doc().blocks]
    assert d["site"] == "example.com"
    assert d["stats"]["elapsed_ms"] == 1.235
    for absent in ("lang", "template", "error", "error_detail", "encoding", "extra"):
        assert absent not in d


def test_json_dict_with_error_template_and_lang() -> None:
    d = render.to_json_dict(
        doc(
            blocks=(),
            method="none",
            error="too_large",
            error_detail="6000000 bytes > limit",
            lang="en",
            template=TemplateInfo(pages_seen=4, blocks_stripped=7),
            encoding="cp1252",
            encoding_rule="meta",
        )
    )
    assert d["error"] == "too_large"
    assert d["error_detail"] == "6000000 bytes > limit"
    assert d["lang"] == "en"
    assert d["template"] == {"pages_seen": 4, "blocks_stripped": 7, "fallback_reason": None}
    assert (d["encoding"], d["encoding_rule"]) == ("cp1252", "meta")


def test_to_json_is_one_line_of_valid_json() -> None:
    line = render.to_json(doc(title="a\nb"))
    assert b"\n" not in line
    assert orjson.loads(line)["title"] == "a\nb"


def test_to_text_joins_blocks_with_blank_lines() -> None:
    d = doc(blocks=(Block("paragraph", "One."), Block("heading", "Two")))
    assert render.to_text(d) == "One.\n\nTwo"


def test_to_text_of_an_empty_document_is_empty() -> None:
    assert render.to_text(doc(blocks=(), text="")) == ""


def test_cleaneval_tags_per_kind() -> None:
    out = render.to_cleaneval(doc()).split("\n\n")
    assert out[:5] == [
        "<p>The bridge reopened.",
        "<h>What was done",
        "<l>new bearings",
        "<l>new asphalt",
        "<p>It was a long winter.",
    ]
    assert out[5] == "<p>x = 1 ``` y = 2"


FRONT = '---\ntitle: "Bridge reopens"\nurl: "https://news.example.com/a"\n---\n\n'


def test_markdown() -> None:
    md = render.to_markdown(doc())
    assert md.startswith(FRONT)
    md = md.removeprefix(FRONT)
    assert md.startswith("# Bridge reopens\n\nThe bridge reopened.\n\n## What was done\n\n")
    # consecutive list items form one list
    assert "- new bearings\n- new asphalt\n\n" in md
    assert "> It was a long\n> winter." in md
    # the code contains a ``` run, so the fence is longer
    assert "````\nx = 1\n```\ny = 2\n````" in md
    # a paragraph that looks like a heading is escaped
    assert md.endswith("\\# not a heading")


def test_markdown_without_title() -> None:
    assert render.to_markdown(doc(title="  ", url=None, blocks=(Block("heading", "H"),))) == "## H"


META = PageMetadata(
    title="Bridge reopens",
    published=FoundDate("2026-11-20", "json-ld:datePublished"),
    modified=FoundDate("2026-11-21", "meta:article:modified_time"),
    authors=("Ann O'Neil", 'Bo "Jr." Lee'),
    site_name="Example: News --- daily",
    tags=("roads", "city"),
)


def test_markdown_front_matter_is_yaml_of_the_metadata() -> None:
    md = render.to_markdown(doc(metadata=META))
    matter, body = md.removeprefix("---\n").split("\n---\n\n", 1)
    assert yaml.safe_load(matter) == {
        "title": "Bridge reopens",
        "url": "https://news.example.com/a",
        "published": "2026-11-20",
        "modified": "2026-11-21",
        "authors": ["Ann O'Neil", 'Bo "Jr." Lee'],
        "site_name": "Example: News --- daily",
        "tags": ["roads", "city"],
    }
    assert body.startswith("# Bridge reopens")


def test_markdown_comments_and_posts() -> None:
    comments = (Comment("First!\n\nSecond line.", "Ann", "2026-11-21"), Comment("# me too"))
    md = render.to_markdown(doc(comments=comments))
    assert md.endswith(
        "## Comments\n\n### 1. *Ann · 2026-11-21*\n\nFirst!\n\nSecond line.\n\n### 2. Comment\n\n\\# me too"
    )
    posts = (Post("Body one.", "One", "Ann", "2026-11-01"), Post("Body two."))
    md = render.to_markdown(doc(posts=posts))
    assert "## One\n\n*Ann · 2026-11-01*\n\nBody one.\n\n## Post\n\nBody two." in md
    assert "The bridge reopened." not in md  # the posts stand for the text


def test_json_dict_carries_metadata_comments_and_posts() -> None:
    d = render.to_json_dict(doc(metadata=META, comments=(Comment("Nice.", None, None),)))
    assert d["metadata"]["published"] == {"date": "2026-11-20", "rule": "json-ld:datePublished"}
    assert d["metadata"]["authors"] == ["Ann O'Neil", 'Bo "Jr." Lee']
    assert d["metadata"]["description"] is None
    assert d["comments"] == [{"author": None, "published": None, "text": "Nice."}]
    assert d["posts"] == []


@given(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-40_000, 40_000).map(lambda k: k / 2000))
@example(1.0005)  # stored just below the half, scaled by 1000 exactly onto it
@example(-1e-12)  # rounds to a negative zero
@example(0.0005)
def test_quality_rounding_equals_round(value: float) -> None:
    fast, exact = render._rounded(value), round(value, render.QUALITY_DIGITS)
    if math.isnan(exact):
        assert math.isnan(fast)
    else:
        assert fast == exact
        assert math.copysign(1, fast) == math.copysign(1, exact)


FIELD_VALUES = (
    st.floats(allow_nan=True, allow_infinity=True)
    | st.integers(-40_000, 40_000).map(lambda k: k / 2000)
    | st.sampled_from([0.0, -0.0, 1.0005, -1e-12, 0.0005, 2.675])
    | st.integers(-3, 3)
)


@pytest.mark.skipif(
    native.status().get("quality_dict") != "native", reason="the C quality dict is not active"
)
@given(
    st.integers(0, 10**6),
    st.tuples(*[FIELD_VALUES] * 4),
    st.tuples(FIELD_VALUES | st.none(), FIELD_VALUES | st.none()),
)
def test_quality_dicts_in_c_equal_pythons(
    words: int, ratios: tuple[float, ...], optional: tuple[float | None, ...]
) -> None:
    q = Quality(words, *ratios[:3], optional[0], ratios[3], optional[1])
    assert repr(render.quality_dict(q)) == repr(render.quality_dict_python(q))  # signs of zeros, NaN
