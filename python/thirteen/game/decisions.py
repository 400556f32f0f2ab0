"""What the engine decides for a seat (代打, AI seats): its swap-three gift (换三张, RULES.md
7.3), and its play: an arrangement, a special's declaration, or surrendering (RULES.md 5
step 1) when that loses less. :class:`~thirteen.Round` (``auto``, ``finish_swap``,
``settle``), tables and servers ask here; nothing here reads or changes a round.
"""

from __future__ import annotations

import secrets
from typing import Literal, Optional, Tuple, Union

from thirteen._core import Card
from thirteen.aliases import Submission
from thirteen.gifts import gift
from thirteen.rules import RuleSet
from thirteen.solver import solve

__all__ = [
    "AI_SAMPLES",
    "AI_STRATEGY",
    "SURRENDER",
    "AutoPlay",
    "Play",
    "engine_gift",
    "engine_play",
    "gift_seed",
]

#: The strategy of every seat the engine plays for: auto-arranged seats (代打,
#: :meth:`~thirteen.Round.auto`, tables), the server's AI seats, and ``simulate``'s and
#: ``thirteen play``'s seats by default. ``"mc"``: ``ev``'s play, replaced by another of its
#: best plays only where settling them on sampled deals shows it better (docs/decisions.md);
#: the play and its expected units are those samples' means, so surrendering is weighed
#: against them.
AI_STRATEGY: Literal["mc"] = "mc"

#: The Monte Carlo samples of :data:`AI_STRATEGY` (deals of the unseen cards).
AI_SAMPLES = 1000

#: What :func:`engine_play` returns (and :meth:`Round.auto` records) for a seat that
#: surrenders.
SURRENDER: Literal["surrender"] = "surrender"

#: A seat's play: a submission, or surrendering.
Play = Union[Submission, Literal["surrender"]]

#: What :meth:`Round.auto` records: a swap-three gift (its cards), or a play.
AutoPlay = Union[Tuple[Card, ...], Submission, Literal["surrender"]]


def gift_seed(round_seed: Optional[int], seat: int) -> int:
    """The seed of the engine's gift for ``seat`` in a round of ``round_seed``: a function of
    both in a seeded round (a replay gives the same gifts), else from the secure random
    source."""
    if round_seed is None:
        return secrets.randbits(64)
    return (round_seed * 8 + seat) % 2**64


def engine_gift(
    rules: RuleSet, hand: Tuple[Card, ...], *, players: int, banker: bool, seed: int
) -> Tuple[Card, ...]:
    """The cards the engine gives from ``hand`` in swap-three (:func:`thirteen.gift`)."""
    return gift(hand, rules, players=players, banker=banker, seed=seed).cards


def engine_play(rules: RuleSet, hand: Tuple[Card, ...], *, players: int, banker: bool) -> Play:
    """The engine's play of ``hand`` (:func:`thirteen.solve`, strategy :data:`AI_STRATEGY`
    with :data:`AI_SAMPLES` samples, seed 0: the play is a function of the hand, the rules
    and the seat): its submission, or :data:`SURRENDER` when the rules allow surrender and
    it loses less (:attr:`thirteen.Solution.surrenders`)."""
    solution = solve(
        hand, rules, players=players, strategy=AI_STRATEGY, samples=AI_SAMPLES, banker=banker
    )
    return SURRENDER if solution.surrenders else solution.submission()
