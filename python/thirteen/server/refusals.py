"""What ``thirteen serve`` tells a client when it refuses something: an allow-list of codes,
each with the server's own text.

The server never forwards an engine message or an exception's attributes to a client
(an engine message could name another seat or depend on other seats' cards). A refusal is
an ``error`` frame built here: ``code`` from :data:`TEXTS`, ``message`` the text written
here for that code, ``seq`` when the refused message's sequence number could be read, and
at most the few fields of :data:`ECHO` that depend only on what the client itself sent
(a lane, a count, a token's position, the special it named). No card is ever echoed.
The server's log may say more (:func:`engine_code` keeps the engine's exception for it).
"""

from __future__ import annotations

from typing import Any, ClassVar, Dict, Optional, Tuple, Type

from thirteen.errors import (
    CardError,
    CardNotHeldError,
    CountError,
    DuplicateCardError,
    FalseSpecialError,
    FouledError,
    LimitError,
    RoundStateError,
    SurrenderError,
    TableError,
    ThirteenError,
)

__all__ = ["TEXTS", "ECHO", "Refusal", "GameError", "engine_code", "error_frame"]

#: Every code a client can receive, with the text sent with it.
TEXTS: Dict[str, str] = {
    # the frame itself
    "bad_frame": "not a valid message of this protocol (docs/server.md)",
    "binary_frame": "binary frames are not accepted: send JSON text",
    "unsupported_protocol": "this server speaks protocol 2 (docs/server.md)",
    "rate_limited": "too many messages: slow down",
    "join_timeout": "no join or resume in time: closing the connection",
    "too_many_connections": "too many connections from this address",
    # sessions and signatures
    "no_session": "join or resume first",
    "already_joined": "this connection already has a session",
    "unknown_session": "no such session",
    "bad_proof": "the resume proof does not match this session and connection",
    "bad_key": "the session key is not a P-256 public key (65-byte uncompressed point, hex)",
    "bad_signature": "the signature does not match the message",
    "replayed": "the sequence number is not above the last one accepted",
    # identity and money
    "bad_name": "a name is 1 to 24 visible characters (docs/server.md)",
    "name_taken": "that name is taken: resume your session, or choose another",
    "no_grant": "this address had its starting balance: resume your session",
    "token_required": "this server needs a token from the operator to join",
    "bad_token": "the token was refused",
    "token_replayed": "the token was used before",
    # capacity
    "server_busy": "the server holds as many rooms as it may: try again later",
    "room_full": "the room has as many spectators as it may",
    # the room
    "seated": "you are already seated",
    "not_seated": "you are not seated",
    "no_seat": "there is no such seat at this table",
    "table_full": "the table is full",
    "below_minimum": "the buy-in is below the room minimum (破产)",
    "insufficient_funds": "your account does not hold that much",
    "not_in_round": "you are not dealt in to a round in progress",
    "not_arranging": "there is no hand to arrange now",
    "stale_state": "the room changed under the action: try again",
    "store": "the database refused the change: try again",
    # the engine's refusals, in the server's words
    "bad_card": "a card could not be read",
    "wrong_count": "the wrong number of cards",
    "duplicate_card": "a card is sent more often than the deck has it",
    "card_not_held": "a card you sent is not in your hand",
    "fouled": "the arrangement is fouled (相公): front <= middle <= back is broken",
    "false_special": "your cards do not hold that special hand",
    "surrender_not_allowed": "these rules do not allow surrender",
    "round_state": "that is not possible in this phase of the round",
    "out_of_range": "a number is out of range",
    "table": "the table refused the action",
    "refused": "the action was refused",
}

#: The fields a refusal may carry besides ``code``, ``message`` and ``seq``: each depends
#: only on what the client sent (never on a card, never on another seat).
ECHO: Dict[str, Tuple[str, ...]] = {
    "bad_frame": ("field", "problem"),
    "bad_card": ("position",),
    "wrong_count": ("lane", "expected", "got"),
    "false_special": ("special",),
    "bad_name": ("reason",),
    "bad_token": ("reason",),
}

#: The engine's exception classes and their codes, most specific first.
_ENGINE: Tuple[Tuple[Type[ThirteenError], str], ...] = (
    (CardNotHeldError, "card_not_held"),
    (DuplicateCardError, "duplicate_card"),
    (CardError, "bad_card"),
    (CountError, "wrong_count"),
    (FouledError, "fouled"),
    (FalseSpecialError, "false_special"),
    (SurrenderError, "surrender_not_allowed"),
    (RoundStateError, "round_state"),
    (LimitError, "out_of_range"),
    (TableError, "table"),
)


class Refusal(ThirteenError):
    """Something the server refuses: ``code`` (a key of :data:`TEXTS`) and ``echo`` (the
    fields of :data:`ECHO` for that code). The message is for the server's log only."""

    kind = "refusal"
    _fields: ClassVar[Tuple[str, ...]] = ("code", "echo")
    code: str
    echo: Dict[str, Any]

    def __init__(self, message: str, *, code: str, echo: Optional[Dict[str, Any]] = None) -> None:
        if code not in TEXTS:
            raise TypeError(f"refusal code {code!r} is not in the allow-list")
        super().__init__(message, code=code, echo=dict(echo or {}))


class GameError(Refusal):
    """An action the room refuses (not seated, table full, no round ...): ``code``."""

    kind = "game"
    _fields = ("code",)

    def __init__(self, message: str, *, code: str) -> None:
        if code not in TEXTS:
            raise TypeError(f"refusal code {code!r} is not in the allow-list")
        ThirteenError.__init__(self, message, code=code)
        self.echo = {}


def engine_code(exc: ThirteenError) -> Tuple[str, Dict[str, Any]]:
    """The code of an engine refusal and the fields it may echo (see :data:`ECHO`): never
    a card, never the engine's message."""
    for cls, code in _ENGINE:
        if isinstance(exc, cls):
            break
    else:
        code = "refused"
    details = exc.details()
    echo = {k: details[k] for k in ECHO.get(code, ()) if details.get(k) is not None}
    return code, echo


def error_frame(code: str, seq: Optional[int] = None, echo: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """The ``error`` frame of a refusal: the code's own text, ``seq`` when known, and the
    allowed echo fields only (others are dropped)."""
    frame: Dict[str, Any] = {"type": "error", "code": code, "message": TEXTS[code]}
    if seq is not None:
        frame["seq"] = seq
    allowed = ECHO.get(code, ())
    for key, value in (echo or {}).items():
        if key in allowed and isinstance(value, (str, int)) and not isinstance(value, bool):
            frame[key] = value
    return frame
