"""Pages in, documents and dead letters out, through the real broker and an in-process worker."""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
from aiokafka.partitioner import murmur2
from jsonschema import Draft202012Validator

from tests.integration.conftest import MakeTopic
from tests.integration.workerkit import (
    Got,
    Record,
    collect,
    committed,
    good_records,
    ids_of,
    pipeline_topics,
    produce,
    worker_settings,
)
from worker.messages import validator
from worker.settings import Settings
from worker.stream.runner import Worker
from worker.stream.service import serve

pytestmark = pytest.mark.broker


@contextlib.asynccontextmanager
async def running(settings: Settings, **kwargs: Any) -> AsyncIterator[Worker]:
    """An in-process worker for the block; on exit it is stopped and must drain cleanly (rc 0)."""
    started: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve(settings, install_signals=False, on_started=started.set_result, **kwargs)
    )
    worker = await asyncio.wait_for(started, 10)
    try:
        yield worker
    finally:
        worker.request_stop()
        rc = await asyncio.wait_for(task, settings.drain_grace_s + 5)
    assert rc == 0


def check_schema(records: list[Got], schema: Draft202012Validator) -> None:
    for r in records:
        errors = sorted(schema.iter_errors(r.json()), key=str)
        assert not errors, f"{r.topic}@{r.offset}: {errors[0].message}"


async def test_pages_become_documents_keyed_by_site(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic)
    n = 30
    inputs = good_records(n)  # alternating JSON form and raw-HTML-with-headers form
    await produce(broker, pages, inputs)
    settings = worker_settings(broker, group_id, pages, docs, dead)
    async with running(settings):
        out = await collect(broker, [docs], n, within=30)
    assert sorted(ids_of(out)) == sorted(f"page-{i}" for i in range(n))
    check_schema(out, validator("document"))
    for r in out:
        msg = r.json()
        assert r.key == msg["site"].encode()
        assert msg["url"].startswith(f"https://www.{msg['site']}/story/")
        assert dict(r.headers)["id"] == msg["id"].encode()
        assert msg["method"] == "density"
        assert msg["template"] is None
        i = int(msg["id"].split("-")[1])
        assert msg["title"] == f"Story {i} headline"  # the article's <h1>, not the <title>
        assert f"first paragraph of story number {i}," in msg["text"]
        assert "Copyright" not in msg["text"]
        assert "About" not in msg["text"]
        assert msg["fetched_at"] == "2024-05-01T12:00:00Z"
        assert msg["source"]["topic"] == pages
    # Same site -> same key -> same output partition, so a site's documents stay in order.
    partitions_by_site: dict[str, set[int]] = {}
    for r in out:
        partitions_by_site.setdefault(r.json()["site"], set()).add(r.partition)
    assert all(len(p) == 1 for p in partitions_by_site.values())
    # ... the one Kafka's default partitioner (murmur2) picks for the key, as a consumer that co-partitions
    # by site expects (the worker keeps each key's hash: SitePartitioner)
    assert all(r.partition == (murmur2(r.key) & 0x7FFFFFFF) % 2 for r in out if r.key is not None)
    assert not await collect(broker, [dead], 0, within=0)


def _page(**fields: Any) -> bytes:
    return orjson.dumps({"url": "https://bad.example.com/x", **fields})


# (label, record, expected reason) for every kind of bad input the worker must dead-letter.
MAX_BYTES = 2_000_000
MAX_NODES = 50_000
# The pipeline checks its deadline every 256 nodes of the density walk and after each stage: the slow
# page takes 27-39 ms of CPU on a quiet 2-core machine (2026-11-26; ~100 ms when this test was written),
# the small pages ~1 ms.
TIME_BUDGET_MS = 10.0
SLOW_HTML = "<div>" + "".join(f"<p>para {i} <a href=/x{i}>link</a> {'word ' * 20}</p>" for i in range(10_000))
BAD: list[tuple[str, Record, str]] = [
    ("broken json", (None, b"{not json", []), "invalid_json"),
    ("json array", (None, b"[1, 2]", []), "invalid_json"),
    ("not utf-8", (None, b'{"url": "https://a.example.com/", "html": "\xff\xfe"}', []), "undecodable"),
    ("no url", (None, orjson.dumps({"id": "no-url", "html": "<p>x</p>"}), []), "schema_violation"),
    ("url not a string", (None, orjson.dumps({"url": 5, "html": "<p>x</p>"}), []), "schema_violation"),
    ("relative url", (None, _page(url="/just/a/path", html="<p>x</p>"), []), "schema_violation"),
    ("body not base64", (None, _page(body="***"), []), "schema_violation"),
    ("html and body", (None, _page(html="<p>x</p>", body="PHA+"), []), "schema_violation"),
    ("empty value", (b"bad.example.com", b"", []), "empty_input"),
    ("no body", (None, _page(id="no-body"), []), "empty_input"),
    ("empty html", (None, _page(id="empty-html", html=""), []), "empty_input"),
    ("pdf content type", (None, _page(html="<p>x</p>", content_type="application/pdf"), []), "not_html"),
    (
        "raw pdf bytes",
        (b"bad.example.com", b"%PDF-1.7 binary", [("url", b"https://bad.example.com/f.pdf")]),
        "not_html",
    ),
    (
        "html over max_bytes",
        (None, _page(id="big", html="<p>" + "x" * (MAX_BYTES + 10) + "</p>"), []),
        "too_large",
    ),
    (
        "record over envelope",
        (None, b"y" * (3 * MAX_BYTES + 70_000), [("url", b"https://bad.example.com/")]),
        "too_large",
    ),
    ("too many nodes", (None, _page(id="nodes", html="<b>x</b>" * (MAX_NODES + 10)), []), "too_many_nodes"),
    ("over the time budget", (None, _page(id="slow", html=SLOW_HTML), []), "timeout"),
]


async def test_every_bad_input_is_dead_lettered_with_its_reason(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic, partitions=1)
    good_before = good_records(2, start=100)
    good_after = good_records(3, start=200)
    bad = [(k, v, [*h, ("label", label.encode())]) for label, (k, v, h), _ in BAD]
    await produce(broker, pages, [*good_before, *bad, *good_after], partition=0)
    settings = worker_settings(
        broker, group_id, pages, docs, dead, max_bytes=MAX_BYTES, max_nodes=MAX_NODES,
        time_budget_ms=TIME_BUDGET_MS,
        dead_letter_max_value_bytes=100_000,
    )  # fmt: skip
    async with running(settings):
        dl = await collect(broker, [dead], len(BAD), within=30)
        documents = await collect(broker, [docs], 5, within=15)
    # Bad inputs neither crash nor stall the partition: the good pages after them come out too.
    assert sorted(ids_of(documents)) == sorted([f"page-{i}" for i in (100, 101, 200, 201, 202)])
    check_schema(dl, validator("dead_letter"))
    assert len(dl) == len(BAD)
    by_label = {}
    for r in dl:
        msg = r.json()
        labels = [h for h in msg["headers"] if h["key"] == "label"]
        by_label[base64.b64decode(labels[0]["value_b64"]).decode()] = (r, msg)
    for label, (key, value, headers), reason in BAD:
        r, msg = by_label[label]
        assert msg["reason"] == reason, (label, msg["reason"], msg["detail"])
        assert dict(r.headers)["reason"] == reason.encode()
        assert r.key == key
        assert msg["source"]["topic"] == pages
        assert msg["source"]["partition"] == 0
        assert msg["value_bytes"] == len(value)
        if len(value) <= settings.dead_letter_max_value_bytes:
            assert base64.b64decode(msg["value_b64"]) == value
            assert msg["value_ref"] is None
        else:  # too large to copy: a reference to the original record instead
            assert msg["value_b64"] is None
            assert msg["value_ref"] == {"topic": pages, "partition": 0, "offset": msg["source"]["offset"]}
        assert [base64.b64decode(h["value_b64"]) for h in msg["headers"] if h["key"] != "label"] == [
            v for _, v in headers
        ]
    ids = {m["page_id"] for _, m in by_label.values()}
    assert {"no-url", "no-body", "empty-html", "big", "nodes", "slow"} <= ids
    stages = Counter(m["stage"] for _, m in by_label.values())
    assert set(stages) <= {"decode", "validate", "extract"}
    assert stages["extract"] >= 3
    # Every input offset was committed: each output was acked before its offset was.
    assert await committed(broker, group_id, pages, 1) == {0: 5 + len(BAD)}


async def test_backpressure_pauses_and_still_delivers_everything(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic)
    n = 60
    await produce(broker, pages, good_records(n))
    settings = worker_settings(broker, group_id, pages, docs, dead, max_inflight=4, linger_ms=20)
    async with running(settings) as worker:
        out = await collect(broker, [docs], n, within=30)
        pauses = worker.metrics.backpressure_pauses._value.get()
    assert sorted(ids_of(out)) == sorted(f"page-{i}" for i in range(n))
    assert pauses > 0
