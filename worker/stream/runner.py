"""The streaming worker: consume pages, clean them, produce documents or dead letters, commit.

Guarantees (at-least-once): every input record yields exactly one output (a document, or a dead
letter with a reason); an input offset is committed only after the output of it and of every earlier
offset in its partition was acked by the broker. A crash therefore re-processes, never loses.

Cleaning is CPU work on the event loop. Each page is bounded by CleanOptions (bytes, nodes, time
budget) and the loop yields between pages, so heartbeats and the health server keep running.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, ConsumerRebalanceListener, TopicPartition
from aiokafka.errors import KafkaConnectionError, KafkaError

from worker.gc_policy import tune_gc
from worker.http import Health
from worker.messages import Rejection
from worker.metrics import Metrics
from worker.settings import Settings
from worker.stream.config import consumer_config, producer_config
from worker.stream.handle import Output, dead_output, handle_record
from worker.stream.state import NoHooks, PartitionHooks, PartitionState, Pending

log = logging.getLogger(__name__)

GETMANY_TIMEOUT_MS = 200  # how quickly an idle loop notices a stop request
LAG_REFRESH_S = 1.0
# Pages are cleaned back to back for up to this long, then the loop runs (heartbeats, acks, probes,
# the producer's sender, the fetcher). Each yield lets both clients send a request, and the broker's
# CPU follows the request count: per 1000 pages, yielding every 5/20/50 ms gave ~235/~85/~45 requests,
# 1.1/0.55/0.34 broker CPU-s and 0.51/0.39/0.37 worker CPU-s besides cleaning (measured in-process;
# yielding after every page: ~200 requests, 1.0 broker CPU-s, 0.5 worker CPU-s). Longer slices delay
# fetches and outputs under load: 50 ms raised the bench's p50 latency by ~50 ms, 20 ms did not.
YIELD_EVERY_S = 0.02
# Loop iterations per yield: a new batch reaches the socket in three (waiter future -> sender task ->
# produce-request task), and so does the fetcher's next request, so one iteration would leave them
# waiting for the next slice.
YIELD_ROUNDS = 3

HooksFactory = Callable[["Worker"], PartitionHooks]


class _Listener(ConsumerRebalanceListener):  # type: ignore[misc]
    def __init__(self, worker: Worker) -> None:
        self._worker = worker

    async def on_partitions_revoked(self, revoked: Sequence[TopicPartition]) -> None:
        await self._worker.release(revoked)

    async def on_partitions_assigned(self, assigned: Sequence[TopicPartition]) -> None:
        await self._worker.adopt(assigned)


class Worker:
    """One consumer-group member. Use `await Worker(...).run()`; `request_stop()` drains and exits."""

    def __init__(
        self,
        settings: Settings,
        metrics: Metrics,
        health: Health | None = None,
        hooks_factory: HooksFactory | None = None,
    ) -> None:
        self.settings = settings
        self.metrics = metrics
        self.health = health or Health()
        self.options = settings.clean_options()
        self.states: dict[TopicPartition, PartitionState] = {}
        self._held: set[TopicPartition] = set()  # assigned, paused until the hooks have restored them
        self.consumer = AIOKafkaConsumer(**consumer_config(settings))
        self.producer = AIOKafkaProducer(**producer_config(settings))
        self.hooks: PartitionHooks = hooks_factory(self) if hooks_factory else NoHooks()
        self.failure: str | None = None
        self._stop = asyncio.Event()
        self._stop_at: float | None = None
        self._room = asyncio.Event()
        self._inflight = 0
        self._low_water = max(0, settings.max_inflight // 2)
        self._last_commit = 0.0
        self._last_lag = 0.0
        # Labelled children bound once: a labels() lookup per page is a lock and a dict walk.
        self._outcome_pages = {o: metrics.pages.labels(o) for o in ("document", "dead_letter")}
        self._by_reason: dict[str, Any] = {}
        self._by_method: dict[str, Any] = {}
        # Read at scrape time instead of being set twice per page.
        metrics.inflight.set_function(lambda: self._inflight)

    # --- lifecycle -------------------------------------------------------------------------------

    def request_stop(self) -> None:
        if not self._stop.is_set():
            log.info("stop requested: finishing in-flight pages (grace %.1fs)", self.settings.drain_grace_s)
            self._stop_at = time.monotonic()
            self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    async def run(self) -> int:
        """Consume until stopped; returns the process exit code (0 = drained cleanly)."""
        tune_gc()
        try:
            await self.producer.start()
            self.health.producer_connected = True
            self.consumer.subscribe([self.settings.input_topic], listener=_Listener(self))
            await self.consumer.start()
            log.info("consuming %s as group %s", self.settings.input_topic, self.settings.group_id)
            await self._consume()
        except KafkaConnectionError as exc:
            log.error("cannot reach the brokers %s: %s", self.settings.bootstrap_servers, exc)
            self._fail(f"{type(exc).__name__}: {exc}")
        except Exception as exc:
            log.exception("worker failed")
            self._fail(f"{type(exc).__name__}: {exc}")
        return await self._shutdown()

    def _fail(self, why: str) -> None:
        if self.failure is None:
            self.failure = why
            self.health.failed = why
        self.request_stop()

    async def _shutdown(self) -> int:
        started = self._stop_at if self._stop_at is not None else time.monotonic()
        deadline = started + self.settings.drain_grace_s
        clean = True
        try:
            await asyncio.wait_for(self._drain(), timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            clean = False
            log.error("drain did not finish within %.1fs; uncommitted pages will be re-processed",
                      self.settings.drain_grace_s)  # fmt: skip
        except Exception:
            clean = False
            log.exception("drain failed; uncommitted pages will be re-processed")
        for name, client in (("consumer", self.consumer), ("producer", self.producer)):
            try:
                await asyncio.wait_for(client.stop(), timeout=max(0.5, deadline - time.monotonic()))
            except Exception:
                clean = False
                log.exception("stopping the %s failed", name)
        self.health.producer_connected = False
        self.health.assigned = 0
        ok = clean and self.failure is None
        log.info("worker stopped (%s)", "drained" if ok else f"unclean: {self.failure or 'drain incomplete'}")
        return 0 if ok else 1

    async def _drain(self) -> None:
        if self.consumer.assignment():
            self.consumer.pause(*self.consumer.assignment())
        await self.release(list(self.states))

    # --- rebalance -------------------------------------------------------------------------------

    async def adopt(self, assigned: Sequence[TopicPartition]) -> None:
        new = []
        for tp in assigned:
            if tp not in self.states:
                state = PartitionState(tp.topic, tp.partition)
                self.states[tp] = state
                new.append(state)
        self.metrics.rebalances.inc()
        if new:
            # The fetcher keeps running while the hooks await (a restore reads a whole changelog
            # partition): hold the new partitions back, paused before the first await, so no page of
            # theirs is cleaned before their state is complete.
            held = [TopicPartition(s.topic, s.partition) for s in new]
            self._held.update(held)
            self.consumer.pause(*held)
            try:
                await self.hooks.on_assign(new)
            finally:
                self._held.difference_update(held)
                owned = self.consumer.assignment()
                self.consumer.resume(*[tp for tp in held if tp in owned])
        self._set_assigned()
        log.info("assigned %s", sorted(tp.partition for tp in assigned))

    async def release(self, revoked: Sequence[TopicPartition]) -> None:
        """Flush outputs of `revoked`, commit what was acked, hand their state to the hooks, drop it."""
        states = [self.states[tp] for tp in revoked if tp in self.states]
        if not states:
            return
        for state in states:
            state.closed = True
        try:
            await self.producer.flush()
        except KafkaError:
            log.exception("flush failed while releasing partitions")
        await self._commit(states)
        try:
            await self.hooks.on_revoke(states)
        finally:
            for state in states:
                self.states.pop(TopicPartition(state.topic, state.partition), None)
                if state.extra.get("_lag_labelled"):
                    self.metrics.consumer_lag.remove(str(state.partition))
            self._set_assigned()
            log.info("released %s", sorted(s.partition for s in states))

    def _set_assigned(self) -> None:
        self.health.assigned = len(self.states)
        self.metrics.assigned_partitions.set(len(self.states))

    # --- main loop -------------------------------------------------------------------------------

    async def _consume(self) -> None:
        while not self._stop.is_set():
            await self._wait_for_room()
            if self._stop.is_set():
                break
            batch = await self.consumer.getmany(
                timeout_ms=GETMANY_TIMEOUT_MS, max_records=self.settings.max_poll_records
            )
            if batch:
                # Let the fetcher send its next request before cleaning starts, so fetching overlaps
                # cleaning; otherwise each batch ends in a full fetch round trip with the loop idle
                # (bench p50 latency at half load went from ~60 ms to 90-290 ms without this).
                await self._yield()
            slice_start = time.perf_counter()
            for tp, records in batch.items():
                # One state per fetched batch: if the partition is revoked (and maybe re-assigned)
                # meanwhile, this state is closed and the rest of the batch is left to the next owner.
                state = self.states.get(tp)
                for record in records:
                    if state is None or state.closed or self._stop.is_set():
                        break  # not processed, so never committed: the partition's next owner redoes it
                    await self._process(state, record)
                    now = time.perf_counter()
                    if now - slice_start >= YIELD_EVERY_S or self._inflight >= self.settings.max_inflight:
                        await self._yield()
                        if self._inflight >= self.settings.max_inflight:
                            await self._wait_for_room()
                        slice_start = time.perf_counter()
            now = time.monotonic()
            if now - self._last_commit >= self.settings.commit_interval_ms / 1000.0:
                self._last_commit = now
                await self._commit(list(self.states.values()))
            if now - self._last_lag >= LAG_REFRESH_S:
                self._last_lag = now
                await self._update_lag()

    @staticmethod
    async def _yield() -> None:
        for _ in range(YIELD_ROUNDS):
            await asyncio.sleep(0)

    async def _process(self, state: PartitionState, record: Any) -> None:
        self.metrics.input_bytes.inc(len(record.value or b""))
        started = time.perf_counter()
        try:
            memory = None if self.settings.no_templates else state.memory
            output, document = handle_record(record, self.settings, self.options, memory)
        except Exception as exc:
            # A codec or pipeline bug costs one page (dead-lettered), never the partition.
            log.exception("handling %s:%s:%s failed", record.topic, record.partition, record.offset)
            why = Rejection(
                "internal_error", f"{type(exc).__name__}: {exc}"[:300], "extract", type(exc).__name__
            )
            output, document = dead_output(record, why, self.settings), None
        self.metrics.page_seconds.observe(time.perf_counter() - started)
        entry = state.tracker.track(record.offset)
        try:
            future = await self.producer.send(
                output.topic, output.value, key=output.key, headers=output.headers
            )
        except KafkaError as exc:
            self._fail(f"producing to {output.topic} failed: {type(exc).__name__}: {exc}")
            return
        self._inflight += 1
        future.add_done_callback(lambda f: self._on_ack(f, state, entry, output))
        await self.hooks.after_page(state, document)

    def _on_ack(
        self, future: asyncio.Future[Any], state: PartitionState, entry: Pending, output: Output
    ) -> None:
        self._inflight -= 1
        if self._inflight <= self._low_water:
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

    async def _wait_for_room(self) -> None:
        """Backpressure: stop fetching while too many outputs await acks; resume at half."""
        if self._inflight < self.settings.max_inflight:
            return
        assigned = self.consumer.assignment()
        self.consumer.pause(*assigned)
        self.metrics.backpressure_pauses.inc()
        self.metrics.paused_partitions.set(len(assigned))
        self._room.clear()
        while self._inflight > self._low_water and self.failure is None and not self._stop.is_set():
            try:
                await asyncio.wait_for(self._room.wait(), timeout=1.0)
            except TimeoutError:
                continue
            self._room.clear()
        if not self._stop.is_set():
            self.consumer.resume(*(self.consumer.assignment() - self._held))
        self.metrics.paused_partitions.set(0)

    async def _commit(self, states: Sequence[PartitionState]) -> None:
        offsets = {}
        for state in states:
            mark = state.to_commit()
            if mark is not None:
                offsets[TopicPartition(state.topic, state.partition)] = mark
        owned = self.consumer.assignment()
        offsets = {tp: mark for tp, mark in offsets.items() if tp in owned}
        if not offsets:
            return
        try:
            await self.consumer.commit(offsets)
        except KafkaError as exc:
            # A rebalance is under way; the revoke handler commits again with the new generation's rules.
            log.warning("commit failed (%s); will retry", exc)
            return
        for state in states:
            tp = TopicPartition(state.topic, state.partition)
            if tp in offsets:
                state.committed = offsets[tp]
        self.metrics.commits.inc()

    async def _update_lag(self) -> None:
        for tp, state in list(self.states.items()):
            high = self.consumer.highwater(tp)
            if high is None:
                continue
            try:
                position = await asyncio.wait_for(self.consumer.position(tp), timeout=0.5)
            except (TimeoutError, KafkaError, AssertionError, KeyError):
                continue
            self.metrics.consumer_lag.labels(str(tp.partition)).set(max(0, high - position))
            state.extra["_lag_labelled"] = True
