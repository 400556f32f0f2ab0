"""Rounds per second of ``thirteen simulate`` here and on a Ray runtime on this machine.

    .venv/bin/python benches/ray_scaling.py [--rounds 4000] [--rules kaixin] [--players 4]

Contenders, one after another in this process, on the same rounds (same seed):

* ``local, 1 thread`` and ``local, 2 threads``: ``thirteen.simulate`` (backend ``local``);
  CPU time is this process's (every thread).
* ``ray, 1 worker`` and ``ray, 2 workers``: the shards run as Ray tasks on a Ray runtime of
  2 CPUs started here, exactly as ``simulate(backend="ray")`` runs them
  (``thirteen.cluster.session().imap`` over ``play_shard``, counts added in shard order), with
  each task measuring its own CPU time; CPU time is the tasks' plus this process's.

Every contender's summary must equal the first one's (the run stops otherwise). Ray's start
(seconds) and the first tasks' warm-up (each worker imports ``thirteen`` and loads the lane
tables) are timed apart and left out of the rates: a long run pays them once. Prints a table
and, with ``--json``, the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Dict, List, Tuple

import thirteen
from thirteen import RuleSet, cluster
from thirteen.simulation import ShardCounts, Spec, play_shard, shards, summarize

SHARD_ROUNDS = 1000


def timed_shard(spec: Spec, shard: Tuple[int, int]) -> Tuple[ShardCounts, float]:
    """A shard's counts and the CPU seconds its task took (defined in ``__main__``, so Ray
    sends it to the workers by value)."""
    start = time.process_time()
    counts = play_shard(spec, shard)
    return counts, time.process_time() - start


def local(spec: Spec, rounds: int, threads: int) -> Dict[str, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    summary = thirteen.simulate(spec.rules, spec.players, spec.strategies, rounds, seed=spec.seed,
                                workers=threads)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "summary": summary}


def on_ray(ray: cluster.RaySession, spec: Spec, plan: List[Tuple[int, int]]) -> Dict[str, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    total = ShardCounts.empty(spec.players)
    task_cpu = 0.0
    for counts, seconds in ray.imap_unordered(timed_shard, spec, plan):
        total.add(counts)
        task_cpu += seconds
    summary = summarize(spec, total)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu + task_cpu, "summary": summary}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--rules", default="kaixin")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = RuleSet.preset(args.rules)
    spec = Spec(rules, args.players, ("ev",) * args.players, seed=args.seed)
    plan = list(shards(args.rounds, SHARD_ROUNDS))
    rows: List[Tuple[str, Dict[str, Any]]] = []
    thirteen.simulate(rules, args.players, spec.strategies, 20, seed=10**9)  # load the tables here
    rows.append(("local, 1 thread", local(spec, args.rounds, 1)))
    rows.append(("local, 2 threads", local(spec, args.rounds, 2)))
    ray_module = cluster.import_ray()
    started = time.perf_counter()
    ray_module.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR",
                    log_to_driver=False)
    start_seconds = time.perf_counter() - started
    try:
        warm = time.perf_counter()
        warm_spec = Spec(rules, args.players, spec.strategies, seed=10**9)
        with cluster.session(workers=2) as ray:
            ray.map(play_shard, warm_spec, [(0, 5), (5, 10)])
        warm_seconds = time.perf_counter() - warm
        for workers in (1, 2):
            with cluster.session(workers=workers) as ray:
                rows.append((f"ray, {workers} worker{'s' if workers > 1 else ''}", on_ray(ray, spec, plan)))
    finally:
        ray_module.shutdown()
    first = dict(rows[0][1]["summary"])
    first.pop("seconds")
    for name, row in rows:
        summary = dict(row["summary"])
        summary.pop("seconds", None)
        if summary != first:
            raise SystemExit(f"{name}: the summary differs from the local run's")
    base = args.rounds / rows[0][1]["wall"]
    out = {
        "rounds": args.rounds, "rules": args.rules, "players": args.players, "shard_rounds": SHARD_ROUNDS,
        "cores": os.cpu_count(), "load_average": os.getloadavg(), "ray_start_seconds": round(start_seconds, 1),
        "ray_warm_up_seconds": round(warm_seconds, 1),
        "contenders": [
            {"name": name, "wall_seconds": round(row["wall"], 2), "cpu_seconds": round(row["cpu"], 2),
             "rounds_per_second_wall": round(args.rounds / row["wall"], 1),
             "rounds_per_cpu_second": round(args.rounds / row["cpu"], 1),
             "speed_vs_local_1_thread": round(args.rounds / row["wall"] / base, 2)}
            for name, row in rows
        ],
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.rounds} rounds of {args.rules} at {args.players} players (all ev), shards of {SHARD_ROUNDS}; "
          f"{os.cpu_count()} cores, load average {out['load_average'][0]:.1f}")
    print(f"Ray start {start_seconds:.1f} s, warm-up {warm_seconds:.1f} s (not in the rates)")
    print(f"{'contender':<18} {'wall s':>8} {'CPU s':>8} {'rounds/s':>10} {'rounds/CPU-s':>13} {'vs local 1':>11}")
    for c in out["contenders"]:
        print(f"{c['name']:<18} {c['wall_seconds']:>8.2f} {c['cpu_seconds']:>8.2f} {c['rounds_per_second_wall']:>10.1f} "
              f"{c['rounds_per_cpu_second']:>13.1f} {c['speed_vs_local_1_thread']:>10.2f}x")
    print("every summary identical to the local run's: yes")


if __name__ == "__main__":
    main()
