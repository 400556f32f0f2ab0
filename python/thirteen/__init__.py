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
    Declaration,
    HandValue,
    Rank,
    Settlement,
    SpecialHand,
    Suit,
    __version__,
    compare_lanes,
    compare_specials,
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
    validate_hand,
)
from thirteen.errors import (
    CardError,
    CountError,
    DuplicateCardError,
    FalseSpecialError,
    FouledError,
    PlayerCountError,
    RuleSetError,
    SurrenderError,
    ThirteenError,
)
from thirteen.rules import RuleSet

__all__ = [
    "__version__",
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
    "compare_lanes",
    "deck",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "is_foul",
    "parse_cards",
    "validate_hand",
    "ThirteenError",
    "CardError",
    "CountError",
    "DuplicateCardError",
    "FouledError",
    "FalseSpecialError",
    "PlayerCountError",
    "SurrenderError",
    "RuleSetError",
]
