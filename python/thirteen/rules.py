"""Rule sets of Thirteen (十三水 / 十三张): the :class:`RuleSet` and its presets (RULES.md 6).

A rule set is data. It is built once, from a shipped preset, a TOML or JSON file or a
plain dict, validated here, and then handed to the engine (the Rust core reads
:meth:`RuleSet.to_json`; the pure-Python reference reads the fields directly).

File format (RULES.md 6): top-level keys ``name``, ``base``, ``deck``, ``dealt``,
``players``, ``wheel``, ``tie_break``, ``mode``, ``banker_wins_ties``, ``lane_values``,
``majority_bonus``, ``scoop``, ``home_run``, ``foul``, ``foul_counts_as_scoop``,
``surrender``, ``specials``, ``special_tiers``, ``quads_as_two_pairs``,
``a23_is_straight``, ``twelve_royals_from``, ``horse_card``, ``escape``, ``swap``,
``cut``. A file may name a ``base`` preset and override keys; the tables
``lane_values.front`` / ``.middle`` / ``.back``, ``scoop``, ``home_run``, ``specials``,
``special_tiers``, ``surrender``, ``escape`` and ``swap`` are replaced whole, the other
keys one by one.

The keys, the values each allows and their bounds are declared once, by the core's schema
(``rust/thirteen-core/src/rules/schema.rs``): a ``RuleSet`` sends its keys there, which
checks them (a :class:`~thirteen.errors.RuleSetError` naming the first offending key) and
returns them in canonical form; :data:`OPTIONS` is the schema's table of allowed values.

Choices where RULES.md is silent (made by the schema, and here for files):

* Overriding ``specials`` without ``special_tiers`` drops the base's tiers: the tiers
  go back to the default (one tier per recognised special, canonical order).
* ``name`` is inherited from ``base`` like any other key; without either it is
  ``"custom"``.
* In JSON or a dict, ``null`` means "absent": for ``horse_card``, ``escape`` and
  ``swap`` it removes what a base set, and inside a table it is the same as leaving
  the key out.
* ``units`` is only accepted with ``kind = "bonus"``; ``min_players`` only with a home
  run kind other than ``"none"``; ``escape.units`` only with ``to = "split"`` and
  ``escape.by_players`` only with ``to = "winner"``.
* ``twelve_royals_from`` also accepts ``"10"`` and lower case; it is stored as ``"J"``
  or ``"T"``.
* All amounts are in units (注 / 水), at most ``MAX_RULE_UNITS`` (10,000) each, so that
  no settlement can overflow (``thirteen.limits``).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from typing import (
    Any,
    Dict,
    Generic,
    List,
    Literal,
    NoReturn,
    Optional,
    Tuple,
    TypeVar,
    Union,
)

import msgspec

from thirteen import _core
from thirteen._plain import describe, is_unicode, short, too_nested
from thirteen.errors import RuleSetError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

__all__ = [
    "CATEGORY_KEYS",
    "OPTIONS",
    "DECK_SIZES",
    "FRONT_CATEGORY_KEYS",
    "LANES",
    "PRESET_NAMES",
    "SPECIAL_KEYS",
    "Bonus",
    "Escape",
    "FrozenMap",
    "HomeRun",
    "LaneTable",
    "LaneValues",
    "RuleSet",
    "Surrender",
    "Swap",
]

#: The core schema's table of allowed values (``rule_options``), read once.
_SCHEMA: Dict[str, Any] = json.loads(_core.rule_options())

#: The ten 5-card category keys, low to high (RULES.md 3).
CATEGORY_KEYS: Tuple[str, ...] = tuple(_SCHEMA["categories"])

#: The categories a 3-card front lane (头墩) can hold, low to high (RULES.md 3).
FRONT_CATEGORY_KEYS: Tuple[str, ...] = tuple(_SCHEMA["front_categories"])

#: The special hands (报到) in canonical order, high to low (RULES.md 4).
SPECIAL_KEYS: Tuple[str, ...] = tuple(_SCHEMA["specials"])

#: The three lanes (墩): front 头墩 (3 cards), middle 中墩 (5), back 尾墩 (5).
LANES: Tuple[str, ...] = tuple(_SCHEMA["lanes"])

#: The presets shipped as ``thirteen/presets/<name>.toml`` (RULES.md 6).
PRESET_NAMES: Tuple[str, ...] = (
    "shisanzhang",
    "bianfeng",
    "luosong",
    "kaixin",
    "kaixin-swap",
    "kaixin-extra",
    "western-2-4",
    "western-1-6",
)

Deck = Literal["standard", "extra_diamonds"]
Dealt = Literal[13, 16]
Wheel = Literal["low", "second"]
TieBreak = Literal["none", "suit"]
Mode = Literal["all_pairs", "banker"]
BonusKind = Literal["none", "double", "bonus"]
Foul = Literal["reject", "lose_all"]
EscapeTo = Literal["split", "winner"]
RoyalsFrom = Literal["J", "T"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V], Generic[K, V]):
    """An immutable, hashable, ordered mapping (the mappings inside a :class:`RuleSet`).

    Args:
        items: a mapping or an iterable of ``(key, value)`` pairs; iteration keeps
            their order. Equality is that of any mapping (order-insensitive).
    """

    __slots__ = ("_data",)

    def __init__(self, items: Union[Mapping[K, V], Iterable[Tuple[K, V]]] = ()) -> None:
        self._data: Dict[K, V] = dict(items)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


#: Cards in each deck (RULES.md 1): standard 52; extra_diamonds (多三张) 52 + 13 diamonds.
DECK_SIZES: Mapping[str, int] = FrozenMap(_SCHEMA["deck_sizes"])

#: The values each choice allows, as the core's schema declares them (the ``Literal`` types
#: above say the same to a type checker; a test holds them equal): ``deck``, ``dealt``,
#: ``players`` (table sizes), ``wheel``, ``tie_break``, ``mode``, ``foul``, ``bonus_kind``
#: (``scoop.kind``, ``home_run.kind``), ``home_run_min_players``, ``escape_to``,
#: ``twelve_royals_from``.
OPTIONS: Mapping[str, Tuple[Any, ...]] = FrozenMap(
    (key, tuple(_SCHEMA[key]))
    for key in (
        "deck", "dealt", "players", "wheel", "tie_break", "mode", "foul", "bonus_kind",
        "home_run_min_players", "escape_to", "twelve_royals_from",
    )
)


@dataclass(frozen=True)
class LaneTable:
    """What the winner of one lane collects (RULES.md 5 step 4), in units (注).

    Attributes:
        base: the value of a lane won with a category that has no entry (≥ 1).
        values: category key (:data:`CATEGORY_KEYS`) → value (≥ 1), in category order;
            values are totals, not additions to ``base``.
    """

    base: int = 1
    values: Mapping[str, int] = field(default_factory=FrozenMap)

    def value(self, category_key: str) -> int:
        """The units a lane won with ``category_key`` pays: its entry, else ``base``."""
        return self.values.get(category_key, self.base)


@dataclass(frozen=True)
class LaneValues:
    """The three lane tables ``lane_values.front`` / ``.middle`` / ``.back`` (RULES.md 6)."""

    front: LaneTable = field(default_factory=LaneTable)
    middle: LaneTable = field(default_factory=LaneTable)
    back: LaneTable = field(default_factory=LaneTable)

    def __getitem__(self, lane: str) -> LaneTable:
        """The table of ``lane``: ``"front"``, ``"middle"`` or ``"back"`` (else ``KeyError``)."""
        if lane not in LANES:
            raise KeyError(lane)
        table: LaneTable = getattr(self, lane)
        return table


@dataclass(frozen=True)
class Bonus:
    """The scoop rule, 打枪 (RULES.md 5 step 6).

    Attributes:
        kind: ``"none"``; ``"double"`` (the pair's lane result doubled); ``"bonus"``
            (``units`` more to the side that won all three lanes).
        units: the bonus in units (≥ 1) for ``kind = "bonus"``, else ``None``.
    """

    kind: BonusKind = "none"
    units: Optional[int] = None


@dataclass(frozen=True)
class HomeRun:
    """The home run rule, 全垒打: one player scoops every other (RULES.md 5 step 7).

    Attributes:
        kind: ``"none"``, ``"double"`` or ``"bonus"``.
        units: the bonus from each opponent (≥ 1) for ``kind = "bonus"``, else ``None``.
        min_players: the fewest players dealt in for a home run to count (3 or 4);
            ``None`` when ``kind = "none"``.
    """

    kind: BonusKind = "none"
    units: Optional[int] = None
    min_players: Optional[int] = None


@dataclass(frozen=True)
class Surrender:
    """Surrender (Western rule sets, RULES.md 5 step 1).

    Attributes:
        allowed: whether a player may surrender.
        units: what a surrendered player pays each player who did not (≥ 1 when
            allowed; 0 when not given).
    """

    allowed: bool = False
    units: int = 0


@dataclass(frozen=True)
class Escape:
    """Escape, 逃跑 / 强退: a player who leaves mid-round pays (RULES.md 5 Escape).

    Attributes:
        to: ``"split"`` (``units`` shared equally by the others) or ``"winner"``
            (``by_players[n]`` to the player with the highest result).
        units: the payment (≥ 1) for ``to = "split"``, else ``None``.
        by_players: players dealt in (leaver included, 2..4) → payment (≥ 1), for
            ``to = "winner"`` (covers every allowed table size); empty otherwise.
    """

    to: EscapeTo = "split"
    units: Optional[int] = None
    by_players: Mapping[int, int] = field(default_factory=FrozenMap)


@dataclass(frozen=True)
class Swap:
    """Swap-three, 换三张: each player may give up to ``max_cards`` cards (1..13) (RULES.md 7)."""

    max_cards: int = 3


def _default_lane_values() -> LaneValues:
    return LaneValues()


@dataclass(frozen=True)
class RuleSet:
    """A validated, immutable rule set (RULES.md 6).

    Build one with :meth:`default`, :meth:`preset`, :meth:`from_dict`,
    :meth:`from_toml`, :meth:`from_json` or :meth:`replace`. The constructor also
    validates and normalises its arguments (plain dicts and lists are accepted for the
    table fields), so every ``RuleSet`` that exists is valid; invalid input raises
    :class:`~thirteen.errors.RuleSetError` whose ``key`` is the dotted path of the first
    offending key. The constructor's defaults are those of :meth:`default`.

    Attributes:
        name: the rule set's name (a preset name for presets).
        deck: ``"standard"`` (52 cards) or ``"extra_diamonds"`` (65, 多三张) (RULES.md 1).
        dealt: cards dealt per player, 13 or 16 (with 16 the player keeps 13).
        players: the allowed table sizes, banker included, sorted, from 2..4.
        wheel: ``"low"`` (A-2-3-4-5 is the lowest straight) or ``"second"`` (second
            highest) (RULES.md 3).
        tie_break: ``"none"`` (a tied lane is drawn, 强碰) or ``"suit"`` (RULES.md 3).
        mode: ``"all_pairs"`` or ``"banker"`` (庄家 game) (RULES.md 5).
        banker_wins_ties: in banker mode, a drawn lane goes to the banker.
        lane_values: what the winner of each lane collects, in units (RULES.md 5 step 4).
        majority_bonus: units for winning more lanes (Western 2-4) (RULES.md 5 step 5).
        scoop: 打枪 (RULES.md 5 step 6).
        home_run: 全垒打 (RULES.md 5 step 7).
        foul: a fouled hand (相公 / 倒水) is refused (``"reject"``) or loses all
            three lanes (``"lose_all"``) (RULES.md 5).
        foul_counts_as_scoop: under ``lose_all``, a foul pays as a scoop.
        surrender: Western surrender (RULES.md 5 step 1).
        specials: recognised special hands (报到) → units, in canonical order (RULES.md 4).
        special_tiers: equal-rank groups of the recognised specials, high to low; each
            tier's keys in canonical order. Default (``None`` to the constructor): one
            tier per recognised special, in canonical order.
        quads_as_two_pairs: four of a rank count as two pairs for the pair specials.
        a23_is_straight: ``A 2 3`` is a 3-card straight for 三顺子.
        twelve_royals_from: the lowest rank of 十二皇族, ``"J"`` or ``"T"``.
        horse_card: 马牌, canonical card text (``"As"``), or ``None`` (RULES.md 5 step 8).
        escape: 逃跑 payments, or ``None`` (a leaver is auto-arranged).
        swap: 换三张, or ``None``.
        cut: 切牌, the deal starts from the cut card (RULES.md 7).
    """

    name: str = "default"
    deck: Deck = "standard"
    dealt: Dealt = 13
    players: Tuple[int, ...] = (2, 3, 4)
    wheel: Wheel = "low"
    tie_break: TieBreak = "none"
    mode: Mode = "all_pairs"
    banker_wins_ties: bool = False
    lane_values: LaneValues = field(default_factory=_default_lane_values)
    majority_bonus: int = 0
    scoop: Bonus = field(default_factory=Bonus)
    home_run: HomeRun = field(default_factory=HomeRun)
    foul: Foul = "reject"
    foul_counts_as_scoop: bool = False
    surrender: Surrender = field(default_factory=Surrender)
    specials: Mapping[str, int] = field(default_factory=FrozenMap)
    # None (the constructor's default) is replaced by the default tiers.
    special_tiers: Tuple[Tuple[str, ...], ...] = None  # type: ignore[assignment]
    quads_as_two_pairs: bool = True
    a23_is_straight: bool = True
    twelve_royals_from: RoyalsFrom = "J"
    horse_card: Optional[str] = None
    escape: Optional[Escape] = None
    swap: Optional[Swap] = None
    cut: bool = False

    def __post_init__(self) -> None:
        _shallow({f.name: getattr(self, f.name) for f in _FIELDS}, "")
        raw = {f.name: _plain(getattr(self, f.name)) for f in _FIELDS}
        core = _checked(raw)
        for name, value in _typed(json.loads(core.canonical)).items():
            object.__setattr__(self, name, value)
        # The core's rules object, built by the check: what `_core` gives from now on.
        self.__dict__["_core"] = core

    # ----------------------------------------------------------------- building

    @classmethod
    def default(cls) -> RuleSet:
        """The plain rule set ``"default"``: standard deck, 13 cards, 2 to 4 players,
        wheel low, no suit tie-break, all pairs, every lane worth 1 unit whatever its
        category, no majority bonus, scoop (打枪) or home run (全垒打), fouls (相公)
        rejected, no surrender, no specials, no horse card, escape, swap or cut.
        """
        return cls()

    @classmethod
    def preset(cls, name: str) -> RuleSet:
        """The shipped preset ``name`` (one of :data:`PRESET_NAMES`), read from
        ``thirteen/presets/<name>.toml`` once and cached.

        Raises:
            RuleSetError: ``key = "base"`` for an unknown name.
        """
        cached = _PRESET_CACHE.get(name)
        if cached is None:
            cached = _build(_preset_raw(name, "base"))
            _PRESET_CACHE[name] = cached
        return cached

    @staticmethod
    def presets() -> List[str]:
        """The names of the shipped presets (:data:`PRESET_NAMES`)."""
        return list(PRESET_NAMES)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """A rule set from the keys of RULES.md 6 as a mapping (e.g. parsed TOML/JSON).

        Args:
            data: the top-level keys. With ``base`` (a preset name) the other keys
                override that preset: whole tables are replaced, ``lane_values``
                lane by lane. Without ``base``, ``lane_values`` is required and the
                other keys default as in :meth:`default` (``name`` to ``"custom"``).
                Lists may be lists or tuples, tables any mapping.

        Raises:
            RuleSetError: the first problem, with ``key`` its dotted path.
        """
        _shallow(data, "")
        table = _table(data, "")
        for key in table:
            if key != "base" and key not in _FIELD_NAMES:
                _unknown(key, ("base", *_FIELD_NAMES))
        if "base" in table:
            base_name = table["base"]
            if not isinstance(base_name, str):
                _fail("base", f"expected a preset name, got {_describe(base_name)}")
            raw = _merge(_preset_raw(base_name, "base"), table)
        else:
            raw = copy.deepcopy(dict(table))
            raw.setdefault("name", "custom")
        return _build(raw)

    @classmethod
    def from_toml(cls, text: Union[str, bytes, Mapping[str, Any]]) -> RuleSet:
        """A rule set from TOML text in the format of RULES.md 6 (see :meth:`from_dict`).
        A file is read with :meth:`load`; text is never taken for a path.

        Args:
            text: the TOML document (``str``, or UTF-8 ``bytes``), or its parsed dict.

        Raises:
            RuleSetError: invalid TOML or UTF-8, or nested too deep (``key = None``), or
                an invalid rule set.
            TypeError: ``text`` is not text, bytes or a mapping (a path or a file
                descriptor number included).
        """
        return cls.from_dict(_decode(text, "TOML", "from_toml"))

    @classmethod
    def from_json(cls, text: Union[str, bytes, Mapping[str, Any]]) -> RuleSet:
        """A rule set from JSON text (see :meth:`from_dict`; ``null`` means an absent
        key). A file is read with :meth:`load`; text is never taken for a path.

        Args:
            text: the JSON document (``str``, or UTF-8 ``bytes``), or its parsed dict.

        Raises:
            RuleSetError: invalid JSON or UTF-8, not an object, or nested too deep
                (``key = None``), or an invalid rule set.
            TypeError: ``text`` is not text, bytes or a mapping (a path or a file
                descriptor number included).
        """
        return cls.from_dict(_decode(text, "JSON", "from_json"))

    @classmethod
    def load(
        cls, path: Union[str, os.PathLike[str]], format: Optional[str] = None
    ) -> RuleSet:
        """A rule set from a file: TOML or JSON, as ``format`` says or else as the file's
        suffix says (``.toml``, ``.json``; any case). The content is never used to guess.

        Args:
            path: the file's path (``str`` or ``os.PathLike``).
            format: ``"toml"``, ``"json"`` or ``None`` (from the suffix).

        Raises:
            RuleSetError: an unknown format or suffix, a path that is not a regular file
                (a directory, FIFO, device or socket), a file over 1 MiB, or the errors
                of :meth:`from_toml` / :meth:`from_json` (the message names the file).
            OSError: the file cannot be read.
            TypeError: ``path`` is not a path.
        """
        if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
            raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
        name = os.fspath(path)
        if format is None:
            format = _SUFFIX_FORMATS.get(os.path.splitext(name)[1].lower())
            if format is None:
                _fail(None, f"cannot tell the format of {name!s}: name it .toml or .json, "
                      "or pass format='toml' or 'json'")
        elif not isinstance(format, str) or format not in _FORMATS:
            _fail(None, f"format must be 'toml' or 'json', got {short(format)}")
        raw = _read_regular(name)
        if len(raw) > _MAX_FILE:
            _fail(None, f"{name!s} is larger than {_MAX_FILE} bytes: not a rule-set file")
        try:
            return cls.from_dict(_decode(raw, _FORMATS[format], "load"))
        except RuleSetError as exc:
            raise RuleSetError(f"{name!s}: {exc.message}", key=exc.key) from exc

    def replace(self, **overrides: Any) -> RuleSet:
        """A validated copy with some keys changed, merged as a file's overrides on a
        ``base`` are (tables whole, ``lane_values`` lane by lane).

        Args:
            **overrides: top-level keys of RULES.md 6 (not ``base``); values in file
                form (dicts, lists) or as the field types (e.g. ``Bonus("double")``).

        Raises:
            RuleSetError: an unknown key or an invalid result.
        """
        for key in overrides:
            if key not in _FIELD_NAMES:
                _unknown(key, _FIELD_NAMES)
            _shallow(overrides[key], key)
        plain = {key: _plain(value) for key, value in overrides.items()}
        return _build(_merge(self.to_dict(), plain))

    # ------------------------------------------------------------------ output

    def to_dict(self) -> Dict[str, Any]:
        """Every key as plain data (dicts, lists, str, int, bool, ``None``), fully
        resolved (no ``base``); ``from_dict(r.to_dict()) == r``. Tables leave out
        keys whose value is ``None``; ``escape.by_players`` keys are strings (``"2"``)
        as in TOML and JSON.
        """
        # Built once (a rule set is frozen) and kept as JSON bytes: every call returns a
        # fresh copy, which decoding makes several times faster than building it again
        # (a game server saves its tables' rules on every change).
        out: Dict[str, Any] = msgspec.json.decode(self._plain_json)
        return out

    @functools.cached_property
    def _plain_json(self) -> bytes:
        """:meth:`to_dict`'s data as JSON (built once)."""
        return msgspec.json.encode(
            {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        )

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text with sorted keys (what the Rust core reads)."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @functools.cached_property
    def _core(self) -> Any:
        """The core's rules object (built when the rule set was checked)."""
        return _core.Rules(self.to_json())

    def __reduce__(self) -> Any:
        # The cached core object is not picklable; rebuild from plain data instead.
        return (RuleSet.from_dict, (self.to_dict(),))

    # ----------------------------------------------------------------- lookups

    @property
    def deck_size(self) -> int:
        """Cards in the deck: 52 (standard) or 65 (extra_diamonds)."""
        return DECK_SIZES[self.deck]

    def lane_value(self, lane: str, category_key: str) -> int:
        """The units the winner of ``lane`` collects with a ``category_key`` hand: the
        lane's entry for that category, else the lane's ``base`` (RULES.md 5 step 4).

        Raises:
            RuleSetError: an unknown lane (``key = "lane_values.<lane>"``), or a
                category unknown or impossible in that lane
                (``key = "lane_values.<lane>.<category>"``).
        """
        if lane not in LANES:
            _fail(
                f"lane_values.{lane}",
                f"unknown lane (expected one of {_listing(LANES)})",
            )
        allowed = FRONT_CATEGORY_KEYS if lane == "front" else CATEGORY_KEYS
        if category_key not in allowed:
            _fail(
                f"lane_values.{lane}.{category_key}",
                f"not a category the {lane} lane can hold",
            )
        return self.lane_values[lane].value(category_key)

    def check_players(self, players: int) -> int:
        """``players`` when it is a table size this rule set allows (``players``, RULES.md 1 and
        6): the one check of every call that takes a table size, made by the core.

        Raises:
            PlayerCountError: any other integer (``got`` is it, ``allowed`` the sizes).
            TypeError: ``players`` is not an integer (``bool`` included).
        """
        count: int = self._core.check_players(players)
        return count

    def special_tier(self, key: str) -> int:
        """The tier of the recognised special ``key``, 0 = highest (RULES.md 4).

        Raises:
            RuleSetError: ``key = "specials.<key>"`` when the special is not recognised.
        """
        for index, tier in enumerate(self.special_tiers):
            if key in tier:
                return index
        _fail(f"specials.{key}", "not a special this rule set recognises")


_FIELDS = dataclasses.fields(RuleSet)
_FIELD_NAMES: Tuple[str, ...] = tuple(f.name for f in _FIELDS)
_PRESET_CACHE: Dict[str, RuleSet] = {}
_PRESET_RAW_CACHE: Dict[str, Dict[str, Any]] = {}


# ---------------------------------------------------------------------- presets


def _preset_raw(name: str, key: str, chain: Tuple[str, ...] = ()) -> Dict[str, Any]:
    """The preset ``name`` as plain data with its own ``base`` resolved (a fresh copy)."""
    if name not in PRESET_NAMES:
        _fail(
            key, f"unknown preset {name!r} (expected one of {_listing(PRESET_NAMES)})"
        )
    if name in chain:
        _fail(key, f"preset {name!r} is its own base")
    if name not in _PRESET_RAW_CACHE:
        resource = files("thirteen") / "presets" / f"{name}.toml"
        data = tomllib.loads(resource.read_text(encoding="utf-8"))
        base = data.get("base")
        if base is not None:
            data = _merge(_preset_raw(base, key, (*chain, name)), data)
        _PRESET_RAW_CACHE[name] = data
    return copy.deepcopy(_PRESET_RAW_CACHE[name])


def _merge(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> Dict[str, Any]:
    """``overrides`` (minus ``base``) applied on ``base``, as RULES.md 6 says."""
    merged = copy.deepcopy(dict(base))
    merged.pop("base", None)
    for key, value in overrides.items():
        if key == "base":
            continue
        current = merged.get(key)
        if (
            key == "lane_values"
            and isinstance(value, Mapping)
            and isinstance(current, Mapping)
        ):
            lanes = dict(current)
            lanes.update(copy.deepcopy(dict(value)))
            merged[key] = lanes
        else:
            merged[key] = copy.deepcopy(value)
    if "specials" in overrides and "special_tiers" not in overrides:
        merged.pop("special_tiers", None)
    return merged


def _build(raw: Dict[str, Any]) -> RuleSet:
    for key in raw:
        if key not in _FIELD_NAMES:
            _unknown(key, _FIELD_NAMES)
    if "lane_values" not in raw:
        _fail("lane_values", "missing: a rule set needs lane values (or a base preset)")
    return RuleSet(**raw)


# ---------------------------------------------------------------------- plain form


def _plain(value: Any) -> Any:
    """A field value as plain data (the file form); anything unknown is returned as is."""
    if isinstance(value, LaneValues):
        return {lane: _plain(getattr(value, lane)) for lane in LANES}
    if isinstance(value, LaneTable):
        out: Dict[str, Any] = {"base": value.base}
        if isinstance(value.values, Mapping):
            out.update(value.values)
        return out
    if isinstance(value, Escape):
        by_players: Any = value.by_players
        if isinstance(by_players, Mapping):
            by_players = {str(n): units for n, units in by_players.items()}
        return _without_none(
            {"to": value.to, "units": value.units, "by_players": by_players or None}
        )
    if isinstance(value, (Bonus, HomeRun, Surrender, Swap)):
        return _without_none(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _without_none(table: Dict[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in table.items() if value is not None}


# ---------------------------------------------------------------------- validation


def _read_regular(name: str) -> bytes:
    """The first ``_MAX_FILE + 1`` bytes of the regular file ``name``. Anything else is
    refused before a byte is read: opening a FIFO waits for a writer, a device may never
    end, a directory has no content.

    Raises:
        RuleSetError: not a regular file. OSError: it cannot be opened or read.
    """

    def refuse() -> NoReturn:
        _fail(
            None,
            f"{name!s} is not a regular file (a directory, FIFO, device or socket): "
            "a rule set is read from a file",
        )

    if not stat.S_ISREG(os.stat(name).st_mode):
        refuse()
    # Opened without blocking and checked again: a path swapped for a FIFO after the
    # check above still does not wait for a writer.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(name, flags), "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            refuse()
        return handle.read(_MAX_FILE + 1)


def _fail(key: Optional[str], problem: str) -> NoReturn:
    where = f"rule set key {key!r}: " if key else "rule set: "
    raise RuleSetError(where + problem, key=key or None)


#: The deepest a rule set nests: the file's top level, ``lane_values``, a lane, its value.
_MAX_DEPTH = 8

#: The largest rule-set file :meth:`RuleSet.load` reads, in bytes.
_MAX_FILE = 1 << 20

_FORMATS = {"toml": "TOML", "json": "JSON"}
_SUFFIX_FORMATS = {".toml": "toml", ".json": "json"}


def _shallow(value: Any, key: str) -> None:
    """Refuses data nested deeper than any rule set is, before recursive code sees it."""
    problem = too_nested(value, _MAX_DEPTH)
    if problem is not None:
        _fail(key, problem)


def _decode(text: Any, kind: str, caller: str) -> Any:
    """The parsed document of JSON or TOML text (``str`` or UTF-8 ``bytes``), or a
    mapping as it is."""
    if isinstance(text, Mapping):
        return text
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            _fail(None, f"the {kind} text is not UTF-8: {exc}")
    if not isinstance(text, str):
        raise TypeError(
            f"RuleSet.{caller} takes {kind} text (str or bytes) or a dict, got "
            f"{type(text).__name__}; read a file with RuleSet.load(path)"
        )
    try:
        return json.loads(text) if kind == "JSON" else tomllib.loads(text)
    except RecursionError:
        _fail(None, f"invalid {kind}: nested too deep")
    except ValueError as exc:
        _fail(None, f"invalid {kind}: {exc}")


def _unknown(key: str, expected: Iterable[str]) -> NoReturn:
    _fail(key, f"unknown key (expected one of {_listing(expected)})")


def _listing(values: Iterable[Any]) -> str:
    return ", ".join(repr(value) for value in values)


_describe = describe


def _join(parent: str, child: Any) -> str:
    return f"{parent}.{child}" if parent else str(child)


def _table(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        _fail(key, f"expected a table, got {_describe(value)}")
    for name in value:
        if not isinstance(name, str):
            _fail(_join(key, name), f"table keys must be text, got {_describe(name)}")
    return value


def _checked(raw: Mapping[str, Any]) -> Any:
    """The core's rules object of every key in ``raw`` (plain data, the fields' order kept,
    so that the first offending key is the first in that order): the core's schema checks
    them. What JSON cannot carry is refused here, naming the key."""
    data = _json_ready(raw, "")
    try:
        return _core.Rules(json.dumps(data, allow_nan=False))
    except RuleSetError as exc:
        if exc.key == "<json>":
            raise RuleSetError(exc.message, key=None) from None
        raise


def _json_ready(value: Any, key: str) -> Any:
    """``value`` as JSON data, or a :class:`RuleSetError` naming ``key``: table keys are
    text (``escape.by_players`` also takes integers), text is valid Unicode, numbers are
    finite, and nothing else than text, numbers, booleans, ``None``, lists and tables."""
    if isinstance(value, str):
        if not is_unicode(value):
            _fail(key or None, f"not valid Unicode text (a lone surrogate): {short(value)}")
        return value
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            _fail(key or None, f"expected a number, got {short(value)}")
        return value
    if isinstance(value, (list, tuple)):
        return [_json_ready(item, key) for item in value]
    if isinstance(value, Mapping):
        out: Dict[str, Any] = {}
        for name, item in value.items():
            if key == "escape.by_players" and isinstance(name, int) and not isinstance(name, bool):
                name = str(name)
            elif not isinstance(name, str):
                problem = "table sizes must be 2, 3 or 4" if key == "escape.by_players" else (
                    f"table keys must be text, got {_describe(name)}"
                )
                _fail(_join(key, name), problem)
            out[name] = _json_ready(item, _join(key, name))
        return out
    _fail(key or None, f"expected text, a number, true or false, a list or a table, got {_describe(value)}")


def _typed(c: Mapping[str, Any]) -> Dict[str, Any]:
    """The fields of a rule set in the core's canonical form, as the field types."""

    def lane(table: Mapping[str, int]) -> LaneTable:
        values = FrozenMap((k, v) for k, v in table.items() if k != "base")
        return LaneTable(table["base"], values)

    scoop, home_run, surrender = c["scoop"], c["home_run"], c["surrender"]
    escape, swap = c["escape"], c["swap"]
    return {
        **c,
        "players": tuple(c["players"]),
        "lane_values": LaneValues(*(lane(c["lane_values"][name]) for name in LANES)),
        "scoop": Bonus(scoop["kind"], scoop.get("units")),
        "home_run": HomeRun(home_run["kind"], home_run.get("units"), home_run.get("min_players")),
        "surrender": Surrender(surrender["allowed"], surrender["units"]),
        "specials": FrozenMap(c["specials"]),
        "special_tiers": tuple(tuple(tier) for tier in c["special_tiers"]),
        "escape": None if escape is None else Escape(
            escape["to"],
            escape.get("units"),
            FrozenMap((int(n), units) for n, units in escape.get("by_players", {}).items()),
        ),
        "swap": None if swap is None else Swap(swap["max_cards"]),
    }
