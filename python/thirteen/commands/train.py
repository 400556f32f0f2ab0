"""The ``thirteen train`` command: builds the ``ev`` strategy's lane tables for a preset or a
rule file (:func:`thirteen.train`), with a progress bar and a convergence log, or checks that a
table file is what it builds (``--check``, :mod:`thirteen.table_check`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

from thirteen.errors import ThirteenError
from thirteen.rules import PRESET_NAMES, RuleSet
from thirteen.table_store import TableSet
from thirteen.table_check import check_sizes, difference
from thirteen.training import DEFAULTS, check_out, train


def register(sub: Any) -> None:
    """Registers ``train`` on the ``thirteen`` command's subparsers."""
    p = sub.add_parser(
        "train",
        help="train the ev strategy's lane tables for a rule set",
        description="Train lane tables by fictitious play (self-play, best responses averaged) for a "
        "preset or a rule file, every table size, and write them to a file; "
        "thirteen.register_tables(thirteen.TableSet.load(FILE)) makes solve use them.",
    )
    p.add_argument("--rules", default="kaixin", choices=PRESET_NAMES + ("default",), metavar="PRESET",
                   help="preset rule set, or 'default' for RuleSet.default() (default kaixin)")
    p.add_argument("--rules-file", metavar="FILE", help="a rule-set file (TOML or JSON) instead of a preset")
    p.add_argument("--players", default=None, help="table sizes, e.g. 2,4 (default: all the rules allow)")
    p.add_argument("--deals", type=int, default=DEFAULTS["deals"], help=f"tables per iteration (default {DEFAULTS['deals']})")
    p.add_argument("--iterations", type=int, default=DEFAULTS["iterations"],
                   help=f"most iterations per table size (default {DEFAULTS['iterations']})")
    p.add_argument("--tolerance", type=float, default=DEFAULTS["tolerance"],
                   help=f"stop once an iteration changes the tables less than this (default {DEFAULTS['tolerance']})")
    p.add_argument("--seed", type=int, default=DEFAULTS["seed"], help=f"seed of the deals (default {DEFAULTS['seed']})")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", metavar="FILE", help="where to write the tables (.json.gz)")
    target.add_argument("--check", metavar="FILE",
                        help="write nothing: exit 1 unless FILE holds exactly the tables this trains "
                        "(with --players, only those sizes, each trained with the sizes sharing its table)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="count each iteration's deals on a Ray cluster: local (start one here), auto "
                   "(the one running here), or HOST:PORT; the tables are the same bytes; "
                   "needs pip install 'thirteen[ray]'")
    p.add_argument("--workers", type=int, default=None, help="with --ray, most tasks at once")
    p.add_argument("--json", action="store_true", help="print the convergence log as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _rules(args: argparse.Namespace) -> RuleSet:
    if args.rules_file:
        path = args.rules_file
        return RuleSet.load(path, None if path.lower().endswith(".json") else "toml")
    return RuleSet.default() if args.rules == "default" else RuleSet.preset(args.rules)


def run(args: argparse.Namespace) -> int:
    """Runs ``thirteen train``."""
    rules = _rules(args)
    players = None
    blob = b""  # the file to --check
    if args.players:
        try:
            players = [int(x) for x in args.players.split(",")]
        except ValueError:
            raise ValueError(f"--players must be sizes separated by commas, got {args.players!r}") from None
    if args.check:
        players = check_sizes(rules, players)
        blob = Path(args.check).read_bytes()  # read and parsed before training: a bad file fails at once
        try:
            TableSet.from_bytes(blob)
        except ValueError as e:
            raise ThirteenError(f"--check: {args.check}: {e}") from None
    else:
        check_out(args.out)  # before the progress bar: a refusal is the only line printed
    log: List[Dict[str, Any]] = []
    start = time.perf_counter()
    show = not args.quiet and not args.json
    progress_bar = None
    tasks: Dict[Tuple[int, ...], Any] = {}
    if show:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        progress_bar = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("change {task.fields[change]} gap {task.fields[gap]}"),
            TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
        )
        progress_bar.start()

    def progress(group: Tuple[int, ...], it: int, hands: int, change: float, gap: float) -> None:
        row = {"players": list(group), "iteration": it, "hands": hands, "change": change, "gap": gap,
               "seconds": round(time.perf_counter() - start, 1)}
        log.append(row)
        if progress_bar is not None:
            if group not in tasks:
                tasks[group] = progress_bar.add_task(
                    f"{rules.name} {','.join(map(str, group))} players", total=args.iterations, change="–", gap="–")
            progress_bar.update(tasks[group], advance=1, change=f"{change:.4f}", gap=f"{gap:.4f}")
            progress_bar.console.print(
                f"{rules.name} players {','.join(map(str, group))} iteration {it:>2}: "
                f"{hands} hands, change {change:.4f}, gap {gap:.4f}")

    try:
        tables = train(rules, players=players, deals=args.deals, iterations=args.iterations,
                       tolerance=args.tolerance, seed=args.seed, progress=progress, out=args.out,
                       address=args.ray, workers=args.workers)
    finally:
        if progress_bar is not None:
            progress_bar.stop()
    took = time.perf_counter() - start
    differs = difference(blob, tables) if args.check else None
    if args.json:
        report = {"rules": rules.name, "out": args.out, "key": tables.digest, "seconds": round(took, 1), "log": log}
        if args.check:
            report.update(check=args.check, differs=differs)
        json.dump(report, sys.stdout, indent=2)
        print()
    elif differs is not None:
        print(f"thirteen: {args.check} is not what training makes: {differs} "
              "(make tables rebuilds the shipped files)", file=sys.stderr)
    elif args.check:
        print(f"{args.check}: the tables training makes ({rules.name}, players {' '.join(','.join(map(str, s.players)) for s in tables.sizes)}), {took:.0f} s")
    else:
        print(f"wrote {args.out}: {rules.name}, play key {tables.digest}, "
              f"{len(tables.sizes)} table size group(s), {took:.0f} s")
    return 0 if differs is None else 1
