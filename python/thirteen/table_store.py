"""Lane tables of the ``ev`` strategy: which tables a rule set plays with, and the table files.

Tables depend only on what changes play (:func:`play_key`): the deck, the deal, the wheel,
the mode, lane values, majority bonus, scoop (打枪), home run (全垒打) and specials (报到), and
the table size. The name, money, rake, escape, surrender, fouls, cut, swap and horse card do
not change them. A rule set is served, in this order, by tables registered with
:func:`register_tables`, by the shipped tables of a preset with the same play key, or else by
the nearest shipped tables (with a :class:`TablesWarning`, once per play key); ``thirteen
train`` builds exact ones. Table sizes whose strategies cannot differ (no home run: the
expected units of every split scale with the number of opponents alike) share one table.

Built tables are cached, least recently used first out (:data:`CACHE_SIZE` entries);
:func:`clear_cache` empties the cache.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple, Union

from thirteen._core import LaneTables
from thirteen.rules import PRESET_NAMES, RuleSet

__all__ = [
    "TABLES_FORMAT",
    "CACHE_SIZE",
    "TablesWarning",
    "TableSet",
    "SizeTables",
    "play_key",
    "key_digest",
    "size_groups",
    "lane_tables",
    "register_tables",
    "clear_cache",
    "shipped",
]

#: Version of the table files (2: per table size, with the training log).
TABLES_FORMAT = 2

#: Most lane tables kept built at once.
CACHE_SIZE = 32

#: The rule keys that change play, hence the tables.
PLAY_KEYS = (
    "deck",
    "dealt",
    "wheel",
    "mode",
    "banker_wins_ties",
    "lane_values",
    "majority_bonus",
    "scoop",
    "home_run",
    "specials",
    "special_tiers",
    "quads_as_two_pairs",
    "a23_is_straight",
    "twelve_royals_from",
)

#: How far apart two play keys are, per differing key (for the nearest shipped tables): the
#: card distribution first, then scoring, then specials.
_WEIGHT = {"deck": 1000, "dealt": 1000, "wheel": 100, "mode": 100, "banker_wins_ties": 10}


class TablesWarning(UserWarning):
    """No tables were trained for a rule set's play key; the nearest shipped ones are used."""


def play_key(rules: RuleSet) -> Dict[str, Any]:
    """The part of ``rules`` that changes play (a dict of RULES.md 6 keys)."""
    d = rules.to_dict()
    return {k: d[k] for k in PLAY_KEYS}


def key_digest(key: Dict[str, Any]) -> str:
    """A short stable digest of a play key (16 hex digits)."""
    text = json.dumps(key, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def size_groups(rules: RuleSet) -> List[Tuple[int, ...]]:
    """The rule set's table sizes grouped by strategy: sizes share a group when no home run
    can happen at either (RULES.md 5 step 7), since then the best play does not depend on the
    number of opponents."""
    hr = rules.to_dict()["home_run"]
    active = hr.get("kind", "none") != "none"
    least = int(hr.get("min_players", 5)) if active else 5
    plain = tuple(p for p in sorted(rules.players) if p < least)
    groups = [plain] if plain else []
    groups += [(p,) for p in sorted(rules.players) if p >= least]
    return groups


#: A table size's counts: the lanes' ``(value, hands)`` pairs under ``"front"``, ``"middle"``
#: and ``"back"``, and under ``"classes"`` (when trained with them) the same for each class
#: of the arrangement, a list of dicts of the three lanes.
Counts = Dict[str, Any]

LANES = ("front", "middle", "back")


def read_counts(data: Dict[str, Any]) -> Counts:
    """Counts as :meth:`LaneTables.counts` gives them or a table file holds them, with every
    pair made a tuple of ints (``KeyError`` or ``TypeError`` for another shape)."""

    def lanes(d: Dict[str, Any]) -> Dict[str, List[Tuple[int, int]]]:
        return {lane: [(int(v), int(c)) for v, c in d[lane]] for lane in LANES}

    out: Counts = dict(lanes(data))
    if data.get("classes") is not None:
        out["classes"] = [lanes(c) for c in data["classes"]]
    return out


def _counts_json(counts: Counts) -> Dict[str, Any]:
    def lanes(d: Dict[str, Any]) -> Dict[str, Any]:
        return {lane: [list(p) for p in d[lane]] for lane in LANES}

    out = lanes(counts)
    if counts.get("classes") is not None:
        out["classes"] = [lanes(c) for c in counts["classes"]]
    return out


@dataclass(frozen=True)
class SizeTables:
    """The trained counts for one group of table sizes, with the training log: one
    ``(iteration, hands, change, gap)`` row per iteration (see :func:`thirteen.train`)."""

    players: Tuple[int, ...]
    counts: Counts
    log: Tuple[Tuple[int, int, float, float], ...] = ()


@dataclass(frozen=True)
class TableSet:
    """Lane tables for one play key, every table size: what ``thirteen train`` makes and
    what ships in ``thirteen/tables/<preset>.json.gz``.

    Attributes:
        key: the play key (:func:`play_key`).
        sizes: one :class:`SizeTables` per group of table sizes.
        settings: how they were trained (deals, iterations, tolerance, seed).
        name: the rule set's name when trained (informative only).
    """

    key: Dict[str, Any]
    sizes: Tuple[SizeTables, ...]
    settings: Dict[str, Any] = field(default_factory=dict)
    name: str = ""

    @property
    def digest(self) -> str:
        """:func:`key_digest` of :attr:`key` (computed once)."""
        cached = self.__dict__.get("_digest")
        if cached is None:
            cached = key_digest(self.key)
            self.__dict__["_digest"] = cached
        return str(cached)

    def group(self, players: int) -> Optional[SizeTables]:
        """The tables of table size ``players`` (``None`` when not trained)."""
        for s in self.sizes:
            if players in s.players:
                return s
        return None

    def lane_tables(self, rules: RuleSet, players: int) -> LaneTables:
        """:class:`LaneTables` for ``players`` with ``rules``' lane values (the nearest trained
        size when that one is missing)."""
        group = self.group(players)
        if group is None:
            group = min(self.sizes, key=lambda s: min(abs(p - players) for p in s.players))
        c = group.counts
        return LaneTables.from_counts(rules, c["front"], c["middle"], c["back"], c.get("classes"))

    def to_bytes(self) -> bytes:
        """The gzipped JSON file: the same bytes for the same tables."""
        data = {
            "format": TABLES_FORMAT,
            "name": self.name,
            "key": self.key,
            "settings": self.settings,
            "sizes": [
                {
                    "players": list(s.players),
                    "log": [list(r) for r in s.log],
                    "counts": _counts_json(s.counts),
                }
                for s in self.sizes
            ],
        }
        text = json.dumps(data, separators=(",", ":"), sort_keys=True)
        return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)

    def save(self, path: Union[str, Path]) -> None:
        """Writes :meth:`to_bytes` to ``path``."""
        Path(path).write_bytes(self.to_bytes())

    @classmethod
    def from_bytes(cls, blob: bytes) -> TableSet:
        """Reads a table file's bytes. Raises ``ValueError`` for bytes that are not a table
        file of this format (not gzip, not JSON, a field missing or of the wrong shape, no
        table size)."""
        problem = f"not a thirteen lane-table file of format {TABLES_FORMAT}"
        try:
            data = json.loads(gzip.decompress(blob).decode("utf-8"))
        except (OSError, EOFError, UnicodeDecodeError, ValueError) as e:
            raise ValueError(f"{problem}: {e}") from None
        if not isinstance(data, dict) or data.get("format") != TABLES_FORMAT:
            raise ValueError(problem)
        try:
            sizes = tuple(
                SizeTables(
                    players=tuple(int(p) for p in s["players"]),
                    counts=read_counts(s["counts"]),
                    log=tuple((int(r[0]), int(r[1]), float(r[2]), float(r[3])) for r in s["log"]),
                )
                for s in data["sizes"]
            )
            out = cls(key=data["key"], sizes=sizes, settings=data.get("settings", {}), name=data.get("name", ""))
        except (KeyError, TypeError, IndexError, AttributeError) as e:
            raise ValueError(f"{problem}: {type(e).__name__} {e}") from None
        if not sizes:
            raise ValueError(f"{problem}: it holds no table size")
        return out

    @classmethod
    def load(cls, path: Union[str, Path]) -> TableSet:
        """Reads a table file (``thirteen train --out``)."""
        return cls.from_bytes(Path(path).read_bytes())


_LOCK = threading.Lock()
_CACHE: "OrderedDict[Tuple[str, int], LaneTables]" = OrderedDict()
# The most recently used cache entry, read without the lock: an entry that is already the
# most recent needs no LRU update. Replaced (one tuple, set under the lock) whenever the
# most recent entry changes or leaves the cache.
_RECENT: Tuple[Optional[Tuple[str, int]], Optional[LaneTables]] = (None, None)
_REGISTERED: Dict[str, TableSet] = {}
_SHIPPED: Optional[Dict[str, TableSet]] = None
_WARNED: Set[str] = set()


def shipped() -> Dict[str, TableSet]:
    """The shipped table sets, by preset name (``"default"`` for :meth:`RuleSet.default`)."""
    global _SHIPPED
    with _LOCK:
        if _SHIPPED is None:
            out: Dict[str, TableSet] = {}
            for name in PRESET_NAMES + ("default",):
                path = files("thirteen") / "tables" / f"{name}.json.gz"
                if path.is_file():
                    try:
                        out[name] = TableSet.from_bytes(path.read_bytes())
                    except ValueError:
                        continue
            _SHIPPED = out
        return _SHIPPED


def register_tables(tables: TableSet) -> None:
    """Makes ``tables`` serve every rule set with their play key, at the table sizes they
    were trained for (ahead of shipped ones; other sizes keep the shipped tables of the same
    play key where there are some, else the registered tables' nearest size).
    Raises TypeError for anything but a :class:`TableSet`."""
    global _RECENT
    if not isinstance(tables, TableSet):
        raise TypeError(f"register_tables takes a TableSet, not {type(tables).__name__}")
    with _LOCK:
        _REGISTERED[tables.digest] = tables
        for k in [k for k in _CACHE if k[0] == tables.digest]:
            del _CACHE[k]
        _RECENT = (None, None)


def clear_cache() -> None:
    """Empties the cache of built lane tables (registered table sets stay)."""
    global _RECENT
    with _LOCK:
        _CACHE.clear()
        _RECENT = (None, None)


def _distance(a: Dict[str, Any], b: Dict[str, Any]) -> int:
    return sum(_WEIGHT.get(k, 10 if k != "specials" and k != "special_tiers" else 1) for k in PLAY_KEYS if a[k] != b[k])


def _play(rules: RuleSet) -> Tuple[Dict[str, Any], str]:
    """``rules``' play key and its digest, computed once per rule set object (kept in its
    ``__dict__``, as ``functools.cached_property`` keeps values, so ``solve`` pays a lookup)."""
    cached = rules.__dict__.get("_thirteen_play")
    if cached is None:
        key = play_key(rules)
        cached = (key, key_digest(key))
        rules.__dict__["_thirteen_play"] = cached
    return cached


def _source(rules: RuleSet, players: int) -> Tuple[TableSet, bool]:
    """The table set serving ``rules`` at ``players`` and whether it is exact: registered
    tables for the sizes they were trained for, else the shipped ones of the same play key,
    else registered tables of the nearest size, else the nearest shipped ones."""
    key, digest = _play(rules)
    with _LOCK:
        mine = _REGISTERED.get(digest)
    if mine is not None and mine.group(players) is not None:
        return mine, True
    ships = shipped()
    for ts in ships.values():
        if ts.digest == digest:
            return ts, True
    if mine is not None:
        return mine, True
    if not ships:
        raise RuntimeError("no lane tables are shipped with this installation")
    order = PRESET_NAMES + ("default",)
    name = min(ships, key=lambda n: (_distance(key, ships[n].key), order.index(n)))
    return ships[name], False


def _outside_level() -> int:
    """The ``stacklevel`` of a warning issued by this function's caller that names the first
    line outside the package (``solve``, ``hints`` and ``lane_tables`` reach the tables from
    different depths)."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(package + os.sep):
        frame = frame.f_back
        level += 1
    return level


def lane_tables(rules: Optional[RuleSet] = None, players: int = 4) -> LaneTables:
    """The ``ev`` strategy's lane tables for ``rules`` at a table of ``players`` (cached).

    Warns with :class:`TablesWarning` (once per play key) when no tables were trained for the
    rule set's play key and the nearest shipped ones are used.

    Raises:
        TypeError: ``rules`` not a RuleSet, ``players`` not an int.
        PlayerCountError: a table size the rules do not allow.
    """
    rules = rules if rules is not None else RuleSet.default()
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a thirteen.RuleSet or None, not {type(rules).__name__}")
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, not {type(players).__name__}")
    rules.check_players(players)
    key, digest = _play(rules)
    cache_key = (digest, players)
    hit = _hit(cache_key)
    if hit is not None:
        return hit
    ts, exact = _source(rules, players)
    if not exact and digest not in _WARNED:
        _WARNED.add(digest)
        differ = [k for k in PLAY_KEYS if key[k] != ts.key[k]]
        warnings.warn(
            f"no lane tables were trained for rule set {rules.name!r} (play key {digest}); "
            f"using the {ts.name!r} tables, which differ in {', '.join(differ)}. "
            "`thirteen train --rules-file FILE --out TABLES` builds exact ones "
            "(load them with thirteen.register_tables(thirteen.TableSet.load(TABLES))).",
            TablesWarning,
            stacklevel=_outside_level(),
        )
    built = ts.lane_tables(rules, players)
    global _RECENT
    with _LOCK:
        _CACHE[cache_key] = built
        # Another thread may have stored this key meanwhile: it is the most recent now.
        _CACHE.move_to_end(cache_key)
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
        _RECENT = (cache_key, built) if cache_key in _CACHE else (None, None)
    return built


def cached_lane_tables(rules: RuleSet, players: int) -> LaneTables:
    """:func:`lane_tables` for arguments already checked (a ``RuleSet`` and one of its table
    sizes), as ``solve`` calls it on every hand: the most recently used entry is one digest
    read and one comparison, another cached entry an LRU lookup; anything else goes through
    :func:`lane_tables`."""
    cached = rules.__dict__.get("_thirteen_play")
    if cached is None:
        return lane_tables(rules, players)
    cache_key = (cached[1], players)
    recent = _RECENT
    if recent[0] == cache_key:
        return recent[1]  # type: ignore[return-value]
    hit = _hit(cache_key)
    return hit if hit is not None else lane_tables(rules, players)


def _hit(cache_key: Tuple[str, int]) -> Optional[LaneTables]:
    """The cached lane tables under ``cache_key`` (now the most recently used), else None."""
    global _RECENT
    with _LOCK:
        hit = _CACHE.get(cache_key)
        if hit is not None:
            _CACHE.move_to_end(cache_key)
            _RECENT = (cache_key, hit)
        return hit


def cache_size() -> int:
    """How many lane tables are cached now."""
    with _LOCK:
        return len(_CACHE)

