"""Shared inputs of the benchmarks: the same random hands for the core and the reference.

Run with ``pytest benches --benchmark-only`` (``make bench``). These are measurements,
not tests: nothing asserts on time. Compare per-hand costs with ``extra_info["hands"]``
(mean time / hands).
"""

from __future__ import annotations

from typing import Any, Dict, List

import numpy as np
import pytest

import thirteen
import thirteen.reference

BATCH = 100_000  # hands in the core's evaluate_batch run
REFERENCE_BATCH = 10_000  # the reference's Python loop runs on the first 10,000 of them
ARRANGEMENTS = 1_000


@pytest.fixture(scope="session")
def codes() -> np.ndarray:
    """``BATCH`` random 5-card hands (rows of distinct card codes), seed 13."""
    rng = np.random.default_rng(13)
    return np.argsort(rng.random((BATCH, 52)), axis=1)[:, :5].astype(np.uint8)


@pytest.fixture(scope="session")
def card_lists(codes: np.ndarray) -> Dict[str, List[List[Any]]]:
    """The first ``REFERENCE_BATCH`` hands as Card lists of each implementation."""
    out = {}
    for name, impl in (("core", thirteen), ("reference", thirteen.reference)):
        deck = impl.deck()
        out[name] = [[deck[c] for c in row] for row in codes[:REFERENCE_BATCH].tolist()]
    return out


@pytest.fixture(scope="session")
def arrangement_texts() -> List[str]:
    """``ARRANGEMENTS`` random 13-card splits as "front | middle | back" text, seed 13."""
    rng = np.random.default_rng(13)
    deck = [str(c) for c in thirteen.reference.deck()]
    out = []
    for _ in range(ARRANGEMENTS):
        cards = [deck[i] for i in rng.permutation(52)[:13]]
        out.append(" | ".join(" ".join(lane) for lane in (cards[:3], cards[3:8], cards[8:])))
    return out
