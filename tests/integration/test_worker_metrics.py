"""/metrics, /healthz and /readyz of a running worker agree with what it actually produced."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import aiohttp
import pytest

from tests.integration.conftest import MakeTopic
from tests.integration.test_worker_pipeline import running
from tests.integration.workerkit import (
    collect,
    free_port,
    good_records,
    pipeline_topics,
    produce,
    scrape,
    worker_settings,
)
from worker.models import Reason

pytestmark = pytest.mark.broker


async def test_metrics_match_what_was_produced(broker: str, make_topic: MakeTopic, group_id: str) -> None:
    pages, docs, dead = await pipeline_topics(make_topic)
    good = good_records(25)
    bad = [(None, b"{oops", []), (None, b'{"html": "<p>no url</p>"}', []), (None, b"", [])]
    inputs = good + bad
    await produce(broker, pages, inputs)
    port = free_port()
    settings = worker_settings(broker, group_id, pages, docs, dead, metrics_port=port)
    base = f"http://127.0.0.1:{port}"
    async with running(settings), aiohttp.ClientSession() as http:
        async with http.get(base + "/healthz") as resp:
            assert resp.status == 200
        out = await collect(broker, [docs, dead], len(inputs), within=30)
        deadline = time.monotonic() + 10
        while True:  # ready once partitions are assigned; lag refreshes about once a second
            async with http.get(base + "/readyz") as resp:
                ready = resp.status
            async with http.get(base + "/metrics") as resp:
                assert resp.status == 200
                metrics = scrape(await resp.text())
            lag = metrics.get("cleanstream_consumer_lag", {})
            if (ready == 200 and len(lag) == 2 and not any(lag.values())) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
    assert ready == 200
    assert lag == {(("partition", "0"),): 0.0, (("partition", "1"),): 0.0}
    documents = [r for r in out if r.topic == docs]
    letters = [r for r in out if r.topic == dead]
    assert (len(documents), len(letters)) == (25, 3)
    assert metrics["cleanstream_pages_total"] == {
        (("outcome", "document"),): 25.0,
        (("outcome", "dead_letter"),): 3.0,
    }
    reasons = Counter(r.json()["reason"] for r in letters)
    assert reasons == {"invalid_json": 1, "schema_violation": 1, "empty_input": 1}
    # every reason is exposed, at zero until it occurs
    assert metrics["cleanstream_dead_letters_total"] == {
        (("reason", r.value),): float(reasons.get(r.value, 0)) for r in Reason
    }
    assert metrics["cleanstream_output_bytes_total"][()] == sum(len(r.value) for r in out)
    assert metrics["cleanstream_input_bytes_total"][()] == sum(len(v) for _, v, _ in inputs)
    assert metrics["cleanstream_page_seconds_count"][()] == len(inputs)
    assert metrics["cleanstream_template_pages_total"] == {
        (("method", "density"),): 25.0,
        (("method", "template"),): 0.0,
        (("method", "template_fallback"),): 0.0,
    }
    assert metrics["cleanstream_assigned_partitions"][()] == 2
    assert metrics["cleanstream_inflight_outputs"][()] == 0
    assert metrics["cleanstream_produce_errors_total"][()] == 0
    assert metrics["cleanstream_commits_total"][()] >= 1
    assert 0 <= metrics["cleanstream_event_loop_lag_seconds"][()] < 1.0
    assert "process_cpu_seconds_total" in metrics
    assert metrics["cleanstream_build_info"][(("version", "0.1.0"),)] == 1
    for name in (
        "cleanstream_sitememory_bytes",
        "cleanstream_sitememory_budget_bytes",
        "cleanstream_sitememory_sites",
    ):
        assert name in metrics
    labels = {k for samples in metrics.values() for key in samples for k, _ in key}
    assert not labels & {"site", "url", "host"}  # never unbounded label values


async def test_a_member_without_partitions_is_ready(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    """Two members and one partition (a rollout's surge pod when partitions = pods): both are ready,
    and only the owner says it has a partition. Ready used to mean "partitions assigned", so the
    second pod never became ready and the rollout never went on."""
    pages, docs, dead = await pipeline_topics(make_topic, partitions=1)
    ports = free_port(), free_port()
    settings = [worker_settings(broker, group_id, pages, docs, dead, metrics_port=p) for p in ports]
    async with running(settings[0]) as first, running(settings[1]) as second, aiohttp.ClientSession() as http:
        deadline = time.monotonic() + 20
        while True:
            states = []
            for port in ports:
                async with http.get(f"http://127.0.0.1:{port}/readyz") as resp:
                    states.append((resp.status, await resp.text()))
            owners = first.health.assigned + second.health.assigned
            settled = all(s == 200 for s, _ in states) and owners == 1
            if settled or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
    assert [s for s, _ in states] == [200, 200], states
    assert sorted(t for _, t in states) == [
        "ok, group member with 0 partitions\n",
        "ok, group member with 1 partitions\n",
    ]
