"""`replay` puts every page of a file into the topic, keyed by site, and fails clearly without a broker."""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from aiokafka import AIOKafkaConsumer, TopicPartition

from tests.integration.conftest import MakeTopic
from worker.cli import replay_cmd
from worker.models import Page
from worker.settings import Settings
from worker.stream.broker import free_port
from worker.stream.replay import page_producer, replay_pages

pytestmark = pytest.mark.broker

SITES = ("alpha.example", "beta.example", "gamma.example")


def _write_pages(path: Path, n: int) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for i in range(n):
            site = SITES[i % len(SITES)]
            html = f"<html><head><title>Page {i}</title></head><body><p>Body of page {i}.</p></body></html>"
            out.write(json.dumps({"id": f"p{i}", "url": f"https://{site}/a/{i}", "html": html}) + "\n")


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    replay_cmd.register(sub)
    args = parser.parse_args(["replay", *argv])
    code: int = args.func(args)
    return code


async def _consume(broker: str, topic: str, expected: int) -> list[Any]:
    """Everything in `topic` from the beginning; partitions assigned directly (no group join wait)."""
    consumer = AIOKafkaConsumer(bootstrap_servers=broker, auto_offset_reset="earliest", fetch_max_wait_ms=50)
    await consumer.start()
    records: list[Any] = []
    try:
        await consumer.topics()
        partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        consumer.assign(partitions)
        await consumer.seek_to_beginning(*partitions)
        for _ in range(60):
            batches = await consumer.getmany(timeout_ms=500)
            records += [r for recs in batches.values() for r in recs]
            if len(records) >= expected:
                # one more poll: catches duplicates a broken replay might add
                batches = await consumer.getmany(timeout_ms=300)
                records += [r for recs in batches.values() for r in recs]
                break
    finally:
        await consumer.stop()
    return records


def test_replay_jsonl_into_topic(
    broker: str, make_topic: MakeTopic, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "pages.jsonl.gz"
    _write_pages(source, 30)
    topic = asyncio.run(make_topic("pages", partitions=4))
    code = _run([str(source), "--bootstrap-servers", broker, "--topic", topic, "--limit", "25", "--quiet"])
    assert code == 0
    assert "replayed 25 pages" in capsys.readouterr().out
    records = asyncio.run(_consume(broker, topic, 25))
    assert len(records) == 25
    ids = sorted(json.loads(r.value)["id"] for r in records)
    assert ids == sorted(f"p{i}" for i in range(25))
    # keyed by site: one site never spans two partitions
    partitions_of: dict[bytes, set[int]] = {}
    for r in records:
        partitions_of.setdefault(r.key, set()).add(r.partition)
    assert set(partitions_of) == {s.encode() for s in SITES}
    assert all(len(p) == 1 for p in partitions_of.values())


def test_replay_as_headers(broker: str, make_topic: MakeTopic, tmp_path: Path) -> None:
    source = tmp_path / "pages.jsonl.gz"
    _write_pages(source, 6)
    topic = asyncio.run(make_topic("raw", partitions=1))
    assert (
        _run([str(source), "--bootstrap-servers", broker, "--topic", topic, "--as-headers", "--quiet"]) == 0
    )
    records = asyncio.run(_consume(broker, topic, 6))
    assert len(records) == 6
    assert all(r.value.startswith(b"<html>") for r in records)
    headers = Counter(name for r in records for name, _ in r.headers)
    assert headers["id"] == 6
    assert headers["url"] == 6


def _write_mixed(path: Path) -> None:
    """Ten pages, of which four have no url (two of them with a site), as in datasets like dragnet."""
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for i in range(10):
            row: dict[str, Any] = {"id": f"m{i}", "html": f"<html><body><p>Page {i}.</p></body></html>"}
            if i % 5 in (1, 3):
                if i % 5 == 1:
                    row["site"] = SITES[1]
            else:
                row["url"] = f"https://{SITES[0]}/m/{i}"
            out.write(json.dumps(row) + "\n")


def _replay_mixed(broker: str, make_topic: MakeTopic, tmp_path: Path, *options: str) -> tuple[int, str]:
    """Replay _write_mixed's pages into a new topic with `options`: (exit code, topic)."""
    source = tmp_path / "mixed.jsonl.gz"
    _write_mixed(source)
    topic = asyncio.run(make_topic("mixed", partitions=2))
    return _run([str(source), "--bootstrap-servers", broker, "--topic", topic, "--quiet", *options]), topic


def test_replay_skips_pages_without_url_and_says_so(
    broker: str, make_topic: MakeTopic, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, topic = _replay_mixed(broker, make_topic, tmp_path)
    assert code == 0
    out = capsys.readouterr().out
    assert "replayed 6 pages" in out
    assert "4 skipped: 4 no url (give --url-prefix)" in out
    records = asyncio.run(_consume(broker, topic, 6))
    assert sorted(json.loads(r.value)["id"] for r in records) == [f"m{i}" for i in (0, 2, 4, 5, 7, 9)]


def test_replay_url_prefix_names_pages_without_url(
    broker: str, make_topic: MakeTopic, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, topic = _replay_mixed(
        broker, make_topic, tmp_path, "--url-prefix", "https://{site}/", "--site", SITES[2]
    )
    assert code == 0
    assert "replayed 10 pages" in capsys.readouterr().out
    urls = {
        json.loads(r.value)["id"]: json.loads(r.value)["url"]
        for r in asyncio.run(_consume(broker, topic, 10))
    }
    assert urls["m1"] == f"https://{SITES[1]}/m1"  # its own site
    assert urls["m3"] == f"https://{SITES[2]}/m3"  # --site for a page that names none
    assert urls["m0"] == f"https://{SITES[0]}/m/0"  # a page's own url is kept
    assert _replay_mixed(broker, make_topic, tmp_path, "--url-prefix", "pages/")[0] == 2
    assert "not an absolute URL" in capsys.readouterr().err


def test_replay_without_broker_fails_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "pages.jsonl.gz"
    _write_pages(source, 2)
    code = _run([str(source), "--bootstrap-servers", f"127.0.0.1:{free_port()}", "--quiet"])
    assert code == 2
    assert "cannot reach Kafka" in capsys.readouterr().err


def test_replay_missing_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([str(tmp_path / "nope.jsonl"), "--bootstrap-servers", "127.0.0.1:1"]) == 2
    assert "does not exist" in capsys.readouterr().err


async def test_rate_paces_sends(broker: str, make_topic: MakeTopic) -> None:
    topic = await make_topic("paced")
    pages = [Page(id=f"r{i}", html="<p>x</p>", url=f"https://{SITES[0]}/{i}") for i in range(10)]
    async with page_producer(Settings(bootstrap_servers=broker)) as producer:
        stats = await replay_pages(producer, pages, topic, rate=20.0, record_times=True)
    assert stats.sent == 10
    # pacing is against a schedule from the first send: 9 gaps of 50 ms at least
    times = sorted(stats.produced_at_ms.values())
    assert times[-1] - times[0] >= 440
