"""Site template memory survives a rebalance through the compacted changelog (real Tansu broker).

A cleaning process that owns input partition 1 learns a site and gives the partition up (its snapshots
are written); the next owner reads changelog partition 1 and strips the template on its very first
page of that site. Restore applies "last value wins, None deletes" and never mixes partitions; an
invalid snapshot is skipped and counted, and its site is re-learned.
"""

from __future__ import annotations

import orjson
import pytest
from aiokafka import AIOKafkaProducer

from tests.integration.conftest import MakeTopic
from tests.integration.test_worker_pipeline import running
from tests.integration.workerkit import collect, produce, worker_settings
from worker.clean.sitememory import MemoryConfig, SiteMemory
from worker.messages import page_to_record
from worker.models import Page
from worker.settings import Settings
from worker.stream import ipc
from worker.stream.changelog import read_changelog
from worker.stream.child import Cleaner

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


def clean(cleaner: Cleaner, partition: int, p: Page, offset: int) -> dict[str, object]:
    key, value, headers = page_to_record(p)
    reply = cleaner.handle((ipc.PAGE, partition, ("pages", partition, offset, 0, key, value, headers)))
    return orjson.loads(reply[1][2])  # type: ignore[index]


async def write(
    broker: str, changelog: str, partition: int, snapshots: list[tuple[str, bytes | None]]
) -> None:
    producer = AIOKafkaProducer(bootstrap_servers=broker, acks="all")
    await producer.start()
    try:
        for site, data in snapshots:
            await producer.send_and_wait(changelog, data, key=site.encode(), partition=partition)
    finally:
        await producer.stop()


async def learning_pipeline(broker: str, make_topic: MakeTopic, group_id: str, partitions: int) -> Settings:
    """Worker settings with template memory on, over fresh topics (the changelog included)."""
    pages = await make_topic("pages", partitions=partitions)
    docs = await make_topic("documents", partitions=1)
    dead = await make_topic("dead", partitions=1)
    changelog = await make_topic("sitememory", partitions=partitions, compacted=True)
    settings = worker_settings(
        broker, group_id, pages, docs, dead, no_templates=False, changelog_topic=changelog,
        template_min_pages=3, snapshot_every_pages=1000,
    )  # fmt: skip
    return settings


async def test_site_learned_by_a_is_restored_by_b_after_rebalance(broker: str, make_topic: MakeTopic) -> None:
    """Cleaning process A learns a site on partition 1 and gives it up; its snapshots go through the
    changelog; process B adopts partition 1 with what the worker reads back and strips at once."""
    changelog = await make_topic("sitememory", partitions=2, compacted=True)
    settings = settings_for(broker, changelog)
    a = Cleaner(settings)
    a.handle((ipc.ADOPT, 1, [], 64.0))
    methods = [clean(a, 1, page(i), i)["method"] for i in range(4)]
    assert methods[-1] == "template"
    _, _, snapshots = a.handle((ipc.RELEASE, 1))
    assert [site for site, _ in snapshots] == [SITE]  # type: ignore[union-attr]
    await write(broker, changelog, 1, snapshots)  # type: ignore[arg-type]

    restored = await read_changelog(settings, [0, 1], timeout_s=20.0)
    assert set(restored[1]) == {SITE}
    assert restored[0] == {}  # partition 0 of the changelog holds nothing of partition 1
    b = Cleaner(settings)
    assert b.handle((ipc.ADOPT, 1, list(restored[1].items()), 64.0)) == (ipc.ADOPTED, 1, 1, 0)
    first = clean(b, 1, page(10), 10)
    assert first["method"] == "template"
    assert first["template"]["pages_seen"] == 5  # type: ignore[index]
    assert first["template"]["blocks_stripped"] >= 2  # type: ignore[index]
    assert "written by the author" not in str(first["text"])


async def test_restore_last_value_wins_and_tombstones_delete(broker: str, make_topic: MakeTopic) -> None:
    changelog = await make_topic("sitememory", partitions=2, compacted=True)
    settings = settings_for(broker, changelog)
    old, new = SiteMemory(MemoryConfig()), SiteMemory(MemoryConfig())
    old.observe("a.example", "u1", {1, 2})
    for k in range(3):
        new.observe("a.example", f"u{k}", {1, 2, 3})
    gone = SiteMemory(MemoryConfig())
    gone.observe("b.example", "u1", {5})
    await write(
        broker,
        changelog,
        0,
        [
            ("a.example", old.dump("a.example")),
            ("b.example", gone.dump("b.example")),
            ("a.example", new.dump("a.example")),
            ("b.example", None),
        ],
    )
    producer = AIOKafkaProducer(bootstrap_servers=broker, acks="all")
    await producer.start()
    try:
        await producer.send_and_wait(changelog, b"keyless records are ignored", partition=0)
    finally:
        await producer.stop()
    restored = await read_changelog(settings, [0, 1], timeout_s=20.0)
    assert restored == {0: {"a.example": new.dump("a.example")}, 1: {}}


async def test_worker_b_restores_what_worker_a_learned_after_a_rebalance(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    """The real runner: worker A cleans a site's pages and leaves; worker B takes the partitions over,
    restores the site from the changelog and strips the template on its first page of that site."""
    settings = await learning_pipeline(broker, make_topic, group_id, partitions=2)
    pages, docs = settings.input_topic, settings.output_topic
    await produce(broker, pages, [page_to_record(page(i)) for i in range(5)])
    async with running(settings):
        first = await collect(broker, [docs], 5, within=30)
    assert [r.json()["method"] for r in first] == ["density", "density", "template", "template", "template"]

    await produce(broker, pages, [page_to_record(page(10))])
    async with running(settings):
        out = await collect(broker, [docs], 6, within=30)
    later = [r.json() for r in out if r.json()["id"] == "p10"]
    assert len(later) == 1
    doc = later[0]
    assert doc["method"] == "template"
    assert doc["template"]["pages_seen"] == 6
    assert doc["template"]["blocks_stripped"] >= 2
    assert "written by the author" not in doc["text"]


async def test_an_invalid_snapshot_is_skipped_counted_and_its_site_relearned(
    broker: str, make_topic: MakeTopic, group_id: str
) -> None:
    settings = await learning_pipeline(broker, make_topic, group_id, partitions=1)
    pages, docs, changelog = settings.input_topic, settings.output_topic, settings.changelog_topic
    good = SiteMemory(MemoryConfig())
    good.observe("other.example", "u1", {1, 2})
    await write(
        broker, changelog, 0, [(SITE, b"\x00not a snapshot"), ("other.example", good.dump("other.example"))]
    )
    await produce(broker, pages, [page_to_record(page(i)) for i in range(4)])
    async with running(settings) as worker:
        out = await collect(broker, [docs], 4, within=30)
        invalid = worker.metrics.changelog_invalid_snapshots._value.get()
    assert invalid == 1
    # the site starts from nothing and is learned again; the bad snapshot poisons nothing
    assert [r.json()["method"] for r in out] == ["density", "density", "template", "template"]
