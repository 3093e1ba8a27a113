"""Process-level wiring of the worker: metrics server, signal handling, N group members per container."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable

from prometheus_client import CollectorRegistry

from worker.http import Health, start_server, watch_loop_lag
from worker.metrics import Metrics, create_metrics
from worker.settings import Settings
from worker.stream.runner import HooksFactory, Worker

log = logging.getLogger(__name__)

# How long the parent of --processes N waits beyond the children's own drain grace before killing them.
CHILD_EXIT_SLACK_S = 5.0


def default_hooks_factory(settings: Settings) -> HooksFactory | None:
    """The per-partition local state `run` wires in: the seam for the site template memory.

    A factory gets the Worker (settings, metrics, producer, consumer) and returns PartitionHooks whose
    on_assign restores PartitionState.memory and whose on_revoke snapshots it. None = density only.
    """
    if settings.no_templates:
        return None
    from worker.stream.changelog import hooks_factory

    return hooks_factory


async def serve(
    settings: Settings,
    *,
    metrics: Metrics | None = None,
    hooks_factory: HooksFactory | None = None,
    install_signals: bool = True,
    on_started: Callable[[Worker], Awaitable[None] | None] | None = None,
) -> int:
    """Run one group member with its metrics server until SIGTERM/SIGINT (or request_stop); exit code."""
    metrics = metrics or create_metrics(CollectorRegistry())
    health = Health()
    worker = Worker(settings, metrics, health, hooks_factory or default_hooks_factory(settings))
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


def child_settings(settings: Settings, index: int) -> Settings:
    """Member `index` of --processes N: its own client id and metrics port (metrics_port + index)."""
    port = settings.metrics_port + index if settings.metrics_port else 0
    return dataclasses.replace(
        settings, metrics_port=port, client_id=f"{settings.client_id}-{index}", processes=1
    )


def _child_main(settings: Settings, log_level: int) -> None:
    logging.basicConfig(
        level=log_level,
        format="%(asctime)s %(levelname)s %(processName)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    sys.exit(asyncio.run(serve(settings)))


def run_processes(settings: Settings) -> int:
    """Run settings.processes independent group members (spawned); forward SIGTERM/SIGINT; worst exit code."""
    if settings.processes <= 1:
        return asyncio.run(serve(settings))
    ctx = multiprocessing.get_context("spawn")
    level = logging.getLogger().getEffectiveLevel()
    children = [
        ctx.Process(
            target=_child_main, args=(child_settings(settings, i), level), name=f"worker-{i}", daemon=False
        )
        for i in range(settings.processes)
    ]
    stopping = {"at": 0.0}

    def forward(signum: int, _frame: object) -> None:
        if not stopping["at"]:
            stopping["at"] = time.monotonic()
        for child in children:
            if child.is_alive() and child.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signum)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        for child in children:
            child.start()
        log.info("started %d worker processes: %s", len(children), [c.pid for c in children])
        while any(c.is_alive() for c in children):
            for child in children:
                child.join(timeout=0.2)
            if (
                stopping["at"]
                and time.monotonic() - stopping["at"] > settings.drain_grace_s + CHILD_EXIT_SLACK_S
            ):
                for child in children:
                    if child.is_alive():
                        log.error("worker process %s did not drain in time; killing it", child.pid)
                        child.kill()
            elif not stopping["at"] and any(c.exitcode not in (None, 0) for c in children):
                # One member died on its own: stop the rest so the container restarts as a whole.
                forward(signal.SIGTERM, None)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    codes = [c.exitcode if c.exitcode is not None else 1 for c in children]
    return max((abs(code) for code in codes), default=0)
