"""Prometheus metrics of the worker, built by a factory over an injected registry.

No import-time globals: each worker process (and each test) calls create_metrics() with its own
CollectorRegistry. Labels never carry a site or URL (unbounded cardinality); `partition` is bounded
by the topic's partition count.

Every label value known in advance is created at zero with its metric. A labelled counter that first
appears at 1 has no earlier sample, so `rate()` and `increase()` never see its first increments: live,
the dead-letter alert measured 6.3% where 10.4% of pages were dead letters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)

from worker import __version__
from worker.models import Method, Reason

# Page latencies run from ~1 ms (tiny pages) to the 2 s time budget; buckets cover both ends.
PAGE_SECONDS_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0)
LOOP_LAG_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

# The label values each labelled counter can take, exposed at zero from the start.
OUTCOMES = ("document", "dead_letter")
REASONS = tuple(r.value for r in Reason)
# "none" is the method of an empty document, which always becomes a dead letter, never a document.
DOCUMENT_METHODS = tuple(m for m in get_args(Method) if m != "none")
# Why a cleaning process was replaced: a page ran past page_deadline_s, or the process died.
RESTART_CAUSES = ("deadline", "crash")


@dataclass(frozen=True, slots=True)
class Metrics:
    registry: CollectorRegistry
    pages: Counter  # {outcome}: document | dead_letter
    page_seconds: Histogram
    input_bytes: Counter
    output_bytes: Counter
    dead_letters: Counter  # {reason}
    consumer_lag: Gauge  # {partition}
    event_loop_lag: Gauge
    event_loop_lag_seconds: Histogram
    inflight: Gauge
    paused_partitions: Gauge
    backpressure_pauses: Counter
    assigned_partitions: Gauge
    rebalances: Counter
    commits: Counter
    produce_errors: Counter
    # Set by the template memory (worker/clean/sitememory + stream wiring).
    template_pages: Counter  # {method}
    sitememory_bytes: Gauge
    sitememory_budget_bytes: Gauge
    sitememory_sites: Gauge
    changelog_invalid_snapshots: Counter
    # The cleaning pool and the broker connection (worker/stream/pool.py, runner.py).
    cleaning_processes: Gauge
    cleaner_restarts: Counter  # {cause}: deadline | crash
    cleaner_busy_seconds: Counter  # {process}: the slot index, bounded by CLEANSTREAM_PROCESSES
    broker_connected: Gauge
    offset_resets: Counter


def create_metrics(registry: CollectorRegistry | None = None, *, process_info: bool = True) -> Metrics:
    """All worker metrics, registered in `registry` (a fresh one if None)."""
    reg = registry if registry is not None else CollectorRegistry()
    if process_info:
        ProcessCollector(registry=reg)
        PlatformCollector(registry=reg)
    Info("cleanstream_build", "worker version", registry=reg).info({"version": __version__})
    metrics = _create(reg)
    for counter, values in (
        (metrics.pages, OUTCOMES),
        (metrics.dead_letters, REASONS),
        (metrics.template_pages, DOCUMENT_METHODS),
        (metrics.cleaner_restarts, RESTART_CAUSES),
    ):
        for value in values:
            counter.labels(value)
    return metrics


def _create(reg: CollectorRegistry) -> Metrics:
    return Metrics(
        registry=reg,
        pages=Counter("cleanstream_pages", "input records handled, by outcome", ["outcome"], registry=reg),
        page_seconds=Histogram(
            "cleanstream_page_seconds",
            "time to decode and clean one page (in its cleaning process)",
            buckets=PAGE_SECONDS_BUCKETS,
            registry=reg,
        ),
        input_bytes=Counter("cleanstream_input_bytes", "bytes of input record values", registry=reg),
        output_bytes=Counter(
            "cleanstream_output_bytes",
            "bytes of produced record values (documents and dead letters)",
            registry=reg,
        ),
        dead_letters=Counter(
            "cleanstream_dead_letters", "dead letters produced, by reason", ["reason"], registry=reg
        ),
        consumer_lag=Gauge(
            "cleanstream_consumer_lag",
            "records between the next page to clean and the fetch high watermark",
            ["partition"],
            registry=reg,
        ),
        event_loop_lag=Gauge(
            "cleanstream_event_loop_lag_seconds", "latest event-loop scheduling delay", registry=reg
        ),
        event_loop_lag_seconds=Histogram(
            "cleanstream_event_loop_lag_distribution_seconds",
            "event-loop scheduling delay samples",
            buckets=LOOP_LAG_BUCKETS,
            registry=reg,
        ),
        inflight=Gauge(
            "cleanstream_inflight_outputs", "outputs sent but not yet acked by the broker", registry=reg
        ),
        paused_partitions=Gauge(
            "cleanstream_paused_partitions",
            "partitions not taken from now (backpressure, a full backlog, or restoring)",
            registry=reg,
        ),
        backpressure_pauses=Counter(
            "cleanstream_backpressure_pauses",
            "times fetching was paused for too many unacked outputs",
            registry=reg,
        ),
        assigned_partitions=Gauge("cleanstream_assigned_partitions", "input partitions owned", registry=reg),
        rebalances=Counter("cleanstream_rebalances", "partition assignments received", registry=reg),
        commits=Counter("cleanstream_commits", "offset commits that succeeded", registry=reg),
        produce_errors=Counter("cleanstream_produce_errors", "outputs the broker did not ack", registry=reg),
        template_pages=Counter(
            "cleanstream_template_pages",
            "documents by extraction method (template hit rate)",
            ["method"],
            registry=reg,
        ),
        sitememory_bytes=Gauge(
            "cleanstream_sitememory_bytes", "estimated size of all site templates", registry=reg
        ),
        sitememory_budget_bytes=Gauge(
            "cleanstream_sitememory_budget_bytes", "memory budget of the site templates", registry=reg
        ),
        sitememory_sites=Gauge("cleanstream_sitememory_sites", "sites held in template memory", registry=reg),
        changelog_invalid_snapshots=Counter(
            "cleanstream_changelog_invalid_snapshots",
            "changelog snapshots skipped at restore because they failed validation",
            registry=reg,
        ),
        cleaning_processes=Gauge(
            "cleanstream_cleaning_processes", "cleaning processes running and ready", registry=reg
        ),
        cleaner_restarts=Counter(
            "cleanstream_cleaner_restarts",
            "cleaning processes replaced, by cause (RESTART_CAUSES)",
            ["cause"],
            registry=reg,
        ),
        cleaner_busy_seconds=Counter(
            "cleanstream_cleaner_busy_seconds",
            "seconds spent cleaning pages, by cleaning process (its slot, 0 .. processes-1)",
            ["process"],
            registry=reg,
        ),
        broker_connected=Gauge(
            "cleanstream_broker_connected", "1 while the brokers answer the connectivity probe", registry=reg
        ),
        offset_resets=Counter(
            "cleanstream_offset_resets",
            "partitions whose position lay beyond the log end, reset per auto_offset_reset",
            registry=reg,
        ),
    )
