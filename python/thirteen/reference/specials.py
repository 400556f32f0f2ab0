"""Special hands (报到 / 特殊牌型, "naturals"), RULES.md section 4.

A special is a property of the 13 cards. ``c(r)`` is how many cards of rank
``r`` the hand holds; pairs = sum of c(r) // 2, except that a rank with c = 4
counts 2 pairs when ``quads_as_two_pairs`` and 0 when not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from ._rules import resolve
from .arrangement import Arrangement
from .cards import Card, Rank, Suit, as_cards, validate_hand
from .hands import HandValue, _value

__all__ = [
    "SPECIAL_KEYS",
    "SpecialHand",
    "held_specials",
    "find_special",
    "compare_specials",
]

# Canonical order, high to low (RULES.md 4).
SPECIAL_KEYS: Tuple[str, ...] = (
    "same_suit_dragon",  # 清龙 / 至尊清龙 / 同花十三水
    "dragon",  # 一条龙 / 十三水
    "twelve_royals",  # 十二皇族
    "three_straight_flushes",  # 三同花顺
    "three_quads",  # 三分天下
    "all_big",  # 全大
    "all_small",  # 全小
    "one_color",  # 凑一色
    "four_trips",  # 四套三条
    "five_pairs_trips",  # 五对三条
    "six_pairs",  # 六对半
    "three_straights",  # 三顺子
    "three_flushes",  # 三同花
)

# The specials shown by a split into front / middle / back.
SPLIT_SPECIALS = ("three_straight_flushes", "three_straights", "three_flushes")

ALL_RANKS = frozenset(Rank)
RED = frozenset((Suit.HEARTS, Suit.DIAMONDS))
BLACK = frozenset((Suit.SPADES, Suit.CLUBS))


@dataclass(frozen=True)
class SpecialHand:
    """A special hand as scored.

    Attributes:
        key: the special's key (first key of its tier, canonical order, that is held).
        units: its value, ``rules.specials[key]``.
        tier: its tier in ``rules.special_tiers`` (0 = highest).
        arrangement: for three_straight_flushes / three_straights / three_flushes,
            the split showing the pattern (see :func:`find_special`); else None.
    """

    key: str
    units: int
    tier: int
    arrangement: Optional[Arrangement] = None


# --- counting helpers --------------------------------------------------------


def _rank_counts(cards: Sequence[Card]) -> Counter[Rank]:
    return Counter(card.rank for card in cards)


def _pairs(counts: Dict[Rank, int], quads_as_two_pairs: bool) -> int:
    """Σ ⌊c(r)/2⌋, a rank with c = 4 counting 2 or 0 pairs (RULES.md 4)."""
    total = 0
    for count in counts.values():
        if count == 4:
            total += 2 if quads_as_two_pairs else 0
        else:
            total += count // 2
    return total


# --- patterns on raw cards (the three-straights family) -----------------------


def _straight5(cards: Sequence[Card]) -> bool:
    """Five distinct consecutive ranks whatever the suits; A-2-3-4-5 counts; no wrap-around."""
    ranks = sorted({card.rank for card in cards})
    if len(ranks) != 5:
        return False
    if ranks[4] - ranks[0] == 4:
        return True
    return ranks == [Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.ACE]


def _straight3(cards: Sequence[Card], a23_is_straight: bool) -> bool:
    """Three consecutive ranks: Q-K-A counts; A-2-3 when ``a23_is_straight``; K-A-2 never."""
    ranks = sorted({card.rank for card in cards})
    if len(ranks) != 3:
        return False
    if ranks[2] - ranks[0] == 2:
        return True
    return a23_is_straight and ranks == [Rank.TWO, Rank.THREE, Rank.ACE]


def _suited(cards: Sequence[Card]) -> bool:
    """All one suit, whatever the ranks."""
    return len({card.suit for card in cards}) == 1


def _patterns(key: str, rules: Any) -> Tuple[Callable[[Sequence[Card]], bool], Callable[[Sequence[Card]], bool]]:
    """(test for the 3-card front, test for each 5-card lane) of a split special."""
    a23 = rules.a23_is_straight
    if key == "three_straight_flushes":
        return (lambda c: _straight3(c, a23) and _suited(c)), (lambda c: _straight5(c) and _suited(c))
    if key == "three_straights":
        return (lambda c: _straight3(c, a23)), _straight5
    if key == "three_flushes":
        return _suited, _suited
    raise ValueError(key)


Split = Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[int, ...]]


def _splits(cards: Sequence[Card], key: str, rules: Any, first_only: bool = False) -> List[Split]:
    """Every split (front, middle, back) of the 13 cards showing the pattern of
    ``key``, as tuples of positions in ``cards``.

    Enumerates positions, not cards, so duplicate diamonds need no special case:
    each 5-card back, then each 5-card middle from the 8 left; the 3 left are the
    front. Both orders of middle and back are listed.
    """
    front_ok, five_ok = _patterns(key, rules)
    positions = range(len(cards))
    found: List[Tuple[Tuple[int, ...], Tuple[int, ...], Tuple[int, ...]]] = []
    for back in combinations(positions, 5):
        if not five_ok([cards[i] for i in back]):
            continue
        rest = [i for i in positions if i not in back]
        for middle in combinations(rest, 5):
            if not five_ok([cards[i] for i in middle]):
                continue
            front = tuple(i for i in rest if i not in middle)
            if front_ok([cards[i] for i in front]):
                found.append((front, middle, back))
                if first_only:
                    return found
    return found


# --- the thirteen definitions --------------------------------------------------


def _holds(key: str, cards: Sequence[Card], rules: Any) -> bool:
    """Whether the 13 cards hold the special ``key`` (RULES.md 4 table)."""
    counts = _rank_counts(cards)
    ranks = [card.rank for card in cards]
    suits = {card.suit for card in cards}
    if key == "same_suit_dragon":
        return set(counts) == ALL_RANKS and len(suits) == 1
    if key == "dragon":
        return set(counts) == ALL_RANKS
    if key == "twelve_royals":
        lowest = Rank.JACK if rules.twelve_royals_from == "J" else Rank.TEN
        return all(rank >= lowest for rank in ranks)
    if key == "three_quads":
        return sum(1 for count in counts.values() if count >= 4) >= 3
    if key == "all_big":
        return all(rank >= Rank.EIGHT for rank in ranks)
    if key == "all_small":
        return all(rank <= Rank.EIGHT for rank in ranks)
    if key == "one_color":
        return suits <= RED or suits <= BLACK
    if key == "four_trips":
        return sum(1 for count in counts.values() if count >= 3) >= 4
    if key == "five_pairs_trips":
        trips = [rank for rank, count in counts.items() if count == 3]
        if len(trips) != 1:
            return False
        others = {rank: count for rank, count in counts.items() if rank != trips[0]}
        return _pairs(others, rules.quads_as_two_pairs) == 5
    if key == "six_pairs":
        return _pairs(counts, rules.quads_as_two_pairs) == 6
    if key in SPLIT_SPECIALS:
        return bool(_splits(cards, key, rules, first_only=True))
    raise ValueError(f"unknown special {key!r}")


def held_specials(cards: Union[str, Sequence[Card]], rules: Any = None) -> List[str]:
    """Every special of RULES.md 4 the 13 cards hold, among those ``rules.specials``
    recognises, in canonical order (high to low).

    Variant switches read from ``rules``: ``quads_as_two_pairs``,
    ``a23_is_straight``, ``twelve_royals_from``.

    Raises:
        CardError, CountError (not 13 cards), DuplicateCardError.
    """
    rules = resolve(rules)
    hand = as_cards(cards)
    validate_hand(hand, rules, 13)
    return [key for key in SPECIAL_KEYS if key in rules.specials and _holds(key, hand, rules)]


def _sorted_lane(cards: Sequence[Card]) -> Tuple[Card, ...]:
    """Cards by descending (rank, suit)."""
    return tuple(sorted(cards, key=lambda card: (card.rank, card.suit), reverse=True))


def _best_split(cards: Sequence[Card], key: str, rules: Any) -> Arrangement:
    """The split to report for a three-straights-family special (RULES.md 4, API.md).

    Among the splits showing the pattern that are not fouled, the one with the
    largest back, then middle, then front (HandValue order); remaining ties:
    the largest tuple of card codes sorted descending, back, then middle, then front.
    """
    values: Dict[Tuple[int, ...], HandValue] = {}  # memo: lane positions -> value

    def value(lane: Tuple[int, ...]) -> HandValue:
        if lane not in values:
            values[lane] = _value([cards[i] for i in lane], rules.wheel)
        return values[lane]

    def codes(lane: Tuple[int, ...]) -> Tuple[int, ...]:
        return tuple(sorted((cards[i].code for i in lane), reverse=True))

    best_key: Optional[Tuple[Any, ...]] = None
    best: Optional[Split] = None
    for front, middle, back in _splits(cards, key, rules):
        if not (value(front) <= value(middle) <= value(back)):
            continue  # fouled order
        order = (value(back), value(middle), value(front), codes(back), codes(middle), codes(front))
        if best_key is None or order > best_key:
            best_key, best = order, (front, middle, back)
    if best is None:  # cannot happen: the pattern always has a non-fouled order
        raise AssertionError(f"{key}: no non-fouled split")
    lanes = [_sorted_lane([cards[i] for i in lane]) for lane in best]
    return Arrangement(lanes[0], lanes[1], lanes[2], rules=rules)


def find_special(cards: Union[str, Sequence[Card]], rules: Any = None) -> Optional[SpecialHand]:
    """The highest recognised special the 13 cards hold, or None (RULES.md 4).

    "Highest" follows ``rules.special_tiers``; the key reported is the first key
    of that tier, in canonical order, that is held; ``units`` is
    ``rules.specials[key]``. For three_straight_flushes (三同花顺), three_straights
    (三顺子) and three_flushes (三同花) the arrangement showing the pattern is
    included, chosen as :func:`_best_split` says; lanes list cards by
    descending (rank, suit).

    Raises:
        CardError, CountError (not 13 cards), DuplicateCardError.
    """
    rules = resolve(rules)
    hand = as_cards(cards)
    held = held_specials(hand, rules)
    if not held:
        return None
    tier = min(rules.special_tier(key) for key in held)
    key = next(k for k in held if rules.special_tier(k) == tier)
    arrangement = _best_split(hand, key, rules) if key in SPLIT_SPECIALS else None
    return SpecialHand(key=key, units=int(rules.specials[key]), tier=tier, arrangement=arrangement)


def compare_specials(a: SpecialHand, b: SpecialHand) -> int:
    """Special against special (RULES.md 4): +1 when ``a``'s tier is higher
    (smaller tier number), -1 when lower, 0 when equal (suits never decide)."""
    if a.tier < b.tier:
        return 1
    if a.tier > b.tier:
        return -1
    return 0
