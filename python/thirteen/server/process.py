"""``thirteen serve`` run as a real subprocess: the crash, browser and load tests start
and kill servers with this."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable, Dict, List, Optional, Union

__all__ = ["ServerProcess"]


class ServerProcess:
    """``thirteen serve`` as a subprocess on 127.0.0.1 (for tests and load tests): ``url``
    (http), ``ws`` (the socket URL), ``db`` (its SQLAlchemy URL), ``output`` (what it
    printed).

    Args:
        db: an SQLite file, or any SQLAlchemy URL (text).
        args: more ``thirteen serve`` arguments.
        files: when given, the process's file-descriptor limit (soft and hard).
        env: more environment variables of the process (e.g. ``PYTHONPATH``).
    """

    def __init__(
        self,
        db: Union[Path, str],
        args: List[str],
        *,
        files: Optional[int] = None,
        env: Optional[Dict[str, str]] = None,
    ) -> None:
        self.db = f"sqlite:///{db}" if isinstance(db, Path) else db
        self.args = args
        self.files = files
        self.env = dict(env or {})
        self.proc: Optional[subprocess.Popen[str]] = None
        self.port = 0
        self.output: List[str] = []

    def start(self, port: int = 0) -> "ServerProcess":
        """Starts it (``port`` 0: a free one) and waits until ``/health`` answers."""
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
        env = dict(os.environ, PYTHONUNBUFFERED="1", **self.env)
        limit: Optional[Callable[[], None]] = None
        if self.files is not None:
            files = self.files

            def limit() -> None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, preexec_fn=limit
        )
        deadline = time.monotonic() + 60
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server exited: {self.proc.wait()}: {''.join(self.output)}")
            self.output.append(line)
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
        """SIGTERM (then SIGKILL after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
