"""Rounds per second of ``thirteen simulate`` here and on a Ray runtime on this machine.

    .venv/bin/python benches/ray_scaling.py [--rounds 60000] [--strategies ev] [--rules kaixin]
        [--players 4] [--repeat 2] [--ray-niceness 0]

Contenders, alternating in this process (``--repeat`` times each), on the same seeded
rounds: ``thirteen.simulate`` with the local backend on 1 process and on every core (this
process and worker processes), and with ``backend="ray"`` on a Ray runtime of every core
started here once (its start is timed apart and left out; its workers at niceness
``--ray-niceness``: Ray's own default, 15, makes them yield to every other process of a
shared machine, which the local processes do not). Each contender keeps its least wall
time; every summary must equal the first (the run stops otherwise). Prints a table and,
with ``--json``, the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any, Dict, List

import thirteen
from thirteen import RuleSet, cluster


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60_000)
    parser.add_argument("--strategies", default="ev")
    parser.add_argument("--rules", default="kaixin")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--ray-niceness", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ["RAY_worker_niceness"] = str(args.ray_niceness)
    rules = RuleSet.preset(args.rules)
    strategies = args.strategies.split(",")
    strategies = strategies * args.players if len(strategies) == 1 else strategies
    cores = os.cpu_count() or 1
    contenders = {"local, 1 process": {"workers": 1}, f"local, {cores} processes": {"workers": cores},
                  f"Ray, {cores} CPUs": {"backend": "ray"}}
    ray = cluster.import_ray()
    started = time.perf_counter()
    ray.init(address="local", include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    ray_start = time.perf_counter() - started
    best: Dict[str, float] = {}
    first = None
    load = os.getloadavg()[0]
    try:
        for kwargs in contenders.values():  # warm-up: tables here, Ray's workers started
            thirteen.simulate(rules, args.players, strategies, 2000, seed=10**9, **kwargs)
        for _ in range(args.repeat):
            for name, kwargs in contenders.items():
                wall = time.perf_counter()
                summary = thirteen.simulate(rules, args.players, strategies, args.rounds, seed=1, **kwargs)
                wall = time.perf_counter() - wall
                summary.pop("seconds")
                first = first or summary
                if summary != first:
                    raise SystemExit(f"{name}: the summary differs from the first run's")
                best[name] = min(best.get(name, float("inf")), wall)
    finally:
        ray.shutdown()
    base = best["local, 1 process"]
    rows: List[Dict[str, Any]] = [
        {"name": name, "wall_seconds": round(w, 2), "rounds_per_second": round(args.rounds / w),
         "speed_up": round(base / w, 2)} for name, w in best.items()
    ]
    out = {"rounds": args.rounds, "rules": args.rules, "players": args.players, "strategies": strategies,
           "cores": cores, "load_average": round(load, 1), "ray_start_seconds": round(ray_start, 1),
           "ray_worker_niceness": args.ray_niceness, "contenders": rows}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{args.rounds} rounds of {args.rules} at {args.players} players ({','.join(strategies)}); {cores} cores, "
          f"load average {load:.1f}; Ray started in {ray_start:.1f} s (not in the times), workers at niceness "
          f"{args.ray_niceness}; least of {args.repeat}")
    for r in rows:
        print(f"{r['name']:<18} {r['wall_seconds']:>7.2f} s {r['rounds_per_second']:>9,} rounds/s {r['speed_up']:>6.2f}x")
    print("every summary identical: yes")


if __name__ == "__main__":
    main()
