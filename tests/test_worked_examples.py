"""One worked example per source rule (RULES.md 6 "What each value rests on"), on the core
and on the reference. Every expected number is computed by hand in the comment beside it."""

from __future__ import annotations

from typing import Any, List

import pytest

from thirteen.errors import FalseSpecialError
from thirteen.rules import RuleSet

DRAGON = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"
SAME_SUIT_DRAGON = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
# Three ordinary hands that use none of the dragon's cards (all of them differ from it).
OTHERS = [
    "9h 6c 3d | Kh Jc 8d 6s 2c | Ah Ad 7c 5s 4h",
    "9c 6d 3c | Kc Jh 8c 6h 2d | As Qs Th 7h 4c",
    "Qc 5d 3h | Js Jh 9d 7s 2h | Kd Qd Td 8d 4d",
]


def arrangements(impl: Any, texts: List[str]) -> List[Any]:
    return [impl.Arrangement.parse(t) for t in texts]


def test_003_dragon_collects_36_from_each_of_three(impl: Any) -> None:
    rules = RuleSet.preset("shisanzhang")
    # The dragon's cards must not clash with the others: use spades/hearts-free copies.
    dragon = "2s 3h 4s 5h 6s 7h 8s 9h Ts Jh Qs Kh As"
    others = [
        "Qc 5c 3c | Kc Kd 8c 7c 2c | Ac Ad 9c 6c 4c",
        "Qd 5d 3d | Tc Td 9d 6d 4d | Jc Jd 8d 7d 2d",
        "Qh 4h 2h | Ah Th 8h 6h 3s | Ks Js 9s 7s 5s",
    ]
    subs = [impl.Declaration(dragon, "dragon"), *arrangements(impl, others)]
    totals = list(impl.settle(subs, rules).totals)
    # 003 item 31: 36 from each other player: 36 × 3 = 108.
    assert totals[0] == 108
    assert sum(totals) == 0


def test_000_report_and_dragons(impl: Any) -> None:
    rules = RuleSet.preset("bianfeng")
    six_pairs = "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah"
    other = "9h 6h 3h | Kh Jc 8h 6s 2h | As Ad 7s 5s 4h"
    # A "report" (six pairs) collects 3 (000).
    res = impl.settle([impl.Declaration(six_pairs), impl.Arrangement.parse(other)], rules)
    assert list(res.totals) == [3, -3]
    # Dragon 26 doubled to 52; same-suit dragon 52 doubled to 104 (000, baked into the values).
    d2 = "2h 3s 4h 5s 6h 7s 8h 9s Th Js Qh Ks Ac"
    res = impl.settle([impl.Declaration(d2), impl.Declaration(six_pairs)], rules)
    assert list(res.totals) == [52, -52]  # higher tier collects its own value
    o3 = "9d 6d 3d | Kd Jd 8d 6c 2d | Ad Ac 7c 5c 4c"
    res = impl.settle([impl.Declaration(SAME_SUIT_DRAGON), impl.Arrangement.parse(o3)], rules)
    assert list(res.totals) == [104, -104]


def test_001_banker_only_ties_to_banker(impl: Any) -> None:
    rules = RuleSet.preset("luosong")
    # Players 1 and 2 are compared with the banker (seat 0) only, never with each other.
    subs = arrangements(impl, [
        "9h 6c 3d | Kh Jc 8d 6s 2c | Ah Ad 7c 5s 4h",   # banker
        "9s 6d 3c | Ks Jd 8c 6h 2d | As Qs Th 7h 4c",   # ties front and middle, loses back
        "Qh Qd 2s | Jh Td 9c 8h 7d | 5c 5d 4d 3h 2h",   # fouled: middle straight > back pair
    ])
    res = impl.settle(subs, rules, banker=0).to_dict()
    # Seat 1: front and middle drawn → the banker's (1 + 2), back pair of aces beats A-high (3):
    # a scoop for the banker, 6 doubled = 12.
    # Seat 2 fouled (loses all, counts as a scoop): the banker collects its own lane values
    # 1 + 2 + 3 = 6, doubled = 12.
    assert res["totals"] == [24, -12, -12]
    assert all(0 in pair["seats"] for pair in res["pairs"])


def test_002_thirteen_specials_in_order(impl: Any) -> None:
    rules = RuleSet.preset("kaixin")
    order = [
        ("same_suit_dragon", SAME_SUIT_DRAGON),
        ("dragon", DRAGON),
        ("twelve_royals", "Jc Js Jh Qd Qc Qh Kd Kc Kh As Ac Ah Ad"),
        ("three_straight_flushes", "2h 3h 4h 9h Th Jh Qh Kh 2s 3s 4s 5s 6s"),
        ("three_quads", "2c 2d 2h 2s 5c 5d 5h 5s 9c 9d 9h 9s Ah"),
        ("all_big", "8c 8d 9h Ts Jc Qd Kh As Ac Td 9s Jh Qc"),
        ("all_small", "2c 2d 3h 4s 5c 6d 7h 8s 8c 6h 5s 4d 3c"),
        ("one_color", "2h 3h 5h 6h 7h 9h Jh 2d 4d 8d Td Qd Ad"),
        ("four_trips", "2c 2d 2h 5c 5d 5h 9c 9d 9h Jc Jd Jh As"),
        ("five_pairs_trips", "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 9c 9d 9h"),
        ("six_pairs", "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d Ah"),
        ("three_straights", "Jc Qd Kh Ac 2d 3h 4s 5c 5d 6h 7s 8c 9d"),
        ("three_flushes", "2h 5h 9h 3s 6s 8s Ts Ks 2c 4c 7c Jc Ac"),
    ]
    values = [108, 36, 24, 20, 20, 15, 15, 10, 8, 5, 4, 4, 3]  # RULES.md 6 kaixin
    found = [impl.find_special(impl.parse_cards(h), rules) for _, h in order]
    assert [f.key for f in found] == [k for k, _ in order]
    assert [f.units for f in found] == values
    # Each beats the next in order (its own value collected), never by suit.
    for hi, lo in zip(found, found[1:]):
        assert impl.compare_specials(hi, lo) == 1
    with pytest.raises(FalseSpecialError):
        impl.settle([impl.Declaration(DRAGON, "three_flushes"), impl.Arrangement.parse(OTHERS[2])], rules)


def test_002_extra_mode_five_of_a_kind(impl: Any) -> None:
    rules = RuleSet.preset("kaixin-extra")
    five = impl.evaluate(impl.parse_cards("Ad Ad Ac Ah As"), rules)
    sf = impl.evaluate(impl.parse_cards("9s Ts Js Qs Ks"), rules)
    assert five.category.key == "five_of_a_kind" and five > sf
    # Middle five of a kind 11, back 6 (RULES.md 6 kaixin-extra); the loser's lanes are 1 each.
    a = impl.Arrangement.parse("Kd Qd 2h | 7d 7d 7c 7h 7s | 8d 8d 8c 8h 8s", rules)
    b = impl.Arrangement.parse("Ac Kc 3h | 9c 9h 5h 5s 6c | Tc Th Ts 6d 6h", rules)
    totals = list(impl.settle([a, b], rules).totals)
    # Lanes: front seat 1 (A high beats K high): 1; middle seat 0: 11; back seat 0: 6.
    # Seat 0 wins 2 of 3: no scoop. 11 + 6 − 1 = 16.
    assert totals == [16, -16]


@pytest.mark.parametrize("preset, expected", [("western-2-4", [2, -2]), ("western-1-6", [1, -1])])
def test_western_two_to_one(impl: Any, preset: str, expected: List[int]) -> None:
    rules = RuleSet.preset(preset)
    a = impl.Arrangement.parse("Kc 4d 2d | Jh Jd 9c 5s 3h | Ah Ad 8c 6c 2c")
    b = impl.Arrangement.parse("Qh 7d 3c | Th Td 6d 7s 2h | Kh Kd Ks 8d 4c")
    # Seat 0 wins front (K high over Q high) and middle (jacks over tens), loses the back to
    # trips: 2 − 1 = 1 unit; western-2-4 adds the majority bonus +1 ("a 2-1 win pays 2").
    assert not impl.is_foul(a, rules) and not impl.is_foul(b, rules)
    totals = list(impl.settle([a, b], rules).totals)
    assert totals == expected


def test_a_doubled_scoop_doubles_the_lanes_and_the_majority_bonus(impl: Any) -> None:
    """RULES.md 5 step 6: a doubled scoop doubles the pair's result so far, the lanes plus
    the majority bonus of step 5 (not the lanes alone: docs/rules.md said ``L × 2``)."""
    rules = RuleSet.from_dict({"base": "western-2-4", "scoop": {"kind": "double"}})
    a = impl.Arrangement.parse("6d Kh Kc | Kd 5s Th 5d 5h | 4c 2c Jc 3c 5c")
    b = impl.Arrangement.parse("3s Ah 2h | Jd 9c Td Tc 9h | Ts Qd Qc 6c Qh")
    # By hand, seat 0 against seat 1:
    #   front:  K K 6 (one pair) beats A 3 2 (ace high)           → seat 0, 1 unit
    #   middle: 5 5 5 K T (trips) beats T T 9 9 J (two pair)      → seat 0, 1 unit
    #   back:   J 5 4 3 2 of clubs (flush) beats Q Q Q T 6 (trips) → seat 0, 1 unit
    #   lanes L = 3; majority bonus (3 lanes to 0 won): +1 → 4 so far;
    #   scoop, kind = "double": the result so far doubles → 8 (L × 2 + 1 would be 7).
    assert not impl.is_foul(a, rules) and not impl.is_foul(b, rules)
    res = impl.settle([a, b], rules)
    assert list(res.totals) == [8, -8]
    steps = res.to_dict()["pairs"][0]["steps"]
    assert (steps["lanes"], steps["majority"], steps["scoop"]) == (3, 1, 4)
