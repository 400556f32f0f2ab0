"""The WebSocket protocol of ``thirteen serve``: every client message as a msgspec schema.

A client's first message is :class:`Join` (a new player) or :class:`Resume` (an existing
session, proven with the connection's nonce). Every message after that is a
:class:`Signed` envelope: a per-connection sequence number, the message itself as JSON
text, and an HMAC-SHA256 over the connection nonce, the sequence number and that text,
keyed by the session secret (see :mod:`thirteen.server.security`). The actions inside are
the :data:`Action` union. Unknown fields, wrong types and out-of-range values are refused;
``docs/server.md`` documents every message and frame.
"""

from __future__ import annotations

from typing import Annotated, Any, Dict, Optional, Union

import msgspec

__all__ = [
    "PROTOCOL",
    "Join",
    "Resume",
    "Signed",
    "Opening",
    "Sit",
    "Stand",
    "Leave",
    "Hints",
    "Check",
    "Submit",
    "Declare",
    "Give",
    "Surrender",
    "Ping",
    "Action",
    "decode_opening",
    "decode_action",
    "encode",
]

#: Protocol version, sent in the ``hello`` frame.
PROTOCOL = 1

RoomName = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
PlayerName = Annotated[str, msgspec.Meta(min_length=1, max_length=24, pattern=r"^[^\x00-\x1f<>&]+$")]
Token = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
Hex = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]
Cards = Annotated[str, msgspec.Meta(max_length=120)]


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    pass


class Join(_Message, tag="join", frozen=True):
    """Enter a room (created with the server's room settings if new) as a new player."""

    room: RoomName
    name: PlayerName


class Resume(_Message, tag="resume", frozen=True):
    """Come back to a session (断线重连): ``proof`` = HMAC(secret, "resume\\n" + nonce)."""

    session: Token
    proof: Hex


class Signed(_Message, tag="signed", frozen=True):
    """An action: ``body`` is the action's JSON text, ``seq`` rises on every message of
    the connection, ``sig`` = HMAC(secret, nonce + "\\n" + seq + "\\n" + body)."""

    seq: Annotated[int, msgspec.Meta(ge=1, le=2**53)]
    body: Annotated[str, msgspec.Meta(max_length=4000)]
    sig: Hex


Opening = Union[Join, Resume, Signed]


class Sit(_Message, tag="sit", frozen=True):
    """Sit down (at ``seat``, or the lowest free one) bringing ``buy_in`` money from the
    account (all of it when omitted)."""

    seat: Optional[Annotated[int, msgspec.Meta(ge=0, le=3)]] = None
    buy_in: Optional[Annotated[int, msgspec.Meta(ge=1, le=2**53)]] = None


class Stand(_Message, tag="stand", frozen=True):
    """Stand up: at once between rounds, after the round when dealt in (自动站起)."""


class Leave(_Message, tag="leave", frozen=True):
    """Leave the seat at once; during a round this is 强退 (escape) with its penalty."""


class Hints(_Message, tag="hints", frozen=True):
    """Ask for up to ``n`` hints (牌型提示) for the own hand."""

    n: Annotated[int, msgspec.Meta(ge=1, le=10)] = 5


class Check(_Message, tag="check", frozen=True):
    """Check lanes before submitting: their categories and whether they foul (相公)."""

    front: Cards
    middle: Cards
    back: Cards


class Submit(_Message, tag="submit", frozen=True):
    """Submit the own arrangement (front 3 | middle 5 | back 5, card text)."""

    front: Cards
    middle: Cards
    back: Cards


class Declare(_Message, tag="declare", frozen=True):
    """Declare a special hand (报到); ``cards``: the 13 kept (default: the hand, when it
    has 13); ``special``: the key, or the highest held."""

    special: Optional[Annotated[str, msgspec.Meta(max_length=40)]] = None
    cards: Optional[Cards] = None


class Give(_Message, tag="give", frozen=True):
    """Swap-three (换三张): the cards given (replaces an earlier gift)."""

    cards: Cards


class Surrender(_Message, tag="surrender", frozen=True):
    """Surrender the round (Western rule sets)."""


class Ping(_Message, tag="ping", frozen=True):
    """Answered with ``pong``."""


Action = Union[Sit, Stand, Leave, Hints, Check, Submit, Declare, Give, Surrender, Ping]

_opening = msgspec.json.Decoder(Opening)
_action = msgspec.json.Decoder(Action)
_encoder = msgspec.json.Encoder()


def decode_opening(data: Union[str, bytes]) -> Opening:
    """One frame from the socket. Raises :class:`msgspec.ValidationError` /
    :class:`msgspec.DecodeError` naming the problem."""
    return _opening.decode(data)


def decode_action(body: str) -> Action:
    """The action inside a :class:`Signed` envelope. Raises as :func:`decode_opening`."""
    return _action.decode(body)


def encode(frame: Dict[str, Any]) -> bytes:
    """A server frame as JSON bytes."""
    return _encoder.encode(frame)
