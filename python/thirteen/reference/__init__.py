"""Pure-Python reference implementation of ``thirteen`` (十三水 / Chinese Poker).

Written directly from RULES.md (sort, count, compare tuples) as the oracle of
the differential tests against the Rust core. It implements the package's card,
hand value, arrangement, special hand, settlement, dealing and enumeration
functions under the same names, with the same arguments, and raises the same
exceptions (``thirteen.errors``); the documentation page "Cards and codes" lists
exactly where it differs (``Card(rank, suit)`` as well as ``Card("As")``, enums
that are ``IntEnum``s, no ``HandValue.value`` or ``Arrangement.values``, ...). It
never imports ``thirteen._core``.

Modules: :mod:`.cards` (section 1), :mod:`.hands` and :mod:`.arrangement`
(sections 2-3), :mod:`.specials` (section 4), :mod:`.settle` (section 5).
"""

from __future__ import annotations

from .arrangement import Arrangement, is_foul
from .cards import Card, Rank, Suit, deck, format_cards, parse_cards, validate_hand
from .deal import Deal, deal, swap_cards
from .hands import Category, HandValue, compare_lanes, evaluate
from .ladder import level_for
from .settle import Declaration, Settlement, escape_payments, money, settle, settle_round
from .specials import SpecialHand, compare_specials, find_special, held_specials
from .engine import completions, count_splits, greedy, splits

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "Category",
    "HandValue",
    "parse_cards",
    "format_cards",
    "deck",
    "validate_hand",
    "evaluate",
    "compare_lanes",
    "is_foul",
    "Arrangement",
    "held_specials",
    "find_special",
    "SpecialHand",
    "compare_specials",
    "Declaration",
    "settle",
    "Settlement",
    "escape_payments",
    "settle_round",
    "money",
    "level_for",
    "Deal",
    "deal",
    "swap_cards",
    "count_splits",
    "splits",
    "greedy",
    "completions",
]
