"""``thirteen simulate``'s summary: the same for any number of workers, and its 95% intervals
recomputed from the rounds themselves."""

from __future__ import annotations

import math
import statistics

import thirteen
from thirteen import RuleSet
from thirteen.commands.simulate import simulate


def test_the_summary_does_not_depend_on_the_workers() -> None:
    rules = RuleSet.preset("kaixin")
    one = simulate(rules, 4, ["ev", "greedy", "ev", "greedy"], 24, seed=5, workers=1)
    two = simulate(rules, 4, ["ev", "greedy", "ev", "greedy"], 24, seed=5, workers=2)
    one.pop("seconds"), two.pop("seconds")
    assert one == two


def test_means_and_intervals_match_the_rounds() -> None:
    rules = RuleSet.preset("western-2-4")
    rounds, seed = 30, 11
    s = simulate(rules, 2, ["ev", "greedy"], rounds, seed=seed)
    per_seat = [[], []]
    for r in range(rounds):
        d = thirteen.deal(rules, 2, seed + r)
        subs = [
            thirteen.solve(list(d.hands[0]), rules, players=2, seed=r).submission(),
            thirteen.solve(list(d.hands[1]), rules, players=2, strategy="greedy", seed=r).submission(),
        ]
        for seat, t in enumerate(thirteen.settle(subs, rules).totals):
            per_seat[seat].append(t)
    for seat in range(2):
        xs = per_seat[seat]
        assert math.isclose(s["mean_units_per_round"][seat], statistics.mean(xs))
        half = 1.96 * statistics.stdev(xs) / math.sqrt(rounds)
        assert math.isclose(s["ci95_units_per_round"][seat], half, rel_tol=1e-9)
