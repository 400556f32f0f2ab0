"""What ``ev``'s model believes of an arrangement against what happens when it is played.

For each arrangement: the model's P(win) per lane, P(scoop) and P(scooped) against one
opponent and its expected units against the table (``_core._explain``, what the search
ranks by), and the same measured over ``--deals`` deals of the opponents' hands from the
cards the seat does not hold, each opponent arranged by ``ev`` (as ``mc`` does) and every
table settled exactly. ``--random N`` does it for ``ev``'s three best arrangements of N
random hands and reports the model's root-mean-square errors (the simulation's own
sampling noise included), with card removal and without.

Usage::

    python benches/explain.py --rules shisanzhang "9s 8s 8d | Ah Ad 5h 5c 3d | 7c 7d 4h 4c 4d"
    python benches/explain.py --rules shisanzhang --random 80 --deals 2000
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from typing import Dict, List, Sequence

import numpy as np

from quality import batch_plays

import thirteen
from thirteen import Arrangement, RuleSet, _core


def opponents(rules: RuleSet, hand: Sequence[thirteen.Card], players: int, deals: int,
              seed: int) -> List[List[object]]:
    """Per deal, the other seats' plays: hands dealt from the unseen cards, arranged by ``ev``."""
    held = {c.code for c in hand}
    unseen = np.array([c.code for c in thirteen.deck(rules) if c.code not in held], dtype=np.uint8)
    rng = np.random.default_rng(seed)
    k = players - 1
    hands = np.array([rng.permutation(unseen)[: 13 * k].reshape(k, 13) for _ in range(deals)])
    plays = batch_plays(hands, rules, "ev", players=players)
    return [plays[k * d: k * d + k] for d in range(deals)]


def played(a: Arrangement, rules: RuleSet, tables: List[List[object]]) -> Dict[str, object]:
    """Measured against the opponents' plays of each deal: per opponent met, each lane won
    and lost, scoops won and lost; per deal, units and home runs."""
    won, lost = [0, 0, 0], [0, 0, 0]
    scoop = scooped = met = home_runs = 0
    units = 0
    for others in tables:
        s = thirteen.settle([a, *others], rules)
        units += s.totals[0]
        home_runs += 0 in s.home_runs
        for seat, o in enumerate(others, start=1):
            if not isinstance(o, Arrangement):
                continue  # a declared special: no lane is compared
            met += 1
            for i, (mine, theirs) in enumerate(zip(a.lanes, o.lanes)):
                c = thirteen.compare_lanes(mine, theirs, rules)
                won[i] += c > 0
                lost[i] += c < 0
            scoop += (0, seat) in s.scoops
            scooped += (seat, 0) in s.scoops
    n = len(tables)
    return {
        "lanes": [(won[i] / met, lost[i] / met) for i in range(3)],
        "scoop": scoop / met,
        "scooped": scooped / met,
        "units": units / n,
        "home_run": home_runs / n,
    }


def one(a: Arrangement, rules: RuleSet, players: int, deals: int, seed: int) -> None:
    tables = thirteen.lane_tables(rules, players)
    lanes_m, scoop_m, scooped_m, units_m = _core._explain(a, rules, tables, players=players)
    got = played(a, rules, opponents(rules, a.cards, players, deals, seed))
    print(f"{a}")
    print(f"  units           model {units_m:+.3f}   played {got['units']:+.3f}")
    for name, (wm, lm), (wp, lp) in zip(("front", "middle", "back"), lanes_m, got["lanes"]):
        print(f"  {name:6s} P(win) model {wm:.3f}   played {wp:.3f};  P(lose) {lm:.3f} / {lp:.3f}")
    print(f"  P(scoop)        model {scoop_m:.3f}   played {got['scoop']:.3f}")
    print(f"  P(scooped)      model {scooped_m:.3f}   played {got['scooped']:.3f}")
    print(f"  P(home run)     model {scoop_m ** (players - 1):.4f}  played {got['home_run']:.4f}"
          " (model: the scoop's chance to the power of the opponents)")


def calibration(rules: RuleSet, players: int, hands: int, deals: int, seed: int) -> None:
    tables = thirteen.lane_tables(rules, players)
    rng = random.Random(seed)
    deck = thirteen.deck(rules)
    plain = tables.with_card_removal(False)
    names = ("lane P(win)", "P(scoop)", "P(scooped)")
    err: Dict[str, List[float]] = {n: [] for n in names}
    err_plain: Dict[str, List[float]] = {n: [] for n in names}
    t0 = time.process_time()
    for h in range(hands):
        cards = rng.sample(deck, 13)
        _, choices = _core._solve(cards, rules, tables, players=players, top=3)
        arranged = [c[0] for c in choices if c[0] is not None]
        others = opponents(rules, cards, players, deals, seed + h)
        for a in arranged:
            got = played(a, rules, others)
            for t, e in ((tables, err), (plain, err_plain)):
                lanes_m, scoop_m, scooped_m, _ = _core._explain(a, rules, t, players=players)
                e["lane P(win)"] += [wm - wp for (wm, _), (wp, _) in zip(lanes_m, got["lanes"])]
                e["P(scoop)"].append(scoop_m - float(got["scoop"]))  # type: ignore[arg-type]
                e["P(scooped)"].append(scooped_m - float(got["scooped"]))  # type: ignore[arg-type]
    n = len(err["P(scoop)"])
    print(f"{rules.name}, {players} players: {n} arrangements ({hands} hands, ev's best three), "
          f"{deals} deals each; {time.process_time() - t0:.0f} s CPU ({platform.machine()})")
    rms = lambda e: math.sqrt(sum(x * x for x in e) / len(e))  # noqa: E731
    print("  model − played     rms (mean)       rms (mean) of the model without card removal")
    for name in names:
        e, p = err[name], err_plain[name]
        print(f"  {name:12s}  {rms(e):.4f} ({sum(e) / len(e):+.4f})   {rms(p):.4f} ({sum(p) / len(p):+.4f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("arrangements", nargs="*", help="front | middle | back")
    parser.add_argument("--rules", default="shisanzhang")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--random", type=int, default=0, help="hands for the calibration")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = RuleSet.preset(args.rules)
    for text in args.arrangements:
        one(Arrangement.parse(text), rules, args.players, args.deals, args.seed)
    if args.random:
        calibration(rules, args.players, args.random, args.deals, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
