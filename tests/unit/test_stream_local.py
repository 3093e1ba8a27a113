"""Pure helpers of the local pipeline (demo, e2e bench): settings hand-off and sample rounds."""

from __future__ import annotations

import dataclasses

from worker.cli.demo_cmd import sample_round
from worker.models import Page
from worker.settings import Settings
from worker.stream.local import (
    LOCAL_TUNING,
    acked_in_metrics,
    local_settings,
    pipeline_topics,
    process_cpu_seconds,
    settings_env,
)


def test_settings_survive_the_trip_through_env() -> None:
    original = dataclasses.replace(
        Settings(), no_templates=True, template_theta=0.75, max_bytes=123, sasl_password="s3cret"
    )
    assert Settings.load(settings_env(original)) == original


def test_local_settings_tune_for_tansu_unless_told_otherwise() -> None:
    s = local_settings("127.0.0.1:1234", {"CLEANSTREAM_GROUP_ID": "g"}, {"fetch_max_wait_ms": 7})
    assert s.bootstrap_servers == "127.0.0.1:1234"
    assert s.group_id == "g"
    assert s.fetch_max_wait_ms == 7
    assert s.session_timeout_ms == LOCAL_TUNING["session_timeout_ms"]


def test_pipeline_topics_are_explicit_and_changelog_compacted() -> None:
    specs = {t.name: t for t in pipeline_topics(Settings(), input_partitions=4)}
    s = Settings()
    assert specs[s.input_topic].partitions == 4
    assert specs[s.changelog_topic].compacted
    assert not specs[s.input_topic].compacted
    assert set(specs) == {s.input_topic, s.output_topic, s.dead_letter_topic, s.changelog_topic}


def test_sample_rounds_have_unique_ids() -> None:
    pages = [Page(id=f"p{i}", html="<p>x</p>") for i in range(3)]
    first = sample_round(pages, 7, 0)
    second = sample_round(pages, 7, 1)
    ids = [p.id for p in first + second]
    assert len(ids) == len(set(ids)) == 14
    assert [p.id for p in first[:3]] == ["p0", "p1", "p2"]


def test_acked_outputs_are_read_from_the_real_metrics_exposition() -> None:
    from prometheus_client import generate_latest

    from worker.metrics import create_metrics

    metrics = create_metrics()
    assert acked_in_metrics(generate_latest(metrics.registry).decode()) == 0
    metrics.pages.labels("document").inc(5)
    metrics.pages.labels("dead_letter").inc(2)
    metrics.dead_letters.labels("too_large").inc(2)  # other counters must not be summed in
    assert acked_in_metrics(generate_latest(metrics.registry).decode()) == 7


def test_process_cpu_seconds_of_this_process() -> None:
    import os
    import sys

    value = process_cpu_seconds(os.getpid())
    if sys.platform.startswith("linux"):
        assert value is not None
        assert value > 0
    assert process_cpu_seconds(2**22 + 12345) is None  # above pid_max: no such process
