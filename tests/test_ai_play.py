"""The engine's play for AI and auto-arranged seats (issue 54 item 4): ``mc`` keeps ``ev``'s
play unless its samples show another better, and every seat the engine plays for plays it.

Expected values come from the rules (RULES.md 2, 4: a play uses the seat's own cards and
never fouls; a dragon collects its units from each opponent) and from the gate's definition
(``docs/decisions.md``): with one sampled deal there is no spread to measure, so no play can
pass the gate and ``mc`` plays ``ev``'s play.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, List

import pytest

import thirteen
from thirteen import Card, Round, RuleSet
from thirteen.game.decisions import AI_SAMPLES, AI_STRATEGY, engine_play

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"


def hand_of(rules: RuleSet, seed: int) -> List[Card]:
    return random.Random(seed).sample(list(thirteen.deck(rules)), rules.dealt)


def plays(sol: Any) -> List[Any]:
    return [sol, *sol.alternatives]


@pytest.mark.parametrize("preset", RuleSet.presets())
def test_one_deal_shows_no_spread_so_mc_plays_evs_play(preset: str) -> None:
    rules = RuleSet.preset(preset)
    for seed in range(2):
        hand = hand_of(rules, seed)
        ev = thirteen.solve(hand, rules, players=3)
        mc = thirteen.solve(hand, rules, players=3, strategy="mc", samples=1, seed=seed)
        assert (mc.arrangement, mc.special, mc.kept) == (ev.arrangement, ev.special, ev.kept)


@pytest.mark.parametrize("preset", ["kaixin", "kaixin-extra", "luosong", "western-1-6"])
def test_mc_plays_only_held_cards_never_fouls_and_means_whole_units(preset: str) -> None:
    rules = RuleSet.preset(preset)
    samples = 40
    for seed in range(3):
        hand = hand_of(rules, 10 + seed)
        sol = thirteen.solve(hand, rules, players=4, strategy="mc", samples=samples, seed=seed,
                             top=20, banker=rules.mode == "banker" and seed == 0)
        dealt = Counter(hand)
        assert len(sol.kept) == 13 and not Counter(sol.kept) - dealt
        for p in plays(sol):
            if p.arrangement is not None:
                cards = [*p.arrangement.front, *p.arrangement.middle, *p.arrangement.back]
                assert not Counter(cards) - dealt, "a card not held"
                assert not thirteen.is_foul(p.arrangement, rules)
            else:
                assert thirteen.find_special(list(p.kept), rules) is not None
            # Each deal settles in whole units: the mean is a whole number over the deals.
            assert p.expected * samples == pytest.approx(round(p.expected * samples), abs=1e-6)
        # The play chosen keeps the cards it plays.
        if sol.arrangement is not None:
            a = sol.arrangement
            assert Counter([*a.front, *a.middle, *a.back]) == Counter(sol.kept)


def test_mc_declares_the_dragon_and_collects_its_units_from_every_opponent() -> None:
    # kaixin (RULES.md 6): a dragon collects 36 from each opponent; no opponent can hold a
    # higher special (this seat holds one card of every rank and suit), so every deal pays
    # 3 x 36 at four players.
    rules = RuleSet.preset("kaixin")
    sol = thirteen.solve(DRAGON, rules, players=4, strategy="mc", samples=50, seed=3)
    assert sol.special is not None and sol.special.key == "dragon"
    assert sol.expected == 3 * 36


def test_mc_is_a_function_of_its_seed() -> None:
    rules = RuleSet.preset("shisanzhang")
    hand = hand_of(rules, 5)

    def run(seed: int) -> Any:
        sol = thirteen.solve(hand, rules, players=4, strategy="mc", samples=100, seed=seed, top=5)
        return [(p.arrangement, p.special, p.expected) for p in plays(sol)]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_ai_seats_play_the_ai_strategy() -> None:
    assert AI_STRATEGY == "mc" and AI_SAMPLES == 1000
    rules = RuleSet.preset("kaixin")
    rnd = Round(rules, 4, seed=2026)
    rnd.deal()
    for seat in range(4):
        want = thirteen.solve(rnd.hand(seat), rules, players=4, strategy="mc", samples=1000)
        assert engine_play(rules, rnd.hand(seat), players=4, banker=False) == want.submission()
        assert rnd.auto(seat) == want.submission()


def test_simulate_plays_the_ai_strategy_by_default() -> None:
    rules = RuleSet.preset("bianfeng")
    default = thirteen.simulate(rules, 2, None, 2, seed=1, workers=1)
    named = thirteen.simulate(rules, 2, ["mc", "mc"], 2, seed=1, samples=1000, workers=1)
    assert default["strategies"] == ["mc", "mc"]
    assert default["mean_units_per_round"] == named["mean_units_per_round"]
