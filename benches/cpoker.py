"""Heads-up strength against cpoker's trained player, duplicate format (``../shared/bench``).

For each of the 10,000 deals, our player arranges hand A and plays it against cpoker's
arrangement of hand B, then arranges hand B and plays it against cpoker's arrangement of hand
A, under ``western-2-4``; the deal's result is the mean of the two. Reported: the mean edge in
points per hand with a 95% confidence interval (1.96 standard errors over deals).

Usage::

    python benches/cpoker.py [--bench ../shared/bench] [--strategy ev] [--deals 10000] [--json FILE]
        [--tables FILE]

``--tables`` plays on a table file (``thirteen train --out``, or an earlier release's
``thirteen/tables/western-2-4.json.gz``) instead of the shipped tables.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any, List, Sequence, Tuple

import numpy as np

from stats import mean_ci

import thirteen
from thirteen import Arrangement, Card, RuleSet


def load(bench: Path, deals: int) -> Tuple[List[List[Card]], List[Arrangement]]:
    """The hands (two per deal) and cpoker's arrangement of each."""
    hands = [thirteen.parse_cards(line) for line in (bench / "headsup-deals.txt").read_text().splitlines() if line.strip()]
    plays = [Arrangement.parse(line) for line in (bench / "headsup-cpoker.txt").read_text().splitlines() if line.strip()]
    n = min(deals * 2, len(hands))
    return hands[:n], plays[:n]


def our_plays(hands: Sequence[Sequence[Card]], rules: RuleSet, strategy: str, samples: int) -> List[Any]:
    """Our arrangement of every hand (``ev`` in parallel; ``mc`` hand by hand)."""
    if strategy in ("ev", "greedy"):
        codes = np.array([[c.code for c in h] for h in hands], dtype=np.uint8)
        arranged, _ = thirteen.solve_batch(codes, rules, players=2, strategy=strategy)
        return [
            Arrangement([Card.from_code(int(c)) for c in row[:3]],
                        [Card.from_code(int(c)) for c in row[3:8]],
                        [Card.from_code(int(c)) for c in row[8:]], rules=rules)
            for row in arranged
        ]
    return [
        thirteen.solve(list(h), rules, players=2, strategy=strategy, samples=samples, seed=i).submission()
        for i, h in enumerate(hands)
    ]


def match(ours: Sequence[Any], theirs: Sequence[Arrangement], rules: RuleSet) -> Tuple[float, float, int]:
    """Mean duplicate edge and its 95% half-width."""
    results = []
    for k in range(len(ours) // 2):
        a, b = 2 * k, 2 * k + 1
        r1 = thirteen.settle([ours[a], theirs[b]], rules).totals[0]
        r2 = thirteen.settle([ours[b], theirs[a]], rules).totals[0]
        results.append((r1 + r2) / 2)
    mean, half = mean_ci(results)
    return mean, half, len(results)


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parents[1]
    parser.add_argument("--bench", type=Path, default=Path(os.environ.get("THIRTEEN_BENCH", here.parent / "shared" / "bench")))
    parser.add_argument("--strategy", default="ev")
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--deals", type=int, default=10000)
    parser.add_argument("--json", type=Path, default=None, help="also write the result here")
    parser.add_argument("--tables", type=Path, default=None, help="a table file to play on instead of the shipped one")
    args = parser.parse_args(list(argv) or None)
    if args.tables is not None:
        thirteen.register_tables(thirteen.TableSet.load(args.tables))
    rules = RuleSet.preset("western-2-4")
    hands, theirs = load(args.bench, args.deals)
    start = time.process_time()
    ours = our_plays(hands, rules, args.strategy, args.samples)
    took = time.process_time() - start
    mean, half, n = match(ours, theirs, rules)
    lanes = lambda a: tuple(frozenset(str(c) for c in lane) for lane in (a.front, a.middle, a.back))  # noqa: E731
    same = sum(lanes(o) == lanes(t) for o, t in zip(ours, theirs)) / len(ours)
    print(f"{args.strategy} vs cpoker, western-2-4 heads-up, {n} deals duplicate: "
          f"{mean:+.4f} ± {half:.4f} points/hand; same play as cpoker on {same:.1%} of hands; "
          f"arranging took {took:.1f} s CPU ({platform.processor() or platform.machine()})")
    if args.json:
        found = {"strategy": args.strategy, "samples": args.samples if args.strategy == "mc" else None,
                 "rules": "western-2-4", "deals": n, "mean": mean, "half": half, "same_play": same,
                 "arrange_cpu_s": round(took, 2)}
        args.json.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
