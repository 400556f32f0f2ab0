"""Tests of ``thirteen.rules``: the RuleSet, its presets and its validation (RULES.md 6)."""

from __future__ import annotations

import dataclasses
import json
from importlib.resources import files
from pathlib import Path
from typing import Any, Dict

import pytest
from thirteen.errors import RuleSetError
from thirteen.rules import (
    CATEGORY_KEYS,
    FRONT_CATEGORY_KEYS,
    LANES,
    PRESET_NAMES,
    SPECIAL_KEYS,
    Bonus,
    Escape,
    HomeRun,
    LaneTable,
    RuleSet,
    Surrender,
    Swap,
)

FLAT_LANES = {"front": {"base": 1}, "middle": {"base": 1}, "back": {"base": 1}}


def plain(**overrides: Any) -> Dict[str, Any]:
    """A minimal valid rule-set dict (no base) with ``overrides``."""
    data: Dict[str, Any] = {"lane_values": json.loads(json.dumps(FLAT_LANES))}
    data.update(overrides)
    return data


def assert_error(data: Dict[str, Any], key: str | None) -> RuleSetError:
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict(data)
    assert info.value.key == key, info.value
    assert info.value.kind == "rule_set"
    if key is not None:
        assert key in str(info.value)
    return info.value


def assert_lane_values(r: RuleSet, **lanes: Dict[str, int]) -> None:
    """``r`` pays ``lanes[lane][category]`` units for each one given (RULES.md 6's tables)."""
    for lane, values in lanes.items():
        for category, units in values.items():
            assert r.lane_value(lane, category) == units, (lane, category)


def assert_lane_error(lane: str, category: str, units: int, base: str = "kaixin") -> None:
    """``base`` with ``units`` for ``category`` in ``lane`` is refused, naming both."""
    data = {"base": base, "lane_values": {lane: {"base": 1, category: units}}}
    assert_error(data, f"lane_values.{lane}.{category}")


# ------------------------------------------------------------------ constants


def test_constants() -> None:
    assert CATEGORY_KEYS[0] == "high_card" and CATEGORY_KEYS[-1] == "five_of_a_kind"
    assert len(CATEGORY_KEYS) == 10
    assert FRONT_CATEGORY_KEYS == ("high_card", "one_pair", "three_of_a_kind")
    assert LANES == ("front", "middle", "back")
    assert SPECIAL_KEYS[0] == "same_suit_dragon" and SPECIAL_KEYS[-1] == "three_flushes"
    assert len(SPECIAL_KEYS) == 13
    assert RuleSet.presets() == list(PRESET_NAMES)


def test_preset_files_match_names() -> None:
    folder = files("thirteen") / "presets"
    shipped = sorted(
        item.name[: -len(".toml")]
        for item in folder.iterdir()
        if item.name.endswith(".toml")
    )
    assert shipped == sorted(PRESET_NAMES)


# -------------------------------------------------------------------- default


def test_default() -> None:
    r = RuleSet.default()
    assert r.name == "default"
    assert r.deck == "standard" and r.deck_size == 52
    assert r.dealt == 13
    assert r.players == (2, 3, 4)
    assert (r.wheel, r.tie_break, r.mode) == ("low", "none", "all_pairs")
    assert r.banker_wins_ties is False
    for lane in LANES:
        assert r.lane_values[lane] == LaneTable(1)
        assert r.lane_value(lane, "three_of_a_kind") == 1
    assert r.majority_bonus == 0
    assert r.scoop == Bonus("none")
    assert r.home_run == HomeRun("none")
    assert r.foul == "reject" and r.foul_counts_as_scoop is False
    assert r.surrender == Surrender(False)
    assert dict(r.specials) == {} and r.special_tiers == ()
    assert r.quads_as_two_pairs is True and r.a23_is_straight is True
    assert r.twelve_royals_from == "J"
    assert r.horse_card is None and r.escape is None and r.swap is None
    assert r.cut is False
    assert RuleSet() == r


def test_plain_dict_defaults() -> None:
    r = RuleSet.from_dict(plain())
    assert r.name == "custom"
    assert dataclasses.replace(r, name="default") == RuleSet.default()


# -------------------------------------------------------------------- presets


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset_loads_and_round_trips(name: str) -> None:
    r = RuleSet.preset(name)
    assert r.name == name
    assert RuleSet.preset(name) is r  # cached
    assert RuleSet.from_dict(r.to_dict()) == r
    assert RuleSet.from_json(r.to_json()) == r
    assert json.loads(r.to_json()) == r.to_dict()
    assert RuleSet.from_dict({"base": name}) == r
    assert hash(r) == hash(RuleSet.from_dict(r.to_dict()))


def test_shisanzhang() -> None:
    r = RuleSet.preset("shisanzhang")
    assert (r.wheel, r.tie_break, r.mode) == ("low", "none", "all_pairs")
    assert_lane_values(r, front={"three_of_a_kind": 7, "one_pair": 1},
                       middle={"four_of_a_kind": 10, "straight_flush": 12, "full_house": 2},
                       back={"four_of_a_kind": 11, "straight_flush": 13, "flush": 3})
    assert r.scoop == Bonus("bonus", 6)
    assert r.home_run == HomeRun("bonus", 12, 4)
    assert r.foul == "reject"
    assert dict(r.specials) == {"dragon": 36}
    assert r.special_tiers == (("dragon",),)
    assert r.cut is True
    assert r.escape is None and r.swap is None


def test_bianfeng() -> None:
    r = RuleSet.preset("bianfeng")
    assert (r.wheel, r.tie_break, r.mode) == ("second", "suit", "all_pairs")
    assert_lane_values(r, front={"three_of_a_kind": 3},
                       middle={"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10},
                       back={"full_house": 1, "four_of_a_kind": 4, "straight_flush": 5})
    assert r.scoop == Bonus("double")
    assert r.home_run == HomeRun("none")
    assert r.foul == "lose_all" and r.foul_counts_as_scoop is False
    assert r.specials["same_suit_dragon"] == 104
    assert dict(r.specials) == {
        "same_suit_dragon": 104,
        "dragon": 52,
        "six_pairs": 3,
        "three_straights": 3,
        "three_flushes": 3,
    }
    assert r.special_tiers == (
        ("same_suit_dragon",),
        ("dragon",),
        ("six_pairs", "three_straights", "three_flushes"),
    )
    assert r.special_tier("three_straights") == 2
    assert r.special_tier("dragon") == 1
    assert r.escape == Escape("split", 18)


def test_luosong() -> None:
    r = RuleSet.preset("luosong")
    assert r.mode == "banker" and r.banker_wins_ties is True and r.tie_break == "none"
    assert [r.lane_values[lane].base for lane in LANES] == [1, 2, 3]
    assert r.lane_value("back", "straight_flush") == 3
    assert r.scoop == Bonus("double")
    assert r.foul == "lose_all" and r.foul_counts_as_scoop is True
    assert dict(r.specials) == {"dragon": 13}


def test_kaixin() -> None:
    r = RuleSet.preset("kaixin")
    assert (r.wheel, r.tie_break, r.mode) == ("low", "none", "all_pairs")
    assert r.lane_value("middle", "full_house") == 2
    assert r.lane_value("back", "full_house") == 1  # falls back to the lane's base
    assert r.lane_value("middle", "straight") == 1
    assert r.lane_value("front", "three_of_a_kind") == 3
    assert r.scoop == Bonus("double")
    assert r.home_run == HomeRun("double", None, 3)
    assert r.foul == "reject"
    assert tuple(r.specials) == SPECIAL_KEYS
    assert r.specials["same_suit_dragon"] == 108
    assert r.specials["twelve_royals"] == 24
    assert r.specials["three_flushes"] == 3
    assert r.special_tiers == tuple((key,) for key in SPECIAL_KEYS)
    assert r.special_tier("three_flushes") == 12
    assert r.escape is not None
    assert r.escape.to == "winner" and r.escape.units is None
    assert dict(r.escape.by_players) == {2: 12, 3: 24, 4: 48}
    assert r.swap is None and r.deck == "standard" and r.dealt == 13


def test_kaixin_swap() -> None:
    r = RuleSet.preset("kaixin-swap")
    assert r.swap == Swap(3)
    kaixin = RuleSet.preset("kaixin")
    assert dataclasses.replace(r, name="kaixin", swap=None) == kaixin


def test_kaixin_extra() -> None:
    r = RuleSet.preset("kaixin-extra")
    assert r.deck == "extra_diamonds" and r.deck_size == 65 and r.dealt == 16
    assert r.lane_value("middle", "five_of_a_kind") == 11
    assert r.lane_value("back", "five_of_a_kind") == 6
    assert r.lane_value("back", "straight_flush") == 5
    assert r.lane_value("front", "three_of_a_kind") == 3  # kept from kaixin
    assert dict(r.specials) == {"same_suit_dragon": 108, "dragon": 36}
    assert r.special_tiers == (("same_suit_dragon",), ("dragon",))
    assert r.home_run == HomeRun("double", None, 3)
    assert r.escape == RuleSet.preset("kaixin").escape


def test_western_2_4() -> None:
    r = RuleSet.preset("western-2-4")
    assert r.majority_bonus == 1
    assert r.scoop == Bonus("none")
    assert all(r.lane_value(lane, "high_card") == 1 for lane in LANES)
    assert r.foul == "lose_all" and r.foul_counts_as_scoop is True
    assert r.surrender == Surrender(True, 3)
    assert dict(r.specials) == {}


def test_western_1_6() -> None:
    r = RuleSet.preset("western-1-6")
    assert r.majority_bonus == 0
    assert r.scoop == Bonus("bonus", 3)
    assert r.lane_value("middle", "straight_flush") == 1
    assert r.foul == "lose_all" and r.foul_counts_as_scoop is True
    assert r.surrender == Surrender(True, 3)


# ---------------------------------------------------------- immutability, api


def test_frozen_and_immutable_mappings() -> None:
    r = RuleSet.preset("kaixin")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.specials["dragon"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        r.lane_values.middle.values["straight"] = 1  # type: ignore[index]
    assert isinstance(hash(r), int)
    assert r.to_dict()["players"] == [2, 3, 4]
    assert isinstance(r.to_dict()["special_tiers"][0], list)


def test_specials_iterate_in_canonical_order() -> None:
    r = RuleSet.from_dict(plain(specials={"six_pairs": 4, "dragon": 36, "all_big": 15}))
    assert list(r.specials) == ["dragon", "all_big", "six_pairs"]
    assert r.special_tiers == (("dragon",), ("all_big",), ("six_pairs",))
    assert list(r.to_dict()["specials"]) == ["dragon", "all_big", "six_pairs"]


def test_tier_members_sorted_canonically() -> None:
    r = RuleSet.from_dict(
        plain(
            specials={"dragon": 36, "six_pairs": 3, "three_flushes": 3},
            special_tiers=[["dragon"], ["three_flushes", "six_pairs"]],
        )
    )
    assert r.special_tiers == (("dragon",), ("six_pairs", "three_flushes"))


def test_players_sorted() -> None:
    assert RuleSet.from_dict(plain(players=[4, 2])).players == (2, 4)


def test_horse_card_canonical() -> None:
    assert RuleSet.from_dict(plain(horse_card="a♠")).horse_card == "As"
    assert RuleSet.from_dict(plain(horse_card="10h")).horse_card == "Th"
    assert RuleSet.from_dict(plain(horse_card="KD")).horse_card == "Kd"
    assert RuleSet.from_dict(plain(horse_card="2♣")).horse_card == "2c"


def test_twelve_royals_from_forms() -> None:
    assert RuleSet.from_dict(plain(twelve_royals_from="T")).twelve_royals_from == "T"
    assert RuleSet.from_dict(plain(twelve_royals_from="10")).twelve_royals_from == "T"
    assert RuleSet.from_dict(plain(twelve_royals_from="j")).twelve_royals_from == "J"


def test_lane_value_bad_arguments() -> None:
    r = RuleSet.preset("kaixin")
    with pytest.raises(RuleSetError) as info:
        r.lane_value("side", "one_pair")
    assert info.value.key == "lane_values.side"
    with pytest.raises(RuleSetError) as info:
        r.lane_value("front", "straight")
    assert info.value.key == "lane_values.front.straight"
    with pytest.raises(RuleSetError) as info:
        r.lane_value("middle", "royal_flush")
    assert info.value.key == "lane_values.middle.royal_flush"


def test_special_tier_unknown() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet.preset("shisanzhang").special_tier("six_pairs")
    assert info.value.key == "specials.six_pairs"


# ------------------------------------------------------- base and overrides


def test_base_override_replaces_lane_table_only() -> None:
    r = RuleSet.from_dict({"base": "kaixin", "lane_values": {"front": {"base": 2}}})
    kaixin = RuleSet.preset("kaixin")
    assert r.lane_values.front == LaneTable(2)
    assert r.lane_value("front", "three_of_a_kind") == 2  # the old entry is gone
    assert r.lane_values.middle == kaixin.lane_values.middle
    assert r.lane_values.back == kaixin.lane_values.back
    assert r.name == "kaixin"  # inherited


def test_base_override_replaces_specials_whole() -> None:
    r = RuleSet.from_dict({"base": "kaixin", "specials": {"six_pairs": 4}})
    assert dict(r.specials) == {"six_pairs": 4}
    assert r.special_tiers == (("six_pairs",),)


def test_base_override_specials_resets_tiers() -> None:
    r = RuleSet.from_dict(
        {"base": "bianfeng", "specials": {"dragon": 52, "six_pairs": 3}}
    )
    assert r.special_tiers == (("dragon",), ("six_pairs",))


def test_base_override_replaces_tables_whole() -> None:
    r = RuleSet.from_dict(
        {
            "base": "shisanzhang",
            "home_run": {"kind": "none"},
            "scoop": {"kind": "double"},
        }
    )
    assert r.home_run == HomeRun("none")
    assert r.scoop == Bonus("double")
    r = RuleSet.from_dict({"base": "kaixin", "escape": {"to": "split", "units": 5}})
    assert r.escape == Escape("split", 5)


def test_base_override_scalars() -> None:
    r = RuleSet.from_dict(
        {"base": "shisanzhang", "wheel": "second", "name": "mine", "cut": False}
    )
    assert r.wheel == "second" and r.name == "mine" and r.cut is False
    assert r.scoop == RuleSet.preset("shisanzhang").scoop


def test_null_removes_optional_table() -> None:
    r = RuleSet.from_dict({"base": "kaixin", "escape": None})
    assert r.escape is None


def test_load_toml(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'base = "kaixin"\n'
        'name = "house"\n'
        "lane_values.front = { base = 2 }\n"
        "specials = { dragon = 40 }\n"
        'horse_card = "A♠"\n'
        "players = [3, 4]\n",
        encoding="utf-8",
    )
    r = RuleSet.load(path)
    kaixin = RuleSet.preset("kaixin")
    assert r.name == "house"
    assert r.lane_values.front == LaneTable(2)
    assert r.lane_values.middle == kaixin.lane_values.middle
    assert r.lane_values.back == kaixin.lane_values.back
    assert dict(r.specials) == {"dragon": 40}
    assert r.horse_card == "As"
    assert r.players == (3, 4)
    assert r.scoop == kaixin.scoop
    assert RuleSet.load(str(path)) == r
    assert RuleSet.from_toml(path.read_text(encoding="utf-8")) == r


def test_load_json_and_json_text(tmp_path: Path) -> None:
    data = {
        "base": "bianfeng",
        "lane_values": {"back": {"base": 2}},
        "specials": {"dragon": 52},
    }
    path = tmp_path / "house.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = RuleSet.load(path)
    bianfeng = RuleSet.preset("bianfeng")
    assert r.lane_values.back == LaneTable(2)
    assert r.lane_values.front == bianfeng.lane_values.front
    assert r.lane_values.middle == bianfeng.lane_values.middle
    assert dict(r.specials) == {"dragon": 52}
    assert r.special_tiers == (("dragon",),)
    assert RuleSet.load(str(path)) == r
    assert RuleSet.from_json(json.dumps(data)) == r


def test_bad_toml_and_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("wheel = \n", encoding="utf-8")
    with pytest.raises(RuleSetError) as info:
        RuleSet.load(path)
    assert info.value.key is None
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_json("{not json")
    assert info.value.key is None
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RuleSetError) as info:
        RuleSet.load(path)
    assert info.value.key is None


def test_replace() -> None:
    kaixin = RuleSet.preset("kaixin")
    r = kaixin.replace(scoop={"kind": "bonus", "units": 2}, horse_card="ah")
    assert r.scoop == Bonus("bonus", 2) and r.horse_card == "Ah"
    assert kaixin.scoop == Bonus("double")  # unchanged
    assert kaixin.replace(scoop=Bonus("none")).scoop == Bonus("none")
    r = kaixin.replace(lane_values={"middle": {"base": 3}})
    assert r.lane_values.middle == LaneTable(3)
    assert r.lane_values.front == kaixin.lane_values.front
    assert kaixin.replace(specials={"dragon": 1}).special_tiers == (("dragon",),)
    assert kaixin.replace(escape=None).escape is None
    with pytest.raises(RuleSetError) as info:
        kaixin.replace(players=[5])
    assert info.value.key == "players"
    with pytest.raises(RuleSetError) as info:
        kaixin.replace(colour="red")
    assert info.value.key == "colour"
    with pytest.raises(RuleSetError) as info:
        kaixin.replace(base="bianfeng")
    assert info.value.key == "base"


def test_constructor_validates() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet(players=(1,))
    assert info.value.key == "players"
    with pytest.raises(RuleSetError) as info:
        dataclasses.replace(RuleSet.default(), majority_bonus=-1)
    assert info.value.key == "majority_bonus"


# ---------------------------------------------------------------- validation


def test_error_root_not_a_table() -> None:
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict(["wheel"])  # type: ignore[arg-type]
    assert info.value.key is None


def test_error_unknown_top_level_key() -> None:
    assert_error(plain(colour="red"), "colour")


def test_error_unknown_key_with_base() -> None:
    assert_error({"base": "kaixin", "wheels": "low"}, "wheels")


def test_error_unknown_nested_keys() -> None:
    assert_error(plain(scoop={"kind": "double", "factor": 2}), "scoop.factor")
    assert_error(plain(home_run={"kind": "none", "bonus": 1}), "home_run.bonus")
    assert_error(plain(surrender={"allowed": False, "cost": 1}), "surrender.cost")
    assert_error(plain(escape={"to": "split", "units": 1, "cap": 2}), "escape.cap")
    assert_error(plain(swap={"max_cards": 3, "min_cards": 1}), "swap.min_cards")
    assert_error(
        plain(specials={"dragon": 1, "royal_flush": 2}), "specials.royal_flush"
    )
    assert_error(
        {"base": "kaixin", "lane_values": {"side": {"base": 1}}}, "lane_values.side"
    )


def test_error_unknown_base() -> None:
    assert_error({"base": "poker"}, "base")
    assert_error({"base": 3}, "base")


def test_error_lane_values_missing() -> None:
    assert_error({"wheel": "low"}, "lane_values")
    assert_error(
        {"lane_values": {"front": {"base": 1}, "middle": {"base": 1}}},
        "lane_values.back",
    )
    lanes = json.loads(json.dumps(FLAT_LANES))
    del lanes["middle"]["base"]
    assert_error({"lane_values": lanes}, "lane_values.middle.base")


def test_error_lane_value_below_one() -> None:
    lanes = json.loads(json.dumps(FLAT_LANES))
    lanes["middle"]["base"] = 0
    assert_error({"lane_values": lanes}, "lane_values.middle.base")
    assert_lane_error("back", "four_of_a_kind", 0)


def test_error_front_category() -> None:
    assert_lane_error("front", "straight", 2)
    assert_lane_error("front", "five_of_a_kind", 2, base="kaixin-extra")


def test_error_unknown_category() -> None:
    assert_lane_error("middle", "royal_flush", 20)


def test_error_five_of_a_kind_needs_extra_deck() -> None:
    assert_lane_error("back", "five_of_a_kind", 6)
    assert_error(
        {"base": "kaixin-extra", "deck": "standard", "dealt": 13},
        "lane_values.middle.five_of_a_kind",
    )
    r = RuleSet.from_dict(
        {
            "base": "kaixin",
            "deck": "extra_diamonds",
            "lane_values": {"back": {"base": 1, "five_of_a_kind": 6}},
        }
    )
    assert r.lane_value("back", "five_of_a_kind") == 6


def test_error_wrong_types() -> None:
    assert_error(plain(dealt=True), "dealt")
    assert_error(plain(dealt="13"), "dealt")
    assert_error(plain(majority_bonus=True), "majority_bonus")
    assert_error(plain(majority_bonus=1.0), "majority_bonus")
    assert_error(plain(banker_wins_ties=1), "banker_wins_ties")
    assert_error(plain(cut="yes"), "cut")
    assert_error(plain(name=7), "name")
    assert_error(plain(players="234"), "players")
    assert_error(plain(players=[2, True]), "players")
    assert_error(plain(scoop="double"), "scoop")
    assert_error(plain(specials={"dragon": "36"}), "specials.dragon")
    assert_error(plain(special_tiers="dragon", specials={"dragon": 1}), "special_tiers")
    assert_error(
        {
            "lane_values": {
                "front": {"base": 1.5},
                "middle": {"base": 1},
                "back": {"base": 1},
            }
        },
        "lane_values.front.base",
    )
    assert_error({"lane_values": [1, 2, 3]}, "lane_values")
    assert_error(plain(quads_as_two_pairs=None), "quads_as_two_pairs")


def test_error_bad_choices() -> None:
    assert_error(plain(deck="jokers"), "deck")
    assert_error(plain(dealt=14), "dealt")
    assert_error(plain(wheel="high"), "wheel")
    assert_error(plain(tie_break="colour"), "tie_break")
    assert_error(plain(mode="solo"), "mode")
    assert_error(plain(foul="pay"), "foul")
    assert_error(plain(scoop={"kind": "triple"}), "scoop.kind")
    assert_error(plain(scoop={"units": 3}), "scoop.kind")


def test_error_majority_bonus_negative() -> None:
    assert_error(plain(majority_bonus=-1), "majority_bonus")


def test_error_special_keys_and_values() -> None:
    assert_error(plain(specials={"royal_flush": 5}), "specials.royal_flush")
    assert_error(plain(specials={"dragon": 0}), "specials.dragon")


def test_error_tier_key_not_in_specials() -> None:
    assert_error(
        {
            "base": "bianfeng",
            "special_tiers": [
                ["same_suit_dragon"],
                ["dragon"],
                ["six_pairs", "all_big"],
            ],
        },
        "special_tiers",
    )
    assert_error(
        plain(specials={"dragon": 1}, special_tiers=[["dragon"], ["bogus"]]),
        "special_tiers",
    )


def test_error_special_missing_from_tiers() -> None:
    assert_error(
        {"base": "bianfeng", "special_tiers": [["same_suit_dragon"], ["dragon"]]},
        "special_tiers",
    )


def test_error_special_twice_in_tiers() -> None:
    assert_error(
        plain(
            specials={"dragon": 1, "six_pairs": 1},
            special_tiers=[["dragon", "six_pairs"], ["dragon"]],
        ),
        "special_tiers",
    )
    assert_error(
        plain(specials={"dragon": 1}, special_tiers=[["dragon"], []]), "special_tiers"
    )


def test_error_players() -> None:
    assert_error(plain(players=[2, 5]), "players")
    assert_error(plain(players=[1]), "players")
    assert_error(plain(players=[]), "players")
    assert_error(plain(players=[2, 3, 3]), "players")


def test_error_dealt_over_deck() -> None:
    assert_error(plain(dealt=16), "dealt")  # 16 x 4 = 64 > 52
    assert RuleSet.from_dict(plain(dealt=16, players=[2, 3])).dealt == 16  # 48 ≤ 52
    assert (
        RuleSet.from_dict(plain(dealt=16, deck="extra_diamonds")).dealt == 16
    )  # 64 ≤ 65
    assert_error(
        {"base": "kaixin-extra", "deck": "standard", "lane_values": FLAT_LANES}, "dealt"
    )


def test_error_banker_wins_ties_outside_banker_mode() -> None:
    assert_error(plain(banker_wins_ties=True), "banker_wins_ties")
    assert_error({"base": "luosong", "mode": "all_pairs"}, "banker_wins_ties")


def test_error_banker_wins_ties_with_suit() -> None:
    assert_error({"base": "luosong", "tie_break": "suit"}, "banker_wins_ties")
    r = RuleSet.from_dict(
        {"base": "luosong", "tie_break": "suit", "banker_wins_ties": False}
    )
    assert r.tie_break == "suit"


def test_error_bonus_without_units() -> None:
    assert_error(plain(scoop={"kind": "bonus"}), "scoop.units")
    assert_error(plain(scoop={"kind": "bonus", "units": 0}), "scoop.units")
    assert_error(plain(scoop={"kind": "double", "units": 2}), "scoop.units")
    assert_error(plain(home_run={"kind": "bonus", "min_players": 3}), "home_run.units")


def test_error_home_run_min_players() -> None:
    assert_error(plain(home_run={"kind": "double"}), "home_run.min_players")
    assert_error(plain(home_run={"kind": "bonus", "units": 5}), "home_run.min_players")
    assert_error(
        plain(home_run={"kind": "double", "min_players": 2}), "home_run.min_players"
    )
    assert_error(
        plain(home_run={"kind": "none", "min_players": 3}), "home_run.min_players"
    )
    assert RuleSet.from_dict(
        plain(home_run={"kind": "bonus", "units": 5, "min_players": 3})
    ).home_run == HomeRun("bonus", 5, 3)


def test_error_surrender_without_units() -> None:
    assert_error(plain(surrender={"allowed": True}), "surrender.units")
    assert_error(plain(surrender={"allowed": True, "units": 0}), "surrender.units")
    assert_error(plain(surrender={"units": 3}), "surrender.allowed")


def test_error_escape_split_needs_units() -> None:
    assert_error(plain(escape={"to": "split"}), "escape.units")
    assert_error(plain(escape={"to": "split", "units": 0}), "escape.units")
    assert_error(
        plain(escape={"to": "split", "units": 3, "by_players": {"2": 1}}),
        "escape.by_players",
    )
    assert_error(plain(escape={"units": 3}), "escape.to")
    assert_error(plain(escape={"to": "loser", "units": 3}), "escape.to")


def test_error_escape_winner_needs_by_players() -> None:
    assert_error(plain(escape={"to": "winner"}), "escape.by_players")
    assert_error(
        plain(escape={"to": "winner", "by_players": {"2": 12, "3": 24}}),
        "escape.by_players",
    )
    assert_error(
        plain(escape={"to": "winner", "units": 5, "by_players": {"2": 1}}),
        "escape.units",
    )
    assert_error(
        plain(escape={"to": "winner", "by_players": {"2": 1, "3": 1, "4": 1, "5": 1}}),
        "escape.by_players.5",
    )
    assert_error(
        plain(escape={"to": "winner", "by_players": {"2": 1, "3": 0, "4": 1}}),
        "escape.by_players.3",
    )
    r = RuleSet.from_dict(
        plain(players=[2, 3], escape={"to": "winner", "by_players": {2: 12, "3": 24}})
    )
    assert r.escape is not None and dict(r.escape.by_players) == {2: 12, 3: 24}
    assert r.to_dict()["escape"] == {"to": "winner", "by_players": {"2": 12, "3": 24}}


def test_error_horse_card() -> None:
    for bad in ("1h", "Ahh", "A", "Ax", "", 14):
        assert_error(plain(horse_card=bad), "horse_card")


def test_error_twelve_royals_from() -> None:
    assert_error(plain(twelve_royals_from="Q"), "twelve_royals_from")
    assert_error(plain(twelve_royals_from=11), "twelve_royals_from")


def test_error_swap_max_cards() -> None:
    assert_error(plain(swap={"max_cards": 0}), "swap.max_cards")
    assert_error(plain(swap={"max_cards": 14}), "swap.max_cards")
    assert_error(plain(swap={}), "swap.max_cards")
    assert RuleSet.from_dict(plain(swap={"max_cards": 13})).swap == Swap(13)


def test_error_order_is_deterministic() -> None:
    data = plain(colour="red", wheel="high", majority_bonus=-1)
    assert assert_error(data, "colour")
    data = plain(wheel="high", majority_bonus=-1)
    assert assert_error(data, "wheel")
