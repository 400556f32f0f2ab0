"""Cards, hand values, lane comparison, fouls and arrangements (RULES.md 1-3, spec/API.md).

Every test runs on both implementations (fixture ``impl``: the Rust core and
``thirteen.reference``). Every expected value below is taken from RULES.md / API.md
or computed by hand in the comment next to it, never from an implementation's output.
Ranks and categories are compared through their text (``Rank.char``, ``Category.key``)
so that the same expectation serves both implementations' enum classes.
"""

from __future__ import annotations

import itertools
import random
from typing import Any, List, Sequence

import pytest

from thirteen.errors import CardError, CountError, DuplicateCardError, ThirteenError
from thirteen.rules import RuleSet

DEFAULT = RuleSet.default()
SECOND = RuleSet.default().replace(wheel="second")
EXTRA = RuleSet.preset("kaixin-extra")  # extra_diamonds deck, wheel low, tie_break none
SUIT = RuleSet.default().replace(tie_break="suit")
SUIT_SECOND = RuleSet.preset("bianfeng")  # wheel second, tie_break suit
EXTRA_SUIT = RuleSet.preset("kaixin-extra").replace(tie_break="suit")


# ---------------------------------------------------------------------------
# helpers


def texts(cards: Sequence[Any]) -> List[str]:
    return [str(c) for c in cards]


def ranks(value: Any) -> str:
    """The deciding ranks as text, e.g. "QA94"."""
    return "".join(r.char for r in value.ranks)


def ev(impl: Any, text: str, rules: Any = None) -> Any:
    return impl.evaluate(impl.parse_cards(text), rules)


def describe(value: Any) -> tuple:
    return (value.category.key, ranks(value))


# ---------------------------------------------------------------------------
# RULES.md 1: ranks, suits, card text


def test_rank_values_and_chars(impl: Any) -> None:
    R = impl.Rank
    expected = [
        ("TWO", 2, "2"), ("THREE", 3, "3"), ("FOUR", 4, "4"), ("FIVE", 5, "5"),
        ("SIX", 6, "6"), ("SEVEN", 7, "7"), ("EIGHT", 8, "8"), ("NINE", 9, "9"),
        ("TEN", 10, "T"), ("JACK", 11, "J"), ("QUEEN", 12, "Q"), ("KING", 13, "K"),
        ("ACE", 14, "A"),
    ]  # fmt: skip
    for name, number, char in expected:
        rank = getattr(R, name)
        assert int(rank) == number
        assert rank.char == char


def test_suit_values_chars_glyphs(impl: Any) -> None:
    S = impl.Suit
    # API.md: DIAMONDS=0, CLUBS=1, HEARTS=2, SPADES=3 (tie-break order ♠ > ♥ > ♣ > ♦).
    for name, number, char, glyph in [
        ("DIAMONDS", 0, "d", "♦"),
        ("CLUBS", 1, "c", "♣"),
        ("HEARTS", 2, "h", "♥"),
        ("SPADES", 3, "s", "♠"),
    ]:
        suit = getattr(S, name)
        assert int(suit) == number
        assert suit.char == char
        assert suit.glyph == glyph


def test_category_values_and_keys(impl: Any) -> None:
    keys = [
        "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
        "full_house", "four_of_a_kind", "straight_flush", "five_of_a_kind",
    ]  # fmt: skip
    for number, key in enumerate(keys):
        cat = getattr(impl.Category, key.upper())
        assert int(cat) == number
        assert cat.key == key


@pytest.mark.parametrize(
    "text",
    [
        "As Kd 10c",
        "As Kd Tc",
        "AS,KD,TC",
        "as kd tc",
        "a♠ k♦ t♣",
        "A♠ K♦ 10♣",
        "A♤ K♢ T♧",  # white glyphs
        "a♤,k♢,10♧",
        " ,As,, Kd\t\n10c , ",  # any run of whitespace and/or commas, leading/trailing ignored
        "aS kD tC",
    ],
)
def test_parse_spellings(impl: Any, text: str) -> None:
    cards = impl.parse_cards(text)
    assert texts(cards) == ["As", "Kd", "Tc"]
    assert [c.rank.char for c in cards] == ["A", "K", "T"]
    assert [c.suit.char for c in cards] == ["s", "d", "c"]


def test_parse_all_52_each_spelling(impl: Any) -> None:
    rank_spellings = {
        "2": ["2"], "3": ["3"], "4": ["4"], "5": ["5"], "6": ["6"], "7": ["7"], "8": ["8"],
        "9": ["9"], "T": ["T", "t", "10"], "J": ["J", "j"], "Q": ["Q", "q"],
        "K": ["K", "k"], "A": ["A", "a"],
    }  # fmt: skip
    suit_spellings = {
        "s": ["s", "S", "♠", "♤"],
        "h": ["h", "H", "♥", "♡"],
        "c": ["c", "C", "♣", "♧"],
        "d": ["d", "D", "♦", "♢"],
    }
    for r, rs in rank_spellings.items():
        for s, ss in suit_spellings.items():
            for rtext, stext in itertools.product(rs, ss):
                (card,) = impl.parse_cards(rtext + stext)
                assert str(card) == r + s, rtext + stext
                assert impl.Card.parse(rtext + stext) == card


def test_parse_empty(impl: Any) -> None:
    assert impl.parse_cards("") == []
    assert impl.parse_cards("  , ,\t\n") == []


def test_card_text_glyph_repr_code(impl: Any) -> None:
    cards = impl.parse_cards("As Th 2c 9d Kh")
    assert [str(c) for c in cards] == ["As", "Th", "2c", "9d", "Kh"]
    assert [repr(c) for c in cards] == ["As", "Th", "2c", "9d", "Kh"]
    assert [c.glyph for c in cards] == ["A♠", "T♥", "2♣", "9♦", "K♥"]
    # code = (rank - 2) * 4 + suit: As = 12*4+3 = 51, Th = 8*4+2 = 34, 2c = 1,
    # 9d = 7*4+0 = 28, Kh = 11*4+2 = 46.
    assert [c.code for c in cards] == [51, 34, 1, 28, 46]
    assert impl.format_cards(cards) == "As Th 2c 9d Kh"
    assert impl.format_cards(cards, glyphs=True) == "A♠ T♥ 2♣ 9♦ K♥"
    assert impl.format_cards([]) == ""


def test_card_equality_hash_from_code(impl: Any) -> None:
    a = impl.Card.parse("10h")
    b = impl.parse_cards("th")[0]
    c = impl.Card.parse("Td")
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert impl.Card.from_code(0) == impl.Card.parse("2d")
    assert impl.Card.from_code(51) == impl.Card.parse("As")
    assert [str(impl.Card.from_code(i)) for i in range(4)] == ["2d", "2c", "2h", "2s"]


def test_card_is_frozen(impl: Any) -> None:
    card = impl.Card.parse("As")
    with pytest.raises((AttributeError, TypeError)):
        card.rank = impl.Rank.TWO  # type: ignore[misc]


@pytest.mark.parametrize(
    "text, token, position",
    [
        ("Xx", "Xx", 0),
        ("As Xs Kd", "Xs", 1),
        ("As Kd 1h", "1h", 2),
        ("Ahh", "Ahh", 0),
        ("As,Kd,10", "10", 2),
        ("A", "A", 0),
        ("h", "h", 0),
        ("11h", "11h", 0),
        ("1", "1", 0),
        ("AsKd", "AsKd", 0),  # no separator: one token
        ("As ,, Kd , Tx", "Tx", 2),  # separators are not tokens
        ("As A♠♠", "A♠♠", 1),
        ("As 10s 100s", "100s", 2),
        ("Qs Bs", "Bs", 1),
        ("2s 1s", "1s", 1),
        ("♠A", "♠A", 0),  # suit before rank
        ("As | Kd", "|", 1),
        ("As Kd Qc Xx Yy", "Xx", 3),  # the first bad token is named
    ],
)
def test_bad_tokens(impl: Any, text: str, token: str, position: int) -> None:
    with pytest.raises(CardError) as info:
        impl.parse_cards(text)
    err = info.value
    assert err.token == token
    assert err.position == position
    assert err.kind == "bad_card"
    assert isinstance(err, ValueError)
    assert isinstance(err, ThirteenError)
    assert token in str(err)


def test_card_parse_bad(impl: Any) -> None:
    with pytest.raises(CardError) as info:
        impl.Card.parse("Zz")
    assert info.value.token == "Zz"
    assert info.value.kind == "bad_card"


# ---------------------------------------------------------------------------
# decks and validate_hand


def test_deck_sizes_and_order(impl: Any) -> None:
    std = impl.deck()
    assert len(std) == 52
    assert [c.code for c in std] == list(range(52))
    assert len(set(std)) == 52
    assert texts(impl.deck(DEFAULT)) == texts(std)
    extra = impl.deck(EXTRA)
    assert len(extra) == 65
    assert texts(extra[:52]) == texts(std)
    assert texts(extra[52:]) == [r + "d" for r in "23456789TJQKA"]
    assert len(set(extra)) == 52


def test_validate_ok(impl: Any) -> None:
    hand = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    assert impl.validate_hand(hand) is None
    assert impl.validate_hand(impl.parse_cards(hand), DEFAULT) is None
    assert impl.validate_hand("As Kd Qh", size=3) is None


@pytest.mark.parametrize("n", [0, 1, 12, 14])
def test_validate_wrong_count(impl: Any, n: int) -> None:
    cards = impl.deck()[:n]
    with pytest.raises(CountError) as info:
        impl.validate_hand(cards)
    assert info.value.expected == 13
    assert info.value.got == n
    assert info.value.kind == "wrong_count"
    assert isinstance(info.value, ValueError)


def test_validate_wrong_count_size(impl: Any) -> None:
    with pytest.raises(CountError) as info:
        impl.validate_hand("As Kd Qh Jc", size=5)
    assert (info.value.expected, info.value.got) == (5, 4)


def test_validate_bad_text(impl: Any) -> None:
    with pytest.raises(CardError) as info:
        impl.validate_hand("As Kd Qh Jc 1s")
    assert (info.value.token, info.value.position) == ("1s", 4)


@pytest.mark.parametrize(
    "hand, rules, card",
    [
        # API.md's example: Th appears twice; its second copy is the first excess.
        ("8d 9c Th Qs Kd 8c 9h As Ad Tc Th Ks Qd", None, "Th"),
        ("8d 9c Th Qs Kd 8c 9h As Ad Tc Th Ks Qd", DEFAULT, "Th"),
        # As appears first in the input, but Kd's second copy (index 2) exceeds first.
        ("As Kd Kd As 2c 3c 4c 5c 6c 7c 8c 9c Tc", None, "Kd"),
        # two identical diamonds are a duplicate in the standard deck
        ("8d 8d 9c Th Qs Kd 8c 9h As Ad Tc Js Qd", None, "8d"),
        # extra deck: three 8d is one too many
        ("8d 8d 9c Th Qs Kd 8c 9h As Ad 8d Js Qd", EXTRA, "8d"),
        # extra deck: two hearts are never allowed
        ("8d 9c Th Qs Kd 8c 9h As Ad Tc Th Ks Qd", EXTRA, "Th"),
        ("2s 2s 3d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd", EXTRA, "2s"),
        # extra deck, first offender in input order: third 2d (index 6) before third 3d (index 7)
        ("2d 3d 4d 2d 3d 4d 2d 3d 4d 5d 6d 7d 8d", EXTRA, "2d"),
        # extra deck: a second 5h (index 4) comes before a third 9d (index 5)
        ("9d 9d 5h 6c 5h 9d 7c 8c Tc Jc Qc Kc Ac", EXTRA, "5h"),
        # ... and the other way round
        ("9d 9d 5h 6c 9d 5h 7c 8c Tc Jc Qc Kc Ac", EXTRA, "9d"),
    ],
)
def test_validate_duplicates(impl: Any, hand: str, rules: Any, card: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        impl.validate_hand(hand, rules)
    err = info.value
    assert err.card == card
    assert err.kind == "duplicate_card"
    assert isinstance(err, ValueError)
    # the same with Card objects
    with pytest.raises(DuplicateCardError) as info:
        impl.validate_hand(impl.parse_cards(hand), rules)
    assert info.value.card == card


def test_validate_two_identical_diamonds_extra_ok(impl: Any) -> None:
    assert impl.validate_hand("8d 8d 9c Th Qs Kd 8c 9h As Ad Tc Js Qd", EXTRA) is None
    # every diamond twice is 26 cards: 13 of them as a 13-card hand with pairs of diamonds
    assert impl.validate_hand("2d 2d 3d 3d 4d 4d 5d 5d 6d 6d 7d 7d Ad", EXTRA) is None
    # the whole 65-card extra deck is valid with size=65
    assert impl.validate_hand(impl.deck(EXTRA), EXTRA, size=65) is None
    with pytest.raises(DuplicateCardError):
        impl.validate_hand(impl.deck(EXTRA) + impl.parse_cards("2d"), EXTRA, size=66)


# ---------------------------------------------------------------------------
# RULES.md 3: categories and their boundaries

# (text, category key, deciding ranks, str) for the lowest and highest hand of each
# 5-card category, in ascending order (wheel low, extra deck so five of a kind exists).
LADDER = [
    # lowest high card: 7-5-4-3-2 (2-3-4-5-6 and A-2-3-4-5 are straights)
    ("7s 5d 4c 3h 2s", "high_card", "75432", "high card, seven"),
    # highest high card: A-K-Q-J-9 (A-K-Q-J-T is a straight)
    ("As Kd Qc Jh 9s", "high_card", "AKQJ9", "high card, ace"),
    ("2s 2d 3c 4h 5s", "one_pair", "2543", "one pair, twos"),
    ("As Ad Kc Qh Js", "one_pair", "AKQJ", "one pair, aces"),
    ("3s 3d 2c 2h 4s", "two_pair", "324", "two pair, threes and twos"),
    ("As Ad Kc Kh Qs", "two_pair", "AKQ", "two pair, aces and kings"),
    ("2s 2d 2c 3h 4s", "three_of_a_kind", "243", "three of a kind, twos"),
    ("As Ad Ac Kh Qs", "three_of_a_kind", "AKQ", "three of a kind, aces"),
    # lowest straight: the wheel (wheel = "low"), top card 5
    ("As 2d 3c 4h 5s", "straight", "5", "straight, five high"),
    ("2s 3d 4c 5h 6s", "straight", "6", "straight, six high"),
    ("Ts Jd Qc Kh As", "straight", "A", "straight, ace high"),
    ("2h 3h 4h 5h 7h", "flush", "75432", "flush, seven high"),
    ("Ah Kh Qh Jh 9h", "flush", "AKQJ9", "flush, ace high"),
    ("2s 2d 2c 3h 3s", "full_house", "23", "full house, twos over threes"),
    ("As Ad Ac Kh Ks", "full_house", "AK", "full house, aces over kings"),
    ("2s 2d 2c 2h 3s", "four_of_a_kind", "23", "four of a kind, twos"),
    ("As Ad Ac Ah Ks", "four_of_a_kind", "AK", "four of a kind, aces"),
    ("Ac 2c 3c 4c 5c", "straight_flush", "5", "straight flush, five high"),
    ("2c 3c 4c 5c 6c", "straight_flush", "6", "straight flush, six high"),
    ("Tc Jc Qc Kc Ac", "straight_flush", "A", "straight flush, ace high"),
    ("2s 2h 2c 2d 2d", "five_of_a_kind", "2", "five of a kind, twos"),
    ("As Ah Ac Ad Ad", "five_of_a_kind", "A", "five of a kind, aces"),
]


@pytest.mark.parametrize("text, key, deciding, name", LADDER)
def test_category_boundary_values(impl: Any, text: str, key: str, deciding: str, name: str) -> None:
    value = ev(impl, text, EXTRA)
    assert value.category.key == key
    assert ranks(value) == deciding
    assert value.high.char == deciding[0]
    assert value.size == 5
    assert str(value) == name
    # Shuffled input gives the same value.
    cards = impl.parse_cards(text)
    for perm in ([4, 3, 2, 1, 0], [2, 0, 4, 1, 3]):
        assert impl.evaluate([cards[i] for i in perm], EXTRA) == value


def test_category_ladder_strictly_increasing(impl: Any) -> None:
    values = [ev(impl, text, EXTRA) for text, *_ in LADDER]
    for low, high in zip(values, values[1:]):
        assert low < high
        assert high > low
        assert low != high
    # the same order on the standard deck without five of a kind
    std = [ev(impl, text) for text, key, *_ in LADDER if key != "five_of_a_kind"]
    assert std == sorted(std)
    assert all(a < b for a, b in zip(std, std[1:]))


def test_hand_value_rank_tuple(impl: Any) -> None:
    # API.md: ``.ranks: tuple[Rank, ...]``
    value = ev(impl, "Qs Qd Ac 9h 4s")
    assert isinstance(value.ranks, tuple)
    assert value.ranks == (impl.Rank.QUEEN, impl.Rank.ACE, impl.Rank.NINE, impl.Rank.FOUR)


def test_category_enum_of_value(impl: Any) -> None:
    assert ev(impl, "Qs Qd Ac 9h 4s").category == impl.Category.ONE_PAIR
    assert ev(impl, "As Ah Ac Ad Ad", EXTRA).category == impl.Category.FIVE_OF_A_KIND
    assert ev(impl, "Qs Qd Ac 9h 4s").high == impl.Rank.QUEEN


# --- the wheel ---------------------------------------------------------------


@pytest.mark.parametrize("rules", [DEFAULT, RuleSet.preset("kaixin"), RuleSet.preset("shisanzhang")])
def test_wheel_low(impl: Any, rules: Any) -> None:
    wheel = ev(impl, "5s 4d 3c 2h As", rules)
    assert (wheel.category.key, ranks(wheel)) == ("straight", "5")
    assert wheel.high == impl.Rank.FIVE
    assert str(wheel) == "straight, five high"
    six = ev(impl, "2s 3d 4c 5h 6s", rules)
    trips = ev(impl, "As Ad Ac Kh Qs", rules)  # highest three of a kind
    assert trips < wheel < six
    wheel_sf = ev(impl, "Ac 2c 3c 4c 5c", rules)
    assert (wheel_sf.category.key, ranks(wheel_sf)) == ("straight_flush", "5")
    assert str(wheel_sf) == "straight flush, five high"
    assert ev(impl, "As Ad Ac Ah Ks", rules) < wheel_sf < ev(impl, "2c 3c 4c 5c 6c", rules)


@pytest.mark.parametrize("rules", [SECOND, RuleSet.preset("bianfeng")])
def test_wheel_second(impl: Any, rules: Any) -> None:
    wheel = ev(impl, "5s 4d 3c 2h As", rules)
    assert (wheel.category.key, ranks(wheel)) == ("straight", "A")
    assert wheel.high == impl.Rank.ACE
    assert str(wheel) == "straight, ace-to-five"
    nine_k = ev(impl, "9s Td Jc Qh Ks", rules)
    royal = ev(impl, "Ts Jd Qc Kh As", rules)
    six = ev(impl, "2s 3d 4c 5h 6s", rules)
    assert six < nine_k < wheel < royal
    assert wheel != royal and hash(wheel) == hash(ev(impl, "Ad 2c 3h 4s 5d", rules))
    assert str(royal) == "straight, ace high"
    assert royal < ev(impl, "2h 3h 4h 5h 7h", rules)  # lowest flush
    wheel_sf = ev(impl, "Ac 2c 3c 4c 5c", rules)
    assert (wheel_sf.category.key, ranks(wheel_sf)) == ("straight_flush", "A")
    assert str(wheel_sf) == "straight flush, ace-to-five"
    assert (
        ev(impl, "As Ad Ac Ah Ks", rules)
        < ev(impl, "2c 3c 4c 5c 6c", rules)
        < ev(impl, "9c Tc Jc Qc Kc", rules)
        < wheel_sf
        < ev(impl, "Tc Jc Qc Kc Ac", rules)
    )


@pytest.mark.parametrize("rules", [DEFAULT, SECOND])
@pytest.mark.parametrize(
    "text, deciding",
    [
        ("Ks As 2d 3c 4h", "AK432"),  # K-A-2-3-4
        ("Qs Kd Ac 2h 3s", "AKQ32"),  # Q-K-A-2-3
        ("Js Qd Kc Ah 2s", "AKQJ2"),  # J-Q-K-A-2
        ("3s 4d 5c 6h 8s", "86543"),  # gap
    ],
)
def test_wraparound_not_straight(impl: Any, rules: Any, text: str, deciding: str) -> None:
    value = ev(impl, text, rules)
    assert (value.category.key, ranks(value)) == ("high_card", deciding)


def test_wraparound_suited_is_flush(impl: Any) -> None:
    value = ev(impl, "Kh Ah 2h 3h 4h")
    assert (value.category.key, ranks(value)) == ("flush", "AK432")


# --- kickers -----------------------------------------------------------------


@pytest.mark.parametrize(
    "higher, lower",
    [
        # high card: all five in order
        ("As Kd Qc Jh 8s", "Ah Kc Qd Js 7h"),
        ("As Kd 9c 8h 7s", "Ah Qc Jd Ts 8h"),  # second card decides: K > Q
        ("As Kd Qc 9h 3s", "Ah Kc Qd 9s 2h"),  # fifth card decides
        # one pair: the pair, then three kickers
        ("Ks Kd 2c 3h 4s", "Qh Qc Ad Js 9h"),
        ("Qs Qd Ac 9h 4s", "Qh Qc Ad 9s 3h"),
        ("Qs Qd Ac Th 2s", "Qh Qc Ad 9s 8h"),
        # two pair: high pair, then low pair, then kicker
        ("Ks Kd 2c 2h 3s", "Qh Qc Jd Js Ah"),
        ("Ks Kd 7c 7h 2s", "Kh Kc 6d 6s Ah"),
        ("Ks Kd 7c 7h 3s", "Kh Kc 7d 7s 2h"),
        # three of a kind: trips, then kickers
        ("3s 3d 3c 4h 2s", "2h 2c 2d As Kh"),
        ("7s 7d 7c Ah 2s", "7h 7c 7d Ks Qh"),
        ("7s 7d 7c Ah 3s", "7h 7c 7d As 2h"),
        # straight: top card
        ("3s 4d 5c 6h 7s", "2h 3c 4d 5s 6h"),
        # flush: all five in order
        ("Ah 6h 4h 3h 2h", "Ks Qs Js Ts 8s"),
        ("Ah Kh 5h 4h 2h", "As Qs Js Ts 8s"),
        ("Ah Kh Qh Jh 3h", "As Ks Qs Js 2s"),
        # full house: trips, then pair
        ("3s 3d 3c 2h 2s", "2h 2c 2d As Ah"),
        ("Ks Kd Kc 8h 8s", "Kh Kc Kd 7s 7h"),
        # four of a kind: quads, then kicker
        ("9s 9d 9c 9h As", "9h 9c 9d 9s Kh"),
        ("Ts Td Tc Th 2s", "9h 9c 9d 9s Ah"),
        # straight flush
        ("9h Th Jh Qh Kh", "8s 9s Ts Js Qs"),
    ],
)
def test_kickers(impl: Any, higher: str, lower: str) -> None:
    a, b = ev(impl, higher), ev(impl, lower)
    assert a.category == b.category
    assert a > b and b < a and a != b and a >= b and b <= a


def test_two_pair_ranks_order(impl: Any) -> None:
    # input in any order: ranks are (high pair, low pair, kicker)
    value = ev(impl, "7c Ks 2d 7h Kd")
    assert describe(value) == ("two_pair", "K72")
    assert str(value) == "two pair, kings and sevens"
    assert describe(ev(impl, "Ac 2d 2h 3s 3c")) == ("two_pair", "32A")


def test_ranks_in_deciding_order(impl: Any) -> None:
    cases = [
        ("4s 9d Qc Qh As", ("one_pair", "QA94")),
        ("2d 5s 5h 5c Kd", ("three_of_a_kind", "5K2")),
        ("7h Kd 7s Ks Kc", ("full_house", "K7")),
        ("Kh 3d 3s 3c 3h", ("four_of_a_kind", "3K")),
        ("9c 2c Jc 4c Qc", ("flush", "QJ942")),
        ("9c 2d Jh 4s Qc", ("high_card", "QJ942")),
        ("8c 9d Th 6s 7c", ("straight", "T")),
    ]
    for text, expected in cases:
        assert describe(ev(impl, text)) == expected, text


# --- str() -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, rules, name",
    [
        ("As Kd 9c 7h 3s", DEFAULT, "high card, ace"),
        ("Qs Qd Ac 9h 4s", DEFAULT, "one pair, queens"),
        ("Ks Kd 7c 7h 2s", DEFAULT, "two pair, kings and sevens"),
        ("5s 5d 5c 9h 2s", DEFAULT, "three of a kind, fives"),
        ("6s 7d 8c 9h Ts", DEFAULT, "straight, ten high"),
        ("Ah 9h 7h 4h 2h", DEFAULT, "flush, ace high"),
        ("Ks Kd Kc 7h 7s", DEFAULT, "full house, kings over sevens"),
        ("As Ad Ac Ah 2s", DEFAULT, "four of a kind, aces"),
        ("9c Tc Jc Qc Kc", DEFAULT, "straight flush, king high"),
        ("As Ah Ac Ad Ad", EXTRA, "five of a kind, aces"),
        ("As 2d 3c 4h 5s", DEFAULT, "straight, five high"),
        ("As 2d 3c 4h 5s", SECOND, "straight, ace-to-five"),
        ("Ac 2c 3c 4c 5c", DEFAULT, "straight flush, five high"),
        ("Ac 2c 3c 4c 5c", SECOND, "straight flush, ace-to-five"),
        # plurals: "s" added except "sixes"
        ("6s 6d Ac 9h 4s", DEFAULT, "one pair, sixes"),
        ("6s 6d 2c 2h 4s", DEFAULT, "two pair, sixes and twos"),
        ("6s 6d 6c 2h 2s", DEFAULT, "full house, sixes over twos"),
        ("2s 2d 2c 6h 6s", DEFAULT, "full house, twos over sixes"),
        ("6s 6d 6c 6h As", DEFAULT, "four of a kind, sixes"),
        ("Ts Td Tc 9h 4s", DEFAULT, "three of a kind, tens"),
        ("Js Jd 3c 3h 4s", DEFAULT, "two pair, jacks and threes"),
        ("8s 8d 8c 8h As", DEFAULT, "four of a kind, eights"),
        ("6s 6h 6c 6d 6d", EXTRA, "five of a kind, sixes"),
        ("Ks Qd 9c 7h 3s", DEFAULT, "high card, king"),
        ("3h 4h 5h 6h 7h", DEFAULT, "straight flush, seven high"),
        ("2s 3d 4c 5h 6s", DEFAULT, "straight, six high"),
        ("9s Td Jc Qh Ks", DEFAULT, "straight, king high"),
        ("Ts Jd Qc Kh As", SECOND, "straight, ace high"),
        ("Jh 9h 7h 4h 2h", DEFAULT, "flush, jack high"),
        # 3-card fronts
        ("Ks Qd 2c", DEFAULT, "high card, king"),
        ("Qs Qd 2c", DEFAULT, "one pair, queens"),
        ("9s 9d 9c", DEFAULT, "three of a kind, nines"),
        ("Ad Ad Ac", EXTRA, "three of a kind, aces"),
    ],
)
def test_str_formats(impl: Any, text: str, rules: Any, name: str) -> None:
    assert str(ev(impl, text, rules)) == name


# --- 3-card fronts -----------------------------------------------------------


@pytest.mark.parametrize(
    "text, rules, key, deciding",
    [
        ("Qs Ks As", DEFAULT, "high_card", "AKQ"),  # consecutive: not a straight
        ("As 2s 3s", DEFAULT, "high_card", "A32"),  # A-2-3 suited: not a straight flush
        ("2h 5h 9h", DEFAULT, "high_card", "952"),  # suited: not a flush
        ("4d 3c 2h", SECOND, "high_card", "432"),
        ("7c 7d Ah", DEFAULT, "one_pair", "7A"),
        ("Ac 2d 2h", DEFAULT, "one_pair", "2A"),
        ("5s 5h 5c", DEFAULT, "three_of_a_kind", "5"),
        ("Ad Ad Ac", EXTRA, "three_of_a_kind", "A"),  # not five of a kind, not a pair
        ("Ad Ad Kc", EXTRA, "one_pair", "AK"),
        ("Kd Ad Ad", EXTRA, "one_pair", "AK"),
    ],
)
def test_front_values(impl: Any, text: str, rules: Any, key: str, deciding: str) -> None:
    value = ev(impl, text, rules)
    assert (value.category.key, ranks(value)) == (key, deciding)
    assert value.size == 3
    assert value.high.char == deciding[0]


def test_front_duplicates(impl: Any) -> None:
    with pytest.raises(DuplicateCardError) as info:
        ev(impl, "Ad Ad Kc")  # standard deck: one Ad
    assert info.value.card == "Ad"
    with pytest.raises(DuplicateCardError) as info:
        ev(impl, "Ad Ad Ad", EXTRA)
    assert info.value.card == "Ad"
    with pytest.raises(DuplicateCardError) as info:
        ev(impl, "As As Ad", EXTRA)
    assert info.value.card == "As"
    with pytest.raises(DuplicateCardError) as info:
        ev(impl, "As Ah Ac Ad Ad")  # five of a kind needs the extra deck
    assert info.value.card == "Ad"


def test_front_order(impl: Any) -> None:
    order = [
        "4s 3d 2c",  # lowest front
        "As Kd Jc",
        "As Kd Qc",  # highest high card
        "2s 2d 3c",  # lowest pair
        "2s 2d Ac",
        "3s 3d 2c",
        "As Ad Kc",  # highest pair
        "2s 2d 2c",  # lowest trips
        "As Ad Ac",
    ]
    values = [ev(impl, t) for t in order]
    assert all(a < b for a, b in zip(values, values[1:]))


@pytest.mark.parametrize("n", [0, 1, 2, 4, 6, 13])
def test_evaluate_wrong_size(impl: Any, n: int) -> None:
    with pytest.raises(CountError) as info:
        impl.evaluate(impl.deck()[:n])
    assert info.value.got == n
    assert info.value.kind == "wrong_count"


def test_evaluate_text_and_cards(impl: Any) -> None:
    assert impl.evaluate("Qs Qd Ac 9h 4s") == ev(impl, "Qs Qd Ac 9h 4s")
    with pytest.raises(CardError):
        impl.evaluate("Qs Qd Ac 9h 4x")


# --- front against middle (RULES.md 3) -----------------------------------------


@pytest.mark.parametrize(
    "front, middle, cmp",
    [
        ("Ah Ad Kc", "As Ac Qd 3c 2d", 1),  # RULES.md: front larger, foul
        ("Ah Ad Kc", "As Ac Kd 3c 2d", -1),  # RULES.md: missing kicker lower, not a foul
        ("Qh Qd 3c", "9s Tc Jd Qs Kh", -1),  # RULES.md: pair below any straight
        ("Ah Ad Kc", "2s 2c 3d 3c 4d", -1),  # any pair below any two pair
        ("2h 2d 2c", "As Ac Kd Ks Qd", 1),  # trips above two pair
        ("2h 2d 2c", "2s 3c 3d 3h 4d", -1),  # trips below a full house
        ("Ah Ad Ac", "As Kc Kd Ks Kh", -1),  # trips below quads
        ("2h 2d 2c", "2s Ac Kd 3h 4d", 1),  # trips above a pair of the same rank (category)
        ("Ah Ad Ac", "As Kd Qc Jh 9s", 1),  # trips above high card
        ("As Kd Qc", "Ah Kc Qd 3s 2h", -1),  # same first three ranks: missing kicker lower
        ("As Kd Qc", "Ah Kc Jd Ts 9h", 1),  # third rank decides
        ("As Kd Qc", "2h 2c 3d 4s 5h", -1),  # high card below any pair
        ("Ks Kd Ac", "Kh Kc Qd Js 9h", 1),  # same pair, front kicker A > Q
        ("Ks Kd Qc", "Kh Kc Qd 3s 2h", -1),
        ("Ks Kd 2c", "Kh Kc 2d As Qh", -1),  # same pair, 5-card first kicker A > 2
    ],
)
def test_front_against_middle(impl: Any, front: str, middle: str, cmp: int) -> None:
    f, m = ev(impl, front), ev(impl, middle)
    assert f.size == 3 and m.size == 5
    assert (f > m) == (cmp > 0)
    assert (f < m) == (cmp < 0)
    assert f != m


def test_front_never_equals_middle(impl: Any) -> None:
    # "A A K" == no 5-card hand: ranks tuples differ in length
    assert ev(impl, "Ah Ad Kc") != ev(impl, "As Ac Kd 3c 2d")
    assert ev(impl, "Ah Ad Ac") != ev(impl, "As Kd Kc Ks Kh")
    assert ev(impl, "Ah Ad Kc") == ev(impl, "As Ac Kh")


# ---------------------------------------------------------------------------
# compare_lanes


@pytest.mark.parametrize(
    "a, b, rules, expected",
    [
        # different values: rank order first, whatever the tie break
        ("As Ad 2c 3c 4c", "Ks Kd Qs Js 9s", DEFAULT, 1),
        ("Ks Kd Qs Js 9s", "As Ad 2c 3c 4c", SUIT, -1),
        ("2c 2d 3s", "Ah Kh Qh", SUIT, 1),
        # equal values, tie_break none: drawn
        ("As Kd 9c 7h 3s", "Ad Kc 9h 7s 3d", DEFAULT, 0),
        ("Ks Kd 7c 5c 2c", "Kh Kc 7s 5s 2s", DEFAULT, 0),
        ("9h 8c 7c 6c 5c", "9d 8s 7s 6s 5s", DEFAULT, 0),
        ("Qs Qd 4c", "Qh Qc 4h", DEFAULT, 0),
        # one pair: the best suit of the pair (Ks > Kh); kicker suits are not consulted
        ("Ks Kd 7c 5c 2c", "Kh Kc 7s 5s 2s", SUIT, 1),
        ("Kh Kd 7s 5s 2s", "Ks Kc 7h 5h 2h", SUIT, -1),
        ("Qs Qd 4c", "Qh Qc 4s", SUIT, 1),
        ("Qh Qc 4s", "Qs Qd 4c", SUIT, -1),
        # two pair: the best suit of the HIGH pair (spades K beats hearts K; b's 7s ignored)
        ("Ks Kd 7h 7c 2h", "Kh Kc 7s 7d 2s", SUIT, 1),
        ("Kc Kd 7h 7s As", "Kh Ks 7c 7d Ac", SUIT, -1),
        # high card: the suit of the top card (a's A hearts < b's A spades; a's K clubs ignored)
        ("Ah Kc 9c 6c 3d", "As Kd 9d 6d 3c", SUIT, -1),
        ("As 9d 7d 5d 3d", "Ad 9s 7s 5s 3s", SUIT, 1),
        # straight: the suit of the top card
        ("9h 8c 7c 6c 5c", "9d 8s 7s 6s 5s", SUIT, 1),
        ("9c 8s 7s 6s 5s", "9h 8d 7d 6d 5d", SUIT, -1),
        # wheel low: the top card is the 5 (a's 5h > b's 5c, though b holds As)
        ("Ad 2c 3c 4c 5h", "As 2d 3d 4d 5c", SUIT, 1),
        # wheel second: the top card is the ace (b's As > a's Ad)
        ("Ad 2c 3c 4c 5h", "As 2d 3d 4d 5c", SUIT_SECOND, -1),
        # flush and straight flush: the suit of the top card
        ("Ah Jh 8h 6h 3h", "As Js 8s 6s 3s", SUIT, -1),
        ("Ac Jc 8c 6c 3c", "Ad Jd 8d 6d 3d", SUIT, 1),
        ("9h 8h 7h 6h 5h", "9c 8c 7c 6c 5c", SUIT, 1),
        ("Ad 2d 3d 4d 5d", "As 2s 3s 4s 5s", SUIT, -1),
        ("Ad 2d 3d 4d 5d", "As 2s 3s 4s 5s", SUIT_SECOND, -1),
        # extra deck: identical cards of the first deciding rank draw
        ("Ad Kc 7c 5c 2c", "Ad Kh 7h 5h 2h", EXTRA_SUIT, 0),
        ("Ad Ah 7c 5c 2c", "Ad As 7h 5h 2h", EXTRA_SUIT, -1),
        ("Ad Ad Kd 7d 2d", "As Ah Ks 7h 2h", EXTRA_SUIT, 1),  # flush(pair) > one pair
    ],
)
def test_compare_lanes(impl: Any, a: str, b: str, rules: Any, expected: int) -> None:
    assert impl.compare_lanes(impl.parse_cards(a), impl.parse_cards(b), rules) == expected
    assert impl.compare_lanes(impl.parse_cards(b), impl.parse_cards(a), rules) == -expected


def test_compare_lanes_agrees_with_values(impl: Any) -> None:
    texts_ = [t for t, *_ in LADDER if not t.endswith("Ad Ad") and "2d 2d" not in t]
    for a, b in itertools.product(texts_, repeat=2):
        va, vb = ev(impl, a), ev(impl, b)
        expected = (va > vb) - (va < vb)
        assert impl.compare_lanes(impl.parse_cards(a), impl.parse_cards(b)) == expected


def test_compare_lanes_size_mismatch(impl: Any) -> None:
    with pytest.raises(CountError):
        impl.compare_lanes(impl.parse_cards("As Ks Qs"), impl.parse_cards("Ah Kh Qh Jh 9h"))


# ---------------------------------------------------------------------------
# is_foul (RULES.md 2)


def arr(impl: Any, text: str, rules: Any = None) -> Any:
    return impl.Arrangement.parse(text, rules)


@pytest.mark.parametrize(
    "text, rules, fouled",
    [
        # RULES.md 3 examples
        ("Ah Ad Kc | As Ac Qd 3c 2d | Ks Kd Kh 4c 4d", DEFAULT, True),
        ("Ah Ad Kc | As Ac Kd 3c 2d | Ks Kh Qs Qh Qd", DEFAULT, False),
        ("Qh Qd 3c | 9s Tc Jd Qs Kh | 2h 3h 5h 7h 8h", DEFAULT, False),
        # middle == back is allowed
        ("Qc Jd 2c | As Kd 9c 7h 3s | Ad Kc 9h 7s 3d", DEFAULT, False),
        # suits are never looked at, even with tie_break = "suit"
        ("Qc Jd 2c | As Kd 9c 7h 3s | Ad Kc 9h 7s 3d", SUIT_SECOND, False),
        ("Qc Jd 2c | Ad Kc 9h 7s 3d | As Kd 9c 7h 3s", SUIT_SECOND, False),
        # middle > back
        ("2c 3d 4h | As Ad Kc Kd 2s | Qs Qh Jc Jh 9s", DEFAULT, True),
        # front trips > middle pair
        ("5s 5h 5c | As Ad Kc Qd 2d | 9s 9h 9c 9d 2h", DEFAULT, True),
        # front trips < middle full house
        ("5s 5h 5c | 6s 6h 6c 2d 2s | 9s 9h 9c 9d 2h", DEFAULT, False),
        # front pair of queens < middle straight < back flush
        ("Qh Qd 3c | 9s Tc Jd Qs Kh | 2h 3h 5h 7h 8h", SECOND, False),
        # the wheel: low -> below 2-6 straight (not a foul); second -> above (foul)
        ("Kc Qd 9h | As 2d 3c 4h 5s | 2s 3d 4c 5h 6s", DEFAULT, False),
        ("Kc Qd 9h | As 2d 3c 4h 5s | 2s 3d 4c 5h 6s", SECOND, True),
        ("Kc Qd 9h | As 2d 3c 4h 5s | 2s 3d 4c 5h 6s", RuleSet.preset("bianfeng"), True),
        ("Kc Qd 2h | 9s Td Jc Qh Ks | As 2d 3c 4h 5s", DEFAULT, True),
        ("Kc Qd 2h | 9s Td Jc Qh Ks | As 2d 3c 4h 5s", SECOND, False),
        # front high card equal to the middle's first ranks: smaller, not a foul
        ("Ah Kd Qc | As Kc Qd 3c 2d | 7s 7h 8c 8d 9s", DEFAULT, False),
        ("Ah Kd Qc | As Kc Jd Tc 9d | 7s 7h 8c 8d 9s", DEFAULT, True),
        # five of a kind above a straight flush (extra deck)
        ("2c 3c 4c | 9s 9h 9c 9d 8s | As Ah Ac Ad Ad", EXTRA, False),
        ("2c 3c 4c | As Ah Ac Ad Ad | 9s Ts Js Qs Ks", EXTRA, True),
        ("2c 3c 4c | 9s Ts Js Qs Ks | As Ah Ac Ad Ad", EXTRA, False),
        # flush with a pair (extra deck) still a flush: above a straight, below a full house
        ("2c 3s 4c | 9s Th Jc Qh Ks | Ad Ad Kd Kd 4d", EXTRA, False),
        ("2c 3s 4c | Ad Ad Kd Kd 4d | 9s 9h 9c 7h 7s", EXTRA, False),
        ("2c 3s 4c | 9s 9h 9c 7h 7s | Ad Ad Kd Kd 4d", EXTRA, True),
    ],
)
def test_is_foul(impl: Any, text: str, rules: Any, fouled: bool) -> None:
    assert impl.is_foul(arr(impl, text, rules), rules) is fouled


def test_is_foul_default_rules(impl: Any) -> None:
    a = arr(impl, "Ah Ad Kc | As Ac Qd 3c 2d | Ks Kd Kh 4c 4d")
    assert impl.is_foul(a) is True
    b = arr(impl, "Kc Qd 9h | As 2d 3c 4h 5s | 2s 3d 4c 5h 6s")
    assert impl.is_foul(b) is False


# ---------------------------------------------------------------------------
# Arrangement


def test_arrangement_lanes_and_str(impl: Any) -> None:
    text = "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d"
    a = impl.Arrangement.parse(text)
    assert str(a) == text
    assert texts(a.front) == ["Ah", "Ad", "Kc"]
    assert texts(a.middle) == ["Jh", "Jd", "Jc", "5s", "5h"]
    assert texts(a.back) == ["Qs", "Qh", "Qd", "9c", "9d"]
    assert isinstance(a.front, tuple) and isinstance(a.cards, tuple)
    assert texts(a.cards) == texts(impl.parse_cards(text.replace("|", " ")))
    assert [texts(lane) for lane in a.lanes] == [texts(a.front), texts(a.middle), texts(a.back)]
    b = impl.Arrangement(a.front, a.middle, a.back)
    assert str(b) == text and b == a
    c = impl.Arrangement("Ah Ad Kc", "Jh Jd Jc 5s 5h", "Qs Qh Qd 9c 9d")
    assert c == a
    assert impl.Arrangement.parse(str(a)) == a
    assert str(impl.Arrangement.parse(str(a))) == text
    # glyphs and odd spacing read back to the canonical text
    d = impl.Arrangement.parse(" a♥,A♦ K♣|J♥ J♦ J♣ 5♠ 5♥ |Q♠ Q♥ Q♦ 9♣ 10♦")
    assert str(d) == "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c Td"


def test_arrangement_equality_ignores_order_within_lanes(impl: Any) -> None:
    a = impl.Arrangement.parse("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d")
    b = impl.Arrangement.parse("Kc Ah Ad | 5h 5s Jc Jd Jh | 9d 9c Qd Qh Qs")
    assert a == b
    assert not (a != b)
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    assert str(b) == "Kc Ah Ad | 5h 5s Jc Jd Jh | 9d 9c Qd Qh Qs"  # given order kept
    # the same 13 cards in other lanes: different
    c = impl.Arrangement.parse("Ah Ad Kc | Qs Qh Qd 9c 9d | Jh Jd Jc 5s 5h")
    assert a != c
    d = impl.Arrangement.parse("Ah Ad 9d | Jh Jd Jc 5s 5h | Qs Qh Qd 9c Kc")
    assert a != d


@pytest.mark.parametrize(
    "front, middle, back, lane, expected, got",
    [
        ("Ah Ad Kc Ks", "Jh Jd Jc 5s 5h", "Qs Qh Qd 9c 9d", "front", 3, 4),
        ("Ah Ad", "Jh Jd Jc 5s 5h", "Qs Qh Qd 9c 9d", "front", 3, 2),
        ("Ah Ad Kc", "Jh Jd Jc 5s", "Qs Qh Qd 9c 9d", "middle", 5, 4),
        ("Ah Ad Kc", "Jh Jd Jc 5s 5h 4h", "Qs Qh Qd 9c 9d", "middle", 5, 6),
        ("Ah Ad Kc", "Jh Jd Jc 5s 5h", "Qs Qh Qd 9c", "back", 5, 4),
        ("Ah Ad Kc", "Jh Jd Jc 5s 5h", "Qs Qh Qd 9c 9d 8d", "back", 5, 6),
        ("Ah Ad Kc", "Jh Jd Jc 5s 5h", "", "back", 5, 0),
    ],
)
def test_arrangement_lane_sizes(
    impl: Any, front: str, middle: str, back: str, lane: str, expected: int, got: int
) -> None:
    with pytest.raises(CountError) as info:
        impl.Arrangement(front, middle, back)
    err = info.value
    assert (err.lane, err.expected, err.got) == (lane, expected, got)
    assert err.kind == "wrong_count"
    with pytest.raises(CountError) as info:
        impl.Arrangement.parse(f"{front} | {middle} | {back}")
    assert (info.value.lane, info.value.expected, info.value.got) == (lane, expected, got)


@pytest.mark.parametrize(
    "text, rules, card",
    [
        ("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c Ah", None, "Ah"),
        ("Ah Ad Ah | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d", None, "Ah"),
        # first offender in front, middle, back order: Qs (middle) before As (back)
        ("Ks Qs Js | As 9d 9c Qs 2c | As 3c 4c 5c 6c", None, "Qs"),
        # two identical diamonds: only with an extra-deck rule set
        ("Ad Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d", None, "Ad"),
        ("Ad Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d", DEFAULT, "Ad"),
        ("Ad Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c Ad", EXTRA, "Ad"),
        ("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c Ah", EXTRA, "Ah"),
    ],
)
def test_arrangement_duplicates(impl: Any, text: str, rules: Any, card: str) -> None:
    with pytest.raises(DuplicateCardError) as info:
        impl.Arrangement.parse(text, rules)
    assert info.value.card == card
    assert info.value.kind == "duplicate_card"
    front, middle, back = text.split("|")
    with pytest.raises(DuplicateCardError) as info:
        impl.Arrangement(front, middle, back, rules)
    assert info.value.card == card


def test_arrangement_extra_deck_diamonds_ok(impl: Any) -> None:
    a = impl.Arrangement.parse("Ad Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d", EXTRA)
    assert texts(a.front) == ["Ad", "Ad", "Kc"]
    b = impl.Arrangement("2c 3c 4c", "9s 9h 9c 9d 8s", "As Ah Ac Ad Ad", rules=EXTRA)
    assert str(b) == "2c 3c 4c | 9s 9h 9c 9d 8s | As Ah Ac Ad Ad"


@pytest.mark.parametrize(
    "text, got",
    [
        ("Ah Ad Kc | Jh Jd Jc 5s 5h Qs Qh Qd 9c 9d", 2),
        ("Ah Ad Kc Jh Jd Jc 5s 5h Qs Qh Qd 9c 9d", 1),
        ("Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d |", 4),
        ("Ah | Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d", 4),
        ("|||||", 6),
    ],
)
def test_arrangement_parse_group_count(impl: Any, text: str, got: int) -> None:
    with pytest.raises(CountError) as info:
        impl.Arrangement.parse(text)
    err = info.value
    assert (err.expected, err.got, err.lane) == (3, got, None)


def test_arrangement_parse_bad_card(impl: Any) -> None:
    with pytest.raises(CardError) as info:
        impl.Arrangement.parse("Ah Ad Kc | Jh Jd Jx 5s 5h | Qs Qh Qd 9c 9d")
    assert info.value.token == "Jx"


# ---------------------------------------------------------------------------
# extra deck: flushes with pairs, five of a kind


def test_extra_flush_with_pairs(impl: Any) -> None:
    two_pair_flush = ev(impl, "Ad Ad Kd Kd 4d", EXTRA)
    assert describe(two_pair_flush) == ("flush", "AAKK4")
    assert str(two_pair_flush) == "flush, ace high"
    pair_flush = ev(impl, "Kd 7d Ad 2d Ad", EXTRA)
    assert describe(pair_flush) == ("flush", "AAK72")
    plain = ev(impl, "Ah Kh Qh Jh 9h", EXTRA)  # the highest plain flush
    assert describe(plain) == ("flush", "AKQJ9")
    # ranks high to low like any flush: (A,A,...) beats (A,K,...)
    assert plain < pair_flush < two_pair_flush
    assert two_pair_flush < ev(impl, "2s 2h 2c 3d 3s", EXTRA)  # lowest full house
    assert ev(impl, "Ts Jd Qc Kh As", EXTRA) < ev(impl, "2d 2d 3d 3d 4d", EXTRA)
    # equal ranks, different suits: equal values
    assert ev(impl, "Ad Ad Kd Kd 4d", EXTRA) == ev(impl, "Ad Ad Kd Kd 4d", EXTRA)
    # a pair of diamonds that is not suited with the rest: one pair
    assert describe(ev(impl, "Ad Ad Kd Kd 4c", EXTRA)) == ("two_pair", "AK4")
    assert describe(ev(impl, "Ad Ad Kd Qd 4c", EXTRA)) == ("one_pair", "AKQ4")
    assert describe(ev(impl, "Ad Ad Ah Kd Ks", EXTRA)) == ("full_house", "AK")
    assert describe(ev(impl, "Ad Ad Ah Ac Ks", EXTRA)) == ("four_of_a_kind", "AK")


def test_five_of_a_kind_above_straight_flush(impl: Any) -> None:
    fives = ev(impl, "2s 2h 2c 2d 2d", EXTRA)
    royal = ev(impl, "Ts Js Qs Ks As", EXTRA)
    assert describe(fives) == ("five_of_a_kind", "2")
    assert fives > royal
    assert ev(impl, "As Ah Ac Ad Ad", EXTRA) > fives
    # the extra deck with wheel second too
    extra_second = EXTRA.replace(wheel="second")
    assert ev(impl, "2s 2h 2c 2d 2d", extra_second) > ev(impl, "Ac 2c 3c 4c 5c", extra_second)


# ---------------------------------------------------------------------------
# HandValue: total order consistent with == and hash


def _sample_values(impl: Any) -> List[Any]:
    rng = random.Random(20240613)
    values = [ev(impl, t, EXTRA) for t, *_ in LADDER]
    values += [ev(impl, t, SECOND) for t in ("As 2d 3c 4h 5s", "Ac 2c 3c 4c 5c")]
    extra_deck = impl.deck(EXTRA)
    for _ in range(250):
        values.append(impl.evaluate(rng.sample(extra_deck, 5), EXTRA))
    for _ in range(120):
        values.append(impl.evaluate(rng.sample(extra_deck, 3), EXTRA))
    # repeats with other suits, so that equal values occur
    values += [ev(impl, t) for t in ("As Kd 9c 7h 3s", "Ad Kc 9h 7s 3d", "Qs Qd 4c", "Qh Qc 4h")]
    values += [ev(impl, t) for t in ("Ah Ad Kc", "As Ac Kd 3c 2d", "Ah Ad Ac")]
    return values


def test_hand_value_total_order(impl: Any) -> None:
    values = _sample_values(impl)
    for a, b in itertools.product(values, repeat=2):
        lt, eq, gt = a < b, a == b, a > b
        assert lt + eq + gt == 1, (a, b)
        assert (a <= b) == (lt or eq)
        assert (a >= b) == (gt or eq)
        assert (a != b) == (not eq)
        assert (b > a) == lt
        if eq:
            assert hash(a) == hash(b)
            assert (a.category, ranks(a)) == (b.category, ranks(b))
        else:
            assert (a.category.key, ranks(a), str(a)) != (b.category.key, ranks(b), str(b))
    ordered = sorted(values)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            assert a <= b
    # equal values collapse in a set exactly as == says
    distinct: List[Any] = []
    for v in values:
        if not any(v == d for d in distinct):
            distinct.append(v)
    assert len(set(values)) == len(distinct)


def test_hand_value_equality_ignores_suits(impl: Any) -> None:
    a, b = ev(impl, "As Kd 9c 7h 3s"), ev(impl, "Ad Kc 9h 7s 3d")
    assert a == b and hash(a) == hash(b) and str(a) == str(b)
    assert ev(impl, "Qs Qd 4c") == ev(impl, "Qh Qc 4h")
    assert ev(impl, "Qs Qd 4c") != ev(impl, "Qh Qc 5h")
    # the same cards, the same value under both wheels unless the hand is a wheel
    for t in ("As Kd 9c 7h 3s", "9s Td Jc Qh Ks", "Ts Jd Qc Kh As"):
        assert ev(impl, t, DEFAULT) == ev(impl, t, SECOND)
    assert ev(impl, "As 2d 3c 4h 5s", DEFAULT) != ev(impl, "As 2d 3c 4h 5s", SECOND)


def test_hand_value_compare_with_other_types(impl: Any) -> None:
    v = ev(impl, "As Kd 9c 7h 3s")
    assert v != 5
    assert not (v == "high card, ace")
    with pytest.raises(TypeError):
        v < 5  # noqa: B015
