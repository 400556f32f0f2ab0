"""Surrender decisions (RULES.md 5 step 1; issue 54): ``solve`` reports what surrendering is
worth and when it loses less than the best play, hints show it, and ``Round.auto``, tables
and ``simulate`` surrender then.

Expected values are computed by hand from RULES.md 5 and the Western presets (RULES.md 6):
a surrendered player pays ``surrender.units`` (3) to each player who did not surrender, and
nothing else is scored for it.
"""

from __future__ import annotations

from typing import List, Tuple

import pytest

import thirteen
from thirteen import LaneTables, Round, RuleSet, SurrenderError, Table

W16 = RuleSet.preset("western-1-6")
W24 = RuleSet.preset("western-2-4")
KAIXIN = RuleSet.preset("kaixin")

#: A hand with no pair, straight or flush.
WEAK = "2c 3d 4h 5s 7c 8d 9h Jc Qd 6s Th Ks 3c"


def unbeatable(rules: RuleSet) -> LaneTables:
    """Lane tables in which every opponent plays trip aces in front and straight flushes in
    the middle and back: every split loses every lane (no card removal, so the tables are
    what they say whatever the hand holds)."""

    def raw(cards: str) -> int:
        return thirteen.evaluate(thirteen.parse_cards(cards), rules).value

    front = [(raw("Ah Ad Ac"), 1)]
    middle = [(raw("Ks Qs Js Ts 9s"), 1)]
    back = [(raw("As Ks Qs Js Ts"), 1)]
    return LaneTables.from_counts(rules, front, middle, back, card_removal=False)


@pytest.mark.parametrize(
    "rules, per_opponent",
    [
        # western-1-6: three lanes of 1 lost, and the scoop bonus of 3: 6.
        (W16, -6.0),
        # western-2-4: three lanes of 1 lost, and the majority bonus of 1: 4.
        (W24, -4.0),
    ],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_hand_that_loses_every_lane_surrenders(
    rules: RuleSet, per_opponent: float, players: int
) -> None:
    # Against opponents who win every lane, the best split expects per_opponent units from
    # each of the players - 1 opponents; surrendering costs 3 from each: less.
    sol = thirteen.solve(WEAK, rules, players=players, tables=unbeatable(rules))
    assert sol.expected == pytest.approx(per_opponent * (players - 1))
    assert sol.surrender_expected == -3.0 * (players - 1)
    assert sol.surrenders
    # The play is still the best split (a surrendered seat's cards are not scored).
    assert sol.arrangement is not None
    hints = thirteen.hints(WEAK, rules, players=players, n=3, tables=unbeatable(rules))
    assert hints[0].surrender and hints[0].arrangement is None and hints[0].special is None
    assert hints[0].expected == -3.0 * (players - 1)
    assert hints[0].label == "surrender: pay 3 units to each"
    # Besides the three plays asked for.
    assert [h.surrender for h in hints[1:]] == [False, False, False]


def test_rules_without_surrender_report_none() -> None:
    sol = thirteen.solve(WEAK, KAIXIN, players=4, tables=unbeatable(KAIXIN))
    assert sol.surrender_expected is None and not sol.surrenders
    assert not any(h.surrender for h in thirteen.hints(WEAK, KAIXIN, n=5))
    # Greedy has no expectation: it never surrenders.
    greedy = thirteen.solve(WEAK, W16, players=2, strategy="greedy")
    assert greedy.surrender_expected == -3.0 and not greedy.surrenders


def test_a_strong_hand_plays_and_hints_rank_surrender_below() -> None:
    strong = "As Ad Ac Ks Kd Kc Qs Qd Qc Js Jd Jc 2h"
    sol = thirteen.solve(strong, W16, players=4)
    assert not sol.surrenders and sol.expected > sol.surrender_expected  # type: ignore[operator]
    # Surrendering is listed only where it loses less than one of the plays listed.
    few = thirteen.hints(strong, W16, players=4, n=2)
    assert not any(h.surrender for h in few) and len(few) == 2
    hints = thirteen.hints(strong, W16, players=4, n=1000)
    plays = [h for h in hints if not h.surrender]
    if any(h.surrender for h in hints):
        at = [h.surrender for h in hints].index(True)
        assert all(h.expected >= -9.0 for h in hints[:at])
        assert all(h.expected < -9.0 for h in hints[at + 1 :])
    else:
        assert plays[-1].expected >= -9.0


def surrendering_deal(rules: RuleSet, players: int) -> Tuple[int, int]:
    """A seed of a deal where the engine surrenders some seat, and that seat."""
    for seed in range(400):
        for seat, hand in enumerate(thirteen.deal(rules, players, seed).hands):
            if thirteen.solve(hand, rules, players=players).surrenders:
                return seed, seat
    raise AssertionError("no surrendering hand in 400 deals")


def test_auto_surrenders_and_the_seat_pays_each_other_seat() -> None:
    seed, seat = surrendering_deal(W16, 4)
    rnd = Round(W16, 4, seed=seed)
    rnd.deal()
    assert rnd.auto(seat, "disconnect") == "surrender"
    assert rnd.surrendered == (seat,) and rnd.auto_reasons == {seat: "disconnect"}
    assert seat not in rnd.missing
    hints = rnd.hints(seat, 3)
    assert hints[0].surrender
    result = rnd.settle(auto_missing=True)
    # RULES.md 5 step 1: 3 to each seat that did not surrender, nothing else.
    others = [s for s in range(4) if s not in result.surrendered]
    assert seat in result.surrendered
    assert result.units[seat] == -3 * len(others)
    assert result.auto[seat] == "disconnect"
    # The save replays the engine's surrender.
    again = Round.from_json(rnd.to_json())
    assert again.to_dict() == rnd.to_dict()
    # A surrender given as the play, and refused where the rules have none.
    other = Round(W16, 4, seed=seed)
    other.deal()
    assert other.auto(seat, play="surrender") == "surrender"
    plain = Round(KAIXIN, 4, seed=seed)
    plain.deal()
    with pytest.raises(SurrenderError):
        plain.auto(0, play="surrender")
    assert plain.missing == (0, 1, 2, 3)


def test_settlement_and_tables_surrender_for_missing_seats() -> None:
    seed, seat = surrendering_deal(W16, 3)
    rnd = Round(W16, 3, seed=seed)
    rnd.deal()
    rnd.disconnect(seat)
    result = rnd.settle(auto_missing=True)
    assert seat in result.surrendered and result.auto[seat] == "disconnect"
    table = Table(W16, seats=3)
    for p in "abc":
        table.sit(p, balance=1000)
    table.start_round(seed=seed)
    report = table.finish_round(auto_missing=True)
    assert "abc"[seat] in [report.players[s] for s in report.result.surrendered]


def test_simulate_surrenders_where_it_loses_less() -> None:
    seed, _ = surrendering_deal(W16, 2)
    runs: List[dict] = []
    for strategies in (["ev", "ev"], ["greedy", "greedy"]):
        runs.append(thirteen.simulate(W16, 2, strategies, 1, seed=seed, workers=1))
    # The ev seats' round settles a surrender: a seat's units are then ±3.
    assert 3 in [abs(u) for u in runs[0]["mean_units_per_round"]]
