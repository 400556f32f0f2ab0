"""The table's names at their former home: :mod:`thirteen.game.table` holds them."""

from thirteen.errors import CardNotHeldError, RoundStateError, TableError
from thirteen.game.result import RoundResult
from thirteen.game.round import AUTO_REASONS, PHASES, Round
from thirteen.game.table import LevelChange, Table, TablePlayer, TableRound, TableRoundReport

__all__ = [
    "Round",
    "RoundResult",
    "Table",
    "TablePlayer",
    "TableRoundReport",
    "LevelChange",
    "RoundStateError",
    "CardNotHeldError",
    "TableError",
    "TableRound",
    "AUTO_REASONS",
    "PHASES",
]
