"""Which cleaning process cleans a page: each site (the record's key) sticks to one, chosen by load.

The unit of placement is the record's key, which the README asks crawlers to make the page's site. A
key seen for the first time in its partition is placed, when its first page is handed out, on the ready
process with room and the least outstanding work; its later pages go to the same process, so that
process holds the site's template memory and cleans its pages in order. A placement is only forgotten
while none of the key's pages is queued or running (an idle key evicted from a full table, or a
revoke), so a site's documents still come out in input order; a replaced process keeps its keys, and
the pages it handed back go to its successor first. A forgotten key that comes back may land on another
process: that process learns the site again (a cost in quality for a few pages, never in correctness).
Records without a key follow their partition's home process, as every record did before keys were
placed.

Why keys and not partitions: Kafka's default partitioner puts a site on `murmur2(key) % partitions`,
and with partitions dealt alternately to two processes, one gets exactly the sites whose hash is even,
whatever the partition count; on the benchmark mix that was 52.5% : 47.5% of the cleaning CPU, and the
idle process waited for the busy one at the end of every drain (README, "Process model").

Pure bookkeeping (no I/O, no asyncio): worker/stream/pool.py owns the processes and asks this table.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence

from worker.sites import SITE_MAX_CHARS, bounded_site

# Keys remembered per partition. A key costs the table ~176 bytes (tracemalloc, 20,000 keys of
# ~20-byte sites), so a partition's table stays under ~3 MB. Remembering more than the site memory can
# hold buys nothing: a learned site costs ~4.4 KB (SITE_OVERHEAD plus the mean snapshot,
# worker/clean/sitememory.py), so the default 256 MB holds ~60,000 sites, i.e. ~15,000 a partition at 4
# partitions a pod and fewer beyond.
KEYS_PER_PARTITION = 16_384


def site_key(site: str) -> bytes:
    """The table's key for a site name (a changelog snapshot's site, already bounded)."""
    return site.encode("utf-8", "surrogatepass")


def table_key(key: bytes) -> bytes:
    """The table's key for a record key: the key itself, or, past SITE_MAX_CHARS, the bounded site the
    page gets from that key (worker.sites.bounded_site), so a long-keyed site's restored snapshot and its
    pages meet in one process and the table never keeps a 64 KB key (issue 9)."""
    if len(key) <= SITE_MAX_CHARS:  # at most that many characters too: bounded_site keeps it as it is
        return key
    return site_key(bounded_site(key.decode("utf-8", "surrogateescape").strip()))


class Placed:
    """One key's process (a slot index) and how many of its pages are queued or running there."""

    __slots__ = ("queued", "slot")

    def __init__(self, slot: int) -> None:
        self.slot = slot
        self.queued = 0


class PartitionKeys:
    """The placements of one input partition's keys, least recently handed out first."""

    def __init__(self, home: int, limit: int = KEYS_PER_PARTITION) -> None:
        self.home = home  # the slot of records without a key
        self.limit = limit
        self.keys: OrderedDict[bytes, Placed] = OrderedDict()

    def __len__(self) -> int:
        return len(self.keys)

    def find(self, key: bytes) -> Placed | None:
        return self.keys.get(key)

    def place(self, key: bytes, slot: int) -> Placed:
        """Remember `key` on `slot` (the caller checked it is not placed), evicting idle keys beyond
        the limit: the oldest first; a key with pages queued is never evicted (at most QUEUE_PAGES per
        process are, so the scan is short)."""
        placed = self.keys[key] = Placed(slot)
        if len(self.keys) > self.limit:
            for old, entry in self.keys.items():
                if entry.queued == 0 and old != key:
                    del self.keys[old]
                    break
        return placed

    def touch(self, key: bytes) -> None:
        """The key's page was just handed out: evicted last."""
        self.keys.move_to_end(key)

    def held_by(self, slot: int) -> set[bytes]:
        return {key for key, placed in self.keys.items() if placed.slot == slot}


def split(snapshots: Iterable[tuple[str, bytes]], slots: Sequence[int]) -> dict[int, list[tuple[str, bytes]]]:
    """A partition's changelog snapshots dealt over `slots`, each to the one with the fewest bytes so
    far (a snapshot's size is what its site will cost that process's memory)."""
    out: dict[int, list[tuple[str, bytes]]] = {slot: [] for slot in slots}
    load = dict.fromkeys(slots, 0)
    for site, data in snapshots:
        slot = min(slots, key=lambda s: (load[s], s))
        out[slot].append((site, data))
        load[slot] += len(data)
    return out
