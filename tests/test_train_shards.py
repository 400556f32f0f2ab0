"""The core's entry points for training in shards (``thirteen._core.iteration_counts`` and
``train(count=...)``, what ``thirteen.train(backend="ray")`` runs): counts of deal ranges add
up to the iteration's, a counting callback gives the local tables, and what a callback
returns is checked before it is used."""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, List, Optional, Tuple

import pytest

import thirteen
from thirteen import RuleSet, _core

RULES = RuleSet.preset("western-2-4")
Counts = Dict[str, List[Tuple[int, int]]]


def counts(tables: Optional[_core.LaneTables], iteration: int, greedy: bool, start: int, stop: int,
           players: int = 2, seed: int = 5) -> Counts:
    return _core.iteration_counts(RULES, tables, players=players, seed=seed, iteration=iteration,
                                  greedy=greedy, start=start, stop=stop)


def test_counts_of_ranges_add_up_to_the_iteration() -> None:
    whole = counts(None, 0, True, 0, 30)
    assert list(whole) == ["front", "middle", "back"]
    # 30 deals of 2 hands, each arranged (western-2-4 declares no special): 60 per lane.
    assert [sum(n for _, n in whole[lane]) for lane in whole] == [60, 60, 60]
    assert all(pairs == sorted(pairs) for pairs in whole.values())
    parts = [counts(None, 0, True, a, b) for a, b in ((0, 4), (4, 4), (4, 29), (29, 30))]
    for lane in whole:
        added: Counter[int] = Counter()
        for part in parts:
            added.update(dict(part[lane]))
        assert sorted(added.items()) == whole[lane]
    assert counts(None, 1, True, 0, 30) != whole  # another iteration deals other cards
    assert counts(None, 0, True, 5, 5) == {"front": [], "middle": [], "back": []}


def test_a_counting_callback_gives_the_local_tables() -> None:
    calls: List[Tuple[int, bool, bool]] = []

    def count(iteration: int, greedy: bool, tables: Optional[_core.LaneTables]) -> Counts:
        calls.append((iteration, greedy, tables is None))
        halves = [counts(tables, iteration, greedy, a, b) for a, b in ((0, 13), (13, 40))]
        return {lane: sorted((Counter(dict(halves[0][lane])) + Counter(dict(halves[1][lane]))).items())
                for lane in halves[0]}

    args: Dict[str, Any] = {"players": 2, "deals": 40, "iterations": 3, "tolerance": 0.0, "seed": 5}
    local = _core.train(RULES, **args)
    ranged = _core.train(RULES, count=count, **args)
    assert ranged.counts() == local.counts()
    # Iteration 0 plays greedily without tables; later ones answer the averaged tables.
    assert calls == [(0, True, True), (1, False, False), (2, False, False)]


@pytest.mark.parametrize(
    "returned, error, message",
    [
        ([], TypeError, "dict of the lanes' counts"),
        ({"front": [], "middle": []}, thirteen.ThirteenError, "front, middle and back"),
        ({"front": [], "middle": [], "rear": []}, thirteen.ThirteenError, "no back counts"),
        ({"front": [(1, 1)], "middle": [], "back": []}, thirteen.ThirteenError, "not the value of a 3-card hand"),
        ("unequal", thirteen.ThirteenError, "every lane counts the same hands"),
        ("too many", thirteen.ThirteenError, "at most 80"),
        ("negative", thirteen.LimitError, "count"),
    ],
)
def test_what_a_callback_returns_is_checked(returned: Any, error: type, message: str) -> None:
    real = counts(None, 0, True, 0, 40)
    if returned == "unequal":
        returned = {**real, "back": real["back"][1:]}
    elif returned == "too many":
        returned = {lane: [(v, n * 2) for v, n in pairs] for lane, pairs in real.items()}
    elif returned == "negative":
        returned = {lane: [(v, -n) for v, n in pairs] for lane, pairs in real.items()}
    with pytest.raises(error, match=message):
        _core.train(RULES, players=2, deals=40, iterations=2, tolerance=0.0, seed=5,
                    count=lambda it, greedy, tables: returned)


def test_a_callback_error_stops_the_run_and_comes_back() -> None:
    seen: List[int] = []

    def count(iteration: int, greedy: bool, tables: Optional[_core.LaneTables]) -> Counts:
        seen.append(iteration)
        if iteration == 1:
            raise RuntimeError("lost a worker")
        return counts(tables, iteration, greedy, 0, 10)

    with pytest.raises(RuntimeError, match="lost a worker"):
        _core.train(RULES, players=2, deals=10, iterations=4, tolerance=0.0, seed=5, count=count)
    assert seen == [0, 1]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"start": 5, "stop": 4}, thirteen.LimitError, "start"),
        ({"stop": 10**8 + 1}, thirteen.LimitError, "stop"),
        ({"start": -1}, thirteen.LimitError, "start"),
        ({"iteration": 10**4 + 1}, thirteen.LimitError, "iteration"),
        ({"players": 5}, thirteen.PlayerCountError, "5"),
        ({"greedy": False}, thirteen.ThirteenError, "ev needs the tables"),
        ({"stop": "9"}, TypeError, "integer"),
    ],
)
def test_iteration_counts_arguments_are_bounded(kwargs: Dict[str, Any], error: type, message: str) -> None:
    args: Dict[str, Any] = {"players": 2, "seed": 1, "iteration": 0, "greedy": True, "start": 0, "stop": 3}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        _core.iteration_counts(RULES, None, **args)
