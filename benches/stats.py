"""The interval every match benchmark reports: a mean with the half-width of its 95%
confidence interval (1.96 standard errors)."""

from __future__ import annotations

import math
from typing import Sequence, Tuple


def mean_ci(xs: Sequence[float]) -> Tuple[float, float]:
    """``(mean, half-width)`` of ``xs`` (at least one value; one value has an infinite
    half-width)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)
