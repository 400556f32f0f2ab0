"""Hand categories, hand values and lane comparison (RULES.md section 3).

A :class:`HandValue` is a category and its deciding ranks; values compare as
tuples ``(category, ranks)``. A 3-card front has fewer kickers than a 5-card
hand, and Python's tuple order already puts a missing kicker below every rank
(a tuple that is a prefix of another is smaller), which is exactly RULES.md 3's
rule for front against middle.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any, List, Sequence, Tuple, Union

from thirteen.enums import Category
from thirteen.errors import CountError, DuplicateCardError

from ._rules import resolve
from .cards import Card, Rank, as_cards, first_excess

__all__ = ["Category", "HandValue", "evaluate", "compare_lanes"]


_STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
# How a value reads (str): the category and its deciding ranks, {0} the first.
_DESCRIBED = {
    Category.HIGH_CARD: "high card, {0.noun}",
    Category.ONE_PAIR: "one pair, {0.plural}",
    Category.TWO_PAIR: "two pair, {0.plural} and {1.plural}",
    Category.THREE_OF_A_KIND: "three of a kind, {0.plural}",
    Category.STRAIGHT: "straight, {0.noun} high",
    Category.FLUSH: "flush, {0.noun} high",
    Category.FULL_HOUSE: "full house, {0.plural} over {1.plural}",
    Category.FOUR_OF_A_KIND: "four of a kind, {0.plural}",
    Category.STRAIGHT_FLUSH: "straight flush, {0.noun} high",
    Category.FIVE_OF_A_KIND: "five of a kind, {0.plural}",
}
_WHEEL = frozenset((Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE))


@functools.total_ordering
class HandValue:
    """The value of a 3- or 5-card hand: ``category`` and deciding ``ranks`` (RULES.md 3).

    Attributes:
        category: the :class:`Category`.
        ranks: the deciding ranks in order (see API.md), e.g. one pair of queens
            with A 9 4 is ``(Q, A, 9, 4)``; a straight is ``(top,)``.
        high: ``ranks[0]``, the first deciding rank.
        size: 3 or 5, the number of cards.
        ace_to_five: True for A-2-3-4-5 under ``wheel = "second"`` (its ranks are
            ``(A,)``; it sits above 9-T-J-Q-K and below T-J-Q-K-A).

    Values are totally ordered: category first, then the ranks lexicographically,
    a missing rank below every rank. Equal iff that order says equal.
    """

    __slots__ = ("category", "ranks", "size", "ace_to_five", "_key")

    category: Category
    ranks: Tuple[Rank, ...]
    size: int
    ace_to_five: bool
    _key: Tuple[int, Tuple[int, ...]]

    def __init__(
        self,
        category: Category,
        ranks: Sequence[Rank],
        size: int = 5,
        ace_to_five: bool = False,
    ) -> None:
        category = Category(category)
        ranks = tuple(r if isinstance(r, Rank) else Rank(r) for r in ranks)
        set_ = object.__setattr__
        set_(self, "category", category)
        set_(self, "ranks", ranks)
        set_(self, "size", size)
        set_(self, "ace_to_five", bool(ace_to_five))
        # The order key. For straights the ranks (top,) are followed by one more
        # number so that T-J-Q-K-A (ACE, 1) sits just above the second-placed
        # wheel (ACE, 0) and every other straight (top, 1) below both when top < A.
        if category in _STRAIGHTS:
            order: Tuple[int, ...] = (int(ranks[0]), 0 if ace_to_five else 1)
        else:
            order = tuple(int(r) for r in ranks)
        set_(self, "_key", (int(category), order))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("HandValue is immutable")

    @property
    def high(self) -> Rank:
        """The first deciding rank (RULES.md 3, reported as ``high`` in the test vectors)."""
        return self.ranks[0]

    # Total order (functools.total_ordering adds <=, > and >=) ---------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key == other._key

    def __lt__(self, other: "HandValue") -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self._key < other._key

    def __hash__(self) -> int:
        return hash(self._key)

    # Text --------------------------------------------------------------------
    def __str__(self) -> str:
        if self.ace_to_five:
            name = "straight" if self.category == Category.STRAIGHT else "straight flush"
            return f"{name}, ace-to-five"
        return _DESCRIBED[self.category].format(*self.ranks)

    def __repr__(self) -> str:
        ranks = "".join(r.char for r in self.ranks)
        return f"HandValue({self.category.key}, {ranks!r}, size={self.size}: {self})"


def _value(cards: Sequence[Card], wheel: str) -> HandValue:
    """The value of 3 or 5 already-checked cards; ``wheel`` is "low" or "second"."""
    size = len(cards)
    counts = Counter(card.rank for card in cards)
    # Ranks grouped: larger groups first, then higher ranks first.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [count for _, count in groups]
    by_group = [rank for rank, _ in groups]
    high_to_low = sorted((card.rank for card in cards), reverse=True)

    if size == 3:
        # The front: no straights, no flushes (RULES.md 3); "Ad Ad Ac" is trips.
        if shape == [3]:
            return HandValue(Category.THREE_OF_A_KIND, by_group, 3)
        if shape == [2, 1]:
            return HandValue(Category.ONE_PAIR, by_group, 3)
        return HandValue(Category.HIGH_CARD, high_to_low, 3)

    is_flush = len({card.suit for card in cards}) == 1
    distinct = len(counts) == 5
    is_wheel = distinct and set(counts) == _WHEEL
    is_straight = distinct and (high_to_low[0] - high_to_low[4] == 4 or is_wheel)
    if is_wheel:
        # Top card 5 when the wheel is low; the ace when it is second.
        straight_ranks = [Rank.FIVE] if wheel == "low" else [Rank.ACE]
    else:
        straight_ranks = [high_to_low[0]]
    ace_to_five = is_wheel and wheel != "low"

    if shape == [5]:
        return HandValue(Category.FIVE_OF_A_KIND, by_group, 5)
    if is_flush and is_straight:
        return HandValue(Category.STRAIGHT_FLUSH, straight_ranks, 5, ace_to_five)
    if shape == [4, 1]:
        return HandValue(Category.FOUR_OF_A_KIND, by_group, 5)
    if shape == [3, 2]:
        return HandValue(Category.FULL_HOUSE, by_group, 5)
    if is_flush:
        # Extra-diamonds deck: a flush may hold a pair or two pairs; still a
        # flush, all five ranks high to low.
        return HandValue(Category.FLUSH, high_to_low, 5)
    if is_straight:
        return HandValue(Category.STRAIGHT, straight_ranks, 5, ace_to_five)
    if shape == [3, 1, 1]:
        return HandValue(Category.THREE_OF_A_KIND, by_group, 5)
    if shape == [2, 2, 1]:
        return HandValue(Category.TWO_PAIR, by_group, 5)
    if shape == [2, 1, 1, 1]:
        return HandValue(Category.ONE_PAIR, by_group, 5)
    return HandValue(Category.HIGH_CARD, high_to_low, 5)


def _checked(cards: Union[str, Sequence[Card]], rules: Any) -> List[Card]:
    """Parse, check the size (3 or 5) and the deck's copies."""
    hand = as_cards(cards)
    n = len(hand)
    if n not in (3, 5):
        expected = 3 if n < 3 else 5  # the nearest lane size
        raise CountError(f"a hand has 3 or 5 cards, got {n}", expected=expected, got=n)
    extra = first_excess(hand, rules)
    if extra is not None:
        raise DuplicateCardError(f"duplicate card {extra}", card=str(extra))
    return hand


def evaluate(cards: Union[str, Sequence[Card]], rules: Any = None) -> HandValue:
    """The value of a 3-card front or a 5-card middle/back (RULES.md 3).

    Args:
        cards: 3 or 5 cards (``Card`` sequence or text).
        rules: uses ``deck`` (copies allowed) and ``wheel``; ``None`` = default.

    Returns:
        The :class:`HandValue`. 3 cards are only high card, one pair or three
        of a kind (冲三); 5 cards may be any category, five of a kind (五同)
        only with the extra-diamonds deck.

    Raises:
        CardError, CountError (not 3 or 5 cards), DuplicateCardError.
    """
    rules = resolve(rules)
    hand = _checked(cards, rules)
    return _value(hand, rules.wheel)


def _tie_suit(cards: Sequence[Card], value: HandValue) -> int:
    """The one suit compared under ``tie_break = "suit"`` (RULES.md 3).

    For the grouped categories, the best suit among the cards of the first
    deciding rank; for high card, straight, flush and straight flush, the suit
    of the card of the first deciding rank (the top card; 5 or A for the wheel).
    Both are "the best suit among the cards whose rank is ``value.high``".
    """
    return max(int(card.suit) for card in cards if card.rank == value.high)


def compare_lanes(a: Union[str, Sequence[Card]], b: Union[str, Sequence[Card]], rules: Any = None) -> int:
    """Compare two players' lanes of the same size (RULES.md 3).

    Args:
        a, b: 3 or 5 cards each, the same size.
        rules: ``wheel``, ``deck`` and ``tie_break``; ``None`` = default.

    Returns:
        +1 when ``a`` wins the lane, -1 when ``b`` wins, 0 when drawn (强碰).
        On equal values with ``tie_break = "suit"`` one suit per side decides
        (see :func:`_tie_suit`); equal suits draw. ``banker_wins_ties`` is
        applied by settlement, not here.

    Raises:
        CardError, CountError (sizes not 3/5 or not equal), DuplicateCardError.
    """
    rules = resolve(rules)
    hand_a = _checked(a, rules)
    hand_b = _checked(b, rules)
    if len(hand_a) != len(hand_b):
        raise CountError(
            f"lanes of different sizes: {len(hand_a)} and {len(hand_b)}",
            expected=len(hand_a),
            got=len(hand_b),
        )
    value_a = _value(hand_a, rules.wheel)
    value_b = _value(hand_b, rules.wheel)
    return _compare_values(hand_a, value_a, hand_b, value_b, rules)


def _compare_values(
    hand_a: Sequence[Card], value_a: HandValue, hand_b: Sequence[Card], value_b: HandValue, rules: Any
) -> int:
    """+1 / -1 / 0 from already computed values, with the suit tie-break."""
    if value_a > value_b:
        return 1
    if value_a < value_b:
        return -1
    if rules.tie_break == "suit":
        suit_a = _tie_suit(hand_a, value_a)
        suit_b = _tie_suit(hand_b, value_b)
        if suit_a != suit_b:
            return 1 if suit_a > suit_b else -1
    return 0
