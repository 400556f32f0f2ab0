"""The ``thirteen`` command line.

Subcommands:
    demo    parse and evaluate a few hands, check arrangements for fouls (相公) under a
            preset rule set, and print the results.
"""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import thirteen
from thirteen.errors import ThirteenError
from thirteen.rules import PRESET_NAMES, RuleSet

_DEMO_HANDS = [
    "As Kd 9c 7h 2s",
    "Qs Qd 9c 7h 2s",
    "Ks Kd 7c 7h 2s",
    "As 2d 3c 4h 5s",
    "Ts Jd Qc Kh As",
    "As Js 9s 7s 2s",
    "Ks Kd Kc 7h 7s",
    "9s Ts Js Qs Ks",
]

_DEMO_ARRANGEMENTS = [
    "Ah Ad Kc | Jh Jd Jc 5s 5h | Qs Qh Qd 9c 9d",
    "Ah Ad Kc | As Ac Qd 3c 2d | Ks Kd Kh 4c 4d",
    "Qh Qd 3c | 9s Tc Jd Qs Kh | Ah Ad Ac 5c 5d",
]


def _demo(args: argparse.Namespace) -> int:
    rules = RuleSet.preset(args.rules)
    print(f"thirteen {thirteen.__version__}: rule set {rules.name!r} (wheel {rules.wheel}, "
          f"tie-break {rules.tie_break})")
    print()
    print("Hand values (RULES.md 3):")
    for text in _DEMO_HANDS:
        cards = thirteen.parse_cards(text)
        value = thirteen.evaluate(cards, rules)
        print(f"  {thirteen.format_cards(cards, glyphs=args.glyphs):<16} {value}")
    print()
    print("Arrangements, front | middle | back (RULES.md 2):")
    for text in _DEMO_ARRANGEMENTS:
        arrangement = thirteen.Arrangement.parse(text, rules)
        front, middle, back = arrangement.values(rules)
        verdict = "FOULED (相公)" if thirteen.is_foul(arrangement, rules) else "ok"
        print(f"  {arrangement}")
        print(f"      {front} / {middle} / {back}: {verdict}")
    print()
    print("Lane comparison:")
    a, b = "5h 5c As 9d 7c", "5s 5d Ad 9h 7d"
    for name in ("shisanzhang", "bianfeng"):
        r = RuleSet.preset(name)
        result = {1: "first wins", -1: "second wins", 0: "drawn"}[thirteen.compare_lanes(a, b, r)]
        print(f"  {a}  vs  {b}  under {name} (tie_break={r.tie_break}): {result}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``thirteen`` command."""
    parser = argparse.ArgumentParser(
        prog="thirteen",
        description="Engine for the card game Thirteen (十三水 / Chinese Poker).",
    )
    parser.add_argument("--version", action="version", version=thirteen.__version__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="evaluate a few hands and check arrangements for fouls")
    demo.add_argument("--rules", default="kaixin", choices=PRESET_NAMES,
                      help="preset rule set (default: kaixin)")
    demo.add_argument("--glyphs", action="store_true", help="print suits as ♠ ♥ ♣ ♦")
    demo.set_defaults(func=_demo)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``thirteen``; returns the process exit code (2 for bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except ThirteenError as exc:
        print(f"thirteen: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
