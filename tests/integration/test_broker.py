"""The embedded broker starts, serves, refuses a busy port clearly, and stops."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient

from tests.integration.conftest import FAST_CONSUMER, MakeTopic
from worker.stream.broker import BrokerError, TopicSpec, create_topics, embedded_broker, start_broker

pytestmark = pytest.mark.broker


def _accepts(bootstrap: str) -> bool:
    host, port = bootstrap.rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=1.0):
            return True
    except OSError:
        return False


def test_start_and_stop(tmp_path: Path) -> None:
    with embedded_broker(log_dir=tmp_path) as bootstrap:
        assert bootstrap.startswith("127.0.0.1:")
        assert _accepts(bootstrap)
        logs = list(tmp_path.glob("tansu-*.log"))
        assert len(logs) == 1
        assert "ready in" in logs[0].read_text()
    assert not _accepts(bootstrap)


def _broker_log(folder: Path) -> str:
    return next(folder.glob("tansu-*.log")).read_text()


async def test_requests_leave_no_log_lines(tmp_path: Path) -> None:
    # At Tansu's "info" every request logs its spans: ~92% of the broker's CPU and gigabytes per session.
    with embedded_broker(log_dir=tmp_path) as bootstrap:
        producer = AIOKafkaProducer(bootstrap_servers=bootstrap)
        await producer.start()
        try:
            for i in range(50):
                await producer.send_and_wait("quiet-log", b"x" * 1000, key=str(i).encode())
        finally:
            await producer.stop()
        log = _broker_log(tmp_path)
    assert "ready in" in log
    assert " INFO " not in log


def test_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        with pytest.raises(BrokerError, match="already in use"):
            start_broker(log_dir=tmp_path, port=port)


async def test_explicit_partitions_and_compacted_config(broker: str, make_topic: MakeTopic) -> None:
    pages = await make_topic("pages", partitions=4)
    state = await make_topic("state", partitions=2, compacted=True)
    # Creating again is tolerated and reports nothing new.
    assert await create_topics(broker, [TopicSpec(pages, 4)]) == []
    admin = AIOKafkaAdminClient(bootstrap_servers=broker)
    await admin.start()
    try:
        described = await admin.describe_topics([pages, state])
    finally:
        await admin.close()
    counts = {t["topic"]: len(t["partitions"]) for t in described}
    assert counts == {pages: 4, state: 2}


async def test_round_trip(broker: str, make_topic: MakeTopic, group_id: str) -> None:
    topic = await make_topic("rt", partitions=2)
    producer = AIOKafkaProducer(bootstrap_servers=broker)
    await producer.start()
    try:
        for i in range(10):
            await producer.send_and_wait(topic, f"v{i}".encode(), key=f"k{i % 3}".encode())
    finally:
        await producer.stop()
    consumer = AIOKafkaConsumer(
        topic, bootstrap_servers=broker, group_id=group_id, auto_offset_reset="earliest", **FAST_CONSUMER
    )
    await consumer.start()
    seen: list[bytes] = []
    try:
        for _ in range(50):
            batches = await consumer.getmany(timeout_ms=500)
            seen += [r.value for recs in batches.values() for r in recs]
            if len(seen) >= 10:
                break
    finally:
        await consumer.stop()
    assert sorted(seen) == sorted(f"v{i}".encode() for i in range(10))
