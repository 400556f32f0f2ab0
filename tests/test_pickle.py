"""Every public type of the core pickles and comes back equal (issue 10), so process pools and
cluster workers can return them; a damaged pickle is an error, never a wrong object."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import thirteen
from thirteen import Arrangement, Card, Category, Declaration, HandValue, Rank, RuleSet, Suit
from thirteen import ThirteenError
from thirteen import _core

KAIXIN = RuleSet.preset("kaixin")
DRAGON = "2d 3d 4h 5c 6d 7c 8d 9s Tc Js Qc Ks Ac"


def round_trip(obj: Any) -> Any:
    back = pickle.loads(pickle.dumps(obj))
    assert type(back) is type(obj)
    return back


def test_cards_values_and_enums() -> None:
    assert round_trip(Card("Th")) == Card("Th")
    for value in [thirteen.evaluate("Qs Qd 4c"), thirteen.evaluate("As Ks Qs Js Ts")]:
        back = round_trip(value)
        assert back == value and back.size == value.size and str(back) == str(value)
    for enum in (Rank, Suit, Category):
        assert [round_trip(m) for m in enum] == list(enum)
    arrangement = Arrangement.parse("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d")
    assert round_trip(arrangement) == arrangement


def test_declarations_and_specials() -> None:
    for declaration in [Declaration(DRAGON, "dragon"), Declaration(DRAGON), Declaration([])]:
        back = round_trip(declaration)
        assert back == declaration and back.special == declaration.special
    special = thirteen.find_special(DRAGON, KAIXIN)
    assert special is not None and round_trip(special) == special
    three = thirteen.find_special("2h 3h 4h 5s 6s 7s 8s 9s 9c Tc Jc Qc Kc", KAIXIN)
    assert three is not None and three.arrangement is not None
    assert round_trip(three).arrangement == three.arrangement


def test_settlements() -> None:
    table = [
        Arrangement.parse("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"),
        Arrangement.parse("Kh 7d 3c | 8h 8c 6c 6s 2c | Th Td Ts 4d 4s"),
        Declaration(DRAGON, "dragon"),
    ]
    result = thirteen.settle(table, KAIXIN)
    back = round_trip(result)
    assert back == result
    assert back.to_dict() == result.to_dict()
    assert back.specials == result.specials


def test_deals_rules_and_lane_tables() -> None:
    for deal in [thirteen.deal(KAIXIN, 4, seed=7), thirteen.deal(RuleSet.preset("shisanzhang"), 3)]:
        back = round_trip(deal)
        assert back == deal
        assert (back.hands, back.cut_card, back.seed) == (deal.hands, deal.cut_card, deal.seed)
    rules = _core.Rules(KAIXIN.to_json())
    assert round_trip(rules).name == "kaixin"
    assert round_trip(KAIXIN) == KAIXIN
    counts = ([(thirteen.evaluate("Qs Qd 4c").value, 3)], [], [])
    for given in [KAIXIN, None]:
        tables = thirteen.LaneTables.from_counts(given, *counts)
        back = round_trip(tables)
        assert back.counts() == tables.counts() and back.samples == 3
    built = thirteen.build_tables(KAIXIN, players=2, deals=20, iterations=1)
    assert round_trip(built).counts() == built.counts()
    # Tables pickle as their counts packed in bytes, card removal kept either way.
    assert round_trip(built).card_removal and not round_trip(built.with_card_removal(False)).card_removal
    assert isinstance(built.__reduce__()[1][1], bytes)


def test_damaged_pickles_are_refused() -> None:
    for class_name, text in [
        ("Settlement", "{}"),
        ("Deal", '{"inner": {"hands": [["Zz"]], "deck": [], "cut": null, "first": 0}, "seed": 1}'),
        ("SpecialHand", '{"kind": "no_such_special", "units": 1, "tier": 0, "arrangement": null}'),
        ("Card", "{}"),
    ]:
        with pytest.raises(ThirteenError, match="not a pickled"):
            _core._restore(class_name, text)
