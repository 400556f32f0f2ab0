"""Arguments shared by rounds, tables and their saves: cards from text, player ids, the
rake, and a submission to and from its saved form."""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from thirteen import _core
from thirteen._core import Arrangement, Card, Declaration
from thirteen._plain import is_unicode, short
from thirteen.aliases import CardsLike, PlayerId, Submission
from thirteen.errors import CountError, ThirteenError
from thirteen.rules import RuleSet

__all__ = ["CardsLike", "PlayerId", "Submission"]


def cards_of(value: CardsLike) -> List[Card]:
    """Cards from text (``"As Kd"``) or a sequence of :class:`Card` / card text."""
    if isinstance(value, str):
        return list(_core.parse_cards(value))
    out: List[Card] = []
    for item in value:
        out.append(item if isinstance(item, Card) else Card(str(item)))
    return out


def one_per_seat(what: str, values: Iterable[Any], seats: int) -> Tuple[Any, ...]:
    """``values`` as a tuple of one entry per seat; ``CountError`` naming ``what`` (``expected``:
    the seats, ``got``: how many were given) otherwise."""
    values = tuple(values)
    if len(values) != seats:
        raise CountError(
            f"{what}: expected one per seat ({seats}), got {len(values)}",
            expected=seats,
            got=len(values),
        )
    return values


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as canonical text (``""`` for none)."""
    return _core.format_cards(list(cards)) if cards else ""


def is_int(value: Any) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_player_id(player: Any) -> None:
    """A player id is an int or text that a save can hold (valid Unicode)."""
    if not (isinstance(player, str) or is_int(player)):
        raise TypeError(f"a player id must be a str or an int, got {short(player)}")
    if isinstance(player, str) and not is_unicode(player):
        raise ThirteenError(f"player id {short(player)} is not valid Unicode text")


def normal_rake(rake: Any) -> Optional[Tuple[Union[int, str], Optional[int]]]:
    """``(percent, cap)`` with a float percent turned into its decimal text (JSON-exact)."""
    if rake is None:
        return None
    try:
        percent, cap = rake
    except (TypeError, ValueError):
        raise ThirteenError(f"rake must be (percent, cap) or None, got {short(rake)}") from None
    if isinstance(percent, float):
        percent = repr(percent)
    if cap is not None and not is_int(cap):
        raise ThirteenError(f"rake cap must be an integer or None, got {short(cap)}")
    out = (percent, cap)
    _core.money([1], 1, out)  # validates the percent and the cap (ThirteenError)
    return out


class MoneySettings:
    """What a round or a table turns units into money with (RULES.md 5 "Money")."""

    _stake: int
    _rake: Optional[Tuple[Union[int, str], Optional[int]]]

    @property
    def stake(self) -> int:
        """Money per unit (minor currency units)."""
        return self._stake

    @property
    def rake(self) -> Optional[Tuple[Union[int, str], Optional[int]]]:
        """``(percent, cap)`` or ``None``."""
        return self._rake


def submission_to_dict(sub: Submission) -> Dict[str, Any]:
    """A submission as a save holds it: lanes or a declaration, as card text."""
    if isinstance(sub, Arrangement):
        lanes = (sub.front, sub.middle, sub.back)
        return {lane: cards_text(cards) for lane, cards in zip(("front", "middle", "back"), lanes)}
    return {"special": sub.special, "cards": cards_text(sub.cards)}


def submission_from(value: Any, rules: RuleSet) -> Submission:
    """An :class:`Arrangement` / :class:`Declaration`, or one in dict form (as saved)."""
    if isinstance(value, (Arrangement, Declaration)):
        return value
    if isinstance(value, Mapping):
        if set(value) == {"front", "middle", "back"}:
            return Arrangement(
                cards_of(value["front"]), cards_of(value["middle"]), cards_of(value["back"]), rules
            )
        if "cards" in value and set(value) <= {"cards", "special"}:
            return Declaration(cards_of(value["cards"]), value.get("special"))
    raise TypeError(
        "a submission is an Arrangement, a Declaration, {'front','middle','back'} or "
        f"{{'special','cards'}}, got {short(value)}"
    )
