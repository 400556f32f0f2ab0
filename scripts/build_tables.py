"""Builds the lane tables of the ``ev`` strategy for the presets and writes them into the
package (``python/thirteen/tables/<preset>.json.gz``).

The tables are self-play counts of lane values (see ``thirteen.build_tables``): round 0
arranges every hand greedily, each later round with ``ev`` on the previous round's tables.

Usage::

    python scripts/build_tables.py [--deals 20000] [--iterations 3] [--seed 1] [PRESET ...]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import thirteen
from thirteen.rules import PRESET_NAMES, RuleSet
from thirteen.solver import TABLES_FORMAT

OUT = Path(__file__).resolve().parents[1] / "python" / "thirteen" / "tables"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=PRESET_NAMES)
    parser.add_argument("--deals", type=int, default=20000, help="tables per round")
    parser.add_argument("--iterations", type=int, default=3, help="self-play rounds")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.presets:
        rules = RuleSet.preset(name)
        start = time.perf_counter()
        tables = thirteen.build_tables(
            rules,
            players=args.players,
            deals=args.deals,
            iterations=args.iterations,
            seed=args.seed,
        )
        data = {
            "format": TABLES_FORMAT,
            "preset": name,
            "rules": rules.to_dict(),
            "players": args.players,
            "deals": args.deals,
            "iterations": args.iterations,
            "seed": args.seed,
            "counts": {lane: [list(p) for p in pairs] for lane, pairs in tables.counts().items()},
        }
        text = json.dumps(data, separators=(",", ":"), sort_keys=True)
        (OUT / f"{name}.json.gz").write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        took = time.perf_counter() - start
        print(f"{name}: {tables.samples} hands counted per lane in {took:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
