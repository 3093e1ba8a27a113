"""One settings object for every command: defaults < CLEANSTREAM_* env vars < CLI flags.

Each field becomes the env var CLEANSTREAM_<FIELD> and the flag --<field-with-dashes>. Nothing reads
os.environ after start-up; the environment is passed in so tests can inject their own.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from worker.clean.options import CleanOptions

ENV_PREFIX = "CLEANSTREAM_"
# A cleaning process takes ~50 MB of address space before its first page (interpreter, selectolax,
# charset-normalizer, the suffix list) and ~140 MB at its peak on a 4 MB page of 48k elements (VmPeak,
# measured): below this limit ordinary large pages would fail.
MIN_PROCESS_MEMORY_MB = 256
_SECRET = {"sasl_password", "ssl_password"}


def _f(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True, slots=True)
class Settings:
    # Kafka connection
    bootstrap_servers: str = _f("127.0.0.1:9092", "comma-separated Kafka bootstrap servers")
    security_protocol: str = _f("PLAINTEXT", "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL")
    sasl_mechanism: str = _f("", "PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 when SASL is used")
    sasl_username: str = _f("", "SASL user name")
    sasl_password: str = _f("", "SASL password (masked in logs)")
    ssl_cafile: str = _f("", "CA bundle for SSL")
    ssl_certfile: str = _f("", "client certificate for mutual TLS")
    ssl_keyfile: str = _f("", "client key for mutual TLS")
    ssl_password: str = _f("", "password of the client key (masked in logs)")
    group_id: str = _f("cleanstream", "consumer group id")
    client_id: str = _f("cleanstream", "Kafka client id")
    input_topic: str = _f("pages", "topic of fetched pages")
    output_topic: str = _f("documents", "topic of clean documents")
    dead_letter_topic: str = _f("pages.dead", "topic of rejected inputs, each with a reason")
    changelog_topic: str = _f("cleanstream.sitememory", "compacted topic of per-site template snapshots")
    # Consumer tuning
    session_timeout_ms: int = _f(10_000, "consumer group session timeout")
    heartbeat_interval_ms: int = _f(3_000, "consumer heartbeat interval")
    fetch_max_wait_ms: int = _f(100, "longest a fetch waits for data")
    max_poll_records: int = _f(200, "most records taken from one fetch")
    max_inflight: int = _f(1_000, "pages awaiting broker acks before partitions are paused")
    max_request_size: int = _f(8 * 1024 * 1024, "largest produce request (bytes)")
    compression_type: str = _f("zstd", "output compression: none, gzip, lz4, zstd, snappy")
    drain_grace_s: float = _f(
        20.0, "seconds from SIGTERM to exit: in-flight pages finish, then cleaning processes are stopped"
    )
    broker_wait_s: float = _f(
        60.0, "seconds an unreachable broker is retried (with backoff), at start-up or later, before exit 1"
    )
    processes: int = _f(
        1, "cleaning processes of this worker (one consumer-group member per container); about one per core"
    )
    page_deadline_s: float = _f(
        5.0, "hard wall-clock limit per page: past it the page is dead-lettered and its process replaced"
    )
    process_memory_mb: int = _f(
        1024, "address-space limit of each cleaning process (MB): a page that needs more fails alone"
    )
    metrics_port: int = _f(9108, "port of /metrics, /healthz and /readyz (0 disables)")
    metrics_host: str = _f("0.0.0.0", "address the metrics server binds")
    # Per-page limits (a page over a limit becomes a dead letter with that reason)
    max_bytes: int = _f(5_000_000, "largest page body accepted (bytes)")
    max_nodes: int = _f(200_000, "largest DOM accepted (elements)")
    time_budget_ms: float = _f(2_000.0, "CPU time budget for one page")
    keep_comments: bool = _f(False, "fill `comments` with the reader comments (never part of the text)")
    keep_headline: bool = _f(
        False,
        "put the article's headline (always the document's `title`), its dateline and its byline in the text,"
        " as `headline`, `dateline` and `byline` blocks",
    )
    keep_captions: bool = _f(True, "put image captions and photo credits in the text, as `caption` blocks")
    min_block_quality: float = _f(
        0.0, "drop text blocks whose lm_score (mean Zipf word frequency) is below this; 0 keeps all"
    )
    # Off by default: on the shared sets it adds 0.000-0.009 F1 for ~0.45 ms a page (README, block model).
    block_model: bool = _f(False, "let the learned block model add blocks to the heuristics' decision")
    # Template memory
    no_templates: bool = _f(False, "single-page density extraction only; no site template memory")
    template_min_pages: int = _f(3, "pages a site needs before its template is stripped")
    template_theta: float = _f(
        0.6, "share of a site's recent pages a subtree must appear on to count as template"
    )
    template_half_life: float = _f(50.0, "half-life of template statistics, in pages of that site")
    template_max_fingerprints: int = _f(512, "fingerprints tracked per site (Space-Saving cap)")
    memory_budget_mb: float = _f(256.0, "memory budget of all sites' template statistics (MB)")
    snapshot_every_pages: int = _f(
        50, "a cleaning process snapshots a partition's changed sites every N pages of that partition"
    )
    snapshot_every_s: float = _f(30.0, "or at its first page T seconds after the last snapshot")
    # Stream tuning (worker/stream/runner.py)
    commit_interval_ms: int = _f(1_000, "how often acked input offsets are committed")
    auto_offset_reset: str = _f("earliest", "where a group without committed offsets starts: earliest/latest")
    max_partition_fetch_bytes: int = _f(4 * 1024 * 1024, "most bytes fetched per partition per request")
    fetch_max_bytes: int = _f(16 * 1024 * 1024, "most bytes fetched per request")
    # Outputs now trickle in one by one from the cleaning processes; every produce request costs the
    # broker (Tansu: ~4 ms of CPU each; 1000 outputs at 400/s cost it 1.29 / 0.69 / 0.38 CPU-s at a
    # linger of 5 / 20 / 50 ms, measured). 100 ms: `bench/e2e.py --mix --repeats 2` on a quiet 2-core
    # machine, linger 20 -> 100: broker CPU -25%, member CPU per page -23%, one cleaning process 0.80 -> 0.86
    # of offline, two 0.94 -> 1.09, for ~45 ms more latency (p50 83 -> 129 ms): documents feed corpora and
    # indexes, where pages per CPU count and a tenth of a second does not.
    linger_ms: int = _f(100, "how long the producer waits to fill a batch")
    max_batch_size: int = _f(1024 * 1024, "producer batch size per partition (bytes)")
    dead_letter_max_value_bytes: int = _f(
        1_000_000,
        "inputs larger than this are referenced (topic/partition/offset) in dead letters, not copied",
    )
    ssl_check_hostname: bool = _f(True, "verify the broker certificate's host name")

    def clean_options(self) -> CleanOptions:
        # Imported here: worker.clean.options takes its defaults from this module.
        from worker.clean.options import CleanOptions

        return CleanOptions.from_settings(self)

    def redacted(self) -> dict[str, Any]:
        """The settings as a dict fit for a log line: secrets masked."""
        out = dataclasses.asdict(self)
        for name in _SECRET:
            if out.get(name):
                out[name] = "***"
        return out

    @classmethod
    def load(cls, environ: Mapping[str, str], overrides: Mapping[str, Any] | None = None) -> Settings:
        """Defaults, then CLEANSTREAM_* from `environ`, then non-None `overrides` (parsed CLI flags)."""
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = environ.get(ENV_PREFIX + f.name.upper())
            if raw is not None:
                values[f.name] = _convert(f.name, f.default, raw)
        for name, value in (overrides or {}).items():
            if value is not None and name in _FIELD_NAMES:
                values[name] = value
        settings = cls(**values)
        settings.validate()
        return settings

    def validate(self) -> None:
        problems = []
        if self.processes < 1:
            problems.append("processes must be >= 1")
        if self.page_deadline_s <= self.time_budget_ms / 1000.0:
            # the CPU budget stops slow pages with an exact reason and no restart; the deadline is the
            # backstop for what the budget cannot interrupt (a page stuck inside the parser)
            problems.append("page_deadline_s must be longer than time_budget_ms")
        if self.process_memory_mb < MIN_PROCESS_MEMORY_MB:
            problems.append(f"process_memory_mb must be >= {MIN_PROCESS_MEMORY_MB}")
        if self.drain_grace_s <= 0 or self.broker_wait_s < 0:
            problems.append("drain_grace_s must be positive and broker_wait_s not negative")
        if not 0.0 < self.template_theta <= 1.0:
            problems.append("template_theta must be in (0, 1]")
        if self.template_min_pages < 1:
            problems.append("template_min_pages must be >= 1")
        if self.template_max_fingerprints < 16:
            problems.append("template_max_fingerprints must be >= 16")
        if self.max_bytes <= 0 or self.max_nodes <= 0 or self.time_budget_ms <= 0:
            problems.append("max_bytes, max_nodes and time_budget_ms must be positive")
        if self.security_protocol not in {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}:
            problems.append(f"unknown security_protocol {self.security_protocol!r}")
        if problems:
            raise ValueError("invalid settings: " + "; ".join(problems))


# Settings that change what one page becomes: `clean`, `eval` and `run` take the same ones, so the
# offline commands run the worker's pipeline.
PIPELINE_FLAGS = (
    "max_bytes",
    "max_nodes",
    "time_budget_ms",
    "keep_comments",
    "keep_headline",
    "keep_captions",
    "min_block_quality",
    "block_model",
    "no_templates",
    "template_min_pages",
    "template_theta",
    "template_half_life",
    "template_max_fingerprints",
    "memory_budget_mb",
)

_FIELD_NAMES = {f.name for f in fields(Settings)}


def _convert(name: str, default: Any, raw: str) -> Any:
    try:
        if isinstance(default, bool):
            if raw.strip().lower() in {"1", "true", "yes", "on"}:
                return True
            if raw.strip().lower() in {"0", "false", "no", "off", ""}:
                return False
            raise ValueError(raw)
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
    except ValueError:
        raise ValueError(
            f"{ENV_PREFIX}{name.upper()}={raw!r} is not a valid {type(default).__name__}"
        ) from None
    return raw


def add_flags(parser: argparse.ArgumentParser, names: Iterable[str]) -> None:
    """Add --flags for the named settings; unset flags parse to None so env and defaults win."""
    by_name = {f.name: f for f in fields(Settings)}
    for name in names:
        f = by_name[name]
        flag = "--" + name.replace("_", "-")
        env = ENV_PREFIX + name.upper()
        help_text = f"{f.metadata['help']} (env {env}, default {f.default!r})"
        if isinstance(f.default, bool):
            # A setting that defaults to on also needs a way to turn it off: --x / --no-x.
            action = argparse.BooleanOptionalAction if f.default else "store_true"
            parser.add_argument(flag, dest=name, action=action, default=None, help=help_text)
        else:
            parser.add_argument(flag, dest=name, type=type(f.default), default=None, help=help_text)


def from_args(args: argparse.Namespace, environ: Mapping[str, str]) -> Settings:
    return Settings.load(environ, vars(args))


def markdown_table() -> str:
    """The configuration reference as a Markdown table (README.md embeds it; a test keeps them equal)."""
    rows = ["| env var | flag | default | meaning |", "|---|---|---|---|"]
    for f in fields(Settings):
        flag = "--" + f.name.replace("_", "-")
        rows.append(f"| `{ENV_PREFIX}{f.name.upper()}` | `{flag}` | `{f.default!r}` | {f.metadata['help']} |")
    return "\n".join(rows)
