"""Options shared by the subcommands: the rule set, the table size, ``--json``,
``--no-color``, and the checked number types of seeds and counts."""

from __future__ import annotations

import argparse
from typing import Optional, Tuple

from thirteen.rules import PRESET_NAMES, RuleSet

__all__ = ["STRATEGIES", "add_common", "count", "positive", "rake", "rules_from", "seed"]

#: The arrangement strategies of :func:`thirteen.solve`.
STRATEGIES = ("ev", "mc", "greedy")


def seed(text: str) -> int:
    """A shuffle seed: an integer from 0 to 2**64 − 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"seeds are 0 to 2**64 - 1, got {value}")
    return value


def positive(text: str) -> int:
    """A count of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def count(text: str) -> int:
    """A count of at least 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {value}")
    return value


def rake(text: str) -> Tuple[str, Optional[int]]:
    """A rake, ``PERCENT`` or ``PERCENT,CAP`` (``5`` or ``2.5,200``): the percentage as
    text (:func:`thirteen.money` checks it) and the cap, a count or ``None``."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (1, 2) or not parts[0]:
        raise argparse.ArgumentTypeError(f"a rake is PERCENT or PERCENT,CAP, got {text!r}")
    return parts[0], count(parts[1]) if len(parts) == 2 else None


def add_common(parser: argparse.ArgumentParser, *, players: bool = True) -> None:
    """Adds ``--rules``, ``--rules-file``, ``--players`` (when ``players``), ``--json`` and
    ``--no-color``."""
    parser.add_argument(
        "--rules",
        default="kaixin",
        choices=PRESET_NAMES,
        metavar="PRESET",
        help=f"preset rule set (default kaixin; one of {', '.join(PRESET_NAMES)})",
    )
    parser.add_argument(
        "--rules-file", metavar="FILE", help="a rule-set file (TOML or JSON) instead of a preset"
    )
    if players:
        parser.add_argument(
            "--players", type=int, default=4, choices=(2, 3, 4), help="table size (default 4)"
        )
    parser.add_argument(
        "--json", action="store_true", help="print JSON (and nothing else) on standard output"
    )
    parser.add_argument("--no-color", action="store_true", help="never colour the output")


def rules_from(args: argparse.Namespace) -> RuleSet:
    """The rule set the options name: ``--rules-file`` (``.json`` or TOML) or the
    ``--rules`` preset."""
    path = getattr(args, "rules_file", None)
    if path:
        return RuleSet.load(path, None if str(path).lower().endswith(".json") else "toml")
    return RuleSet.preset(args.rules)
