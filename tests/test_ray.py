"""Simulation and training on a real Ray cluster on this machine (no mock): a Ray runtime
started in this process (``test_ray_head.py``: a head the command joins by address). A Ray
run gives the same summary and the same table bytes as the local run for the same seed.
Without Ray the error says how to install it.

The Ray tests are skipped only where Ray cannot be imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

import thirteen
from thirteen import RuleSet, _core
from thirteen.training import SHARD_DEALS

NO_RAY = "Ray cannot be imported here (pip install 'thirteen[ray]')"


@pytest.fixture(scope="module")
def ray_here() -> Iterator[Any]:
    """A Ray runtime of 2 CPUs started in this process for the module, stopped after."""
    ray = pytest.importorskip("ray", reason=NO_RAY)
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR",
             log_to_driver=False)
    yield ray
    ray.shutdown()


def _without_seconds(summary: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(summary)
    assert out.pop("seconds") >= 0
    return out


def test_simulate_on_ray_equals_the_local_run(ray_here: Any) -> None:
    rules = RuleSet.preset("kaixin")
    strategies = ["ev", "greedy", "mc", "greedy"]
    common: Dict[str, Any] = {"seed": 11, "samples": 16, "stake": 100, "rake": ("5", 200), "shard_rounds": 7}
    local = simulate_counted(rules, strategies, 30, workers=2, **common)
    # 30 rounds in shards of 7: five Ray tasks, one or two at a time (in flight or done
    # and waiting for the shards before them).
    one = simulate_counted(rules, strategies, 30, backend="ray", workers=1, **common)
    two = simulate_counted(rules, strategies, 30, backend="ray", workers=2, **common)
    assert local["advanced"] == one["advanced"] == two["advanced"] == 30
    assert _without_seconds(local["summary"]) == _without_seconds(one["summary"]) == _without_seconds(two["summary"])
    assert local["summary"]["rounds"] == 30


def simulate_counted(rules: RuleSet, strategies: List[str], rounds: int, **kwargs: Any) -> Dict[str, Any]:
    """``thirteen.simulate`` with the rounds its ``advance`` reported."""
    advanced: List[int] = []
    summary = thirteen.simulate(rules, len(strategies), strategies, rounds, advance=lambda: advanced.append(1),
                                **kwargs)
    return {"summary": summary, "advanced": len(advanced)}


def test_train_on_ray_gives_the_same_bytes(ray_here: Any, tmp_path: Path) -> None:
    rules = RuleSet.preset("western-2-4")
    # Three shards an iteration (250, 250, 100 deals); iteration 0 greedy, then ev.
    deals = 2 * SHARD_DEALS + 100
    log: List[Any] = []
    local = thirteen.train(rules, players=[2], deals=deals, iterations=3, tolerance=0, seed=5,
                           out=tmp_path / "local.json.gz")
    remote = thirteen.train(rules, players=[2], deals=deals, iterations=3, tolerance=0, seed=5,
                            backend="ray", out=tmp_path / "ray.json.gz",
                            progress=lambda *row: log.append(row))
    assert (tmp_path / "local.json.gz").read_bytes() == (tmp_path / "ray.json.gz").read_bytes()
    assert local.sizes == remote.sizes
    # Every hand of every deal counted once per iteration (western-2-4 declares no special).
    assert [row[2] for row in log] == [2 * deals] * 3


def test_ray_tasks_raise_the_engines_errors(ray_here: Any) -> None:
    from thirteen import cluster
    from thirteen.training import build_iteration, count_deals

    rules = RuleSet.preset("western-2-4")
    with cluster.session() as ray:
        # Tasks send their counts back packed: 3 and 2 deals of 2 hands.
        counts = ray.map(count_deals, (rules, None, 2, 1, 0, True), [(0, 3), (3, 5)], prepare=build_iteration)
        assert [_core.LaneTables.from_packed(rules, c).samples for c in counts] == [6, 4]
        with pytest.raises(thirteen.ThirteenError, match="ev needs the tables"):
            ray.map(count_deals, (rules, None, 2, 1, 1, False), [(0, 2)], prepare=build_iteration)
    assert ray_here.is_initialized()  # a runtime the caller started is left running


# --- without Ray -------------------------------------------------------------------------

#: Runs the command in a process where ``import ray`` fails, as where Ray is not installed.
WITHOUT_RAY = "import sys, runpy; sys.modules['ray'] = None; sys.argv[0] = 'thirteen'; runpy.run_module('thirteen', run_name='__main__')"


@pytest.mark.parametrize(
    "args",
    [["simulate", "-n", "2", "--ray", "local"], ["train", "--players", "2", "--out", "x.json.gz", "--ray", "auto"]],
)
def test_without_ray_the_error_says_how_to_install_it(args: List[str], tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-c", WITHOUT_RAY, *args], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
    assert r.returncode == 2
    assert "pip install 'thirteen[ray]'" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.json.gz").exists()
    # Everything else works without Ray.
    ok = subprocess.run([sys.executable, "-c", WITHOUT_RAY, "simulate", "-n", "2", "--seed", "1", "--json"],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and json.loads(ok.stdout)["rounds"] == 2


API_WITHOUT_RAY = """
import sys
sys.modules["ray"] = None
import thirteen
rules = thirteen.RuleSet.preset("western-2-4")
for run in (lambda: thirteen.simulate(rules, 2, ["ev", "ev"], 2, backend="ray"),
            lambda: thirteen.train(rules, players=[2], deals=10, iterations=1, address="local")):
    try:
        run()
    except thirteen.BackendError as exc:
        print(exc.kind, exc.backend, exc)
"""


def test_without_ray_the_python_api_raises_backend_error() -> None:
    r = subprocess.run([sys.executable, "-c", API_WITHOUT_RAY], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    assert all(line.startswith("backend ray ") and "pip install 'thirteen[ray]'" in line for line in lines)


def _closed_port() -> int:
    """A TCP port on this machine with nothing listening (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_server_that_is_not_a_ray_head_is_a_clear_error(tmp_path: Path) -> None:
    """A port where another server listens (an HTTP server, as the dashboard's port would
    be) is refused at once: it does not answer in gRPC's HTTP/2."""
    pytest.importorskip("ray", reason=NO_RAY)
    import http.server
    import threading

    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        r = subprocess.run([sys.executable, "-m", "thirteen", "simulate", "-n", "2", "--ray", address],
                           capture_output=True, text=True, timeout=60, cwd=tmp_path)
    finally:
        server.shutdown()
        server.server_close()
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert address in r.stderr and "does not answer as a Ray head" in r.stderr


def test_auto_with_a_recorded_cluster_gone_is_a_clear_error(tmp_path: Path) -> None:
    """``auto`` joins the cluster Ray finds recorded (here ``RAY_ADDRESS``); when nothing
    listens there any more, the error names it."""
    pytest.importorskip("ray", reason=NO_RAY)
    port = _closed_port()
    r = subprocess.run([sys.executable, "-m", "thirteen", "simulate", "-n", "2", "--ray", "auto"],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path,
                       env={**os.environ, "RAY_ADDRESS": f"127.0.0.1:{port}"})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    # Ray names this machine by its own address, not 127.0.0.1.
    assert f":{port} (the cluster 'auto' finds)" in r.stderr


@pytest.mark.parametrize(
    "address", ["127.0.0.1:{port}", "ray://127.0.0.1:{port}", "no-such-host.invalid:6379", "127.0.0.1", "h:x", "h:²", "h:99999"]
)
@pytest.mark.parametrize("command", ["simulate", "train"])
def test_an_address_with_no_cluster_is_a_clear_error(address: str, command: str, tmp_path: Path) -> None:
    """``--ray HOST:PORT`` where no cluster listens fails at once with the address named (Ray
    itself retries such an address for minutes); the command writes nothing."""
    pytest.importorskip("ray", reason=NO_RAY)
    address = address.format(port=_closed_port())
    args = ["-n", "2"] if command == "simulate" else ["--players", "2", "--out", "x.json.gz"]
    r = subprocess.run([sys.executable, "-m", "thirteen", command, *args, "--ray", address],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert address in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "x.json.gz").exists()


API_NO_CLUSTER = """
import sys
import thirteen
rules = thirteen.RuleSet.preset("western-2-4")
for run in (lambda: thirteen.simulate(rules, 2, ["ev", "ev"], 2, address=sys.argv[1]),
            lambda: thirteen.train(rules, players=[2], deals=10, iterations=1, address=sys.argv[1])):
    try:
        run()
    except thirteen.BackendError as exc:
        print(exc.backend, exc)
"""


def test_the_api_raises_backend_error_for_an_address_with_no_cluster() -> None:
    """The same from Python (in a process of its own: a runtime started here is used as it is)."""
    pytest.importorskip("ray", reason=NO_RAY)
    address = f"127.0.0.1:{_closed_port()}"
    r = subprocess.run([sys.executable, "-c", API_NO_CLUSTER, address], capture_output=True, text=True,
                       timeout=60)
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == 2, r.stderr
    assert all(line.startswith("ray ") and address in line for line in lines)
    rules = RuleSet.preset("western-2-4")
    for bad in (123, b"127.0.0.1:1", ("127.0.0.1", 1)):
        with pytest.raises(TypeError, match="address"):
            thirteen.simulate(rules, 2, ["ev", "ev"], 2, address=bad)  # type: ignore[arg-type]
