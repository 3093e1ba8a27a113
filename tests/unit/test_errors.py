"""One error taxonomy: the Reason enum is the dead-letter schema's list, and route() is the one rulebook."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import get_args

import pytest
from aiokafka.errors import (
    AuthenticationFailedError,
    CommitFailedError,
    IllegalStateError,
    KafkaConnectionError,
    KafkaTimeoutError,
    MessageSizeTooLargeError,
    NotLeaderForPartitionError,
    UnknownMemberIdError,
)

from worker.messages import load_schema
from worker.models import ErrorReason, Reason
from worker.stream.errors import (
    PAGE_ATTEMPTS,
    Action,
    CleanerDied,
    PageDeadlineExceeded,
    Route,
    describe,
    route,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_reason_enum_is_the_dead_letter_schema_list_both_ways() -> None:
    schema_reasons = set(load_schema("dead_letter")["properties"]["reason"]["enum"])
    assert {r.value for r in Reason} == schema_reasons
    # the repository's schemas/ is the same file the package ships
    top = json.loads((ROOT / "schemas" / "dead_letter.json").read_text())
    assert set(top["properties"]["reason"]["enum"]) == schema_reasons


def test_every_document_error_is_a_reason() -> None:
    assert set(get_args(ErrorReason)) <= {r.value for r in Reason}


def test_every_rejection_written_in_the_code_names_a_reason() -> None:
    """Rejection("...") literals anywhere in worker/: a new reason must be added to the enum (and
    so to the schema) before a dead letter can carry it."""
    found = set()
    for path in (ROOT / "worker").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "Rejection"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add((path.name, node.args[0].value))
    assert found, "the scan found no Rejection calls: it is looking in the wrong place"
    unknown = {(f, r) for f, r in found if r not in {x.value for x in Reason}}
    assert not unknown


@pytest.mark.parametrize(
    ("exc", "where", "expected"),
    [
        # pages: a failure costs that page only
        (PageDeadlineExceeded(), "page", Route(Action.DEAD_LETTER, Reason.TIMEOUT)),
        (CleanerDied(-11, 1), "page", Route(Action.RETRY)),
        (CleanerDied(-11, PAGE_ATTEMPTS), "page", Route(Action.DEAD_LETTER, Reason.INTERNAL_ERROR)),
        (IndexError("list index out of range"), "page", Route(Action.DEAD_LETTER, Reason.INTERNAL_ERROR)),
        (MemoryError(), "page", Route(Action.DEAD_LETTER, Reason.INTERNAL_ERROR)),
        # reaching the broker: transient trouble is retried, the rest is fatal
        (KafkaConnectionError("no route"), "connect", Route(Action.RETRY)),
        (KafkaTimeoutError(), "connect", Route(Action.RETRY)),
        (ConnectionRefusedError(), "connect", Route(Action.RETRY)),
        (TimeoutError(), "connect", Route(Action.RETRY)),
        (AuthenticationFailedError(), "connect", Route(Action.CRASH)),
        (ValueError("bad config"), "connect", Route(Action.CRASH)),
        # commits: a group in flux is retried at the next interval; our own bugs are not
        (CommitFailedError("rebalanced"), "commit", Route(Action.RETRY)),
        (UnknownMemberIdError(), "commit", Route(Action.RETRY)),
        (IllegalStateError("no assignment"), "commit", Route(Action.RETRY)),
        (TimeoutError(), "commit", Route(Action.RETRY)),
        (TypeError("bug"), "commit", Route(Action.CRASH)),
        # outputs: never re-sent out of order; a restart redelivers from the last commit
        (NotLeaderForPartitionError(), "produce", Route(Action.CRASH)),
        (MessageSizeTooLargeError(), "produce", Route(Action.CRASH)),
        # restore: start without the snapshots (the sites are re-learned)
        (TimeoutError(), "restore", Route(Action.RETRY)),
        (KafkaConnectionError(), "restore", Route(Action.RETRY)),
        (KeyError("bug"), "restore", Route(Action.CRASH)),
    ],
)
def test_route(exc: Exception, where: str, expected: Route) -> None:
    assert route(exc, where) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("where", ["page", "connect", "commit", "produce", "restore"])
def test_interrupts_are_never_swallowed(where: str) -> None:
    assert route(KeyboardInterrupt(), where).action is Action.CRASH  # type: ignore[arg-type]
    assert route(SystemExit(1), where).action is Action.CRASH  # type: ignore[arg-type]


def test_describe_names_type_and_place_but_never_the_message() -> None:
    try:
        raise ValueError("<html>secret page text</html>")
    except ValueError as exc:
        text = describe(exc)
    assert text.startswith("ValueError at ")
    assert "test_errors.py:" in text
    assert "secret" not in text
    assert describe(KeyError("x")) == "KeyError"  # never raised: no place to name
