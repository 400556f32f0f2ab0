"""``thirteen demo``: hand values, fouls and lane comparison on a few fixed hands
(RULES.md 2 and 3)."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Dict, List

from rich.text import Text

import thirteen
from thirteen.commands import options
from thirteen.commands.render import LANES, Screen, foul_reason, print_json
from thirteen.rules import RuleSet

__all__ = ["demo_data", "register", "run"]

HANDS = (
    "As Kd 9c 7h 2s",
    "Qs Qd 9c 7h 2s",
    "Ks Kd 7c 7h 2s",
    "As 2d 3c 4h 5s",
    "Ts Jd Qc Kh As",
    "As Js 9s 7s 2s",
    "Ks Kd Kc 7h 7s",
    "9s Ts Js Qs Ks",
)

ARRANGEMENTS = (
    "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d",
    "Ah Ad Kc | As Ac Qd 3c 2d | Ks Kd Kh 4c 4d",
    "Qh Qd 3c | 9s Tc Jd Qs Kh | Ah Ad Ac 5c 5d",
)

#: Two lanes of equal rank: drawn without a suit tie-break, decided by suit with one.
COMPARED = ("5h 5c As 9d 7c", "5s 5d Ad 9h 7d")
COMPARED_UNDER = ("shisanzhang", "bianfeng")

_VERDICTS = {1: "first wins", -1: "second wins", 0: "drawn"}


def demo_data(rules: RuleSet) -> Dict[str, Any]:
    """Everything the demo shows, as JSON data."""
    hands = [
        {"cards": text, "value": str(thirteen.evaluate(text, rules))} for text in HANDS
    ]
    arrangements: List[Dict[str, Any]] = []
    for text in ARRANGEMENTS:
        a = thirteen.Arrangement.parse(text, rules)
        values = a.values(rules)
        entry: Dict[str, Any] = {lane: " ".join(map(str, cards)) for lane, cards in zip(LANES, a.lanes)}
        entry["values"] = [str(v) for v in values]
        entry["fouled"] = thirteen.is_foul(a, rules)
        entry["why"] = foul_reason(a, rules)
        arrangements.append(entry)
    comparisons = []
    for name in COMPARED_UNDER:
        r = RuleSet.preset(name)
        result = thirteen.compare_lanes(COMPARED[0], COMPARED[1], r)
        comparisons.append({
            "first": COMPARED[0], "second": COMPARED[1], "rules": name,
            "tie_break": r.tie_break, "result": _VERDICTS[result],
        })
    return {
        "rules": rules.name,
        "wheel": rules.wheel,
        "tie_break": rules.tie_break,
        "hand_values": hands,
        "arrangements": arrangements,
        "lane_comparisons": comparisons,
    }


def run(args: argparse.Namespace) -> int:
    """The ``demo`` subcommand."""
    rules = options.rules_from(args)
    data = demo_data(rules)
    if args.json:
        print_json(data)
        return 0
    screen = Screen.on(sys.stdout, color=not args.no_color)
    screen.heading(
        f"thirteen {thirteen.__version__}: rule set {rules.name!r} "
        f"(wheel {rules.wheel}, tie-break {rules.tie_break})"
    )
    screen.line()
    values = screen.table("cards", "value", title="Hand values (RULES.md 3)")
    for entry in data["hand_values"]:
        values.add_row(screen.cards(thirteen.parse_cards(entry["cards"])), entry["value"])
    screen.show(values)
    screen.line()
    lanes = screen.table("lane", "cards", "value", title="Arrangements (RULES.md 2)")
    for entry in data["arrangements"]:
        for lane, value in zip(LANES, entry["values"]):
            lanes.add_row(lane, screen.cards(thirteen.parse_cards(entry[lane])), value)
        verdict = f"fouled (相公): {entry['why']}" if entry["fouled"] else "not fouled"
        lanes.add_row("", "", Text(verdict, style="red" if entry["fouled"] else "green"))
        if entry is not data["arrangements"][-1]:
            lanes.add_section()
    screen.show(lanes)
    screen.line()
    compared = screen.table("first", "second", "rules", "tie-break", "result", title="Lane comparison")
    for entry in data["lane_comparisons"]:
        compared.add_row(
            screen.cards(thirteen.parse_cards(entry["first"])),
            screen.cards(thirteen.parse_cards(entry["second"])),
            entry["rules"], entry["tie_break"], entry["result"],
        )
    screen.show(compared)
    return 0


def register(sub: Any) -> None:
    """Adds the ``demo`` subcommand to the subparsers ``sub``."""
    p = sub.add_parser(
        "demo",
        help="hand values, fouls and lane comparison on fixed hands",
        description="Hand values, fouls and lane comparison on a few fixed hands.",
    )
    options.add_common(p, players=False)
    p.set_defaults(func=run)
