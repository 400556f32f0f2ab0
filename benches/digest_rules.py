"""The digest of the rules' side of play: one SHA-256 over what the engine decides and pays
under every preset and some variants of them, to show that a refactor of the rules changed
nothing (issue 53: splits, expected values and settlements bit-identical). The search's own
digest (its phases, bounds, batch and greedy plays) is ``benches/digest.py``; run both.

Sections, each hashed on its own (a mismatch names the section):

* ``solve/<rules>/<players>/<role>``: ``--hands`` seeded hands (10,000 by default) of every
  preset, every table size it allows, banker and player seats in banker mode: ``solve``'s
  split (or special) and ``expected`` as ``float.hex``; every 16th hand ``top = 4`` (the
  runners-up), every 50th ``hints``, every 100th ``complete`` with 0 to 4 cards placed, and
  ``mc`` (200 samples) on 8 hands. Also the variants below, on a fifth as many hands
  (priced with the nearest shipped tables: their pricing terms are what is checked).
* ``settle/<rules>/<players>``: random whole tables under every preset and the variants
  (horse card, home runs, a doubled scoop with a majority bonus, ...): seats arranged by
  ``ev``, ``greedy`` or a random split (fouls), specials declared, surrenders, bankers and
  stakes; the settlement (or the error) as JSON; the arranged tables again by
  ``settle_batch``; ``escape_payments`` and ``money`` with a rake on random results.
* ``round/<rules>/<players>``: whole rounds through ``Round``: swap-three, 0 to 3 seats
  escaping (in the swap or the arrange phase), surrenders, random submissions and
  declarations, the rest auto-arranged by ``solve``'s play (the engine's surrenders and
  gifts: ``benches/digest_decisions.py``); the ``RoundResult`` as JSON.

Usage::

    python benches/digest_rules.py            # print the digest of this build
    python benches/digest_rules.py --check    # compare with benches/digest_rules.json (exit 1 if not)
    python benches/digest_rules.py --write    # record this build's digest in benches/digest_rules.json
    python benches/digest_rules.py --hands 1000 --check   # a quicker digest, recorded separately

The recorded digests were made on main's build before the refactors of issue 53.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from section_digest import codes, compare, digest_of

import thirteen
from thirteen import Arrangement, Declaration, Round, RuleSet
from thirteen.rules import PRESET_NAMES

RECORD = Path(__file__).with_name("digest_rules.json")

#: Rule sets beyond the presets: each scoop and home-run kind with and without a majority
#: bonus, a horse card, table sizes a round leaves (an escape below the sizes allowed).
VARIANTS: Dict[str, Tuple[str, Dict[str, Any]]] = {
    "default": ("", {}),
    "w24-double": ("western-2-4", {"scoop": {"kind": "double"}}),
    "w24-hr-double": (
        "western-2-4",
        {"scoop": {"kind": "bonus", "units": 2}, "home_run": {"kind": "double", "min_players": 3}},
    ),
    "w16-horse": ("western-1-6", {"horse_card": "Ks", "majority_bonus": 1}),
    "kaixin-horse": ("kaixin", {"horse_card": "Ah"}),
    "ssz-hr3": ("shisanzhang", {"home_run": {"kind": "bonus", "units": 12, "min_players": 3}}),
    "bf-hr-bonus": (
        "bianfeng",
        {"majority_bonus": 1, "home_run": {"kind": "bonus", "units": 5, "min_players": 3}},
    ),
    "luosong-hr": ("luosong", {"home_run": {"kind": "double", "min_players": 3}, "horse_card": "2c"}),
    "luosong-suit": ("luosong", {"banker_wins_ties": False, "tie_break": "suit"}),
    "kaixin-4": ("kaixin", {"players": [4]}),
    "bf-34": ("bianfeng", {"players": [3, 4], "escape": {"to": "split", "units": 20}}),
    "ssz-4-escape": (
        "shisanzhang",
        {"players": [4], "escape": {"to": "winner", "by_players": {"4": 30}}},
    ),
    "w24-escape": ("western-2-4", {"escape": {"to": "split", "units": 7}}),
}


def rule_sets() -> Dict[str, RuleSet]:
    out = {name: RuleSet.preset(name) for name in PRESET_NAMES}
    for name, (base, overrides) in VARIANTS.items():
        out[name] = RuleSet.preset(base).replace(**overrides) if base else RuleSet.default()
    return out


def arrangement(a: Optional[Arrangement]) -> Optional[List[List[int]]]:
    return None if a is None else [codes(a.front), codes(a.middle), codes(a.back)]


def play(s: Any) -> List[Any]:
    """A solution or hint as plain data, ``expected`` bit for bit."""
    special = None if s.special is None else [s.special.key, s.special.units, s.special.tier]
    return [arrangement(s.arrangement), special, float(s.expected).hex()]


def error(exc: BaseException) -> List[Any]:
    return ["error", type(exc).__name__, str(exc)]


def dealt(rules: RuleSet, rng: random.Random, n: int) -> List[List[Any]]:
    deck = list(thirteen.deck(rules))
    rng.shuffle(deck)
    return [deck[i * rules.dealt:(i + 1) * rules.dealt] for i in range(n)]


def roles(rules: RuleSet) -> Tuple[bool, ...]:
    return (False, True) if rules.mode == "banker" else (False,)


# ------------------------------------------------------------------------------- solve


def solve_rows(rules: RuleSet, players: int, banker: bool, hands: int, seed: str) -> Iterator[Any]:
    rng = random.Random(seed)
    for i in range(hands):
        hand = dealt(rules, rng, 1)[0]
        s = thirteen.solve(hand, rules, players=players, banker=banker)
        yield [i, codes(s.kept), play(s)]
        if i % 16 == 0:
            s = thirteen.solve(hand, rules, players=players, banker=banker, top=4)
            yield ["top", i, [play(a) for a in (s, *s.alternatives)]]
        if i % 50 == 0:
            hs = thirteen.hints(hand, rules, players=players, banker=banker)
            yield ["hints", i, [[h.label, *play(h)] for h in hs if not h.surrender]]
        if i % 100 == 0 and rules.dealt == 13:
            k = rng.randrange(5)
            placed = {"front": hand[:min(k, 3)], "back": hand[3:3 + max(0, k - 3)]}
            done = thirteen.complete(hand, rules, players=players, banker=banker, **placed)
            yield ["complete", i, [play(h) for h in done]]
        if i < 8:
            s = thirteen.solve(
                hand, rules, players=players, banker=banker, strategy="mc", samples=200, seed=i
            )
            yield ["mc", i, play(s)]


# ------------------------------------------------------------------------------ settle


def random_split(hand: List[Any], rules: RuleSet, rng: random.Random) -> Arrangement:
    cards = list(hand[:13])
    rng.shuffle(cards)
    return Arrangement(cards[:3], cards[3:8], cards[8:13], rules)


def seat_play(hand: List[Any], rules: RuleSet, players: int, banker: bool, rng: random.Random) -> Any:
    """A seat's submission: a declared special (when held, mostly), an ``ev`` or ``greedy``
    split, or a random split (often fouled)."""
    kept = hand
    if rules.dealt != 13:
        kept = list(thirteen.solve(hand, rules, players=players, banker=banker).kept)
    special = thirteen.find_special(kept, rules)
    roll = rng.random()
    if special is not None and roll < 0.8:
        return Declaration(kept, special.key if roll < 0.4 else None)
    if roll < 0.6:
        return thirteen.solve(hand, rules, players=players, banker=banker).submission()
    if roll < 0.8:
        return thirteen.solve(hand, rules, players=players, strategy="greedy").submission()
    return random_split(kept, rules, rng)


def settle_rows(rules: RuleSet, players: int, tables: int, seed: str) -> Iterator[Any]:
    rng = random.Random(seed)
    batch: List[List[int]] = []
    for t in range(tables):
        banker = rng.randrange(players)
        hands = dealt(rules, rng, players)
        subs = [
            seat_play(h, rules, players, rules.mode == "banker" and s == banker, rng)
            for s, h in enumerate(hands)
        ]
        kwargs: Dict[str, Any] = {"banker": banker}
        if rules.mode == "banker" and rng.random() < 0.5:
            kwargs["stakes"] = [rng.randint(1, 5) for _ in range(players)]
        if rules.surrender.allowed and rng.random() < 0.3:
            kwargs["surrendered"] = [s for s in range(players) if rng.random() < 0.3]
        try:
            got: Any = thirteen.settle(subs, rules, **kwargs).to_dict()
        except thirteen.ThirteenError as exc:
            got = error(exc)
        yield [t, got]
        if all(isinstance(s, Arrangement) for s in subs):
            batch.append([codes(s.cards) for s in subs])  # type: ignore[union-attr]
        totals = got["totals"] if isinstance(got, dict) else [rng.randint(-30, 30) for _ in range(players)]
        for leaver in range(players):
            results: List[Optional[int]] = list(totals)
            results[leaver] = None
            try:
                paid: Any = thirteen.escape_payments(rules, leaver, results)
            except thirteen.ThirteenError as exc:
                paid = error(exc)
            yield ["escape", t, leaver, paid]
        rake = (rng.choice(["2.5", "5", 10, "0.125"]), rng.choice([None, 3, 50]))
        yield ["money", t, thirteen.money(totals, rng.randint(0, 100), rake)]
    for b in range(players):
        for start in range(0, len(batch), 500):
            chunk = np.array(batch[start:start + 500], dtype=np.uint8)
            try:
                out: Any = thirteen.settle_batch(chunk, rules, banker=b).tolist()
            except thirteen.ThirteenError as exc:
                out = error(exc)
            yield ["batch", b, start, out]


# ------------------------------------------------------------------------------- round


def round_rows(rules: RuleSet, players: int, rounds: int, seed: str) -> Iterator[Any]:
    rng = random.Random(seed)
    for t in range(rounds):
        banker = rng.randrange(players)
        stakes = [rng.randint(1, 4) for _ in range(players)] if rules.mode == "banker" else None
        rake = (rng.choice(["2.5", 5]), rng.choice([None, 20])) if rng.random() < 0.5 else None
        rnd = Round(rules, players, seed=t, banker=banker, stakes=stakes, stake=10, rake=rake)
        rnd.deal()
        leavers = rng.sample(range(players), rng.randint(0, min(3, players - 1)))
        early = leavers[: rng.randint(0, len(leavers))]
        if rnd.phase == "swap":
            for s in early:
                rnd.escape(s)
            assert rules.swap is not None
            for s in rnd.present:
                if rng.random() < 0.7:
                    hand = list(rnd.hand(s))
                    rnd.give(s, rng.sample(hand, rng.randint(0, rules.swap.max_cards)))
            rnd.finish_swap()
        else:
            for s in early:
                leave(rnd, rules, players, banker, s)
        for s in rnd.present:
            roll = rng.random()
            hand = list(rnd.hand(s))
            try:
                if rules.surrender.allowed and roll < 0.15:
                    rnd.surrender(s)
                elif roll < 0.4:
                    is_banker = rules.mode == "banker" and s == banker
                    rnd.submit(s, seat_play(hand, rules, players, is_banker, rng))
                elif roll < 0.5:
                    rnd.disconnect(s)
            except thirteen.ThirteenError as exc:
                yield ["refused", t, s, error(exc)]
        for s in leavers[len(early):]:
            if s in rnd.present:
                leave(rnd, rules, players, banker, s)
        play_missing(rnd, rules, players, banker)
        result = rnd.settle(balances=[100] * players, min_balance=50)
        yield [t, result.to_dict()]


def leave(rnd: Round, rules: RuleSet, players: int, banker: int, seat: int) -> None:
    """The seat escapes; with no escape rule it is auto-arranged at once while arranging,
    by ``solve``'s play as before issue 54 (see :func:`play_missing`)."""
    if rules.escape is None and rnd.phase == "arrange" and seat in rnd.missing:
        play_missing(rnd, rules, players, banker, [seat], "disconnect")
    rnd.escape(seat)


def play_missing(
    rnd: Round, rules: RuleSet, players: int, banker: int, seats: Optional[List[int]] = None,
    reason: Optional[str] = None,
) -> None:  # fmt: skip
    """Auto-arranges ``seats`` (default: the seats still missing) with ``solve``'s play, for
    ``reason`` (default: ``disconnect`` for a disconnected seat, else ``timeout``), as
    ``settle(auto_missing=True)`` did before issue 54 (the engine now surrenders where that
    loses less: ``benches/digest_decisions.py`` digests it); solved for the table of the
    seats still in when the rules allow its size, else the seats dealt in."""
    size = len(rnd.present) if len(rnd.present) in rules.players else players
    for s in rnd.missing if seats is None else seats:
        why = reason or ("disconnect" if s in rnd.disconnected else "timeout")
        is_banker = rules.mode == "banker" and s == banker
        sol = thirteen.solve(rnd.hand(s), rules, players=size, banker=is_banker)
        rnd.auto(s, why, play=sol.submission())


# ------------------------------------------------------------------------------ digest


def sections(hands: int) -> Iterator[Tuple[str, Callable[[], Iterator[Any]]]]:
    sets = rule_sets()
    for name, rules in sets.items():
        share = hands if name in PRESET_NAMES else max(1, hands // 5)
        for players in rules.players:
            for banker in roles(rules):
                key = f"solve/{name}/{players}/{'banker' if banker else 'player'}"
                yield key, lambda r=rules, p=players, b=banker, k=key, n=share: solve_rows(r, p, b, n, k)
    for name, rules in sets.items():
        for players in rules.players:
            key = f"settle/{name}/{players}"
            yield key, lambda r=rules, p=players, k=key: settle_rows(r, p, max(1, hands // 5), k)
    for name, rules in sets.items():
        for players in rules.players:
            key = f"round/{name}/{players}"
            yield key, lambda r=rules, p=players, k=key: round_rows(r, p, max(1, hands // 20), k)


def digest(hands: int, verbose: bool) -> Dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nearest shipped tables for the variants
        return digest_of(sections(hands), verbose)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--check", action="store_true", help="compare with benches/digest_rules.json")
    parser.add_argument("--write", action="store_true", help="record in benches/digest_rules.json")
    parser.add_argument("--verbose", action="store_true", help="each section as it is done")
    args = parser.parse_args(argv)
    got = digest(args.hands, args.verbose)
    print(f"digest ({args.hands} hands): {got['sha256']}")
    record = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    key = str(args.hands)
    if args.write:
        record[key] = got
        RECORD.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"recorded in {RECORD}")
    if args.check:
        want = record.get(key)
        if want is None:
            print(f"no digest recorded for {args.hands} hands", file=sys.stderr)
            return 1
        return compare(want, got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
