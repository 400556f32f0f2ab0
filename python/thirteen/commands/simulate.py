"""``thirteen simulate``: many rounds played by the engine's strategies, and a summary."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, List

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from thirteen.commands import options
from thirteen.commands.render import Screen, category_name, print_json, signed
from thirteen.errors import ThirteenError
from thirteen.game.decisions import AI_SAMPLES, AI_STRATEGY
from thirteen.simulation import EVENTS, MAX_ROUNDS, QUANTILES, simulate

__all__ = ["register", "run", "simulate"]


class RateColumn(ProgressColumn):
    """Rounds per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} rounds/s", style="cyan")


def show_summary(screen: Screen, s: Dict[str, Any]) -> None:
    """The summary tables of :func:`simulate`'s result (everything but the time taken)."""
    n = s["rounds"]
    title = f"{n} rounds of {s['rules']} at {s['players']} players"
    table = screen.table("seat", "strategy", "mean units per round", "95% interval", title=title,
                         numeric=("mean units per round", "95% interval"))
    for seat, (strategy, mean, half) in enumerate(
        zip(s["strategies"], s["mean_units_per_round"], s["ci95_units_per_round"])
    ):
        table.add_row(f"seat {seat}", strategy, signed(mean, 3), f"± {half:.3f}")
    screen.show(table)
    quantiles = [key for key, _ in QUANTILES]
    spread = screen.table("seat", *quantiles, "won", "drawn", "lost", title="units per round, spread",
                          numeric=(*quantiles, "won", "drawn", "lost"))
    for seat, d in enumerate(s["distribution"]):
        spread.add_row(f"seat {seat}", *(signed(d[k]) for k in quantiles),
                       *(f"{d[k]:.1%}" for k in ("won", "drawn", "lost")))
    screen.show(spread)
    events = screen.table("event", "per round", "in all", numeric=("per round", "in all"))
    for key in EVENTS:
        events.add_row(category_name(key), f"{s['per_round'][key]:.3f}", str(s["counts"][key]))
    for key, count in s["specials"].items():
        events.add_row(f"special: {category_name(key)}", f"{count / n:.3f}", str(count))
    screen.show(events)
    if s["rake"] is not None:
        cap = s["rake"]["cap"]
        screen.print(
            f"rake per round: {s['rake_per_round']:.2f} ± {s['ci95_rake_per_round']:.2f} minor units "
            f"(stake {s['stake']}, {s['rake']['percent']}% of winnings"
            + ("" if cap is None else f", at most {cap} a player") + ")"
        )


def _strategies(text: str, players: int) -> List[str]:
    """One strategy per seat from ``--strategies`` (one name serves every seat); the names
    are checked by :func:`simulate`."""
    strategies = text.split(",")
    if len(strategies) == 1:
        strategies *= players
    if len(strategies) != players:
        raise ThirteenError(f"--strategies names {len(strategies)} strategies for {players} players")
    return strategies


def run(args: argparse.Namespace) -> int:
    """The ``simulate`` subcommand."""
    rules = options.rules_from(args)
    strategies = _strategies(args.strategies, args.players)
    bar = Screen.on(sys.stderr, color=not args.no_color)
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=bar.console,
        transient=True,
        disable=args.quiet or not bar.console.is_terminal,
    )
    with progress:
        task = progress.add_task("rounds", total=args.n)
        summary = simulate(
            rules, args.players, strategies, args.n, seed=args.seed, samples=args.samples,
            stake=args.stake, rake=args.rake, advance=lambda: progress.advance(task),
            workers=args.workers, address=args.ray, shard_rounds=args.shard_rounds,
        )
    if args.json:
        print_json(summary)
    else:
        screen = Screen.on(sys.stdout, color=not args.no_color)
        show_summary(screen, summary)
        workers = args.workers or os.cpu_count() or 1
        where = (f"on the Ray cluster at {args.ray}" if args.ray
                 else "in one process" if workers == 1 else f"on up to {workers} processes")
        rate = summary["rounds"] / summary["seconds"] if summary["seconds"] else float("inf")
        screen.print(f"{summary['seconds']:.1f} s {where}, {rate:,.0f} rounds a second")
    return 0


def register(sub: Any) -> None:
    """Adds the ``simulate`` subcommand to the subparsers ``sub``."""
    p = sub.add_parser(
        "simulate",
        help="many rounds with chosen strategies",
        description="Play many rounds with AI players and summarise the results.",
    )
    p.add_argument("-n", type=options.positive, default=100, help=f"rounds (default 100, at most {MAX_ROUNDS:,})")
    options.add_common(p)
    p.add_argument("--strategies", default=AI_STRATEGY,
                   help=f"one strategy, or one per seat: e.g. ev,greedy,greedy,greedy (default "
                   f"{AI_STRATEGY}, the AI seats' strategy; ev is about 1,000 times faster)")
    p.add_argument("--samples", type=options.positive, default=AI_SAMPLES,
                   help=f"Monte Carlo samples for mc seats (default {AI_SAMPLES:,})")
    p.add_argument("--seed", type=options.seed, default=None,
                   help="seed of the first round (then seed + 1, ...)")
    p.add_argument("--stake", type=options.count, default=1,
                   help="minor currency units per unit, for the rake (default 1)")
    p.add_argument("--rake", type=options.rake, default=None, metavar="PERCENT[,CAP]",
                   help="rake on each round's winnings, e.g. 5,200 (default none)")
    p.add_argument("--workers", type=options.positive, default=None,
                   help="processes that play (default: every core): this one and N - 1 worker processes; "
                   "with --ray, most tasks at once")
    p.add_argument("--shard-rounds", type=options.positive, default=None,
                   help="rounds per shard (default: sized from the measured rate, about 0.25 s a shard "
                   "here and 5 s on Ray; the summary does not depend on it)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="run on a Ray cluster: local (start one here), auto (the one running "
                   "here), or HOST:PORT; needs pip install 'thirteen[ray]'")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
