"""The digest of the decisions besides the arrangement (issue 54): one SHA-256 over the
engine's swap-three gifts and surrenders, so that a refactor can show it changed none of
them (``benches/digest.py`` and ``benches/digest_rules.py`` digest the arrangements).

Sections, each hashed on its own (a mismatch names the section):

* ``gift/<players>``: ``--gifts`` seeded kaixin-swap hands: ``thirteen.gift`` (``top`` 3, the
  seed the hand's number): the cards and ``expected`` as ``float.hex``, best first.
* ``surrender/<rules>/<players>``: ``--hands`` seeded hands of each Western preset and table
  size: ``solve``'s ``surrender_expected``, ``surrenders`` and ``expected``; every 10th hand
  ``hints`` (``n`` = 5) with the surrender hint where it ranks.
* ``round/<rules>/<players>``: ``--rounds`` seeded rounds of kaixin-swap and the Western
  presets, every decision the engine's (``Round.auto`` in the swap and the arrange phase,
  some seats disconnected and auto-played when the swap ends or the round is settled): the
  gifts and their reasons, and the ``RoundResult`` as JSON.

Usage::

    python benches/digest_decisions.py [--check | --write] [--gifts 200] [--hands 4000]
        [--rounds 100]

The recorded digest holds for the default counts only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from section_digest import codes, compare, digest_of

import thirteen
from thirteen import Round, RuleSet

RECORD = Path(__file__).with_name("digest_decisions.json")
DEFAULTS = {"gifts": 200, "hands": 4000, "rounds": 100}
WESTERN = ("western-1-6", "western-2-4")


def gift_rows(players: int, hands: int) -> Iterator[Any]:
    rules = RuleSet.preset("kaixin-swap")
    for i in range(hands):
        hand = thirteen.deal(rules, players, 100_000 + i).hands[i % players]
        g = thirteen.gift(hand, rules, players=players, seed=i, top=3)
        yield [i, [[codes(x.cards), float(x.expected).hex()] for x in (g, *g.alternatives)]]


def surrender_rows(rules: RuleSet, players: int, hands: int) -> Iterator[Any]:
    for i in range(hands):
        hand = thirteen.deal(rules, players, 200_000 + i).hands[i % players]
        s = thirteen.solve(hand, rules, players=players)
        gone = s.surrender_expected
        yield [i, float(s.expected).hex(), None if gone is None else float(gone).hex(), s.surrenders]
        if i % 10 == 0:
            hs = thirteen.hints(hand, rules, players=players)
            yield ["hints", i, [[h.label, h.surrender, float(h.expected).hex()] for h in hs]]


def round_rows(rules: RuleSet, players: int, rounds: int) -> Iterator[Any]:
    rng = random.Random(f"{rules.name}/{players}")
    for t in range(rounds):
        rnd = Round(rules, players, seed=300_000 + t)
        rnd.deal()
        if rnd.phase == "swap":
            for s in range(players):
                roll = rng.random()
                if roll < 0.4:
                    rnd.auto(s, "timeout")
                elif roll < 0.6:
                    rnd.disconnect(s)
            rnd.finish_swap(auto_missing=rng.random() < 0.5)
            yield ["swap", t, [codes(rnd.given.get(s, ())) for s in range(players)], rnd.auto_given]
        for s in rnd.missing:
            roll = rng.random()
            if roll < 0.5:
                rnd.auto(s, "timeout")
            elif roll < 0.7:
                rnd.disconnect(s)
        yield [t, rnd.settle(auto_missing=True).to_dict()]


def sections(counts: Dict[str, int]) -> Iterator[Tuple[str, Callable[[], Iterator[Any]]]]:
    for players in (2, 3, 4):
        yield f"gift/{players}", lambda p=players: gift_rows(p, counts["gifts"])
    for name in WESTERN:
        rules = RuleSet.preset(name)
        for players in rules.players:
            yield (
                f"surrender/{name}/{players}",
                lambda r=rules, p=players: surrender_rows(r, p, counts["hands"]),
            )
    for name in ("kaixin-swap", *WESTERN):
        rules = RuleSet.preset(name)
        for players in rules.players:
            yield f"round/{name}/{players}", lambda r=rules, p=players: round_rows(r, p, counts["rounds"])


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name, default in DEFAULTS.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help=f"compare with {RECORD.name}")
    mode.add_argument("--write", action="store_true", help=f"record in {RECORD.name}")
    parser.add_argument("--verbose", action="store_true", help="each section as it is done")
    args = parser.parse_args(argv)
    counts = {name: getattr(args, name) for name in DEFAULTS}
    if (args.check or args.write) and counts != DEFAULTS:
        parser.error("--check and --write use the default counts")
    got = digest_of(sections(counts), args.verbose)
    print(f"digest: {got['sha256']}")
    if args.write:
        RECORD.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"recorded in {RECORD}")
    if args.check:
        return compare(json.loads(RECORD.read_text()), got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
