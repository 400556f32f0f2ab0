"""thirteen: the engine of the card game Thirteen (十三水 / 十三张, Chinese Poker, Pusoy).

The fast functions and types come from the Rust core (``thirteen._core``); rule sets
(:class:`RuleSet`) and errors are plain Python. ``thirteen.reference`` is an independent
pure-Python implementation of the same API, used as the oracle of the tests.

Quick start::

    from thirteen import Arrangement, RuleSet, evaluate, is_foul, parse_cards
    rules = RuleSet.preset("kaixin")
    evaluate(parse_cards("Ks Kd 7c 7h 2s"), rules)    # two pair, kings and sevens
    is_foul(Arrangement.parse("Ah Ad Kc | As Ac Qd 3c 2d | Ks Kd Kh 4c 4d"), rules)  # True
"""

from thirteen._core import (
    Arrangement,
    Card,
    Category,
    Deal,
    Declaration,
    HandValue,
    LaneTables,
    Rank,
    Settlement,
    SpecialHand,
    Suit,
    __version__,
    compare_lanes,
    build_tables,
    compare_specials,
    count_splits,
    deal,
    deck,
    escape_payments,
    evaluate,
    evaluate_batch,
    find_special,
    format_cards,
    held_specials,
    is_foul,
    money,
    parse_cards,
    settle,
    settle_batch,
    settle_round,
    splits,
    swap_cards,
    validate_hand,
)
from thirteen.aliases import CardsLike, PlayerId, Submission
from thirteen.errors import (
    BackendError,
    CardError,
    CardNotHeldError,
    CountError,
    DealError,
    DuplicateCardError,
    FalseSpecialError,
    FouledError,
    LimitError,
    PlayerCountError,
    RuleSetError,
    SaveError,
    SurrenderError,
    ThirteenError,
)
from thirteen.ladder import Ladder, LevelInfo, level_change, level_for
from thirteen.rules import RuleSet
from thirteen.solver import Hint, Solution, complete, hints, solve, solve_batch
from thirteen.gifts import Gift, gift
from thirteen.table_store import TableSet, TablesWarning, clear_cache as clear_table_cache, lane_tables, register_tables
from thirteen.training import train
from thirteen.simulation import simulate
from thirteen.errors import RoundStateError, TableError
from thirteen.game.result import RoundResult
from thirteen.game.round import Round
from thirteen.game.table import LevelChange, Table, TablePlayer, TableRound, TableRoundReport

__all__ = [
    "__version__",
    "CardsLike",
    "PlayerId",
    "Submission",
    "Arrangement",
    "Card",
    "Category",
    "HandValue",
    "Rank",
    "Suit",
    "RuleSet",
    "Declaration",
    "Settlement",
    "SpecialHand",
    "compare_specials",
    "escape_payments",
    "find_special",
    "held_specials",
    "money",
    "settle",
    "settle_batch",
    "settle_round",
    "LaneTables",
    "Deal",
    "deal",
    "swap_cards",
    "Ladder",
    "LevelInfo",
    "level_change",
    "level_for",
    "Gift",
    "gift",
    "Hint",
    "Solution",
    "build_tables",
    "complete",
    "count_splits",
    "hints",
    "lane_tables",
    "train",
    "simulate",
    "TableSet",
    "TablesWarning",
    "register_tables",
    "clear_table_cache",
    "solve",
    "solve_batch",
    "splits",
    "compare_lanes",
    "deck",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "is_foul",
    "parse_cards",
    "validate_hand",
    "BackendError",
    "CardError",
    "CountError",
    "DealError",
    "DuplicateCardError",
    "FalseSpecialError",
    "FouledError",
    "LimitError",
    "PlayerCountError",
    "RuleSetError",
    "SaveError",
    "SurrenderError",
    "ThirteenError",
    "Round",
    "RoundResult",
    "Table",
    "TablePlayer",
    "TableRound",
    "TableRoundReport",
    "LevelChange",
    "RoundStateError",
    "CardNotHeldError",
    "TableError",
]
