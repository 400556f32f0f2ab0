"""pytest-benchmark: settling tables, the core against the reference on the same tables.

Groups: ``settle-4p`` (one 4-player kaixin table, cards already parsed), ``settle-batch``
(the core's ``settle_batch`` on 100,000 tables; ``extra_info["tables"]`` is the divisor).
Nothing here asserts on time.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import thirteen
import thirteen.reference
from thirteen.rules import RuleSet

RULES = RuleSet.preset("kaixin")
TABLE = [
    "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d",
    "Kh 7d 3c | Th Td 6c 6s 2c | Tc Ts 8h 8c 4d",
    "Ks 8d 4h | 9h 9s 7c 7s 3d | As Ac 6h 6d 3h",
    "Kd Qc Js | 5c 5d 4s 4c 8s | 2s 2h 2d 7h 3s",
]


@pytest.mark.parametrize("name", ["core", "reference"])
def test_settle_four_players(benchmark: Any, name: str) -> None:
    impl = thirteen if name == "core" else thirteen.reference
    subs = [impl.Arrangement.parse(t) for t in TABLE]
    benchmark.group = "settle-4p"
    benchmark.extra_info["tables"] = 1
    result = benchmark(impl.settle, subs, RULES)
    assert list(result.totals) == [48, -18, -16, -14]  # RULES.md 6 kaixin, hand-computed (SE3)


def test_settle_batch(benchmark: Any) -> None:
    tables = 100_000
    rng = np.random.default_rng(5)
    codes = np.argsort(rng.random((tables, 52)), axis=1).astype(np.uint8).reshape(tables, 4, 13)
    rules = RuleSet.preset("kaixin").replace(foul="lose_all")
    benchmark.group = "settle-batch"
    benchmark.name = f"core settle_batch ({tables:,} random 4-player tables)"
    benchmark.extra_info["tables"] = tables
    out = benchmark.pedantic(thirteen.settle_batch, args=(codes, rules), rounds=5, iterations=1)
    assert out.shape == (tables, 4) and int(out.sum()) == 0
