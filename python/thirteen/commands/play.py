"""``thirteen play``: deal a round, arrange every seat (代打, or seat 0 by a person with
``--interactive``), settle it and show it."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple, Union

from rich.text import Text

import thirteen
from thirteen._core import Arrangement, Card, Deal, Declaration, Settlement
from thirteen.commands import options
from thirteen.commands.interactive import Person
from thirteen.commands.render import LANES, Screen, category_name, print_json, seat_name
from thirteen.game.decisions import AI_STRATEGY
from thirteen.rules import RuleSet

__all__ = ["PlayedRound", "play_round", "register", "run", "show_round"]

Submission = Union[Arrangement, Declaration]


@dataclass(frozen=True)
class PlayedRound:
    """A dealt, arranged and settled round, as the command shows it.

    Attributes:
        rules: the rule set.
        deal: the deal (seeded or not).
        kept: each seat's 13 kept cards (of 16 under 多三张).
        submissions: each seat's arrangement or declaration.
        settlement: the result.
        you: the seat a person played, or ``None``.
    """

    rules: RuleSet
    deal: Deal
    kept: Tuple[Tuple[Card, ...], ...]
    submissions: Tuple[Submission, ...]
    settlement: Settlement
    you: Optional[int] = None

    @property
    def players(self) -> int:
        """The table size."""
        return len(self.submissions)

    def to_dict(self) -> Dict[str, Any]:
        """The round as plain JSON data (snake_case keys)."""
        d = self.deal
        return {
            "rules": self.rules.name,
            "players": self.players,
            "seed": d.seed,
            "cut": None
            if d.cut_card is None
            else {"card": str(d.cut_card), "counted_from": d.cut_start, "first": d.first},
            "you": self.you,
            "dealt": [[str(c) for c in h] for h in d.hands],
            "kept": [[str(c) for c in h] for h in self.kept],
            "submissions": [submission_dict(s) for s in self.submissions],
            "settlement": self.settlement.to_dict(),
        }


def submission_dict(sub: Submission) -> Dict[str, Any]:
    """An arrangement as ``{"front", "middle", "back"}`` card text, a declaration as
    ``{"special", "cards"}``."""
    if isinstance(sub, Declaration):
        return {"special": sub.special, "cards": " ".join(str(c) for c in sub.cards)}
    return {lane: " ".join(str(c) for c in cards) for lane, cards in zip(LANES, sub.lanes)}


def play_round(
    rules: RuleSet,
    players: int,
    seed: Optional[int],
    strategy: str = AI_STRATEGY,
    person: Optional[Person] = None,
) -> PlayedRound:
    """Deals a round, arranges every seat (seat 0 by ``person`` when given), and settles it
    with seat 0 as the banker in banker mode (RULES.md 5, 7)."""
    d = thirteen.deal(rules, players, seed)
    kept: List[Tuple[Card, ...]] = []
    submissions: List[Submission] = []
    for seat, hand in enumerate(d.hands):
        banker = rules.mode == "banker" and seat == 0
        if person is not None and seat == 0:
            cards = person.keep(hand, rules, banker) if len(hand) > 13 else tuple(hand)
            submissions.append(person.arrange(cards, rules, banker))
            kept.append(tuple(cards))
            continue
        sol = thirteen.solve(list(hand), rules, players=players, strategy=strategy, banker=banker)
        submissions.append(sol.submission())
        kept.append(sol.kept)
    result = thirteen.settle(submissions, rules, banker=0)
    return PlayedRound(rules, d, tuple(kept), tuple(submissions), result, 0 if person else None)


def show_round(screen: Screen, played: PlayedRound) -> None:
    """Shows a played round: the deal, each seat's lanes with their values, the reveal
    order, the pairs, scoops, home runs and totals."""
    rules, d, you = played.rules, played.deal, played.you
    s = played.settlement.to_dict()
    seed = "random" if d.seed is None else d.seed
    screen.heading(f"thirteen {thirteen.__version__}: {rules.name}, {played.players} players, seed {seed}")
    if d.cut_card is not None:
        screen.print(
            Text("Cut (切牌): ")
            + screen.card(d.cut_card)
            + Text(f", counted from seat {d.cut_start}: seat {d.first} is dealt first")
        )
    screen.line()

    extra = any(len(hand) > 13 for hand in d.hands)
    deal_table = screen.table("seat", "dealt", *(["set aside"] if extra else []), title="The deal")
    for seat, (hand, kept) in enumerate(zip(d.hands, played.kept)):
        row: List[Any] = [seat_name(seat, you), screen.hand(hand)]
        if extra:
            row.append(screen.hand((Counter(hand) - Counter(kept)).elements()))
        deal_table.add_row(*row)
    screen.show(deal_table)
    screen.line()

    lanes = screen.table("seat", "lane", "cards", "hand", title="Arrangements")
    for seat, sub in enumerate(played.submissions):
        name = seat_name(seat, you)
        if isinstance(sub, Declaration):
            sp = s["specials"][seat]
            lanes.add_row(
                name, "special", screen.hand(sub.cards),
                f"{category_name(sp['key'])} (报到, {sp['units']} units)",
            )
        else:
            mark = " – fouled (相公)" if seat in s["fouled"] else ""
            for lane, cards, value in zip(LANES, sub.lanes, sub.values(rules)):
                lanes.add_row(name if lane == "front" else "", lane, screen.cards(cards), f"{value}{mark}")
                mark = ""
        if seat < played.players - 1:
            lanes.add_section()
    screen.show(lanes)
    screen.line()

    reveal = screen.table("lane", "seats, weakest first", title="The reveal")
    for entry in s["reveal"]:
        reveal.add_row(entry["lane"], ", ".join(seat_name(p, you) for p in entry["order"]))
    screen.show(reveal)
    screen.line()

    screen.heading("Pair by pair (units, from the first seat's side)")
    screen.show(screen.pair_table(s["pairs"], you))
    screen.line()
    screen.events(s, you)
    screen.heading("Totals")
    screen.show(screen.totals_table(s["totals"], you=you))


def run(args: argparse.Namespace) -> int:
    """The ``play`` subcommand."""
    rules = options.rules_from(args)
    # Under --json the person's prompts go to standard error: standard output is the JSON.
    prompts = Screen.on(sys.stderr if args.json else sys.stdout, color=not args.no_color)
    person = Person(prompts, args.players) if args.interactive else None
    played = play_round(rules, args.players, args.seed, args.strategy, person)
    if args.json:
        print_json(played.to_dict())
    else:
        show_round(Screen.on(sys.stdout, color=not args.no_color), played)
    return 0


def register(sub: Any) -> None:
    """Adds the ``play`` subcommand to the subparsers ``sub``."""
    p = sub.add_parser(
        "play",
        help="deal and play a full round with AI players",
        description="Deal a round, let the engine arrange every seat (代打), settle and show it.",
    )
    options.add_common(p)
    p.add_argument("--seed", type=options.seed, default=None,
                   help="seed of the shuffle, 0 to 2**64-1 (default: secure random)")
    p.add_argument("--strategy", default=AI_STRATEGY, choices=options.STRATEGIES,
                   help=f"the AI players' strategy (default {AI_STRATEGY}, as AI seats play)")
    p.add_argument("--interactive", action="store_true",
                   help="arrange seat 0 yourself, with hints (prompts on standard error with --json)")
    p.set_defaults(func=run)
