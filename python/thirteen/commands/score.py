"""``thirteen score``: settle the submissions of a table from a JSON file (RULES.md 5)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict

from thirteen import score_file
from thirteen.commands import options
from thirteen.commands.render import Screen, print_json

__all__ = ["register", "run"]


def run(args: argparse.Namespace) -> int:
    """The ``score`` subcommand."""
    table = score_file.load(args.file)
    # The file's rules win; else --rules-file or the --rules preset.
    rules = options.rules_from(args) if table.rules is None else score_file.rules_of(table, args.rules)
    d: Dict[str, Any] = {"rules": rules.name}
    d.update(score_file.score(table, rules))
    if args.json:
        print_json(d)
        return 0
    screen = Screen.on(sys.stdout, color=not args.no_color)
    screen.heading(f"Settled under {d['rules']}")
    screen.show(screen.pair_table(d["pairs"]))
    screen.line()
    screen.events(d)
    screen.heading("Totals")
    screen.show(screen.totals_table(d["totals"], d.get("money")))
    return 0


def register(sub: Any) -> None:
    """Adds the ``score`` subcommand to the subparsers ``sub``."""
    p = sub.add_parser(
        "score",
        help="settle submitted arrangements from a JSON file",
        description='Settle a table: a JSON object {"rules": PRESET or {...}, "players": '
        '[{"front","middle","back"} or {"special","cards"}], "banker"?, "stakes"?, '
        '"surrendered"?, "stake"?, "rake"?: {"percent","cap"}}.',
    )
    p.add_argument("file", help="the JSON file")
    options.add_common(p, players=False)
    p.set_defaults(func=run)
