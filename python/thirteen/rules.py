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

Choices this module makes where RULES.md is silent:

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

from thirteen._plain import describe, is_unicode, short, too_nested
from thirteen.errors import RuleSetError
from thirteen.limits import MAX_RULE_UNITS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

__all__ = [
    "CATEGORY_KEYS",
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

#: The ten 5-card category keys, low to high (RULES.md 3).
CATEGORY_KEYS: Tuple[str, ...] = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)

#: The categories a 3-card front lane (头墩) can hold, low to high (RULES.md 3).
FRONT_CATEGORY_KEYS: Tuple[str, ...] = ("high_card", "one_pair", "three_of_a_kind")

#: The special hands (报到 / 特殊牌型) in canonical order, high to low (RULES.md 4).
SPECIAL_KEYS: Tuple[str, ...] = (
    "same_suit_dragon",
    "dragon",
    "twelve_royals",
    "three_straight_flushes",
    "three_quads",
    "all_big",
    "all_small",
    "one_color",
    "four_trips",
    "five_pairs_trips",
    "six_pairs",
    "three_straights",
    "three_flushes",
)

#: The three lanes (墩): front 头墩 (3 cards), middle 中墩 (5), back 尾墩 (5).
LANES: Tuple[str, ...] = ("front", "middle", "back")

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

_DECKS = ("standard", "extra_diamonds")
_DEALT = (13, 16)
_WHEELS = ("low", "second")
_TIE_BREAKS = ("none", "suit")
_MODES = ("all_pairs", "banker")
_BONUS_KINDS = ("none", "double", "bonus")
_FOULS = ("reject", "lose_all")
_ESCAPE_TO = ("split", "winner")
_PLAYER_COUNTS = (2, 3, 4)
_HOME_RUN_MIN_PLAYERS = (3, 4)

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
DECK_SIZES: Mapping[str, int] = FrozenMap({"standard": 52, "extra_diamonds": 65})


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
        raw = {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}
        for name, value in _parse(raw).items():
            object.__setattr__(self, name, value)

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
        out: Dict[str, Any] = {
            f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)
        }
        return out

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text with sorted keys (what the Rust core reads)."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @functools.cached_property
    def _core(self) -> Any:
        """The core's rules object, converted once from :meth:`to_json` and cached."""
        from thirteen._core import Rules as _CoreRules

        return _CoreRules(self.to_json())

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


_MISSING: Any = object()


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


def _entries(value: Any, key: str, allowed: Tuple[str, ...]) -> Dict[str, Any]:
    """A table with only ``allowed`` keys; ``None`` values left out (null = absent)."""
    table = _table(value, key)
    for name in table:
        if name not in allowed:
            _unknown(_join(key, name), allowed)
    return {name: item for name, item in table.items() if item is not None}


def _int(
    value: Any, key: str, minimum: Optional[int] = None, maximum: Optional[int] = None
) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(key, f"expected an integer, got {_describe(value)}")
    if minimum is not None and value < minimum:
        _fail(key, f"must be at least {minimum}, got {short(value)}")
    if maximum is not None and value > maximum:
        _fail(key, f"must be at most {maximum}, got {short(value)}")
    return int(value)


def _amount(value: Any, key: str, minimum: int) -> int:
    """An amount in units: an integer from ``minimum`` to ``MAX_RULE_UNITS``."""
    return _int(value, key, minimum=minimum, maximum=MAX_RULE_UNITS)


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        _fail(key, f"expected true or false, got {_describe(value)}")
    return value


def _choice(value: Any, key: str, choices: Tuple[Any, ...]) -> Any:
    expected = type(choices[0])
    if isinstance(value, bool) or not isinstance(value, expected):
        kind = "an integer" if expected is int else "text"
        _fail(key, f"expected {kind} ({_listing(choices)}), got {_describe(value)}")
    if value not in choices:
        _fail(key, f"must be one of {_listing(choices)}, got {short(value)}")
    return value


def _sequence(value: Any, key: str) -> List[Any]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        _fail(key, f"expected a list, got {_describe(value)}")
    return list(value)


def _parse(raw: Mapping[str, Any]) -> Dict[str, Any]:
    """Validate and normalise every field (all keys present, as produced by ``_plain``)."""

    def get(key: str, default: Any = _MISSING) -> Any:
        return raw.get(key, default)

    out: Dict[str, Any] = {}
    name = get("name", "custom")
    if not isinstance(name, str):
        _fail("name", f"expected text, got {_describe(name)}")
    if not is_unicode(name):
        _fail("name", f"not valid Unicode text (a lone surrogate): {short(name)}")
    out["name"] = name
    deck = out["deck"] = _choice(get("deck", "standard"), "deck", _DECKS)
    dealt = out["dealt"] = _choice(get("dealt", 13), "dealt", _DEALT)
    players = out["players"] = _players(get("players", [2, 3, 4]))
    if dealt * max(players) > DECK_SIZES[deck]:
        _fail(
            "dealt",
            f"{dealt} cards x {max(players)} players = {dealt * max(players)} "
            f"is more than the {deck} deck's {DECK_SIZES[deck]} cards",
        )
    out["wheel"] = _choice(get("wheel", "low"), "wheel", _WHEELS)
    tie_break = out["tie_break"] = _choice(
        get("tie_break", "none"), "tie_break", _TIE_BREAKS
    )
    mode = out["mode"] = _choice(get("mode", "all_pairs"), "mode", _MODES)
    banker_wins_ties = _bool(get("banker_wins_ties", False), "banker_wins_ties")
    if banker_wins_ties and mode != "banker":
        _fail("banker_wins_ties", 'only applies with mode = "banker"')
    if banker_wins_ties and tie_break != "none":
        _fail("banker_wins_ties", 'cannot be combined with tie_break = "suit"')
    out["banker_wins_ties"] = banker_wins_ties
    lane_values = get("lane_values")
    if lane_values is _MISSING:
        _fail("lane_values", "missing")
    out["lane_values"] = _lane_values(lane_values, deck)
    out["majority_bonus"] = _amount(get("majority_bonus", 0), "majority_bonus", 0)
    out["scoop"] = _bonus(get("scoop", {"kind": "none"}), "scoop")
    out["home_run"] = _home_run(get("home_run", {"kind": "none"}))
    out["foul"] = _choice(get("foul", "reject"), "foul", _FOULS)
    out["foul_counts_as_scoop"] = _bool(
        get("foul_counts_as_scoop", False), "foul_counts_as_scoop"
    )
    out["surrender"] = _surrender(get("surrender", {"allowed": False}))
    specials = out["specials"] = _specials(get("specials", {}))
    out["special_tiers"] = _special_tiers(get("special_tiers"), specials)
    out["quads_as_two_pairs"] = _bool(
        get("quads_as_two_pairs", True), "quads_as_two_pairs"
    )
    out["a23_is_straight"] = _bool(get("a23_is_straight", True), "a23_is_straight")
    out["twelve_royals_from"] = _royals_from(get("twelve_royals_from", "J"))
    horse_card = get("horse_card", None)
    out["horse_card"] = None if horse_card is None else _card(horse_card, "horse_card")
    escape = get("escape", None)
    out["escape"] = None if escape is None else _escape(escape, players)
    swap = get("swap", None)
    out["swap"] = None if swap is None else _swap(swap)
    out["cut"] = _bool(get("cut", False), "cut")
    return out


def _players(value: Any) -> Tuple[int, ...]:
    items = _sequence(value, "players")
    if not items:
        _fail("players", "must name at least one table size (2, 3 or 4)")
    seen: List[int] = []
    for item in items:
        count = _int(item, "players")
        if count not in _PLAYER_COUNTS:
            _fail("players", f"table sizes must be 2, 3 or 4, got {count}")
        if count in seen:
            _fail("players", f"table size {count} is listed twice")
        seen.append(count)
    return tuple(sorted(seen))


def _lane_values(value: Any, deck: str) -> LaneValues:
    table = _table(value, "lane_values")
    for lane in table:
        if lane not in LANES:
            _unknown(f"lane_values.{lane}", LANES)
    lanes = []
    for lane in LANES:
        key = f"lane_values.{lane}"
        if lane not in table or table[lane] is None:
            _fail(key, "missing lane table")
        lanes.append(_lane_table(table[lane], key, lane, deck))
    return LaneValues(*lanes)


def _lane_table(value: Any, key: str, lane: str, deck: str) -> LaneTable:
    table = _table(value, key)
    for name in table:
        if name == "base":
            continue
        if name not in CATEGORY_KEYS:
            _fail(
                _join(key, name),
                f"unknown category (expected 'base' or one of {_listing(CATEGORY_KEYS)})",
            )
        if lane == "front" and name not in FRONT_CATEGORY_KEYS:
            _fail(
                _join(key, name),
                f"the front lane only holds {_listing(FRONT_CATEGORY_KEYS)}",
            )
        if name == "five_of_a_kind" and deck != "extra_diamonds":
            _fail(_join(key, name), 'five of a kind needs deck = "extra_diamonds"')
    if table.get("base") is None:
        _fail(_join(key, "base"), "missing: every lane table needs a base value")
    base = _amount(table["base"], _join(key, "base"), 1)
    values = {}
    for category in CATEGORY_KEYS:
        if category in table and table[category] is not None:
            values[category] = _amount(table[category], _join(key, category), 1)
    return LaneTable(base, FrozenMap(values))


def _units(table: Mapping[str, Any], key: str, kind: str) -> Optional[int]:
    if kind == "bonus":
        if "units" not in table:
            _fail(_join(key, "units"), 'missing: kind = "bonus" needs units')
        return _amount(table["units"], _join(key, "units"), 1)
    if "units" in table:
        _fail(_join(key, "units"), f'only applies with kind = "bonus", not {kind!r}')
    return None


def _kind(table: Mapping[str, Any], key: str) -> str:
    if "kind" not in table:
        _fail(_join(key, "kind"), f"missing (one of {_listing(_BONUS_KINDS)})")
    kind: str = _choice(table["kind"], _join(key, "kind"), _BONUS_KINDS)
    return kind


def _bonus(value: Any, key: str) -> Bonus:
    table = _entries(value, key, ("kind", "units"))
    kind = _kind(table, key)
    return Bonus(kind, _units(table, key, kind))  # type: ignore[arg-type]


def _home_run(value: Any) -> HomeRun:
    key = "home_run"
    table = _entries(value, key, ("kind", "units", "min_players"))
    kind = _kind(table, key)
    units = _units(table, key, kind)
    min_players: Optional[int] = None
    if kind == "none":
        if "min_players" in table:
            _fail(
                "home_run.min_players", 'only applies to a home run (kind not "none")'
            )
    else:
        if "min_players" not in table:
            _fail(
                "home_run.min_players", "missing: a home run needs min_players (3 or 4)"
            )
        min_players = _choice(
            table["min_players"], "home_run.min_players", _HOME_RUN_MIN_PLAYERS
        )
    return HomeRun(kind, units, min_players)  # type: ignore[arg-type]


def _surrender(value: Any) -> Surrender:
    table = _entries(value, "surrender", ("allowed", "units"))
    if "allowed" not in table:
        _fail("surrender.allowed", "missing (true or false)")
    allowed = _bool(table["allowed"], "surrender.allowed")
    if allowed:
        if "units" not in table:
            _fail("surrender.units", "missing: an allowed surrender needs units")
        return Surrender(True, _amount(table["units"], "surrender.units", 1))
    return Surrender(False, _amount(table.get("units", 0), "surrender.units", 0))


def _specials(value: Any) -> FrozenMap[str, int]:
    table = _entries(value, "specials", SPECIAL_KEYS)
    values = {}
    for special in SPECIAL_KEYS:
        if special in table:
            values[special] = _amount(table[special], f"specials.{special}", 1)
    return FrozenMap(values)


def _special_tiers(
    value: Any, specials: Mapping[str, int]
) -> Tuple[Tuple[str, ...], ...]:
    if value is _MISSING or value is None:
        return tuple((special,) for special in specials)
    key = "special_tiers"
    placed: List[str] = []
    tiers = []
    for tier in _sequence(value, key):
        members = _sequence(tier, key)
        if not members:
            _fail(key, "a tier cannot be empty")
        for special in members:
            if not isinstance(special, str):
                _fail(key, f"expected special keys, got {_describe(special)}")
            if special not in specials:
                _fail(key, f"{special!r} is not in specials")
            if special in placed:
                _fail(key, f"{special!r} is listed twice")
            placed.append(special)
        tiers.append(tuple(special for special in SPECIAL_KEYS if special in members))
    for special in specials:
        if special not in placed:
            _fail(key, f"recognised special {special!r} is in no tier")
    return tuple(tiers)


def _royals_from(value: Any) -> str:
    key = "twelve_royals_from"
    if not isinstance(value, str):
        _fail(key, f"expected 'J' or 'T', got {_describe(value)}")
    text = value.upper()
    if text == "10":
        text = "T"
    if text not in ("J", "T"):
        _fail(key, f"must be 'J' or 'T', got {short(value)}")
    return text


_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"}
_SUITS = {
    "s": "s", "h": "h", "c": "c", "d": "d",
    "♠": "s", "♥": "h", "♣": "c", "♦": "d",
    "♤": "s", "♡": "h", "♧": "c", "♢": "d",
}  # fmt: skip


def _card(value: Any, key: str) -> str:
    """Canonical text (``"As"``, ``"Th"``) of one card written as in RULES.md 1."""
    if not isinstance(value, str):
        _fail(key, f"expected a card such as 'As', got {_describe(value)}")
    text = value.strip()
    rank, suit = text[:-1].upper(), _SUITS.get(text[-1:].lower())
    if rank == "10":
        rank = "T"
    if rank not in _RANKS or suit is None:
        _fail(
            key,
            f"not a card: {short(value)} (rank 2-9, T or 10, J, Q, K, A, "
            "then suit s h c d or ♠ ♥ ♣ ♦)",
        )
    return rank + suit


def _escape(value: Any, players: Tuple[int, ...]) -> Escape:
    key = "escape"
    table = _entries(value, key, ("to", "units", "by_players"))
    if "to" not in table:
        _fail("escape.to", f"missing (one of {_listing(_ESCAPE_TO)})")
    to = _choice(table["to"], "escape.to", _ESCAPE_TO)
    if to == "split":
        if "by_players" in table:
            _fail("escape.by_players", 'only applies with to = "winner"')
        if "units" not in table:
            _fail("escape.units", 'missing: to = "split" needs units')
        return Escape(
            "split", _amount(table["units"], "escape.units", 1), FrozenMap()
        )
    if "units" in table:
        _fail("escape.units", 'only applies with to = "split" (use by_players)')
    if "by_players" not in table:
        _fail("escape.by_players", 'missing: to = "winner" needs by_players')
    by_players = _by_players(table["by_players"])
    for count in players:
        if count not in by_players:
            _fail("escape.by_players", f"no payment for a table of {count} players")
    return Escape("winner", None, by_players)


def _by_players(value: Any) -> FrozenMap[int, int]:
    if not isinstance(value, Mapping):
        _fail("escape.by_players", f"expected a table, got {_describe(value)}")
    payments: Dict[int, int] = {}
    for name, units in value.items():
        key = f"escape.by_players.{name}"
        if isinstance(name, bool):
            _fail(key, "table sizes must be 2, 3 or 4")
        if isinstance(name, int):
            count = name
        elif isinstance(name, str) and name.strip().isdigit():
            count = int(name)
        else:
            _fail(key, "table sizes must be 2, 3 or 4")
        if count not in _PLAYER_COUNTS:
            _fail(key, f"table sizes must be 2, 3 or 4, got {count}")
        if count in payments:
            _fail(key, f"table size {count} is listed twice")
        payments[count] = _amount(units, key, 1)
    return FrozenMap(sorted(payments.items()))


def _swap(value: Any) -> Swap:
    table = _entries(value, "swap", ("max_cards",))
    if "max_cards" not in table:
        _fail("swap.max_cards", "missing (1 to 13)")
    return Swap(_int(table["max_cards"], "swap.max_cards", minimum=1, maximum=13))
