"""Surrender decisions (RULES.md 5 step 1): what surrendering where ``solve`` says it loses
less (:attr:`thirteen.Solution.surrenders`) gains against never surrendering.

Duplicate match (``benches/duplicate_match.py``), per preset and table size: each seeded
deal is played with every seat arranged by ``ev`` and nobody surrendering (the baseline);
then each seat in turn surrenders where the engine says so while the others never do, and
its units are set against its baseline units with the same hand at the same table (the luck
of the deal cancels out). The reverse match has every seat surrender where the engine says
so and one seat never (its loss, sign flipped). Reported: mean units a hand with a 95%
interval (1.96 standard errors over deals), how often the engine surrenders, and the mean
gain of one surrender.

Usage::

    python benches/surrender.py [--deals 20000] [--seed 1] [--json FILE]
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from duplicate_match import record, seat_swaps
from stats import mean_ci

import thirteen
from thirteen import RuleSet


def match(rules: RuleSet, players: int, deals: int, seed: int) -> Dict[str, Any]:
    """The duplicate match of surrendering against never surrendering (module docs)."""
    tables = thirteen.lane_tables(rules, players)
    one: List[float] = []
    reverse: List[float] = []
    surrenders = 0
    per_surrender: List[float] = []
    for d in range(deals):
        hands = thirteen.deal(rules, players, seed + d).hands
        sols = [thirteen.solve(list(h), rules, players=players, tables=tables) for h in hands]
        subs = [s.submission() for s in sols]
        engine = tuple(sol.surrenders for sol in sols)
        surrenders += sum(engine)

        def units(surrendering: Tuple[bool, ...]) -> Sequence[int]:
            gone = [s for s, x in enumerate(surrendering) if x]
            return thirteen.settle(subs, rules, surrendered=gone or None).totals

        alone, among = seat_swaps(engine, (False,) * players, units)
        per_surrender += [alone[s] for s in range(players) if engine[s]]
        one.append(sum(alone) / players)
        reverse.append(sum(among) / players)
    m, h = mean_ci(one)
    rm, rh = mean_ci(reverse)
    return {
        "rules": rules.name,
        "players": players,
        "deals": deals,
        "surrender_rate": surrenders / (deals * players),
        "one_engine_seat": [m, h],
        "one_never_seat": [rm, rh],
        "gain_per_surrender": list(mean_ci(per_surrender)) if len(per_surrender) > 1 else None,
    }


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    start = time.process_time()
    rows = []
    for preset in ("western-1-6", "western-2-4"):
        for players in (2, 4):
            row = match(RuleSet.preset(preset), players, args.deals, args.seed)
            rows.append(row)
            (m, h), (rm, rh) = row["one_engine_seat"], row["one_never_seat"]
            per = row["gain_per_surrender"]
            per_text = "" if per is None else f"; a surrender gains {per[0]:+.2f} ± {per[1]:.2f}"
            print(
                f"{preset}, {players} players, {args.deals} deals: surrenders "
                f"{100 * row['surrender_rate']:.2f}% of hands; {m:+.4f} ± {h:.4f} units/hand "
                f"(one surrendering seat), {rm:+.4f} ± {rh:.4f} (one never-surrendering seat "
                f"among surrendering ones){per_text}",
                flush=True,
            )
    record({"rows": rows, "seed": args.seed}, start, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
