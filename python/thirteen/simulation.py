"""Simulation in shards: many rounds played by the engine's strategies, counted in integer
sums that add up, and the summary computed from the sums.

Rounds ``0 .. rounds - 1`` are cut into shards of :data:`SHARD_ROUNDS` (a fixed size, never
the number of workers); round ``r`` is dealt with seed ``seed + r``. A shard's
:class:`ShardCounts` are integer sums over its rounds (units and their squares per seat,
events, specials, rake, and a histogram of each seat's result), so the counts of a run are
the sum of its shards' counts, added in shard order, and the summary of a seed is the same
on one thread, many threads, or a Ray cluster of any size.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import thirteen
from thirteen import cluster
from thirteen.errors import LimitError, ThirteenError
from thirteen.rules import RuleSet

__all__ = [
    "EVENTS",
    "QUANTILES",
    "SHARD_ROUNDS",
    "ShardCounts",
    "Spec",
    "play_shard",
    "quantile",
    "shards",
    "simulate",
    "summarize",
]

#: Rounds per shard.
SHARD_ROUNDS = 1000

#: The per-round counts of the summary, in the order shown.
EVENTS = ("fouls", "scoops", "home_runs")

#: The quantiles of a seat's result in the summary: key and fraction.
QUANTILES = (("p5", 0.05), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p95", 0.95))

#: A rake as :func:`thirteen.money` takes it: ``(percent, cap)``.
Rake = Tuple[Union[int, str], Optional[int]]


@dataclass(frozen=True)
class Spec:
    """What every shard of a run shares (pickled once to each Ray worker; the rule set
    travels as its dict and is rebuilt there).

    Attributes:
        rules: the rule set.
        players: table size.
        strategies: one strategy per seat (``ev``, ``mc``, ``greedy``).
        samples: Monte Carlo samples of ``mc`` seats.
        seed: seed of round 0 (round ``r``: ``seed + r``); ``None``: random deals.
        stake: minor currency units per unit, for the rake.
        rake: ``(percent, cap)`` taken from each round's winners (RULES.md 5 "Money"), or ``None``.
    """

    rules: RuleSet
    players: int
    strategies: Tuple[str, ...]
    samples: int = 200
    seed: Optional[int] = None
    stake: int = 1
    rake: Optional[Rake] = None


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


def shards(rounds: int, size: int = SHARD_ROUNDS) -> List[Tuple[int, int]]:
    """The shards of ``rounds`` rounds: ``(start, stop)`` ranges of ``size`` rounds (the last
    may be shorter), in order."""
    return [(start, min(start + size, rounds)) for start in range(0, rounds, size)]


def _play_round(spec: Spec, r: int) -> Tuple[thirteen.Settlement, int]:
    """Round ``r`` of the run: its settlement, and the rake taken from it."""
    rules = spec.rules
    d = thirteen.deal(rules, spec.players, None if spec.seed is None else spec.seed + r)
    subs = []
    for seat, hand in enumerate(d.hands):
        sol = thirteen.solve(
            list(hand), rules, players=spec.players, strategy=spec.strategies[seat],
            samples=spec.samples, seed=r, banker=rules.mode == "banker" and seat == 0,
        )
        subs.append(sol.submission())
    settlement = thirteen.settle(subs, rules)
    totals = settlement.totals
    money = thirteen.money(totals, spec.stake, spec.rake)
    return settlement, sum(t * spec.stake for t in totals) - sum(money)


def play_shard(
    spec: Spec,
    shard: Tuple[int, int],
    *,
    workers: int = 1,
    advance: Optional[Callable[[], None]] = None,
) -> ShardCounts:
    """Plays rounds ``shard[0]`` to ``shard[1] - 1`` of the run ``spec`` and counts them.

    Args:
        spec: the run.
        shard: ``(start, stop)``, a range of round numbers.
        workers: threads playing the rounds (the engine releases the GIL while it arranges);
            the counts do not depend on it.
        advance: called after each round.

    Returns:
        The shard's :class:`ShardCounts`.
    """
    counts = ShardCounts.empty(spec.players)

    def one(r: int) -> Tuple[thirteen.Settlement, int]:
        out = _play_round(spec, r)
        if advance is not None:
            advance()
        return out

    rounds = range(shard[0], shard[1])
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            played = list(pool.map(one, rounds))
    else:
        played = [one(r) for r in rounds]
    for settlement, rake in played:
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
    strategies: Sequence[str],
    rounds: int,
    *,
    seed: Optional[int] = None,
    samples: int = 200,
    stake: int = 1,
    rake: Optional[Rake] = None,
    advance: Callable[[], None] = lambda: None,
    workers: Optional[int] = None,
    backend: Optional[str] = None,
    address: Optional[str] = None,
    shard_rounds: int = SHARD_ROUNDS,
) -> Dict[str, Any]:
    """Plays ``rounds`` rounds, seat ``i`` arranged by ``strategies[i]``, round ``r`` dealt
    with seed ``seed + r`` (random without a seed), and summarises them (:func:`summarize`).

    The rounds are played in shards of ``shard_rounds`` (see the module docs): here on
    ``workers`` threads (``backend="local"``, the default; the engine releases the GIL while
    it arranges), or as Ray tasks on a cluster (``backend="ray"``, or any ``address``). The
    summary of a seed is the same on either backend and any number of workers; only
    ``seconds`` differs.

    Args:
        rules: the :class:`RuleSet`.
        players: table size (one the rules allow).
        strategies: one strategy per seat: ``ev``, ``mc`` or ``greedy``.
        rounds: rounds to play, at least 1.
        seed: seed of round 0, 0 to 2**64 − ``rounds``; ``None``: random deals.
        samples: Monte Carlo samples of ``mc`` seats.
        stake: minor currency units per unit, for the rake (RULES.md 5 "Money").
        rake: ``(percent, cap)`` taken from each round's winners (as :func:`thirteen.money`),
            or ``None``.
        advance: called after each round (on Ray: for each of a shard's rounds when the
            shard's counts are added).
        workers: threads here (default: every core); on Ray, most shards running at once
            (default: twice the cluster's CPUs), and the CPUs of a runtime started by
            ``"local"``.
        backend: ``"local"`` or ``"ray"`` (default: ``"ray"`` when ``address`` is given).
        address: the Ray cluster (:mod:`thirteen.cluster`): ``"local"``, ``"auto"``,
            ``"HOST:PORT"``, or ``None`` (Ray's default).
        shard_rounds: rounds per shard (the summary does not depend on it).

    Returns:
        The summary of :func:`summarize`, with ``seconds`` (wall time) added.

    Raises:
        PlayerCountError: a table size the rules do not allow.
        ThirteenError: strategies of the wrong number or unknown.
        LimitError: ``rounds``, ``shard_rounds`` or ``samples`` below 1, seeds past
            2**64 − 1, a stake or rake out of bounds.
        BackendError: an unknown backend, Ray not installed, or no cluster at ``address``.
        TypeError: ``rules`` not a :class:`RuleSet`.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a thirteen.RuleSet, not {type(rules).__name__}")
    thirteen.deal(rules, players, 0)  # PlayerCountError before any work
    strategies = tuple(strategies)
    if len(strategies) != players:
        raise ThirteenError(f"{len(strategies)} strategies for {players} players (one per seat)")
    for name in strategies:
        if name not in ("ev", "mc", "greedy"):
            raise ThirteenError(f"unknown strategy {name!r} (expected ev, greedy or mc)")
    for key, value in (("rounds", rounds), ("shard_rounds", shard_rounds), ("samples", samples)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{key} must be an int, not {type(value).__name__}")
        if value < 1:
            raise LimitError(f"{key} must be at least 1, got {value}", key=key, value=str(value),
                             minimum=1, maximum=None)
    if seed is not None and seed + rounds > 2**64:
        raise LimitError(f"seeds {seed} + {rounds - 1} run past 2**64 - 1", key="seed",
                         value=str(seed), minimum=0, maximum=2**64 - rounds)
    thirteen.money([0] * players, stake, rake)  # LimitError, TypeError for a bad stake or rake
    backend = cluster.resolve_backend(backend, address)
    spec = Spec(rules, players, strategies, samples, seed, stake, rake)
    plan = shards(rounds, shard_rounds)
    total = ShardCounts.empty(players)
    start = time.perf_counter()
    if backend == "local":
        threads = workers or os.cpu_count() or 1
        for shard in plan:
            total.add(play_shard(spec, shard, workers=threads, advance=advance))
    else:
        with cluster.session(address, workers=workers) as ray:
            for part in ray.imap(play_shard, spec, plan):
                total.add(part)
                for _ in range(part.rounds):
                    advance()
    summary = summarize(spec, total)
    summary["seconds"] = round(time.perf_counter() - start, 3)
    return summary
