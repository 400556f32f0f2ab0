"""The training convergence of the shipped lane tables, from the logs they carry: per preset
and table-size group, the iterations run, and the last iteration's ``change`` (how far it
moved the averaged tables) and ``gap`` (how far its best response was from the tables it
answered), both Kolmogorov–Smirnov distances (see ``thirteen.train``).

Usage::

    python benches/convergence.py
"""

from __future__ import annotations

import sys

from thirteen.table_store import shipped


def main() -> int:
    print("| tables | players | iterations | hands an iteration | last change | last gap | settings |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for name, ts in sorted(shipped().items()):
        s = ts.settings
        for group in ts.sizes:
            last = group.log[-1]
            print(f"| `{name}` | {', '.join(map(str, group.players))} | {len(group.log)} | {last[1]:,} | "
                  f"{last[2]:.4f} | {last[3]:.4f} | {s.get('deals')} deals, tolerance {s.get('tolerance')}, "
                  f"seed {s.get('seed')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
