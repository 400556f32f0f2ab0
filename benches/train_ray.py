"""Training here against training on a Ray runtime on this machine: the same tables, and the
wall time of each.

    .venv/bin/python benches/train_ray.py [--rules western-2-4] [--players 2,3,4]
        [--deals 32000] [--iterations 60] [--tolerance 0.0002] [--rounds 2]

Contenders, alternating in this process (``--rounds`` times each): ``thirteen.train`` with
the local backend (the core's threads on every core) and with ``backend="ray"`` on a Ray
runtime of every core started here once (its start is timed apart and left out: a long
training pays it once), its workers at niceness ``--ray-niceness`` (0 by default, as the
local run; Ray's own default, 15, makes them yield to every other process of a shared
machine). Each run's tables must be the same bytes as the first local run's
(the run stops otherwise). Prints each run's wall and CPU seconds (CPU: this process's, and
for Ray the workers' too, read from /proc), the least wall time of each contender and their
ratio, the machine's cores and load.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Dict, List

import thirteen
from thirteen import RuleSet, cluster


def children_cpu() -> float:
    """CPU seconds of every process whose parent is this one, or a descendant (Ray's workers
    and raylet), read from /proc: user + system time of live processes."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: Dict[int, int] = {}
    cpu: Dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / ticks
    me = os.getpid()
    total = 0.0
    for pid in cpu:
        p = parents.get(pid)
        while p is not None and p not in (0, 1, me):
            p = parents.get(p)
        if p == me:
            total += cpu[pid]
    return total


def run(rules: RuleSet, args: argparse.Namespace, out: Path, backend: str) -> Dict[str, float]:
    players: List[int] = [int(p) for p in args.players.split(",")]
    wall, mine, theirs = time.perf_counter(), time.process_time(), children_cpu()
    thirteen.train(rules, players=players, deals=args.deals, iterations=args.iterations,
                   tolerance=args.tolerance, seed=1, out=out, backend=backend)
    return {"wall": time.perf_counter() - wall,
            "cpu": time.process_time() - mine + children_cpu() - theirs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="western-2-4")
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--deals", type=int, default=32000)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--tolerance", type=float, default=0.0002)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--dir", default="/tmp")
    parser.add_argument("--ray-niceness", type=int, default=0,
                        help="niceness of Ray's workers (Ray's own default is 15: on a shared machine they "
                        "then yield to every other process, the local run does not; default 0, like for like)")
    args = parser.parse_args()
    os.environ["RAY_worker_niceness"] = str(args.ray_niceness)
    rules = RuleSet.preset(args.rules)
    ray = cluster.import_ray()
    started = time.perf_counter()
    ray.init(address="local", include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    print(f"Ray started in {time.perf_counter() - started:.1f} s (workers at niceness {args.ray_niceness}); "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    best: Dict[str, float] = {}
    first = None
    try:
        for n in range(args.rounds):
            for backend in ("local", "ray"):
                out = Path(args.dir) / f"train-{backend}-{n}.json.gz"
                got = run(rules, args, out, backend)
                blob = out.read_bytes()
                first = first or blob
                if blob != first:
                    raise SystemExit(f"{backend}: the tables differ from the first local run's")
                best[backend] = min(best.get(backend, float("inf")), got["wall"])
                print(f"{backend:>5} run {n}: wall {got['wall']:.1f} s, CPU {got['cpu']:.1f} s, "
                      f"load average {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        ray.shutdown()
    print(f"least wall: local {best['local']:.1f} s, Ray {best['ray']:.1f} s; Ray / local "
          f"{best['ray'] / best['local']:.2f}; every table file identical: yes")


if __name__ == "__main__":
    main()
