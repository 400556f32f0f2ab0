"""A deal or a swap made before, checked before a round plays it (RULES.md 1, 7.1–7.3):
what :meth:`Round.deal` and :meth:`Round.finish_swap` accept instead of shuffling."""

from __future__ import annotations

from collections import Counter
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

from thirteen import _core
from thirteen._core import Card
from thirteen.errors import CountError, DealError, DuplicateCardError, ThirteenError
from thirteen.game._args import cards_of, one_per_seat
from thirteen.rules import RuleSet

Hand = Tuple[Card, ...]


class Dealt(NamedTuple):
    """A deal as a round keeps it: each seat's cards, the cut card (切牌), the seat that
    counted as 1 and the seat dealt first."""

    hands: List[Hand]
    cut_card: Optional[Card]
    cut_start: Optional[int]
    first: Optional[int]


def count_value(card: Card) -> int:
    """The cut card's count (RULES.md 7.2): A = 1, 2..10, J = 11, Q = 12, K = 13."""
    rank = int(card.rank)
    return 1 if rank == 14 else rank


def shuffled(rules: RuleSet, players: int, seed: Optional[int]) -> Dealt:
    """A new deal (:func:`thirteen.deal`): the seed's, or from the secure random source."""
    deal = _core.deal(rules, players, seed)
    return Dealt([tuple(h) for h in deal.hands], deal.cut_card, deal.cut_start, deal.first)


def checked_deal(rules: RuleSet, players: int, seed: Optional[int], deal: Any) -> Dealt:
    """``deal`` (a :class:`thirteen.Deal` or any object with its ``hands``,
    ``cut_card``, ``cut_start`` and ``first``) when the rules could have dealt it:
    ``rules.dealt`` cards a seat, no card more often than the deck has it, the cut card
    counted from ``cut_start`` reaching ``first`` (without a cut, seat 0 first); with a
    seed, exactly the seed's deal.

    Raises:
        CountError: not one hand per seat, or a hand of another size (``player``).
        DuplicateCardError: a card dealt more often than the deck has it.
        DealError: the cut, the first seat, or not the seed's deal (``key``).
        CardError: card text that cannot be read.
    """
    hands = list(one_per_seat("hands", (tuple(cards_of(hand)) for hand in deal.hands), players))
    for seat, hand in enumerate(hands):
        if len(hand) != rules.dealt:
            raise CountError(
                f"seat {seat} is dealt {len(hand)} cards; the rules deal {rules.dealt}",
                expected=rules.dealt,
                got=len(hand),
                player=seat,
            )
    every = [card for hand in hands for card in hand]
    try:
        _core.validate_hand(every, rules, len(every))
    except ThirteenError as exc:
        card = getattr(exc, "card", None)
        raise DuplicateCardError(
            f"{card} is dealt more often than the deck has it ({exc})", card=card
        ) from None
    cut = None if deal.cut_card is None else cards_of([deal.cut_card])[0]
    dealt = Dealt(hands, cut, deal.cut_start, deal.first)
    if seed is not None:
        if dealt != shuffled(rules, players, seed):
            raise DealError(f"the hands, cut and first seat are not the deal of seed {seed}")
    elif rules.cut:
        _check_cut(dealt, players)
    elif cut is not None or dealt.cut_start is not None or dealt.first != 0:
        raise DealError("the rules do not cut the deck: no cut card, and seat 0 is dealt first")
    return dealt


def _check_cut(dealt: Dealt, players: int) -> None:
    """The cut card counted from ``cut_start`` reaches ``first`` (RULES.md 7.2)."""
    cut, start = dealt.cut_card, dealt.cut_start
    if cut is None or start is None:
        raise DealError(
            "the rules cut the deck (切牌): the cut card and its start are missing",
            key="cut_card",
        )
    if not 0 <= start < players:
        raise DealError(f"{start} is not a seat", key="cut_start")
    first = (start + count_value(cut) - 1) % players
    if dealt.first != first:
        raise DealError(
            f"the cut card {cut} counted from seat {start} gives seat {first} first, "
            f"not {dealt.first}",
            key="first",
        )


def checked_swap(
    rules: RuleSet,
    seed: Optional[int],
    before: Sequence[Hand],
    given: Sequence[Sequence[Card]],
    after: Sequence[Any],
) -> List[Hand]:
    """``after`` (each seat's cards after swap-three, card text or cards) when the swap
    of ``given`` could have made it from ``before`` (RULES.md 7.3): with a seed, exactly
    the seed's swap (:func:`thirteen.swap_cards`); without, the same cards in all, each
    seat keeping what it did not give and holding as many as before.

    Raises:
        CountError: not one hand per seat.
        DealError: not such a swap (``key = "hands"``).
        CardError: card text that cannot be read.
    """
    hands = [tuple(cards_of(hand)) for hand in after]
    if len(hands) != len(before):
        raise CountError(
            f"expected one hand per seat ({len(before)}), got {len(hands)}",
            expected=len(before),
            got=len(hands),
        )
    if seed is not None:
        fresh = [tuple(h) for h in _core.swap_cards(list(before), list(given), rules, seed)]
        if hands != fresh:
            raise DealError(f"the hands are not the swap of seed {seed} of the gifts", key="hands")
        return hands
    pool_in = Counter(card for hand in before for card in hand)
    pool_out = Counter(card for hand in hands for card in hand)
    kept = all(
        not (Counter(before[s]) - Counter(given[s]) - Counter(hands[s]))
        and len(hands[s]) == len(before[s])
        for s in range(len(before))
    )
    if pool_in != pool_out or not kept:
        raise DealError("the hands are not a swap of the cards dealt and given", key="hands")
    return hands
