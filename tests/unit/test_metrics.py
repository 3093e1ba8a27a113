"""Metrics factory (no globals, stable names, no unbounded labels) and the health probes' logic."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client import CollectorRegistry, generate_latest

from tests.unit.test_deploy import CONTRACT_METRICS
from worker.http import STALE_LOOP_S, Health, make_app
from worker.metrics import Metrics, create_metrics
from worker.models import Reason

# The deployment's metric contract (test_deploy holds the dashboard to it) and two more exposed names.
CONTRACT_NAMES = (
    *sorted(CONTRACT_METRICS),
    "cleanstream_sitememory_sites",
    "process_cpu_seconds_total",
)


def test_each_registry_gets_its_own_metrics() -> None:
    a, b = create_metrics(CollectorRegistry()), create_metrics(CollectorRegistry())
    a.pages.labels("document").inc(3)
    assert b.pages.labels("document")._value.get() == 0
    with pytest.raises(ValueError, match="Duplicated"):
        create_metrics(a.registry)  # the same names twice in one registry is a bug, not silently shared


def test_contract_names_and_labels_are_exposed() -> None:
    m = create_metrics(CollectorRegistry())
    m.pages.labels("dead_letter").inc()
    m.dead_letters.labels("invalid_json").inc()
    m.consumer_lag.labels("0").set(5)
    m.cleaner_busy_seconds.labels("0").inc(0.5)  # its labels come from the pool (one per process)
    m.template_pages.labels("template").inc()
    m.page_seconds.observe(0.01)
    text = generate_latest(m.registry).decode()
    for name in CONTRACT_NAMES:
        assert f"\n{name}" in text or text.startswith(name), name
    assert 'cleanstream_pages_total{outcome="dead_letter"} 1.0' in text
    assert 'cleanstream_dead_letters_total{reason="invalid_json"} 1.0' in text
    assert 'cleanstream_consumer_lag{partition="0"} 5.0' in text
    assert 'cleanstream_build_info{version="' in text
    for family in m.registry.collect():
        for sample in family.samples:
            assert not set(sample.labels) & {"site", "url", "host"}


def _samples(m: Metrics, name: str) -> dict[str, float]:
    """{label value: value} of a one-label counter as exposed."""
    family = next(f for f in m.registry.collect() if f.name == name)
    return {next(iter(s.labels.values())): s.value for s in family.samples if s.name.endswith("_total")}


def test_every_known_label_value_is_exposed_at_zero_from_the_start() -> None:
    """A labelled counter that first appears at 1 loses its first increments to rate() and increase()."""
    m = create_metrics(CollectorRegistry(), process_info=False)
    assert _samples(m, "cleanstream_dead_letters") == dict.fromkeys((r.value for r in Reason), 0.0)
    assert _samples(m, "cleanstream_pages") == {"document": 0.0, "dead_letter": 0.0}
    assert _samples(m, "cleanstream_template_pages") == dict.fromkeys(
        ("density", "template", "template_fallback"), 0.0
    )
    assert _samples(m, "cleanstream_cleaner_restarts") == {"deadline": 0.0, "crash": 0.0}
    m.dead_letters.labels(Reason.TIMEOUT.value).inc()
    assert _samples(m, "cleanstream_dead_letters")["timeout"] == 1.0
    assert len(_samples(m, "cleanstream_dead_letters")) == len(Reason)


def test_health_and_readiness_rules() -> None:
    h = Health()
    assert h.alive(now=100.0)[0]
    assert h.ready() == (False, "brokers not reachable")
    h.connected = True
    assert h.ready() == (False, "not a consumer-group member yet")
    h.member = True
    assert h.ready() == (True, "ok, group member with 0 partitions")  # idle members are ready
    h.assigned = 2
    assert h.ready() == (True, "ok, group member with 2 partitions")
    h.last_tick = 100.0
    assert h.alive(now=100.0 + STALE_LOOP_S / 2)[0]
    assert not h.alive(now=100.0 + STALE_LOOP_S * 2)[0]
    h.last_tick = 0.0
    h.failed = "produce failed"
    assert not h.alive()[0]
    assert not h.ready()[0]


async def test_http_endpoints() -> None:
    m = create_metrics(CollectorRegistry())
    m.pages.labels("document").inc(2)
    health = Health(connected=True)
    async with TestClient(TestServer(make_app(m, health))) as client:
        resp = await client.get("/metrics")
        assert resp.status == 200
        assert 'cleanstream_pages_total{outcome="document"} 2.0' in await resp.text()
        assert (await client.get("/healthz")).status == 200
        assert (await client.get("/readyz")).status == 503
        health.member = True
        resp = await client.get("/readyz")
        assert resp.status == 200
        assert await resp.text() == "ok, group member with 0 partitions\n"


async def test_responses_name_no_versions() -> None:
    m = create_metrics(CollectorRegistry())
    async with TestClient(TestServer(make_app(m, Health()))) as client:
        for path in ("/metrics", "/healthz", "/readyz", "/nowhere"):
            resp = await client.get(path)
            server = resp.headers.get("Server", "")
            assert server == "cleanstream", (path, server)
            assert "Python" not in str(resp.headers)
            assert "aiohttp" not in str(resp.headers)
