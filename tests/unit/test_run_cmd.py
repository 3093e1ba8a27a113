"""The `run` command's flags and env vars are a deployment contract: their names must not drift."""

from __future__ import annotations

import pytest
from aiokafka.partitioner import DefaultPartitioner
from hypothesis import given
from hypothesis import strategies as st

from worker.__main__ import build_parser
from worker.settings import from_args
from worker.stream.config import consumer_config, producer_config
from worker.stream.kafka import SitePartitioner


def test_contract_flags_parse_and_env_fills_the_rest() -> None:
    args = build_parser().parse_args(
        [
            "run",
            "--bootstrap-servers", "k1:9092,k2:9092",
            "--group-id", "g",
            "--input-topic", "in",
            "--output-topic", "out",
            "--dead-letter-topic", "dlq",
            "--metrics-port", "9200",
            "--no-templates",
            "--processes", "3",
        ]
    )  # fmt: skip
    env = {"CLEANSTREAM_GROUP_ID": "ignored-flag-wins", "CLEANSTREAM_MAX_INFLIGHT": "7"}
    s = from_args(args, env)
    assert (s.bootstrap_servers, s.group_id, s.input_topic, s.output_topic) == (
        "k1:9092,k2:9092",
        "g",
        "in",
        "out",
    )
    assert (s.dead_letter_topic, s.metrics_port, s.no_templates, s.processes) == ("dlq", 9200, True, 3)
    assert s.max_inflight == 7


def test_defaults_match_the_spec() -> None:
    s = from_args(build_parser().parse_args(["run"]), {})
    assert (s.input_topic, s.output_topic, s.dead_letter_topic, s.metrics_port) == (
        "pages", "documents", "pages.dead", 9108,
    )  # fmt: skip
    assert s.processes == 1
    assert not s.no_templates


def test_client_configs_are_at_least_once() -> None:
    env = {"CLEANSTREAM_SECURITY_PROTOCOL": "SASL_PLAINTEXT", "CLEANSTREAM_SASL_USERNAME": "u",
           "CLEANSTREAM_SASL_PASSWORD": "p", "CLEANSTREAM_SASL_MECHANISM": "SCRAM-SHA-256"}  # fmt: skip
    s = from_args(build_parser().parse_args(["run"]), env)
    consumer, producer = consumer_config(s), producer_config(s)
    assert consumer["enable_auto_commit"] is False
    assert producer["acks"] == "all"
    assert producer["enable_idempotence"] is False  # Tansu cannot initialise idempotent producers
    for config in (consumer, producer):
        assert config["sasl_mechanism"] == "SCRAM-SHA-256"
        assert (config["sasl_plain_username"], config["sasl_plain_password"]) == ("u", "p")
    assert s.redacted()["sasl_password"] == "***"


def test_page_deadline_must_exceed_the_cpu_budget() -> None:
    """The budget stops slow pages with an exact reason and no restart; the deadline is the backstop."""
    parser = build_parser()
    ok = from_args(parser.parse_args(["run", "--page-deadline-s", "3", "--time-budget-ms", "2000"]), {})
    assert ok.page_deadline_s == 3.0
    with pytest.raises(ValueError, match="page_deadline_s"):
        from_args(parser.parse_args(["run", "--page-deadline-s", "1.5"]), {})
    with pytest.raises(ValueError, match="process_memory_mb"):
        from_args(parser.parse_args(["run"]), {"CLEANSTREAM_PROCESS_MEMORY_MB": "64"})
    with pytest.raises(ValueError, match="processes"):
        from_args(parser.parse_args(["run", "--processes", "0"]), {})


def test_unknown_security_protocol_is_refused() -> None:
    with pytest.raises(ValueError, match="security_protocol"):
        from_args(build_parser().parse_args(["run", "--security-protocol", "KERBEROS"]), {})


def test_a_fingerprint_cap_too_small_to_learn_anything_is_refused() -> None:
    with pytest.raises(ValueError, match="template_max_fingerprints"):
        from_args(build_parser().parse_args(["run"]), {"CLEANSTREAM_TEMPLATE_MAX_FINGERPRINTS": "4"})


@given(st.lists(st.binary(max_size=40), min_size=1, max_size=30), st.integers(1, 12))
def test_the_producers_partitioner_places_keys_as_kafkas_default_does(keys: list[bytes], count: int) -> None:
    """Keyed by site, a site's documents go to the partition any Kafka client would pick for it."""
    partitions = list(range(count))
    cached = SitePartitioner(size=4)  # small, so the test also goes through its starting over
    for key in keys + keys:
        assert cached(key, partitions, partitions) == DefaultPartitioner()(key, partitions, partitions)
    assert cached(None, partitions, [count - 1]) == count - 1  # keyless: among the available ones
