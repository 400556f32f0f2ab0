"""pytest-benchmark: the arrangement engine (enumeration, solving) on fixed random hands.

Groups: ``splits`` (the legal splits of one hand: the core's ``count_splits`` walks all
72,072 with values; the reference enumerates them in Python), ``solve`` (one hand with the
``ev`` and ``greedy`` strategies; ``mc`` with 1,000 samples; ``kaixin-extra`` 16 cards with
``ev``), ``solve-batch`` (``solve_batch`` on 2,000 hands on every core). Nothing here asserts
on time.
"""

from __future__ import annotations

import random
from typing import Any, List

import numpy as np
import pytest

import thirteen
import thirteen.reference
from thirteen.rules import RuleSet

KAIXIN = RuleSet.preset("kaixin")
EXTRA = RuleSet.preset("kaixin-extra")


def hands(n: int, rules: RuleSet, size: int, seed: int) -> List[List[str]]:
    rng = random.Random(seed)
    deck = [str(c) for c in thirteen.deck(rules)]
    out = []
    for _ in range(n):
        rng.shuffle(deck)
        out.append(deck[:size])
    return out


HAND = hands(1, KAIXIN, 13, 1)[0]


@pytest.mark.parametrize("name", ["core", "reference"])
def test_legal_splits(benchmark: Any, name: str) -> None:
    benchmark.group = "splits"
    if name == "core":
        count = benchmark(thirteen.count_splits, HAND, KAIXIN, legal=True)
    else:
        count_splits = getattr(thirteen.reference, "count_splits", None)
        if count_splits is None:
            pytest.skip("the reference has no enumeration")
        count = benchmark.pedantic(count_splits, args=(" ".join(HAND), KAIXIN), kwargs={"legal": True},
                                   rounds=2, iterations=1)
    assert 0 < count <= 72_072


@pytest.mark.parametrize("strategy", ["ev", "greedy"])
def test_solve(benchmark: Any, strategy: str) -> None:
    thirteen.lane_tables(KAIXIN)  # loaded once, outside the timing
    benchmark.group = "solve"
    sol = benchmark(thirteen.solve, HAND, KAIXIN, strategy=strategy)
    assert sol.arrangement is None or not thirteen.is_foul(sol.arrangement, KAIXIN)


def test_solve_mc(benchmark: Any) -> None:
    thirteen.lane_tables(KAIXIN)
    benchmark.group = "solve"
    benchmark.name = "solve mc (1,000 samples)"
    sol = benchmark.pedantic(thirteen.solve, args=(HAND, KAIXIN),
                             kwargs={"strategy": "mc", "samples": 1000}, rounds=3, iterations=1)
    assert sol.expected == sol.expected


def test_solve_sixteen_cards(benchmark: Any) -> None:
    thirteen.lane_tables(EXTRA)
    dealt = hands(1, EXTRA, 16, 2)[0]
    benchmark.group = "solve"
    benchmark.name = "solve ev kaixin-extra (16 cards)"
    sol = benchmark(thirteen.solve, dealt, EXTRA)
    assert len(sol.kept) == 13


def test_solve_batch(benchmark: Any) -> None:
    thirteen.lane_tables(KAIXIN)
    batch = np.array([[thirteen.Card(c).code for c in h] for h in hands(2000, KAIXIN, 13, 3)],
                     dtype=np.uint8)
    benchmark.group = "solve-batch"
    benchmark.extra_info["hands"] = len(batch)
    arranged, specials = benchmark.pedantic(thirteen.solve_batch, args=(batch, KAIXIN),
                                            rounds=3, iterations=1)
    assert arranged.shape == (2000, 13)
