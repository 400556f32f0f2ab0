"""Level ladders (等级): a player's level and title (称号) from a score (RULES.md 8).

A ladder is data: an ordered list of levels, each with a ``threshold`` (a whole
number of score units: money, 银子, or points) and a ``title``. A player's level is
the highest level whose threshold the score reaches; a score below the first
threshold is level 1 (the lowest level). The last level is open-ended.

Two ladders ship with the package (``python/thirteen/ladders/*.toml``):

* ``"bianfeng-money"``: the Bian Feng money ladder (银子), jobless ... God of Wealth;
* ``"bianfeng-points"``: the Bian Feng points ladder, newbie ... Thirteen Supreme.

Both have 24 levels, level *k* needing 100 × 2^(k−1) (100, 200, 400, …,
838,860,800). A server can load its own ladder (or a localised copy of these) with
:meth:`Ladder.from_toml` or :meth:`Ladder.from_dict`.

File format (TOML)::

    name = "my-ladder"                 # required, non-empty string
    description = "..."                # optional string
    [[levels]]                         # one table per level, lowest first
    level = 1                          # optional; when given, must be 1, 2, 3, ...
    threshold = 100                    # required, int >= 0, strictly increasing
    title = "jobless"                  # required, non-empty string

Choices this module makes where RULES.md is silent:

* :attr:`LevelInfo.threshold` is always the level's own threshold as the ladder lists
  it (100 for level 1 of the bianfeng ladders), also for a score below it.
* For the lowest level, :attr:`LevelInfo.progress` is measured from 0 (the lowest
  level holds every score from 0 up to the second threshold), so it rises evenly from
  0.0 at score 0; for the other levels it is measured from the level's threshold.
  At the top (open-ended) level it is 1.0 and ``next_threshold`` is ``None``.
* Scores must be whole numbers ``>= 0`` (``bool`` and ``float`` are refused;
  integer-like objects such as NumPy integers are accepted).
* A ladder file with an unknown key is refused, so a misspelt key is not ignored.
* A one-level ladder is allowed (every score is level 1, at the top).
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import operator
import os
import sys
from collections import abc
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, Dict, Iterable, Mapping, NoReturn, Optional, Tuple, Union

from ._plain import describe, is_unicode, short
from .errors import RuleSetError, ThirteenError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = [
    "Level",
    "LevelInfo",
    "Ladder",
    "LADDER_NAMES",
    "level_for",
    "level_change",
]

LADDER_NAMES: Tuple[str, ...] = ("bianfeng-money", "bianfeng-points")
"""Names of the ladders shipped with the package (RULES.md 8)."""

_TOP_KEYS = ("name", "description", "levels")
_LEVEL_KEYS = ("level", "threshold", "title")


@dataclass(frozen=True)
class Level:
    """One rung of a ladder.

    Attributes:
        level: the level number (等级), 1 for the lowest.
        threshold: the score (money or points, whole units) the level needs.
        title: the level's title (称号).
    """

    level: int
    threshold: int
    title: str

    def to_dict(self) -> Dict[str, Any]:
        """The level as plain data (the file form)."""
        return {"level": self.level, "threshold": self.threshold, "title": self.title}


@dataclass(frozen=True)
class LevelInfo:
    """Where a score stands on a ladder (RULES.md 8).

    Attributes:
        level: the level number (等级), 1 for the lowest.
        title: the level's title (称号).
        threshold: the threshold of this level as the ladder lists it (score units);
            for level 1 the score may be below it (level 1 also holds those scores).
        next_threshold: the threshold of the next level, or ``None`` at the top
            (the last level is open-ended).
        progress: how far the score is from this level towards the next, a float in
            ``[0.0, 1.0)``; measured from 0 for the lowest level; ``1.0`` at the top.
    """

    level: int
    title: str
    threshold: int
    next_threshold: Optional[int]
    progress: float

    def to_dict(self) -> Dict[str, Any]:
        """The fields as a plain dict (JSON-ready; ``next_threshold`` may be ``None``)."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Ladder:
    """A level ladder (等级表): levels with strictly increasing thresholds (RULES.md 8).

    Build one with :meth:`load` (a shipped ladder), :meth:`from_toml` or
    :meth:`from_dict`; the constructor validates too.

    Attributes:
        name: the ladder's name, e.g. ``"bianfeng-money"``.
        levels: the levels, lowest first, numbered 1, 2, 3, ...
        description: free text for operators (may be empty).
    """

    name: str
    levels: Tuple[Level, ...]
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            _fail("name", f"expected a non-empty string, got {_describe(self.name)}")
        if not isinstance(self.description, str):
            _fail("description", f"expected a string, got {_describe(self.description)}")
        for key in ("name", "description"):
            _unicode(getattr(self, key), key)
        levels = self.levels
        if isinstance(levels, (str, bytes, abc.Mapping)) or not isinstance(
            levels, abc.Iterable
        ):
            _fail("levels", f"expected a list of levels, got {_describe(levels)}")
        levels = tuple(levels)
        if not levels:
            _fail("levels", "a ladder needs at least one level")
        previous: Optional[int] = None
        for index, item in enumerate(levels):
            where = f"levels[{index}]"
            if not isinstance(item, Level):
                _fail(where, f"expected a Level, got {_describe(item)}")
            if not _is_int(item.level) or item.level != index + 1:
                _fail(
                    f"{where}.level",
                    f"expected {index + 1} (levels are numbered 1, 2, 3, ... lowest "
                    f"first), got {short(item.level)}",
                )
            if not _is_int(item.threshold) or item.threshold < 0:
                _fail(
                    f"{where}.threshold",
                    f"expected a whole number >= 0, got {_describe(item.threshold)}",
                )
            if previous is not None and item.threshold <= previous:
                _fail(
                    f"{where}.threshold",
                    f"thresholds must be strictly increasing: {item.threshold} "
                    f"follows {previous}",
                )
            previous = item.threshold
            if isinstance(item.title, str):
                _unicode(item.title, f"{where}.title")
            if not isinstance(item.title, str) or not item.title.strip():
                _fail(
                    f"{where}.title",
                    f"expected a non-empty string, got {_describe(item.title)}",
                )
        object.__setattr__(self, "levels", levels)

    # ------------------------------------------------------------------ building

    @staticmethod
    def names() -> Tuple[str, ...]:
        """The names of the shipped ladders, sorted (``"bianfeng-money"``, ``"bianfeng-points"``)."""
        return LADDER_NAMES

    @classmethod
    def load(cls, name: str) -> Ladder:
        """A shipped ladder by name (RULES.md 8): one of :meth:`names`.

        Args:
            name: ``"bianfeng-money"`` or ``"bianfeng-points"``.

        Raises:
            ThirteenError: an unknown name.
        """
        if not isinstance(name, str) or name not in LADDER_NAMES:
            raise ThirteenError(
                f"unknown ladder {short(name)} (expected one of "
                f"{', '.join(repr(n) for n in LADDER_NAMES)})"
            )
        cached = _CACHE.get(name)
        if cached is None:
            resource = files("thirteen") / "ladders" / f"{name}.toml"
            text = resource.read_text(encoding="utf-8")
            cached = cls.from_dict(_parse_toml(text, f"shipped ladder {name!r}"))
            _CACHE[name] = cached
        return cached

    @classmethod
    def from_toml(cls, path: Union[str, "os.PathLike[str]"]) -> Ladder:
        """A ladder from a TOML file in the format of this module's docstring.

        Args:
            path: the file's path.

        Raises:
            RuleSetError: invalid TOML (``key = None``) or an invalid ladder (``key``
                names the field, e.g. ``"levels[3].threshold"``).
            OSError: the file cannot be read.
        """
        with open(path, "rb") as handle:
            raw = handle.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RuleSetError(
                f"ladder file {os.fspath(path)!s} is not UTF-8: {exc}", key=None
            ) from exc
        return cls.from_dict(_parse_toml(text, os.fspath(path)))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ladder:
        """A ladder from plain data: ``{"name": str, "description": str (optional),
        "levels": [{"level": int (optional), "threshold": int, "title": str}, ...]}``.

        Raises:
            RuleSetError: an invalid ladder; ``key`` names the field
                (``"name"``, ``"levels"``, ``"levels[3].threshold"``, ...).
        """
        if not isinstance(data, abc.Mapping):
            _fail(None, f"expected a table, got {_describe(data)}")
        for key in data:
            if key not in _TOP_KEYS:
                _fail(str(key), f"unknown key (expected one of {_listing(_TOP_KEYS)})")
        if "name" not in data:
            _fail("name", "missing")
        if "levels" not in data:
            _fail("levels", "missing")
        raw_levels = data["levels"]
        if isinstance(raw_levels, (str, bytes, abc.Mapping)) or not isinstance(
            raw_levels, abc.Iterable
        ):
            _fail("levels", f"expected a list of levels, got {_describe(raw_levels)}")
        levels = []
        for index, entry in enumerate(raw_levels):
            where = f"levels[{index}]"
            if not isinstance(entry, abc.Mapping):
                _fail(where, f"expected a table, got {_describe(entry)}")
            for key in entry:
                if key not in _LEVEL_KEYS:
                    _fail(
                        f"{where}.{key}",
                        f"unknown key (expected one of {_listing(_LEVEL_KEYS)})",
                    )
            for key in ("threshold", "title"):
                if key not in entry:
                    _fail(f"{where}.{key}", "missing")
            levels.append(
                Level(
                    level=entry.get("level", index + 1),
                    threshold=entry["threshold"],
                    title=entry["title"],
                )
            )
        return cls(
            name=data["name"],
            levels=tuple(levels),
            description=data.get("description", ""),
        )

    def to_dict(self) -> Dict[str, Any]:
        """The ladder as plain data (the file form; :meth:`from_dict` reads it back)."""
        return {
            "name": self.name,
            "description": self.description,
            "levels": [level.to_dict() for level in self.levels],
        }

    # ------------------------------------------------------------------ queries

    @functools.cached_property
    def thresholds(self) -> Tuple[int, ...]:
        """The thresholds, lowest level first."""
        return tuple(level.threshold for level in self.levels)

    def level_for(self, score: int) -> LevelInfo:
        """The level (等级) and title (称号) of ``score`` on this ladder (RULES.md 8).

        Args:
            score: the player's money or points, a whole number ``>= 0`` (score units).

        Returns:
            The highest level whose threshold ``score`` reaches, level 1 when the score
            is below the first threshold; see :class:`LevelInfo`.

        Raises:
            ThirteenError: ``score`` is not a whole number (``bool`` and ``float``
                included) or is negative.
        """
        value = _check_score(score)
        thresholds = self.thresholds
        index = max(bisect.bisect_right(thresholds, value) - 1, 0)
        current = self.levels[index]
        if index + 1 < len(self.levels):
            following = thresholds[index + 1]
            next_threshold: Optional[int] = following
            floor = 0 if index == 0 else current.threshold
            progress = (value - floor) / (following - floor)
        else:
            next_threshold = None
            progress = 1.0
        return LevelInfo(
            level=current.level,
            title=current.title,
            threshold=current.threshold,
            next_threshold=next_threshold,
            progress=progress,
        )

    def level_change(self, before: int, after: int) -> Optional[Tuple[LevelInfo, LevelInfo]]:
        """The levels before and after a score change, or ``None`` when the level is the
        same (for a server reporting promotions and demotions).

        Args:
            before: the score before (whole number ``>= 0``).
            after: the score after (whole number ``>= 0``).

        Raises:
            ThirteenError: a score that is not a whole number ``>= 0``.
        """
        old = self.level_for(before)
        new = self.level_for(after)
        if old.level == new.level:
            return None
        return old, new

    def __len__(self) -> int:
        return len(self.levels)


_CACHE: Dict[str, Ladder] = {}


def level_for(ladder: Union[str, Ladder], score: int) -> LevelInfo:
    """The level (等级) and title (称号) of ``score`` on ``ladder`` (RULES.md 8).

    Args:
        ladder: a shipped ladder's name (``"bianfeng-money"``, ``"bianfeng-points"``)
            or a :class:`Ladder`.
        score: money (银子) or points, a whole number ``>= 0``.

    Raises:
        ThirteenError: an unknown ladder name, or a score that is not a whole number
            ``>= 0``.
    """
    return _ladder(ladder).level_for(score)


def level_change(
    ladder: Union[str, Ladder], before: int, after: int
) -> Optional[Tuple[LevelInfo, LevelInfo]]:
    """``(level before, level after)`` when a score change moves the player to another
    level, else ``None`` (see :meth:`Ladder.level_change`).

    Raises:
        ThirteenError: an unknown ladder name, or a score that is not a whole number
            ``>= 0``.
    """
    return _ladder(ladder).level_change(before, after)


# ---------------------------------------------------------------------- helpers


def _ladder(ladder: Union[str, Ladder]) -> Ladder:
    if isinstance(ladder, Ladder):
        return ladder
    return Ladder.load(ladder)


def _parse_toml(text: str, origin: str) -> Dict[str, Any]:
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise RuleSetError(f"invalid TOML in {origin}: nested too deep", key=None) from None
    except tomllib.TOMLDecodeError as exc:
        raise RuleSetError(f"invalid TOML in {origin}: {exc}", key=None) from exc


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_score(score: Any) -> int:
    if isinstance(score, (bool, float)):
        raise ThirteenError(f"score must be a whole number, got {_describe(score)}")
    try:
        value = operator.index(score)
    except TypeError:
        raise ThirteenError(
            f"score must be a whole number, got {_describe(score)}"
        ) from None
    if value < 0:
        raise ThirteenError(f"score must be >= 0, got {short(value)}")
    return value


def _fail(key: Optional[str], problem: str) -> NoReturn:
    where = f"ladder key {key!r}: " if key else "ladder: "
    raise RuleSetError(where + problem, key=key or None)


def _unicode(text: str, key: str) -> None:
    """Refuses text a save or a file cannot hold (a lone surrogate)."""
    if not is_unicode(text):
        _fail(key, f"not valid Unicode text (a lone surrogate): {short(text)}")


def _listing(values: Iterable[Any]) -> str:
    return ", ".join(repr(value) for value in values)


_describe = describe
