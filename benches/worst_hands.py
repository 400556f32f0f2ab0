"""The slowest hands `ev` meets, looked for on purpose: a hill climb on CPU time per hand.

Random deals show the usual spread (``benches/speed.py``); a server also needs the worst
hand it can be dealt to stay fast. From random hands of the preset's deal, one card at a
time is swapped for one of the unseen cards, and the swap is kept when ``solve`` (``ev``)
takes longer (the least CPU time of ``--repeat`` calls); each climb takes ``--steps``
swaps, and climbs restart until ``--seconds`` have passed. Prints each new slowest hand,
then the slowest few re-timed with more calls.

Usage::

    python benches/worst_hands.py [--preset kaixin-extra] [--seconds 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from typing import List, Sequence, Tuple

import thirteen
from thirteen import RuleSet


def least_cpu_ms(hand: Sequence[object], rules: RuleSet, tables: object, repeat: int) -> float:
    """Least CPU time of ``repeat`` ``solve`` calls on ``hand``, in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        thirteen.solve(hand, rules, tables=tables)  # type: ignore[arg-type]
        best = min(best, time.process_time() - start)
    return best * 1e3


def climb(
    rules: RuleSet, tables: object, rng: random.Random, steps: int, repeat: int
) -> Tuple[float, List[object]]:
    """One hill climb from a random hand: (its last time in ms, the hand)."""
    deck = list(thirteen.deck(rules))
    picked = rng.sample(range(len(deck)), rules.dealt)
    now = least_cpu_ms([deck[i] for i in picked], rules, tables, repeat)
    for _ in range(steps):
        unseen = [i for i in range(len(deck)) if i not in picked]
        trial = list(picked)
        trial[rng.randrange(len(trial))] = rng.choice(unseen)
        t = least_cpu_ms([deck[i] for i in trial], rules, tables, repeat)
        if t > now:
            picked, now = trial, t
    return now, [deck[i] for i in picked]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="kaixin-extra")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--steps", type=int, default=150, help="swaps a climb tries")
    parser.add_argument("--repeat", type=int, default=2, help="calls timed per hand")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = RuleSet.preset(args.preset)
    tables = thirteen.lane_tables(rules, args.players)
    rng = random.Random(args.seed)
    print(f"machine: {platform.machine()}, {platform.processor() or 'unknown CPU'}")
    found: List[Tuple[float, List[object]]] = []
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        t, hand = climb(rules, tables, rng, args.steps, args.repeat)
        if not found or t > max(f[0] for f in found):
            print(f"{t:7.2f} ms  {' '.join(str(c) for c in hand)}", flush=True)
        found.append((t, hand))
    found.sort(key=lambda f: f[0], reverse=True)
    print(f"{len(found)} climbs; the slowest, re-timed (least of 10 calls):")
    for _, hand in found[:3]:
        t = least_cpu_ms(hand, rules, tables, 10)
        print(f"{t:7.2f} ms  {' '.join(str(c) for c in hand)}")


if __name__ == "__main__":
    main()
