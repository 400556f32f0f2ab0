"""The WebSocket protocol of ``thirteen serve``: every client message as a msgspec schema.

A client's first message is :class:`Join` (a new player, with the public half of the
session's key pair, and the operator's token where the server needs one) or :class:`Resume`
(an existing session, proven by signing the connection's nonce). Every message after that
is a :class:`Signed` envelope: a per-connection sequence number, the message itself as
JSON text, and an HMAC-SHA256 over the connection nonce, the sequence number and that text,
keyed by the connection key of ``welcome`` (see :mod:`thirteen.server.security`). The
actions inside are the :data:`Action` union. Unknown fields, wrong types and out-of-range
values are refused; ``docs/server.md`` documents every message and frame.
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
    "read_seq",
    "problem",
    "encode",
    "encode_text",
]

#: Protocol version, sent in the ``hello`` frame and required in ``join`` and ``resume``.
#: Version 3 (this one): version 2 (session key pairs, the connection key, the ``state`` /
#: ``you`` frames, the servers' own refusal texts) and the ``redirect`` frame, sent by a
#: process that does not play the room (several processes on one database). Version 1
#: and 2 clients are refused.
PROTOCOL = 3

RoomName = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,40}$")]
RawName = Annotated[str, msgspec.Meta(max_length=96)]
Token = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
PublicKey = Annotated[str, msgspec.Meta(pattern=r"^04[0-9a-f]{128}$")]
Proof = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{128}$")]
Hex = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]
Jwt = Annotated[str, msgspec.Meta(max_length=4096)]
Cards = Annotated[str, msgspec.Meta(max_length=120)]
Version = Annotated[int, msgspec.Meta(ge=0, le=2**31)]


class _Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True):
    pass


class Join(_Message, tag="join", frozen=True):
    """Enter a room (created with the server's room settings if new) as a new player:
    ``key`` is the session's public key (P-256, hex of the uncompressed point); ``name``
    the display name (play money), ``token`` the operator's token (token accounts, where
    the name comes from the token)."""

    room: RoomName
    key: PublicKey
    protocol: Optional[Version] = None
    name: Optional[RawName] = None
    token: Optional[Jwt] = None


class Resume(_Message, tag="resume", frozen=True):
    """Come back to a session (断线重连): ``proof`` is the ECDSA P-256 / SHA-256 signature
    (hex r || s) of ``"thirteen resume\\n" + nonce + "\\n" + session`` by the session's key."""

    session: Token
    proof: Proof
    protocol: Optional[Version] = None


class Signed(_Message, tag="signed", frozen=True):
    """An action: ``body`` is the action's JSON text, ``seq`` rises on every message of
    the connection, ``sig`` = HMAC(connection key, nonce + "\\n" + seq + "\\n" + body).
    The server refuses a ``body`` over its ``--max-body-chars``."""

    seq: Annotated[int, msgspec.Meta(ge=1, le=2**53)]
    body: Annotated[str, msgspec.Meta(max_length=65536)]
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


class _SeqOnly(msgspec.Struct):
    seq: Any = None


_seq_only = msgspec.json.Decoder(_SeqOnly)


def decode_opening(data: Union[str, bytes]) -> Opening:
    """One frame from the socket. Raises :class:`msgspec.ValidationError` /
    :class:`msgspec.DecodeError` naming the problem, or RecursionError (nested too deep)."""
    return _opening.decode(data)


def decode_action(body: str) -> Action:
    """The action inside a :class:`Signed` envelope. Raises as :func:`decode_opening`."""
    return _action.decode(body)


def read_seq(data: Union[str, bytes]) -> Optional[int]:
    """The ``seq`` of a frame that is refused, when it can be read (a JSON object whose
    ``seq`` is an integer 1 to 2**53), else ``None``. Never raises."""
    try:
        seq = _seq_only.decode(data).seq
    except Exception:  # any frame at all may arrive here: it only may not raise
        return None
    if isinstance(seq, int) and not isinstance(seq, bool) and 1 <= seq <= 2**53:
        return seq
    return None


_PROBLEMS = (
    ("missing required field `", "missing"),
    ("unknown field `", "unknown"),
)


def problem(exc: Exception) -> Dict[str, str]:
    """The ``field`` (its JSON path without ``$.``) and ``problem`` (``missing``,
    ``unknown`` or ``invalid``) of a msgspec error, for a ``bad_frame`` refusal; ``{}``
    when the frame is not JSON at all or names no field."""
    text = str(exc)
    for needle, kind in _PROBLEMS:
        if needle in text:
            name = text.split(needle, 1)[1].split("`", 1)[0]
            path = text.rsplit("- at `$.", 1)[1].rstrip("`") + "." if "- at `$." in text else ""
            return {"field": (path + name)[:64], "problem": kind}
    if "- at `$." in text:
        return {"field": text.rsplit("- at `$.", 1)[1].rstrip("`")[:64], "problem": "invalid"}
    if isinstance(exc, msgspec.ValidationError):
        return {"problem": "invalid"}
    return {}


def encode(frame: Dict[str, Any]) -> bytes:
    """A server frame as JSON bytes."""
    return _encoder.encode(frame)


def encode_text(frame: Dict[str, Any]) -> str:
    """A server frame as JSON text: what is sent, made once per frame however many
    clients it goes to."""
    return _encoder.encode(frame).decode()
