"""Arrangements of 13 cards into front / middle / back, and the foul check (RULES.md 2).

头墩 front (3 cards), 中墩 middle (5), 尾墩 / 底墩 back (5). An arrangement that is
not front <= middle <= back is fouled (相公 / 倒水).
"""

from __future__ import annotations

from typing import Any, Sequence, Tuple, Union

from thirteen.errors import CardError, CountError, DuplicateCardError

from ._rules import resolve
from .cards import Card, as_cards, first_excess, format_cards, parse_cards
from .hands import _value

__all__ = ["Arrangement", "is_foul"]

LANES = ("front", "middle", "back")
LANE_SIZES = {"front": 3, "middle": 5, "back": 5}

CardsLike = Union[str, Sequence[Card]]


class Arrangement:
    """A player's 13 cards in three lanes.

    Args:
        front, middle, back: 3, 5 and 5 cards (``Card`` sequences or text).
        rules: only its ``deck`` is read: repeated cards are checked against the
            extra-diamonds deck (two of each diamond) only when ``rules`` has that
            deck; otherwise every card may appear once.

    Raises:
        CardError: unreadable text.
        CountError: a lane of the wrong size (``lane``, ``expected``, ``got``).
        DuplicateCardError: the first card beyond the deck, in front, middle,
            back order.

    Equality ignores the order of the cards within a lane. ``str(a)`` is
    "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d" (cards in the given order).
    """

    __slots__ = ("front", "middle", "back")

    front: Tuple[Card, ...]
    middle: Tuple[Card, ...]
    back: Tuple[Card, ...]

    def __init__(self, front: CardsLike, middle: CardsLike, back: CardsLike, rules: Any = None) -> None:
        lanes = (tuple(as_cards(front)), tuple(as_cards(middle)), tuple(as_cards(back)))
        _check_lanes(lanes, rules)
        for name, cards in zip(LANES, lanes):
            object.__setattr__(self, name, cards)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Arrangement is immutable")

    @classmethod
    def parse(cls, text: str, rules: Any = None) -> "Arrangement":
        """Read "front | middle | back" (three groups separated by ``|``).

        Raises:
            CountError: not exactly three groups (``expected=3``, ``got``, ``lane=None``).
            CardError: a bad token; ``position`` counts the tokens of the whole
                text (the ``|`` separators are not tokens).
            and the errors of the constructor.
        """
        groups = text.split("|")
        if len(groups) != 3:
            raise CountError(
                f"an arrangement has 3 lanes separated by '|', got {len(groups)}",
                expected=3,
                got=len(groups),
                lane=None,
            )
        lanes = []
        offset = 0
        for group in groups:
            try:
                cards = parse_cards(group)
            except CardError as err:
                position = offset + (err.position or 0)
                raise CardError(
                    f"bad card token {err.token!r} at position {position}",
                    token=err.token,
                    position=position,
                ) from None
            offset += len(cards)
            lanes.append(cards)
        return cls(lanes[0], lanes[1], lanes[2], rules=rules)

    @property
    def cards(self) -> Tuple[Card, ...]:
        """All 13 cards: front, then middle, then back."""
        return self.front + self.middle + self.back

    @property
    def lanes(self) -> Tuple[Tuple[Card, ...], Tuple[Card, ...], Tuple[Card, ...]]:
        """``(front, middle, back)``."""
        return (self.front, self.middle, self.back)

    def _key(self) -> Tuple[Tuple[int, ...], ...]:
        return tuple(tuple(sorted(card.code for card in lane)) for lane in self.lanes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Arrangement):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Arrangement):
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        return hash(("Arrangement", self._key()))

    def __str__(self) -> str:
        return " | ".join(format_cards(lane) for lane in self.lanes)

    def __repr__(self) -> str:
        return f"Arrangement({str(self)!r})"

    def __reduce__(self) -> Any:
        return (_rebuild, (self.front, self.middle, self.back))


def _rebuild(front: Tuple[Card, ...], middle: Tuple[Card, ...], back: Tuple[Card, ...]) -> Arrangement:
    """Unpickle without re-checking (the pickled object was checked when built)."""
    obj = Arrangement.__new__(Arrangement)
    for name, cards in zip(LANES, (front, middle, back)):
        object.__setattr__(obj, name, tuple(cards))
    return obj


def _check_lanes(lanes: Sequence[Sequence[Card]], rules: Any) -> None:
    for name, cards in zip(LANES, lanes):
        if len(cards) != LANE_SIZES[name]:
            raise CountError(
                f"the {name} lane needs {LANE_SIZES[name]} cards, got {len(cards)}",
                expected=LANE_SIZES[name],
                got=len(cards),
                lane=name,
            )
    # Only an explicit extra-diamonds rule set allows a second copy of a diamond.
    deck_rules: Any = resolve(rules) if rules is not None else _STANDARD_DECK
    extra = first_excess([card for lane in lanes for card in lane], deck_rules)
    if extra is not None:
        raise DuplicateCardError(f"duplicate card {extra}", card=str(extra))


class _StandardDeck:
    deck = "standard"


_STANDARD_DECK = _StandardDeck()


def as_arrangement(arrangement: Union["Arrangement", str], rules: Any = None) -> "Arrangement":
    """An ``Arrangement`` as is; text is read with :meth:`Arrangement.parse`."""
    if isinstance(arrangement, Arrangement):
        return arrangement
    if isinstance(arrangement, str):
        return Arrangement.parse(arrangement, rules)
    raise TypeError(f"expected Arrangement, got {type(arrangement).__name__}")


def is_foul(arrangement: Union[Arrangement, str], rules: Any = None) -> bool:
    """True when the arrangement is fouled (相公 / 倒水, RULES.md 2): not
    front <= middle <= back in the full HandValue order of section 3 (the
    rule set's ``wheel``, five of a kind, a front's missing kickers below every
    rank). Equal lanes are allowed. Suits are never looked at.

    Args:
        arrangement: an :class:`Arrangement` (or "front | middle | back" text).
        rules: ``None`` = default.
    """
    rules = resolve(rules)
    arrangement = as_arrangement(arrangement, rules)
    front, middle, back = (_value(lane, rules.wheel) for lane in arrangement.lanes)
    return not (front <= middle <= back)


def lane_values(arrangement: Arrangement, rules: Any) -> Tuple[Any, Any, Any]:
    """The three HandValues of an arrangement (front, middle, back)."""
    return tuple(_value(lane, rules.wheel) for lane in arrangement.lanes)  # type: ignore[return-value]
