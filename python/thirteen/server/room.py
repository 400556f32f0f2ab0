"""A room of ``thirteen serve``: a :class:`~thirteen.Table` driven by players' actions and
a clock, every change committed to the database before anyone is told of it.

After a change the room's ``state`` frame (the same for everyone) is serialized once and
the same text queued to every connection, and each player whose own view may have changed
(the seated, those dealt in, those waiting for a seat, the one who acted: a handful, not
the spectators) gets its ``you`` frame. A joining spectator is sent the two frames and
costs the others nothing.

Actions run one at a time per room (an asyncio lock). Each applies a ``Table`` / ``Round``
method (which validates fully and changes nothing when it raises), then commits the new
state with :meth:`Store.commit`; if the commit fails the room is read back from the
database, so memory never runs ahead of what was saved. The clock (:meth:`Room.run`)
starts rounds, fills free seats with AI players, ends the swap, auto-arranges seats that
ran out of time (代打) and settles. After a restart it picks up where the saved state is:
a round in progress keeps its hands, plays and deadline. Everything that can make the room
playable (a connection, a resume, a sit, a stand, a seat freed) wakes the clock.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import Executor
from typing import Any, Callable, Dict, List, Optional, Set, Tuple, TypeVar, cast

from thirteen import Declaration, PlayerId, Table, ThirteenError, TableError, parse_cards
from thirteen.game.decisions import SURRENDER, engine_gift, engine_play, gift_seed
from thirteen.server.config import RoomConfig
from thirteen.server.protocol import encode_text
from thirteen.server.refusals import GameError
from thirteen.server.store import HOUSE, Move, Store, StoredRoom
from thirteen.server.views import is_ai, play_dict, result_frame, state_frame, you_frame

__all__ = ["Room", "Client", "GameError"]

T = TypeVar("T")
log = logging.getLogger("thirteen.server")


class Client:
    """One live connection of a player: frames to it are texts put on a queue that one
    task writes to the socket (``send``: the same text object for every client of a
    broadcast)."""

    def __init__(self, player: str, send: Callable[[str], None]) -> None:
        self.player = player
        self.send = send


class Room:
    """A room: a table, its clients and its clock.

    Args:
        stored: the room as saved.
        store: the database.
        executor: where database calls run (one thread for SQLite).
        max_spectators: connections of people not seated (:meth:`admit` refuses more).
    """

    def __init__(self, stored: StoredRoom, store: Store, executor: Executor, *, max_spectators: int = 50) -> None:
        self.id = stored.id
        self.config = RoomConfig.from_dict(stored.config)
        self.store = store
        self.executor = executor
        self.table: Table = Table.from_json(stored.state)
        self.version = stored.version
        self.deadline: Optional[float] = stored.deadline
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.clients: Dict[str, Set[Client]] = {}
        self.names: Dict[PlayerId, str] = {}
        self.offline_since: Dict[str, float] = {}
        self.waiting: Dict[str, Tuple[Optional[int], int]] = {}
        self.accounts: Dict[str, int] = {}
        self.next_start = time.time()
        self.task: Optional[asyncio.Task[None]] = None
        self.max_spectators = max_spectators
        self.connections = 0  # live clients
        self.reserved = 0  # admitted joins not connected yet
        self.pins = 0  # connections holding the room in memory (app.py)
        self.shown: Set[str] = set()  # players sent a `you` frame by the last publish
        self.ai_ready: Optional[Tuple[Any, Dict[int, Any]]] = None  # decided AI gifts or plays
        self.last_used = time.monotonic()
        now = time.time()
        for p in self.table.players:
            self.offline_since.setdefault(p, now)

    # ------------------------------------------------------------------ plumbing

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Runs a database call on the executor."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args, **kwargs))

    async def commit(
        self,
        moves: List[Move] = (),  # type: ignore[assignment]
        *,
        round_no: Optional[int] = None,
        settlement: Optional[Dict[str, Any]] = None,
    ) -> None:
        """Saves the table as it is now (see :meth:`Store.commit`); on failure reads the
        saved room back and re-raises."""
        state = self.table.to_json()
        try:
            self.version = await self.db(
                self.store.commit,
                self.id,
                self.version,
                state,
                deadline=self.deadline,
                moves=list(moves),
                round_no=round_no,
                settlement=settlement,
            )
        except BaseException:
            await self.reload()
            raise
        for move in moves:
            if move.player in self.accounts:
                self.accounts[move.player] += move.amount

    async def reload(self) -> None:
        """The room as last saved."""
        stored = await self.db(self.store.room, self.id)
        assert stored is not None
        self.table = Table.from_json(stored.state)
        self.version = stored.version
        self.deadline = stored.deadline

    async def learn_names(self, players: List[str]) -> None:
        missing = [p for p in players if p not in self.names]
        if missing:
            self.names.update(await self.db(self.store.names, missing))

    def attach(self, client: Client) -> None:
        self.clients.setdefault(client.player, set()).add(client)
        self.connections += 1
        self.offline_since.pop(client.player, None)

    @property
    def players(self) -> Tuple[str, ...]:
        """The table's players: every id is a ``str`` here (an account or ``ai-...``), the
        only ids the room ever seats."""
        return cast(Tuple[str, ...], self.table.players)

    @property
    def seats(self) -> Tuple[Optional[str], ...]:
        """The table's seats (see :attr:`players`)."""
        return cast(Tuple[Optional[str], ...], self.table.seats)

    def online(self, player: str) -> bool:
        return bool(self.clients.get(player))

    # ------------------------------------------------------------------ capacity

    def spectators(self) -> int:
        """Live connections of people not at the table (counted from the seats: O(seats))."""
        seated = sum(len(self.clients.get(p, ())) for p in self.players)
        return self.connections - seated

    def admit(self, player: Optional[str]) -> None:
        """Reserves a place for a connection of ``player`` (``None``: a new player) before
        its join or resume is done: people at the table, dealt in or waiting always get
        one; a spectator only while the room has fewer than ``max_spectators``.

        Raises:
            GameError: ``room_full``.
        """
        keeps_place = player is not None and (
            player in self.players or player in self.waiting or (
                self.table.round is not None and player in self.table.round.players
            )
        )
        if not keeps_place and self.spectators() + self.reserved >= self.max_spectators:
            raise GameError(f"room {self.id} has {self.max_spectators} spectators", code="room_full")
        self.reserved += 1

    def cancel_admit(self) -> None:
        """Gives back a place :meth:`admit` reserved for a join that did not complete."""
        self.reserved = max(0, self.reserved - 1)

    def idle(self) -> bool:
        """Whether the room can leave memory: no connection holds it, no round is in
        progress and nobody waits for a seat (its state is all in the database)."""
        return self.pins == 0 and self.reserved == 0 and self.table.round is None and not self.waiting

    async def close(self) -> None:
        """Stops the clock (between two of its steps) before the room leaves memory."""
        if self.task is None:
            return
        async with self.lock:
            self.task.cancel()
        try:
            await self.task
        except (asyncio.CancelledError, Exception):
            pass

    # ------------------------------------------------------------------ frames

    def public_text(self) -> str:
        """The ``state`` frame, serialized once for everyone in the room."""
        left = None if self.deadline is None or self.table.round is None else self.deadline - time.time()
        frame = state_frame(
            self.id,
            self.table,
            names=self.names,
            online={p: self.online(p) for p in self.players},
            deadline_in=left,
            ladders=(self.config.money_ladder, self.config.points_ladder),
        )
        return encode_text(frame)

    def broadcast_text(self, text: str) -> None:
        """Queues one serialized frame to every connection of the room."""
        for clients in self.clients.values():
            for client in clients:
                client.send(text)

    async def publish(self, also: Tuple[str, ...] = ()) -> None:
        """Sends everyone the room's ``state`` (made once) and the ``you`` frame to each
        player whose own view may have changed: the seated, those dealt in or waiting now
        or at the last publish, and ``also``."""
        await self.learn_names(list(self.players))
        self.broadcast_text(self.public_text())
        now = set(self.players) | set(self.waiting)
        if self.table.round is not None:
            now |= {cast(str, p) for p in self.table.round.players}
        targets = now | self.shown | set(also)
        self.shown = now
        for player in targets:
            await self.send_you(player)

    async def send_you(self, player: str) -> None:
        """The player's ``you`` frame, to each of its connections."""
        clients = self.clients.get(player)
        if not clients:
            return
        account = await self.account(player)
        frame = you_frame(
            self.table,
            viewer=player,
            name=self.names.get(player, ""),
            account=account,
            waiting=player in self.waiting,
        )
        text = encode_text(frame)
        for client in list(clients):
            client.send(text)

    async def account(self, player: str) -> int:
        """The player's account (money not at the table), cached; read again on every
        connect and sit."""
        if player not in self.accounts:
            self.accounts[player] = await self.db(self.store.balance, player)
        return self.accounts[player]

    def _round_seat(self, player: str) -> int:
        try:
            return self.table.round_seat(player)
        except TableError:
            raise GameError(f"{player} is not dealt in to a round in progress", code="not_in_round") from None

    # ------------------------------------------------------------------ connections

    async def connect(self, client: Client) -> None:
        """A client came (join or resume, after :meth:`admit`): back in its seat if it was
        disconnected (断线重连). Everyone sees the seat online again; a spectator is only
        sent the room. Wakes the clock: a player back may make the room playable."""
        async with self.lock:
            self.reserved = max(0, self.reserved - 1)
            self.attach(client)
            player = client.player
            seated = player in self.table.players
            if seated and self.table.player(player).disconnected:
                self.table.reconnect(player)
                await self.commit()
            self.accounts.pop(player, None)
            await self.learn_names([player])
            self.last_used = time.monotonic()
        if seated:
            await self.publish(also=(player,))
        else:
            client.send(self.public_text())
            await self.send_you(player)
        self.changed.set()

    async def disconnect(self, client: Client) -> None:
        """A client's socket closed: it leaves the room's count at once (not after a step of
        the clock). When it was the player's last: during a round it is dealt in to, 断线
        (auto-played until it comes back); otherwise the seat waits ``grace_seconds``."""
        player = client.player
        clients = self.clients.get(player)
        if not clients or client not in clients:
            return
        clients.discard(client)
        self.connections -= 1
        self.last_used = time.monotonic()
        if clients:
            return
        del self.clients[player]
        self.offline_since[player] = time.time()
        self.waiting.pop(player, None)
        async with self.lock:
            if self.online(player):
                return  # back on another connection meanwhile
            seated = player in self.table.players
            rnd = self.table.round
            if rnd is not None and player in rnd.players:
                seat = rnd.players.index(player)
                info = self.table.player(player) if seated else None
                if info is not None and not info.left and not info.disconnected and seat in rnd.present:
                    self.table.disconnect(player)
                    await self.commit()
        if seated:
            await self.publish()
        self.changed.set()

    # ------------------------------------------------------------------ actions

    async def sit(self, player: str, seat: Optional[int], buy_in: Optional[int]) -> Dict[str, Any]:
        """Sits the player, moving ``buy_in`` (default: the whole account) to the table.
        A full table with AI seats frees one after the round: the player waits for it."""
        async with self.lock:
            if player in self.table.players:
                raise GameError(f"{self.names.get(player, player)} is already seated", code="seated")
            if player in self.waiting:
                raise GameError(f"{player} already waits for a seat", code="seated")
            self.accounts[player] = account = await self.db(self.store.balance, player)
            amount = account if buy_in is None else buy_in
            if amount > account:
                raise GameError(f"the account holds {account}, not {amount}", code="insufficient_funds")
            if amount < self.table.min_balance:
                raise GameError(
                    f"a seat needs at least {self.table.min_balance}, the buy-in is {amount} (破产)",
                    code="below_minimum",
                )
            free = [s for s, p in enumerate(self.table.seats) if p is None]
            if seat is not None and seat >= self.table.size:
                raise GameError(f"seat {seat} is not a seat of this {self.table.size}-seat table", code="no_seat")
            queued = False
            if (seat is None and not free) or (seat is not None and seat not in free):
                ai = [p for p in self.players if is_ai(p)]
                target = self.seats[seat] if seat is not None else (ai[-1] if ai else None)
                if target is None or not is_ai(target) or len(self.waiting) >= self.table.size:
                    raise GameError("the table is full", code="table_full")
                if self.table.round is None:
                    await self._stand_up(target)
                else:
                    self.table.stand_after_round(target)
                    await self.commit()
                    self.waiting[player] = (seat, amount)
                    queued = True
            if not queued:
                self.table.sit(player, seat, balance=amount)
                await self.commit([Move(player, -amount, "sit")])
            result = {"queued": queued}
        await self.publish(also=(player,))
        self.changed.set()
        return result

    async def stand(self, player: str, *, leave: bool = False) -> Dict[str, Any]:
        """Stands up (after the round when dealt in), or with ``leave`` leaves now (强退
        during a round, with the escape penalty)."""
        async with self.lock:
            self.waiting.pop(player, None)
            if player not in self.table.players:
                raise GameError("not seated", code="not_seated")
            rnd = self.table.round
            if rnd is not None and player in rnd.players:
                if leave:
                    self.table.leave(player)
                else:
                    self.table.stand_after_round(player)
                await self.commit()
                later = True
            else:
                await self._stand_up(player)
                later = False
        await self.publish(also=(player,))
        self.changed.set()
        return {"after_round": later}

    async def _stand_up(self, player: str) -> None:
        record = self.table.stand(player)
        await self.commit([Move(player, record.balance, "stand", overdraw=True)])

    async def play(self, player: str, action: str, **kw: Any) -> Dict[str, Any]:
        """A round action of the player's own seat: ``"submit"`` (front, middle, back),
        ``"declare"`` (special, cards), ``"give"`` (cards), ``"surrender"``."""
        async with self.lock:
            rnd = self.table.round
            seat = self._round_seat(player)
            assert rnd is not None
            if action == "submit":
                rnd.submit(seat, {"front": kw["front"], "middle": kw["middle"], "back": kw["back"]})
            elif action == "declare":
                cards = kw.get("cards")
                hand = list(rnd.hand(seat)) if cards is None else list(parse_cards(cards))
                rnd.submit(seat, Declaration(hand, kw.get("special")))
            elif action == "give":
                rnd.give(seat, kw["cards"])
            elif action == "surrender":
                rnd.surrender(seat)
            else:  # pragma: no cover - the protocol names the actions
                raise GameError(f"unknown action {action!r}", code="unknown")
            await self.commit()
        await self.publish()
        self.changed.set()
        return {}

    async def hints(self, player: str, n: int) -> List[Dict[str, Any]]:
        """Hints (牌型提示) for the player's own hand, best first."""
        async with self.lock:
            rnd = self.table.round
            seat = self._round_seat(player)
            assert rnd is not None
            if rnd.phase not in ("swap", "arrange"):
                raise GameError("no hand to arrange now", code="not_arranging")
        found = await asyncio.to_thread(rnd.hints, seat, n)
        out = []
        for h in found:
            item: Dict[str, Any] = {"label": h.label, "expected": round(h.expected, 3)}
            if h.arrangement is not None:
                item["play"] = play_dict(h.arrangement)
            elif h.surrender:
                item["play"] = {"surrender": True}
            else:
                assert h.special is not None
                item["play"] = {"special": h.special.key, "units": h.special.units}
            out.append(item)
        return out

    # ------------------------------------------------------------------ the clock

    async def run(self) -> None:
        """The room's clock, until cancelled: the AI seats' plays solved (without the lock),
        one step, then wait for a change or the next deadline. A step that fails (the
        database refused a change) is logged, the room is read back from the database, and
        the clock tries again a second later."""
        while True:
            # Cleared before the step, never after the wait: a change that comes while the
            # step runs (or as the wait times out) must wake the next wait.
            self.changed.clear()
            try:
                await self._solve_ai()
                async with self.lock:
                    wait = await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("room %s: the clock step failed; reading the room back", self.id)
                try:
                    async with self.lock:
                        await self.reload()
                except Exception:
                    log.exception("room %s: cannot read the room back", self.id)
                wait = 1.0
            if wait is None or wait > 0:
                try:
                    await asyncio.wait_for(self.changed.wait(), timeout=wait)
                except asyncio.TimeoutError:
                    pass

    async def step(self) -> Optional[float]:
        """Advances the room if it is due; returns seconds until it is worth looking
        again (``None``: until something changes)."""
        rnd = self.table.round
        now = time.time()
        if rnd is None:
            if now < self.next_start:
                return self.next_start - now
            started = await self._start_round()
            return 0.0 if started else None
        if rnd.phase == "swap":
            ai = [s for s in rnd.present if s not in rnd.given and is_ai(rnd.players[s])]
            if ai:
                await self._ai_play(ai)
                return 0.0  # decided on the next turn of the clock, if not yet
            waiting = [
                s for s in rnd.present if s not in rnd.given and not is_ai(rnd.players[s])
            ]
            if waiting and (self.deadline is None or now < self.deadline):
                return None if self.deadline is None else self.deadline - now
            rnd.finish_swap(auto_missing=True)
            self.deadline = now + self.config.arrange_seconds
            await self.commit()
            await self.publish()
            return 0.0
        if rnd.phase == "arrange":
            ai = [s for s in rnd.missing if is_ai(rnd.players[s])]
            if ai:
                await self._ai_play(ai)
                return 0.0  # solved on the next turn of the clock, if not yet
            if rnd.missing and (self.deadline is None or now < self.deadline):
                return None if self.deadline is None else self.deadline - now
            await self._finish_round()
            return self.config.pause_seconds
        return None  # pragma: no cover - a table round is never left settled

    async def _start_round(self) -> bool:
        table = self.table
        now = time.time()
        # People who did not come back in time stand up; people waiting for a seat sit.
        for p in list(self.players):
            if not is_ai(p) and not self.online(p):
                if now - self.offline_since.get(p, now) >= self.config.grace_seconds:
                    await self._stand_up(p)
        for p, (seat, amount) in list(self.waiting.items()):
            free = [s for s, q in enumerate(table.seats) if q is None]
            if not free or not self.online(p):
                continue
            if seat is not None and seat not in free:
                seat = None
            try:
                table.sit(p, seat, balance=amount)
                await self.commit([Move(p, -amount, "sit")])
            except ThirteenError:
                pass
            self.waiting.pop(p, None)
        humans = [p for p in self.players if not is_ai(p)]
        if not any(self.online(p) for p in humans):
            for p in [p for p in self.players if is_ai(p)]:
                await self._stand_up(p)
            return False
        ai_seated = len([p for p in table.players if is_ai(p)])
        while ai_seated < self.config.ai and None in table.seats:
            await self._seat_ai()
            ai_seated += 1
        if len(table.players) < 2 or len(table.players) not in table.rules.players:
            return False
        number = table.rounds_played + 1
        rnd = table.start_round(seed=self.config.round_seed(self.id, number))
        limit = self.config.swap_seconds if rnd.phase == "swap" else self.config.arrange_seconds
        self.deadline = now + limit
        await self.commit()
        await self.publish()
        return True

    async def _seat_ai(self) -> None:
        player = f"ai-{secrets.token_hex(6)}"
        name = f"AI {1 + len([p for p in self.table.players if is_ai(p)])}"
        amount = self.config.ai_bankroll
        await self.db(self.store.new_player, player, name, "ai", amount)
        self.names[player] = name
        self.table.sit(player, balance=amount)
        await self.commit([Move(player, -amount, "sit")])

    async def _solve_ai(self) -> None:
        """Decides for the AI seats still to give (swap-three, 换三张) or to play (a
        submission, or surrendering where the rules allow it), without holding the room's
        lock: a decision takes a while and its time depends on the AI seats' cards, so no
        player's answer may wait for it (nor could time it). The decisions wait in
        ``ai_ready`` for the next step to make (see :meth:`_ai_play`)."""
        rnd = self.table.round
        if rnd is None or rnd.phase not in ("swap", "arrange"):
            return
        phase = rnd.phase
        if phase == "swap":
            seats = [s for s in rnd.present if s not in rnd.given and is_ai(rnd.players[s])]
        else:
            seats = [s for s in rnd.missing if is_ai(rnd.players[s])]
        hands = {s: rnd.hand(s) for s in seats}
        if not seats or (self.ai_ready is not None and self.ai_ready[0] == (phase, hands)):
            return
        players = len(rnd.present) if len(rnd.present) in rnd.rules.players else rnd.seats
        banker = {s: rnd.rules.mode == "banker" and s == rnd.banker for s in seats}
        rules, seed = rnd.rules, rnd.seed

        def solve_all() -> Dict[int, Any]:
            # The gift (换三张) or the play (a submission, or "surrender") the engine makes.
            if phase == "swap":
                return {s: engine_gift(rules, h, players=players, banker=banker[s], seed=gift_seed(seed, s)) for s, h in hands.items()}
            return {s: engine_play(rules, h, players=players, banker=banker[s]) for s, h in hands.items()}

        self.ai_ready = ((phase, hands), await asyncio.to_thread(solve_all))

    async def _ai_play(self, seats: List[int]) -> None:
        """Submits the solved plays of AI ``seats`` whose hands are still the ones solved."""
        rnd = self.table.round
        assert rnd is not None
        ready, self.ai_ready = self.ai_ready, None
        if ready is None:
            return
        (phase, hands), plays = ready
        played = False
        for s in seats:
            if phase == rnd.phase and s in plays and hands.get(s) == rnd.hand(s):
                if phase == "swap":
                    rnd.give(s, plays[s])
                elif isinstance(plays[s], str) and plays[s] == SURRENDER:
                    rnd.surrender(s)
                else:
                    rnd.submit(s, plays[s])
                played = True
        if played:
            await self.commit()
            await self.publish()

    async def _finish_round(self) -> None:
        table = self.table
        rnd = table.round
        assert rnd is not None
        report = table.finish_round(auto_missing=True)
        number = table.rounds_played
        plays = rnd.submissions
        moves = [Move(p, report.balances[p], "stand", overdraw=True) for p in report.stood_up]
        rake = sum(report.result.rake)
        if rake:
            moves.append(Move(HOUSE, rake, "rake"))
        await self.learn_names(list(cast(Tuple[str, ...], report.players)))
        frame = result_frame(self.id, number, report, plays, self.names)
        self.deadline = None
        await self.commit(moves, round_no=number, settlement=frame)
        self.next_start = time.time() + self.config.pause_seconds
        self.broadcast_text(encode_text(frame))
        await self.publish()
