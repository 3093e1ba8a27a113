"""Pure helpers of the local pipeline (demo, e2e bench): settings hand-off and sample rounds."""

from __future__ import annotations

import dataclasses

from worker.cli.demo_cmd import sample_round
from worker.models import Page
from worker.settings import Settings
from worker.stream.local import LOCAL_TUNING, local_settings, pipeline_topics, settings_env


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
