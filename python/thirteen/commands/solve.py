"""``thirteen solve``: the best arrangement of a hand, the runners-up and a held special."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Dict, List, Optional

from rich.text import Text

import thirteen
from thirteen.commands import options
from thirteen.commands.render import LANES, Screen, category_name, print_json, signed
from thirteen.rules import RuleSet
from thirteen.solver import Solution

__all__ = ["register", "run", "runners_up_note"]


def solution_dict(sol: Solution) -> Dict[str, Any]:
    """A play as JSON data: the arrangement's text (front | middle | back) or the special
    declared, and its expected units (``None`` for ``greedy``, which does not estimate)."""
    return {
        "arrangement": None if sol.arrangement is None else str(sol.arrangement),
        "special": None if sol.special is None else sol.special.key,
        "expected": None if math.isnan(sol.expected) else round(sol.expected, 4),
    }


def runners_up_note(strategy: str, top: int, found: int) -> Optional[str]:
    """Why fewer than ``top − 1`` runners-up are shown, or ``None`` when all are."""
    if top <= 1 or found >= top - 1:
        return None
    if strategy == "greedy":
        return "greedy plays one fixed rule and ranks nothing: use --strategy ev or mc for runners-up"
    if found == 0:
        return "no other play differs from the best in any lane's value"
    return f"only {found} other plays differ from the best in some lane's value"


def _row(screen: Screen, rules: RuleSet, rank: str, sol: Solution) -> List[Any]:
    units: Any = "–" if math.isnan(sol.expected) else signed(sol.expected, 2)
    return [rank, *screen.play_cells(sol.arrangement, sol.special, rules), units]


def run(args: argparse.Namespace) -> int:
    """The ``solve`` subcommand."""
    rules = options.rules_from(args)
    cards = thirteen.parse_cards(" ".join(args.cards))
    sol = thirteen.solve(
        cards, rules, players=args.players, strategy=args.strategy,
        samples=args.samples, seed=args.seed, top=args.top,
    )
    special = thirteen.find_special(list(sol.kept), rules)
    note = runners_up_note(args.strategy, args.top, len(sol.alternatives))
    if args.json:
        print_json({
            "rules": rules.name,
            "players": args.players,
            "strategy": args.strategy,
            "kept": [str(c) for c in sol.kept],
            "best": solution_dict(sol),
            "runners_up": [solution_dict(a) for a in sol.alternatives],
            "runners_up_note": note,
            "special_held": None if special is None else {"key": special.key, "units": special.units},
        })
        return 0
    screen = Screen.on(sys.stdout, color=not args.no_color)
    if len(cards) != len(sol.kept):
        screen.print(Text("Kept 13: ") + screen.hand(sol.kept))
    title = f"Best play under {rules.name} at {args.players} players ({args.strategy})"
    table = screen.table("#", *LANES, "units", title=title, numeric=("#", "units"))
    table.add_row(*_row(screen, rules, "1", sol))
    for rank, alt in enumerate(sol.alternatives, 2):
        table.add_row(*_row(screen, rules, str(rank), alt))
    screen.show(table)
    if note is not None:
        screen.print(f"No runners-up: {note}." if not sol.alternatives else f"Runners-up: {note}.")
    if special is not None:
        verdict = "declared" if sol.declares else "playing the split scores better"
        screen.print(f"Special held (报到): {category_name(special.key)}, {special.units} units ({verdict})")
    else:
        screen.print("No special hand held under these rules.")
    return 0


def register(sub: Any) -> None:
    """Adds the ``solve`` subcommand to the subparsers ``sub``."""
    p = sub.add_parser(
        "solve",
        help="the best arrangement of a hand",
        description="Best arrangement of 13 cards (16 with kaixin-extra), runners-up and a held special.",
    )
    p.add_argument("cards", nargs="+", help='the cards, e.g. "As Kd Tc ..."')
    options.add_common(p)
    p.add_argument("--strategy", default="ev", choices=options.STRATEGIES,
                   help="ev (default), mc or greedy")
    p.add_argument("--top", type=options.positive, default=4,
                   help="plays to rank: the best and top-1 runners-up (default 4)")
    p.add_argument("--samples", type=options.positive, default=1000, help="Monte Carlo samples for mc")
    p.add_argument("--seed", type=options.seed, default=0, help="seed of mc's sampling")
    p.set_defaults(func=run)
