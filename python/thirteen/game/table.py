"""A room across rounds (RULES.md 7 and 8): :class:`Table`, its players and reports, and
:class:`TableRound`, the view of its round in progress.

A table seats players with balances (money, in minor currency units), deals them rounds
in table-seat order, applies the money, moves the level ladders and stands players up
(bankrupt, by request, disconnected, or gone). The round's names are re-exported here
(``from thirteen.table import Round`` works). Its decisions where RULES.md is silent:
docs/rules.md, "Decisions of the round flow".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from thirteen import _core
from thirteen._core import Card
from thirteen._plain import short
from thirteen.errors import (
    CardNotHeldError,
    LimitError,
    RoundStateError,
    TableError,
    ThirteenError,
)
from thirteen.ladder import Ladder, LevelInfo, level_change
from thirteen.game import saves
from thirteen.game._args import (
    MoneySettings,
    PlayerId,
    Submission,
    check_player_id,
    is_int,
    normal_rake,
)
from thirteen.game.replay import table_from
from thirteen.game.result import RoundResult
from thirteen.game.round import AUTO_REASONS, PHASES, Round
from thirteen.rules import RuleSet

__all__ = [
    "Round",
    "RoundResult",
    "Table",
    "TablePlayer",
    "TableRoundReport",
    "LevelChange",
    "RoundStateError",
    "CardNotHeldError",
    "TableError",
    "TableRound",
    "AUTO_REASONS",
    "PHASES",
]

_TABLE_FORMAT = saves.TABLE_FORMAT


# ----------------------------------------------------------------------------- helpers


def _ladder_name(ladder: Union[str, Ladder]) -> str:
    return ladder if isinstance(ladder, str) else ladder.name


def _ladder_to_data(ladder: Union[str, Ladder]) -> Any:
    return ladder if isinstance(ladder, str) else ladder.to_dict()


# ----------------------------------------------------------------------------- Table


@dataclass
class TablePlayer:
    """A seated player (a snapshot; the table keeps its own copy).

    Attributes:
        player: the player id (str or int).
        seat: the table seat, ``0 .. size-1``.
        balance: money (银子), in minor currency units; may go below 0 after a loss.
        points: cumulative units (注) won and lost at this table (plus any brought in).
        stand_after_round: stands up when the current round ends (自动站起).
        disconnected: disconnected (断线) from the current round.
        left: left the current round (强退); stands up when it ends.
    """

    player: PlayerId
    seat: int
    balance: int
    points: int = 0
    stand_after_round: bool = False
    disconnected: bool = False
    left: bool = False

    def to_dict(self) -> Dict[str, Any]:
        """Plain data."""
        return {
            "player": self.player,
            "seat": self.seat,
            "balance": self.balance,
            "points": self.points,
            "stand_after_round": self.stand_after_round,
            "disconnected": self.disconnected,
            "left": self.left,
        }


@dataclass(frozen=True)
class LevelChange:
    """A player's move on a level ladder (RULES.md 8) after a round.

    Attributes:
        player: the player id.
        ladder: the ladder's name (``"bianfeng-money"`` for the balance,
            ``"bianfeng-points"`` for cumulative points, or a custom ladder's name).
        before: the :class:`~thirteen.LevelInfo` before the round.
        after: the :class:`~thirteen.LevelInfo` after the round.
    """

    player: PlayerId
    ladder: str
    before: LevelInfo
    after: LevelInfo

    @property
    def promoted(self) -> bool:
        """Whether the level went up."""
        return self.after.level > self.before.level

    def to_dict(self) -> Dict[str, Any]:
        """Plain data."""
        return {
            "player": self.player,
            "ladder": self.ladder,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
        }


@dataclass(frozen=True)
class TableRoundReport:
    """What :meth:`Table.finish_round` did.

    Attributes:
        result: the round's :class:`RoundResult` (per round seat).
        players: the player ids dealt in, per round seat.
        units: player → units (注) of the round, escape payments included.
        money: player → money (minor currency units), after the rake.
        balances: player → balance after the round (also for players who stood up).
        points: player → cumulative points after the round.
        level_changes: moves on the money and points ladders.
        bankrupt: players whose balance fell below the table's ``min_balance`` (破产).
        stood_up: player → why they stood up: ``"left"`` (强退), ``"disconnected"``
            (断线, not back), ``"bankrupt"`` (破产) or ``"stand_after_round"`` (自动站起).
        escaped: the players who escaped (with an ``escape`` rule).
        auto: player → why it was auto-arranged (代打): ``"timeout"`` / ``"disconnect"``.
    """

    result: RoundResult
    players: Tuple[PlayerId, ...]
    units: Dict[Any, int]
    money: Dict[Any, int]
    balances: Dict[Any, int]
    points: Dict[Any, int]
    level_changes: Tuple[LevelChange, ...]
    bankrupt: Tuple[PlayerId, ...]
    stood_up: Dict[Any, str]
    escaped: Tuple[PlayerId, ...]
    auto: Dict[Any, str]

    def player_dict(self, player: PlayerId) -> Dict[str, Any]:
        """One dealt-in player's record, JSON-ready: ``player``, ``units``, ``money``,
        ``balance``, ``points``, ``auto`` and ``stood_up`` (``None`` where not). Raises
        ``KeyError`` for a player not dealt in."""
        return {
            "player": player,
            "units": self.units[player],
            "money": self.money[player],
            "balance": self.balances[player],
            "points": self.points[player],
            "auto": self.auto.get(player),
            "stood_up": self.stood_up.get(player),
        }

    def to_dict(self) -> Dict[str, Any]:
        """Plain data, JSON-ready (per-player values as lists of records, so int player
        ids stay ints)."""
        return {
            "result": self.result.to_dict(),
            "players": [self.player_dict(p) for p in self.players],
            "level_changes": [c.to_dict() for c in self.level_changes],
            "bankrupt": list(self.bankrupt),
            "escaped": list(self.escaped),
        }


class Table(saves.JsonSave, MoneySettings):
    """A room (房间) across rounds: seats, players with balances, rounds, ladders.

    Args:
        rules: the :class:`~thirteen.RuleSet`.
        seats: the number of seats, 2..4 (default ``max(rules.players)``); 1 to that many
            players may sit, and a round needs a count in ``rules.players``.
        stake: money per unit (int ≥ 0, minor currency units).
        rake: ``(percent, cap)`` or ``None``, as :class:`Round`.
        min_balance: the room minimum (int): a player needs it to sit, and a player whose
            balance falls below it after a round is stood up (破产).
        money_ladder: the ladder of balances (name or :class:`~thirteen.Ladder`).
        points_ladder: the ladder of cumulative points (name or ladder).
        rounds_played: rounds already finished at this table (a table carried over, as
            a save holds it; int ≥ 0).

    Raises:
        ThirteenError: bad seats, stake, rake or min_balance.
        LimitError: ``rounds_played`` below 0.
        TypeError: ``rounds_played`` is not an integer.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        seats: Optional[int] = None,
        stake: int = 1,
        rake: Optional[Tuple[Any, Optional[int]]] = None,
        min_balance: int = 1,
        money_ladder: Union[str, Ladder] = "bianfeng-money",
        points_ladder: Union[str, Ladder] = "bianfeng-points",
        rounds_played: int = 0,
    ) -> None:
        if not isinstance(rules, RuleSet):
            raise TypeError(f"rules must be a RuleSet, got {type(rules).__name__}")
        size = max(rules.players) if seats is None else seats
        if not is_int(size) or not 2 <= size <= 4:
            raise ThirteenError(f"a table has 2 to 4 seats, got {short(size)}")
        if not is_int(stake) or stake < 0:
            raise ThirteenError(
                f"stake must be an integer >= 0 (minor currency units), got {short(stake)}"
            )
        if not is_int(min_balance):
            raise ThirteenError(f"min_balance must be an integer, got {short(min_balance)}")
        _core.money([1], stake)  # the core's bounds on money (ThirteenError)
        self._rules = rules
        self._size = int(size)
        self._stake = int(stake)
        self._rake = normal_rake(rake)
        self._min_balance = int(min_balance)
        self._money_ladder = money_ladder
        self._points_ladder = points_ladder
        for ladder in (money_ladder, points_ladder):
            if isinstance(ladder, str):
                Ladder.load(ladder)  # validates the name
        self._seats: List[Optional[PlayerId]] = [None] * self._size
        self._info: Dict[PlayerId, TablePlayer] = {}
        if not is_int(rounds_played):
            raise TypeError(f"rounds_played must be an integer, got {short(rounds_played)}")
        if rounds_played < 0:
            raise LimitError(
                f"rounds_played must be at least 0, got {rounds_played}",
                key="rounds_played",
                value=str(rounds_played),
                minimum=0,
                maximum=None,
            )
        self._round: Optional[Round] = None
        self._rounds_played = int(rounds_played)

    # ------------------------------------------------------------------ read-only state

    @property
    def rules(self) -> RuleSet:
        """The rule set."""
        return self._rules

    @property
    def size(self) -> int:
        """The number of seats."""
        return self._size

    @property
    def min_balance(self) -> int:
        """The room minimum (money)."""
        return self._min_balance

    @property
    def seats(self) -> Tuple[Optional[PlayerId], ...]:
        """Per table seat, the player sitting there or ``None``."""
        return tuple(self._seats)

    @property
    def players(self) -> Tuple[PlayerId, ...]:
        """The seated players, in seat order."""
        return tuple(p for p in self._seats if p is not None)

    @property
    def round(self) -> Optional[TableRound]:
        """The round in progress (a :class:`TableRound` view), or ``None``."""
        return None if self._round is None else TableRound(self, self._round)

    @property
    def rounds_played(self) -> int:
        """Rounds finished at this table."""
        return self._rounds_played

    def player(self, player: PlayerId) -> TablePlayer:
        """A copy of the seated player's record.

        Raises:
            TableError: the player is not seated.
        """
        return replace(self._get(player))

    def balance(self, player: PlayerId) -> int:
        """The seated player's balance (money)."""
        return self._get(player).balance

    def points(self, player: PlayerId) -> int:
        """The seated player's cumulative points (units)."""
        return self._get(player).points

    def round_seat(self, player: PlayerId) -> int:
        """The player's seat in the current round.

        Raises:
            TableError: no round in progress, or the player is not dealt in.
        """
        if self._round is None or player not in self._round.players:
            raise TableError(f"player {short(player)} is not in a round in progress", player=player)
        return self._round.players.index(player)

    # ------------------------------------------------------------------ seating

    def sit(
        self,
        player: PlayerId,
        seat: Optional[int] = None,
        balance: Optional[int] = None,
        *,
        points: int = 0,
    ) -> int:
        """Seats a player (also during a round: dealt in from the next one).

        Args:
            player: the player id (str or int), not already seated.
            seat: the table seat (``None``: the lowest free seat).
            balance: the money the player brings (int ≥ ``min_balance``); required.
            points: cumulative points the player brings (units; for the points ladder).

        Returns:
            The seat.

        Raises:
            TableError: already seated, the seat is taken or unknown, no free seat, or the
                balance is below the room minimum.
            TypeError: a bad player id, or no balance.
        """
        check_player_id(player)
        if balance is None or not is_int(balance):
            raise TypeError(f"sit needs an integer balance, got {short(balance)}")
        if not is_int(points):
            raise TypeError(f"points must be an integer, got {short(points)}")
        if player in self._info:
            raise TableError(
                f"player {short(player)} is already seated (seat {self._info[player].seat}): "
                "a player is seated once, not twice",
                player=player,
                seat=self._info[player].seat,
            )
        if seat is None:
            free = [s for s, p in enumerate(self._seats) if p is None]
            if not free:
                raise TableError("the table is full", player=player)
            seat = free[0]
        elif not is_int(seat) or not 0 <= seat < self._size:
            raise TableError(
                f"seat {short(seat)} is not a seat of this {self._size}-seat table",
                player=player,
                seat=seat,
            )
        elif self._seats[seat] is not None:
            raise TableError(
                f"seat {seat} is taken by {short(self._seats[seat])}", player=player, seat=seat
            )
        if balance < self._min_balance:
            raise TableError(
                f"player {short(player)} has {balance}, "
                f"below the room minimum {self._min_balance} (破产)",
                player=player,
                seat=seat,
            )
        self._seats[seat] = player
        self._info[player] = TablePlayer(player, int(seat), int(balance), int(points))
        return int(seat)

    def stand(self, player: PlayerId) -> TablePlayer:
        """Stands a player up between rounds (or one not dealt in to the current round).

        Returns:
            The player's final record (balance and points).

        Raises:
            TableError: not seated, or dealt in to the round in progress (use
                :meth:`stand_after_round` or :meth:`leave`).
        """
        info = self._get(player)
        if self._in_round(player):
            raise TableError(
                f"player {short(player)} is in the round in progress: "
                "use stand_after_round or leave",
                player=player,
                seat=info.seat,
            )
        return self._remove(player)

    def stand_after_round(self, player: PlayerId) -> Optional[TablePlayer]:
        """自动站起: the player stands up when the current round ends; with no round in
        progress (or not dealt in), at once.

        Returns:
            ``None`` when deferred, else the final record.

        Raises:
            TableError: not seated.
        """
        info = self._get(player)
        if self._in_round(player):
            info.stand_after_round = True
            return None
        return self._remove(player)

    def disconnect(self, player: PlayerId) -> Optional[TablePlayer]:
        """断线: the player is auto-arranged (代打) in the current round unless it
        :meth:`reconnect` s before the round ends; after the round its seat is released.
        A player not dealt in to a round in progress is stood up at once.

        Returns:
            ``None`` when in a round, else the final record of the player stood up.

        Raises:
            TableError: not seated; RoundStateError: the player already left the round.
        """
        info = self._get(player)
        if not self._in_round(player):
            return self._remove(player)
        assert self._round is not None
        self._need_not_left(info)
        self._round.disconnect(self.round_seat(player))
        info.disconnected = True
        return None

    def reconnect(self, player: PlayerId) -> None:
        """The player is back in the same seat (断线重连), until the current round ends.

        Raises:
            TableError: not seated (the seat was released) or not disconnected.
        """
        info = self._get(player)
        if not info.disconnected or self._round is None:
            raise TableError(
                f"player {short(player)} is not disconnected", player=player, seat=info.seat
            )
        self._round.reconnect(self.round_seat(player))
        info.disconnected = False

    def leave(self, player: PlayerId) -> Optional[TablePlayer]:
        """The player leaves. During a round it is dealt in to, this is 强退 (escape,
        :meth:`Round.escape`): the penalty is settled when the round finishes (or, with no
        ``escape`` rule, the seat is auto-arranged) and the seat is released after it.
        Otherwise the player stands up at once.

        Returns:
            ``None`` during a round, else the final record.

        Raises:
            TableError: not seated; RoundStateError: the player already left the round,
                or as :meth:`Round.escape`.
        """
        info = self._get(player)
        if not self._in_round(player):
            return self._remove(player)
        assert self._round is not None
        self._need_not_left(info)
        self._round.escape(self.round_seat(player))
        info.left = True
        info.disconnected = False
        return None

    # ------------------------------------------------------------------ rounds

    def start_round(
        self,
        seed: Optional[int] = None,
        *,
        banker: Optional[PlayerId] = None,
        stakes: Optional[Mapping[PlayerId, int]] = None,
        dealt: Any = None,
    ) -> TableRound:
        """Deals a new round to the seated players, in seat order (round seat ``i`` is the
        ``i``-th seated player), and returns it (dealt: phase ``"swap"`` or ``"arrange"``)
        as a :class:`TableRound`, whose escapes, disconnections and settlement go through
        the table.

        Args:
            seed: the round's seed (``None``: secure random).
            banker: banker mode: the banker's player id (``None``: the first seated).
            stakes: banker mode: player → stake multiplier (missing players: 1).
            dealt: ``None`` to shuffle, or a deal made before: as :meth:`Round.deal`.

        Raises:
            TableError: a round is in progress, or the banker is not seated.
            PlayerCountError: fewer than 2 players, or a count ``rules.players`` does not
                allow.
            CountError / DuplicateCardError / DealError / CardError: a bad ``dealt``
                (as :meth:`Round.deal`).
        """
        if self._round is not None:
            raise TableError("a round is in progress: finish it first")
        ids = self.players
        self._rules.check_players(len(ids))
        banker_seat = 0
        if banker is not None:
            if banker not in ids:
                raise TableError(f"banker {short(banker)} is not seated", player=banker)
            banker_seat = ids.index(banker)
        stake_list = None
        if stakes is not None:
            for p in stakes:
                if p not in ids:
                    raise TableError(f"stakes name {short(p)}, who is not seated", player=p)
            stake_list = [stakes.get(p, 1) for p in ids]
        rnd = Round(
            self._rules,
            ids,
            stakes=stake_list,
            banker=banker_seat,
            seed=seed,
            stake=self._stake,
            rake=self._rake,
        )
        rnd.deal(dealt)
        self._round = rnd
        return TableRound(self, rnd)

    def finish_round(self, *, auto_missing: bool = False) -> TableRoundReport:
        """Settles the current round (:meth:`Round.settle` with the balances and the room
        minimum), applies the money to balances and the units to points, reports level
        changes on both ladders, and stands up the players who left (强退), stayed
        disconnected (断线), went bankrupt (破产) or asked to (自动站起).

        Args:
            auto_missing: auto-arrange (代打, ``"timeout"``) players who have not submitted
                (disconnected players always are).

        Raises:
            TableError: no round in progress; the errors of :meth:`Round.settle` (nothing
                is changed then).
        """
        rnd = self._round
        if rnd is None:
            raise TableError("no round in progress")
        ids = rnd.players
        before = [self._info[p].balance for p in ids]
        result = rnd.settle(
            auto_missing=auto_missing, balances=before, min_balance=self._min_balance
        )
        assert result.balances is not None
        units: Dict[Any, int] = {}
        money: Dict[Any, int] = {}
        balances: Dict[Any, int] = {}
        points: Dict[Any, int] = {}
        changes: List[LevelChange] = []
        for i, p in enumerate(ids):
            info = self._info[p]
            old_points = info.points
            info.balance = result.balances[i]
            info.points = old_points + result.units[i]
            units[p] = result.units[i]
            money[p] = result.money[i]
            balances[p] = info.balance
            points[p] = info.points
            for ladder, a, b in (
                (self._money_ladder, before[i], info.balance),
                (self._points_ladder, old_points, info.points),
            ):
                moved = level_change(ladder, max(a, 0), max(b, 0))
                if moved is not None:
                    changes.append(LevelChange(p, _ladder_name(ladder), moved[0], moved[1]))
        bankrupt = tuple(ids[s] for s in result.bankrupt)
        stood: Dict[Any, str] = {}
        for p in ids:
            info = self._info[p]
            if info.left:
                stood[p] = "left"
            elif info.disconnected:
                stood[p] = "disconnected"
            elif p in bankrupt:
                stood[p] = "bankrupt"
            elif info.stand_after_round:
                stood[p] = "stand_after_round"
        for p in stood:
            self._remove(p)
        for info in self._info.values():
            info.stand_after_round = info.disconnected = info.left = False
        self._round = None
        self._rounds_played += 1
        return TableRoundReport(
            result=result,
            players=ids,
            units=units,
            money=money,
            balances=balances,
            points=points,
            level_changes=tuple(changes),
            bankrupt=bankrupt,
            stood_up=stood,
            escaped=tuple(ids[s] for s in result.escaped),
            auto={ids[s]: r for s, r in enumerate(result.auto) if r is not None},
        )

    # ------------------------------------------------------------------ serialisation

    def to_dict(self) -> Dict[str, Any]:
        """The table as plain data (JSON-ready), the round in progress included."""
        return {
            "format": _TABLE_FORMAT,
            "rules": self._rules.to_dict(),
            "size": self._size,
            "stake": self._stake,
            "rake": None if self._rake is None else list(self._rake),
            "min_balance": self._min_balance,
            "money_ladder": _ladder_to_data(self._money_ladder),
            "points_ladder": _ladder_to_data(self._points_ladder),
            "rounds_played": self._rounds_played,
            "players": [self._info[p].to_dict() for p in self.players],
            "round": None if self._round is None else self._round.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Table:
        """The table :meth:`to_dict` wrote, in the same state: its shape is read
        (:class:`thirteen.game.saves.TableSave`) and the table is played again through
        its methods as the save records it (:mod:`thirteen.game.replay`: the round's
        players sit, the round is dealt and played, the others sit).

        Raises:
            SaveError: a bad save; ``key`` names the field (``"players[2].seat"``,
                ``"round.escaped"``).
        """
        return table_from(cls, data, Round)

    def __repr__(self) -> str:
        running = "yes" if self._round else "no"
        return f"<Table {self._rules.name} seats={self.seats} round={running}>"

    # ------------------------------------------------------------------ internals

    def _get(self, player: PlayerId) -> TablePlayer:
        info = self._info.get(player)
        if info is None:
            raise TableError(f"player {short(player)} is not seated", player=player)
        return info

    def _need_not_left(self, info: TablePlayer) -> None:
        """A player who left the round in progress (强退) neither leaves nor disconnects
        again. With an escape rule the round refuses it; without one the round keeps the
        seat as disconnected and only the table knows the player left."""
        if info.left:
            assert self._round is not None
            seat = self.round_seat(info.player)
            raise RoundStateError(
                f"seat {seat} has left the round", player=seat, phase=self._round.phase
            )

    def _in_round(self, player: PlayerId) -> bool:
        return self._round is not None and player in self._round.players

    def _remove(self, player: PlayerId) -> TablePlayer:
        info = self._info.pop(player)
        self._seats[info.seat] = None
        return replace(info, stand_after_round=False, disconnected=False, left=False)


# ----------------------------------------------------------------------------- the table's round


class TableRound:
    """The round in progress at a :class:`Table`, as :meth:`Table.start_round` and
    :attr:`Table.round` hand it out: a view of the table's :class:`Round` that cannot
    put the two out of step.

    It reads like a :class:`Round` and plays the seats' moves on it: every name in
    :attr:`READS_AND_PLAYS` is the round's own (``players``, ``phase``, ``hand(seat)``,
    ``submissions``, ``result``, ``give``, ``finish_swap``, ``submit``, ``auto``,
    ``surrender``, ``hints``, ``to_dict``, ...). The moves that concern the table go
    through it: :meth:`escape` is :meth:`Table.leave` (强退), :meth:`disconnect` /
    :meth:`reconnect` are :meth:`Table.disconnect` / :meth:`Table.reconnect` (断线), and
    the round is settled only by :meth:`Table.finish_round`. Seats are round seats, as in
    :class:`Round`.

    Once its round is finished the view still reads it, but its moves raise
    :class:`RoundStateError`: they never reach a later round.
    """

    #: The :class:`Round` attributes and methods the view hands on as they are.
    READS_AND_PLAYS = frozenset(
        {
            "rules", "players", "seats", "phase", "seed", "banker", "stakes", "stake",
            "rake", "cut_card", "cut_start", "first", "dealt_hands", "submissions",
            "auto_reasons", "auto_given", "given", "surrendered", "escaped", "disconnected",
            "present", "missing", "result", "player_of", "hand", "hints", "gift_hints", "give",
            "finish_swap", "submit", "auto", "surrender", "to_dict", "to_json",
        }
    )  # fmt: skip

    __slots__ = ("_table", "_live")

    def __init__(self, table: Table, rnd: Round) -> None:
        self._table = table
        self._live = rnd

    def __getattr__(self, name: str) -> Any:
        if name in TableRound.READS_AND_PLAYS:
            return getattr(self._live, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | TableRound.READS_AND_PLAYS)

    def _player(self, seat: int) -> PlayerId:
        """The player of a round seat of the table's current round (RoundStateError for
        a finished round, ThirteenError for an unknown seat)."""
        rnd = self._live
        if self._table._round is not rnd:
            raise RoundStateError(
                "this round is over: its table has moved on", player=seat, phase=rnd.phase
            )
        return rnd.player_of(seat)

    def escape(self, seat: int) -> None:
        """The seat's player leaves (强退): :meth:`Table.leave`.

        Raises:
            RoundStateError: the round is over, or as :meth:`Round.escape`.
            ThirteenError: an unknown seat.
        """
        self._table.leave(self._player(seat))

    def disconnect(self, seat: int) -> None:
        """The seat's player disconnects (断线): :meth:`Table.disconnect`.

        Raises:
            RoundStateError: the round is over, or as :meth:`Round.disconnect`.
        """
        self._table.disconnect(self._player(seat))

    def reconnect(self, seat: int) -> None:
        """The seat's player is back (断线重连): :meth:`Table.reconnect`.

        Raises:
            RoundStateError: the round is over; TableError: not disconnected.
        """
        self._table.reconnect(self._player(seat))

    def settle(self, **_: Any) -> RoundResult:
        """Refused: a table's round is settled by :meth:`Table.finish_round`, which also
        moves the balances, ladders and seats.

        Raises:
            TableError: always.
        """
        raise TableError("a table's round is settled with Table.finish_round, not settle")

    def __repr__(self) -> str:
        return f"<TableRound of {short(self._live)}>"
