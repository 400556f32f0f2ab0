"""Saved rounds and tables: the shape of a save (``thirteen.round/1``,
``thirteen.table/1``), checked with msgspec before anything reads it, and its optional
signature.

A save is JSON text (or the same as plain data). :class:`RoundSave` and
:class:`TableSave` are the shapes :meth:`Round.to_dict` and :meth:`Table.to_dict` write;
a save of any other shape (a missing or unknown field, a value of the wrong type, text
that is not JSON or is nested too deep) is a :class:`~thirteen.errors.SaveError` whose
``key`` is the path of the field. Whether play could have reached the state is found by
replaying the save (:mod:`thirteen.game.replay`).

Signing (tamper evidence, for servers that keep saves where others can write): with a
key, the save gets a field ``"hmac"``: HMAC-SHA256, in hex, of the save's other fields
encoded as compact JSON with sorted keys. Reading with the key refuses a save whose
signature is missing or wrong; reading without one ignores the field. A signature shows
only that whoever holds the key wrote the save: an old save signed with the same key
still verifies, so a server that must never resume a round twice keeps its own record of
settled rounds.
"""

from __future__ import annotations

import hmac
from hashlib import sha256
from typing import Any, Dict, List, Literal, Mapping, Optional, Tuple, Type, TypeVar, Union

import msgspec

from thirteen._plain import explain, is_unicode, short, too_nested
from thirteen.errors import SaveError, ThirteenError

__all__ = [
    "JsonSave",
    "ROUND_FORMAT",
    "TABLE_FORMAT",
    "RoundSave",
    "TableSave",
    "decode",
    "encode",
    "result",
    "shape",
]

#: The ``format`` of a saved round.
ROUND_FORMAT = "thirteen.round/1"
#: The ``format`` of a saved table.
TABLE_FORMAT = "thirteen.table/1"

PlayerId = Union[str, int]
Phase = Literal["new", "swap", "arrange", "settled"]
AutoReason = Literal["timeout", "disconnect"]
Rake = Tuple[Union[int, str], Optional[int]]


class _Shape(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A part of a save: no unknown fields, defaults left out when written back."""


class SubmissionSave(_Shape):
    """A seat's play: ``front``, ``middle``, ``back`` (card text), or a declaration:
    ``cards`` and optionally ``special``."""

    front: Optional[str] = None
    middle: Optional[str] = None
    back: Optional[str] = None
    special: Optional[str] = None
    cards: Optional[str] = None


class DealSave(_Shape):
    """The deal: each seat's cards as dealt, and the cut (切牌)."""

    hands: List[str]
    cut_card: Optional[str] = None
    cut_start: Optional[int] = None
    first: Optional[int] = None


class ResultSave(_Shape):
    """A settled round's :class:`~thirteen.RoundResult` (its ``settlement`` is checked by
    settling again, not read)."""

    players: List[PlayerId]
    settlement: Optional[Dict[str, Any]]
    settled_seats: List[int]
    results: List[int]
    escape: List[int]
    units: List[int]
    money: List[int]
    rake: List[int]
    stake: int
    balances: Optional[List[int]]
    bankrupt: List[int]
    auto: List[Optional[AutoReason]]
    escaped: List[int]
    surrendered: List[int]


class RoundSave(_Shape):
    """A saved :class:`~thirteen.Round` (``format = "thirteen.round/1"``)."""

    format: Literal["thirteen.round/1"]
    rules: Dict[str, Any]
    players: List[PlayerId]
    phase: Phase
    given: List[Optional[str]]
    submissions: List[Optional[SubmissionSave]]
    auto: List[Optional[AutoReason]]
    surrendered: List[int]
    escaped: List[int]
    disconnected: List[int]
    stakes: Optional[List[int]] = None
    banker: int = 0
    seed: Optional[int] = None
    stake: int = 1
    rake: Optional[Rake] = None
    deal: Optional[DealSave] = None
    hands: Optional[List[str]] = None
    result: Optional[ResultSave] = None
    #: Per seat, why the engine chose its swap-three gift (代打); left out when no seat's
    #: was (saves written before the engine gave for a seat have none).
    auto_given: Optional[List[Optional[AutoReason]]] = None


class LevelSave(_Shape):
    """One level of a saved custom ladder."""

    threshold: int
    title: str
    level: Optional[int] = None


class LadderSave(_Shape):
    """A saved custom ladder (a shipped one is saved by its name)."""

    name: str
    levels: List[LevelSave]
    description: str = ""


class TablePlayerSave(_Shape):
    """A seated player of a saved table."""

    player: PlayerId
    seat: int
    balance: int
    points: int = 0
    stand_after_round: bool = False
    disconnected: bool = False
    left: bool = False


class TableSave(_Shape):
    """A saved :class:`~thirteen.Table` (``format = "thirteen.table/1"``); its round is
    read as a :class:`RoundSave` by :meth:`Round.from_dict`."""

    format: Literal["thirteen.table/1"]
    rules: Dict[str, Any]
    size: int
    stake: int
    min_balance: int
    players: List[TablePlayerSave]
    rake: Optional[Rake] = None
    money_ladder: Union[str, LadderSave] = "bianfeng-money"
    points_ladder: Union[str, LadderSave] = "bianfeng-points"
    rounds_played: int = 0
    round: Optional[Dict[str, Any]] = None


S = TypeVar("S", RoundSave, TableSave)
T = TypeVar("T", bound=msgspec.Struct)


def shape(data: Any, cls: Type[S]) -> S:
    """``data`` (plain data, as ``to_dict`` wrote it) read as the save ``cls``.

    Raises:
        SaveError: another ``format``, or a field missing, unknown or of the wrong type
            (``key`` names it, e.g. ``"escaped[0]"``).
    """
    want = ROUND_FORMAT if cls is RoundSave else TABLE_FORMAT
    what = "round" if cls is RoundSave else "table"
    if not isinstance(data, Mapping):
        raise SaveError(f"not a saved {what}: expected an object, got {type(data).__name__}")
    got = data.get("format")
    if got != want:
        shown = got if isinstance(got, str) else type(got).__name__
        raise SaveError(
            f"not a saved {what} (format {shown!r:.60}, expected {want!r})", key="format"
        )
    return _convert(data, cls, what)


def result(data: Any) -> ResultSave:
    """``data`` read as a saved :class:`~thirteen.RoundResult` (its shape only).

    Raises:
        SaveError: not an object, or a field missing, unknown, of the wrong type or
            nested too deep.
    """
    if not isinstance(data, Mapping):
        raise SaveError(f"not a saved result: expected an object, got {type(data).__name__}")
    out = _convert(data, ResultSave, "result")
    if out.settlement is not None and too_nested(out.settlement, 8):
        raise SaveError("saved result: the settlement is nested too deep", key="settlement")
    return out


def _convert(data: Mapping[str, Any], cls: Type[T], what: str) -> T:
    try:
        return msgspec.convert(dict(data), cls)
    except UnicodeError as exc:  # text with lone surrogates, which no JSON can hold
        reason = exc.reason if isinstance(exc, (UnicodeEncodeError, UnicodeDecodeError)) else exc
        raise SaveError(f"saved {what}: text that is not valid Unicode ({reason})") from None
    except msgspec.ValidationError as exc:
        key, problem = explain(exc)
        where = f" '{key}'" if key else ""
        raise SaveError(f"saved {what}{where}: {problem}", key=key) from None


def decode(text: Any, key: Any = None) -> Any:
    """The plain data of a save's JSON text (``str`` or UTF-8 ``bytes``); with ``key``,
    only when its signature is right (the ``"hmac"`` field is removed either way).

    Raises:
        SaveError: not JSON, nested too deep, or (with a key) not signed or signed
            with another key or over other content.
        ThirteenError: an empty ``key``, or a ``str`` key that is not valid Unicode.
        TypeError: ``text`` is not text, or ``key`` is not ``bytes`` or ``str``.
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"a save is JSON text (str or bytes), got {type(text).__name__}")
    secret = None if key is None else _key(key)
    try:
        data = msgspec.json.decode(text)
    except RecursionError:
        raise SaveError("the save is not JSON: nested too deep") from None
    except UnicodeError as exc:
        raise SaveError(f"the save is not UTF-8 text: {exc}") from None
    except msgspec.DecodeError as exc:
        raise SaveError(f"the save is not JSON: {exc}") from None
    if isinstance(data, dict):
        signature = data.pop("hmac", None)
        if secret is not None:
            if signature is None:
                raise SaveError("the save is not signed (no 'hmac' field)", key="hmac")
            # A signature is hex: any other text (non-ASCII included, which
            # compare_digest refuses with a TypeError) is simply wrong.
            if (
                not isinstance(signature, str)
                or not signature.isascii()
                or not hmac.compare_digest(signature, _sign(data, secret))
            ):
                raise SaveError("the save's signature is wrong: it was changed", key="hmac")
    elif secret is not None:
        raise SaveError("the save is not signed: not a JSON object")
    return data


def encode(data: Dict[str, Any], key: Any = None) -> str:
    """``data`` as JSON text (sorted keys); with ``key``, signed: an ``"hmac"`` field
    over the rest (see the module docstring).

    Raises:
        ThirteenError: an empty ``key``, or a ``str`` key that is not valid Unicode.
        TypeError: ``key`` is not ``bytes`` or ``str``.
    """
    if key is not None:
        secret = _key(key)
        data = {**data, "hmac": _sign(data, secret)}
    return msgspec.json.encode(data, order="sorted").decode("utf-8")


def _key(key: Any) -> bytes:
    """The secret of a signing key: non-empty ``bytes``, or ``str`` as UTF-8."""
    if isinstance(key, str):
        if not is_unicode(key):
            raise ThirteenError(f"the signing key is not valid Unicode text: {short(key)}")
        secret = key.encode("utf-8")
    elif isinstance(key, (bytes, bytearray)):
        secret = bytes(key)
    else:
        raise TypeError(f"a signing key is bytes or str, got {type(key).__name__}")
    if not secret:
        raise ThirteenError("the signing key is empty")
    return secret


def _sign(data: Dict[str, Any], secret: bytes) -> str:
    body = msgspec.json.encode(data, order="sorted")
    return hmac.new(secret, body, sha256).hexdigest()


class JsonSave:
    """``to_json`` / ``from_json`` over a class's ``to_dict`` / ``from_dict``, signed
    on request (:func:`encode`, :func:`decode`)."""

    def to_json(self, key: Union[bytes, str, None] = None) -> str:
        """:meth:`to_dict` as JSON text; with ``key`` (bytes or str), signed with
        HMAC-SHA256 (a field ``"hmac"``) so that :meth:`from_json` with the same key
        refuses any change.

        Raises:
            ThirteenError: an empty key, or a str key that is not valid Unicode.
            TypeError: ``key`` is not bytes or str.
        """
        return encode(self.to_dict(), key)  # type: ignore[attr-defined]

    @classmethod
    def from_json(cls, text: Union[str, bytes], key: Union[bytes, str, None] = None) -> Any:
        """The object :meth:`to_json` wrote (see ``from_dict``). With ``key``, only a
        save signed with that key and unchanged since; without, a signature is ignored.

        Raises:
            SaveError: not JSON, nested too deep, a bad save (see ``from_dict``), or
                with ``key`` a missing or wrong signature.
            ThirteenError: an empty key, or a str key that is not valid Unicode.
            TypeError: ``text`` is not str or bytes, or ``key`` not bytes or str.
        """
        return cls.from_dict(decode(text, key))  # type: ignore[attr-defined]
