"""``thirteen simulate``: many rounds played by the engine's strategies, and a summary."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, List, Optional, Sequence

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

import thirteen
from thirteen.commands import options
from thirteen.commands.render import Screen, category_name, print_json, signed
from thirteen.errors import ThirteenError
from thirteen.rules import RuleSet

__all__ = ["register", "run", "simulate"]

#: The per-round counts of the summary, in the order shown.
EVENTS = ("fouls", "scoops", "home_runs")


def simulate(
    rules: RuleSet,
    players: int,
    strategies: Sequence[str],
    rounds: int,
    *,
    seed: Optional[int] = None,
    samples: int = 200,
    advance: Callable[[], None] = lambda: None,
    workers: Optional[int] = None,
) -> Dict[str, Any]:
    """Plays ``rounds`` rounds, seat ``i`` arranged by ``strategies[i]``, round ``r`` dealt
    with seed ``seed + r`` (random without a seed); calls ``advance()`` after each round.
    Rounds run on ``workers`` threads (default: every core; the engine releases the GIL
    while it arranges), and the summary does not depend on their number.

    Returns the summary as JSON data (snake_case keys): mean units per round per seat with
    the half-width of its 95% confidence interval (1.96 standard errors), fouls, scoops and
    home runs per round, specials declared per round, seconds taken.
    """
    if seed is not None and seed + rounds > 2**64:
        raise ThirteenError(f"seeds {seed} + {rounds - 1} run past 2**64 - 1")
    totals = [0] * players
    squares = [0] * players
    events: Counter[str] = Counter()
    specials: Counter[str] = Counter()
    start = time.perf_counter()

    def play(r: int) -> Dict[str, Any]:
        d = thirteen.deal(rules, players, None if seed is None else seed + r)
        subs = []
        for seat, hand in enumerate(d.hands):
            sol = thirteen.solve(
                list(hand), rules, players=players, strategy=strategies[seat], samples=samples,
                seed=r, banker=rules.mode == "banker" and seat == 0,
            )
            subs.append(sol.submission())
        return thirteen.settle(subs, rules).to_dict()

    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        for res in pool.map(play, range(rounds)):
            for i, t in enumerate(res["totals"]):
                totals[i] += t
                squares[i] += t * t
            events["fouls"] += len(res["fouled"])
            events["scoops"] += len(res["scoops"])
            events["home_runs"] += len(res["home_runs"])
            for sp in res["specials"]:
                if sp is not None:
                    specials[sp["key"]] += 1
            advance()
    means = [t / rounds for t in totals]
    half = [
        1.96 * math.sqrt(max(0.0, (q - rounds * m * m) / (rounds - 1)) / rounds) if rounds > 1 else math.inf
        for q, m in zip(squares, means)
    ]
    return {
        "rules": rules.name,
        "players": players,
        "rounds": rounds,
        "seed": seed,
        "strategies": list(strategies),
        "mean_units_per_round": means,
        "ci95_units_per_round": half,
        "per_round": {k: events[k] / rounds for k in EVENTS},
        "counts": {k: events[k] for k in EVENTS},
        "specials": dict(sorted(specials.items())),
        "seconds": round(time.perf_counter() - start, 3),
    }


class RateColumn(ProgressColumn):
    """Rounds per second so far."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} rounds/s", style="cyan")


def show_summary(screen: Screen, s: Dict[str, Any]) -> None:
    """The summary table of :func:`simulate`'s result."""
    n = s["rounds"]
    title = f"{n} rounds of {s['rules']} at {s['players']} players in {s['seconds']:.1f} s"
    table = screen.table("seat", "strategy", "mean units per round", "95% interval", title=title,
                         numeric=("mean units per round", "95% interval"))
    for seat, (strategy, mean, half) in enumerate(
        zip(s["strategies"], s["mean_units_per_round"], s["ci95_units_per_round"])
    ):
        table.add_row(f"seat {seat}", strategy, signed(mean, 3), f"± {half:.3f}")
    screen.show(table)
    events = screen.table("event", "per round", "in all", numeric=("per round", "in all"))
    for key in EVENTS:
        events.add_row(category_name(key), f"{s['per_round'][key]:.3f}", str(s["counts"][key]))
    for key, count in s["specials"].items():
        events.add_row(f"special: {category_name(key)}", f"{count / n:.3f}", str(count))
    screen.show(events)


def _strategies(text: str, players: int) -> List[str]:
    strategies = text.split(",")
    if len(strategies) == 1:
        strategies *= players
    if len(strategies) != players:
        raise ThirteenError(f"--strategies names {len(strategies)} strategies for {players} players")
    for s in strategies:
        if s not in options.STRATEGIES:
            raise ThirteenError(f"unknown strategy {s!r} (expected ev, greedy or mc)")
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
            advance=lambda: progress.advance(task),
        )
    if args.json:
        print_json(summary)
    else:
        show_summary(Screen.on(sys.stdout, color=not args.no_color), summary)
    return 0


def register(sub: Any) -> None:
    """Adds the ``simulate`` subcommand to the subparsers ``sub``."""
    p = sub.add_parser(
        "simulate",
        help="many rounds with chosen strategies",
        description="Play many rounds with AI players and summarise the results.",
    )
    p.add_argument("-n", type=options.positive, default=100, help="rounds (default 100)")
    options.add_common(p)
    p.add_argument("--strategies", default="ev",
                   help="one strategy, or one per seat: e.g. ev,greedy,greedy,greedy")
    p.add_argument("--samples", type=options.positive, default=200, help="Monte Carlo samples for mc seats")
    p.add_argument("--seed", type=options.seed, default=None,
                   help="seed of the first round (then seed + 1, ...)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
