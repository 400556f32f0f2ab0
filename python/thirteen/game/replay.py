"""A save loaded by replaying it: the round or table a save describes is built again
through the public methods, in an order play could have called them (pokerkit rebuilds a
state from its operations the same way). The methods' checks are the checks of a save;
a refusal is a :class:`~thirteen.errors.SaveError` whose ``key`` names the field.

The replay reads the save's encoding itself: one entry per seat, lists of distinct
seats, a settled round's recorded result (settled again and compared), and a table's
round copying its table's settings. The order: deal, gifts, (disconnections during a
swap), the swap, escapes, surrenders, plays, (other disconnections), settlement.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from types import SimpleNamespace
from typing import (
    Any,
    Callable,
    Iterator,
    List,
    NoReturn,
    Sequence,
    Tuple,
    TypeVar,
)

import msgspec

from thirteen import _core
from thirteen._core import Arrangement, Card, Declaration
from thirteen._plain import short, too_nested
from thirteen.errors import (
    CountError,
    DealError,
    DuplicateCardError,
    LimitError,
    SaveError,
    TableError,
    ThirteenError,
)
from thirteen.game._args import normal_rake
from thirteen.game.saves import (
    LadderSave,
    RoundSave,
    SubmissionSave,
    TablePlayerSave,
    TableSave,
    shape,
)
from thirteen.ladder import Ladder
from thirteen.rules import RuleSet

__all__ = ["round_from", "table_from"]

R = TypeVar("R")
T = TypeVar("T")

#: What replaying a save may raise besides SaveError: the engine's errors, and text or
#: numbers the core cannot take.
_UNSETTLED = (ThirteenError, UnicodeError, OverflowError)


def _bad(key: str, problem: str, what: str = "round") -> NoReturn:
    raise SaveError(f"saved {what} {key}: {problem}", key=key)


def _message(exc: BaseException) -> str:
    return exc.message if isinstance(exc, ThirteenError) else str(exc)


@contextlib.contextmanager
def _as(key: str, what: str = "round") -> Iterator[None]:
    """A method's refusal inside the block is the save's refusal at ``key``."""
    try:
        yield
    except SaveError:
        raise
    except _UNSETTLED as exc:
        raise SaveError(f"saved {what} {key}: {_message(exc)}", key=key) from exc


@contextlib.contextmanager
def _unsettled(what: str) -> Iterator[None]:
    """Any other failure replaying the save means play could not have reached it."""
    try:
        yield
    except SaveError:
        raise
    except _UNSETTLED as exc:
        raise SaveError(f"saved {what}: {short(str(exc))}") from exc


@contextlib.contextmanager
def _in_table_round() -> Iterator[None]:
    """A refusal of a table's round is the table's, at ``round.<key>``."""
    try:
        with _unsettled("round"):
            yield
    except SaveError as exc:
        inner = f"round.{exc.key}" if exc.key else "round"
        raise SaveError(f"saved table: {exc.message}", key=inner) from exc


def _rules(data: Any, what: str) -> RuleSet:
    with _as("rules", what):
        return RuleSet.from_dict(data)


def _cards(text: str, key: str) -> Tuple[Card, ...]:
    with _as(key):
        return tuple(_core.parse_cards(text)) if text else ()


# ----------------------------------------------------------------------------- a round


class RoundReplay:
    """The replay of one saved round onto a dealt round (a :class:`~thirteen.Round` or a
    table's :class:`~thirteen.TableRound`): :meth:`check` the encoding, :meth:`deal`,
    :meth:`play`, and :meth:`settle` a settled round."""

    def __init__(self, save: RoundSave, rules: RuleSet) -> None:
        self.save = save
        self.rules = rules
        self.n = len(save.players)

    def check(self) -> None:
        """One entry per seat, seat lists of distinct seats, and a new round holding
        nothing."""
        save, n = self.save, self.n
        for name in ("given", "submissions", "auto", "auto_given"):
            if getattr(save, name) is None:
                continue
            got = len(getattr(save, name))
            if got != n:
                _bad(name, f"expected one entry per seat ({n}), got {got}")
        for name in ("escaped", "surrendered", "disconnected"):
            seats: List[int] = getattr(save, name)
            for i, seat in enumerate(seats):
                if not 0 <= seat < n:
                    _bad(f"{name}[{i}]", f"{seat} is not a seat of this {n}-player round")
            for seat, count in Counter(seats).items():
                if count > 1:
                    _bad(name, f"seat {seat} is listed twice")
        if save.phase == "new":
            held = (
                save.deal, save.hands, save.result, *save.given, *save.submissions,
                *save.auto, *(save.auto_given or ()), *save.surrendered, *save.escaped,
                *save.disconnected,
            )  # fmt: skip
            if any(item is not None and item != [] for item in held):
                _bad("phase", "a new round has no deal, hands, plays, leavers or result")

    def dealt(self) -> Any:
        """The saved deal, read (its cards parsed), for ``Round.deal``."""
        save = self.save
        deal = save.deal
        if deal is None or save.hands is None:
            _bad("deal", f"a round in phase {save.phase!r} was dealt: deal and hands are missing")
        hands = [_cards(h, f"deal.hands[{s}]") for s, h in enumerate(deal.hands)]
        cut = None
        if deal.cut_card is not None:
            cards = _cards(deal.cut_card, "deal.cut_card")
            if len(cards) != 1:
                _bad("deal.cut_card", "the cut card is one card")
            cut = cards[0]
        return SimpleNamespace(
            hands=hands, cut_card=cut, cut_start=deal.cut_start, first=deal.first
        )

    @staticmethod
    def deal(call: Callable[[], Any]) -> Any:
        """``call()`` deals the saved deal; its refusal names the part of ``deal``."""
        try:
            return call()
        except (CountError, DuplicateCardError, DealError) as exc:
            if isinstance(exc, DealError):
                key = "deal" if exc.key is None else f"deal.{exc.key}"
            elif isinstance(exc, CountError) and exc.player is not None:
                key = f"deal.hands[{exc.player}]"
            else:
                key = "deal.hands"
            raise SaveError(f"saved round {key}: {exc.message}", key=key) from exc

    def play(self, rnd: Any, disconnect: Callable[[int], None]) -> None:
        """Gifts, swap, escapes, surrenders and plays, as play made them; ``disconnect``
        replays a seat of the saved ``disconnected`` list."""
        save, rules = self.save, self.rules
        hands = self._hands()
        auto_given = save.auto_given or [None] * self.n
        for s, text in enumerate(save.given):
            if text is not None:
                gift = _cards(text, f"given[{s}]")
                with _as(f"given[{s}]"):
                    reason = auto_given[s]
                    if reason is None:
                        rnd.give(s, gift)
                    else:
                        rnd.auto(s, reason, play=gift)
            elif auto_given[s] is not None:
                _bad(f"auto_given[{s}]", f"seat {s}'s gift was chosen by the engine but it has none")
        swapping = rules.swap is not None
        if swapping:
            self._disconnect(disconnect)
        if save.phase == "swap":
            if rnd.phase != "swap":
                _bad("phase", "only swap-three (换三张) rules have a swap phase")
            if hands != [rnd.hand(s) for s in range(self.n)]:
                _bad("hands", "before the swap the hands are the cards dealt")
        elif not swapping:
            if hands != list(rnd.dealt_hands):
                _bad("hands", "the hands are not the cards dealt")
        else:
            with _as("hands"):
                rnd.finish_swap(hands)
        self._leave(rnd)
        for s, entry in enumerate(save.submissions):
            if entry is not None:
                self._submit(rnd, s, entry)
        for s, reason in enumerate(save.auto):
            if reason is not None and save.submissions[s] is None and s not in save.surrendered:
                _bad(f"auto[{s}]", f"seat {s} was auto-arranged (代打) but has no play")
        if not swapping:
            self._disconnect(disconnect)
        for s in range(self.n):
            if (s in rnd.submissions) != (save.submissions[s] is not None):
                _bad(
                    f"submissions[{s}]",
                    f"seat {s} has no play, but it left with no escape rule while arranging, "
                    "which auto-arranges it (代打) at once",
                )
        if save.phase != "settled" and save.result is not None:
            _bad("result", f"a round in phase {save.phase!r} has no result (it was settled)")

    def _hands(self) -> List[Tuple[Card, ...]]:
        saved = self.save.hands
        assert saved is not None
        if len(saved) != self.n:
            _bad("hands", f"expected one hand per seat ({self.n}), got {len(saved)}")
        return [_cards(h, f"hands[{s}]") for s, h in enumerate(saved)]

    def _disconnect(self, disconnect: Callable[[int], None]) -> None:
        for seat in self.save.disconnected:
            with _as("disconnected"):
                disconnect(seat)

    def _leave(self, rnd: Any) -> None:
        save = self.save
        if save.escaped and self.rules.escape is None:
            _bad("escaped", "the rules have no escape: a leaver is auto-arranged instead")
        for seat in save.escaped:
            if seat in save.disconnected or seat in save.surrendered:
                _bad(
                    "escaped",
                    f"seat {seat} left the round: it is neither disconnected nor surrendered",
                )
        for seat in save.escaped:
            with _as("escaped"):
                rnd.escape(seat)
        for seat in save.surrendered:
            reason = save.auto[seat]
            with _as("surrendered"):
                if reason is None:
                    rnd.surrender(seat)
                else:
                    rnd.auto(seat, reason, play="surrender")

    def _submit(self, rnd: Any, s: int, entry: SubmissionSave) -> None:
        key = f"submissions[{s}]"
        lanes = (entry.front, entry.middle, entry.back)
        play: Any = None
        with _as(key):
            declared = entry.special is not None or entry.cards is not None
            if all(lane is not None for lane in lanes) and not declared:
                front, middle, back = (_cards(lane or "", key) for lane in lanes)
                play = Arrangement(front, middle, back, self.rules)
            elif entry.cards is not None and all(lane is None for lane in lanes):
                play = Declaration(_cards(entry.cards, key), entry.special)
        if play is None:
            _bad(key, "a play is front, middle and back, or the cards of a declared special")
        reason = self.save.auto[s]
        with _as(key):
            if reason is None:
                rnd.submit(s, play)
            else:
                rnd.auto(s, reason, play=play)

    def settle(self, rnd: Any) -> None:
        """Settles again, with the balances before the round that the saved ones imply,
        and wants the saved result."""
        save, n = self.save, self.n
        if rnd.missing:
            _bad(
                "submissions",
                "a settled round has a play for every seat still in; "
                f"seat {rnd.missing[0]} has none",
            )
        saved = save.result
        if saved is None:
            _bad("result", "a settled round has its result")
        if saved.settlement is not None and too_nested(saved.settlement, 8):
            _bad("result.settlement", "nested deeper than a settlement is")
        before = None
        floor = None
        if saved.balances is not None:
            if len(saved.balances) != n:
                _bad("result.balances", f"expected one per seat ({n}), got {len(saved.balances)}")
            if any(not 0 <= s < n for s in saved.bankrupt):
                _bad("result.bankrupt", "a bankrupt seat is not a seat of the round")
            if len(saved.money) == n:
                before = [a - m for a, m in zip(saved.balances, saved.money)]
            low = [saved.balances[s] for s in saved.bankrupt]
            floor = max(low) + 1 if low else min(saved.balances)
        result = rnd.settle(balances=before, min_balance=floor)
        for field, value in result.to_dict().items():
            if getattr(saved, field) != value:
                _bad(
                    f"result.{field}", f"the saved result's {field} is not what the plays settle to"
                )


def _new_round(cls: Callable[..., R], rules: RuleSet, save: RoundSave) -> R:
    """A new round with the save's players, banker, stakes, seed, stake and rake."""
    try:
        return cls(
            rules, save.players, stakes=save.stakes, banker=save.banker, seed=save.seed,
            stake=save.stake, rake=save.rake,
        )  # fmt: skip
    except (*_UNSETTLED, TypeError) as exc:
        raise SaveError(f"saved round: {short(str(exc))}") from exc


def round_from(cls: Callable[..., R], data: Any) -> R:
    """The round (of class ``cls``, a :class:`~thirteen.Round`) a save describes, built by
    replaying it.

    Raises:
        SaveError: a save of the wrong shape, or one play could not have reached.
    """
    save = shape(data, RoundSave)
    rules = _rules(save.rules, "round")
    rnd = _new_round(cls, rules, save)
    replay = RoundReplay(save, rules)
    live: Any = rnd
    with _unsettled("round"):
        replay.check()
        if save.phase == "new":
            return rnd
        dealt = replay.dealt()
        replay.deal(lambda: live.deal(dealt))
        replay.play(live, live.disconnect)
        if save.phase == "settled":
            replay.settle(live)
    return rnd


# ----------------------------------------------------------------------------- a table


def _ladder(value: Any, key: str) -> Any:
    if isinstance(value, LadderSave):
        with _as(key, "table"):
            return Ladder.from_dict(msgspec.to_builtins(value))
    return value


def table_from(cls: Callable[..., T], data: Any, round_cls: Callable[..., Any]) -> T:
    """The table (of class ``cls``, a :class:`~thirteen.Table`) a save describes, built
    by replaying it: the players of its round sit, the round is dealt and played, the
    others sit. ``round_cls`` (:class:`~thirteen.Round`) reads the round's arguments.

    Raises:
        SaveError: a save of the wrong shape, or one play could not have reached.
    """
    save = shape(data, TableSave)
    rules = _rules(save.rules, "table")
    try:
        table = cls(
            rules, seats=save.size, stake=save.stake, rake=save.rake,
            min_balance=save.min_balance,
            money_ladder=_ladder(save.money_ladder, "money_ladder"),
            points_ladder=_ladder(save.points_ladder, "points_ladder"),
            rounds_played=save.rounds_played,
        )  # fmt: skip
    except LimitError as exc:
        if exc.key != "rounds_played":
            raise SaveError(f"saved table: {short(str(exc))}") from exc
        _bad("rounds_played", exc.message, "table")
    except (*_UNSETTLED, TypeError) as exc:
        raise SaveError(f"saved table: {short(str(exc))}") from exc
    with _unsettled("table"):
        _TableReplay(table, save, round_cls).run()
    return table


class _TableReplay:
    """The replay of a saved table onto a new one."""

    def __init__(self, table: Any, save: TableSave, round_cls: Callable[..., Any]) -> None:
        self.table = table
        self.save = save
        self.round_cls = round_cls

    def run(self) -> None:
        save = self.save
        if save.round is None:
            for i, entry in enumerate(save.players):
                self._no_flags(entry, i, ())
            for i, entry in enumerate(save.players):
                self._sit(entry, i)
            return
        with _in_table_round():
            rsave = shape(save.round, RoundSave)
            rules = _rules(rsave.rules, "round")
            # The round's own arguments (players, banker, stakes, seed, stake, rake), read
            # as the round reads them; start_round deals it below.
            _new_round(self.round_cls, rules, rsave)
            replay = RoundReplay(rsave, rules)
            replay.check()
        self._check_round(rsave, rules)
        dealt_in = set(rsave.players)
        for i, entry in enumerate(save.players):
            self._no_flags(entry, i, rsave.players)
        for i, entry in enumerate(save.players):
            if entry.player in dealt_in:
                self._sit(entry, i)
        for p in rsave.players:
            if p not in self.table.players:
                _bad("round.players", f"player {short(p)} of the round is not seated", "table")
        view = self._start(rsave, replay)
        flags = {entry.player: entry for entry in save.players}
        with _in_table_round():
            replay.play(view, lambda seat: self._away(view, flags[rsave.players[seat]], seat))
        for entry in save.players:
            if entry.stand_after_round:
                self.table.stand_after_round(entry.player)
        for i, entry in enumerate(save.players):
            if entry.player not in dealt_in:
                self._sit(entry, i)
        self._same_flags(rsave)

    def _check_round(self, rsave: RoundSave, rules: RuleSet) -> None:
        """A table's round is in progress, under the table's rules, stake and rake."""
        table = self.table
        if rsave.phase in ("new", "settled"):
            _bad(
                "round.phase",
                "a table's round in progress is dealt and not settled (finish_round ends it), "
                f"not {rsave.phase!r}",
                "table",
            )
        if rules != table.rules:
            _bad("round.rules", "the round's rules are not the table's", "table")
        if rsave.stake != table.stake:
            _bad(
                "round.stake",
                f"the round's stake {rsave.stake} is not the table's {table.stake}",
                "table",
            )
        if normal_rake(rsave.rake) != table.rake:
            _bad("round.rake", "the round's rake is not the table's", "table")

    def _no_flags(self, entry: TablePlayerSave, i: int, dealt_in: Sequence[Any]) -> None:
        if entry.player not in dealt_in:
            if entry.stand_after_round or entry.disconnected or entry.left:
                _bad(
                    f"players[{i}]",
                    "only a player dealt in to the round in progress stands up later, "
                    "is disconnected or has left",
                    "table",
                )
        elif entry.left and entry.disconnected:
            _bad(f"players[{i}]", "a player who left is not disconnected", "table")

    def _sit(self, entry: TablePlayerSave, i: int) -> None:
        table = self.table
        try:
            table.sit(entry.player, entry.seat, entry.balance, points=entry.points)
        except TableError as exc:
            if exc.seat is not None and exc.seat != entry.seat:
                key = f"players[{i}].player"  # seated already, elsewhere
            elif not 0 <= entry.seat < table.size or table.seats[entry.seat] is not None:
                key = f"players[{i}].seat"
            else:
                key = f"players[{i}].balance"
            _bad(key, exc.message, "table")

    def _start(self, rsave: RoundSave, replay: RoundReplay) -> Any:
        """Deals the saved round at the table (its banker and stakes by player, its deal)
        and wants it dealt to the saved players in that order."""
        players = rsave.players
        with _in_table_round():
            banker = players[rsave.banker]
            stakes = None if rsave.stakes is None else dict(zip(players, rsave.stakes))
            dealt = replay.dealt()
            view = replay.deal(
                lambda: self.table.start_round(
                    rsave.seed, banker=banker, stakes=stakes, dealt=dealt
                )
            )
        if list(view.players) != list(players):
            _bad("round.players", "the round is dealt to the seated players in seat order", "table")
        return view

    def _away(self, view: Any, entry: TablePlayerSave, seat: int) -> None:
        """A seat the round lists as disconnected: with no escape rule, a player who left
        is one too (the table's flag says which)."""
        if self.table.rules.escape is None and entry.left:
            view.escape(seat)
        else:
            view.disconnect(seat)

    def _same_flags(self, rsave: RoundSave) -> None:
        """The table's flags after the replay are the saved ones."""
        for i, entry in enumerate(self.save.players):
            if entry.player not in rsave.players:
                continue
            seat = rsave.players.index(entry.player)
            now = self.table.player(entry.player)
            where = f"players[{i}]"
            if self.table.rules.escape is None:
                away = seat in rsave.disconnected
                if (entry.left, entry.disconnected) != (now.left, now.disconnected):
                    field = "left" if entry.left else "disconnected"
                    _bad(
                        f"{where}.{field}",
                        f"the round says seat {seat} is {'' if away else 'not '}disconnected "
                        "(with no escape rule a player who left is too)",
                        "table",
                    )
                continue
            if entry.left != now.left:
                gone = now.left
                _bad(
                    f"{where}.left",
                    f"the round says seat {seat} {'has' if gone else 'has not'} left",
                    "table",
                )
            if entry.disconnected != now.disconnected:
                _bad(
                    f"{where}.disconnected",
                    f"the round says seat {seat} is "
                    f"{'' if now.disconnected else 'not '}disconnected",
                    "table",
                )
