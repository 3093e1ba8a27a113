"""Fixtures for integration tests against a real Tansu broker (never a mock).

One in-memory broker per test session: Tansu loses everything on restart, so tests isolate themselves
by topic name and consumer group instead. Topics are created explicitly, because auto-create would
silently give any misspelt or unprepared topic 4 partitions.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from worker.stream.broker import TopicSpec, create_topics, embedded_broker

# Point the suite at an already running broker instead of starting one (e.g. a real cluster in CI).
EXTERNAL_BROKER_ENV = "CLEANSTREAM_TEST_BOOTSTRAP"

# Client settings that keep Tansu's slow joins and non-waking fetches short (see the Tansu notes).
FAST_CONSUMER = {"session_timeout_ms": 3000, "heartbeat_interval_ms": 500, "fetch_max_wait_ms": 50}

MakeTopic = Callable[..., Awaitable[str]]


@pytest.fixture(scope="session")
def broker_log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tansu")


@pytest.fixture(scope="session")
def broker(broker_log_dir: Path) -> Iterator[str]:
    """Bootstrap string "127.0.0.1:PORT" of a fresh in-memory broker shared by the session."""
    external = os.environ.get(EXTERNAL_BROKER_ENV)
    if external:
        yield external
        return
    with embedded_broker(log_dir=broker_log_dir) as bootstrap:
        yield bootstrap


_counter = itertools.count()


@pytest.fixture
def topic_name(request: pytest.FixtureRequest) -> Callable[[str], str]:
    """Make a topic name unique to this test: topic_name("pages") -> "t-test_x-pages-3f9a1c-0"."""
    test = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")[:40]
    run = uuid.uuid4().hex[:6]

    def make(base: str = "topic") -> str:
        return f"t-{test}-{base}-{run}-{next(_counter)}"

    return make


@pytest.fixture
def make_topic(broker: str, topic_name: Callable[[str], str]) -> MakeTopic:
    """Create a uniquely named topic explicitly and return its name.

    `await make_topic("pages", partitions=4)`; `await make_topic("state", compacted=True)`.
    """

    async def make(base: str = "topic", partitions: int = 1, compacted: bool = False) -> str:
        name = topic_name(base)
        await create_topics(broker, [TopicSpec(name, partitions, compacted)])
        return name

    return make


@pytest.fixture
def group_id(topic_name: Callable[[str], str]) -> str:
    """A consumer group unique to this test, so committed offsets never leak between tests."""
    return topic_name("group")
