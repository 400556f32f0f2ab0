"""Swap-three gifts (换三张, RULES.md 7.3): what the engine's gift decision gains, what it
costs, and the fit of the model of the other seats' gifts it uses.

**Gain**, by duplicate match (``benches/duplicate_match.py``) at ``--players`` (4) under
kaixin-swap. For each seeded deal, a baseline table has every seat give by strategy B
(``nothing``, or ``lowest``: its three lowest cards, the lowest suit first among equal
ranks); then each seat in turn gives by strategy A (the engine's :func:`thirteen.gift`)
while the others keep B's gifts. The swap is shuffled with the deal's seed every time,
every seat then plays ``ev``'s arrangement, and a hand's score is its result with A's gift
minus its result with B's at the same table. Reported: mean units a hand with a 95%
interval (1.96 standard errors over deals), and the reverse match (one seat gives by B in a
field of engine gifts: its loss, sign flipped).

**Cost**: CPU time (``time.process_time``) of each decision made for the match, p50, p99
and the most.

**Fit** (``--fit``): the model of the other seats' gifts (thirteen-core's ``gift_model``)
as a fixed point: from its starting point (or ``--start``, an earlier fit's ``--json``),
the engine decides on ``--hands`` random hands (seat 0 of the deals of seeds ``--seed``
on) against the model, the sizes of its gifts and the rate at which it gives a card of
each rank (held once, or more often) are measured, and the model becomes the mean of
itself and the rates measured; repeated ``--iterations`` times. Prints the constants to
ship.

Usage::

    python benches/gift.py [--deals 1000] [--players 4] [--seed 1] [--json FILE]
    python benches/gift.py --fit [--players 4] [--hands 600] [--iterations 8] [--start FILE]
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from duplicate_match import record, seat_swaps
from stats import mean_ci

import thirteen
from thirteen import Card, RuleSet, _core

Hand = Sequence[Card]
Chooser = Callable[[int, Hand], Tuple[Card, ...]]


def lowest(hand: Hand, k: int = 3) -> Tuple[Card, ...]:
    """The ``k`` lowest cards of ``hand``, the lowest suit first among equal ranks."""
    return tuple(sorted(hand, key=lambda c: (int(c.rank), int(c.suit)))[:k])


def table_units(
    rules: RuleSet, hands: Sequence[Hand], gifts: Sequence[Sequence[Card]], seed: int, players: int,
    tables: thirteen.LaneTables,
) -> List[int]:  # fmt: skip
    """Each seat's units after the swap of ``gifts`` (shuffled with ``seed``) and ``ev``'s
    plays."""
    after = _core.swap_cards([list(h) for h in hands], [list(g) for g in gifts], rules, seed)
    plays = [
        thirteen.solve(list(h), rules, players=players, tables=tables).submission() for h in after
    ]
    return list(thirteen.settle(plays, rules).totals)


class Engine:
    """The engine's gift as a chooser, with the CPU time of each decision; ``search``:
    another search effort (``(screen pools, shortlist, finalists, final pools)``)."""

    def __init__(self, rules: RuleSet, players: int, search: Optional[Tuple[int, ...]] = None):
        self.rules, self.players, self.search = rules, players, search
        self.tables = thirteen.lane_tables(rules, players)
        self.cost: List[float] = []
        self.sizes: collections.Counter[int] = collections.Counter()
        self.made: Dict[Tuple[int, Tuple[Card, ...]], Tuple[Card, ...]] = {}

    def __call__(self, seed: int, hand: Hand) -> Tuple[Card, ...]:
        key = (seed, tuple(hand))
        if key in self.made:
            return self.made[key]
        start = time.process_time()
        if self.search is None:
            g = thirteen.gift(hand, self.rules, players=self.players, seed=seed, tables=self.tables)
            cards = g.cards
        else:
            ranked = _core._gift(
                list(hand), self.rules, self.tables, self.players, False, seed, 1, None, self.search
            )
            cards = tuple(ranked[0][0])
        self.cost.append(time.process_time() - start)
        self.sizes[len(cards)] += 1
        self.made[key] = cards
        return cards


def duplicate(
    rules: RuleSet, players: int, deals: int, seed: int, a: Chooser, b: Chooser
) -> Tuple[Tuple[float, float], Tuple[float, float]]:
    """A against B: ``(mean, half-width)`` of one A seat among B seats (its units minus
    B's with the same hand at the all-B table), and of one B seat among A seats (sign
    flipped: what A gains there)."""
    tables = thirteen.lane_tables(rules, players)
    one_a: List[float] = []
    one_b: List[float] = []
    for d in range(deals):
        deal_seed = seed + d
        hands = thirteen.deal(rules, players, deal_seed).hands
        ga = [a(deal_seed * 8 + s, h) for s, h in enumerate(hands)]
        gb = [b(deal_seed * 8 + s, h) for s, h in enumerate(hands)]
        xa, xb = seat_swaps(
            ga, gb, lambda gifts: table_units(rules, hands, gifts, deal_seed, players, tables)
        )
        one_a.append(sum(xa) / players)
        one_b.append(sum(xb) / players)
    return mean_ci(one_a), mean_ci(one_b)


def percentiles(cost: List[float]) -> Dict[str, float]:
    """p50, p99 and the most of CPU times, in milliseconds."""
    xs = sorted(cost)
    return {
        "p50": 1e3 * xs[len(xs) // 2],
        "p99": 1e3 * xs[min(len(xs) - 1, int(0.99 * len(xs)))],
        "max": 1e3 * xs[-1],
        "decisions": len(xs),
    }


#: The model's starting point (thirteen-core's ``GiftModel::START``).
START = (
    [0, 0, 0, 1000],
    [1000, 900, 800, 700, 600, 500, 400, 300, 200, 100, 50, 20, 10],
    [0] * 13,
)


def fit(
    rules: RuleSet, players: int, hands: int, iterations: int, seed: int, start: Any = START
) -> Dict[str, Any]:
    """The fixed point of the model of the other seats' gifts (see the module docs), from
    ``start`` (``(sizes, loose, paired)``)."""
    tables = thirteen.lane_tables(rules, players)
    dealt = [thirteen.deal(rules, players, seed + i).hands[0] for i in range(hands)]
    model: Tuple[List[int], List[int], List[int]] = tuple(list(x) for x in start)  # type: ignore[assignment]
    history = []
    for it in range(iterations):
        sizes = [0] * 4
        given = {True: [0] * 13, False: [0] * 13}
        held = {True: [0] * 13, False: [0] * 13}
        start = time.process_time()
        for i, hand in enumerate(dealt):
            g = set(_core._gift(list(hand), rules, tables, players, False, i, 1, model)[0][0])
            sizes[len(g)] += 1
            counts = collections.Counter(int(c.rank) for c in hand)
            for c in hand:
                loose = counts[int(c.rank)] == 1
                held[loose][int(c.rank) - 2] += 1
                given[loose][int(c.rank) - 2] += c in g
        measured = (
            [1000 * s / hands for s in sizes],
            [1000 * (g + 0.5) / (h + 1) for g, h in zip(given[True], held[True])],
            [1000 * (g + 0.5) / (h + 1) for g, h in zip(given[False], held[False])],
        )
        model = tuple(  # type: ignore[assignment]
            [round((a + b) / 2) for a, b in zip(old, new)] for old, new in zip(model, measured)
        )
        history.append({"iteration": it, "cpu_s": time.process_time() - start, "model": model})
        print(f"{it}: {time.process_time() - start:.1f} s CPU  sizes {model[0]}", flush=True)
        print(f"   loose {model[1]}\n   paired {model[2]}", flush=True)
    return {"players": players, "hands": hands, "history": history, "model": model}


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--hands", type=int, default=600)
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--start", metavar="FILE", help="--fit from the model of an earlier --fit --json")
    ap.add_argument(
        "--versus", metavar="SEARCH",
        help="the engine against another search effort: screen,shortlist,finalists,final",
    )
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args(argv)
    rules = RuleSet.preset("kaixin-swap")
    start = time.process_time()
    out: Dict[str, Any] = {"rules": rules.name, "players": args.players, "seed": args.seed}
    if args.fit:
        model = START
        if args.start:
            with open(args.start) as f:
                model = json.load(f)["model"]
        out.update(fit(rules, args.players, args.hands, args.iterations, args.seed, model))
    else:
        engine = Engine(rules, args.players)
        baselines: Dict[str, Chooser] = {"nothing": lambda s, h: (), "lowest": lambda s, h: lowest(h)}
        if args.versus:
            search = tuple(int(x) for x in args.versus.split(","))
            baselines = {f"search {args.versus}": Engine(rules, args.players, search)}
        print(f"kaixin-swap, {args.players} players, {args.deals} deals (seed {args.seed})")
        out["deals"] = args.deals
        for name, base in baselines.items():
            (m, h), (rm, rh) = duplicate(rules, args.players, args.deals, args.seed, engine, base)
            out[f"vs {name}"] = {"one_engine_seat": [m, h], "one_baseline_seat": [rm, rh]}
            print(
                f"engine vs {name}: {m:+.3f} ± {h:.3f} units/hand (one engine seat among "
                f"{name} seats); {rm:+.3f} ± {rh:.3f} (one {name} seat among engine seats)",
                flush=True,
            )
        out["gift_sizes"] = {str(k): engine.sizes[k] for k in sorted(engine.sizes)}
        out["cost_ms"] = c = percentiles(engine.cost)
        print(f"engine gift sizes: {out['gift_sizes']}")
        print(
            f"decision CPU: p50 {c['p50']:.1f} ms, p99 {c['p99']:.1f} ms, "
            f"max {c['max']:.1f} ms over {c['decisions']}"
        )
    record(out, start, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
