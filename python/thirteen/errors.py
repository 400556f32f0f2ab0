"""Exceptions raised by ``thirteen``: the Rust core and the pure-Python reference share them.

Every error is a :class:`ThirteenError`, itself a :class:`ValueError`. Each class has
a ``kind`` string (the error names used in RULES.md and the test vectors) and the
attributes that locate the problem (token and position, card, player, lane, rule key).
Attributes that do not apply are ``None``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional, Tuple

__all__ = [
    "ThirteenError",
    "CardError",
    "CountError",
    "DuplicateCardError",
    "CardNotHeldError",
    "FouledError",
    "FalseSpecialError",
    "PlayerCountError",
    "SurrenderError",
    "RuleSetError",
    "SaveError",
    "DealError",
    "RoundStateError",
    "TableError",
    "ScoreFileError",
    "LimitError",
    "BackendError",
]


class ThirteenError(ValueError):
    """Base class of every error of the engine.

    Args:
        message: human-readable text naming the problem.
        **details: the locating attributes of the subclass (``token``, ``position``,
            ``card``, ``player``, ``lane``, ``expected``, ``got``, ``special``,
            ``allowed``, ``key``, ``value``, ``minimum``, ``maximum``); unknown names
            raise ``TypeError``.
    """

    kind: ClassVar[str] = "error"
    _fields: ClassVar[Tuple[str, ...]] = ()

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        unknown = set(details) - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no detail {sorted(unknown)}")
        for name in self._fields:
            setattr(self, name, details.get(name))

    @property
    def message(self) -> str:
        """The human-readable message."""
        return str(self.args[0]) if self.args else ""

    def details(self) -> Dict[str, Any]:
        """The locating attributes as a dict (``kind`` included), for logs and JSON."""
        out: Dict[str, Any] = {"kind": self.kind}
        for name in self._fields:
            out[name] = getattr(self, name)
        return out


class CardError(ThirteenError):
    """A card token that cannot be read (RULES.md 1): ``token`` and its 0-based ``position``."""

    kind = "bad_card"
    _fields = ("token", "position")
    token: Optional[str]
    position: Optional[int]


class CountError(ThirteenError):
    """Wrong number of cards (a hand, a lane, a player's 13) or of lanes.

    Attributes: ``expected``, ``got``, and ``lane`` / ``player`` when known.
    """

    kind = "wrong_count"
    _fields = ("expected", "got", "lane", "player")
    expected: Optional[int]
    got: Optional[int]
    lane: Optional[str]
    player: Optional[int]


class DuplicateCardError(ThirteenError):
    """A card held more often than the deck has it (RULES.md 1): ``card`` (canonical text), ``player``."""

    kind = "duplicate_card"
    _fields = ("card", "player")
    card: Optional[str]
    player: Optional[int]


class CardNotHeldError(ThirteenError):
    """A submitted, given or placed card that the seat does not hold (another seat's card, a
    card not dealt, or more copies than the seat holds): ``card`` (canonical text) and
    ``player`` (the seat, when there is one)."""

    kind = "card_not_held"
    _fields = ("card", "player")
    card: Optional[str]
    player: Optional[int]


class FouledError(ThirteenError):
    """A fouled arrangement (相公 / 倒水) refused under ``foul = "reject"`` (RULES.md 5): ``player``."""

    kind = "fouled"
    _fields = ("player",)
    player: Optional[int]


class FalseSpecialError(ThirteenError):
    """A special-hand declaration (报到) the cards do not support (RULES.md 4): ``player``, ``special``."""

    kind = "false_special"
    _fields = ("player", "special")
    player: Optional[int]
    special: Optional[str]


class PlayerCountError(ThirteenError):
    """A table size the rule set does not allow (RULES.md 1, 6): ``got`` and ``allowed``."""

    kind = "bad_player_count"
    _fields = ("got", "allowed")
    got: Optional[int]
    allowed: Optional[Tuple[int, ...]]


class SurrenderError(ThirteenError):
    """A surrender under a rule set that does not allow it, or a bad seat (RULES.md 5 step 1): ``player``."""

    kind = "surrender_not_allowed"
    _fields = ("player",)
    player: Optional[int]


class RuleSetError(ThirteenError):
    """An invalid rule set (RULES.md 6): ``key`` is the dotted path of the offending key."""

    kind = "rule_set"
    _fields = ("key",)
    key: Optional[str]


class SaveError(ThirteenError):
    """A saved round or table that cannot be trusted: not JSON or not a save, a field of
    the wrong shape, a state no play could reach (hands that are not the seeded deal,
    cards the deck does not have, a result that does not match the submissions, repeated
    seats or players), or a missing or wrong signature. ``key`` is the path of the
    offending field in the save (``"escaped[1]"``, ``"round.deal.hands"``), when known."""

    kind = "bad_save"
    _fields = ("key",)
    key: Optional[str]


class DealError(ThirteenError):
    """Cards handed to :meth:`Round.deal` or :meth:`Round.finish_swap` as a deal or swap
    made before (a replay, a save) that the rules and the round's seed do not give
    (RULES.md 7.1–7.3): the cut does not reach the first seat, or it is not the seed's
    deal or swap. ``key`` names the part (``"cut_card"``, ``"cut_start"``, ``"first"``,
    ``"hands"``), ``None`` for the deal as a whole."""

    kind = "bad_deal"
    _fields = ("key",)
    key: Optional[str]


class RoundStateError(ThirteenError):
    """An action the round's state does not allow: the wrong phase, a seat that already
    submitted, escaped or surrendered, seats still missing at settlement.

    Attributes: ``player`` (the seat, when one is concerned) and ``phase`` (the round's
    phase).
    """

    kind = "round_state"
    _fields = ("player", "phase")
    player: Optional[int]
    phase: Optional[str]


class TableError(ThirteenError):
    """A table action that is not possible: an unknown or already seated player, a taken
    or unknown seat, too little balance to sit, a round in progress (or none).

    Attributes: ``player`` (the player id) and ``seat`` (the table seat) when known.
    """

    kind = "table"
    _fields = ("player", "seat")
    player: Any
    seat: Optional[int]


class ScoreFileError(ThirteenError):
    """A table file that cannot be scored: unreadable, not JSON, or a field of the wrong
    shape; ``key`` is the field's path (``"players[1].front"``), when known."""

    kind = "score_file"
    _fields = ("key",)
    key: Optional[str]


class LimitError(ThirteenError):
    """A number outside the bounds the engine accepts (README, "Numeric bounds").

    The bounds keep every amount exact: a stake up to 1,000,000,000 minor units per unit,
    units within ±1,000,000,000, a rake percentage from 0 to 100, banker stake multipliers
    from 1 to 1,000, counts and seats >= 0, integers within 64 bits. Attributes: ``key``
    (the argument), ``value`` (as given, as text), ``minimum`` and ``maximum`` (``None``
    when unbounded above).
    """

    kind = "out_of_range"
    _fields = ("key", "value", "minimum", "maximum")
    key: Optional[str]
    value: Optional[str]
    minimum: Optional[int]
    maximum: Optional[int]


class BackendError(ThirteenError):
    """A run that cannot use the backend asked for: an unknown ``backend``, Ray not installed
    (the message says ``pip install 'thirteen[ray]'``), a Ray cluster that cannot be reached,
    or one that lost a worker mid-run. ``backend`` names it (``"ray"``)."""

    kind = "backend"
    _fields = ("backend",)
    backend: Optional[str]
