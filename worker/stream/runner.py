"""The streaming worker: consume pages, have them cleaned, produce documents or dead letters, commit.

Guarantees (at-least-once): every input record yields exactly one output (a document, or a dead
letter with a reason); an input offset is committed only after the output of it and of every earlier
offset in its partition was acked by the broker. A crash therefore re-processes, never loses.

This event loop never parses a page. Fetched records wait in their partition's backlog and are handed
to the cleaning pool (worker/stream/pool.py), whose processes answer with the encoded output; the
loop produces it. So heartbeats, commits, /healthz and shutdown never wait on a page, and a page that
runs past its deadline costs one process restart, not the group's progress.

    fetch -> backlog (per partition) -> cleaning process (per site) -> produce -> ack -> commit
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

from aiokafka import ConsumerRebalanceListener
from aiokafka.structs import TopicPartition

from worker.http import Health
from worker.metrics import Metrics
from worker.settings import Settings
from worker.stream.errors import Action, describe, route
from worker.stream.handle import Output
from worker.stream.pool import CleaningPool, Launcher, Snapshots
from worker.stream.ports import KafkaClients
from worker.stream.spawn import subprocess_launcher
from worker.stream.state import Job, PartitionState, Pending

log = logging.getLogger(__name__)

GETMANY_TIMEOUT_MS = 200  # how quickly an idle loop notices a stop request
LAG_REFRESH_S = 1.0
# A partition whose backlog holds max_poll_records pages or this many bytes is not taken from until it
# drains (aiokafka's fetcher buffers up to max_partition_fetch_bytes per partition on top).
BACKLOG_BYTES = 16 * 1024 * 1024
# Broker calls that can hang (Tansu after a restart answers OffsetCommit with a retriable error
# forever, and aiokafka's commit() never returns; see the broker notes §6.5) are bounded.
COMMIT_TIMEOUT_S = 10.0
FLUSH_TIMEOUT_S = 10.0
POSITION_TIMEOUT_S = 0.5
# Restoring a partition's site memory holds the partition; past this it starts with no snapshots (the
# changelog reader gives up on its own at 60 s with what it has; this bounds any reader).
RESTORE_TIMEOUT_S = 70.0
# Unreachable brokers: retried after 0.5, 1, 2, 4, 8, 10, 10 ... s until broker_wait_s has passed.
CONNECT_BACKOFF_S = 0.5
CONNECT_BACKOFF_MAX_S = 10.0
# /readyz follows a metadata request sent this often over the producer's connections.
PROBE_INTERVAL_S = 2.0
# Of the drain grace, the last share (at most DRAIN_RESERVE_MAX_S) is kept for flushing, committing
# and leaving the group; pages still running when it starts are abandoned (redelivered later).
DRAIN_RESERVE_SHARE = 0.4
DRAIN_RESERVE_MAX_S = 5.0
# A revoke waits for the cleaning processes to finish what they hold of the revoked partitions; the
# watchdog kills a stuck one at the page deadline, so this only bounds the unexpected.
RELEASE_SLACK_S = 5.0


class _Listener(ConsumerRebalanceListener):  # type: ignore[misc]
    def __init__(self, worker: Worker) -> None:
        self._worker = worker

    async def on_partitions_revoked(self, revoked: Sequence[TopicPartition]) -> None:
        try:
            await self._worker.release(revoked)
        except Exception as exc:  # aiokafka would log it and go on: stop instead, nothing is committed
            log.exception("giving partitions up failed")
            self._worker.on_fatal(f"giving partitions up failed: {describe(exc)}")

    async def on_partitions_assigned(self, assigned: Sequence[TopicPartition]) -> None:
        await self._worker.adopt(assigned)


class Worker:
    """One group member with its cleaning pool. `await Worker(...).run()`; `request_stop()` drains."""

    def __init__(
        self,
        settings: Settings,
        metrics: Metrics,
        health: Health | None = None,
        *,
        clients: KafkaClients | None = None,
        launcher: Launcher | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.health = health or Health()
        if clients is None:
            from worker.stream.kafka import kafka_clients

            clients = kafka_clients(settings)
        self.consumer = clients.consumer
        self.producer = clients.producer
        self.snapshots = clients.snapshots
        self._probe = clients.probe
        self.pool = CleaningPool(settings, self, launcher or subprocess_launcher(settings), metrics)
        self.states: dict[TopicPartition, PartitionState] = {}
        self._by_partition: dict[int, PartitionState] = {}
        self.failure: str | None = None
        self._stop = asyncio.Event()
        self._stop_at: float | None = None
        self._inflight = 0
        self._room = asyncio.Event()  # set when a backlog may take records again
        self._low_water = max(0, settings.max_inflight // 2)
        self._backpressure = False
        self._last_commit = 0.0
        self._last_lag = 0.0
        self._lagged: set[int] = set()  # partitions with a lag gauge child
        self._turn = 0  # where the next _pump starts (fairness between partitions)
        self._producer_started = self._consumer_started = False
        self._tasks: list[asyncio.Task[None]] = []
        # Labelled children bound once: a labels() lookup per page is a lock and a dict walk.
        self._outcome_pages = {o: metrics.pages.labels(o) for o in ("document", "dead_letter")}
        self._by_reason: dict[str, Any] = {}
        self._by_method: dict[str, Any] = {}
        # Read at scrape time instead of being set twice per page.
        metrics.inflight.set_function(lambda: self._inflight)
        metrics.sitememory_budget_bytes.set(settings.memory_budget_mb * 1024 * 1024)

    # --- lifecycle -------------------------------------------------------------------------------

    def request_stop(self) -> None:
        if not self._stop.is_set():
            log.info("stop requested: finishing in-flight pages (grace %.1fs)", self.settings.drain_grace_s)
            self._stop_at = time.monotonic()
            self._stop.set()
            self.pool.draining = True

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    async def run(self) -> int:
        """Consume until stopped; returns the process exit code (0 = drained cleanly)."""
        try:
            # Cleaning processes first: a worker that cannot clean must not take partitions.
            await self.pool.start()
            if await self._connect():
                log.info("consuming %s as group %s", self.settings.input_topic, self.settings.group_id)
                self._tasks.append(asyncio.create_task(self._watch_connection(), name="broker-probe"))
                await self._consume()
        except Exception as exc:
            log.exception("worker failed")
            self._fail(f"{type(exc).__name__}: {exc}")
        return await self._shutdown()

    def _fail(self, why: str) -> None:
        if self.failure is None:
            self.failure = why
            self.health.failed = why
        self.request_stop()

    def on_fatal(self, why: str) -> None:
        log.error("%s", why)
        self._fail(why)

    async def _connect(self) -> bool:
        """Start the clients, retrying an unreachable broker with backoff for up to broker_wait_s."""
        deadline = time.monotonic() + self.settings.broker_wait_s
        delay = CONNECT_BACKOFF_S
        while not self.stopping:
            try:
                if not self._producer_started:
                    await self.producer.start()
                    self._producer_started = True
                if not self._consumer_started:
                    self.consumer.subscribe([self.settings.input_topic], listener=_Listener(self))
                    await self.consumer.start()
                    self._consumer_started = True
            except Exception as exc:
                if route(exc, "connect").action is not Action.RETRY:
                    raise
                left = deadline - time.monotonic()
                if left <= 0:
                    s = self.settings
                    why = f"brokers {s.bootstrap_servers} unreachable for {s.broker_wait_s:g}s"
                    log.error("%s: %s", why, exc)
                    self._fail(why)
                    return False
                wait = min(delay, left)
                log.warning("brokers %s unreachable (%s); retrying in %.1fs",
                            self.settings.bootstrap_servers, type(exc).__name__, wait)  # fmt: skip
                await self._sleep(wait)
                delay = min(delay * 2, CONNECT_BACKOFF_MAX_S)
                continue
            self._set_connected(True)
            return True
        return False

    async def _sleep(self, seconds: float) -> None:
        """Sleep, but wake up at once on a stop request."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), timeout=seconds)

    async def _watch_connection(self) -> None:
        """Probe the brokers: /readyz is false while they do not answer; after broker_wait_s, exit 1."""
        down_since: float | None = None
        while not self.stopping:
            await self._sleep(PROBE_INTERVAL_S)
            try:
                ok = await self._probe()
            except Exception as exc:
                if route(exc, "connect").action is not Action.RETRY:
                    raise
                ok = False
            now = time.monotonic()
            if ok and down_since is not None:
                log.info("brokers reachable again after %.1fs", now - down_since)
                down_since = None
            elif not ok and down_since is None:
                log.warning("brokers %s do not answer; not ready", self.settings.bootstrap_servers)
                down_since = now
            elif not ok and down_since is not None and now - down_since > self.settings.broker_wait_s:
                self._fail(f"brokers unreachable for {now - down_since:.0f}s")
            self._set_connected(ok)

    def _set_connected(self, ok: bool) -> None:
        self.health.connected = ok
        self.metrics.broker_connected.set(1 if ok else 0)

    async def _shutdown(self) -> int:
        """Within drain_grace_s of the stop request: finish what the cleaning processes hold (abandon
        what does not finish in time), write the final snapshots, commit what was acked, leave."""
        started = self._stop_at if self._stop_at is not None else time.monotonic()
        grace = self.settings.drain_grace_s
        deadline = started + grace
        pages_until = deadline - min(DRAIN_RESERVE_MAX_S, grace * DRAIN_RESERVE_SHARE)
        self.pool.draining = True
        for task in self._tasks:
            task.cancel()
        clean = True
        try:
            await asyncio.wait_for(
                self.release(list(self.states), wait_until=pages_until, deadline=deadline),
                max(0.1, deadline - time.monotonic()),
            )
        except TimeoutError:
            clean = False
            log.error("drain did not finish within %.1fs; uncommitted pages will be re-processed", grace)
        except Exception:
            clean = False
            log.exception("drain failed; uncommitted pages will be re-processed")
        await self.pool.close()
        for name, client, started_flag in (
            ("consumer", self.consumer, self._consumer_started),
            ("producer", self.producer, self._producer_started),
        ):
            if not started_flag:
                continue
            try:
                await asyncio.wait_for(client.stop(), timeout=max(0.5, deadline - time.monotonic()))
            except Exception:
                clean = False
                log.exception("stopping the %s failed", name)
        self._set_connected(False)
        self.health.assigned = 0
        self.health.member = False
        ok = clean and self.failure is None
        log.info("worker stopped (%s)", "drained" if ok else f"unclean: {self.failure or 'drain incomplete'}")
        return 0 if ok else 1

    # --- rebalance -------------------------------------------------------------------------------

    async def adopt(self, assigned: Sequence[TopicPartition]) -> None:
        """New partitions: held (not taken from the consumer) until their site memory is restored.

        Called after every join of the group, with no partitions too: from then on this worker is a
        group member, which is what /readyz reports (an idle member is ready)."""
        self.health.member = True
        try:
            await self._adopt(assigned)
        except Exception as exc:  # aiokafka would log it and go on with the partitions held forever
            log.exception("taking partitions %s over failed", sorted(tp.partition for tp in assigned))
            self._fail(f"taking partitions over failed: {describe(exc)}")

    async def _adopt(self, assigned: Sequence[TopicPartition]) -> None:
        self.metrics.rebalances.inc()
        new = []
        for tp in assigned:
            if tp not in self.states:
                state = PartitionState(tp.topic, tp.partition)
                self.states[tp] = self._by_partition[tp.partition] = state
                new.append(state)
        if new:
            snapshots = await self.restore([s.partition for s in new])
            live = [state for state in new if not state.closed]  # a revoke may have come meanwhile
            self.pool.adopt({s.partition: list(snapshots.get(s.partition, [])) for s in live})
            for state in live:
                state.held = False
        self._set_assigned()
        self._room.set()
        log.info("assigned %s", sorted(tp.partition for tp in assigned))

    async def restore(self, partitions: list[int]) -> dict[int, Snapshots]:
        """The changelog snapshots of `partitions` (PoolEvents); empty without template memory."""
        if self.settings.no_templates or not partitions:
            return {}
        # Snapshots this worker sent a moment ago must be in the log before it is read.
        await self._flush()
        try:
            sites = await asyncio.wait_for(self.snapshots.read(partitions), RESTORE_TIMEOUT_S)
        except Exception as exc:
            if route(exc, "restore").action is not Action.RETRY:
                raise
            log.warning("reading changelog partitions %s failed (%s); their sites are re-learned",
                        partitions, describe(exc))  # fmt: skip
            return {}
        return {p: list(s.items()) for p, s in sites.items()}

    def on_adopted(self, partition: int, loaded: int, invalid: int) -> None:
        if invalid:
            self.metrics.changelog_invalid_snapshots.inc(invalid)
        log.info("partition %s: %d site snapshots loaded, %d invalid skipped", partition, loaded, invalid)

    async def release(
        self,
        revoked: Sequence[TopicPartition],
        wait_until: float | None = None,
        deadline: float | None = None,
    ) -> None:
        """Give partitions up: their cleaning processes finish what they hold of them (until
        `wait_until`), the final snapshots are written, outputs flushed and acked offsets committed
        (each bounded, by `deadline` too if given)."""
        states = [self.states[tp] for tp in revoked if tp in self.states]
        if not states:
            return
        for state in states:
            state.closed = True
            state.clear_backlog()  # never handed out, so never committed: the next owner does them
        releases = {state.partition: self.pool.release(state.partition) for state in states}
        if wait_until is None:
            wait_until = time.monotonic() + self.settings.page_deadline_s + RELEASE_SLACK_S
        pending = [f for f in releases.values() if not f.done()]
        if pending:
            await asyncio.wait(pending, timeout=max(0.0, wait_until - time.monotonic()))
        for partition, future in releases.items():
            if future.done():
                await self._write_snapshots(partition, future.result())
            else:
                log.warning("partition %s: its cleaning process did not finish in time", partition)
        await self._flush(deadline)
        await self._commit(states, deadline)
        for state in states:
            state.dropped = True
            self.states.pop(TopicPartition(state.topic, state.partition), None)
            self._by_partition.pop(state.partition, None)
            if state.partition in self._lagged:
                self._lagged.discard(state.partition)
                self.metrics.consumer_lag.remove(str(state.partition))
        if not self.stopping:
            self.pool.set_budget(self.pool.budget_mb())
        self._set_assigned()
        log.info("released %s", sorted(s.partition for s in states))

    def _set_assigned(self) -> None:
        self.health.assigned = len(self.states)
        self.metrics.assigned_partitions.set(len(self.states))

    # --- main loop -------------------------------------------------------------------------------

    async def _consume(self) -> None:
        while not self.stopping:
            wanted = self._wanted()
            self.metrics.paused_partitions.set(len(self.states) - len(wanted))
            if wanted:
                batch = await self.consumer.getmany(
                    *wanted, timeout_ms=GETMANY_TIMEOUT_MS, max_records=self.settings.max_poll_records
                )
                for tp, records in batch.items():
                    state = self.states.get(tp)
                    if state is not None and not state.closed:
                        state.take(records)
                        self.metrics.input_bytes.inc(sum(len(r.value or b"") for r in records))
                self._pump()
            else:
                # Every backlog is full (or backpressure, or restores): wait for room, not for records.
                self._room.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._room.wait(), GETMANY_TIMEOUT_MS / 1000.0)
            now = time.monotonic()
            if now - self._last_commit >= self.settings.commit_interval_ms / 1000.0:
                self._last_commit = now
                await self._commit(list(self.states.values()))
            if now - self._last_lag >= LAG_REFRESH_S:
                self._last_lag = now
                await self._check_positions()

    def _pump(self) -> None:
        """Hand backlogged pages to their cleaning processes, one per partition per round.

        Each call starts one partition further: a process usually has room for one page when this
        runs, and starting at the same partition every time would drain that one before its
        neighbours got a page (measured, when partitions were placed whole: a partition waited 5 s).
        """
        pool = self.pool
        # Every process full (the usual state with busy processes): no page can go anywhere, so the
        # backlogs are not walked. Each reply frees one place; without this check the pass that
        # found the processes full again routed every partition's head once more (~5 routes a page).
        if self.stopping or self._backpressure or not pool.has_room():
            return
        states = list(self._by_partition.values())
        if not states:
            return
        self._turn = (self._turn + 1) % len(states)
        states = states[self._turn :] + states[: self._turn]
        moved = True
        while moved:
            moved = False
            for state in states:
                if state.backlog and not state.held and not state.closed:
                    # A partition's pages are handed out in order: a head page whose site's process is
                    # full waits (its earlier pages may be queued there), and so do the pages behind it;
                    # the other partitions go on, and a new site goes to whichever process has room.
                    slot = pool.route(state.backlog[0])
                    if slot is not None:
                        pool.submit(state.next_job(), slot)
                        if not pool.has_room():
                            return
                        moved = True

    def _wanted(self) -> list[TopicPartition]:
        """Partitions to take records from now: not held, not revoked, with room in their backlog.

        Flow control never pauses the consumer: aiokafka drops a paused partition's prefetched records
        and fetches them again on resume (aiokafka/consumer/fetcher.py, check_assignment). Records of a
        partition we do not ask for simply wait in aiokafka's buffer, which stops fetching it meanwhile.
        """
        if self._backpressure:
            return []
        limit = self.settings.max_poll_records
        return [
            tp
            for tp, s in self.states.items()
            if not s.held and not s.closed and len(s.backlog) < limit and s.backlog_bytes < BACKLOG_BYTES
        ]

    # --- PoolEvents ------------------------------------------------------------------------------

    async def on_output(self, job: Job, output: Output, seconds: float, snapshots: Snapshots) -> None:
        state = job.state
        if state.dropped:
            return  # released without waiting for it: never committed, so the next owner redoes it
        if seconds:
            self.metrics.page_seconds.observe(seconds)
        entry = job.entry
        assert entry is not None
        try:
            future = await self.producer.send(
                output.topic, output.value, key=output.key, headers=output.headers
            )
        except Exception as exc:
            if route(exc, "produce").action is Action.CRASH:
                self._fail(f"producing to {output.topic} failed: {describe(exc)}")
                return
            raise
        self._inflight += 1
        if self._inflight >= self.settings.max_inflight and not self._backpressure:
            # Backpressure: the broker acks slower than pages are cleaned. Stop fetching and handing
            # out pages until half the outputs are acked.
            self._backpressure = True
            self.metrics.backpressure_pauses.inc()
        future.add_done_callback(lambda f: self._on_ack(f, state, entry, output))
        if snapshots:
            await self._write_snapshots(state.partition, snapshots)

    def on_requeue(self, jobs: list[Job]) -> None:
        by_state: dict[int, list[Job]] = {}
        for job in jobs:
            if not job.state.closed:
                by_state.setdefault(id(job.state), []).append(job)
        for group in by_state.values():
            group[0].state.put_back(group)

    def on_room(self) -> None:
        self._pump()
        self._room.set()

    async def _write_snapshots(self, partition: int, snapshots: Snapshots) -> None:
        """Send snapshots to the changelog partition numbered like the input partition. At-least-once
        like everything else, but their acks are not waited for: a lost snapshot costs a re-learn."""
        for site, data in snapshots:
            try:
                future = await self.producer.send(
                    self.settings.changelog_topic, data, key=site.encode("utf-8"), partition=partition
                )
            except Exception as exc:
                log.warning("a changelog snapshot could not be sent: %s", describe(exc))
                return
            future.add_done_callback(_snapshot_acked)

    def _on_ack(
        self, future: asyncio.Future[Any], state: PartitionState, entry: Pending, output: Output
    ) -> None:
        self._inflight -= 1
        if self._backpressure and self._inflight <= self._low_water:
            self._backpressure = False
            if not self.stopping:
                self._pump()
                self._room.set()
        if future.cancelled() or future.exception() is not None:
            self.metrics.produce_errors.inc()
            error = "cancelled" if future.cancelled() else repr(future.exception())
            # Its offset stays unacked, so nothing at or after it is committed: the pages are redone.
            self._fail(f"output to {output.topic} was not acked: {error}")
            return
        state.tracker.ack(entry)
        m = self.metrics
        self._outcome_pages[output.outcome].inc()
        m.output_bytes.inc(len(output.value))
        if output.reason is not None:
            child = self._by_reason.get(output.reason)
            if child is None:
                child = self._by_reason[output.reason] = m.dead_letters.labels(output.reason)
            child.inc()
        if output.method is not None:
            child = self._by_method.get(output.method)
            if child is None:
                child = self._by_method[output.method] = m.template_pages.labels(output.method)
            child.inc()

    # --- commits, lag, positions -----------------------------------------------------------------

    async def _flush(self, deadline: float | None = None) -> None:
        if not self._producer_started:
            return
        try:
            await asyncio.wait_for(self.producer.flush(), _bounded(FLUSH_TIMEOUT_S, deadline))
        except Exception as exc:
            log.warning("flushing the producer failed: %s", describe(exc))

    async def _commit(self, states: Sequence[PartitionState], deadline: float | None = None) -> None:
        if not self._consumer_started:
            return
        owned = self.consumer.assignment()
        offsets = {}
        for state in states:
            mark = state.to_commit()
            tp = TopicPartition(state.topic, state.partition)
            if mark is not None and tp in owned:
                offsets[tp] = mark
        if not offsets:
            return
        try:
            await asyncio.wait_for(self.consumer.commit(offsets), _bounded(COMMIT_TIMEOUT_S, deadline))
        except Exception as exc:
            if route(exc, "commit").action is not Action.RETRY:
                raise
            # A rebalance is under way, or the broker is away: the next interval (or the revoke
            # handler, under the new generation's rules) commits again.
            log.warning("commit failed (%s); will retry", type(exc).__name__)
            return
        for state in states:
            tp = TopicPartition(state.topic, state.partition)
            if tp in offsets:
                state.committed = offsets[tp]
        self.metrics.commits.inc()

    async def _check_positions(self) -> None:
        """Refresh the lag gauges, and reset a partition whose position lies beyond the log end."""
        for tp, state in list(self.states.items()):
            if state.held or state.closed:
                continue
            high = self.consumer.highwater(tp)
            if high is None:
                continue
            try:
                position = await asyncio.wait_for(self.consumer.position(tp), timeout=POSITION_TIMEOUT_S)
            except Exception as exc:  # revoked meanwhile, or the broker is away: next time
                log.debug("no position for partition %s: %s", tp.partition, describe(exc))
                continue
            if position > high:
                await self._reset(tp, position, high)
                continue
            # Pages fetched but not yet cleaned are still waiting, whatever the fetch position says.
            self.metrics.consumer_lag.labels(str(tp.partition)).set(high - position + len(state.backlog))
            self._lagged.add(tp.partition)

    async def _reset(self, tp: TopicPartition, position: int, high: int) -> None:
        """A position past the high watermark: the log was truncated or lost (a broker that lost its
        data, an unclean leader election). Nothing would ever be fetched again; reset per
        auto_offset_reset. (Kafka itself answers OffsetOutOfRange and aiokafka resets on its own; Tansu
        answers an empty fetch, so the worker checks.)"""
        where = self.settings.auto_offset_reset
        log.warning("partition %s: position %s is beyond the log end %s; resetting to the %s offset",
                    tp.partition, position, high, where)  # fmt: skip
        self.metrics.offset_resets.inc()
        if where == "latest":
            self.consumer.seek(tp, high)  # not seek_to_end: Tansu's ListOffsets LATEST is wrong
        else:
            await self.consumer.seek_to_beginning(tp)


def _snapshot_acked(future: asyncio.Future[Any]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a changelog snapshot was not acked: %s", type(future.exception()).__name__)


def _bounded(timeout_s: float, deadline: float | None) -> float:
    return timeout_s if deadline is None else max(0.05, min(timeout_s, deadline - time.monotonic()))
