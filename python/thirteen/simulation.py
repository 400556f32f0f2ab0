"""Simulation in shards: many rounds played by the engine's strategies, counted in integer
sums that add up, and the summary computed from the sums.

Round ``r`` of a run is dealt with seed ``seed + r`` (and an ``mc`` seat samples with seed
``r``), wherever it is played. Rounds are played in shards, ranges of round numbers made
lazily as the work goes (a run of 10**11 rounds holds a few shards, not all of them); a
shard's :class:`ShardCounts` are integer sums over its rounds (units and their squares per
seat, events, specials, rake, and a histogram of each seat's result). Integer sums do not
depend on the order they are added in nor on how the rounds are grouped, so the counts of a
run, and its summary, are the same whatever the shard sizes, the order the shards finish
in, and the backend: this process alone, worker processes on every core
(:mod:`thirteen.processes`), or a Ray cluster of any size (:mod:`thirteen.cluster`).

Shard sizes: this process first plays the run's first rounds itself for
:data:`PROBE_SECONDS`, in shards of 1, 2, 4, ... rounds, which measures the strategies' rate
here; the rest is cut into shards that last about :data:`LOCAL_SHARD_SECONDS` here (smaller
near the end of the run, :func:`tapered`), or :data:`RAY_SHARD_SECONDS` on a Ray CPU, and at
least a few per worker or CPU; ``shard_rounds`` fixes the size instead.
"""

from __future__ import annotations

import functools
import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from thirteen import _core, cluster
from thirteen.errors import LimitError, ThirteenError
from thirteen.processes import Pool
from thirteen.rules import RuleSet
from thirteen.game.decisions import AI_SAMPLES, AI_STRATEGY, gift_seed
from thirteen.gifts import gift
from thirteen.solver import solve
from thirteen._core import Card, LaneTables
from thirteen.table_store import lane_tables

__all__ = [
    "EVENTS",
    "LOCAL_SHARD_SECONDS",
    "MAX_ROUNDS",
    "POOL_SECONDS",
    "PROBE_SECONDS",
    "QUANTILES",
    "RAY_SHARD_SECONDS",
    "ShardCounts",
    "Spec",
    "play_shard",
    "quantile",
    "shard_size",
    "shards",
    "tapered",
    "simulate",
    "summarize",
]

#: Most rounds of one run: 10**12, about a week on 1,600 CPUs at 2,000 rounds per
#: CPU-second (every seat ``mc``, far dearer, takes longer). More is refused, not started.
MAX_ROUNDS = 10**12

#: Seconds this process plays the run's first rounds itself, to measure their rate.
PROBE_SECONDS = 0.05

#: Worker processes are started only when the rounds left would take this process longer
#: than this (starting one costs a few tenths of a CPU-second).
POOL_SECONDS = 0.5

#: Seconds a shard lasts on a worker process of this machine (at the measured rate; shards
#: shrink near the end of the run, :func:`tapered`).
LOCAL_SHARD_SECONDS = 0.25

#: Seconds a shard lasts on a Ray CPU: long enough that the driver takes a few hundred
#: shards a second from 1,600 CPUs, short enough that a lost shard costs little.
RAY_SHARD_SECONDS = 5.0

#: The per-round counts of the summary, in the order shown.
EVENTS = ("fouls", "scoops", "home_runs")

#: The quantiles of a seat's result in the summary: key and fraction.
QUANTILES = (("p5", 0.05), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p95", 0.95))

#: A rake as :func:`thirteen.money` takes it: ``(percent, cap)``.
Rake = Tuple[Union[int, str], Optional[int]]


@dataclass(frozen=True)
class Spec:
    """What every shard of a run shares (sent once to each worker process or Ray worker;
    the rule set travels as its dict and is rebuilt there).

    Attributes:
        rules: the rule set.
        players: table size.
        strategies: one strategy per seat (``ev``, ``mc``, ``greedy``).
        samples: Monte Carlo samples of ``mc`` seats.
        seed: seed of round 0 (round ``r``: ``seed + r``); ``None``: random deals.
        stake: minor currency units per unit, for the rake.
        rake: ``(percent, cap)`` taken from each round's winners (RULES.md 5 "Money"), or ``None``.
        tables: the lane tables every seat plays with (resolved once where the run starts,
            so that workers play with the same ones, registered tables included);
            ``None``: each seat's :func:`thirteen.lane_tables`.
    """

    rules: RuleSet
    players: int
    strategies: Tuple[str, ...]
    samples: int = AI_SAMPLES
    seed: Optional[int] = None
    stake: int = 1
    rake: Optional[Rake] = None
    tables: Optional[LaneTables] = None


@dataclass
class ShardCounts:
    """Integer sums over some rounds; those of disjoint rounds add with :meth:`add`.

    Attributes:
        rounds: rounds counted.
        totals: per seat, the sum of its units.
        squares: per seat, the sum of its units squared.
        histogram: per seat, rounds by the units the seat won (negative: lost).
        events: fouls, scoops and home runs (:data:`EVENTS`).
        specials: specials declared, by key.
        rake: the rake taken, in minor currency units (``Spec.stake`` per unit).
        rake_squares: the sum of each round's rake squared.
    """

    rounds: int = 0
    totals: List[int] = field(default_factory=list)
    squares: List[int] = field(default_factory=list)
    histogram: List[Dict[int, int]] = field(default_factory=list)
    events: Dict[str, int] = field(default_factory=dict)
    specials: Dict[str, int] = field(default_factory=dict)
    rake: int = 0
    rake_squares: int = 0

    @classmethod
    def empty(cls, players: int) -> ShardCounts:
        """No rounds yet, for ``players`` seats."""
        return cls(
            totals=[0] * players,
            squares=[0] * players,
            histogram=[{} for _ in range(players)],
            events={k: 0 for k in EVENTS},
        )

    def add(self, other: ShardCounts) -> None:
        """Adds ``other``'s counts (of other rounds of the same table size) to these."""
        self.rounds += other.rounds
        for seat, (t, q, h) in enumerate(zip(other.totals, other.squares, other.histogram)):
            self.totals[seat] += t
            self.squares[seat] += q
            mine = self.histogram[seat]
            for units, n in h.items():
                mine[units] = mine.get(units, 0) + n
        for counter, more in ((self.events, other.events), (self.specials, other.specials)):
            for key, n in more.items():
                counter[key] = counter.get(key, 0) + n
        self.rake += other.rake
        self.rake_squares += other.rake_squares

    def count_round(self, settlement: Any, rake: int) -> None:
        """Adds one settled round: ``settlement`` a :class:`thirteen.Settlement` (or an
        object with its ``totals``, ``fouled``, ``scoops``, ``home_runs`` and ``specials``),
        ``rake`` the minor units taken from it."""
        self.rounds += 1
        for seat, t in enumerate(settlement.totals):
            self.totals[seat] += t
            self.squares[seat] += t * t
            self.histogram[seat][t] = self.histogram[seat].get(t, 0) + 1
        self.events["fouls"] += len(settlement.fouled)
        self.events["scoops"] += len(settlement.scoops)
        self.events["home_runs"] += len(settlement.home_runs)
        for sp in settlement.specials:
            if sp is not None:
                self.specials[sp.key] = self.specials.get(sp.key, 0) + 1
        self.rake += rake
        self.rake_squares += rake * rake


def shards(rounds: int, size: int, start: int = 0) -> Iterator[Tuple[int, int]]:
    """The shards of rounds ``start`` to ``rounds - 1``: ``(start, stop)`` ranges of ``size``
    rounds (the last may be shorter), in order, made one at a time as they are taken."""
    for first in range(start, rounds, size):
        yield first, min(first + size, rounds)


def tapered(rounds: int, size: int, start: int, workers: int) -> Iterator[Tuple[int, int]]:
    """Like :func:`shards`, but a shard never holds more than half of the rounds left
    divided among ``workers``: shards shrink near the end of the run, so that the workers
    end close together."""
    first = start
    while first < rounds:
        stop = first + max(1, min(size, (rounds - first) // (2 * max(1, workers))))
        yield first, min(stop, rounds)
        first = stop


def shard_size(rate: float, rounds: int, workers: int, seconds: float) -> int:
    """Rounds per shard: about ``seconds`` of work at ``rate`` rounds a second, but small
    enough that ``rounds`` make at least four shards per worker (the last ones then end
    close together), and at least 1."""
    most = math.ceil(rounds / (4 * max(1, workers)))
    return max(1, min(int(rate * seconds), most))


def _swapped(spec: Spec, r: int, hands: List[List[Card]], seed: Optional[int]) -> List[List[Card]]:
    """The hands of round ``r`` after swap-three (换三张, RULES.md 7.3): each ``ev`` or
    ``mc`` seat gives what :func:`thirteen.gift` chooses (seeded by the round's seed and
    the seat), a ``greedy`` seat gives nothing."""
    rules = spec.rules
    given = [
        list(gift(hand, rules, players=spec.players, banker=rules.mode == "banker" and seat == 0,
                  seed=gift_seed(seed, seat), tables=spec.tables).cards)
        if spec.strategies[seat] != "greedy" else []
        for seat, hand in enumerate(hands)
    ]  # fmt: skip
    return [list(h) for h in _core.swap_cards(hands, given, rules, seed)]


def _play_round(spec: Spec, r: int) -> Tuple[_core.Settlement, int]:
    """Round ``r`` of the run: its settlement, and the rake taken from it. Swap-three
    (:func:`_swapped`) when the rules have it; an ``ev`` or ``mc`` seat surrenders when the
    rules allow it and that loses less (:attr:`thirteen.Solution.surrenders`)."""
    rules = spec.rules
    seed = None if spec.seed is None else spec.seed + r
    d = _core.deal(rules, spec.players, seed)
    hands = [list(h) for h in d.hands]
    if rules.swap is not None:
        hands = _swapped(spec, r, hands, seed)
    subs = []
    surrendered = []
    for seat, hand in enumerate(hands):
        sol = solve(
            hand, rules, players=spec.players, strategy=spec.strategies[seat],
            samples=spec.samples, seed=r, banker=rules.mode == "banker" and seat == 0,
            tables=spec.tables,
        )
        subs.append(sol.submission())
        if sol.surrenders:
            surrendered.append(seat)
    settlement = _core.settle(subs, rules, surrendered=surrendered or None)
    totals = settlement.totals
    money = _core.money(totals, spec.stake, spec.rake)
    return settlement, sum(t * spec.stake for t in totals) - sum(money)


def play_shard(spec: Spec, shard: Tuple[int, int]) -> ShardCounts:
    """Plays rounds ``shard[0]`` to ``shard[1] - 1`` of the run ``spec`` and counts them
    (what a worker process or a Ray task runs).

    Args:
        spec: the run.
        shard: ``(start, stop)``, a range of round numbers.

    Returns:
        The shard's :class:`ShardCounts`.
    """
    counts = ShardCounts.empty(spec.players)
    for r in range(shard[0], shard[1]):
        settlement, rake = _play_round(spec, r)
        counts.count_round(settlement, rake)
    return counts


def quantile(histogram: Dict[int, int], q: float) -> int:
    """The ``q`` quantile of the results counted in ``histogram`` (value to rounds): the
    smallest value whose cumulative count reaches ``q`` of all rounds.

    Raises:
        ValueError: an empty histogram.
    """
    total = sum(histogram.values())
    if total == 0:
        raise ValueError("no rounds counted")
    need = q * total
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= need:
            return value
    return max(histogram)  # pragma: no cover - seen reaches total >= need


def _mean_and_half(total: int, squares: int, n: int) -> Tuple[float, float]:
    """The mean of ``n`` values and the half-width of its 95% interval (1.96 standard
    errors, the sample standard deviation), from their sum and sum of squares."""
    mean = total / n
    if n < 2:
        return mean, math.inf
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    return mean, 1.96 * math.sqrt(variance / n)


def _distribution(histogram: Dict[int, int], rounds: int) -> Dict[str, Any]:
    out: Dict[str, Any] = {key: quantile(histogram, q) for key, q in QUANTILES}
    out["won"] = sum(n for u, n in histogram.items() if u > 0) / rounds
    out["drawn"] = histogram.get(0, 0) / rounds
    out["lost"] = sum(n for u, n in histogram.items() if u < 0) / rounds
    out["histogram"] = [[u, histogram[u]] for u in sorted(histogram)]
    return out


def summarize(spec: Spec, counts: ShardCounts) -> Dict[str, Any]:
    """The summary of a run from its counts, as JSON data (snake_case keys).

    Returns:
        ``mean_units_per_round`` and ``ci95_units_per_round`` per seat (the half-width of a
        95% interval: 1.96 standard errors); ``per_round`` and ``counts`` of fouls, scoops
        and home runs; ``specials`` declared, by key; ``rake_per_round`` and
        ``ci95_rake_per_round`` in minor currency units at ``stake``; ``distribution`` per
        seat (quantiles ``p5``, ``p25``, ``median``, ``p75``, ``p95`` of its units per round,
        the shares of rounds ``won``, ``drawn`` and ``lost``, and the ``histogram`` as
        ``[units, rounds]`` pairs); and the run's settings.
    """
    n = counts.rounds
    per_seat = [_mean_and_half(t, q, n) for t, q in zip(counts.totals, counts.squares)]
    rake_mean, rake_half = _mean_and_half(counts.rake, counts.rake_squares, n)
    return {
        "rules": spec.rules.name,
        "players": spec.players,
        "rounds": n,
        "seed": spec.seed,
        "strategies": list(spec.strategies),
        "stake": spec.stake,
        "rake": None if spec.rake is None else {"percent": spec.rake[0], "cap": spec.rake[1]},
        "mean_units_per_round": [m for m, _ in per_seat],
        "ci95_units_per_round": [h for _, h in per_seat],
        "per_round": {k: counts.events[k] / n for k in EVENTS},
        "counts": {k: counts.events[k] for k in EVENTS},
        "specials": dict(sorted(counts.specials.items())),
        "rake_per_round": rake_mean,
        "ci95_rake_per_round": rake_half,
        "distribution": [_distribution(h, n) for h in counts.histogram],
    }


def simulate(
    rules: RuleSet,
    players: int,
    strategies: Optional[Sequence[str]],
    rounds: int,
    *,
    seed: Optional[int] = None,
    samples: int = AI_SAMPLES,
    stake: int = 1,
    rake: Optional[Rake] = None,
    advance: Callable[[], None] = lambda: None,
    workers: Optional[int] = None,
    backend: Optional[str] = None,
    address: Optional[str] = None,
    shard_rounds: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays ``rounds`` rounds, seat ``i`` arranged by ``strategies[i]``, round ``r`` dealt
    with seed ``seed + r`` (random without a seed), and summarises them (:func:`summarize`).

    The rounds are played in shards (see the module docs): here by this process and
    ``workers - 1`` worker processes (``backend="local"``, the default), or as Ray tasks on a cluster
    (``backend="ray"``, or any ``address``). The summary of a seed is the same on either
    backend, any number of workers and any shard size; only ``seconds`` differs. The worker
    processes run only ``thirteen``'s code: a script needs no ``__main__`` guard
    (:mod:`thirteen.processes`).

    Args:
        rules: the :class:`RuleSet`.
        players: table size (one the rules allow).
        strategies: one strategy per seat: ``ev``, ``mc`` or ``greedy``; ``None``: every
            seat the engine's own (:data:`thirteen.game.decisions.AI_STRATEGY`, ``mc``: about
            40 ms a seat at 4 players, 1,000 times ``ev``'s cost). Under swap-three
            (换三张) an ``ev`` or ``mc`` seat gives :func:`thirteen.gift`'s cards (about 20 ms
            each at 4 players), a ``greedy`` seat nothing; where the rules allow surrender
            an ``ev`` or ``mc`` seat surrenders when that loses less
            (:attr:`thirteen.Solution.surrenders`).
        rounds: rounds to play, 1 to :data:`MAX_ROUNDS`.
        seed: seed of round 0, 0 to 2**64 − ``rounds``; ``None``: random deals.
        samples: Monte Carlo samples of ``mc`` seats (default
            :data:`~thirteen.game.decisions.AI_SAMPLES`, 1,000).
        stake: minor currency units per unit, for the rake (RULES.md 5 "Money").
        rake: ``(percent, cap)`` taken from each round's winners (as :func:`thirteen.money`),
            or ``None``.
        advance: called once for each round, when its shard's counts are added.
        workers: here, the processes that play (default: every core): this one and
            ``workers - 1`` worker processes (1: this process alone); on Ray, most shards running at once (default: twice the cluster's CPUs), and the
            CPUs of a runtime started by ``"local"``.
        backend: ``"local"`` or ``"ray"`` (default: ``"ray"`` when ``address`` is given).
        address: the Ray cluster (:mod:`thirteen.cluster`): ``"local"``, ``"auto"``,
            ``"HOST:PORT"``, or ``None`` (Ray's default).
        shard_rounds: rounds per shard (default: sized from the measured rate, see the
            module docs; the summary does not depend on it).

    Returns:
        The summary of :func:`summarize`, with ``seconds`` (wall time) added.

    Raises:
        PlayerCountError: a table size the rules do not allow.
        ThirteenError: strategies of the wrong number or unknown.
        LimitError: ``rounds`` outside 1 to :data:`MAX_ROUNDS`, ``shard_rounds``,
            ``workers`` or ``samples`` below 1, seeds past 2**64 − 1, a stake or rake out
            of bounds.
        BackendError: an unknown backend, Ray not installed, no cluster at ``address``, or
            a worker process or the cluster lost mid-run.
        TypeError: ``rules`` not a :class:`RuleSet`.
    """
    spec = _spec(rules, players, strategies, rounds, seed, samples, stake, rake, workers, shard_rounds)
    backend = cluster.resolve_backend(backend, address)
    total = ShardCounts.empty(players)

    def take(part: ShardCounts) -> None:
        total.add(part)
        for _ in range(part.rounds):
            advance()

    start = time.perf_counter()
    if backend == "local":
        _run_here(spec, rounds, workers or os.cpu_count() or 1, shard_rounds, take)
    else:
        with cluster.session(address, workers=workers) as ray:
            done, rate = _probe(spec, rounds, shard_rounds, take)
            size = shard_rounds or shard_size(rate, rounds - done, ray.cpus(), RAY_SHARD_SECONDS)
            for part in ray.imap_unordered(play_shard, spec, shards(rounds, size, done)):
                take(part)
    summary = summarize(spec, total)
    summary["seconds"] = round(time.perf_counter() - start, 3)
    return summary


def _spec(
    rules: RuleSet,
    players: int,
    strategies: Optional[Sequence[str]],
    rounds: int,
    seed: Optional[int],
    samples: int,
    stake: int,
    rake: Optional[Rake],
    workers: Optional[int],
    shard_rounds: Optional[int],
) -> Spec:
    """The run's :class:`Spec`, every argument checked (as :func:`simulate` documents),
    with the lane tables resolved here."""
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a thirteen.RuleSet, not {type(rules).__name__}")
    _core.deal(rules, players, 0)  # PlayerCountError before any work
    strategies = (AI_STRATEGY,) * players if strategies is None else tuple(strategies)
    if len(strategies) != players:
        raise ThirteenError(f"{len(strategies)} strategies for {players} players (one per seat)")
    for name in strategies:
        if name not in ("ev", "mc", "greedy"):
            raise ThirteenError(f"unknown strategy {name!r} (expected ev, greedy or mc)")
    counts = (("rounds", rounds, MAX_ROUNDS), ("shard_rounds", shard_rounds, None),
              ("samples", samples, None), ("workers", workers, None))
    for key, value, most in counts:
        if value is None and key in ("shard_rounds", "workers"):
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{key} must be an int, not {type(value).__name__}")
        if value < 1:
            raise LimitError(f"{key} must be at least 1, got {value}", key=key, value=str(value),
                             minimum=1, maximum=most)
        if most is not None and value > most:
            raise LimitError(f"{key} must be at most 10**12 (MAX_ROUNDS), got {value}", key=key,
                             value=str(value), minimum=1, maximum=most)
    if seed is not None and seed + rounds > 2**64:
        raise LimitError(f"seeds {seed} + {rounds - 1} run past 2**64 - 1", key="seed",
                         value=str(seed), minimum=0, maximum=2**64 - rounds)
    _core.money([0] * players, stake, rake)  # LimitError, TypeError for a bad stake or rake
    return Spec(rules, players, strategies, samples, seed, stake, rake, lane_tables(rules, players))


def _probe(
    spec: Spec, rounds: int, shard_rounds: Optional[int], take: Callable[[ShardCounts], None]
) -> Tuple[int, float]:
    """Plays the run's first rounds here for :data:`PROBE_SECONDS` (shards of 1, 2, 4, ...
    rounds, or of ``shard_rounds``), counting each with ``take``: the rounds played and their
    rate, rounds per second."""
    done, size = 0, shard_rounds or 1
    start = time.perf_counter()
    while done < rounds:
        stop = min(done + size, rounds)
        take(play_shard(spec, (done, stop)))
        done = stop
        if time.perf_counter() - start >= PROBE_SECONDS:
            break
        if shard_rounds is None:
            size *= 2
    return done, done / max(time.perf_counter() - start, 1e-9)


def _run_here(
    spec: Spec, rounds: int, workers: int, shard_rounds: Optional[int], take: Callable[[ShardCounts], None]
) -> None:
    """The local backend: the first rounds here (:func:`_probe`); the rest here too when it
    is short or ``workers`` is 1, else here and on ``workers - 1`` worker processes (this
    process plays while they start, and whenever none has a result ready)."""
    done, rate = _probe(spec, rounds, shard_rounds, take)
    left = rounds - done
    if shard_rounds is not None:
        plan = shards(rounds, shard_rounds, done)
    else:
        plan = tapered(rounds, shard_size(rate, left, workers, LOCAL_SHARD_SECONDS), done, workers)
    if workers > 1 and left / rate > POOL_SECONDS:
        with Pool(play_shard, spec, workers - 1) as pool:
            for part in pool.imap_unordered(plan, here=functools.partial(play_shard, spec)):
                take(part)
    else:
        for shard in plan:
            take(play_shard(spec, shard))
