"""Training of the ``ev`` strategy's lane tables (``thirteen train``): fictitious play with
linear averaging, per group of table sizes, in the Rust core on every core.

Each iteration deals ``deals`` random tables, arranges every hand by ``ev`` against the
tables averaged so far (a best response) and adds the lane values played to the average
(iteration ``t`` weighted ``t + 1``). It logs two Kolmogorov–Smirnov distances, the largest
over the three lanes of the largest gap between two cumulative distributions of a lane's
value: ``change``, how far the iteration moved the tables, and ``gap``, how far its best
response was from the tables it answered. Training stops at ``tolerance`` (``change`` below
it) or after ``iterations``. The same arguments and seed give byte-identical tables.

On a Ray cluster (``backend="ray"``) each iteration's deals are cut into two shards per CPU
of the cluster (:func:`shard_deals`), played as Ray tasks (:func:`count_deals`) that fetch
the iteration's tables once per worker process and send their lane counts back packed in
numpy arrays (:func:`pack_counts`); the counts add up to the iteration's in any order, and the averaging stays in the core, so the tables are
byte-identical to the local ones.
"""

from __future__ import annotations

import operator
import os
import tempfile
from pathlib import Path

import numpy as np
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from thirteen import _core, cluster
from thirteen.errors import LimitError, ThirteenError
from thirteen.rules import RuleSet
from thirteen.table_store import LANES, SizeTables, TableSet, play_key, read_counts, size_groups

__all__ = ["train", "Progress", "DEFAULTS", "SHARD_DEALS", "add_packed", "check_out", "count_deals", "pack_counts",
           "shard_deals"]

#: Fewest deals per Ray task in a training iteration (:func:`shard_deals`).
SHARD_DEALS = 250

#: The settings the shipped tables are trained with.
DEFAULTS: Dict[str, Any] = {"deals": 32000, "iterations": 60, "tolerance": 0.0002, "seed": 1}

#: ``progress(players, iteration, hands, change, gap)``, called after every iteration.
Progress = Callable[[Tuple[int, ...], int, int, float, float], None]


def train(
    rules: Optional[RuleSet] = None,
    *,
    players: Optional[Sequence[int]] = None,
    deals: int = DEFAULTS["deals"],
    iterations: int = DEFAULTS["iterations"],
    tolerance: float = DEFAULTS["tolerance"],
    seed: int = DEFAULTS["seed"],
    progress: Optional[Progress] = None,
    out: Union[str, Path, None] = None,
    backend: Optional[str] = None,
    address: Optional[str] = None,
    workers: Optional[int] = None,
) -> TableSet:
    """Trains lane tables for ``rules`` by fictitious play (see the module docs).

    Args:
        rules: the :class:`RuleSet` (a preset, a rule file's or your own; ``None``: defaults).
        players: table sizes to train (default: every size the rules allow); sizes that share
            a strategy share one table (:func:`thirteen.table_store.size_groups`).
        deals: random tables dealt per iteration (each of ``players`` hands).
        iterations: most iterations per size group (iteration 0 plays greedily).
        tolerance: stop once an iteration moves the tables less than this (KS distance).
        seed: seed of the deals (0 to 2**64 − 1); the same arguments give byte-identical
            tables, and any two seeds deal different cards.
        progress: called after each iteration (see :data:`Progress`).
        out: a path to write the table file to (``TableSet.save``).
        backend: ``"local"`` (every core here) or ``"ray"`` (default: ``"ray"`` when
            ``address`` is given); the tables are byte-identical.
        address: the Ray cluster (:mod:`thirteen.cluster`): ``"local"``, ``"auto"``,
            ``"HOST:PORT"``, or ``None`` (Ray's default).
        workers: on Ray, most tasks at once (and the CPUs of a ``"local"`` runtime).

    Returns:
        The :class:`TableSet`; register it with :func:`thirteen.register_tables` to make
        ``solve`` use it for every rule set with the same play key.

    Raises:
        PlayerCountError: a size the rules do not allow, or no size at all.
        ThirteenError: an ``out`` that cannot be written: a folder, in a folder that does not
            exist or takes no new file, or a file without write permission (checked before
            training, :func:`check_out`).
        LimitError: ``deals`` outside 1 to 10**8, ``iterations`` outside 1 to 10**4,
            ``seed`` outside 0 to 2**64 − 1, a negative or infinite ``tolerance``.
        BackendError: an unknown backend, Ray not installed, or no cluster at ``address``.
        TypeError: an argument of the wrong type.
    """
    rules = rules if rules is not None else RuleSet.default()
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a thirteen.RuleSet or None, not {type(rules).__name__}")
    if players is not None and (isinstance(players, (str, bytes)) or not hasattr(players, "__iter__")):
        raise TypeError(f"players must be a sequence of table sizes, not {type(players).__name__}")
    sizes = sorted({_size(p) for p in players}) if players is not None else sorted(rules.players)
    if not sizes:
        from thirteen.errors import PlayerCountError

        raise PlayerCountError(f"players names no table size to train (allowed: {rules.players})",
                               got=None, allowed=tuple(rules.players))
    for p in sizes:
        rules.check_players(p)
    for name, value, most in (("deals", deals, 10**8), ("iterations", iterations, 10**4), ("seed", seed, 2**64 - 1)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        least = 0 if name == "seed" else 1
        if not least <= value <= most:
            raise LimitError(f"{name} must be from {least} to {most}, got {value}",
                             key=name, value=str(value), minimum=least, maximum=most)
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
        raise TypeError(f"tolerance must be a number, not {type(tolerance).__name__}")
    if not 0 <= tolerance < float("inf"):
        raise LimitError(f"tolerance must be a number from 0, got {tolerance}", key="tolerance",
                         value=str(tolerance), minimum=0, maximum=None)
    if out is not None:
        check_out(out)
    backend = cluster.resolve_backend(backend, address)
    groups = [tuple(p for p in g if p in sizes) for g in size_groups(rules)]
    if backend == "ray":
        with cluster.session(address, workers=workers) as ray:
            out_sizes = _train_groups(rules, groups, deals, iterations, tolerance, seed, progress, ray)
    else:
        out_sizes = _train_groups(rules, groups, deals, iterations, tolerance, seed, progress, None)
    result = TableSet(
        key=play_key(rules),
        sizes=tuple(out_sizes),
        settings={"deals": deals, "iterations": iterations, "tolerance": tolerance, "seed": seed},
        name=rules.name,
    )
    if out is not None:
        result.save(out)
    return result


def check_out(out: Union[str, Path]) -> None:
    """Checks, before any work, that a table file can be written at ``out``: not a folder,
    in a folder that exists and takes a new file (a file made there and removed at once),
    and not an existing file that cannot be written.

    Raises:
        ThirteenError: which of these fails, naming ``out``.
    """
    path = Path(out)
    if path.is_dir():
        raise ThirteenError(f"out: {str(path)!r} is a folder, not a file to write the tables to")
    if not path.parent.is_dir():
        raise ThirteenError(f"out: no folder {str(path.parent)!r} to write the table file to")
    if path.exists() and not os.access(path, os.W_OK):
        raise ThirteenError(f"out: cannot write {str(path)!r}: permission denied")
    try:
        handle, probe = tempfile.mkstemp(dir=path.parent, prefix=".thirteen-train-")
    except OSError as exc:
        raise ThirteenError(f"out: cannot write in {str(path.parent)!r}: {exc.strerror or exc}") from None
    os.close(handle)
    os.unlink(probe)


def _size(value: object) -> int:
    """A table size as an int (numpy integers included); TypeError naming ``players``."""
    if isinstance(value, bool):
        raise TypeError("players must hold ints, not bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"players must hold ints, not {type(value).__name__}") from None


#: What every shard of a training iteration shares: rules, tables, players, seed, iteration, greedy.
IterationSpec = Tuple[RuleSet, Optional[_core.LaneTables], int, int, int, bool]


#: Lane counts packed for the trip back from a Ray task: every ``(value, count)`` pair as
#: one row of a ``(n, 2)`` uint64 array, and how many rows each list holds, in the order
#: front, middle, back, then each class's front, middle and back (numpy arrays travel as
#: their bytes; a list of tuples is pickled item by item).
Packed = Tuple[np.ndarray, Tuple[int, ...]]


def pack_counts(counts: Dict[str, Any]) -> Packed:
    """``counts`` as :func:`thirteen._core.iteration_counts` gives them, packed (:data:`Packed`)."""
    lists = [counts[lane] for lane in LANES]
    lists += [c[lane] for c in counts.get("classes") or () for lane in LANES]
    rows = [pair for pairs in lists for pair in pairs]
    return np.array(rows, dtype=np.uint64).reshape(len(rows), 2), tuple(len(pairs) for pairs in lists)


def add_packed(parts: Sequence[Packed]) -> Dict[str, Any]:
    """The sum of packed lane counts of disjoint deals (in any order), value by value, as
    :func:`thirteen._core.iteration_counts` gives them: each list's pairs sorted by value,
    and ``classes`` when anything was counted."""
    counted = [p for p in parts if sum(p[1])]
    if not counted:
        return {lane: [] for lane in LANES}
    slots = len(counted[0][1])
    pieces: List[List[np.ndarray]] = [[] for _ in range(slots)]
    for table, sizes in counted:
        for slot, piece in enumerate(np.split(table, np.cumsum(sizes)[:-1])):
            pieces[slot].append(piece)
    summed = [_sum_pairs(np.concatenate(slot)) for slot in pieces]
    out: Dict[str, Any] = dict(zip(LANES, summed[: len(LANES)]))
    if slots > len(LANES):
        out["classes"] = [dict(zip(LANES, summed[k : k + len(LANES)])) for k in range(len(LANES), slots, len(LANES))]
    return out


def _sum_pairs(table: np.ndarray) -> List[Tuple[int, int]]:
    """``(value, count)`` rows summed by value, sorted by value."""
    if not len(table):
        return []
    table = table[np.argsort(table[:, 0], kind="stable")]
    starts = np.flatnonzero(np.r_[True, table[1:, 0] != table[:-1, 0]])
    return list(zip(table[starts, 0].tolist(), np.add.reduceat(table[:, 1], starts).tolist()))


def count_deals(common: IterationSpec, shard: Tuple[int, int]) -> Packed:
    """A Ray task of :func:`train`: the lane counts of deals ``shard[0]`` to ``shard[1] - 1``
    of one iteration (``common``: rules, tables, players, seed, iteration, greedy), as
    :func:`thirteen._core.iteration_counts` gives them, packed (:func:`pack_counts`)."""
    rules, tables, players, seed, iteration, greedy = common
    return pack_counts(_core.iteration_counts(rules, tables, players=players, seed=seed, iteration=iteration,
                                              greedy=greedy, start=shard[0], stop=shard[1]))


def _train_groups(
    rules: RuleSet,
    groups: Sequence[Tuple[int, ...]],
    deals: int,
    iterations: int,
    tolerance: float,
    seed: int,
    progress: Optional[Progress],
    ray: Optional[cluster.RaySession],
) -> List[SizeTables]:
    """The tables of each non-empty size group, counted here or by ``ray``."""
    out_sizes: List[SizeTables] = []
    for group in (g for g in groups if g):
        log: List[Tuple[int, int, float, float]] = []

        def report(it: int, hands: int, change: float, gap: float, group: Tuple[int, ...] = group) -> bool:
            log.append((it, hands, change, gap))
            if progress is not None:
                progress(group, it, hands, change, gap)
            return True

        count = None if ray is None else _ray_counter(ray, rules, max(group), deals, seed)
        tables = _core.train(rules, players=max(group), deals=deals, iterations=iterations,
                             tolerance=tolerance, seed=seed, report=report, count=count)
        counts = read_counts(tables.counts())
        out_sizes.append(SizeTables(players=group, counts=counts, log=tuple(log)))
    return out_sizes


def _ray_counter(
    ray: cluster.RaySession, rules: RuleSet, players: int, deals: int, seed: int
) -> Callable[[int, bool, Optional[_core.LaneTables]], Dict[str, Any]]:
    """The ``count`` callback of :func:`thirteen._core.train` that plays each iteration's
    deals as Ray tasks (:func:`shard_deals` deals each) and adds their counts as they come.
    The iteration's tables go to the cluster once and each worker process fetches them once
    (:meth:`thirteen.cluster.RaySession.run`)."""
    size = shard_deals(deals, ray.cpus())

    def count(iteration: int, greedy: bool, tables: Optional[_core.LaneTables]) -> Dict[str, Any]:
        plan = ((start, min(start + size, deals)) for start in range(0, deals, size))
        parts = ray.imap_unordered(count_deals, (rules, tables, players, seed, iteration, greedy), plan)
        return add_packed(list(parts))

    return count


def shard_deals(deals: int, cpus: int) -> int:
    """Deals per Ray task of a training iteration: two tasks per CPU of the cluster (an
    iteration waits for its last task; on one machine one, two and four per CPU measured
    alike), each of at least :data:`SHARD_DEALS`."""
    return max(SHARD_DEALS, -(-deals // (2 * max(1, cpus))))
