"""Bit-identity digest of the arrangement engine: one SHA-256 over what it plays.

A refactor of the search or of the pricing must not change a single play or a single bit of
an expected value. This script solves seeded hands under every preset and table size (and
luosong's banker and player seats, kaixin-extra's 16 dealt and 13 dealt, a horse card, and
lane values that fall as the category rises) and hashes, per section:

* ``ev``: ``solve`` (the kept cards, the arrangement or the declared special, ``expected`` as
  ``float.hex``), ``--hands`` hands per table size;
* ``top3``: ``solve(top=3)`` with its alternatives, the same hands;
* ``greedy``: ``solve(strategy="greedy")``, the same hands;
* ``batch``: ``solve_batch`` (``ev``) of the same hands, its two arrays' bytes;
* ``hints``: ``hints`` (``n`` = 5), ``--few`` hands (the plays; surrendering, listed besides
  them under rules that allow it, is in ``benches/digest_decisions.py``);
* ``complete``: ``complete`` with 0 to 6 cards placed and ``limit`` 5, 20 or 300, ``--few``
  hands;
* ``mc``: ``solve(strategy="mc")`` with 8 samples, seeded, ``top`` 1 or 3, ``--mc-hands`` hands.

The sections' digests and their total are compared with ``benches/digest.txt`` (made on the
build before the change) with ``--check``; ``--write`` records them. A mismatch names the
sections that differ.

Usage::

    python benches/digest.py [--check | --write] [--hands 10000] [--few 2000] [--mc-hands 200]

The recorded digest holds for the default counts only.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

import thirteen
from thirteen import LaneTables, RuleSet
from thirteen.rules import PRESET_NAMES

RECORD = Path(__file__).with_name("digest.txt")


def played(s: Any) -> str:
    """A solution as text: kept cards, arrangement or special, expected units in hex."""
    special = s.special.key if s.special is not None else "-"
    arrangement = repr(s.arrangement) if s.arrangement is not None else "-"
    kept = " ".join(map(str, s.kept))
    return f"{kept}|{arrangement}|{special}|{float(s.expected).hex()}"


def hint_text(h: Any) -> str:
    special = h.special.key if h.special is not None else "-"
    arrangement = repr(h.arrangement) if h.arrangement is not None else "-"
    return f"{arrangement}|{special}|{h.label}|{float(h.expected).hex()}"


@dataclass(frozen=True)
class Setting:
    """One rule set at one table size and seat, with its hands (seeded by ``seed_key``)."""

    label: str
    rules: RuleSet
    players: int
    banker: bool
    dealt: int
    tables: Optional[LaneTables]
    seed_key: str

    @property
    def seed(self) -> int:
        return zlib.crc32(self.seed_key.encode())

    def codes(self, n: int) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        deck = np.array([c.code for c in thirteen.deck(self.rules)], dtype=np.uint8)
        return np.array([rng.permutation(deck)[: self.dealt] for _ in range(n)], dtype=np.uint8)

    def hands(self, n: int) -> List[List[thirteen.Card]]:
        return [[thirteen.Card.from_code(int(c)) for c in row] for row in self.codes(n)]

    def kw(self) -> Dict[str, Any]:
        return {"players": self.players, "banker": self.banker, "tables": self.tables}


def settings() -> List[Setting]:
    """Every preset (and the default rules) at each table size it allows; luosong for the
    banker's seat too; kaixin-extra with 16 and with 13 dealt, and with a horse card (Ah);
    kaixin with a front pair worth more than front trips (lane values that fall)."""
    out: List[Setting] = []
    named = [("default", RuleSet.default())] + [(n, RuleSet.preset(n)) for n in PRESET_NAMES]
    for name, rules in named:
        for p in rules.players:
            seats = (False, True) if rules.mode == "banker" else (False,)
            for banker in seats:
                label = f"{name} {p}p" + (" banker" if banker else "")
                out.append(Setting(label, rules, p, banker, rules.dealt, None, name))
    extra = RuleSet.preset("kaixin-extra")
    for p in extra.players:
        out.append(Setting(f"kaixin-extra-13 {p}p", extra, p, False, 13, None, "kaixin-extra-13"))
    horse = extra.replace(horse_card="Ah", name="kaixin-extra-horse")
    for p in horse.players:
        tables = thirteen.lane_tables(extra, p)
        out.append(Setting(f"kaixin-extra-horse {p}p", horse, p, False, 16, tables,
                           "kaixin-extra-horse"))
    kaixin = RuleSet.preset("kaixin")
    falling = kaixin.replace(
        lane_values={"front": {"base": 1, "one_pair": 9, "three_of_a_kind": 3}},
        name="kaixin-falling",
    )
    for p in falling.players:
        c = thirteen.lane_tables(kaixin, p).counts()
        tables = LaneTables.from_counts(falling, c["front"], c["middle"], c["back"],
                                        c.get("classes"))
        out.append(Setting(f"kaixin-falling {p}p", falling, p, False, 13, tables,
                           "kaixin-falling"))
    return out


def digest_lines(lines: Iterable[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def sections(s: Setting, hands: int, few: int, mc_hands: int) -> Dict[str, Callable[[], str]]:
    """The section digests of one setting, each computed when called."""
    kw = s.kw()

    def ev() -> str:
        return digest_lines(played(thirteen.solve(h, s.rules, **kw)) for h in s.hands(hands))

    def top3() -> str:
        def text(h: Sequence[thirteen.Card]) -> str:
            sol = thirteen.solve(h, s.rules, top=3, **kw)
            return " || ".join(played(x) for x in (sol,) + sol.alternatives)

        return digest_lines(text(h) for h in s.hands(hands))

    def greedy() -> str:
        return digest_lines(played(thirteen.solve(h, s.rules, strategy="greedy", **kw))
                            for h in s.hands(hands))

    def batch() -> str:
        arrangements, specials = thirteen.solve_batch(s.codes(hands), s.rules, **kw)
        return hashlib.sha256(np.ascontiguousarray(arrangements).tobytes()
                              + np.ascontiguousarray(specials).tobytes()).hexdigest()

    def hints() -> str:
        # The plays only: surrendering, listed besides them since issue 54, has its own
        # digest (benches/digest_decisions.py).
        return digest_lines(" || ".join(hint_text(x) for x in thirteen.hints(h, s.rules, **kw)
                                        if not x.surrender)
                            for h in s.hands(few))

    def complete() -> str:
        def text(i: int, h: Sequence[thirteen.Card]) -> str:
            placed = list(h[: i % 7])
            out = thirteen.complete(h, s.rules, front=placed[:1], middle=placed[1:3],
                                    back=placed[3:], limit=(5, 20, 300)[i % 3], **kw)
            return " || ".join(hint_text(x) for x in out)

        return digest_lines(text(i, h) for i, h in enumerate(s.hands(few)))

    def mc() -> str:
        def text(i: int, h: Sequence[thirteen.Card]) -> str:
            sol = thirteen.solve(h, s.rules, strategy="mc", samples=8, seed=i, top=1 + 2 * (i % 2),
                                 **kw)
            return " || ".join(played(x) for x in (sol,) + sol.alternatives)

        return digest_lines(text(i, h) for i, h in enumerate(s.hands(mc_hands)))

    return {"ev": ev, "top3": top3, "greedy": greedy, "batch": batch, "hints": hints,
            "complete": complete, "mc": mc}


def read_record(path: Path) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.rpartition(" ")
            out[key] = value
    return out


def main(argv: Sequence[str] = ()) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--few", type=int, default=2_000)
    parser.add_argument("--mc-hands", type=int, default=200)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help=f"compare with {RECORD.name}")
    mode.add_argument("--write", action="store_true", help=f"record into {RECORD.name}")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(list(argv) or None)
    defaults = (args.hands, args.few, args.mc_hands) == (10_000, 2_000, 200)
    if (args.check or args.write) and not defaults:
        parser.error("--check and --write use the default counts")
    warnings.simplefilter("ignore")
    start = time.process_time()
    found: List[Tuple[str, str]] = []
    for s in settings():
        for name, fn in sections(s, args.hands, args.few, args.mc_hands).items():
            found.append((f"{s.label} {name}", fn()))
            if not args.quiet:
                print(f"{s.label} {name} {found[-1][1]}", flush=True)
    total = digest_lines(f"{k} {v}" for k, v in found)
    print(f"total {total}  ({time.process_time() - start:.0f} s CPU)")
    if args.write:
        header = ("# benches/digest.py --write: the arrangement engine's plays, section by "
                  "section (see the script)\n")
        RECORD.write_text(header + "".join(f"{k} {v}\n" for k, v in found) + f"total {total}\n")
        return 0
    if args.check:
        want = read_record(RECORD)
        differ = [k for k, v in found if want.get(k) != v]
        if differ or want.get("total") != total:
            print("DIFFERENT: " + ", ".join(differ or ["total"]))
            return 1
        print("bit-identical")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
