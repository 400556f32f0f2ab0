"""The round's names at their former home: :mod:`thirteen.game.round` and
:mod:`thirteen.game.result` hold them."""

from thirteen.errors import CardNotHeldError, RoundStateError
from thirteen.game._args import CardsLike, PlayerId, Submission
from thirteen.game.result import RoundResult
from thirteen.game.round import AUTO_REASONS, MAX_HINTS, PHASES, Round

__all__ = [
    "Round",
    "RoundResult",
    "RoundStateError",
    "CardNotHeldError",
    "AUTO_REASONS",
    "MAX_HINTS",
    "PHASES",
]
_aliases = (CardsLike, PlayerId, Submission)  # importable here, as before
