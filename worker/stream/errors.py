"""One error taxonomy for the stream: what happens to each failure, decided by one pure function.

`route(exc, where)` says whether a failure costs one page (dead letter with a Reason), is tried again
(retry), or stops the worker (crash: exit 1, and the uncommitted pages are redelivered after the
restart). Every `except` of the runner and the cleaning pool asks it instead of deciding on the spot,
so the rules live in one table that a unit test walks.

No aiokafka import: cleaning processes load this module too, and a Kafka error can only exist where
aiokafka was imported already (see `_kafka_errors`).
"""

from __future__ import annotations

import sys
import traceback
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Literal

from worker.models import Reason

# Where a failure happened, which decides what it means.
#   page: cleaning one input page (in a cleaning process, or the pool's verdict on it)
#   connect: reaching the brokers (start-up, or the connectivity probe)
#   commit: committing input offsets
#   produce: sending an output (or its ack)
#   restore: reading a changelog partition
Where = Literal["page", "connect", "commit", "produce", "restore"]

# A page whose cleaning process dies without being killed by us is sent to a fresh process once more:
# the process may have died of something else (the OOM killer picks the biggest process). A page that
# kills two processes is dead-lettered.
PAGE_ATTEMPTS = 2
# Kafka errors aiokafka does not mark retriable that a group member outlives: the group moved on
# (rebalance, fencing) or a request timed out; the next commit or join sorts it out.
_GROUP_CHURN = (
    "CommitFailedError",
    "RebalanceInProgressError",
    "IllegalGenerationError",
    "UnknownMemberIdError",
    "KafkaTimeoutError",
    "NoBrokersAvailable",
)


class Action(Enum):
    DEAD_LETTER = "dead_letter"
    RETRY = "retry"
    CRASH = "crash"


@dataclass(frozen=True, slots=True)
class Route:
    action: Action
    reason: Reason | None = None  # set for DEAD_LETTER


class PageDeadlineExceeded(Exception):
    """A page ran past the hard wall-clock deadline; its cleaning process was killed."""


class CleanerDied(Exception):
    """A cleaning process exited without being asked to while it had this page."""

    def __init__(self, exit_code: int | None, attempts: int) -> None:
        super().__init__(f"cleaning process exited with {exit_code} (attempt {attempts})")
        self.exit_code = exit_code
        self.attempts = attempts


DEAD_TIMEOUT = Route(Action.DEAD_LETTER, Reason.TIMEOUT)
DEAD_INTERNAL = Route(Action.DEAD_LETTER, Reason.INTERNAL_ERROR)
RETRY = Route(Action.RETRY)
CRASH = Route(Action.CRASH)


def route(exc: BaseException, where: Where) -> Route:
    """What to do about `exc`, raised `where`. Pure."""
    if not isinstance(exc, Exception):
        return CRASH  # KeyboardInterrupt, SystemExit, cancellation: never swallowed
    if where == "page":
        if isinstance(exc, PageDeadlineExceeded):
            return DEAD_TIMEOUT
        if isinstance(exc, CleanerDied):
            return RETRY if exc.attempts < PAGE_ATTEMPTS else DEAD_INTERNAL
        # handle_record promises never to raise: whatever breaks that promise costs this page only
        return DEAD_INTERNAL
    if where == "produce":
        # An output that was not acked cannot be re-sent without reordering the partition's outputs;
        # a restart redelivers everything from the last commit instead.
        return CRASH
    kafka = _kafka_errors()
    is_kafka = kafka is not None and isinstance(exc, kafka.KafkaError)
    transient = isinstance(exc, TimeoutError | ConnectionError) or (
        is_kafka and (bool(getattr(exc, "retriable", False)) or type(exc).__name__ in _GROUP_CHURN)
    )
    if where in ("connect", "commit", "restore"):
        # A commit that fails is retried at the next interval (or by the revoke handler); a restore
        # that fails starts the partition with the sites it has.
        if transient or (where == "commit" and is_kafka):
            return RETRY
        return CRASH
    return CRASH


def _kafka_errors() -> ModuleType | None:
    """aiokafka.errors if it was imported (a Kafka error cannot exist otherwise)."""
    return sys.modules.get("aiokafka.errors")


def describe(exc: BaseException) -> str:
    """`TypeError at worker/clean/density.py:123`: a failure's type and place, never its message.

    Messages of exceptions raised on page content may quote the page (a parser's "unexpected '<...'"),
    and no page content goes into logs; the dead letter carries the page and the full detail.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return type(exc).__name__
    last = frames[-1]
    parts = Path(last.filename).parts
    short = "/".join(parts[parts.index("worker") :]) if "worker" in parts else parts[-1]
    return f"{type(exc).__name__} at {short}:{last.lineno}"
