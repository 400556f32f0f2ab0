"""The training convergence of the shipped lane tables, from the logs they carry: per preset
and table-size group, the iterations run, and the last iteration's ``change`` (how far it
moved the averaged tables) and ``gap`` (how far its best response was from the tables it
answered), both Kolmogorov–Smirnov distances (see ``thirteen.train``).

Usage::

    python benches/convergence.py [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from thirteen.table_store import shipped


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None,
                        help="also write every group's whole log here (iteration, hands, change, gap)")
    args = parser.parse_args(list(argv) or None)
    logs = []
    print("| tables | players | iterations | hands an iteration | last change | last gap | settings |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for name, ts in sorted(shipped().items()):
        s = ts.settings
        for group in ts.sizes:
            last = group.log[-1]
            print(f"| `{name}` | {', '.join(map(str, group.players))} | {len(group.log)} | {last[1]:,} | "
                  f"{last[2]:.4f} | {last[3]:.4f} | {s.get('deals')} deals, tolerance {s.get('tolerance')}, "
                  f"seed {s.get('seed')} |")
            logs.append({"tables": name, "players": list(group.players), "settings": s,
                         "log": [list(row) for row in group.log]})
    if args.json:
        args.json.write_text(json.dumps({"groups": logs}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
