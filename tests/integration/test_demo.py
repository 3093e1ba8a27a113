"""`python -m worker demo --once` runs the whole pipeline on the sample site and exits cleanly."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.broker

ROOT = Path(__file__).resolve().parents[2]


def test_demo_once_prints_documents(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLEANSTREAM_")}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "worker", "demo", "--once", "--show", "2", "--log-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    # two documents shown, each with a title line and body text
    shown = [line for line in proc.stdout.splitlines() if line.startswith("== ")]
    assert len(shown) == 2, proc.stdout
    assert "Larkfield" in proc.stdout
    assert "[demo] done: 6 documents, 0 dead letters" in proc.stdout
    # the worker stopped without a traceback (a non-zero worker exit already fails the demo)
    assert "Traceback" not in (tmp_path / "worker.log").read_text()
    # and the broker is gone
    bootstrap = re.search(r"\[demo\] broker (\S+?),", proc.stderr)
    assert bootstrap is not None, proc.stderr
    host, port = bootstrap.group(1).rsplit(":", 1)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection((host, int(port)), timeout=1.0).close()
