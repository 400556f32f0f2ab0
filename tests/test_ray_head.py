"""The ``thirteen`` command on a real Ray cluster joined by its address: a head started by
``ray start --head`` on 127.0.0.1 (no mock). ``simulate --ray ADDRESS`` prints the summary
of the local run with the same seed, ``train --ray ADDRESS`` writes the same file. Skipped
only where Ray cannot be imported."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest
from ray_support import ray_head_process


def _without_seconds(summary: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(summary)
    assert out.pop("seconds") >= 0
    return out


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dict[str, Any]]:
    """A head (:func:`ray_support.ray_head_process`) for the module."""
    with ray_head_process(tmp_path_factory) as head:
        yield head


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




# --- faults: a worker killed, the head lost --------------------------------------------------


def _session_processes(leader: int, pattern: str) -> List[int]:
    """The processes of the session ``leader`` leads (a head started here with
    ``start_new_session``: never another user's Ray) whose command line matches ``pattern``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        session = int(stat.rpartition(")")[2].split()[3])  # fields after the name: state ppid pgrp session
        if session == leader and re.search(pattern, cmdline):
            found.append(int(entry.name))
    return found


def _wait_running(proc: "subprocess.Popen[str]", leader: int, pattern: str) -> int:
    """Waits until a process of the session ``leader`` matching ``pattern`` runs while
    ``proc`` does; its pid."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        found = _session_processes(leader, pattern)
        if found:
            return found[0]
        time.sleep(0.1)
    pytest.fail(f"no process {pattern!r} ran while the command did")


#: A Ray worker running a task (its process title is ``ray::`` and the task's name), not idle.
TASK = r"^ray::(?!IDLE|DashboardAgent|RuntimeEnvAgent)"

#: A run of about 5 s on 2 CPUs, in 40 shards: a worker is killed while one of them runs.
FAULT_RUN = ["simulate", "-n", "1000", "--seed", "9", "--strategies", "mc,greedy,greedy,greedy", "--samples", "40",
             "--shard-rounds", "25", "--rake", "5", "--json"]


def test_a_killed_worker_is_retried_and_stdout_stays_json(ray_head: Dict[str, Any]) -> None:
    """``kill -9`` of the Ray worker playing a shard: Ray retries the shard, the summary is the
    local run's, and standard output is the JSON document alone (the raylet's message about
    the dead worker goes to standard error)."""
    proc = subprocess.Popen([sys.executable, "-m", "thirteen", *FAULT_RUN, "--ray", ray_head["address"]],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ray_head["env"])
    os.kill(_wait_running(proc, ray_head["pid"], TASK), signal.SIGKILL)
    assert proc.poll() is None  # killed mid-run
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    local = _thirteen(*FAULT_RUN)
    assert local.returncode == 0, local.stderr
    assert _without_seconds(json.loads(out)) == _without_seconds(json.loads(local.stdout))


def test_a_lost_head_is_a_clear_error(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The head's raylet killed mid-run (``ray start --block`` then stops the head's other
    processes): ``thirteen: error: ...``, exit code 2, nothing on standard output, within
    seconds (Ray alone waited a minute, then ended the command with exit code 1 and a dump)."""
    with ray_head_process(tmp_path_factory) as head:
        proc = subprocess.Popen([sys.executable, "-m", "thirteen", *FAULT_RUN, "--ray", head["address"]],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=head["env"])
        _wait_running(proc, head["pid"], TASK)  # the run is under way
        os.kill(_wait_running(proc, head["pid"], "/raylet/raylet "), signal.SIGKILL)
        killed = time.monotonic()
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 2, err
    assert out == ""
    assert "thirteen: error: lost the Ray cluster's head at " in err and "Traceback" not in err
    assert time.monotonic() - killed < 30
