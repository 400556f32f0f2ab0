"""Ranks, suits and hand categories as integer enums (RULES.md 1, 3).

The engine hands these out (``Card.rank``, ``Card.suit``, ``HandValue.category``,
``HandValue.ranks``); their integer values are the engine's: ranks 2 to 14, suits 0 to 3
in the tie-break order ♦ < ♣ < ♥ < ♠, categories 0 (high card) to 9 (five of a kind).
They iterate low to high: ``list(Rank)`` is the 13 ranks, ``len(Suit) == 4``.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Rank", "Suit", "Category"]


class Rank(IntEnum):
    """A card rank: ``TWO`` (2) to ``ACE`` (14); ``rank.char`` is its letter."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        """``"2"`` … ``"9"``, ``"T"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return "23456789TJQKA"[self - 2]

    @property
    def noun(self) -> str:
        """The English name used in hand descriptions (``"ten"``, ``"queen"``)."""
        return _NOUNS[self - 2]

    @property
    def plural(self) -> str:
        """The English plural (``"tens"``, ``"sixes"``)."""
        return "sixes" if self == Rank.SIX else self.noun + "s"


_NOUNS = "two three four five six seven eight nine ten jack queen king ace".split()


class Suit(IntEnum):
    """A suit; values follow the tie-break order ♠ > ♥ > ♣ > ♦ (RULES.md 1, 3)."""

    DIAMONDS = 0
    CLUBS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        """``"d"``, ``"c"``, ``"h"`` or ``"s"``."""
        return "dchs"[self]

    @property
    def glyph(self) -> str:
        """``"♦"``, ``"♣"``, ``"♥"`` or ``"♠"``."""
        return "♦♣♥♠"[self]


class Category(IntEnum):
    """Hand categories, low to high (RULES.md 3); ``category.key`` is the rule-file key."""

    HIGH_CARD = 0  # 乌龙 / 散牌
    ONE_PAIR = 1  # 对子
    TWO_PAIR = 2  # 两对
    THREE_OF_A_KIND = 3  # 三条
    STRAIGHT = 4  # 顺子
    FLUSH = 5  # 同花
    FULL_HOUSE = 6  # 葫芦
    FOUR_OF_A_KIND = 7  # 铁支
    STRAIGHT_FLUSH = 8  # 同花顺
    FIVE_OF_A_KIND = 9  # 五同 (extra-diamonds deck only)

    @property
    def key(self) -> str:
        """The key used in rule files: ``"high_card"`` … ``"five_of_a_kind"``."""
        return self.name.lower()
