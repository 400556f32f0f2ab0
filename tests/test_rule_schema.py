"""The rule-set schema is declared once, in the core (issue 53): the Python ``RuleSet`` is a
facade over it, its fields and ``Literal`` types name what the core's table of allowed values
says, and one ``check_players`` answers for every call that takes a table size."""

from __future__ import annotations

import dataclasses
from typing import Any, get_args

import pytest

import thirteen
import thirteen.reference as ref
from thirteen import PlayerCountError, RuleSet, _core, rules
from thirteen.rules import OPTIONS


def test_the_fields_are_the_schemas_keys() -> None:
    keys = [f.name for f in dataclasses.fields(RuleSet)]
    import json

    assert keys == json.loads(_core.rule_options())["keys"]


@pytest.mark.parametrize(
    "literal, option",
    [
        (rules.Deck, "deck"),
        (rules.Dealt, "dealt"),
        (rules.Wheel, "wheel"),
        (rules.TieBreak, "tie_break"),
        (rules.Mode, "mode"),
        (rules.Foul, "foul"),
        (rules.BonusKind, "bonus_kind"),
        (rules.EscapeTo, "escape_to"),
        (rules.RoyalsFrom, "twelve_royals_from"),
    ],
)
def test_each_literal_says_what_the_schema_allows(literal: Any, option: str) -> None:
    assert get_args(literal) == OPTIONS[option]


def test_the_tables_come_from_the_schema() -> None:
    assert OPTIONS["players"] == (2, 3, 4)
    assert OPTIONS["home_run_min_players"] == (3, 4)
    assert rules.DECK_SIZES == {"standard": 52, "extra_diamonds": 65}
    assert rules.SPECIAL_KEYS[0] == "same_suit_dragon" and len(rules.SPECIAL_KEYS) == 13


def test_a_rule_set_is_its_canonical_form() -> None:
    # What the core's schema returns reads back as the same rule set, preset by preset.
    for name in rules.PRESET_NAMES:
        r = RuleSet.preset(name)
        assert RuleSet.from_json(r._core.canonical) == r


@pytest.mark.parametrize("players", [1, 5, -2, 2**70])
def test_one_check_of_a_table_size(players: int) -> None:
    r = RuleSet.preset("kaixin").replace(players=[3, 4])
    assert r.check_players(3) == 3
    calls = [
        lambda: r.check_players(players),
        lambda: thirteen.deal(r, players, 1),
        lambda: thirteen.solve("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac", r, players=players),
        lambda: thirteen.lane_tables(r, players),
        lambda: thirteen.Round(r, players),
        lambda: ref.deal(r, players, 1),
    ]
    for call in calls:
        with pytest.raises(PlayerCountError) as err:
            call()
        assert err.value.got == players and err.value.allowed == (3, 4)
    with pytest.raises(PlayerCountError):
        r.check_players(2)
    with pytest.raises(TypeError):
        r.check_players(True)
