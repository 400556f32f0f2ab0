"""A real Ray head for the tests (no mock): ``ray start --head`` on 127.0.0.1, started and
stopped by the test that uses it."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

NO_RAY = "Ray cannot be imported here (pip install 'thirteen[ray]')"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def ray_head_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, Any]]:
    """``ray start --head`` on 127.0.0.1 with 2 CPUs and token authentication (a fresh token
    in the environment of the head and of the commands that join it), in a session of its
    own (``pid`` leads it); stopped after."""
    pytest.importorskip("ray", reason=NO_RAY)
    port = _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    log_path = tmp_path_factory.mktemp("ray-head") / "head.log"
    ray_cmd = str(Path(sys.executable).with_name("ray"))
    with open(log_path, "w") as log:
        head = subprocess.Popen(
            [ray_cmd, "start", "--head", "--block", f"--port={port}", "--node-ip-address=127.0.0.1",
             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log_path.read_text():
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start --head did not start:\n{log_path.read_text()[-3000:]}")
            time.sleep(0.3)
        yield {"address": f"127.0.0.1:{port}", "env": env, "pid": head.pid}
    finally:
        head.terminate()  # ray start --block stops the processes it started
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            head.kill()
        try:
            os.killpg(head.pid, signal.SIGKILL)  # anything of its own session left over
        except ProcessLookupError:
            pass
