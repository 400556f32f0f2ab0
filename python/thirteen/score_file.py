"""The table file of ``thirteen score``: its shape, checked with msgspec, and its
settlement (RULES.md 5).

A table file is a JSON object::

    {"rules": "bianfeng" or {...rule set...},             (optional)
     "players": [{"front": "...", "middle": "...", "back": "..."}
                 or {"special": "dragon", "cards": "..."}, ...],
     "banker": 0, "stakes": [1, 2, 1], "surrendered": [2],  (optional, RULES.md 5)
     "stake": 100, "rake": {"percent": 5, "cap": 50}}       (optional: money)

Every field has one type; a file of another shape (lanes given as numbers, a special
without its cards, a banker that is not a whole number, ``stakes`` not one per player, an
unknown field) is a :class:`~thirteen.ThirteenError` that names the field, which the
command turns into a message and exit code 2.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import msgspec

import thirteen
from thirteen._plain import explain
from thirteen.errors import ScoreFileError, ThirteenError
from thirteen.rules import PRESET_NAMES, RuleSet

__all__ = ["ScoreFileError", "TableFile", "load", "score"]

#: The largest table file read, in bytes.
MAX_BYTES = 1 << 20


class _Shape(msgspec.Struct, forbid_unknown_fields=True):
    pass


class PlayerEntry(_Shape):
    """One seat: the three lanes as card text, or a declared special and its cards."""

    front: Optional[str] = None
    middle: Optional[str] = None
    back: Optional[str] = None
    special: Optional[str] = None
    cards: Optional[str] = None


class RakeEntry(_Shape):
    """The rake (服务费): ``percent`` (an integer or decimal text such as ``"2.5"``) and
    an optional ``cap`` in minor currency units."""

    percent: Union[int, float, str]
    cap: Optional[int] = None


class TableFile(_Shape):
    """The whole file (see the module docstring)."""

    players: List[PlayerEntry]
    rules: Union[str, Dict[str, Any], None] = None
    banker: int = 0
    stakes: Optional[List[int]] = None
    surrendered: List[int] = []
    stake: Optional[int] = None
    rake: Optional[RakeEntry] = None


def load(path: str) -> TableFile:
    """The table file at ``path``, read and shape-checked.

    Raises:
        ScoreFileError: the file cannot be read, is over 1 MiB, is not JSON (or nested
            too deep), or has a field of the wrong shape (named in the message).
    """
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ScoreFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_BYTES:
        raise ScoreFileError(f"{path} is larger than {MAX_BYTES} bytes: not a table file")
    try:
        data = msgspec.json.decode(raw)
    except RecursionError:
        raise ScoreFileError(f"{path} is not valid JSON: nested too deep") from None
    except msgspec.DecodeError as exc:
        raise ScoreFileError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise ScoreFileError(f"{path}: expected an object with a 'players' list")
    try:
        table = msgspec.convert(data, TableFile)
    except msgspec.ValidationError as exc:
        key, problem = explain(exc)
        where = f"'{key}' " if key else ""
        raise ScoreFileError(f"{path}: {where}{problem}", key=key) from None
    if table.stakes is not None and len(table.stakes) != len(table.players):
        raise ScoreFileError(
            f"{path}: stakes must have one entry per player ({len(table.players)}), "
            f"got {len(table.stakes)}",
            key="stakes",
        )
    return table


def rules_of(table: TableFile, default: str) -> RuleSet:
    """The file's rule set: a preset name or a rule-set object; ``default`` (a preset
    name) when it names none.

    Raises:
        ThirteenError: an unknown preset; RuleSetError: an invalid rule set.
    """
    spec = default if table.rules is None else table.rules
    if isinstance(spec, str):
        if spec not in PRESET_NAMES:
            raise ThirteenError(f"unknown preset {spec!r} (presets: {', '.join(PRESET_NAMES)})")
        return RuleSet.preset(spec)
    return RuleSet.from_dict(spec)


def _submission(seat: int, entry: PlayerEntry, rules: RuleSet) -> Any:
    lanes = {"front": entry.front, "middle": entry.middle, "back": entry.back}
    given = [name for name, value in lanes.items() if value is not None]
    if entry.special is not None or entry.cards is not None:
        if given:
            raise ScoreFileError(
                f"player {seat}: either lanes or a special with its cards, not both",
                key=f"players[{seat}]",
            )
        if entry.cards is None:
            raise ScoreFileError(
                f"player {seat}: a declared special needs its 'cards'", key=f"players[{seat}].cards"
            )
        return thirteen.Declaration(entry.cards, entry.special)
    missing = [name for name, value in lanes.items() if value is None]
    if missing or entry.front is None or entry.middle is None or entry.back is None:
        raise ScoreFileError(
            f"player {seat}: missing {', '.join(repr(m) for m in missing)}",
            key=f"players[{seat}].{missing[0]}",
        )
    return thirteen.Arrangement(entry.front, entry.middle, entry.back, rules=rules)


def score(table: TableFile, rules: RuleSet) -> Dict[str, Any]:
    """The settlement of the file's table (:meth:`thirteen.Settlement.to_dict`), with
    ``"money"`` per seat when the file gives a ``stake`` or a ``rake``.

    Raises:
        ThirteenError: bad cards, fouls, specials, seats or stakes (the core's errors),
            or numbers out of the core's range.
    """
    subs = [_submission(seat, entry, rules) for seat, entry in enumerate(table.players)]
    try:
        result = thirteen.settle(
            subs, rules, banker=table.banker, stakes=table.stakes, surrendered=table.surrendered
        )
    except OverflowError as exc:
        raise ScoreFileError(f"'banker', 'stakes' or 'surrendered' out of range: {exc}") from None
    out = result.to_dict()
    if table.stake is not None or table.rake is not None:
        stake = 1 if table.stake is None else table.stake
        rake = None if table.rake is None else (table.rake.percent, table.rake.cap)
        try:
            out["money"] = thirteen.money(out["totals"], stake, rake)
        except OverflowError as exc:
            raise ScoreFileError(f"'stake' or 'rake' out of range: {exc}") from None
    return out
