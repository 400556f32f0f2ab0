"""Cards, card text and decks (RULES.md section 1).

Ranks run 2..A (2..14), suits ♦ < ♣ < ♥ < ♠ (the order used when a rule
compares suits). A card's ``code`` is ``(rank - 2) * 4 + suit`` (0..51); the
two copies of a diamond in the extra-diamonds deck (多三张) are the same card.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

from thirteen.enums import Rank, Suit
from thirteen.errors import CardError, CountError, DuplicateCardError

from ._rules import resolve

__all__ = [
    "Rank",
    "Suit",
    "Card",
    "parse_cards",
    "format_cards",
    "deck",
    "validate_hand",
]


# Text of a rank and of a suit on input (already lower-cased).
_RANK_INPUT: Dict[str, Rank] = {
    "2": Rank.TWO,
    "3": Rank.THREE,
    "4": Rank.FOUR,
    "5": Rank.FIVE,
    "6": Rank.SIX,
    "7": Rank.SEVEN,
    "8": Rank.EIGHT,
    "9": Rank.NINE,
    "t": Rank.TEN,
    "10": Rank.TEN,
    "j": Rank.JACK,
    "q": Rank.QUEEN,
    "k": Rank.KING,
    "a": Rank.ACE,
}

_SUIT_INPUT: Dict[str, Suit] = {
    "s": Suit.SPADES,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "h": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "c": Suit.CLUBS,
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
}

# Separators between tokens: any run of whitespace and/or commas. Whitespace means the
# Unicode White_Space characters (a full-width space from a Chinese input method
# separates too); Python's ``\s`` would also take the control characters U+001C..U+001F,
# which are not whitespace, so the class is spelled out.
_WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_SEPARATORS = re.compile("[" + _WHITE_SPACE + ",\uff0c]+")  # also the full-width comma
# Case-insensitive means ASCII letters only ("K" and "k", not the Kelvin sign U+212A).
_ASCII_LOWER = {ord(c): ord(c) + 32 for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}


class Card:
    """A playing card: ``rank`` and ``suit``; frozen, hashable, equal by ``code``.

    ``Card("As")`` reads card text, as the core's ``Card`` does (a bad token is a
    ``CardError``); ``Card(Rank.ACE, Suit.SPADES)`` builds from a rank and a suit.
    ``str(card)`` and ``repr(card)`` give the canonical text ("As", "Th");
    ``card.glyph`` gives "A♠", "T♥".
    """

    __slots__ = ("rank", "suit")

    rank: Rank
    suit: Suit

    def __init__(self, rank: Union[Rank, int, str], suit: Union[Suit, int, None] = None) -> None:
        if suit is None:
            if not isinstance(rank, str):
                raise TypeError("Card() takes card text (\"As\"), or a rank and a suit")
            card = Card.parse(rank)
            rank, suit = card.rank, card.suit
        elif isinstance(rank, str):
            raise TypeError("Card(rank, suit) takes a Rank (or its int value), not text")
        object.__setattr__(self, "rank", Rank(rank))
        object.__setattr__(self, "suit", Suit(suit))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    @property
    def code(self) -> int:
        """``(rank - 2) * 4 + suit``: 0 for 2♦ up to 51 for A♠."""
        return (int(self.rank) - 2) * 4 + int(self.suit)

    @property
    def glyph(self) -> str:
        """The card with a unicode suit: "A♠"."""
        return self.rank.char + self.suit.glyph

    @classmethod
    def from_code(cls, code: int) -> "Card":
        """The card with the given ``code`` (0..51)."""
        if not 0 <= code < 52:
            raise ValueError(f"card code {code} outside 0..51")
        return cls(Rank(code // 4 + 2), Suit(code % 4))

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read one card ("As", "10h", "a♠"); anything else is a ``CardError`` (position 0)."""
        token = text.strip(_WHITE_SPACE)
        card = _parse_token(token)
        if card is None:
            raise CardError(f"bad card token {token!r} at position 0", token=token, position=0)
        return card

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code == other.code

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.code != other.code

    def __hash__(self) -> int:
        return hash(("Card", self.code))

    def __str__(self) -> str:
        return self.rank.char + self.suit.char

    def __repr__(self) -> str:
        return self.rank.char + self.suit.char

    def __reduce__(self) -> Any:
        return (Card, (int(self.rank), int(self.suit)))


def _parse_token(token: str) -> Optional[Card]:
    """One token to a card, or ``None`` when it is not exactly rank + suit."""
    low = token.translate(_ASCII_LOWER)
    if len(low) < 2:
        return None
    rank = _RANK_INPUT.get(low[:-1])
    suit = _SUIT_INPUT.get(low[-1])
    if rank is None or suit is None:
        return None
    return Card(rank, suit)


def parse_cards(text: str) -> List[Card]:
    """Read cards from text (RULES.md 1).

    Tokens are separated by any run of whitespace and/or commas (leading and
    trailing separators are ignored; empty text gives ``[]``). A token is a rank
    (2-9, T, 10, J, Q, K, A) then a suit (s h c d, ♠ ♥ ♣ ♦ or ♤ ♡ ♧ ♢), in any case.

    Raises:
        CardError: the first token that is not a card, with its text (``token``)
            and its 0-based index among the tokens (``position``).
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_cards expects str, got {type(text).__name__}")
    tokens = [t for t in _SEPARATORS.split(text) if t != ""]
    cards = []
    for position, token in enumerate(tokens):
        card = _parse_token(token)
        if card is None:
            raise CardError(f"bad card token {token!r} at position {position}", token=token, position=position)
        cards.append(card)
    return cards


def format_cards(cards: Iterable[Card], glyphs: bool = False) -> str:
    """Cards as text separated by single spaces: "As Kd Tc", or "A♠ K♦ T♣" with ``glyphs``."""
    return " ".join(card.glyph if glyphs else str(card) for card in cards)


def as_cards(cards: Union[str, Iterable[Card]]) -> List[Card]:
    """A str is parsed with :func:`parse_cards`; a sequence must hold ``Card`` objects."""
    if isinstance(cards, str):
        return parse_cards(cards)
    out = list(cards)
    for card in out:
        if not isinstance(card, Card):
            raise TypeError(f"expected Card, got {type(card).__name__}: {card!r}")
    return out


def copies_in_deck(card: Card, rules: Any) -> int:
    """How many copies of ``card`` the rule set's deck holds: 2 for a diamond in
    the ``extra_diamonds`` deck, else 1."""
    if rules.deck == "extra_diamonds" and card.suit == Suit.DIAMONDS:
        return 2
    return 1


def first_excess(cards: Iterable[Card], rules: Any) -> Optional[Card]:
    """The first card, in the given order, whose occurrence exceeds the deck's copies."""
    seen: Dict[int, int] = {}
    for card in cards:
        code = card.code
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > 1 and seen[code] > copies_in_deck(card, rules):
            return card
    return None


def deck(rules: Any = None) -> List[Card]:
    """The rule set's deck: the 52 cards in code order (2♦ 2♣ 2♥ 2♠ 3♦ ... A♠);
    the ``extra_diamonds`` deck (多三张) appends the 13 diamonds again, 2♦..A♦ (65 cards)."""
    rules = resolve(rules)
    cards = [Card.from_code(code) for code in range(52)]
    if rules.deck == "extra_diamonds":
        cards += [Card(rank, Suit.DIAMONDS) for rank in Rank]
    return cards


def validate_hand(cards: Union[str, Sequence[Card]], rules: Any = None, size: int = 13) -> None:
    """Check a hand: exactly ``size`` cards, none more often than the deck holds it.

    Args:
        cards: a sequence of ``Card`` or card text.
        rules: the rule set (its ``deck``); ``None`` = ``RuleSet.default()``.
        size: the expected number of cards (13 for a player's hand).

    Raises:
        CardError: unreadable text.
        CountError: wrong number of cards (``expected=size``, ``got``).
        DuplicateCardError: the first card, in input order, whose occurrence
            exceeds the deck (1 copy; 2 for diamonds in the extra_diamonds deck).
    """
    hand = as_cards(cards)
    rules = resolve(rules)
    if len(hand) != size:
        raise CountError(f"expected {size} cards, got {len(hand)}", expected=size, got=len(hand))
    extra = first_excess(hand, rules)
    if extra is not None:
        raise DuplicateCardError(f"duplicate card {extra}", card=str(extra))
