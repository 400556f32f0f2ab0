"""Arranger speed, CPU time per hand, every preset (issue targets in the README's table).

For each preset: the CPU time of ``solve(hand, strategy="ev")`` per hand against the CPU time
of evaluating that hand's 1,573 lane subsets (1,287 fives + 286 threes) with
``evaluate_batch`` in the same process: median, p90, p99 and worst, and their ratio (each the
least of ``--repeat`` calls on the hand, 9 by default, the two called in turn), and the median
and p99 of the first call on each hand
(nothing warmed for it, as a server solving a new hand). Also the
16-card ``kaixin-extra`` distribution; what pricing scoops over the classes of the opponent's
arrangement costs (the shipped tables against the same tables without classes); ``mc`` with
1,000 samples (4 and 2 players, CPU time of the process, which includes every worker
thread); ``solve_batch`` with 1 and 2 threads (wall time, in subprocesses with
``RAYON_NUM_THREADS``); and with 16 dealt (kaixin-extra, 3 players), ``complete`` with 0 to 5
cards placed, ``complete`` with ``limit`` 10,000 and nothing placed, and ``solve`` holding a
horse card (Ah) against the same hands without one.

Usage::

    python benches/speed.py [--hands 2000] [--mc-hands 10] [--sixteen 200] [--presets kaixin ...]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, NamedTuple, Sequence

import numpy as np

import thirteen
from thirteen import RuleSet
from thirteen.rules import PRESET_NAMES

FIVES = np.array(list(itertools.combinations(range(13), 5)), dtype=np.intp)
THREES = np.array(list(itertools.combinations(range(13), 3)), dtype=np.intp)


#: The percentiles ``--json`` writes of each distribution.
PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


def percentiles(xs: Sequence[float], digits: int) -> Dict[str, float]:
    """The :data:`PERCENTILES` of ``xs`` (read as :func:`quantiles` reads them), its max and
    mean, rounded to ``digits`` decimals, and its count."""
    s = sorted(xs)
    out = {f"p{p}": round(s[min(len(s) - 1, int(p / 100 * len(s)))], digits) for p in PERCENTILES}
    out.update(max=round(s[-1], digits), mean=round(sum(s) / len(s), digits), n=len(s))
    return out


def quantiles(xs: Sequence[float]) -> Dict[str, float]:
    s = sorted(xs)
    at = lambda q: s[min(len(s) - 1, int(q * len(s)))]  # noqa: E731
    return {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": s[-1]}


def cpu(fn, repeat: int = 3) -> float:
    """Least CPU time of ``repeat`` calls, in µs."""
    times = []
    for _ in range(repeat):
        t = time.process_time_ns()
        fn()
        times.append(time.process_time_ns() - t)
    return min(times) / 1000


def hands(rules: RuleSet, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deck = np.array([c.code for c in thirteen.deck(rules)], dtype=np.uint8)
    return np.array([rng.permutation(deck)[: rules.dealt] for _ in range(n)], dtype=np.uint8)


class EvTimes(NamedTuple):
    """One preset's :func:`ev_vs_eval`: one value a hand, CPU µs (no ratio with 16 dealt)."""

    players: int
    ev: List[float]
    first: List[float]
    ratio: List[float]


def ev_vs_eval(name: str, n: int, repeat: int = 9) -> EvTimes:
    """``ev`` against the evaluation of the hand's subsets, ``repeat`` calls of each on every
    hand, in turn (the two side by side, under the same load), each the least of its calls."""
    rules = RuleSet.preset(name)
    players = max(rules.players)
    thirteen.solve(thirteen.deck(rules)[:rules.dealt], rules, players=players)  # tables loaded
    ev: List[float] = []
    first: List[float] = []
    ratio: List[float] = []
    for row in hands(rules, n, 1):
        cards = [thirteen.Card.from_code(int(c)) for c in row]
        subsets5, subsets3 = row[FIVES], row[THREES]
        t_solve: List[int] = []
        t_eval: List[int] = []
        for _ in range(repeat):
            t = time.process_time_ns()
            thirteen.solve(cards, rules, players=players)
            t_solve.append(time.process_time_ns() - t)
            if rules.dealt == 13:
                t = time.process_time_ns()
                thirteen.evaluate_batch(subsets5, rules)
                thirteen.evaluate_batch(subsets3, rules)
                t_eval.append(time.process_time_ns() - t)
        ev.append(min(t_solve) / 1000)
        first.append(t_solve[0] / 1000)
        if t_eval:
            ratio.append(min(t_solve) / min(t_eval))
    return EvTimes(players, ev, first, ratio)


def ev_vs_eval_row(name: str, times: EvTimes) -> str:
    """The table row of one preset's :func:`ev_vs_eval`: quantiles of ``ev``, of its first
    call and of the ratio."""
    players, ev, first, ratio = times
    q, f = quantiles(ev), quantiles(first)
    line = (f"| `{name}` {players}p | {q['p50']:.0f} | {q['p90']:.0f} | {q['p99']:.0f} | {q['max']:.0f} "
            f"| {f['p50']:.0f} | {f['p99']:.0f} |")
    if ratio:
        r = quantiles(ratio)
        line += f" {r['p50']:.2f}× | {r['p99']:.2f}× |"
    else:
        line += " – | – |"
    return line


def classes_cost(name: str, n: int) -> str:
    """``ev``'s mean CPU time with the shipped tables over the same tables without classes
    (scoops priced with lanes independent), hand by hand in turn."""
    rules = RuleSet.preset(name)
    mixed = thirteen.lane_tables(rules, 4)
    c = mixed.counts()
    lanes = thirteen.LaneTables.from_counts(rules, c["front"], c["middle"], c["back"])
    spent = {"classes": 0.0, "lanes": 0.0}
    for row in hands(rules, n, 4):
        cards = [thirteen.Card.from_code(int(x)) for x in row]
        for key, tables in (("classes", mixed), ("lanes", lanes)):
            spent[key] += cpu(lambda: thirteen.solve(cards, rules, tables=tables), repeat=1)
    return (f"ev {name} 4p, classes / lanes independent: {spent['classes'] / spent['lanes']:.2f}× "
            f"mean CPU time ({spent['classes'] / n:.0f} / {spent['lanes'] / n:.0f} µs)")


def mc_cost(name: str, players: int, n: int) -> float:
    rules = RuleSet.preset(name)
    thirteen.solve(thirteen.deck(rules)[:rules.dealt], rules, players=players)  # tables loaded
    times = []
    for row in hands(rules, n, 2):
        cards = [thirteen.Card.from_code(int(c)) for c in row]
        t = time.process_time()
        thirteen.solve(cards, rules, players=players, strategy="mc", samples=1000)
        times.append(time.process_time() - t)
    return statistics.median(times) * 1000


def batch_wall(threads: int, n: int) -> float:
    code = (
        "import time, numpy as np, thirteen; from thirteen import RuleSet;"
        "r = RuleSet.preset('kaixin'); rng = np.random.default_rng(3);"
        "d = np.array([c.code for c in thirteen.deck(r)], np.uint8);"
        f"h = np.array([rng.permutation(d)[:13] for _ in range({n})], np.uint8);"
        "thirteen.solve_batch(h[:10], r); t = time.perf_counter(); thirteen.solve_batch(h, r);"
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def sixteen(n: int) -> List[str]:
    """16 dealt (kaixin-extra, 3 players), CPU ms per call: ``complete`` with 0 to 5 cards
    placed (front, middle, back in turn), with ``limit`` 10,000 and nothing placed (one hand
    in 20), and ``solve`` on hands holding the horse card Ah under the preset with
    ``horse_card="Ah"`` and under the preset itself."""
    import random

    base = RuleSet.preset("kaixin-extra")
    horse_rules = base.replace(horse_card="Ah", name="kaixin-extra-horse")
    deck = list(thirteen.deck(base))
    horse = next(c for c in deck if str(c) == "Ah")
    rng = random.Random(16)
    thirteen.solve(rng.sample(deck, 16), base, players=3)  # tables loaded
    placed: List[float] = []
    with_horse: List[float] = []
    without: List[float] = []
    for i in range(n):
        hand = rng.sample(deck, 16)
        cards = rng.sample(hand, i % 6)
        placed.append(cpu(lambda: thirteen.complete(hand, base, players=3, front=cards[:1],
                                                    middle=cards[1:3], back=cards[3:]), 1))
        hand = rng.sample([c for c in deck if c != horse], 15) + [horse]
        with_horse.append(cpu(lambda: thirteen.solve(hand, horse_rules, players=3), 1))
        without.append(cpu(lambda: thirteen.solve(hand, base, players=3), 1))
    # The longest lists allowed on 16 cards: limit 10,000, nothing placed (one hand in 20).
    longest = [cpu(lambda: thirteen.complete(hand, base, players=3, limit=10_000), 1)
               for hand in (rng.sample(deck, 16) for _ in range(max(1, n // 20)))]
    out = []
    for what, xs in (("complete, 0-5 placed", placed), ("solve holding the horse card", with_horse),
                     ("solve, the same hands, no horse card", without),
                     ("complete, limit 10,000, nothing placed", longest)):
        q = quantiles(xs)
        out.append(f"16 cards, {what}: p50 {q['p50'] / 1000:.2f} ms, p99 {q['p99'] / 1000:.2f} ms, "
                   f"max {q['max'] / 1000:.2f} ms ({len(xs)} hands)")
    return out


def complete_thirteen(n: int) -> str:
    """``complete`` on 13 kaixin cards, 4 players, default ``limit`` (20), with 0 to 6 cards
    placed (back, front, middle in turn), CPU ms per call."""
    import random

    rules = RuleSet.preset("kaixin")
    deck = list(thirteen.deck(rules))
    rng = random.Random(13)
    thirteen.complete(rng.sample(deck, 13), rules)  # tables loaded
    times: List[float] = []
    for i in range(n):
        hand = rng.sample(deck, 13)
        cards = rng.sample(hand, i % 7)
        times.append(cpu(lambda: thirteen.complete(hand, rules, back=cards[:2], front=cards[2:4],
                                                   middle=cards[4:]), 1))
    q = quantiles(times)
    return (f"13 cards, complete, 0-6 placed: p50 {q['p50'] / 1000:.2f} ms, p99 {q['p99'] / 1000:.2f} ms, "
            f"max {q['max'] / 1000:.2f} ms ({n} hands)")


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=9,
                        help="calls of ev and of the evaluation on each hand, in turn; the least counts")
    parser.add_argument("--mc-hands", type=int, default=10)
    parser.add_argument("--batch", type=int, default=20000)
    parser.add_argument("--sixteen", type=int, default=200)
    parser.add_argument("--complete", type=int, default=300)
    parser.add_argument("--presets", nargs="*", default=PRESET_NAMES)
    parser.add_argument("--json", type=Path, default=None,
                        help="also write the percentiles of ev, its first call and ev / eval per preset here")
    args = parser.parse_args(list(argv) or None)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    found: Dict[str, object] = {}
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; CPU time per hand, µs")
    print("| preset | ev p50 | p90 | p99 | max | first call p50 | p99 | ev / eval p50 | ev / eval p99 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.presets if args.hands else ():
        times = ev_vs_eval(name, args.hands, args.repeat)
        print(ev_vs_eval_row(name, times), flush=True)
        found[name] = {"players": times.players, "ev_us": percentiles(times.ev, 2),
                       "first_us": percentiles(times.first, 2),
                       "ratio": percentiles(times.ratio, 4) if times.ratio else None}
    if args.json:
        args.json.write_text(json.dumps({"hands": args.hands, "repeat": args.repeat, "presets": found},
                                        indent=1) + "\n", encoding="utf-8")
    for name in ("kaixin", "shisanzhang") if args.hands else ():
        print(classes_cost(name, args.hands), flush=True)
    if args.mc_hands:
        for players in (4, 2):
            ms = mc_cost("kaixin", players, args.mc_hands)
            print(f"mc, 1,000 samples, kaixin {players}p: median {ms:.0f} ms CPU", flush=True)
    if args.complete:
        print(complete_thirteen(args.complete), flush=True)
    if args.sixteen:
        for line in sixteen(args.sixteen):
            print(line, flush=True)
    if args.batch:
        one, two = batch_wall(1, args.batch), batch_wall(2, args.batch)
        print(f"solve_batch {args.batch} kaixin hands: 1 thread {one:.2f} s, 2 threads {two:.2f} s "
              f"(×{one / two:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
