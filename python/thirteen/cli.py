"""The ``thirteen`` command line.

Subcommands:
    play      deal and play a full round with AI players (代打) and print it
    solve     the best arrangement of 13 cards, the runners-up, a held special
    score     settle submitted arrangements from a JSON file
    simulate  many rounds with chosen strategies, and a summary
    demo      hand values, fouls and lane comparison on a few fixed hands

Exit codes: 0 success, 2 bad input (bad cards, bad files, unknown presets, bad options).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from typing import Any, Dict, List, Optional, Sequence, TextIO

import thirteen
from thirteen import score_file
from thirteen.errors import ThirteenError
from thirteen.rules import PRESET_NAMES, RuleSet

LANES = ("front", "middle", "back")


# --------------------------------------------------------------------------- output


class Out:
    """Writes to a stream, with suit colours when it is a terminal (plain text when piped)."""

    def __init__(self, stream: TextIO, color: Optional[bool] = None) -> None:
        self.stream = stream
        if color is None:
            color = stream.isatty() and os.environ.get("NO_COLOR") is None
        self.color = color
        self.glyphs = color

    def card(self, card: Any) -> str:
        if not self.glyphs:
            return str(card)
        text = card.glyph
        if self.color and card.suit.char in "hd":
            return f"\x1b[31m{text}\x1b[0m"
        return text

    def cards(self, cards: Sequence[Any]) -> str:
        return " ".join(self.card(c) for c in cards)

    def bold(self, text: str) -> str:
        return f"\x1b[1m{text}\x1b[0m" if self.color else text

    def __call__(self, text: str = "") -> None:
        print(text, file=self.stream)


def _rules(args: argparse.Namespace) -> RuleSet:
    path = getattr(args, "rules_file", None)
    if path:
        return RuleSet.load(path, None if path.lower().endswith(".json") else "toml")
    return RuleSet.preset(args.rules)


def _signed(n: int) -> str:
    return f"{n:+d}"


# --------------------------------------------------------------------------- play


def _arrange_interactively(out: Out, hand: Sequence[Any], rules: RuleSet, players: int) -> Any:
    """Lets a person arrange their hand at the terminal, with hints (牌型提示)."""
    hint_list = thirteen.hints(list(hand), rules, players=players, n=5)
    out(out.bold("Your hand: ") + out.cards(hand))
    out("Hints (back / middle / front):")
    for i, h in enumerate(hint_list, 1):
        shown = str(h.arrangement) if h.arrangement is not None else "declare the special"
        out(f"  {i}. {h.label:<40} {h.expected:+7.2f} units   {shown}")
    while True:
        out("Type a hint number, or your lanes as 'front | middle | back':")
        line = sys.stdin.readline()
        if not line:
            out("No more input: playing the first hint.")
            return hint_list[0].arrangement or thirteen.solve(list(hand), rules).submission()
        line = line.strip()
        if not line:
            continue
        try:
            if line.isdigit() and 1 <= int(line) <= len(hint_list):
                h = hint_list[int(line) - 1]
                if h.arrangement is not None:
                    return h.arrangement
                return thirteen.Declaration(list(hand), h.special.key if h.special else None)
            a = thirteen.Arrangement.parse(line, rules)
            if sorted(c.code for c in a.cards) != sorted(c.code for c in hand):
                out("Those are not your 13 cards.")
                continue
            if thirteen.is_foul(a, rules):
                out("That arrangement is fouled (相公): front ≤ middle ≤ back is required.")
                if rules.foul == "reject":
                    continue
            return a
        except ThirteenError as exc:
            out(f"Not understood: {exc}")


def play_round(
    rules: RuleSet,
    players: int,
    seed: Optional[int],
    strategy: str = "ev",
    interactive: bool = False,
    out: Optional[Out] = None,
) -> Dict[str, Any]:
    """Deals a round, arranges every seat (seat 0 by a person when ``interactive``), settles
    it, and returns the round as plain data."""
    d = thirteen.deal(rules, players, seed)
    hands = [list(h) for h in d.hands]
    submissions: List[Any] = []
    kept_hands: List[List[Any]] = []
    for seat, hand in enumerate(hands):
        banker = rules.mode == "banker" and seat == 0
        if interactive and seat == 0 and out is not None:
            if len(hand) != 13:
                sol = thirteen.solve(hand, rules, players=players, banker=banker)
                hand = list(sol.kept)
            sub = _arrange_interactively(out, hand, rules, players)
        else:
            sol = thirteen.solve(hand, rules, players=players, strategy=strategy, banker=banker)
            sub = sol.submission()
            hand = list(sol.kept)
        submissions.append(sub)
        kept_hands.append(hand)
    result = thirteen.settle(submissions, rules, banker=0)
    return {
        "rules": rules.name,
        "players": players,
        "seed": d.seed,
        "cut": None
        if d.cut_card is None
        else {"card": str(d.cut_card), "counted_from": d.cut_start, "first": d.first},
        "dealt": [[str(c) for c in h] for h in hands],
        "submissions": [_submission_dict(s) for s in submissions],
        "settlement": result.to_dict(),
        "_objects": (d, submissions, result),
    }


def _submission_dict(sub: Any) -> Dict[str, Any]:
    if isinstance(sub, thirteen.Declaration):
        return {"special": sub.special, "cards": " ".join(str(c) for c in sub.cards)}
    return {lane: " ".join(str(c) for c in getattr(sub, lane)) for lane in LANES}


def _print_round(out: Out, rules: RuleSet, data: Dict[str, Any]) -> None:
    d, submissions, result = data["_objects"]
    s = data["settlement"]
    seed = "random" if data["seed"] is None else data["seed"]
    out(out.bold(f"thirteen {thirteen.__version__}: {rules.name}, {data['players']} players, seed {seed}"))
    if d.cut_card is not None:
        out(f"Cut (切牌): {out.card(d.cut_card)}, counted from seat {d.cut_start}: seat {d.first} is dealt first")
    out()
    out(out.bold("The deal"))
    for seat, hand in enumerate(d.hands):
        out(f"  seat {seat}: {out.cards(sorted(hand, reverse=True))}")
    out()
    out(out.bold("Arrangements (front | middle | back)"))
    for seat, sub in enumerate(submissions):
        if isinstance(sub, thirteen.Declaration):
            sp = s["specials"][seat]
            out(f"  seat {seat}: declares {sp['key'].replace('_', ' ')} (报到, {sp['units']} units)")
            continue
        values = sub.values(rules)
        fouled = " FOULED (相公)" if seat in s["fouled"] else ""
        out(f"  seat {seat}:{fouled}")
        for lane, cards, value in zip(LANES, sub.lanes, values):
            out(f"    {lane:<6} {out.cards(cards):<{14 if not out.glyphs else 14}}  {value}")
    out()
    out(out.bold("Lanes, weakest first"))
    for entry in s["reveal"]:
        order = ", ".join(f"seat {p}" for p in entry["order"])
        out(f"  {entry['lane']:<6} {order}")
    out()
    out(out.bold("Pair by pair (units, from the first seat's side)"))
    for pair in s["pairs"]:
        a, b = pair["seats"]
        parts = []
        for lane in pair["lanes"]:
            if lane["winner"] is None:
                parts.append(f"{lane['lane']} draw")
            else:
                parts.append(f"{lane['lane']} seat {lane['winner']} +{lane['units']} ({lane['category'].replace('_', ' ')})")
        steps = ", ".join(f"{k.replace('_', ' ')} {_signed(v)}" for k, v in pair["steps"].items() if v)
        out(f"  seat {a} vs seat {b}: {'; '.join(parts) if parts else 'no lanes compared'}")
        out(f"      {steps or 'nothing'} = {_signed(pair['total'])}")
    out()
    if s["scoops"]:
        out("Scoops (打枪): " + ", ".join(f"seat {w} scoops seat {l}" for w, l in s["scoops"]))
    if s["home_runs"]:
        out("Home run (全垒打): " + ", ".join(f"seat {p}" for p in s["home_runs"]))
    out(out.bold("Totals: ") + "  ".join(f"seat {i} {_signed(t)}" for i, t in enumerate(s["totals"])))


def cmd_play(args: argparse.Namespace) -> int:
    rules = _rules(args)
    out = Out(sys.stdout, color=None if not args.no_color else False)
    data = play_round(rules, args.players, args.seed, args.strategy, args.interactive, out)
    if args.json:
        data.pop("_objects")
        print(json.dumps(data, indent=2))
    else:
        _print_round(out, rules, data)
    return 0


# --------------------------------------------------------------------------- solve


def cmd_solve(args: argparse.Namespace) -> int:
    rules = _rules(args)
    out = Out(sys.stdout, color=None if not args.no_color else False)
    cards = thirteen.parse_cards(" ".join(args.cards))
    sol = thirteen.solve(cards, rules, players=args.players, strategy=args.strategy,
                         samples=args.samples, seed=args.seed, top=args.top)
    special = thirteen.find_special(list(sol.kept), rules) if len(sol.kept) == 13 else None
    if args.json:
        print(json.dumps({
            "rules": rules.name,
            "kept": [str(c) for c in sol.kept],
            "best": _solution_dict(sol),
            "runners_up": [_solution_dict(a) for a in sol.alternatives],
            "special_held": None if special is None else {"key": special.key, "units": special.units},
        }, indent=2))
        return 0
    out(out.bold(f"Best play under {rules.name} at {args.players} players ({args.strategy}):"))
    _print_solution(out, rules, sol)
    if sol.alternatives:
        out()
        out(out.bold("Runners-up:"))
        for alt in sol.alternatives:
            _print_solution(out, rules, alt)
    out()
    if special is not None:
        out(f"Special held (报到): {special.key.replace('_', ' ')}, {special.units} units"
            + (" (declared)" if sol.declares else " (playing the split scores better)"))
    else:
        out("No special hand held under these rules.")
    return 0


def _solution_dict(sol: Any) -> Dict[str, Any]:
    return {
        "arrangement": None if sol.arrangement is None else str(sol.arrangement),
        "special": None if sol.special is None else sol.special.key,
        "expected": None if sol.expected != sol.expected else round(sol.expected, 4),
    }


def _print_solution(out: Out, rules: RuleSet, sol: Any) -> None:
    ev = "" if sol.expected != sol.expected else f"  expected {sol.expected:+.2f} units"
    if sol.arrangement is None:
        out(f"  declare {sol.special.key.replace('_', ' ')}{ev}")
        return
    values = sol.arrangement.values(rules)
    lanes = " | ".join(out.cards(l) for l in sol.arrangement.lanes)
    out(f"  {lanes}{ev}")
    out(f"      {values[0]} / {values[1]} / {values[2]}")


# --------------------------------------------------------------------------- score


def cmd_score(args: argparse.Namespace) -> int:
    table = score_file.load(args.file)
    rules = score_file.rules_of(table, args.rules)
    d = score_file.score(table, rules)
    if args.json:
        print(json.dumps(d, indent=2))
        return 0
    out = Out(sys.stdout, color=None if not args.no_color else False)
    out(out.bold(f"Settled under {rules.name}:"))
    for pair in d["pairs"]:
        a, b = pair["seats"]
        steps = ", ".join(f"{k.replace('_', ' ')} {_signed(v)}" for k, v in pair["steps"].items() if v)
        out(f"  seat {a} vs seat {b}: {steps or 'nothing'} = {_signed(pair['total'])}")
    if d["fouled"]:
        out("Fouled (相公): " + ", ".join(f"seat {p}" for p in d["fouled"]))
    if d["scoops"]:
        out("Scoops (打枪): " + ", ".join(f"seat {w} scoops seat {l}" for w, l in d["scoops"]))
    if d["home_runs"]:
        out("Home run (全垒打): " + ", ".join(f"seat {p}" for p in d["home_runs"]))
    out("Totals: " + "  ".join(f"seat {i} {_signed(t)}" for i, t in enumerate(d["totals"])))
    if "money" in d:
        out("Money: " + "  ".join(f"seat {i} {_signed(m)}" for i, m in enumerate(d["money"])))
    return 0


# --------------------------------------------------------------------------- simulate


def cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules(args)
    strategies = args.strategies.split(",")
    if len(strategies) == 1:
        strategies *= args.players
    if len(strategies) != args.players:
        raise ThirteenError(f"--strategies names {len(strategies)} strategies for {args.players} players")
    for s in strategies:
        if s not in ("ev", "greedy", "mc"):
            raise ThirteenError(f"unknown strategy {s!r} (expected ev, greedy or mc)")
    totals = [0] * args.players
    events: Counter = Counter()
    specials: Counter = Counter()
    progress = sys.stderr.isatty() and not args.quiet
    start = time.perf_counter()
    for r in range(args.n):
        d = thirteen.deal(rules, args.players, None if args.seed is None else args.seed + r)
        subs = []
        for seat, hand in enumerate(d.hands):
            sol = thirteen.solve(list(hand), rules, players=args.players, strategy=strategies[seat],
                                 samples=args.samples, seed=r, banker=rules.mode == "banker" and seat == 0)
            subs.append(sol.submission())
        res = thirteen.settle(subs, rules).to_dict()
        for i, t in enumerate(res["totals"]):
            totals[i] += t
        events["fouls"] += len(res["fouled"])
        events["scoops"] += len(res["scoops"])
        events["home runs"] += len(res["home_runs"])
        for sp in res["specials"]:
            if sp is not None:
                specials[sp["key"]] += 1
        if progress and (r % 10 == 9 or r == args.n - 1):
            done = (r + 1) / args.n
            bar = "#" * int(done * 30)
            sys.stderr.write(f"\r[{bar:<30}] {r + 1}/{args.n} rounds")
            sys.stderr.flush()
    if progress:
        sys.stderr.write("\n")
    took = time.perf_counter() - start
    summary = {
        "rules": rules.name,
        "players": args.players,
        "rounds": args.n,
        "strategies": strategies,
        "mean_units_per_round": [t / args.n for t in totals],
        "per_round": {k: v / args.n for k, v in sorted(events.items())},
        "specials_per_round": {k: v / args.n for k, v in sorted(specials.items())},
        "seconds": round(took, 3),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    out = Out(sys.stdout, color=None if not args.no_color else False)
    out(out.bold(f"{args.n} rounds of {rules.name} at {args.players} players in {took:.1f} s"))
    for seat, (s, t) in enumerate(zip(strategies, totals)):
        out(f"  seat {seat} ({s:<6}) mean {t / args.n:+.3f} units per round")
    for k in ("fouls", "scoops", "home runs"):
        out(f"  {k:<10} {events[k] / args.n:.3f} per round ({events[k]} in all)")
    if specials:
        out("  specials declared: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(specials.items())))
    else:
        out("  specials declared: none")
    return 0


# --------------------------------------------------------------------------- demo

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


def cmd_demo(args: argparse.Namespace) -> int:
    rules = _rules(args)
    out = Out(sys.stdout, color=None if not args.no_color else False)
    out(out.bold(f"thirteen {thirteen.__version__}: rule set {rules.name!r} (wheel {rules.wheel}, tie-break {rules.tie_break})"))
    out()
    out("Hand values (RULES.md 3):")
    for text in _DEMO_HANDS:
        cards = thirteen.parse_cards(text)
        out(f"  {out.cards(cards)}   {thirteen.evaluate(cards, rules)}")
    out()
    out("Arrangements, front | middle | back (RULES.md 2):")
    for text in _DEMO_ARRANGEMENTS:
        arrangement = thirteen.Arrangement.parse(text, rules)
        front, middle, back = arrangement.values(rules)
        verdict = "FOULED (相公)" if thirteen.is_foul(arrangement, rules) else "ok"
        out(f"  {arrangement}")
        out(f"      {front} / {middle} / {back}: {verdict}")
    out()
    out("Lane comparison:")
    a, b = "5h 5c As 9d 7c", "5s 5d Ad 9h 7d"
    for name in ("shisanzhang", "bianfeng"):
        r = RuleSet.preset(name)
        verdict = {1: "first wins", -1: "second wins", 0: "drawn"}[thirteen.compare_lanes(a, b, r)]
        out(f"  {a}  vs  {b}  under {name} (tie_break={r.tie_break}): {verdict}")
    return 0


# --------------------------------------------------------------------------- parser


def _seed(text: str) -> int:
    """A shuffle seed: an integer from 0 to 2**64 − 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"seeds are 0 to 2**64 - 1, got {value}")
    return value


def _positive(text: str) -> int:
    """A count of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``thirteen`` command."""
    parser = argparse.ArgumentParser(
        prog="thirteen",
        description="Engine for the card game Thirteen (十三水 / Chinese Poker).",
    )
    parser.add_argument("--version", action="version", version=thirteen.__version__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def common(p: argparse.ArgumentParser, players: bool = True) -> None:
        p.add_argument("--rules", default="kaixin", choices=PRESET_NAMES, metavar="PRESET",
                       help=f"preset rule set (default kaixin; one of {', '.join(PRESET_NAMES)})")
        p.add_argument("--rules-file", metavar="FILE", help="a rule-set file (TOML or JSON) instead of a preset")
        if players:
            p.add_argument("--players", type=int, default=4, choices=(2, 3, 4), help="table size (default 4)")
        p.add_argument("--json", action="store_true", help="print JSON instead of text")
        p.add_argument("--no-color", action="store_true", help="never colour the output")

    p = sub.add_parser("play", help="deal and play a full round with AI players",
                       description="Deal a round, let the engine arrange every seat (代打), settle and print it.")
    common(p)
    p.add_argument("--seed", type=_seed, default=None, help="seed of the shuffle, 0 to 2**64-1 (default: secure random)")
    p.add_argument("--strategy", default="ev", choices=("ev", "greedy", "mc"), help="AI strategy (default ev)")
    p.add_argument("--interactive", action="store_true", help="arrange seat 0 yourself, with hints")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("solve", help="the best arrangement of a hand",
                       description="Best arrangement of 13 cards (16 with kaixin-extra), runners-up and a held special.")
    p.add_argument("cards", nargs="+", help='the cards, e.g. "As Kd Tc ..."')
    common(p)
    p.add_argument("--strategy", default="ev", choices=("ev", "greedy", "mc"))
    p.add_argument("--top", type=_positive, default=4, help="plays to rank: the best and top-1 runners-up (default 4)")
    p.add_argument("--samples", type=_positive, default=1000, help="Monte Carlo samples for mc")
    p.add_argument("--seed", type=_seed, default=0)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("score", help="settle submitted arrangements from a JSON file",
                       description='Settle a table: a JSON object {"rules": PRESET or {...}, "players": '
                                   '[{"front","middle","back"} or {"special","cards"}], "banker"?, "stakes"?, '
                                   '"surrendered"?, "stake"?, "rake"?: {"percent","cap"}}.')
    p.add_argument("file", help="the JSON file")
    common(p, players=False)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("simulate", help="many rounds with chosen strategies",
                       description="Play many rounds with AI players and summarise the results.")
    p.add_argument("-n", type=_positive, default=100, help="rounds (default 100)")
    common(p)
    p.add_argument("--strategies", default="ev", help="one strategy, or one per seat: e.g. ev,greedy,greedy,greedy")
    p.add_argument("--samples", type=_positive, default=200, help="Monte Carlo samples for mc seats")
    p.add_argument("--seed", type=_seed, default=None, help="seed of the first round (then seed + 1, ...)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("demo", help="hand values, fouls and lane comparison on fixed hands")
    common(p, players=False)
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``thirteen``; returns the process exit code (2 for bad input)."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        # The reader went away (``thirteen play | head``): stop quietly.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except ThirteenError as exc:
        print(f"thirteen: error: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"thirteen: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
