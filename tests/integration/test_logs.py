"""No page content in logs at any level (issue 9 item 10), with everything at DEBUG.

aiokafka logs every request, response and sent record at DEBUG; the worker redacts their payloads
(worker/stream/kafka.py). Failures are logged by type and place, never by message. The cleaning
processes log to the same stderr, captured here too.
"""

from __future__ import annotations

import logging

import pytest

from tests.integration.conftest import MakeTopic
from tests.integration.test_worker_pipeline import running
from tests.integration.workerkit import collect, pipeline_topics, produce, worker_settings
from worker.messages import page_to_record
from worker.models import Page

pytestmark = pytest.mark.broker

MARKER = "Quixotic-marker-sentence-that-must-never-reach-a-log"


async def test_debug_logs_carry_no_page_content(
    broker: str,
    make_topic: MakeTopic,
    group_id: str,
    caplog: pytest.LogCaptureFixture,
    capfd: pytest.CaptureFixture[str],
) -> None:
    pages, docs, dead = await pipeline_topics(make_topic, partitions=1)
    html = (
        f"<html><head><title>{MARKER}</title></head><body><article><h1>{MARKER}</h1>"
        + (f"<p>{MARKER} is repeated here so the page has enough text to keep as its content.</p>" * 5)
        + "</article></body></html>"
    )
    good = page_to_record(Page(id="marked", html=html, url="https://logs.example/a"))
    broken = (None, ("{" + f'"url": "https://logs.example/b", "html": "{MARKER}'), [])  # invalid JSON
    await produce(broker, pages, [good, (broken[0], broken[1].encode(), broken[2])])
    settings = worker_settings(broker, group_id, pages, docs, dead)
    caplog.set_level(logging.DEBUG)
    async with running(settings):
        out = await collect(broker, [docs, dead], 2, within=30)
    assert len(out) == 2
    assert any(MARKER.encode() in r.value for r in out)  # the content did go through the clients
    logged = caplog.text + capfd.readouterr().err
    assert "aiokafka" in logged
    assert "Sending (key=" in logged  # aiokafka's per-record line, redacted
    assert "bytes>" in logged
    assert MARKER not in logged
