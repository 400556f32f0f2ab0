"""``thirteen score``: settle the submissions of a table from a JSON file (RULES.md 5)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Union

import thirteen
from thirteen._core import Arrangement, Declaration
from thirteen.commands import options
from thirteen.commands.render import Screen, print_json
from thirteen.errors import ThirteenError
from thirteen.rules import PRESET_NAMES, RuleSet

__all__ = ["load_table", "register", "run", "settle_table"]


def load_table(path: str) -> Dict[str, Any]:
    """The JSON object in the file ``path``. Raises ThirteenError naming the file when it
    cannot be read, is not JSON, or has no ``players`` list."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise ThirteenError(f"cannot read {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ThirteenError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise ThirteenError(f"{path}: expected an object with a 'players' list")
    return data


def settle_table(data: Dict[str, Any], default_rules: RuleSet) -> Dict[str, Any]:
    """Settles a table file's data: ``Settlement.to_dict()`` plus ``"rules"`` (the rule
    set's name) and ``"money"`` when the file gives a ``stake`` or a ``rake``. The file's
    ``"rules"`` (a preset name or a rule-set object) wins over ``default_rules``."""
    spec = data.get("rules", default_rules)
    if isinstance(spec, RuleSet):
        rules = spec
    elif isinstance(spec, str):
        if spec not in PRESET_NAMES:
            raise ThirteenError(f"unknown preset {spec!r} (presets: {', '.join(PRESET_NAMES)})")
        rules = RuleSet.preset(spec)
    elif isinstance(spec, dict):
        rules = RuleSet.from_dict(spec)
    else:
        raise ThirteenError("'rules' must be a preset name or a rule-set object")
    subs: List[Union[Arrangement, Declaration]] = []
    for seat, p in enumerate(data["players"]):
        if not isinstance(p, dict):
            raise ThirteenError(f"player {seat}: expected an object")
        if "special" in p or ("cards" in p and "front" not in p):
            subs.append(Declaration(p["cards"], p.get("special")))
        else:
            try:
                subs.append(Arrangement(p["front"], p["middle"], p["back"], rules=rules))
            except KeyError as exc:
                raise ThirteenError(f"player {seat}: missing {exc.args[0]!r}") from None
    kwargs = {k: data[k] for k in ("banker", "stakes", "surrendered") if k in data}
    d: Dict[str, Any] = {"rules": rules.name}
    d.update(thirteen.settle(subs, rules, **kwargs).to_dict())
    if "stake" in data or "rake" in data:
        stake = data.get("stake", 1)
        if not isinstance(stake, int) or isinstance(stake, bool) or stake < 0:
            raise ThirteenError(
                f"'stake' must be a whole number of minor currency units >= 0, got {stake!r}"
            )
        rake = data.get("rake")
        if rake is not None and (not isinstance(rake, dict) or "percent" not in rake):
            raise ThirteenError("'rake' must be an object with 'percent' (and optionally 'cap')")
        d["money"] = thirteen.money(
            d["totals"], stake, None if rake is None else (rake["percent"], rake.get("cap"))
        )
    return d


def run(args: argparse.Namespace) -> int:
    """The ``score`` subcommand."""
    d = settle_table(load_table(args.file), options.rules_from(args))
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
