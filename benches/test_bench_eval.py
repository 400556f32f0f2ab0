"""pytest-benchmark: the Rust core against the pure-Python reference on the same inputs.

Groups: ``evaluate-single`` (one 5-card hand), ``evaluate-many`` (many random 5-card
hands: the core's ``evaluate_batch`` on a numpy array of 100,000 hands, and Python loops
of ``evaluate`` over the first 10,000 of the same hands for the core and the reference),
``is_foul-single`` and ``is_foul-many`` (1,000 random arrangements). ``extra_info["hands"]``
(or ``["arrangements"]``) is the number of items one round handles: divide the mean by it
for a per-hand cost that compares across sizes. Nothing here asserts on time.
"""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import thirteen
import thirteen.reference
from thirteen.rules import RuleSet

IMPLS = {"core": thirteen, "reference": thirteen.reference}
RULES = RuleSet.default()
HAND = "Ks Kd 7c 7h 2s"
ARRANGEMENT = "Ah Ad Kc | As Ac Kd 3c 2d | Ks Kh Qs Qh Qd"


@pytest.mark.parametrize("name", sorted(IMPLS))
def test_evaluate_single(benchmark: Any, name: str) -> None:
    impl = IMPLS[name]
    cards = impl.parse_cards(HAND)
    benchmark.group = "evaluate-single"
    benchmark.extra_info["hands"] = 1
    value = benchmark(impl.evaluate, cards, RULES)
    assert str(value) == "two pair, kings and sevens"


def test_evaluate_batch_core(benchmark: Any, codes: np.ndarray) -> None:
    benchmark.group = "evaluate-many"
    benchmark.name = f"core evaluate_batch ({len(codes):,} hands)"
    benchmark.extra_info["hands"] = len(codes)
    values = benchmark(thirteen.evaluate_batch, codes, RULES)
    assert values.shape == (len(codes),)


@pytest.mark.parametrize("name", sorted(IMPLS))
def test_evaluate_loop(benchmark: Any, name: str, card_lists: Dict[str, List[List[Any]]]) -> None:
    impl = IMPLS[name]
    hands = card_lists[name]
    evaluate = impl.evaluate
    benchmark.group = "evaluate-many"
    benchmark.name = f"{name} evaluate loop ({len(hands):,} hands)"
    benchmark.extra_info["hands"] = len(hands)

    def run() -> list:
        return [evaluate(h, RULES) for h in hands]

    values = benchmark.pedantic(run, rounds=3 if name == "reference" else 5, iterations=1)
    assert len(values) == len(hands)


def test_evaluate_batch_agrees(codes: np.ndarray, card_lists: Dict[str, List[List[Any]]]) -> None:
    """Not a timing: the hands the reference loops over are the batch's first rows."""
    values = thirteen.evaluate_batch(codes[:100], RULES)
    for packed, cards in zip(values, card_lists["reference"][:100]):
        assert str(thirteen.HandValue.from_raw(int(packed))) == str(thirteen.reference.evaluate(cards, RULES))


@pytest.mark.parametrize("name", sorted(IMPLS))
def test_is_foul_single(benchmark: Any, name: str) -> None:
    impl = IMPLS[name]
    arrangement = impl.Arrangement.parse(ARRANGEMENT)
    benchmark.group = "is_foul-single"
    benchmark.extra_info["arrangements"] = 1
    assert benchmark(impl.is_foul, arrangement, RULES) is False


@pytest.mark.parametrize("name", sorted(IMPLS))
def test_is_foul_many(benchmark: Any, name: str, arrangement_texts: List[str]) -> None:
    impl = IMPLS[name]
    arrangements = [impl.Arrangement.parse(t) for t in arrangement_texts]
    is_foul = impl.is_foul
    benchmark.group = "is_foul-many"
    benchmark.name = f"{name} is_foul loop ({len(arrangements):,} arrangements)"
    benchmark.extra_info["arrangements"] = len(arrangements)
    fouls = benchmark(lambda: sum(is_foul(a, RULES) for a in arrangements))
    assert 0 <= fouls <= len(arrangements)
