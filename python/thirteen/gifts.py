"""Swap-three gifts (换三张, RULES.md 7.3): which of its cards a seat gives, by the engine.

After the deal each seat gives 0 to ``rules.swap.max_cards`` of its cards; the gifts are
pooled and shuffled, and each seat draws back as many as it gave (its own may come back).
:func:`gift` values a gift by what ``ev`` expects of the hand the seat then plays (its best
split, or a held special's declaration), averaged over pools: the other seats are dealt
from the cards this seat does not hold and give as the engine gives (a model fitted to the
engine's own decisions on random hands, ``benches/gift.py --fit``). The search screens
every card, then every gift of the most promising seven, and values the best six again on
128 fresh pools against giving nothing, whose value is exact (docs/gifts.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple

from thirteen import _core
from thirteen._core import Card, LaneTables
from thirteen.rules import RuleSet
from thirteen.solver import CardsLike, _context, _count, MAX_SEED
from thirteen.table_store import cached_lane_tables

__all__ = ["Gift", "gift", "MAX_GIFT_TOP"]

#: The most gifts :func:`gift` ranks (``top``), each valued on fresh pools.
MAX_GIFT_TOP = 10


@dataclass(frozen=True)
class Gift:
    """A swap-three gift (换三张).

    Attributes:
        cards: the cards to give (empty: keep the hand).
        expected: expected units (注) against the table of the hand played after the swap:
            exact when nothing is given, else a mean over 128 pools.
        alternatives: the runners-up, best first, when asked for with ``top``.
    """

    cards: Tuple[Card, ...]
    expected: float
    alternatives: Tuple["Gift", ...] = field(default=())

    @property
    def label(self) -> str:
        """What the gift does, for a hint: ``"give 7d Ts Qh"`` or ``"keep every card"``."""
        if not self.cards:
            return "keep every card"
        return "give " + " ".join(str(c) for c in self.cards)


def gift(
    hand: CardsLike,
    rules: RuleSet,
    *,
    players: int = 4,
    banker: bool = False,
    seed: int = 0,
    top: int = 1,
    tables: Optional[LaneTables] = None,
) -> Gift:
    """The engine's swap-three gift (换三张, RULES.md 7.3) for a hand just dealt.

    Args:
        hand: the cards dealt (``rules.dealt``, 13 in kaixin-swap), as text or a sequence
            of :class:`Card`.
        rules: a :class:`RuleSet` with swap-three (``rules.swap``, e.g. ``kaixin-swap``).
        players: table size (2 to 4, as the rules allow): how many seats give to the pool.
        banker: in banker mode, decide for the banker's seat.
        seed: the seed of the pools (0 to 2**64 − 1): the same seed, the same gift.
        top: how many gifts to rank (1 to 10): ``alternatives`` holds the runners-up, best
            first, keeping every card among them where it ranks.
        tables: lane tables to use instead of :func:`thirteen.lane_tables` (``rules``).

    Returns:
        A :class:`Gift`: 0 to ``rules.swap.max_cards`` cards of ``hand`` (each at most as
        often as held), and the expected units of the hand played after the swap. About
        8–20 ms of CPU time at 4 players (p99 under 50 ms, ``benches/gift.py``).

    Raises:
        RuleSetError: the rules have no swap-three (``key = "swap"``).
        CountError: not ``rules.dealt`` cards; DuplicateCardError, CardError: bad cards.
        PlayerCountError: a table size the rules do not allow.
        LimitError: ``top`` outside 1 to 10, ``seed`` outside 0 to 2**64 − 1.
        TypeError: ``rules`` not a RuleSet, ``players``, ``top`` or ``seed`` not an int,
            ``banker`` not a bool, ``hand`` not cards.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a thirteen.RuleSet, not {type(rules).__name__}")
    players, as_banker = _context(rules, players, banker)
    top = _count("top", top, MAX_GIFT_TOP)
    seed = _count("seed", seed, MAX_SEED, least=0)
    if tables is None:
        tables = cached_lane_tables(rules, players)
    ranked = _core._gift(hand, rules, tables, players, as_banker, seed, top)
    gifts = [Gift(tuple(cards), expected) for cards, expected in ranked]
    best = gifts[0]
    return Gift(best.cards, best.expected, tuple(gifts[1:]))
