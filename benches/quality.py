"""Quality of the auto-arrange strategies, measured by duplicate-format simulation.

For each random 4-player deal, a baseline table has every seat played by strategy B; then
each seat in turn (or seat 0 only, with ``--seats 1``) is played by strategy A while the others
keep B's play. The score of a hand is A's result with it minus B's result with the same hand
at the same table, so the luck of the deal cancels out. Reported: mean units per hand with a
95% confidence interval (1.96 standard errors over deals), for ``ev`` vs ``greedy`` and ``mc``
vs ``ev``, plus how often ``ev`` picks the same play as ``mc`` with many samples and the
mean units lost when it does not (by ``mc``'s own estimates).

Usage::

    python benches/quality.py [--deals 20000] [--mc-deals 2000] [--mc-samples 100]
        [--agree-hands 200] [--agree-samples 2000] [--rules kaixin shisanzhang] [--out FILE]
        [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from stats import mean_ci

import thirteen

from thirteen import Declaration, RuleSet
from thirteen.rules import SPECIAL_KEYS

Play = Any  # an Arrangement or a Declaration


def deal_codes(rng: np.random.Generator, rules: RuleSet, deals: int, players: int) -> np.ndarray:
    """``(deals, players, dealt)`` card codes, every deal a shuffled deck."""
    deck = np.array([c.code for c in thirteen.deck(rules)], dtype=np.uint8)
    out = np.empty((deals, players, rules.dealt), dtype=np.uint8)
    for d in range(deals):
        cards = rng.permutation(deck)[: players * rules.dealt]
        out[d] = cards.reshape(players, rules.dealt)
    return out


def batch_plays(
    hands: np.ndarray,
    rules: RuleSet,
    strategy: str,
    players: int = 4,
    tables: Optional[thirteen.LaneTables] = None,
) -> List[Play]:
    """Plays of many hands with ``ev`` or ``greedy`` (solved in parallel in the core), on the
    rule set's tables or ``tables``."""
    flat = hands.reshape(-1, hands.shape[-1])
    arranged, specials = thirteen.solve_batch(
        flat, rules, players=players, strategy=strategy, tables=tables
    )
    plays: List[Play] = []
    for row, special in zip(arranged, specials):
        cards = [thirteen.Card.from_code(int(c)) for c in row]
        if special >= 0:
            plays.append(Declaration(cards, SPECIAL_KEYS[int(special)]))
        else:
            plays.append(thirteen.Arrangement(cards[:3], cards[3:8], cards[8:], rules=rules))
    return plays


def settle_totals(plays: Sequence[Play], rules: RuleSet) -> List[int]:
    return list(thirteen.settle(list(plays), rules).totals)


def duplicate(
    rules: RuleSet,
    hands: np.ndarray,
    plays_a: Callable[[int, int], Play],
    plays_b: List[List[Play]],
    seats: int,
) -> Tuple[float, float, int]:
    """Mean (A − B) units per hand and its 95% half-width, over deals."""
    per_deal = []
    for d in range(hands.shape[0]):
        base = settle_totals(plays_b[d], rules)
        diffs = []
        for s in range(seats):
            table = list(plays_b[d])
            table[s] = plays_a(d, s)
            diffs.append(settle_totals(table, rules)[s] - base[s])
        per_deal.append(sum(diffs) / len(diffs))
    m, h = mean_ci(per_deal)
    return m, h, len(per_deal) * seats


def same_play(a: Play, b: Play) -> bool:
    if isinstance(a, Declaration) or isinstance(b, Declaration):
        return isinstance(a, Declaration) and isinstance(b, Declaration)
    return a == b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", nargs="*", default=["kaixin", "shisanzhang"])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--mc-deals", type=int, default=2000)
    parser.add_argument("--mc-samples", type=int, default=100)
    parser.add_argument("--agree-hands", type=int, default=200)
    parser.add_argument("--agree-samples", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=None, help="also write the report to this file")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()

    lines = [
        "# Auto-arrange quality (duplicate format, 4 players)",
        "",
        f"Machine: {platform.machine()}, {platform.processor() or 'unknown CPU'}, "
        f"Python {platform.python_version()}, thirteen {thirteen.__version__}.",
        "",
        "| rules | A vs B | deals | hands scored | mean units per hand (A − B) | 95% CI |",
        "| --- | --- | ---: | ---: | ---: | --- |",
    ]
    agreement = []
    found: Dict[str, Any] = {"seed": args.seed, "duplicate": [], "agreement": []}
    for name in args.rules:
        rules = RuleSet.preset(name)
        rng = np.random.default_rng(args.seed)
        hands = deal_codes(rng, rules, args.deals, 4)
        t0 = time.perf_counter()
        ev = batch_plays(hands, rules, "ev")
        greedy = batch_plays(hands, rules, "greedy")
        ev_t = [ev[4 * d : 4 * d + 4] for d in range(args.deals)]
        gr_t = [greedy[4 * d : 4 * d + 4] for d in range(args.deals)]
        m, h, n = duplicate(rules, hands, lambda d, s: ev_t[d][s], gr_t, 4)
        lines.append(
            f"| {name} | ev vs greedy | {args.deals} | {n} | {m:+.3f} | [{m - h:+.3f}, {m + h:+.3f}] |"
        )
        found["duplicate"].append({"rules": name, "a": "ev", "b": "greedy", "deals": args.deals,
                                   "hands": n, "mean": m, "half": h})
        print(lines[-1], f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)

        t0 = time.perf_counter()
        k = min(args.mc_deals, args.deals)

        def mc_play(d: int, s: int) -> Play:
            cards = [thirteen.Card.from_code(int(c)) for c in hands[d, s]]
            sol = thirteen.solve(
                cards, rules, players=4, strategy="mc", samples=args.mc_samples, seed=d
            )
            return sol.submission()

        m, h, n = duplicate(rules, hands[:k], mc_play, ev_t[:k], 1)
        lines.append(
            f"| {name} | mc ({args.mc_samples} samples) vs ev | {k} | {n} | {m:+.3f} | "
            f"[{m - h:+.3f}, {m + h:+.3f}] |"
        )
        found["duplicate"].append({"rules": name, "a": f"mc ({args.mc_samples} samples)", "b": "ev",
                                   "deals": k, "hands": n, "mean": m, "half": h})
        print(lines[-1], f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)

        if args.agree_hands <= 0:
            continue
        t0 = time.perf_counter()
        rnd = random.Random(args.seed)
        same = 0
        lost = []
        for i in range(args.agree_hands):
            d, s = rnd.randrange(args.deals), rnd.randrange(4)
            cards = [thirteen.Card.from_code(int(c)) for c in hands[d, s]]
            sol = thirteen.solve(
                cards, rules, strategy="mc", samples=args.agree_samples, seed=i, top=16
            )
            options = [sol, *sol.alternatives]
            ev_play = ev_t[d][s]
            if same_play(sol.submission(), ev_play):
                same += 1
                continue
            ev_est = next(
                (o.expected for o in options if same_play(o.submission(), ev_play)), None
            )
            if ev_est is not None:
                lost.append(sol.expected - ev_est)
        agreement.append(
            f"| {name} | {args.agree_hands} | {args.agree_samples} | {same / args.agree_hands:.1%} | "
            + (f"{sum(lost) / len(lost):.3f} ({len(lost)} hands)" if lost else "–")
            + " |"
        )
        print(agreement[-1], f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
        found["agreement"].append({"rules": name, "hands": args.agree_hands, "samples": args.agree_samples,
                                   "same_play": same / args.agree_hands,
                                   "lost_when_not": sum(lost) / len(lost) if lost else None})

    if agreement:
        lines += [
            "",
            "## ev against mc with many samples",
            "",
            "| rules | hands | mc samples | same play | mean units lost when not (mc estimate) |",
            "| --- | ---: | ---: | ---: | --- |",
            *agreement,
        ]
    lines.append("")
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(report)
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
