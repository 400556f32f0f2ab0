"""``ev`` on the shipped lane tables against ``ev`` on other tables (an earlier table file, or
the shipped ones without their classes), by duplicate-format simulation.

Every deal is arranged twice, once with each set of tables; each seat in turn then plays the
shipped tables' arrangement while the other seats keep the other tables' play, and the hand
scores its result minus the result of the other tables' arrangement at the same table. Reported:
mean units per hand with a 95% interval over deals, and how often the two agree; then the
same the other way round (the other tables' play in the shipped tables' field), since in a
field of more than two the two directions need not mirror each other.

Usage::

    python benches/versus_tables.py --rules shisanzhang [--players 4] [--deals 40000]
        [--other FILE.json.gz | --lanes-only | --no-card-removal | --field N] [--seed 2026]

``--other`` takes a table file (``thirteen train --out``, or an earlier release's
``thirteen/tables/<preset>.json.gz``); ``--lanes-only`` strips the classes from the shipped
tables, which measures what pricing scoops over the classes of the opponent's arrangement
gains; ``--no-card-removal`` plays the shipped tables without card removal, which measures
what weighing the opponents' lanes by the cards held gains; ``--field N`` builds the other
tables from ``N`` deals of the shipped tables' own play (the field's lanes as they are played,
``_core.iteration_counts``, seed ``--field-seed``), which measures what the shipped tables
lose by describing their own field only as closely as training converged.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from typing import List

import numpy as np

from quality import Play, batch_plays, deal_codes, duplicate

import thirteen

from thirteen import LaneTables, RuleSet, TableSet


def plays(hands: np.ndarray, rules: RuleSet, players: int, tables: LaneTables) -> List[List[Play]]:
    flat = batch_plays(hands, rules, "ev", players=players, tables=tables)
    return [flat[players * d : players * d + players] for d in range(hands.shape[0])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="shisanzhang")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=2026)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--other", help="the other tables: a table file")
    group.add_argument("--lanes-only", action="store_true", help="the shipped tables without classes")
    group.add_argument("--no-card-removal", action="store_true",
                       help="the shipped tables without card removal")
    group.add_argument("--field", type=int, metavar="N",
                       help="tables counted from N deals of the shipped tables' own play")
    parser.add_argument("--field-seed", type=int, default=4242, help="seed of --field's deals")
    args = parser.parse_args()

    rules = RuleSet.preset(args.rules)
    mine = thirteen.lane_tables(rules, args.players)
    if args.lanes_only:
        c = mine.counts()
        other = LaneTables.from_counts(rules, c["front"], c["middle"], c["back"])
        label = "the shipped tables without classes"
    elif args.no_card_removal:
        other = mine.with_card_removal(False)
        label = "the shipped tables without card removal"
    elif args.field:
        c = thirteen._core.iteration_counts(rules, mine, players=args.players, seed=args.field_seed,
                                            iteration=0, greedy=False, start=0, stop=args.field)
        other = LaneTables.from_counts(rules, c["front"], c["middle"], c["back"], classes=c["classes"])
        label = f"tables counted from {args.field} deals of the shipped field's play"
    else:
        other = TableSet.load(args.other).lane_tables(rules, args.players)
        label = args.other
    hands = deal_codes(np.random.default_rng(args.seed), rules, args.deals, args.players)
    t0 = time.process_time()
    a = plays(hands, rules, args.players, mine)
    b = plays(hands, rules, args.players, other)
    same = sum(x == y for da, db in zip(a, b) for x, y in zip(da, db)) / (args.players * args.deals)
    m, h, n = duplicate(rules, hands, lambda d, s: a[d][s], b, args.players)
    print(
        f"ev on the shipped tables vs ev on {label}, {args.rules}, {args.players} players: "
        f"{m:+.4f} units/hand, 95% CI [{m - h:+.4f}, {m + h:+.4f}], {args.deals} deals "
        f"({n} hands scored); same play on {same:.1%}; {time.process_time() - t0:.0f} s CPU "
        f"({platform.machine()})"
    )
    m, h, n = duplicate(rules, hands, lambda d, s: b[d][s], a, args.players)
    print(f"the other way round, ev on {label} in the shipped tables' field: "
          f"{m:+.4f} units/hand, 95% CI [{m - h:+.4f}, {m + h:+.4f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
