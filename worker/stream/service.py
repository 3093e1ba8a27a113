"""Process-level wiring of the worker: metrics server, signal handling, the one group member.

One container runs one consumer-group member (this process) and `processes` cleaning processes that
it starts itself (worker/stream/pool.py). The member owns the Kafka clients, the Prometheus registry
and the probe server, so a pod has one scrape target and one health endpoint whatever its process
count; the cleaning processes report their per-page numbers back with each result.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable

from prometheus_client import CollectorRegistry

from worker.gc_policy import tune_gc
from worker.http import Health, start_server, watch_loop_lag
from worker.metrics import Metrics, create_metrics
from worker.settings import Settings
from worker.stream.kafka import redact_client_logs
from worker.stream.malloc import keep_freed_memory
from worker.stream.pool import Launcher
from worker.stream.ports import KafkaClients
from worker.stream.runner import Worker

log = logging.getLogger(__name__)


async def serve(
    settings: Settings,
    *,
    metrics: Metrics | None = None,
    clients: KafkaClients | None = None,
    launcher: Launcher | None = None,
    install_signals: bool = True,
    on_started: Callable[[Worker], Awaitable[None] | None] | None = None,
) -> int:
    """Run the group member with its cleaning pool and metrics server until SIGTERM/SIGINT (or
    request_stop); returns the exit code."""
    redact_client_logs()
    metrics = metrics or create_metrics(CollectorRegistry())
    health = Health()
    worker = Worker(settings, metrics, health, clients=clients, launcher=launcher)
    loop = asyncio.get_running_loop()
    if install_signals:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, worker.request_stop)
    lag_task = asyncio.create_task(watch_loop_lag(health, metrics))
    server = None
    try:
        if settings.metrics_port:
            try:
                server = await start_server(metrics, health, settings.metrics_host, settings.metrics_port)
            except OSError as exc:
                log.error(
                    "cannot serve metrics on %s:%s: %s", settings.metrics_host, settings.metrics_port, exc
                )
                return 1
        if on_started is not None:
            result = on_started(worker)
            if result is not None:
                await result
        return await worker.run()
    finally:
        lag_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await lag_task
        if server is not None:
            await server.cleanup()
        if install_signals:
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(sig)


def run(settings: Settings) -> int:
    # The member allocates a few dozen containers per page (records, futures, jobs, acks): with Python's
    # default gen-0 threshold the collector took ~5% of its CPU, its full collections walking every
    # object of aiokafka, aiohttp and prometheus_client. The cleaning processes' policy serves it too.
    tune_gc()
    keep_freed_memory()
    return asyncio.run(serve(settings))
