"""The arrangement engine, the plain way (RULES.md 2-3): every split of 13 cards, the legal
(non-fouled) ones, the Pareto set, the greedy baseline and the completions of a partly
placed hand.

This is the oracle of the core's ``count_splits`` / ``splits`` / ``complete`` and its
``"greedy"`` strategy. Everything is enumerated with :mod:`itertools`; nothing is pruned.

A split is made by card POSITIONS: choose 5 of the 13 positions for the middle, 5 of the
remaining 8 for the back, the other 3 are the front: C(13,5)·C(8,5) = 72,072 splits. With
the extra-diamonds deck a hand may hold two identical diamonds; swapping them gives a
split at other positions that looks the same, and it is counted (and listed) separately.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any, Dict, Iterator, List, Sequence, Tuple, Union

from thirteen.errors import CardNotHeldError, CountError, ThirteenError

from ._rules import resolve
from .arrangement import Arrangement
from .cards import Card, as_cards, validate_hand
from .hands import HandValue, _value

__all__ = ["count_splits", "splits", "greedy", "completions"]

CardsLike = Union[str, Sequence[Card]]
Positions = Tuple[int, ...]
PositionSplit = Tuple[Positions, Positions, Positions]  # (front, middle, back)

LANE_SIZES = (("front", 3), ("middle", 5), ("back", 5))


def _hand(cards: CardsLike, rules: Any) -> List[Card]:
    """The 13 cards, checked as :func:`validate_hand` does (CountError, DuplicateCardError)."""
    validate_hand(cards, rules)
    return as_cards(cards)


def _position_splits() -> Iterator[PositionSplit]:
    """Every (front, middle, back) split of the positions 0..12 (72,072 of them)."""
    positions = tuple(range(13))
    for middle in combinations(positions, 5):
        rest = tuple(p for p in positions if p not in middle)
        for back in combinations(rest, 5):
            front = tuple(p for p in rest if p not in back)
            yield front, middle, back


class _Values:
    """The value of every 3- and 5-card subset of the hand's positions (computed once)."""

    def __init__(self, hand: Sequence[Card], wheel: str) -> None:
        self.hand = hand
        self.table: Dict[Positions, HandValue] = {}
        for size in (3, 5):
            for subset in combinations(range(13), size):
                self.table[subset] = _value([hand[p] for p in subset], wheel)

    def of(self, split: PositionSplit) -> Tuple[HandValue, HandValue, HandValue]:
        front, middle, back = split
        return self.table[front], self.table[middle], self.table[back]


def _arrangement(hand: Sequence[Card], split: PositionSplit, rules: Any) -> Arrangement:
    front, middle, back = split
    return Arrangement(
        [hand[p] for p in front], [hand[p] for p in middle], [hand[p] for p in back], rules=rules
    )


def _legal(values: Tuple[HandValue, HandValue, HandValue]) -> bool:
    front, middle, back = values
    return front <= middle <= back


def _dominates(a: Tuple[HandValue, ...], b: Tuple[HandValue, ...]) -> bool:
    """``a`` matches or beats ``b`` in every lane and strictly beats it in at least one."""
    return all(x >= y for x, y in zip(a, b)) and any(x > y for x, y in zip(a, b))


def _pareto_triples(
    triples: Sequence[Tuple[HandValue, HandValue, HandValue]],
) -> set[Tuple[HandValue, HandValue, HandValue]]:
    """The value triples that no other triple of ``triples`` dominates.

    Sorted from the largest (back, middle, front) down, a triple that dominates another
    comes before it; so each triple only needs checking against the frontier kept so far
    (domination is transitive: a dominated earlier triple is itself dominated by one kept).
    """
    frontier: List[Tuple[HandValue, HandValue, HandValue]] = []
    for t in sorted(set(triples), key=lambda v: (v[2], v[1], v[0]), reverse=True):
        if not any(_dominates(kept, t) for kept in frontier):
            frontier.append(t)
    return set(frontier)


def _select(hand: Sequence[Card], rules: Any, legal: bool, pareto: bool) -> List[PositionSplit]:
    if not legal and not pareto:
        return list(_position_splits())
    values = _Values(hand, rules.wheel)
    chosen = [s for s in _position_splits() if _legal(values.of(s))]
    if pareto:
        best = _pareto_triples([values.of(s) for s in chosen])
        chosen = [s for s in chosen if values.of(s) in best]
    return chosen


def splits(
    cards: CardsLike, rules: Any = None, *, legal: bool = False, pareto: bool = False
) -> List[Arrangement]:
    """The splits of 13 cards into front (3), middle (5) and back (5), by position.

    Args:
        cards: 13 cards (``Card`` sequence or text).
        rules: ``wheel`` (the foul check) and ``deck`` (copies allowed); ``None`` = default.
        legal: only the non-fouled splits (front <= middle <= back, RULES.md 2).
        pareto: only the legal splits that no other legal split matches or beats in every
            lane while beating it in at least one (splits with equal value triples all stay).

    Raises:
        CardError, CountError (not 13 cards), DuplicateCardError.
    """
    rules = resolve(rules)
    hand = _hand(cards, rules)
    return [_arrangement(hand, s, rules) for s in _select(hand, rules, legal, pareto)]


def count_splits(
    cards: CardsLike, rules: Any = None, *, legal: bool = False, pareto: bool = False
) -> int:
    """``len(splits(cards, rules, legal=legal, pareto=pareto))`` (72,072 without filters)."""
    rules = resolve(rules)
    hand = _hand(cards, rules)
    return len(_select(hand, rules, legal, pareto))


def greedy(cards: CardsLike, rules: Any = None) -> Arrangement:
    """The greedy baseline: the strongest 5 cards in the back, the strongest 5 of the other
    8 in the middle, the last 3 in front (first subset in enumeration order on ties). Never
    fouled: the middle is the best 5 of a set that holds the front, and a 5-card superset
    of 3 cards is worth at least as much as those 3.

    Raises: as :func:`splits`.
    """
    rules = resolve(rules)
    hand = _hand(cards, rules)
    values = _Values(hand, rules.wheel)
    positions = tuple(range(13))
    back = max(combinations(positions, 5), key=lambda s: values.table[s])
    rest = tuple(p for p in positions if p not in back)
    middle = max(combinations(rest, 5), key=lambda s: values.table[s])
    front = tuple(p for p in rest if p not in middle)
    return _arrangement(hand, (front, middle, back), rules)


def completions(
    cards: CardsLike,
    rules: Any = None,
    *,
    front: CardsLike = (),
    middle: CardsLike = (),
    back: CardsLike = (),
) -> List[Arrangement]:
    """Every legal split of the hand that keeps the placed cards in their lanes (each lane
    holding at least the placed cards, as a multiset; order inside a lane is ignored).

    Raises:
        CountError: a lane given more cards than it holds (``lane``, ``expected``, ``got``);
        CardNotHeldError: a placed card not in the hand (or placed more often than held),
            ``card`` naming it;
        and the errors of :func:`splits`.
    """
    rules = resolve(rules)
    hand = _hand(cards, rules)
    placed = [Counter(as_cards(lane)) for lane in (front, middle, back)]
    for (name, size), want in zip(LANE_SIZES, placed):
        got = sum(want.values())
        if got > size:
            raise CountError(
                f"the {name} lane holds {size} cards, {got} placed",
                expected=size,
                got=got,
                lane=name,
            )
    held = Counter(hand)
    for card, n in sum(placed, Counter()).items():
        if n > held[card]:
            raise CardNotHeldError(
                f"placed card {card} is not in the hand (or placed more often than held)", card=str(card)
            )
    out = []
    for arrangement in splits(hand, rules, legal=True):
        lanes = [Counter(lane) for lane in arrangement.lanes]
        if all(not (want - lane) for want, lane in zip(placed, lanes)):
            out.append(arrangement)
    return out
