"""The side server: /metrics (Prometheus), /healthz (event loop alive), /readyz (a connected group member).

It runs on the worker's own event loop on purpose: if the loop is stuck, /healthz stops answering,
which is exactly what a liveness probe should see.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from worker.metrics import Metrics

log = logging.getLogger(__name__)

# A loop that has not run its lag probe for this long is considered stuck.
STALE_LOOP_S = 10.0
SERVER_NAME = "cleanstream"
LAG_PROBE_INTERVAL_S = 0.25


@dataclass
class Health:
    """Mutable status the runner keeps up to date and the probes read."""

    assigned: int = 0
    connected: bool = False  # the brokers answered the last connectivity probe
    member: bool = False  # the group's coordinator has assigned this worker (maybe no partitions)
    failed: str | None = None
    last_tick: float = 0.0
    loop_lag_s: float = 0.0

    def alive(self, now: float | None = None) -> tuple[bool, str]:
        now = time.monotonic() if now is None else now
        if self.failed:
            return False, f"failed: {self.failed}"
        if self.last_tick and now - self.last_tick > STALE_LOOP_S:
            return False, f"event loop probe stale for {now - self.last_tick:.1f}s"
        return True, f"ok, loop lag {self.loop_lag_s * 1000:.1f} ms"

    def ready(self) -> tuple[bool, str]:
        """Ready = alive, the brokers answer, and the consumer group has taken this worker in.

        Not "partitions assigned": with as many pods as partitions, a pod that a rollout adds before
        removing an old one gets none until the old one leaves, and would never become ready; idle
        members would also count as disrupted against the PodDisruptionBudget and block node drains.
        Assignment and lag stay visible as metrics (cleanstream_assigned_partitions, _consumer_lag).
        """
        ok, why = self.alive()
        if not ok:
            return False, why
        if not self.connected:
            return False, "brokers not reachable"
        if not self.member:
            return False, "not a consumer-group member yet"
        return True, f"ok, group member with {self.assigned} partitions"


async def watch_loop_lag(health: Health, metrics: Metrics, interval: float = LAG_PROBE_INTERVAL_S) -> None:
    """Measure how late the loop wakes a sleeper: a long page or a blocking call shows up here."""
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(interval)
        lag = max(0.0, loop.time() - started - interval)
        health.loop_lag_s = lag
        health.last_tick = time.monotonic()
        metrics.event_loop_lag.set(lag)
        metrics.event_loop_lag_seconds.observe(lag)


def make_app(metrics: Metrics, health: Health) -> web.Application:
    async def metrics_handler(_: web.Request) -> web.Response:
        body = generate_latest(metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def healthz(_: web.Request) -> web.Response:
        ok, why = health.alive()
        return web.Response(status=200 if ok else 503, text=why + "\n")

    async def readyz(_: web.Request) -> web.Response:
        ok, why = health.ready()
        return web.Response(status=200 if ok else 503, text=why + "\n")

    app = web.Application()
    app.on_response_prepare.append(_hide_versions)
    app.router.add_get("/metrics", metrics_handler)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    return app


async def _hide_versions(_: web.Request, response: web.StreamResponse) -> None:
    # aiohttp fills in "Server: Python/3.x aiohttp/3.y" unless the header is set: versions tell an
    # attacker which advisories apply.
    response.headers["Server"] = SERVER_NAME


async def start_server(metrics: Metrics, health: Health, host: str, port: int) -> web.AppRunner:
    """Serve the app on host:port; returns the runner (call .cleanup() to stop). Port 0 picks a free one."""
    runner = web.AppRunner(make_app(metrics, health), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("metrics server on %s", ", ".join(str(a) for a in runner.addresses))
    return runner
