"""The load test of ``benches/load_server.py``, sized for CI: bots on tables over real
loopback sockets for a few seconds; every message answered, no error, rounds settled."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from server_support import serve  # noqa: F401  (skips without the server extra)

BENCH = Path(__file__).resolve().parents[1] / "benches" / "load_server.py"


def test_load_small():
    out = subprocess.run(
        [sys.executable, str(BENCH), "--bots", "16", "--tables", "4", "--seconds", "6", "--json"],
        capture_output=True, text=True, timeout=300,
    )
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["errors"] == 0, report["error_samples"]
    assert report["seated"] == 16
    assert report["rounds"] >= 4  # every table settled at least one round
    assert report["messages"] > 0 and report["latency_ms"]["p99"] > 0
    assert out.returncode == 0
