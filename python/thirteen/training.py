"""Training of the ``ev`` strategy's lane tables (``thirteen train``): fictitious play with
linear averaging, per group of table sizes, in the Rust core on every core.

Each iteration deals ``deals`` random tables, arranges every hand by ``ev`` against the
tables averaged so far (a best response) and adds the lane values played to the average
(iteration ``t`` weighted ``t + 1``). It logs two Kolmogorov–Smirnov distances, the largest
over the three lanes of the largest gap between two cumulative distributions of a lane's
value: ``change``, how far the iteration moved the tables, and ``gap``, how far its best
response was from the tables it answered. Training stops at ``tolerance`` (``change`` below
it) or after ``iterations``. The same arguments and seed give byte-identical tables.

On a Ray cluster (``backend="ray"``) each iteration's deals are cut into shards
(:data:`TASKS_PER_CPU` per CPU of the cluster, :func:`shard_deals`), played as Ray tasks
(:func:`count_deals`). The driver never builds the tables: the core hands over the counts
they are built from, packed in bytes, which go to the cluster once; each worker process
builds the tables from them once (:func:`build_iteration`), and each task sends its lane
counts back packed in bytes, which the core adds up. The counts add up to the iteration's
in any order, and the averaging stays in the core, so the tables are byte-identical to the
local ones.
"""

from __future__ import annotations

import operator
import os
import tempfile
from pathlib import Path

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from thirteen import _core, cluster
from thirteen.errors import LimitError, ThirteenError
from thirteen.rules import RuleSet
from thirteen.table_store import SizeTables, TableSet, play_key, read_counts, size_groups

__all__ = ["train", "Progress", "DEFAULTS", "SHARD_DEALS", "TASKS_PER_CPU", "build_iteration", "check_out",
           "count_deals", "shard_deals"]

#: Fewest deals per Ray task in a training iteration (:func:`shard_deals`).
SHARD_DEALS = 250

#: Ray tasks per CPU of the cluster in a training iteration (:func:`shard_deals`): an
#: iteration waits for its last task.
TASKS_PER_CPU = 2

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


#: What every shard of a training iteration shares, as the driver sends it: rules, the
#: counts of the tables it answers packed in bytes (``None`` for a greedy iteration 0),
#: players, seed, iteration, greedy.
IterationSpec = Tuple[RuleSet, Optional[bytes], int, int, int, bool]

#: An :data:`IterationSpec` as a worker process uses it: its tables built.
Iteration = Tuple[RuleSet, Optional[_core.LaneTables], int, int, int, bool]


def build_iteration(spec: IterationSpec) -> Iteration:
    """What a Ray worker process does once per iteration (:meth:`thirteen.cluster.RaySession.run`'s
    ``prepare``): the iteration's tables built from their packed counts."""
    rules, packed, players, seed, iteration, greedy = spec
    tables = None if packed is None else _core.LaneTables.from_packed(rules, packed)
    return rules, tables, players, seed, iteration, greedy


def count_deals(common: Iteration, shard: Tuple[int, int]) -> bytes:
    """A Ray task of :func:`train`: the lane counts of deals ``shard[0]`` to ``shard[1] - 1``
    of one iteration (``common``: rules, tables, players, seed, iteration, greedy), as
    :func:`thirteen._core.iteration_counts` gives them, packed in bytes (the driver's core
    adds them up)."""
    rules, tables, players, seed, iteration, greedy = common
    return _core.iteration_counts(rules, tables, players=players, seed=seed, iteration=iteration,
                                  greedy=greedy, start=shard[0], stop=shard[1], packed=True)


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
                             tolerance=tolerance, seed=seed, report=report, count=count, packed=True)
        counts = read_counts(tables.counts())
        out_sizes.append(SizeTables(players=group, counts=counts, log=tuple(log)))
    return out_sizes


def _ray_counter(
    ray: cluster.RaySession, rules: RuleSet, players: int, deals: int, seed: int
) -> Callable[[int, bool, Optional[bytes]], List[bytes]]:
    """The packed ``count`` callback of :func:`thirteen._core.train` that plays each
    iteration's deals as Ray tasks (:func:`shard_deals` deals each) and hands their packed
    counts to the core, which adds them. The counts of the iteration's tables go to the
    cluster once, and each worker process builds the tables from them once
    (:func:`build_iteration`)."""
    size = shard_deals(deals, ray.cpus())

    def count(iteration: int, greedy: bool, packed: Optional[bytes]) -> List[bytes]:
        plan = ((start, min(start + size, deals)) for start in range(0, deals, size))
        spec: IterationSpec = (rules, packed, players, seed, iteration, greedy)
        return list(ray.imap_unordered(count_deals, spec, plan, prepare=build_iteration))

    return count


def shard_deals(deals: int, cpus: int) -> int:
    """Deals per Ray task of a training iteration: :data:`TASKS_PER_CPU` tasks per CPU of
    the cluster, each of at least :data:`SHARD_DEALS`."""
    return max(SHARD_DEALS, -(-deals // (TASKS_PER_CPU * max(1, cpus))))
