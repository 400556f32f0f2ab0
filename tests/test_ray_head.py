"""The ``thirteen`` command on a real Ray cluster joined by its address: a head started by
``ray start --head`` on 127.0.0.1 (no mock). ``simulate --ray ADDRESS`` prints the summary
of the local run with the same seed, ``train --ray ADDRESS`` writes the same file. Skipped
only where Ray cannot be imported."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import pytest

NO_RAY = "Ray cannot be imported here (pip install 'thirteen[ray]')"


def _without_seconds(summary: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(summary)
    assert out.pop("seconds") >= 0
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, Any]]:
    """``ray start --head`` on 127.0.0.1 with 2 CPUs and token authentication (a fresh token
    in the environment of the head and of the commands that join it); stopped after."""
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
        yield {"address": f"127.0.0.1:{port}", "env": env}
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


def _thirteen(*args: str, env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "thirteen", *args], capture_output=True, text=True,
                          timeout=600, env=env)


def test_simulate_command_on_a_ray_head_prints_the_local_summary(ray_head: Dict[str, Any]) -> None:
    args = ["simulate", "-n", "40", "--seed", "7", "--strategies", "ev,greedy", "--players", "2",
            "--rules", "shisanzhang", "--rake", "5,50", "--stake", "10"]
    local = _thirteen(*args, "--json")
    remote = _thirteen(*args, "--json", "--ray", ray_head["address"], env=ray_head["env"])
    assert local.returncode == 0, local.stderr
    assert remote.returncode == 0, remote.stderr
    assert _without_seconds(json.loads(local.stdout)) == _without_seconds(json.loads(remote.stdout))
    # The tables shown are the same too; only the last line (time, where) differs.
    text_local = _thirteen(*args).stdout.splitlines()
    text_remote = _thirteen(*args, "--ray", ray_head["address"], env=ray_head["env"]).stdout.splitlines()
    assert text_local[:-1] == text_remote[:-1] and "40 rounds of shisanzhang" in text_local[0]
    assert "on the Ray cluster at 127.0.0.1:" in text_remote[-1]


def test_train_command_on_a_ray_head_writes_the_same_file(ray_head: Dict[str, Any], tmp_path: Path) -> None:
    args = ["train", "--rules", "western-2-4", "--players", "2", "--deals", "300", "--iterations", "2",
            "--tolerance", "0", "--seed", "3", "--quiet"]
    local = _thirteen(*args, "--out", str(tmp_path / "local.json.gz"))
    remote = _thirteen(*args, "--out", str(tmp_path / "ray.json.gz"), "--ray", ray_head["address"],
                       env=ray_head["env"])
    assert local.returncode == 0, local.stderr
    assert remote.returncode == 0, remote.stderr
    assert (tmp_path / "local.json.gz").read_bytes() == (tmp_path / "ray.json.gz").read_bytes()


def test_a_wrong_token_is_a_clear_error(ray_head: Dict[str, Any]) -> None:
    env = {**ray_head["env"], "RAY_AUTH_TOKEN": "0" * 64}
    r = _thirteen("simulate", "-n", "2", "--ray", ray_head["address"], env=env)
    assert r.returncode == 2
    assert "cannot connect to a Ray cluster at 127.0.0.1:" in r.stderr and "Traceback" not in r.stderr


