"""The wire between the worker and its cleaning processes: length-prefixed pickled tuples over pipes.

Each frame is a 4-byte big-endian length and a pickle of one message, a tuple whose first item names
it. The worker sends requests; a cleaning process answers every request with exactly one reply, in
order, so the worker matches replies to requests by position (see worker/stream/pool.py).

    request                                      reply
    (INIT, settings, log_level)                  (READY, pid)                      once, first
    (PAGE, partition, record, size) + value      (DONE, output, seconds, snapshots, memory)
    (ADOPT, partition, snapshots, budget_mb)     (ADOPTED, partition, loaded, invalid)
    (RELEASE, partition)                         (RELEASED, partition, snapshots)
    (BUDGET, budget_mb)                          (BUDGET,)

record = (topic, partition, offset, timestamp, key, value, headers); output = (topic, key, value,
headers, outcome, reason, method); snapshots = [(site, bytes or None)]; memory = (bytes, sites).

A PAGE frame carries its record without the value (None in its place) and the value's size (-1 for
None); the value's raw bytes follow the frame. A page is ~100 KB and its value is all but a few
hundred bytes of it: pickling it into the frame copied it twice more in the worker and once more here
(`encode_page`, `with_value`).

Replies hold only builtins (tuples, lists, str, bytes, numbers, None), and the worker unpickles them
with a loader that refuses every global: a cleaning process parses hostile pages, so what it sends
back is data, never code. Requests come from the worker and are trusted by the children.
"""

from __future__ import annotations

import io
import os
import pickle
import struct
from typing import Any

INIT, READY = "init", "ready"
PAGE, DONE = "page", "done"
ADOPT, ADOPTED = "adopt", "adopted"
RELEASE, RELEASED = "release", "released"
BUDGET = "budget"

LENGTH = struct.Struct(">I")
# Largest frame accepted: a page is at most max_bytes * 1.4 + envelope (see worker/messages.py) and a
# document at most max_request_size; 1 GiB is far above both and far below a corrupt length.
MAX_FRAME = 1 << 30
PROTOCOL = 5


class FrameError(Exception):
    """The other side sent something that is not a frame of this protocol."""


def encode(message: tuple[Any, ...]) -> bytes:
    body = pickle.dumps(message, protocol=PROTOCOL)
    return LENGTH.pack(len(body)) + body


def encode_page(partition: int, record: tuple[Any, ...]) -> tuple[bytes, bytes]:
    """A PAGE request as (frame, value): written one after the other, the value as it is."""
    value = record[5]
    size = -1 if value is None else len(value)
    frame = encode((PAGE, partition, (*record[:5], None, *record[6:]), size))
    return frame, value or b""


def with_value(request: tuple[Any, ...], value: bytes) -> tuple[Any, ...]:
    """A PAGE request as the cleaner handles it: (PAGE, partition, record), the value back in place."""
    _, partition, record, size = request
    return (PAGE, partition, (*record[:5], None if size < 0 else value, *record[6:]))


def frame_length(header: bytes | bytearray, offset: int = 0) -> int:
    """The body size a frame announces in the LENGTH.size bytes at `offset`."""
    (size,) = LENGTH.unpack_from(header, offset)
    if size > MAX_FRAME:
        raise FrameError(f"frame of {size} bytes announced")
    return int(size)


class _DataOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise FrameError(f"reply names a global ({module}.{name}); only plain data is accepted")


def decode_reply(body: bytes) -> tuple[Any, ...]:
    """A cleaning process's reply, refusing anything but builtin data."""
    try:
        message = _DataOnly(io.BytesIO(body)).load()
    except FrameError:
        raise
    except Exception as exc:
        raise FrameError(f"undecodable reply: {type(exc).__name__}") from None
    if not isinstance(message, tuple) or not message or not isinstance(message[0], str):
        raise FrameError("a reply is a tuple that starts with its name")
    return message


def decode_request(body: bytes) -> tuple[Any, ...]:
    message = pickle.loads(body)
    if not isinstance(message, tuple) or not message:
        raise FrameError("a request is a non-empty tuple")
    return message


# --- blocking side (the cleaning process) ------------------------------------------------------


def read_frame(fd: int) -> bytes | None:
    """One frame's body from a blocking file descriptor; None at end of file (the worker is gone)."""
    header = _read_exactly(fd, LENGTH.size)
    if header is None:
        return None
    body = _read_exactly(fd, frame_length(header))
    if body is None:
        raise FrameError("end of file inside a frame")
    return body


def read_request(fd: int) -> tuple[Any, ...] | None:
    """The next request from a blocking file descriptor, a PAGE's value included; None at end of file."""
    body = read_frame(fd)
    if body is None:
        return None
    request = decode_request(body)
    if request[0] == PAGE:
        size = request[3]
        if not isinstance(size, int) or size > MAX_FRAME:
            raise FrameError(f"page of {size!r} bytes announced")
        value = _read_exactly(fd, max(0, size))
        if value is None:
            raise FrameError("end of file inside a page")
        request = with_value(request, value)
    return request


def _read_exactly(fd: int, size: int) -> bytes | None:
    if size == 0:
        return b""
    chunks = []
    left = size
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def write_frame(fd: int, message: tuple[Any, ...]) -> None:
    data = memoryview(encode(message))
    while data:
        written = os.write(fd, data)
        data = data[written:]
