"""`cleanstream run`: the streaming worker (consume pages, produce documents and dead letters)."""

from __future__ import annotations

import argparse
import logging
import os

from worker import settings as settings_mod
from worker.stream.config import CONNECTION_SETTINGS

log = logging.getLogger(__name__)

# Every flag is also the env var CLEANSTREAM_<NAME>; these names are part of the deployment contract.
FLAGS = (
    *CONNECTION_SETTINGS,
    *settings_mod.PIPELINE_FLAGS,
    "group_id",
    "client_id",
    "input_topic",
    "output_topic",
    "dead_letter_topic",
    "changelog_topic",
    "metrics_port",
    "metrics_host",
    "processes",
    "page_deadline_s",
    "process_memory_mb",
    "broker_wait_s",
    "session_timeout_ms",
    "heartbeat_interval_ms",
    "fetch_max_wait_ms",
    "max_poll_records",
    "max_inflight",
    "max_request_size",
    "compression_type",
    "commit_interval_ms",
    "auto_offset_reset",
    "max_partition_fetch_bytes",
    "fetch_max_bytes",
    "linger_ms",
    "max_batch_size",
    "dead_letter_max_value_bytes",
    "drain_grace_s",
    "snapshot_every_pages",
    "snapshot_every_s",
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the streaming worker",
        description="One consumer-group member: consume pages, have them cleaned by --processes cleaning "
        "processes (each page under a hard deadline), produce clean documents (keyed by site) and dead "
        "letters; serve /metrics, /healthz and /readyz. SIGTERM drains and commits.",
    )
    settings_mod.add_flags(parser, FLAGS)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # Imported here: `--help` and the offline commands must not pay for aiokafka, aiohttp and prometheus.
    from worker.stream.service import run as run_worker

    settings = settings_mod.from_args(args, os.environ)
    log.info("settings: %s", settings.redacted())
    return run_worker(settings)
