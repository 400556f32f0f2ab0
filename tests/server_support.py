"""Helpers of the server tests: ``thirteen serve`` as a real subprocess on 127.0.0.1 and a
real SQLite file, and plays computed for a hand."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("sqlalchemy")
pytest.importorskip("msgspec")

import thirteen  # noqa: E402

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[shcd](?![A-Za-z0-9])", re.I)


class Server:
    """A running ``thirteen serve`` subprocess: ``url`` (http), ``ws`` (the socket URL),
    ``db`` (its SQLAlchemy URL), ``path`` (the SQLite file)."""

    def __init__(self, path: Path, args: List[str]) -> None:
        self.path = path
        self.db = f"sqlite:///{path}"
        self.args = args
        self.proc: Optional[subprocess.Popen] = None
        self.port = 0
        self.output: List[str] = []

    def start(self, port: int = 0) -> "Server":
        cmd = [
            sys.executable,
            "-c",
            "import sys; from thirteen.cli import main; sys.exit(main(sys.argv[1:]))",
            "serve",
            "--port",
            str(port),
            "--db",
            self.db,
            *self.args,
        ]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server exited: {self.proc.wait()}")
            if line.startswith("{"):
                self.port = json.loads(line)["port"]
                break
        else:
            raise RuntimeError("the server did not start")
        threading.Thread(target=self._drain, daemon=True).start()
        self._wait_ready()
        return self

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    def _wait_ready(self) -> None:
        import urllib.request

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not answer /health")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()


def serve(tmp_path: Path, *args: str, name: str = "server.db") -> Server:
    """Starts a server on a fresh SQLite file in ``tmp_path``."""
    return Server(tmp_path / name, list(args)).start()


def lanes(sub: Any) -> Dict[str, str]:
    """The action fields of an arrangement."""
    return {
        "front": thirteen.format_cards(list(sub.front)),
        "middle": thirteen.format_cards(list(sub.middle)),
        "back": thirteen.format_cards(list(sub.back)),
    }


def best_action(hand: str, rules: thirteen.RuleSet, players: int) -> Dict[str, Any]:
    """The engine's play for a hand as a ``submit`` or ``declare`` action."""
    sol = thirteen.solve(hand, rules, players=players)
    if sol.arrangement is None:
        return {"type": "declare", "special": sol.special.key}
    return {"type": "submit", **lanes(sol.arrangement)}


def cards_in(value: Any) -> set:
    """Every card token in any string inside a frame (canonical text)."""
    out: set = set()
    if isinstance(value, str):
        for token in CARD.findall(value):
            out.add(str(thirteen.Card(token)))
    elif isinstance(value, dict):
        for v in value.values():
            out |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_in(v)
    return out
