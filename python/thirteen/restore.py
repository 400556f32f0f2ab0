"""Restoring a saved round or table, and refusing one that play could not have reached.

:func:`round_from` and :func:`table_from` read the save's shape with
:func:`thirteen.saves.shape`, then check its state before handing it back:

* the deal: each hand has ``rules.dealt`` cards, no card more often than the deck has it
  (RULES.md 1), the cut gives the first seat (RULES.md 7.2), and with a seed the hands,
  the cut and the first seat are the seed's deal (:func:`thirteen.deal`); the current
  hands are the dealt ones, or after swap-three (换三张) the seed's swap of the gifts
  (without a seed: the same cards, each seat keeping what it did not give);
* the phase: a new round holds nothing; a swap round has no plays; a round in progress
  has no result; a settled round has a play for every seat still in and a result equal
  to settling those plays again (RULES.md 5), so a result cannot be edited and a round
  with one cannot be put back to arranging;
* the seats: escaped, surrendered and disconnected seats in range and listed once,
  escapes and surrenders only under rules that have them, at least one seat left, every
  play valid for its seat (its own 13 cards, not fouled under ``foul = "reject"``, a
  declared special held) and none for a seat that left or surrendered;
* a table: players and seats unique and in range, its round dealt and not settled,
  under the table's rules, stake and rake, dealt to seated players in seat order, and
  the players' flags (left, disconnected, standing up) matching the round.

Any failure is a :class:`~thirteen.errors.SaveError` naming the field (``key``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, List, NoReturn, Optional, Sequence, Tuple, Type

import msgspec

from thirteen import _core
from thirteen._core import Arrangement, Card, Declaration
from thirteen._plain import short, too_nested
from thirteen.errors import SaveError, ThirteenError
from thirteen.ladder import Ladder
from thirteen.rules import RuleSet
from thirteen.saves import LadderSave, RoundSave, SubmissionSave, TableSave, shape

if TYPE_CHECKING:
    from thirteen.round import Round
    from thirteen.table import Table

__all__ = ["round_from", "table_from"]


#: What reading a save may raise besides SaveError: the engine's errors, and text or
#: numbers the core cannot take.
_UNSETTLED = (ThirteenError, UnicodeError, OverflowError)


def _bad(key: str, problem: str) -> NoReturn:
    raise SaveError(f"saved round {key}: {problem}", key=key)


def _from(key: str, exc: BaseException, what: str = "round") -> SaveError:
    message = exc.message if isinstance(exc, ThirteenError) else str(exc)
    return SaveError(f"saved {what} {key}: {message}", key=key)


def _rules(data: Any, what: str) -> RuleSet:
    try:
        return RuleSet.from_dict(data)
    except _UNSETTLED as exc:
        raise _from("rules", exc, what) from exc


# ----------------------------------------------------------------------------- rounds


def round_from(cls: Type[Round], data: Any) -> Round:
    """The :class:`~thirteen.Round` a save describes (see the module docstring).

    Raises:
        SaveError: a save of the wrong shape or an unreachable state.
    """
    save = shape(data, RoundSave)
    rules = _rules(save.rules, "round")
    try:
        rnd = cls(
            rules,
            save.players,
            stakes=save.stakes,
            banker=save.banker,
            seed=save.seed,
            stake=save.stake,
            rake=save.rake,
        )
    except (*_UNSETTLED, TypeError) as exc:
        raise SaveError(f"saved round: {short(str(exc))}") from exc
    try:
        _Restore(rnd, save).run()
    except SaveError:
        raise
    except _UNSETTLED as exc:
        # Any other failure while replaying the save (the deal, the plays, settling its
        # result again) means play could not have reached it.
        raise SaveError(f"saved round: {short(str(exc))}") from exc
    return rnd


def _cards(text: str, key: str) -> Tuple[Card, ...]:
    try:
        return tuple(_core.parse_cards(text)) if text else ()
    except ThirteenError as exc:
        raise _from(key, exc) from exc


def _count_value(card: Card) -> int:
    """The cut card's count (RULES.md 7.2): A = 1, 2..10, J = 11, Q = 12, K = 13."""
    rank = int(card.rank)
    return 1 if rank == 14 else rank


class _Restore:
    """The checks of one saved round, in the order the round's state was built."""

    def __init__(self, rnd: Round, save: RoundSave) -> None:
        self.rnd = rnd
        self.save = save
        self.rules = rnd.rules
        self.n = rnd.seats

    def run(self) -> None:
        save, n = self.save, self.n
        for name in ("given", "submissions", "auto"):
            if len(getattr(save, name)) != n:
                _bad(name, f"expected one entry per seat ({n}), got {len(getattr(save, name))}")
        escaped = self._seats("escaped")
        surrendered = self._seats("surrendered")
        disconnected = self._seats("disconnected")
        if save.phase == "new":
            self._new()
            return
        self._deal()
        self._hands()
        self._leavers(escaped, surrendered, disconnected)
        rnd = self.rnd
        rnd._phase = save.phase
        rnd._escaped = list(escaped)
        rnd._surrendered = set(surrendered)
        rnd._disconnected = set(disconnected)
        self._plays()
        if save.phase == "settled":
            self._result()
        elif save.result is not None:
            _bad("result", f"a round in phase {save.phase!r} has no result (it was settled)")

    # -------------------------------------------------------------- parts of the state

    def _seats(self, name: str) -> List[int]:
        seats: List[int] = getattr(self.save, name)
        for i, seat in enumerate(seats):
            if not 0 <= seat < self.n:
                _bad(f"{name}[{i}]", f"{seat} is not a seat of this {self.n}-player round")
        for seat, count in Counter(seats).items():
            if count > 1:
                _bad(name, f"seat {seat} is listed twice")
        return seats

    def _new(self) -> None:
        save = self.save
        held = (
            save.deal, save.hands, save.result, *save.given, *save.submissions, *save.auto,
            *save.surrendered, *save.escaped, *save.disconnected,
        )  # fmt: skip
        if any(item is not None and item != [] for item in held):
            _bad("phase", "a new round has no deal, hands, plays, leavers or result")

    def _deal(self) -> None:
        save, rules, n, rnd = self.save, self.rules, self.n, self.rnd
        deal = save.deal
        if deal is None or save.hands is None:
            _bad("deal", f"a round in phase {save.phase!r} was dealt: deal and hands are missing")
        if len(deal.hands) != n:
            _bad("deal.hands", f"expected one hand per seat ({n}), got {len(deal.hands)}")
        dealt = [_cards(h, f"deal.hands[{s}]") for s, h in enumerate(deal.hands)]
        for s, hand in enumerate(dealt):
            if len(hand) != rules.dealt:
                _bad(f"deal.hands[{s}]", f"{len(hand)} cards; the rules deal {rules.dealt}")
        every = [card for hand in dealt for card in hand]
        try:
            _core.validate_hand(every, rules, len(every))
        except ThirteenError as exc:
            card = getattr(exc, "card", None)
            _bad("deal.hands", f"{card} is dealt more often than the deck has it ({exc})")
        cut_card = None if deal.cut_card is None else _cards(deal.cut_card, "deal.cut_card")
        if cut_card is not None and len(cut_card) != 1:
            _bad("deal.cut_card", "the cut card is one card")
        cut = None if cut_card is None else cut_card[0]
        if save.seed is not None:
            fresh = _core.deal(rules, n, save.seed)
            if (
                [tuple(h) for h in fresh.hands] != dealt
                or fresh.cut_card != cut
                or fresh.cut_start != deal.cut_start
                or fresh.first != deal.first
            ):
                _bad("deal", f"the hands, cut and first seat are not the deal of seed {save.seed}")
        elif rules.cut:
            if cut is None or deal.cut_start is None:
                _bad(
                    "deal.cut_card",
                    "the rules cut the deck (切牌): the cut card and its start are missing",
                )
            if not 0 <= deal.cut_start < n:
                _bad("deal.cut_start", f"{deal.cut_start} is not a seat")
            first = (deal.cut_start + _count_value(cut) - 1) % n
            if deal.first != first:
                _bad(
                    "deal.first",
                    f"the cut card {cut} counted from seat {deal.cut_start} gives seat "
                    f"{first} first, not {short(deal.first)}",
                )
        elif cut is not None or deal.cut_start is not None or deal.first != 0:
            _bad("deal", "the rules do not cut the deck: no cut card, and seat 0 is dealt first")
        rnd._dealt = list(dealt)
        rnd._cut_card = cut
        rnd._cut_start = deal.cut_start
        rnd._first = deal.first

    def _hands(self) -> None:
        save, rules, n, rnd = self.save, self.rules, self.n, self.rnd
        assert save.hands is not None and rnd._dealt is not None
        dealt = rnd._dealt
        if len(save.hands) != n:
            _bad("hands", f"expected one hand per seat ({n}), got {len(save.hands)}")
        hands = [_cards(h, f"hands[{s}]") for s, h in enumerate(save.hands)]
        given: List[Optional[Tuple[Card, ...]]] = []
        for s, text in enumerate(save.given):
            if text is None:
                given.append(None)
                continue
            if rules.swap is None or save.phase == "new":
                _bad(f"given[{s}]", "only swap-three (换三张) rules give cards")
            cards = _cards(text, f"given[{s}]")
            if len(cards) > rules.swap.max_cards:
                _bad(
                    f"given[{s}]",
                    f"{len(cards)} cards; swap-three gives at most {rules.swap.max_cards}",
                )
            missing = Counter(cards) - Counter(dealt[s])
            if missing:
                _bad(f"given[{s}]", f"seat {s} does not hold {next(iter(missing))} to give")
            given.append(cards)
        if save.phase == "swap":
            if rules.swap is None:
                _bad("phase", "only swap-three (换三张) rules have a swap phase")
            if hands != dealt:
                _bad("hands", "before the swap the hands are the cards dealt")
        elif rules.swap is None:
            if hands != dealt:
                _bad("hands", "the hands are not the cards dealt")
        elif save.seed is not None:
            gifts = [list(g or ()) for g in given]
            fresh = [tuple(h) for h in _core.swap_cards(dealt, gifts, rules, save.seed)]
            if hands != fresh:
                _bad("hands", f"the hands are not the swap of seed {save.seed} of the gifts")
        else:
            pool_in = Counter(card for hand in dealt for card in hand)
            pool_out = Counter(card for hand in hands for card in hand)
            kept_ok = all(
                not (Counter(dealt[s]) - Counter(given[s] or ()) - Counter(hands[s]))
                and len(hands[s]) == len(dealt[s])
                for s in range(n)
            )
            if pool_in != pool_out or not kept_ok:
                _bad("hands", "the hands are not a swap of the cards dealt and given")
        rnd._hands = hands
        rnd._given = given

    def _leavers(
        self, escaped: Sequence[int], surrendered: Sequence[int], disconnected: Sequence[int]
    ) -> None:
        rules, save = self.rules, self.save
        if escaped and rules.escape is None:
            _bad("escaped", "the rules have no escape: a leaver is auto-arranged instead")
        if len(escaped) >= self.n:
            _bad("escaped", "at least one seat must stay in the round")
        for seat in escaped:
            if seat in disconnected or seat in surrendered:
                _bad(
                    "escaped",
                    f"seat {seat} left the round: it is neither disconnected nor surrendered",
                )
        if surrendered and not rules.surrender.allowed:
            _bad("surrendered", f"the rule set {rules.name!r} does not allow surrender")
        if surrendered and save.phase == "swap":
            _bad("surrendered", "a seat surrenders instead of arranging, not during the swap")

    def _plays(self) -> None:
        save, rnd = self.save, self.rnd
        subs: List[Any] = []
        for s, entry in enumerate(save.submissions):
            key = f"submissions[{s}]"
            if entry is None:
                subs.append(None)
                continue
            if save.phase == "swap":
                _bad(key, "nobody plays before the swap is over")
            if s in rnd._escaped:
                _bad(key, f"seat {s} left the round: it has no play")
            if s in rnd._surrendered:
                _bad(key, f"seat {s} surrendered: it has no play")
            sub = self._play(entry, key)
            try:
                rnd._validate(s, sub)
            except ThirteenError as exc:
                raise _from(key, exc) from exc
            subs.append(sub)
        for s, reason in enumerate(save.auto):
            if reason is not None and subs[s] is None:
                _bad(f"auto[{s}]", f"seat {s} was auto-arranged (代打) but has no play")
        rnd._subs = subs
        rnd._auto = list(save.auto)

    def _play(self, entry: SubmissionSave, key: str) -> Any:
        lanes = (entry.front, entry.middle, entry.back)
        try:
            if (
                all(lane is not None for lane in lanes)
                and entry.special is None
                and entry.cards is None
            ):
                front, middle, back = (_cards(lane or "", key) for lane in lanes)
                return Arrangement(front, middle, back, self.rules)
            if entry.cards is not None and all(lane is None for lane in lanes):
                return Declaration(_cards(entry.cards, key), entry.special)
        except ThirteenError as exc:
            raise _from(key, exc) from exc
        _bad(key, "a play is front, middle and back, or the cards of a declared special")

    def _result(self) -> None:
        save, rnd, n = self.save, self.rnd, self.n
        if rnd.missing:
            _bad(
                "submissions",
                f"a settled round has a play for every seat still in; seat {rnd.missing[0]} has none",
            )
        saved = save.result
        if saved is None:
            _bad("result", "a settled round has its result")
        if saved.settlement is not None and too_nested(saved.settlement, 8):
            _bad("result.settlement", "nested deeper than a settlement is")
        subs, auto = list(rnd._subs), list(rnd._auto)
        plain = rnd._outcome(subs, auto, None, 1)
        before = None
        floor = 1
        if saved.balances is not None:
            if len(saved.balances) != n:
                _bad("result.balances", f"expected one per seat ({n}), got {len(saved.balances)}")
            before = [a - m for a, m in zip(saved.balances, plain.money)]
            if any(not 0 <= s < n for s in saved.bankrupt):
                _bad("result.bankrupt", "a bankrupt seat is not a seat of the round")
            low = [saved.balances[s] for s in saved.bankrupt]
            floor = max(low) + 1 if low else min(saved.balances)
        expected = rnd._outcome(subs, auto, before, floor)
        mine = expected.to_dict()
        for field, value in mine.items():
            if getattr(saved, field) != value:
                _bad(
                    f"result.{field}", f"the saved result's {field} is not what the plays settle to"
                )
        rnd._result = expected


# ----------------------------------------------------------------------------- tables


def _ladder(value: Any, key: str) -> Any:
    if isinstance(value, LadderSave):
        try:
            return Ladder.from_dict(msgspec.to_builtins(value))
        except ThirteenError as exc:
            raise _from(key, exc, "table") from exc
    return value


def table_from(cls: Type[Table], data: Any) -> Table:
    """The :class:`~thirteen.Table` a save describes (see the module docstring).

    Raises:
        SaveError: a save of the wrong shape or an unreachable state.
    """
    save = shape(data, TableSave)
    rules = _rules(save.rules, "table")
    try:
        table = cls(
            rules,
            seats=save.size,
            stake=save.stake,
            rake=save.rake,
            min_balance=save.min_balance,
            money_ladder=_ladder(save.money_ladder, "money_ladder"),
            points_ladder=_ladder(save.points_ladder, "points_ladder"),
        )
    except (*_UNSETTLED, TypeError) as exc:
        raise SaveError(f"saved table: {short(str(exc))}") from exc
    try:
        return _table(table, save)
    except SaveError:
        raise
    except _UNSETTLED as exc:
        raise SaveError(f"saved table: {short(str(exc))}") from exc


def _table(table: Table, save: TableSave) -> Table:
    from thirteen.round import Round
    from thirteen.table import TablePlayer

    if save.rounds_played < 0:
        _bad_table("rounds_played", f"must be at least 0, got {save.rounds_played}")
    rnd = None
    if save.round is not None:
        try:
            rnd = Round.from_dict(save.round)
        except SaveError as exc:
            inner = f"round.{exc.key}" if exc.key else "round"
            raise SaveError(f"saved table: {exc.message}", key=inner) from exc
        _check_round(table, rnd)
    for i, entry in enumerate(save.players):
        where = f"players[{i}]"
        if not 0 <= entry.seat < table.size:
            _bad_table(
                f"{where}.seat", f"{entry.seat} is not a seat of this {table.size}-seat table"
            )
        if table._seats[entry.seat] is not None:
            _bad_table(f"{where}.seat", f"two players in seat {entry.seat}")
        if entry.player in table._info:
            _bad_table(f"{where}.player", f"player {short(entry.player)} is seated twice")
        info = TablePlayer(
            entry.player, entry.seat, entry.balance, entry.points,
            entry.stand_after_round, entry.disconnected, entry.left,
        )  # fmt: skip
        _check_flags(info, rnd, where)
        table._seats[entry.seat] = entry.player
        table._info[entry.player] = info
    if rnd is not None:
        seats = []
        for p in rnd.players:
            if p not in table._info:
                _bad_table("round.players", f"player {short(p)} of the round is not seated")
            seats.append(table._info[p].seat)
        if seats != sorted(seats):
            _bad_table("round.players", "the round is dealt to the seated players in seat order")
    table._rounds_played = save.rounds_played
    table._round = rnd
    return table


def _bad_table(key: str, problem: str) -> NoReturn:
    raise SaveError(f"saved table {key}: {problem}", key=key)


def _check_round(table: Table, rnd: Round) -> None:
    if rnd.phase in ("new", "settled"):
        _bad_table(
            "round.phase",
            f"a table's round in progress is dealt and not settled (finish_round ends it), "
            f"not {rnd.phase!r}",
        )
    if rnd.rules != table.rules:
        _bad_table("round.rules", "the round's rules are not the table's")
    if rnd.stake != table.stake:
        _bad_table("round.stake", f"the round's stake {rnd.stake} is not the table's {table.stake}")
    if rnd.rake != table.rake:
        _bad_table("round.rake", "the round's rake is not the table's")


def _check_flags(info: Any, rnd: Optional[Round], where: str) -> None:
    flags = info.stand_after_round or info.disconnected or info.left
    seat = None if rnd is None or info.player not in rnd.players else rnd.players.index(info.player)
    if seat is None:
        if flags:
            _bad_table(
                where,
                "only a player dealt in to the round in progress stands up later, "
                "is disconnected or has left",
            )
        return
    assert rnd is not None
    if info.left and info.disconnected:
        _bad_table(where, "a player who left is not disconnected")
    if rnd.rules.escape is None:
        # No escape rule: a player who leaves is auto-arranged like a disconnected seat
        # (RULES.md 5 "Escape"), so the round's disconnected seat is a player who left or
        # one who lost the connection, as the table's flags say.
        away = seat in rnd.disconnected
        if (info.left or info.disconnected) != away:
            field = "left" if info.left else "disconnected"
            _bad_table(
                f"{where}.{field}",
                f"the round says seat {seat} is {'' if away else 'not '}disconnected "
                f"(with no escape rule a player who left is too)",
            )
        return
    gone = seat in rnd.escaped
    if info.left != gone:
        _bad_table(
            f"{where}.left", f"the round says seat {seat} {'has' if gone else 'has not'} left"
        )
    if gone:
        return
    if info.disconnected != (seat in rnd.disconnected):
        _bad_table(
            f"{where}.disconnected",
            f"the round says seat {seat} is "
            f"{'' if seat in rnd.disconnected else 'not '}disconnected",
        )
