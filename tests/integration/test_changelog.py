"""Site template memory survives a rebalance through the compacted changelog (real Tansu broker).

Worker A owns input partition 1, learns a site and is revoked (snapshots written and flushed); worker B
is assigned partition 1, restores from changelog partition 1 and strips the template on its very first
page of that site. Restore applies "last value wins, None deletes" and never mixes partitions.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from aiokafka import AIOKafkaProducer

from tests.integration.conftest import MakeTopic
from tests.integration.test_worker_pipeline import running
from tests.integration.workerkit import collect, produce, worker_settings
from worker.clean.pipeline import clean_page
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.messages import page_to_record
from worker.models import Page
from worker.settings import Settings
from worker.stream.changelog import ChangelogHooks, hooks_factory, restore
from worker.stream.state import PartitionState

pytestmark = pytest.mark.broker

SITE = "example.org"
NAV = "".join(f'<li><a href="/{w}">{w.title()}</a></li>' for w in ("news", "sport", "weather", "culture"))
BOILER = (
    '<div id="sidebar"><p>This is a blog that is written by a person who likes to write about the things '
    "that happen in the town where they have lived for years and want to share with the readers.</p></div>"
    '<div id="footer"><p>All of the text on this site is written by the author and it is not to be copied '
    "without asking first, which is only fair for a small site like this one.</p></div>"
)


TOPICS = (
    "river",
    "market",
    "library",
    "bridge",
    "garden",
    "school",
    "harbour",
    "station",
    "museum",
    "park",
    "hall",
)


def page(i: int) -> Page:
    t = TOPICS[i % len(TOPICS)]  # digits fold to "0" in fingerprints: vary the words, not the numbers
    paras = "".join(
        f"<p>That day the {t} was the place where {n} of the people in the town went to see what had "
        f"happened there, and they talked about the {t} for a long time because it was {t} news {k}.</p>"
        for k, n in enumerate(("many", "most", "some", "all"))
    )
    html = (
        f'<html><body><div id="header"><ul class="nav">{NAV}</ul></div>'
        f'<div id="main"><div class="post"><h1>Story {i}</h1>{paras}</div></div>{BOILER}</body></html>'
    )
    return Page(id=f"p{i}", html=html, url=f"https://{SITE}/story/{i}", site=SITE)


def settings_for(broker: str, changelog: str) -> Settings:
    return Settings(
        bootstrap_servers=broker,
        changelog_topic=changelog,
        fetch_max_wait_ms=50,
        compression_type="none",
        snapshot_every_pages=1000,
        template_min_pages=3,
    )


async def fake_worker(settings: Settings) -> tuple[SimpleNamespace, AIOKafkaProducer]:
    producer = AIOKafkaProducer(bootstrap_servers=settings.bootstrap_servers, acks="all")
    await producer.start()
    return SimpleNamespace(settings=settings, producer=producer), producer


async def test_site_learned_by_a_is_restored_by_b_after_rebalance(broker: str, make_topic: MakeTopic) -> None:
    changelog = await make_topic("sitememory", partitions=2, compacted=True)
    settings = settings_for(broker, changelog)

    worker_a, producer_a = await fake_worker(settings)
    try:
        hooks_a = ChangelogHooks(worker_a)
        state_a = PartitionState("pages", 1)
        await hooks_a.on_assign([state_a])
        assert isinstance(state_a.memory, SiteMemory)
        assert len(state_a.memory) == 0
        for i in range(4):
            res = clean_page(page(i), state_a.memory)
            await hooks_a.after_page(state_a, res)
        assert res.method == "template"
        await hooks_a.on_revoke([state_a])  # snapshot + flush, then drop
        assert state_a.memory is None
    finally:
        await producer_a.stop()

    worker_b, producer_b = await fake_worker(settings)
    try:
        hooks_b = ChangelogHooks(worker_b)
        state_b = PartitionState("pages", 1)
        other = PartitionState("pages", 0)
        await hooks_b.on_assign([state_b, other])
        memory = state_b.memory
        assert isinstance(memory, SiteMemory)
        assert SITE in memory
        assert memory.get(SITE).pages_seen == 4  # type: ignore[union-attr]
        assert len(other.memory) == 0  # partition 0 of the changelog holds nothing of partition 1
        first = clean_page(page(10), memory)
        assert first.method == "template"
        assert first.template is not None
        assert first.template.blocks_stripped >= 2
        assert "written by the author" not in first.text
        await hooks_b.on_revoke([state_b, other])
    finally:
        await producer_b.stop()


async def test_restore_last_value_wins_and_tombstones_delete(broker: str, make_topic: MakeTopic) -> None:
    changelog = await make_topic("sitememory", partitions=2, compacted=True)
    settings = settings_for(broker, changelog)
    old, new = SiteMemory(MemoryConfig()), SiteMemory(MemoryConfig())
    old.observe("a.example", "u1", {1, 2})
    for k in range(3):
        new.observe("a.example", f"u{k}", {1, 2, 3})
    gone = SiteMemory(MemoryConfig())
    gone.observe("b.example", "u1", {5})
    producer = AIOKafkaProducer(bootstrap_servers=broker, acks="all")
    await producer.start()
    try:
        for key, value in (
            ("a.example", old.dump("a.example")),
            ("b.example", gone.dump("b.example")),
            ("a.example", new.dump("a.example")),
            ("b.example", None),
            (None, b"keyless records are ignored"),
        ):
            await producer.send_and_wait(changelog, value, key=key.encode() if key else None, partition=0)
    finally:
        await producer.stop()
    memories = {0: SiteMemory(MemoryConfig()), 1: SiteMemory(MemoryConfig())}
    applied = await restore(settings, memories, timeout_s=20.0)
    assert applied == 4
    assert memories[0].sites() == ["a.example"]
    assert memories[0].dump("a.example") == new.dump("a.example")
    assert len(memories[1]) == 0


async def test_worker_b_restores_what_worker_a_learned_after_a_rebalance(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    """The real runner: worker A cleans a site's pages and leaves; worker B takes the partitions over,
    restores the site from the changelog and strips the template on its first page of that site."""
    pages = await make_topic("pages", partitions=2)
    docs = await make_topic("documents", partitions=1)
    dead = await make_topic("dead", partitions=1)
    changelog = await make_topic("sitememory", partitions=2, compacted=True)
    settings = worker_settings(
        broker,
        group_id,
        pages,
        docs,
        dead,
        no_templates=False,
        changelog_topic=changelog,
        template_min_pages=3,
        snapshot_every_pages=1000,
    )
    await produce(broker, pages, [page_to_record(page(i)) for i in range(5)])
    async with running(settings, hooks_factory=hooks_factory):
        first = await collect(broker, [docs], 5, within=30)
    assert [r.json()["method"] for r in first] == ["density", "density", "template", "template", "template"]

    await produce(broker, pages, [page_to_record(page(10))])
    async with running(settings, hooks_factory=hooks_factory):
        out = await collect(broker, [docs], 6, within=30)
    later = [r.json() for r in out if r.json()["id"] == "p10"]
    assert len(later) == 1
    doc = later[0]
    assert doc["method"] == "template"
    assert doc["template"]["pages_seen"] == 6
    assert doc["template"]["blocks_stripped"] >= 2
    assert "written by the author" not in doc["text"]
