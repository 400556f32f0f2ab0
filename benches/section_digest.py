"""What the digests of ``benches/digest_rules.py`` and ``benches/digest_decisions.py`` share:
rows of plain data hashed section by section, the sections' hashes and their total, and
the comparison with a recorded digest that names the sections that differ.

A section is a name and a function giving its rows (anything ``json.dumps`` takes); a
digest is ``{"sha256": total, "sections": {name: hash}}``, the total a SHA-256 over the
sections' ``"name hash"`` lines in name order.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Tuple

Sections = Iterable[Tuple[str, Callable[[], Iterator[Any]]]]


def codes(cards: Any) -> List[int]:
    """Cards as their codes (0..51, or the extra suit's beyond)."""
    return [c.code for c in cards]


def section_hash(rows: Iterator[Any]) -> str:
    """The SHA-256 (hex) of ``rows``, each as compact JSON with sorted keys, one a line."""
    h = hashlib.sha256()
    for row in rows:
        h.update(json.dumps(row, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def digest_of(sections: Sections, verbose: bool) -> Dict[str, Any]:
    """Hashes every section in turn (with ``verbose``, each as it is done, with the CPU
    seconds so far, on stderr); returns the digest (module docs)."""
    out: Dict[str, str] = {}
    start = time.process_time()
    for key, rows in sections:
        out[key] = section_hash(rows())
        if verbose:
            print(f"{time.process_time() - start:8.1f} s CPU  {key}  {out[key][:16]}", file=sys.stderr)
    total = hashlib.sha256("".join(f"{k} {v}\n" for k, v in sorted(out.items())).encode())
    return {"sha256": total.hexdigest(), "sections": out}


def compare(want: Dict[str, Any], got: Dict[str, Any]) -> int:
    """Compares digest ``got`` with the recorded ``want``: names each section that differs
    (or is in one of them only) on stderr; returns the exit status, 0 if the totals match
    and 1 if not."""
    names = sorted(set(want["sections"]) | set(got["sections"]))
    for k in names:
        if want["sections"].get(k) != got["sections"].get(k):
            print(f"differs: {k}", file=sys.stderr)
    if got["sha256"] != want["sha256"]:
        print("DIFFERENT from the recorded digest", file=sys.stderr)
        return 1
    print("matches the recorded digest")
    return 0
