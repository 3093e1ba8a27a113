"""A real Prometheus server (Debian's package, on loopback, 1 s scrapes, a config this test writes)
against a worker with two cleaning processes cleaning pages from the real broker: what Prometheus
stores and computes is what was sent, and every alert rule and dashboard query evaluates.

The server comes from .tools (`make deploy-tools` unpacks Debian's prometheus package there) or
PATH; without it the test skips and says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import subprocess
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yaml

from scripts.check_deploy import find_tool
from tests.integration.conftest import MakeTopic
from tests.integration.workerkit import (
    REPO,
    Record,
    free_port,
    good_page,
    pipeline_topics,
    produce,
    spawn_worker,
    wait_exit,
    worker_settings,
)
from worker.messages import page_to_record
from worker.models import Reason

pytestmark = pytest.mark.broker

RULES = REPO / "deploy" / "k8s" / "base" / "prometheusrule.yaml"
DASHBOARD = REPO / "deploy" / "k8s" / "grafana" / "cleanstream-dashboard.json"
JOB = "cleanstream"  # the job the alert rules expect (the Service's name under the Prometheus Operator)
SITES = 8  # spread over 4 partitions and so over both cleaning processes
GOOD = 48
# Records the worker must dead-letter, by the reason it must give.
BAD: dict[str, list[Record]] = {
    "invalid_json": [(None, b"{not json", [])] * 3,
    "schema_violation": [(None, b'{"id": "n%d", "html": "<p>no url</p>"}' % i, []) for i in range(5)],
    "empty_input": [(None, b"", [])] * 2,
}


def _pages() -> list[Record]:
    good = []
    for i in range(GOOD):
        page = good_page(i)
        site = f"site{i % SITES}.example"
        good.append(page_to_record(dataclasses.replace(page, site=site, url=f"https://{site}/{i}")))
    return good + [r for records in BAD.values() for r in records]


def _server() -> str:
    path = find_tool("prometheus")
    if path is None:
        pytest.skip("prometheus not found in .tools or PATH: `make deploy-tools` unpacks Debian's package")
    return path


def _start(tmp: Path, target: str, port: int) -> subprocess.Popen[bytes]:
    """Prometheus on 127.0.0.1:port, scraping `target` every second, with the deployment's alert rules."""
    rules = yaml.safe_load(RULES.read_text())["spec"]
    (tmp / "rules.yaml").write_text(yaml.safe_dump(rules))
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s", "scrape_timeout": "900ms"},
        "rule_files": ["rules.yaml"],
        "scrape_configs": [{"job_name": JOB, "static_configs": [{"targets": [target]}]}],
    }
    (tmp / "prometheus.yml").write_text(yaml.safe_dump(config))
    with (tmp / "prometheus.log").open("wb") as log:
        return subprocess.Popen(
            [
                _server(),
                f"--config.file={tmp / 'prometheus.yml'}",
                f"--storage.tsdb.path={tmp / 'data'}",
                f"--web.listen-address=127.0.0.1:{port}",
                "--log.level=warn",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )


@contextlib.asynccontextmanager
async def prometheus(tmp: Path, target: str) -> AsyncIterator[Callable[..., Awaitable[Any]]]:
    """A running Prometheus (_start); yields api(path, **params) -> the `data` of its HTTP API's answer."""
    port = free_port()
    proc = _start(tmp, target, port)
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as http:

            async def api(path: str, **params: str) -> Any:
                async with http.get(base + path, params=params) as resp:
                    body = await resp.json()
                assert body["status"] == "success", body
                return body["data"]

            deadline = time.monotonic() + 30
            while True:
                assert proc.poll() is None, (tmp / "prometheus.log").read_text()
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(base + "/-/ready") as resp:
                        if resp.status == 200:
                            break
                assert time.monotonic() < deadline, "prometheus did not become ready"
                await asyncio.sleep(0.2)
            yield api
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def _eventually(check: Callable[[], Awaitable[Any]], within: float, what: str) -> Any:
    deadline = time.monotonic() + within
    while True:
        result = await check()
        if result:
            return result
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.5)


def _by(result: list[dict[str, Any]], label: str) -> dict[str, float]:
    return {r["metric"].get(label, ""): float(r["value"][1]) for r in result}


async def test_prometheus_sees_exactly_what_the_worker_did(
    broker: str, make_topic: MakeTopic, group_id: str, tmp_path: Path
) -> None:
    _server()
    pages, docs, dead = await pipeline_topics(make_topic, partitions=4)
    changelog = await make_topic("changelog", partitions=4, compacted=True)
    metrics_port = free_port()
    settings = worker_settings(
        broker, group_id, pages, docs, dead,
        metrics_port=metrics_port, processes=2, no_templates=False, changelog_topic=changelog,
    )  # fmt: skip
    worker = spawn_worker(settings, tmp_path / "worker.log")
    try:
        async with prometheus(tmp_path, f"127.0.0.1:{metrics_port}") as api:

            async def query(expr: str) -> list[dict[str, Any]]:
                data = await api("/api/v1/query", query=expr)
                result: list[dict[str, Any]] = data["result"]
                return result

            async def ready() -> bool:
                assert worker.poll() is None, (tmp_path / "worker.log").read_text()
                up = await query(f'up{{job="{JOB}"}} == 1')
                processes = await query("cleanstream_cleaning_processes")
                return bool(up) and _by(processes, "") == {"": 2.0}

            await _eventually(ready, 60, "the worker was never scraped with two cleaning processes")
            # Every reason is scraped at zero before the first dead letter: rate() and increase() see
            # every increment (a counter that appears at 1 loses its first increments to them).
            zeros = _by(await query("cleanstream_dead_letters_total"), "reason")
            assert zeros == dict.fromkeys((r.value for r in Reason), 0.0)

            records = _pages()
            await produce(broker, pages, records)

            async def all_counted() -> bool:
                return _by(await query("sum(cleanstream_pages_total)"), "") == {"": float(len(records))}

            await _eventually(all_counted, 90, "Prometheus never counted every page")
            await asyncio.sleep(2.5)  # a few more scrapes and rule evaluations on the final values

            # one target for the pod, whatever the process count
            targets = (await api("/api/v1/targets"))["activeTargets"]
            assert [(t["labels"]["job"], t["health"]) for t in targets] == [(JOB, "up")]
            assert _by(await query("cleanstream_cleaning_processes"), "") == {"": 2.0}
            bad = sum(len(v) for v in BAD.values())
            outcomes = _by(await query("sum by (outcome) (cleanstream_pages_total)"), "outcome")
            assert outcomes == {"document": float(GOOD), "dead_letter": float(bad)}
            reasons = _by(await query("sum by (reason) (cleanstream_dead_letters_total)"), "reason")
            assert reasons == {r.value: float(len(BAD.get(r.value, []))) for r in Reason}
            methods = _by(await query("sum(cleanstream_template_pages_total)"), "")
            assert methods == {"": float(GOOD)}
            assert _by(await query("sum(cleanstream_page_seconds_count)"), "") == {"": float(len(records))}
            # Both processes' samples reach the one target: each holds the sites placed on it.
            assert _by(await query("sum(cleanstream_sitememory_sites)"), "") == {"": float(SITES)}
            assert _by(await query("sum(cleanstream_assigned_partitions)"), "") == {"": 4.0}
            assert _by(await query("min(cleanstream_broker_connected)"), "") == {"": 1.0}

            # The dead-letter alert sees the true share (live, counters born at 1 made it 6.3% of 10.4%).
            share = bad / len(records)
            alerts = {a["labels"]["alertname"]: a for a in (await api("/api/v1/alerts"))["alerts"]}
            assert alerts["CleanstreamDeadLetterRate"]["state"] == "pending"  # its `for` is 10m
            assert [a for a in alerts.values() if a["state"] == "firing"] == []
            assert float(alerts["CleanstreamDeadLetterRate"]["value"]) == pytest.approx(share, rel=1e-9)

            # Every rule is loaded and evaluates without error.
            groups = (await api("/api/v1/rules"))["groups"]
            loaded = [r for g in groups for r in g["rules"]]
            expected = [
                r["alert"] for g in yaml.safe_load(RULES.read_text())["spec"]["groups"] for r in g["rules"]
            ]
            assert [r["name"] for r in loaded] == expected
            for rule in loaded:
                assert rule["health"] == "ok", (rule["name"], rule.get("lastError"))
                assert rule["lastEvaluation"] > "2000"  # evaluated at least once

            # Every dashboard query evaluates; all but the ones of rare events return data.
            rare = ("cleaner_restarts", "offset_resets", "invalid_snapshots")
            panels = json.loads(DASHBOARD.read_text())["panels"]
            for target in (t for p in panels for t in p["targets"]):
                expr = target["expr"].replace("$__rate_interval", "30s")
                result = await query(expr)
                if not any(word in expr for word in rare):
                    assert result, expr
    finally:
        worker.terminate()
        assert await wait_exit(worker, settings.drain_grace_s + 10) == 0
    logged = (tmp_path / "worker.log").read_text()
    assert Counter(line.split()[2] for line in logged.splitlines() if len(line.split()) > 2)["ERROR"] == 0, (
        logged
    )
