"""How ``thirteen simulate`` and ``thirteen train`` scale with the cores of this machine.

    .venv/bin/python benches/scaling.py [--ev-rounds 60000] [--greedy-rounds 200000]
        [--repeat 3] [--rules kaixin] [--players 4] [--train-deals 16000]
        [--parts simulate,limit,train] [--json]

Simulation: ``thirteen.simulate`` of the same seeded rounds with 1, 2, ... up to every core
worker processes (``workers=1`` plays in this process), for an all-``ev`` table and an
all-``greedy`` one. The contenders alternate (1, 2, ..., 1, 2, ...) ``--repeat`` times in this
process and each keeps its least wall time (the machine is shared: the least is the run
least disturbed); every summary must equal the first (the run stops otherwise). CPU time is
this process's plus its worker processes' (``RUSAGE_CHILDREN``: a run's processes are joined
when it ends). Start-up is included: a run starts its processes, and this process plays the
first rounds while they start.

The machine's limit: ``n`` independent processes, each a one-process ``simulate`` of
``rounds / n`` rounds, started together after warming up (no sharing between them at all),
against one process of every round: what ``n`` cores give to work that needs nothing from
each other (on a virtual machine, two vCPUs may share one physical core).

Training: ``thirteen train`` (``--players`` at ``--train-deals`` deals, 3 iterations) in a
fresh process with the core's thread pool at 1, 2, ... threads (``RAYON_NUM_THREADS``),
alternating the same way; its tables must be the same bytes each time.

Prints the machine (cores, CPU model, load average before and after), a table per mix with
rounds per wall second, speed-up over one worker and rounds per CPU-second, and the
training table; ``--json`` prints the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

import thirteen
from thirteen import RuleSet


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def cpu_seconds() -> float:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime


def simulate_once(rules: RuleSet, players: int, strategy: str, rounds: int, workers: int) -> Dict[str, Any]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    summary = thirteen.simulate(rules, players, [strategy] * players, rounds, seed=1, workers=workers)
    out = {"wall": time.perf_counter() - wall, "cpu": cpu_seconds() - cpu}
    summary.pop("seconds")
    out["summary"] = summary
    return out


def simulation(args: argparse.Namespace, cores: int) -> List[Dict[str, Any]]:
    rules = RuleSet.preset(args.rules)
    rows = []
    for strategy, rounds in (("ev", args.ev_rounds), ("greedy", args.greedy_rounds)):
        thirteen.simulate(rules, args.players, [strategy] * args.players, 50, seed=10**9, workers=1)  # tables here
        best: Dict[int, Dict[str, float]] = {}
        first = None
        for _ in range(args.repeat):
            for workers in range(1, cores + 1):
                got = simulate_once(rules, args.players, strategy, rounds, workers)
                first = first or got["summary"]
                if got["summary"] != first:
                    raise SystemExit(f"{strategy}, {workers} workers: the summary differs from the first run's")
                if workers not in best or got["wall"] < best[workers]["wall"]:
                    best[workers] = {"wall": got["wall"], "cpu": got["cpu"]}
        base = rounds / best[1]["wall"]
        for workers, b in sorted(best.items()):
            rows.append({
                "mix": f"all {strategy}", "rounds": rounds, "workers": workers,
                "wall_seconds": round(b["wall"], 2), "cpu_seconds": round(b["cpu"], 2),
                "rounds_per_wall_second": round(rounds / b["wall"]),
                "speed_up": round(rounds / b["wall"] / base, 2),
                "rounds_per_cpu_second": round(rounds / b["cpu"]),
            })
    return rows


ALONE = """
import sys, thirteen
rules = thirteen.RuleSet.preset(sys.argv[1])
players = int(sys.argv[2])
thirteen.simulate(rules, players, [sys.argv[3]] * players, 50, seed=10**9, workers=1)
sys.stdin.readline()  # started: wait for the others
thirteen.simulate(rules, players, [sys.argv[3]] * players, int(sys.argv[4]), seed=int(sys.argv[5]), workers=1)
"""


def ceiling(args: argparse.Namespace, cores: int) -> List[Dict[str, Any]]:
    """The machine's own limit: ``n`` independent one-process runs of ``rounds / n`` rounds
    each, started together (each in a process of its own, warmed up first), against one
    such process playing every round; rounds per wall second, least of ``--repeat``."""
    rows = []
    for strategy, rounds in (("ev", args.ev_rounds), ("greedy", args.greedy_rounds)):
        best: Dict[int, float] = {}
        for _ in range(args.repeat):
            for n in range(1, cores + 1):
                procs = [subprocess.Popen([sys.executable, "-c", ALONE, args.rules, str(args.players), strategy,
                                           str(rounds // n), str(k * rounds)], stdin=subprocess.PIPE, text=True)
                         for k in range(n)]
                time.sleep(3)  # every process imported and warmed up
                start = time.perf_counter()
                for p in procs:
                    assert p.stdin is not None
                    p.stdin.write("go\n")
                    p.stdin.flush()
                for p in procs:
                    p.wait()
                best[n] = min(best.get(n, float("inf")), time.perf_counter() - start)
        for n, wall in sorted(best.items()):
            rows.append({"mix": f"all {strategy}", "processes": n, "wall_seconds": round(wall, 2),
                         "speed_up": round(best[1] / wall, 2)})
    return rows


TRAIN = """
import sys, thirteen
thirteen.train(thirteen.RuleSet.preset(sys.argv[1]), players=[int(sys.argv[2])], deals=int(sys.argv[3]),
               iterations=3, tolerance=0, seed=1, out=sys.argv[4])
"""


def training(args: argparse.Namespace, cores: int) -> List[Dict[str, Any]]:
    best: Dict[int, float] = {}
    blob = None
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "tables.json.gz")
        for _ in range(args.repeat):
            for threads in range(1, cores + 1):
                env = {**os.environ, "RAYON_NUM_THREADS": str(threads)}
                start = time.perf_counter()
                subprocess.run([sys.executable, "-c", TRAIN, args.rules, str(args.players), str(args.train_deals), out],
                               env=env, check=True)
                wall = time.perf_counter() - start
                got = Path(out).read_bytes()
                blob = blob or got
                if got != blob:
                    raise SystemExit(f"training on {threads} threads: the tables differ")
                best[threads] = min(best.get(threads, float("inf")), wall)
    return [{"threads": t, "wall_seconds": round(w, 2), "speed_up": round(best[1] / w, 2)}
            for t, w in sorted(best.items())]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ev-rounds", type=int, default=60_000)
    parser.add_argument("--greedy-rounds", type=int, default=200_000)
    parser.add_argument("--train-deals", type=int, default=16_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default="kaixin")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--parts", default="simulate,limit,train",
                        help="what to measure: simulate, limit (independent processes), train (comma-separated)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    cores = os.cpu_count() or 1
    before = os.getloadavg()[0]
    sim = simulation(args, cores) if "simulate" in parts else []
    alone = ceiling(args, cores) if "limit" in parts else []
    train = training(args, cores) if "train" in parts else []
    out = {"cores": cores, "cpu": cpu_model(), "load_average_before": round(before, 1),
           "load_average_after": round(os.getloadavg()[0], 1), "rules": args.rules, "players": args.players,
           "repeat": args.repeat, "simulate": sim, "independent_processes": alone, "train": train}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{cores} cores ({out['cpu']}), load average {out['load_average_before']} before, "
          f"{out['load_average_after']} after; {args.rules}, {args.players} players, least of {args.repeat}")
    print(f"{'mix':<11} {'rounds':>8} {'workers':>7} {'wall s':>7} {'CPU s':>7} {'rounds/s':>9} {'speed-up':>8} "
          f"{'rounds/CPU-s':>12}")
    for r in sim:
        print(f"{r['mix']:<11} {r['rounds']:>8} {r['workers']:>7} {r['wall_seconds']:>7.2f} {r['cpu_seconds']:>7.2f} "
              f"{r['rounds_per_wall_second']:>9,} {r['speed_up']:>7.2f}x {r['rounds_per_cpu_second']:>12,}")
    if alone:
        print("the machine's limit: independent one-process runs started together, sharing the rounds:")
    for r in alone:
        print(f"  {r['mix']:<11} {r['processes']} process(es): {r['wall_seconds']:.2f} s, {r['speed_up']:.2f}x")
    if train:
        print(f"train, {args.players} players, {args.train_deals} deals x 3 iterations (a fresh process each):")
    for r in train:
        print(f"  {r['threads']} thread(s): {r['wall_seconds']:.2f} s, {r['speed_up']:.2f}x")


if __name__ == "__main__":
    main()
