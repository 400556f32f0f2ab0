"""The duplicate match of the decision benchmarks (``benches/gift.py``,
``benches/surrender.py``), and the record they end with.

One deal of decision A against decision B: every seat holds the same hand at every table
(the luck of the deal cancels out); each seat in turn decides by A among seats deciding by
B, and its units are set against its units at the table where every seat decides by B;
the reverse has each seat in turn decide by B among A seats (its loss, sign flipped).
"""

from __future__ import annotations

import json
import platform
import sys
import time
from typing import Any, Callable, Dict, Hashable, List, Optional, Sequence, Tuple, TypeVar

T = TypeVar("T", bound=Hashable)


def seat_swaps(
    a: Sequence[T], b: Sequence[T], units: Callable[[Tuple[T, ...]], Sequence[float]]
) -> Tuple[List[float], List[float]]:
    """One deal of the duplicate match (module docs). ``a``, ``b``: each seat's decision by
    A and by B; ``units(decisions)``: each seat's units at the table where seat ``s``
    decides ``decisions[s]`` (called once for each distinct ``decisions``: a seat whose A
    and B are the same costs no table). Returns, per seat, ``(A alone among B minus all B,
    all A minus B alone among A)``."""
    tables: Dict[Tuple[T, ...], Sequence[float]] = {}

    def at(decisions: Tuple[T, ...]) -> Sequence[float]:
        if decisions not in tables:
            tables[decisions] = units(decisions)
        return tables[decisions]

    seats = range(len(a))
    all_a = at(tuple(a))
    all_b = at(tuple(b))
    alone = [at(tuple(a[t] if t == s else b[t] for t in seats))[s] - all_b[s] for s in seats]
    among = [all_a[s] - at(tuple(b[t] if t == s else a[t] for t in seats))[s] for s in seats]
    return alone, among


def record(out: Dict[str, Any], start: float, path: Optional[str]) -> None:
    """Adds the machine and the CPU seconds since ``start`` (``time.process_time``) to a
    benchmark's results ``out`` and writes them to ``path`` as JSON (none: not written)."""
    out["machine"] = f"{platform.machine()} {platform.processor()} python {sys.version.split()[0]}"
    out["cpu_s"] = time.process_time() - start
    if path:
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
