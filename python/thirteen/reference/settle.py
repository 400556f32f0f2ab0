"""Scoring a round (RULES.md section 5): settlement, escape payments, money.

Everything is in units (注 / 水). Each compared pair's result is built step by
step in the order of RULES.md 5, and each step's contribution is recorded
(signed from the lower seat's side), so a result can be audited:

    surrender → special → lanes → majority → scoop → home run → horse → stake
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

from thirteen.errors import (
    CountError,
    DuplicateCardError,
    FalseSpecialError,
    FouledError,
    LimitError,
    SurrenderError,
    ThirteenError,
)

from thirteen.limits import MAX_STAKE, MAX_STAKE_MULTIPLIER, MAX_UNITS

from ._rules import resolve
from .arrangement import LANES, Arrangement
from .cards import Card, as_cards, copies_in_deck
from .hands import HandValue, _compare_values, _value
from .specials import SpecialHand, compare_specials, find_special, held_specials

__all__ = [
    "Declaration",
    "LaneResult",
    "PairResult",
    "Settlement",
    "STEPS",
    "settle",
    "settle_round",
    "escape_payments",
    "money",
]

# The steps of a pair's result, in the order they are applied (RULES.md 5).
STEPS = ("surrender", "special", "lanes", "majority", "scoop", "home_run", "horse", "stake")


class Declaration:
    """A declared special hand (报到): the player's 13 cards and, optionally, the
    special's key it names.

    The cards are only parsed here; their count, repeats and the special are
    checked by :func:`settle` (``CountError`` / ``DuplicateCardError`` /
    ``FalseSpecialError`` naming the seat).
    """

    __slots__ = ("cards", "special")

    cards: Tuple[Card, ...]
    special: Optional[str]

    def __init__(self, cards: Union[str, Sequence[Card]], special: Optional[str] = None) -> None:
        object.__setattr__(self, "cards", tuple(as_cards(cards)))
        object.__setattr__(self, "special", special)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Declaration is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Declaration):
            return NotImplemented
        return (sorted(c.code for c in self.cards), self.special) == (
            sorted(c.code for c in other.cards),
            other.special,
        )

    def __hash__(self) -> int:
        return hash(("Declaration", tuple(sorted(c.code for c in self.cards)), self.special))

    def __repr__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"Declaration({cards!r}, special={self.special!r})"


@dataclass(frozen=True)
class LaneResult:
    """One lane of a compared pair: ``winner`` seat (None when drawn), the
    winner's lane ``category`` key (None when drawn) and the ``units`` it collects."""

    lane: str
    winner: Optional[int]
    category: Optional[str]
    units: int

    def to_dict(self) -> Dict[str, Any]:
        return {"lane": self.lane, "winner": self.winner, "category": self.category, "units": self.units}


@dataclass(frozen=True)
class PairResult:
    """The result of one compared pair ``seats = (a, b)``, ``a < b``.

    ``steps`` holds what each step of RULES.md 5 added, signed from ``a``'s
    side, in the order of :data:`STEPS`; ``total`` is their sum (what ``b`` pays ``a``).
    """

    seats: Tuple[int, int]
    lanes: Tuple[LaneResult, ...]
    steps: Tuple[Tuple[str, int], ...]
    total: int

    def to_dict(self) -> Dict[str, Any]:
        return {
            "seats": list(self.seats),
            "lanes": [lane.to_dict() for lane in self.lanes],
            "steps": dict(self.steps),
            "total": self.total,
        }


@dataclass(frozen=True)
class Settlement:
    """A settled round (immutable). See :meth:`to_dict` for the layout."""

    totals: Tuple[int, ...]
    fouled: Tuple[int, ...]
    surrendered: Tuple[int, ...]
    specials: Tuple[Optional[SpecialHand], ...]
    scoops: Tuple[Tuple[int, int], ...]
    home_runs: Tuple[int, ...]
    pairs: Tuple[PairResult, ...]
    reveal: Tuple[Tuple[str, Tuple[int, ...]], ...]

    def to_dict(self) -> Dict[str, Any]:
        """The settlement as plain dicts and lists (API.md "Settlement")."""
        return {
            "totals": list(self.totals),
            "fouled": list(self.fouled),
            "surrendered": list(self.surrendered),
            "specials": [
                None if s is None else {"key": s.key, "units": s.units, "tier": s.tier} for s in self.specials
            ],
            "scoops": [list(pair) for pair in self.scoops],
            "home_runs": list(self.home_runs),
            "pairs": [pair.to_dict() for pair in self.pairs],
            "reveal": [{"lane": lane, "order": list(order)} for lane, order in self.reveal],
        }


Submission = Union[Arrangement, Declaration]


def _check_seat_args(
    n: int, rules: Any, banker: int, stakes: Optional[Sequence[int]], surrendered: Iterable[int]
) -> Tuple[List[int], List[int]]:
    """Validate banker, stakes and surrendered; return (stakes, sorted surrendered seats)."""
    if not isinstance(banker, int) or isinstance(banker, bool) or not 0 <= banker < n:
        raise ThirteenError(f"banker seat {banker!r} is not a seat of a {n}-player table")
    if stakes is None:
        stake_list = [1] * n
    else:
        stake_list = list(stakes)
        if len(stake_list) != n:
            raise CountError(f"expected {n} stakes, got {len(stake_list)}", expected=n, got=len(stake_list))
        for seat, stake in enumerate(stake_list):
            _bounded(stake, f"stakes[{seat}]", 1, MAX_STAKE_MULTIPLIER)
    seats = sorted(set(surrendered))
    for seat in seats:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise SurrenderError(f"surrendered seat {seat!r} is not a seat", player=seat)
        if not rules.surrender.allowed:
            raise SurrenderError(f"player {seat} surrendered: the rules do not allow surrender", player=seat)
    return stake_list, seats


def settle(
    submissions: Sequence[Submission],
    rules: Any,
    *,
    banker: int = 0,
    stakes: Optional[Sequence[int]] = None,
    surrendered: Iterable[int] = (),
) -> Settlement:
    """Settle one round (RULES.md 5).

    Args:
        submissions: per seat, an :class:`Arrangement` or a :class:`Declaration`.
        rules: the rule set (``None`` = default).
        banker: the banker's (庄家) seat, used when ``rules.mode == "banker"``.
        stakes: per seat, the player's stake multiplier (int >= 1, default 1);
            used in banker mode only, the banker's own entry is ignored.
        surrendered: seats that surrendered (only when ``rules.surrender.allowed``).

    Validation comes before any scoring, in this order, the first offender named:
    table size (``PlayerCountError``); the banker seat (``ThirteenError``), the
    stakes (``CountError`` for the wrong length, ``ThirteenError`` for a bad
    value) and the surrendered seats (``SurrenderError``); each seat's 13 cards
    (``CountError(player=)``); cards repeated across the table beyond the deck
    (``DuplicateCardError(card=, player=)``: seats in order, each in front,
    middle, back order); declarations (``FalseSpecialError``); under
    ``foul = "reject"`` the lowest fouled seat that did not surrender (``FouledError``).

    Returns:
        A :class:`Settlement`; its ``totals`` (units) sum to 0.
    """
    rules = resolve(rules)
    subs = list(submissions)
    rules.check_players(len(subs))
    return _settle(
        subs, rules, banker=banker, stakes=stakes, surrendered=surrendered, dealt_in=len(subs)
    )


def _settle(
    subs: List[Submission],
    rules: Any,
    *,
    banker: int,
    stakes: Optional[Sequence[int]],
    surrendered: Iterable[int],
    dealt_in: int,
) -> Settlement:
    """:func:`settle` of a table whose size is known to be fine, a home run counting
    ``dealt_in`` players (those dealt in, leavers included)."""
    n = len(subs)

    # --- validation: nothing is scored before every check passed ---------------
    for seat, sub in enumerate(subs):
        if not isinstance(sub, (Arrangement, Declaration)):
            raise TypeError(f"seat {seat}: expected Arrangement or Declaration, got {type(sub).__name__}")
    stake_list, surrendered_seats = _check_seat_args(n, rules, banker, stakes, surrendered)
    gone = set(surrendered_seats)

    for seat, sub in enumerate(subs):
        if len(sub.cards) != 13:
            raise CountError(
                f"player {seat} has {len(sub.cards)} cards, expected 13", expected=13, got=len(sub.cards), player=seat
            )

    seen: Dict[int, int] = {}
    for seat, sub in enumerate(subs):
        for card in sub.cards:  # an Arrangement's cards are front, middle, back
            seen[card.code] = seen.get(card.code, 0) + 1
            if seen[card.code] > copies_in_deck(card, rules):
                raise DuplicateCardError(f"duplicate card {card} (player {seat})", card=str(card), player=seat)

    declared: Dict[int, SpecialHand] = {}
    for seat, sub in enumerate(subs):
        if not isinstance(sub, Declaration):
            continue
        held = held_specials(sub.cards, rules)
        if sub.special is not None and (sub.special not in rules.specials or sub.special not in held):
            raise FalseSpecialError(
                f"player {seat} declared {sub.special!r}, which the rules do not recognise or the cards do not hold",
                player=seat,
                special=sub.special,
            )
        if not held:
            raise FalseSpecialError(
                f"player {seat} declared a special but holds none the rules recognise",
                player=seat,
                special=sub.special,
            )
        special = find_special(sub.cards, rules)
        assert special is not None
        declared[seat] = special

    values: Dict[int, Tuple[HandValue, ...]] = {}
    fouled: List[int] = []
    for seat, sub in enumerate(subs):
        if isinstance(sub, Arrangement) and seat not in gone:
            values[seat] = tuple(_value(lane, rules.wheel) for lane in sub.lanes)
            front, middle, back = values[seat]
            if not (front <= middle <= back):
                fouled.append(seat)
    if fouled and rules.foul == "reject":
        seat = fouled[0]
        front, middle, back = values[seat]
        where = "front > middle" if front > middle else "middle > back"
        raise FouledError(f"player {seat} fouled: {where}", player=seat)

    # --- the compared pairs ---------------------------------------------------
    if rules.mode == "banker":
        pairs = sorted((min(banker, p), max(banker, p)) for p in range(n) if p != banker)
    else:
        pairs = list(combinations(range(n), 2))
    table = _Table(subs, rules, banker, gone, values, fouled, declared)

    # Steps 1 to 6, per pair.
    partial: Dict[Tuple[int, int], Dict[str, Any]] = {}
    scoops: List[Tuple[int, int]] = []
    for a, b in pairs:
        partial[(a, b)] = table.pair(a, b, scoops)

    # Steps 7 to 9, over the table.
    home_runs = table.home_runs(scoops, dealt_in)
    for (a, b), entry in partial.items():
        steps = entry["steps"]
        if not entry["surrender"]:
            for p in home_runs:
                if p in (a, b):
                    steps["home_run"] = home_run_pays(rules, p == a, sum(steps.values()))
            if table.horse_held(a, b):
                steps["horse"] = horse_pays(rules, sum(steps.values()))
        if rules.mode == "banker":
            player = b if a == banker else a
            steps["stake"] = stake_pays(stake_list[player], sum(steps.values()))

    # --- results ----------------------------------------------------------------
    totals = [0] * n
    pair_results = []
    for (a, b), entry in partial.items():
        total = sum(entry["steps"].values())
        totals[a] += total
        totals[b] -= total
        pair_results.append(
            PairResult(
                seats=(a, b),
                lanes=tuple(entry["lanes"]),
                steps=tuple((name, entry["steps"][name]) for name in STEPS),
                total=total,
            )
        )

    shown = [seat for seat in range(n) if seat in values and seat not in fouled]
    reveal = tuple(
        (lane, tuple(sorted(shown, key=lambda seat: values[seat][i])))  # stable: ties keep seat order
        for i, lane in enumerate(LANES)
    )
    return Settlement(
        totals=tuple(totals),
        fouled=tuple(fouled),
        surrendered=tuple(surrendered_seats),
        specials=tuple(declared.get(seat) if seat not in gone else None for seat in range(n)),
        scoops=tuple(sorted(scoops)),
        home_runs=tuple(sorted(home_runs)),
        pairs=tuple(pair_results),
        reveal=reveal,
    )


# --- what each rule pays (RULES.md 5), signed from the lower seat A's side ----------


def surrender_pays(rules: Any, a_gone: bool, b_gone: bool) -> int:
    """Step 1: a surrendered player pays ``surrender.units`` to one who did not."""
    if a_gone and not b_gone:
        return -int(rules.surrender.units)
    if b_gone and not a_gone:
        return int(rules.surrender.units)
    return 0


def specials_pays(sa: Optional[SpecialHand], sb: Optional[SpecialHand]) -> int:
    """Step 2: one declarer collects its value; of two, the higher tier its own (RULES.md 4)."""
    if sa is not None and sb is None:
        return sa.units
    if sb is not None and sa is None:
        return -sb.units
    if sa is not None and sb is not None:
        order = compare_specials(sa, sb)
        return sa.units if order > 0 else -sb.units if order < 0 else 0
    return 0


def majority_pays(rules: Any, won_a: int, won_b: int) -> int:
    """Step 5: ``majority_bonus`` to the side that won more lanes (draws count for neither)."""
    if won_a > won_b:
        return int(rules.majority_bonus)
    if won_b > won_a:
        return -int(rules.majority_bonus)
    return 0


def scoop_pays(rules: Any, a_scooped: bool, so_far: int) -> int:
    """Step 6: a doubled scoop doubles the pair's result so far (lanes and majority bonus);
    a bonus scoop pays ``scoop.units`` to the scooper."""
    if rules.scoop.kind == "double":
        return so_far
    if rules.scoop.kind == "bonus":
        return int(rules.scoop.units) if a_scooped else -int(rules.scoop.units)
    return 0


def home_run_pays(rules: Any, a_hit: bool, so_far: int) -> int:
    """Step 7: a doubled home run doubles each of the hitter's results again; a bonus one
    pays ``home_run.units`` from each opponent."""
    if rules.home_run.kind == "double":
        return so_far
    if rules.home_run.kind == "bonus":
        return int(rules.home_run.units) if a_hit else -int(rules.home_run.units)
    return 0


def horse_pays(rules: Any, so_far: int) -> int:
    """Step 8: the pair's result doubles once when either side holds the horse card."""
    return so_far


def stake_pays(stake: int, so_far: int) -> int:
    """Step 9: a banker–player result is multiplied by the player's stake."""
    return so_far * (stake - 1)


class _Table:
    """The seats of a checked table, as the steps read them."""

    def __init__(self, subs: List[Submission], rules: Any, banker: int, gone: Set[int],
                 values: Dict[int, Tuple[HandValue, ...]], fouled: List[int],
                 declared: Dict[int, SpecialHand]) -> None:
        self.subs, self.rules, self.banker, self.gone = subs, rules, banker, gone
        self.values, self.fouled, self.declared = values, fouled, declared

    def pair(self, a: int, b: int, scoops: List[Tuple[int, int]]) -> Dict[str, Any]:
        """Steps 1 to 6 of the pair ``a < b``; a scoop is appended to ``scoops``."""
        rules = self.rules
        steps = dict.fromkeys(STEPS, 0)
        lanes: List[LaneResult] = []
        entry: Dict[str, Any] = {"steps": steps, "lanes": lanes, "surrender": False}
        # 1. Surrender.
        if a in self.gone or b in self.gone:
            entry["surrender"] = True
            steps["surrender"] = surrender_pays(rules, a in self.gone, b in self.gone)
            return entry
        # 2. Specials.
        if a in self.declared or b in self.declared:
            steps["special"] = specials_pays(self.declared.get(a), self.declared.get(b))
            return entry
        # 3. Both fouled (lose_all): 0, the lanes are not compared.
        foul_a, foul_b = a in self.fouled, b in self.fouled
        if foul_a and foul_b:
            lanes.extend(LaneResult(lane, None, None, 0) for lane in LANES)
            return entry
        # 4. Lanes.
        won = {a: 0, b: 0}
        for i, lane in enumerate(LANES):
            result = self.lane(a, b, i, lane)
            lanes.append(result)
            if result.winner is not None:
                won[result.winner] += 1
                steps["lanes"] += result.units if result.winner == a else -result.units
        # 5. Majority bonus.
        steps["majority"] = majority_pays(rules, won[a], won[b])
        # 6. Scoop (打枪): all three lanes won; a foul only when foul_counts_as_scoop.
        scooper = a if won[a] == 3 else b if won[b] == 3 else None
        if scooper is not None and (foul_a or foul_b) and not rules.foul_counts_as_scoop:
            scooper = None
        if scooper is not None:
            scoops.append((scooper, b if scooper == a else a))
            steps["scoop"] = scoop_pays(rules, scooper == a, steps["lanes"] + steps["majority"])
        return entry

    def lane(self, a: int, b: int, i: int, lane: str) -> LaneResult:
        """Step 4, one lane: who wins it (a fouled player loses it) and the value collected."""
        rules = self.rules
        if a in self.fouled or b in self.fouled:
            winner: Optional[int] = b if a in self.fouled else a
        else:
            sub_a, sub_b = self.subs[a], self.subs[b]
            assert isinstance(sub_a, Arrangement) and isinstance(sub_b, Arrangement)
            cmp = _compare_values(sub_a.lanes[i], self.values[a][i], sub_b.lanes[i], self.values[b][i], rules)
            if cmp == 0 and rules.mode == "banker" and rules.banker_wins_ties:
                cmp = 1 if a == self.banker else -1  # the banker wins a drawn lane (luosong)
            winner = a if cmp > 0 else b if cmp < 0 else None
        if winner is None:
            return LaneResult(lane, None, None, 0)
        category = self.values[winner][i].category.key
        return LaneResult(lane, winner, category, int(rules.lane_value(lane, category)))

    def home_runs(self, scoops: List[Tuple[int, int]], dealt_in: int) -> List[int]:
        """Step 7: who scooped every other player still in, at a table of at least
        ``home_run.min_players`` dealt in (a declared special blocks it)."""
        hr = self.rules.home_run
        n = len(self.subs)
        if hr.kind == "none" or dealt_in < (hr.min_players or 0):
            return []
        candidates = [self.banker] if self.rules.mode == "banker" else list(range(n))
        hits = []
        for p in candidates:
            if p in self.gone or p in self.declared:
                continue
            opponents = [q for q in range(n) if q != p and q not in self.gone]
            if opponents and all((p, q) in scoops for q in opponents):
                hits.append(p)
        return hits

    def horse_held(self, a: int, b: int) -> bool:
        """Step 8: whether either side holds the horse card among its 13 cards."""
        if self.rules.horse_card is None:
            return False
        horse = Card.parse(self.rules.horse_card)
        return horse in self.subs[a].cards or horse in self.subs[b].cards


def settle_round(
    submissions: Sequence[Optional[Submission]],
    rules: Any,
    *,
    escaped: Sequence[int] = (),
    banker: int = 0,
    stakes: Optional[Sequence[int]] = None,
    surrendered: Iterable[int] = (),
) -> Tuple[Optional[Settlement], List[int], List[int]]:
    """Settle a round some players left (逃跑 / 强退, RULES.md 5 "Escape").

    Args:
        submissions: per seat dealt in, an :class:`Arrangement` or a :class:`Declaration`;
            ``None`` for a seat that left.
        rules: the rule set (``None`` = default).
        escaped: the seats that left, in the order they left.
        banker, stakes, surrendered: as for :func:`settle`, naming the round's seats.

    Returns:
        ``(settlement, results, escape)``: the settlement of the seats still in, settled
        among themselves whatever their number (``None`` when fewer than two are in, or
        the banker left in banker mode), its seat ``i`` being the ``i``-th seat still in;
        each seat's units from it (0 for a leaver); each seat's escape payments. A home
        run counts the players dealt in, leavers included (RULES.md 5 step 7). Each leaver
        pays the escape penalty on its own, and only the seats still in receive.

    Raises:
        PlayerCountError: a number of seats dealt in the rules do not allow.
        ThirteenError: a leaver that is not a seat or is named twice, no seat left in, a
            submission missing for a seat still in or given for a leaver.
        SurrenderError, and the errors of :func:`settle` for the seats still in.
    """
    rules = resolve(rules)
    subs = list(submissions)
    n = len(subs)
    rules.check_players(n)
    leavers: List[int] = []
    for seat in escaped:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise ThirteenError(f"escaped seat {seat!r} is not a seat of a {n}-player table")
        if seat in leavers:
            raise ThirteenError(f"seat {seat} escaped twice")
        leavers.append(seat)
    if len(leavers) >= n:
        raise ThirteenError("at least one seat must stay in the round")
    stake_list, _ = _check_seat_args(n, rules, banker, stakes, ())
    still_in = [seat for seat in range(n) if seat not in leavers]
    for seat in range(n):
        if (subs[seat] is None) != (seat in leavers):
            problem = "has a submission" if seat in leavers else "has no submission"
            raise ThirteenError(f"seat {seat} {problem}")
    gone = []
    for seat in surrendered:
        if seat in leavers:
            continue  # a leaver's surrender is void
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise SurrenderError(f"surrendered seat {seat!r} is not a seat", player=seat)
        if not rules.surrender.allowed:
            raise SurrenderError(f"player {seat} surrendered: the rules do not allow surrender", player=seat)
        gone.append(still_in.index(seat))

    results = [0] * n
    settlement: Optional[Settlement] = None
    banker_left = rules.mode == "banker" and banker in leavers
    if len(still_in) >= 2 and not banker_left:
        # The seats still in, as a table of their own; the home run counts every seat dealt in.
        settlement = _settle(
            [subs[seat] for seat in still_in],  # type: ignore[misc]
            rules,
            banker=still_in.index(banker) if banker in still_in else 0,
            stakes=None if stakes is None else [stake_list[seat] for seat in still_in],
            surrendered=gone,
            dealt_in=n,
        )
        for i, seat in enumerate(still_in):
            results[seat] = settlement.totals[i]

    escape = [0] * n
    if rules.escape is not None:
        for leaver in leavers:
            paid = _escape_share(rules, leaver, results, still_in, n)
            escape = [e + p for e, p in zip(escape, paid)]
    return settlement, results, escape


def _escape_share(rules: Any, leaver: int, results: List[int], still_in: List[int], n: int) -> List[int]:
    """What ``leaver`` pays, per seat, to the seats still in (RULES.md 5 "Escape")."""
    escape = rules.escape
    if escape.to == "winner":
        amount = int(dict(escape.by_players).get(n, 0))
        best = max(results[seat] for seat in still_in)
        receivers = [seat for seat in still_in if results[seat] == best]
    else:
        amount = int(escape.units)
        receivers = list(still_in)
    return _share_out(amount, leaver, receivers, n)


def _share_out(amount: int, leaver: int, receivers: List[int], n: int) -> List[int]:
    """``amount`` from ``leaver`` to ``receivers`` in equal shares; the remainder one unit at
    a time to the receivers after the leaver in seat order, wrapping round."""
    payments = [0] * n
    share, remainder = divmod(amount, len(receivers))
    for seat in receivers:
        payments[seat] = share
    after_leaver = [(leaver + k) % n for k in range(1, n)]
    for seat in [s for s in after_leaver if s in receivers][:remainder]:
        payments[seat] += 1
    payments[leaver] = -amount
    return payments


def escape_payments(rules: Any, leaver: int, results: Sequence[Optional[int]]) -> List[int]:
    """What a player who left mid-round (逃跑 / 强退) pays, per seat (RULES.md 5 "Escape").

    Args:
        rules: its ``escape`` (``to``, ``units``, ``by_players``); ``None`` = default.
        leaver: the seat that left.
        results: per seat, the round result of the others in units (the leaver's
            entry, normally ``None``, is ignored). ``len(results)`` is the number
            of players dealt in, leaver included.

    Returns:
        Units per seat: the leaver's entry is minus the amount, the others'
        entries what they receive; the list sums to 0. ``to = "split"``: the
        amount is split equally among the others; ``to = "winner"``: paid to the
        player with the highest result, ties split equally. Remainders of an
        uneven split go one unit at a time to the receiving seats after the
        leaver, in seat order, wrapping round. Not multiplied by anything.
        With no ``escape`` rule, nothing is paid (all zeros).
    """
    rules = resolve(rules)
    n = len(results)
    if not isinstance(leaver, int) or not 0 <= leaver < n:
        raise ThirteenError(f"leaver seat {leaver!r} is not a seat of a {n}-player table")
    escape = rules.escape
    if escape is None or n < 2:
        return [0] * n
    others = [seat for seat in range(n) if seat != leaver]
    if escape.to == "winner":
        amount = int(dict(escape.by_players).get(n, 0))
        for seat in others:
            if results[seat] is None:
                raise ThirteenError(f"no result for seat {seat}")
        best = max(results[seat] for seat in others)  # type: ignore[type-var]
        receivers = [seat for seat in others if results[seat] == best]
    else:
        amount = int(escape.units)
        receivers = others
    return _share_out(amount, leaver, receivers, n)


def _integer(value: Any, key: str) -> int:
    """An int (not a bool), else ``TypeError``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{key}: expected an integer, got {type(value).__name__}")
    return value


def _bounded(value: Any, key: str, minimum: int, maximum: Optional[int]) -> int:
    """An int from ``minimum`` to ``maximum`` (``None``: unbounded), else ``LimitError``."""
    number = _integer(value, key)
    if number < minimum or (maximum is not None and number > maximum):
        upper = f"from {minimum} to {maximum}" if maximum is not None else f">= {minimum}"
        raise LimitError(
            f"{key} must be an integer {upper}, got {number}",
            key=key, value=str(number), minimum=minimum, maximum=maximum,
        )
    return number


_DECIMAL = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?")
_PERCENT_DECIMALS = 9


def _percent(value: Union[int, str, float]) -> Fraction:
    """A rake percentage as an exact fraction ("2.5" -> 5/2), from 0 to 100.

    An int, a float (read as written: its ``repr``) or a decimal string with at most nine
    significant decimals; anything else is a ``ThirteenError``, a number outside 0..100 a
    ``LimitError``.
    """
    if type(value) is float:
        text = repr(value)
    elif type(value) is int or isinstance(value, str):
        text = str(value).strip()
    else:
        text = ""
    match = _DECIMAL.fullmatch(text)
    whole, decimals = (match.group(2), (match.group(3) or "").rstrip("0")) if match else ("", "")
    if not match or not (whole or match.group(3)) or len(decimals) > _PERCENT_DECIMALS:
        raise ThirteenError(f"bad rake percent {value!r}")
    percent = Fraction(f"{match.group(1)}{whole or 0}.{decimals or 0}")
    if not 0 <= percent <= 100:
        raise LimitError(
            f"rake percent must be from 0 to 100, got {text}",
            key="rake percent", value=text, minimum=0, maximum=100,
        )
    return percent


def money(units: Sequence[int], stake: int, rake: Optional[Tuple[Union[int, str], Optional[int]]] = None) -> List[int]:
    """Units to money in integer minor currency units (RULES.md 5 "Money").

    Args:
        units: per player, the round's units (escape payments included), each within
            ±``MAX_UNITS``.
        stake: the table's stake, minor currency units per unit (0 to ``MAX_STAKE``).
        rake: ``(percent, cap)`` or None. ``percent`` is an int or a decimal string
            ("2.5") from 0 to 100; ``cap`` the most taken from one player (an int >= 0,
            or None: no cap).

    Returns:
        Per player ``units * stake``, less the rake (服务费) from a positive amount:
        ``floor(amount * percent / 100)``, at most ``cap``. Losers pay in full.

    Raises:
        TypeError: a stake, unit or cap that is not an int. LimitError: one outside its
        bounds. ThirteenError: a percentage that is not a decimal number.
    """
    _bounded(stake, "stake", 0, MAX_STAKE)
    for u in units:
        _bounded(u, "units", -MAX_UNITS, MAX_UNITS)
    amounts = [u * stake for u in units]
    if rake is None:
        return amounts
    if not isinstance(rake, tuple) or len(rake) != 2:
        raise TypeError("rake must be a (percent, cap) pair or None")
    percent_value, cap = rake
    percent = _percent(percent_value)
    if cap is not None:
        _bounded(cap, "rake cap", 0, None)
    out = []
    for amount in amounts:
        if amount > 0:
            fee = math.floor(amount * percent / 100)
            if cap is not None:
                fee = min(fee, cap)
            amount -= fee
        out.append(amount)
    return out
