"""The boundary of the compiled core (issue 9): whatever a caller sends, the answer is right or
the error is a documented ``ThirteenError`` subclass or a ``TypeError``.

numpy inputs in any memory layout, the numeric bounds that keep every amount exact (README,
"Numeric bounds"), raw hand values, integers of any size, and the ``rules`` argument.
Expected values are worked out by hand from RULES.md.
"""

from __future__ import annotations

import numpy as np
import pytest

import thirteen
import thirteen.reference
from thirteen import (
    Arrangement,
    Card,
    Category,
    CardError,
    HandValue,
    LimitError,
    PlayerCountError,
    Rank,
    RuleSet,
    RuleSetError,
    SurrenderError,
    ThirteenError,
)
from thirteen import _core
from thirteen.limits import MAX_RULE_UNITS, MAX_STAKE, MAX_STAKE_MULTIPLIER, MAX_UNITS


def layouts(a: np.ndarray) -> list:
    """The same logical array in other memory layouts: Fortran order, a transposed copy
    transposed back, and a strided view."""
    axes = tuple(reversed(range(a.ndim)))
    strided = np.repeat(a, 2, axis=0)[::2]
    out = [np.asfortranarray(a), np.ascontiguousarray(a.transpose(axes)).transpose(axes), strided]
    for b in out:
        assert (b == a).all() and not b.flags.c_contiguous
    return out


# --------------------------------------------------------------------------- numpy layouts


def test_evaluate_batch_reads_rows_as_indexed_in_any_layout() -> None:
    # 2d 3d 4d 5d 6c and 2c 3c 4c 5c 6h: straights to the six; Ad Ac Ah As Kd: four aces.
    a = np.array([[0, 4, 8, 12, 17], [1, 5, 9, 13, 18], [48, 49, 50, 51, 44]], np.uint8)
    for b in [a, *layouts(a)]:
        values = [HandValue.from_raw(int(v)) for v in thirteen.evaluate_batch(b)]
        assert [v.category for v in values] == [
            Category.STRAIGHT,
            Category.STRAIGHT,
            Category.FOUR_OF_A_KIND,
        ]
        assert [v.high for v in values] == [Rank.SIX, Rank.SIX, Rank.ACE]


def test_evaluate_batch_refuses_other_arrays_by_type() -> None:
    a = np.array([[0, 4, 8, 12, 17]])
    for bad in [a.astype(np.int64), a.astype(np.uint16), a[0].astype(np.uint8), [[0, 4, 8, 12, 17]]]:
        with pytest.raises(TypeError, match="uint8"):
            thirteen.evaluate_batch(bad)
    with pytest.raises(thirteen.CountError):
        thirteen.evaluate_batch(np.zeros((2, 4), np.uint8))
    with pytest.raises(thirteen.CountError):
        thirteen.evaluate_batch(np.zeros((2, 0), np.uint8))
    assert thirteen.evaluate_batch(np.zeros((0, 5), np.uint8)).shape == (0,)


# Four seats; seat 0 wins every lane against everyone (RULES.md 5 worked by hand below).
TABLE = [
    "Ah Ad Ac | Kh Kd Kc Ks 2c | Qs Js Ts 9s 8s",  # trips A, quad K, Q-high straight flush
    "Qh Qd Qc | Jh Jd Jc 2d 2h | 7s 6s 5s 4s 3s",  # trips Q, jacks full, 7-high straight flush
    "Th Td Tc | 8h 8d 8c 7h 7d | 9h 9d 9c 6h 6d",  # trips T, eights full, nines full
    "As 7c 6c | 3h 3d 3c 2s 4h | 5h 5d 5c 4d 4c",  # ace high, trips 3, fives full
]


def extreme_rules(**over: object) -> RuleSet:
    """Every lane worth the largest amount; scoop, home run and the horse card all double."""
    top = {"base": MAX_RULE_UNITS}
    return RuleSet.from_dict(
        {
            "base": "kaixin",
            "lane_values": {"front": top, "middle": top, "back": top},
            "scoop": {"kind": "double"},
            "home_run": {"kind": "double", "min_players": 3},
            "horse_card": "Ah",
            **over,
        }
    )


# Seat 0 scoops each opponent: 3 × 10,000 lanes, doubled by the scoop (60,000), by its home
# run (120,000) and by the horse card it holds (240,000), three times: +720,000. Seat 1
# scoops seats 2 and 3 (60,000 each), seat 2 scoops seat 3.
EXTREME_TOTALS = [720_000, -240_000 + 120_000, -240_000 - 60_000 + 60_000, -240_000 - 120_000]


def test_the_largest_amounts_settle_exactly() -> None:
    rules = extreme_rules()
    assert rules.majority_bonus == 0
    table = [Arrangement.parse(t) for t in TABLE]
    result = thirteen.settle(table, rules)
    assert result.totals == EXTREME_TOTALS
    assert result.home_runs == [0]
    # Banker mode, stake multipliers at their bound: 240,000 × 1,000 per pair.
    banker = extreme_rules(mode="banker")
    stakes = [1, MAX_STAKE_MULTIPLIER, MAX_STAKE_MULTIPLIER, MAX_STAKE_MULTIPLIER]
    worst = thirteen.settle(table, banker, banker=0, stakes=stakes).totals
    assert worst == [720_000_000, -240_000_000, -240_000_000, -240_000_000]
    # ... and its money at the largest stake is exact: 7.2 × 10^17 minor units.
    assert thirteen.money(worst, MAX_STAKE) == [w * MAX_STAKE for w in worst]


def test_settle_batch_reads_tables_as_indexed_in_any_layout() -> None:
    rules = extreme_rules()
    seats = [[c.code for c in Arrangement.parse(t).cards] for t in TABLE]
    a = np.array([seats, seats[::-1]], np.uint8)  # the same table, seats reversed
    for b in [a, *layouts(a)]:
        totals = thirteen.settle_batch(b, rules)
        assert totals.tolist() == [EXTREME_TOTALS, EXTREME_TOTALS[::-1]]
    with pytest.raises(TypeError, match="uint8"):
        thirteen.settle_batch(a.astype(np.int32), rules)
    with pytest.raises(thirteen.CountError):
        thirteen.settle_batch(a[:, :, :12], rules)
    with pytest.raises(PlayerCountError):
        thirteen.settle_batch(np.zeros((3, 0, 13), np.uint8), rules)


# --------------------------------------------------------------------------- numeric bounds


def test_money_bounds() -> None:
    # 3 × 2**62 wraps in 64 bits and would pay the loser.
    with pytest.raises(LimitError) as err:
        thirteen.money([3, -3], 2**62)
    assert err.value.key == "stake" and err.value.maximum == MAX_STAKE
    for stake in [2**63, 2**200, -1, MAX_STAKE + 1]:
        with pytest.raises(LimitError):
            thirteen.money([1], stake)
    for units in [MAX_UNITS + 1, -MAX_UNITS - 1, 2**64]:
        with pytest.raises(LimitError):
            thirteen.money([units], 1)
    top = MAX_UNITS * MAX_STAKE
    assert thirteen.money([MAX_UNITS, -MAX_UNITS], MAX_STAKE) == [top, -top]
    with pytest.raises(LimitError):
        thirteen.money([1], 1, (5, -1))
    with pytest.raises(LimitError):
        thirteen.money([1], 1, (5, 2**63))
    for rake in [(), (5,), (5, None, 1), "5", [5, None]]:
        with pytest.raises(TypeError, match="rake"):
            thirteen.money([1], 1, rake)
    with pytest.raises(TypeError):
        thirteen.money([1], 1, (5, "10"))
    with pytest.raises(TypeError):
        thirteen.money([1.5], 1)
    with pytest.raises(TypeError):
        thirteen.money([1], True)


def test_rake_percentages_are_exact_decimals_from_0_to_100() -> None:
    # A huge percent used to overflow and mint money; "-0.5" was read as 0.5 %.
    for percent in ["1000000000000000000.5", "-0.5", "100.01", 101, 2**70]:
        with pytest.raises(LimitError) as err:
            thirteen.money([100], 1, (percent, None))
        assert err.value.key == "rake percent"
    for percent in ["abc", "1e2", "1/2", "", True, 1e20, None]:
        with pytest.raises(ThirteenError):
            thirteen.money([100], 1, (percent, None))
    # 2.5 % of 1,000 is 25; 100 % takes everything; "-0" is zero.
    assert thirteen.money([10, -10], 100, ("2.5", None)) == [975, -1000]
    assert thirteen.money([10, -10], 100, (2.5, None)) == [975, -1000]
    assert thirteen.money([10, -10], 100, ("100", None)) == [0, -1000]
    assert thirteen.money([10, -10], 100, ("-0", None)) == [1000, -1000]


def test_rule_set_amounts_are_bounded() -> None:
    assert extreme_rules().lane_value("back", "high_card") == MAX_RULE_UNITS
    cases = {
        "lane_values.back.base": {"lane_values": {"back": {"base": MAX_RULE_UNITS + 1}}},
        "majority_bonus": {"majority_bonus": 2**62},
        "scoop.units": {"scoop": {"kind": "bonus", "units": 2**63}},
        "specials.dragon": {"specials": {"dragon": 2**64}},
        "escape.units": {"escape": {"to": "split", "units": 2**70}},
    }
    for key, over in cases.items():
        with pytest.raises(RuleSetError) as err:
            RuleSet.from_dict({"base": "kaixin", **over})
        assert err.value.key == key
    # The core's own rules object refuses the same, naming the key (its three lane tables
    # are required, as in a rule-set file).
    with pytest.raises(RuleSetError) as err:
        _core.Rules(
            '{"lane_values":{"front":{"base":1},"middle":{"base":1,"flush":4611686018427387904},'
            '"back":{"base":1}}}'
        )
    assert err.value.key == "lane_values.middle.flush"
    with pytest.raises(RuleSetError) as err:
        _core.Rules('{"players":[0]}')
    assert err.value.key == "players"


def test_stake_multipliers_are_bounded() -> None:
    banker = RuleSet.preset("luosong")
    table = [Arrangement.parse(t) for t in TABLE]
    for stakes in [[1, 0, 1, 1], [1, MAX_STAKE_MULTIPLIER + 1, 1, 1], [1, 2**63, 1, 1]]:
        with pytest.raises(LimitError) as err:
            thirteen.settle(table, banker, banker=0, stakes=stakes)
        assert err.value.key.startswith("stakes")


# --------------------------------------------------------------------------- raw hand values


def test_raw_hand_values_are_checked() -> None:
    for raw in [0, 5 << 28, 10 << 28, 2**32 - 1]:
        with pytest.raises(ThirteenError):
            HandValue.from_raw(raw)
    for raw in [-1, 2**32, 2**64]:
        with pytest.raises(LimitError):
            HandValue.from_raw(raw)
    with pytest.raises(ThirteenError, match="4-card"):
        HandValue.from_raw(pair_value := thirteen.evaluate("Qs Qd 4c").value, 4)
    with pytest.raises(LimitError):
        HandValue.from_raw(pair_value, -3)
    with pytest.raises(TypeError):
        HandValue.from_raw("0")
    # Every value the engine hands out comes back, front values as size 3 only.
    pair = thirteen.evaluate("Qs Qd 4c")
    assert HandValue.from_raw(pair.value, 3) == pair
    assert str(HandValue.from_raw(pair.value, 3)) == "one pair, queens"
    with pytest.raises(ThirteenError):
        HandValue.from_raw(pair.value, 5)
    quads = thirteen.evaluate("Ad Ac Ah As Kd")
    assert HandValue.from_raw(quads.value).ranks == (Rank.ACE, Rank.KING)


# --------------------------------------------------------------------------- integers and types


def test_integers_of_any_size_raise_documented_errors() -> None:
    with pytest.raises(PlayerCountError):  # as any table size the rules do not allow
        thirteen.deal(players=-1)
    with pytest.raises(PlayerCountError):
        thirteen.deal(players=2**63)
    with pytest.raises(PlayerCountError):
        thirteen.deal(players=5)
    with pytest.raises(PlayerCountError):
        thirteen.settle([], banker=-1)  # the table size is checked first
    table = [Arrangement.parse(t) for t in TABLE]
    with pytest.raises(ThirteenError, match="banker seat -1"):
        thirteen.settle(table, banker=-1)
    with pytest.raises(LimitError):
        thirteen.settle(table, banker=2**64)
    with pytest.raises(SurrenderError):
        thirteen.settle(table, RuleSet.preset("western-2-4"), surrendered=[-1])
    with pytest.raises(LimitError):
        thirteen.validate_hand("As Kd", size=-1)
    with pytest.raises(CardError):
        Card.from_code(2**63)
    with pytest.raises(CardError):
        Card.from_code(-1)
    with pytest.raises(ThirteenError, match="leaver seat -1"):
        thirteen.escape_payments(RuleSet.preset("bianfeng"), -1, [0, 0])
    with pytest.raises(LimitError):
        thirteen.escape_payments(RuleSet.preset("kaixin"), 0, [None, 2**70])
    with pytest.raises(TypeError):
        thirteen.settle(table, banker=True)


def test_rules_argument() -> None:
    with pytest.raises(TypeError, match="rules must be"):
        thirteen.evaluate("As Ks Qs", False)

    class Broken:
        @property
        def _core(self) -> object:
            raise RuleSetError("not playable", key="players")

    with pytest.raises(RuleSetError):
        thirteen.deck(Broken())


def test_enums_iterate_and_are_what_the_core_hands_out() -> None:
    assert [int(r) for r in Rank] == list(range(2, 15))
    assert len(thirteen.Suit) == 4 and len(Category) == 10
    assert [c.key for c in Category][:2] == ["high_card", "one_pair"]
    for code in range(52):
        card = Card.from_code(code)
        assert card.rank is Rank(code // 4 + 2) and card.suit is thirteen.Suit(code % 4)
        assert str(card) == card.rank.char + card.suit.char
    # The core takes their values as ints.
    assert Card.from_code((Rank.ACE - 2) * 4 + thirteen.Suit.SPADES) == Card("As")


# --------------------------------------------------------------------------- text that is not Unicode
#
# A str holding a lone surrogate ("\ud800") cannot be encoded as UTF-8. Card text is then a
# CardError naming the first unreadable token (RULES.md 1: no token holds such a character),
# any other text a ThirteenError naming the argument; never a UnicodeEncodeError.

HAND13 = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Kc"


def _not_unicode_error(err: BaseException) -> None:
    assert not isinstance(err, UnicodeError), repr(err)


@pytest.mark.parametrize(
    "call, position",
    [
        (lambda: thirteen.parse_cards("As A\ud800 Kd"), 1),
        (lambda: Card("A\ud800"), 0),
        (lambda: Card.parse("\udcff"), 0),
        (lambda: thirteen.evaluate({"\ud800": None}), 0),
        (lambda: thirteen.evaluate(["As", "K\ud800", "Qs", "Js", "Ts"]), 1),
        (lambda: thirteen.evaluate("As Ks Qs Js T\ud800"), 4),
        (lambda: thirteen.format_cards("7h \ud800"), 1),
        (lambda: thirteen.validate_hand(["As", "\ud800s"]), 1),
        (lambda: thirteen.count_splits(HAND13[:-2] + "K\udc80"), 12),
        (lambda: thirteen.hints(HAND13[:-2] + "K\udc80"), 12),
        (lambda: Arrangement.parse("Ah Ad Kc | Jh Jd Jc 5s 5\ud800 | Qs Qh Qd 9c 9d"), 7),
        (lambda: Arrangement("Ah Ad \ud800", "Jh Jd Jc 5s 5h", "Qs Qh Qd 9c 9d"), 2),
        (lambda: thirteen.Declaration(["\ud800"] * 13), 0),
    ],
)
def test_card_text_with_a_lone_surrogate_is_a_card_error(call: object, position: int) -> None:
    with pytest.raises(CardError) as info:
        call()  # type: ignore[operator]
    _not_unicode_error(info.value)
    assert info.value.position == position
    assert info.value.token.count("\ufffd") == 1  # the surrogate, as one replacement character


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: thirteen.Declaration(HAND13, "dragon\ud800"), "special"),
        (lambda: thirteen.money([1, -1], 5, ("5\ud800", None)), "rake percent"),
        (
            lambda: thirteen.solve_batch(np.zeros((1, 13), np.uint8), strategy="ev\ud800"),
            "strategy",
        ),
        (lambda: _core._restore("Deal\ud800", "{}"), "kind"),
        (lambda: _core._restore("Deal", '{"\ud800": 1}'), "json"),
    ],
)
def test_other_text_with_a_lone_surrogate_is_a_thirteen_error_naming_it(
    call: object, name: str
) -> None:
    with pytest.raises(ThirteenError, match=name) as info:
        call()  # type: ignore[operator]
    _not_unicode_error(info.value)
    assert r"\ud800" in str(info.value)  # shown as Python writes it


def test_rules_text_with_a_lone_surrogate_is_a_rule_set_error() -> None:
    with pytest.raises(RuleSetError) as info:
        _core.Rules('{"name": "\ud800"}')
    _not_unicode_error(info.value)
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict({"base": "kaixin", "name": "house \ud800"})
    assert info.value.key == "name"
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_json('{"base": "kaixin", "name": "\\ud800"}')
    assert info.value.key == "name"
    with pytest.raises(RuleSetError) as info:
        RuleSet.from_dict({"base": "kaixin", "horse_card": "A\ud800"})
    assert info.value.key == "horse_card"


def test_text_arguments_of_another_type_stay_type_errors() -> None:
    with pytest.raises(TypeError):
        Card(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        thirteen.Declaration(HAND13, 7)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        thirteen.solve_batch(np.zeros((1, 13), np.uint8), strategy=1)  # type: ignore[arg-type]


def test_unknown_batch_strategy_is_a_thirteen_error() -> None:
    with pytest.raises(ThirteenError, match="strategy"):
        thirteen.solve_batch(np.zeros((1, 13), np.uint8), strategy="mc")


# --------------------------------------------------------------------------- table sizes


@pytest.mark.parametrize("players", [-1, -(2**63), 0, 1, 5, 2**63, 2**70])
def test_any_disallowed_table_size_is_a_player_count_error_as_in_the_reference(
    players: int,
) -> None:
    # RULES.md 1: a table seats 2 to 4 players, as `players` allows; anything else, negative
    # or beyond 64 bits included, is the same kind of mistake.
    with pytest.raises(PlayerCountError) as core_err:
        thirteen.deal(RuleSet.preset("kaixin"), players, seed=1)
    with pytest.raises(PlayerCountError) as ref_err:
        thirteen.reference.deal(RuleSet.preset("kaixin"), players, seed=1)
    for err in (core_err.value, ref_err.value):
        assert err.got == players and tuple(err.allowed) == (2, 3, 4)
    with pytest.raises(PlayerCountError) as info:
        thirteen.build_tables(players=players, deals=1, iterations=1)
    assert info.value.got == players


@pytest.mark.parametrize("players", [True, 4.0, "4", None])
def test_a_table_size_that_is_not_an_integer_is_a_type_error_in_both(players: object) -> None:
    for deal in (thirteen.deal, thirteen.reference.deal):
        with pytest.raises(TypeError):
            deal(RuleSet.preset("kaixin"), players, seed=1)  # type: ignore[operator]


def test_build_tables_bounds_its_counts() -> None:
    for bad in (0, -1, 10**8 + 1, 2**64):
        with pytest.raises(LimitError, match="deals"):
            thirteen.build_tables(deals=bad, iterations=1)
    for bad in (0, -1, 10**4 + 1):
        with pytest.raises(LimitError, match="iterations"):
            thirteen.build_tables(deals=1, iterations=bad)
    for seed in (-1, 2**64):
        with pytest.raises(ThirteenError, match="seed"):
            thirteen.build_tables(deals=1, iterations=1, seed=seed)
    with pytest.raises(TypeError):
        thirteen.build_tables(deals=1.5, iterations=1)  # type: ignore[arg-type]


def test_tables_are_built_only_for_a_table_size_the_rules_allow() -> None:
    # 16 cards each for 4 players is 64 cards: more than the 52 of the standard deck, which is
    # why these rules seat 2 or 3 (RULES.md 6); asking for 4 is a PlayerCountError, not a panic.
    rules = RuleSet.from_dict({"base": "kaixin", "dealt": 16, "players": [2, 3]})
    with pytest.raises(PlayerCountError) as info:
        thirteen.build_tables(rules, players=4, deals=10, iterations=1)
    assert info.value.got == 4 and tuple(info.value.allowed) == (2, 3)
    with pytest.raises(PlayerCountError):
        _core.train(rules, players=4, deals=10, iterations=1, tolerance=0.0, seed=0)


def test_a_huge_table_size_that_writes_itself_oddly_is_still_a_player_count_error() -> None:
    class Odd(int):
        def __str__(self) -> str:
            return "odd"

    with pytest.raises(PlayerCountError):
        thirteen.deal(players=Odd(2**70))
