"""A room of ``thirteen serve``: a :class:`~thirteen.Table` driven by players' actions and
a clock, every change committed to the database before anyone is told of it.

Once changes are saved, the room's ``state`` frame (the same for everyone) is encoded once
and the same bytes queued to every connection, and each player whose own view may have
changed (the seated, those dealt in, those waiting for a seat, the one who acted: a
handful, not the spectators) gets its ``you`` frame, when it differs from the last one its
connection got. A joining spectator is sent the two frames and costs the others nothing.

Actions run one at a time per room (an asyncio lock). Each applies a ``Table`` / ``Round``
method (which validates fully and changes nothing when it raises) and, in the same step,
stages the change for the group commit (:mod:`thirteen.server.commits`); it is answered,
and its frames sent, once the transaction holding it has committed. If the change is
refused the room is read back from the database (and the changes staged on top of it are
refused too). A room whose lease another process took (:mod:`thirteen.server.hub`) leaves
memory. The clock (:meth:`Room.run`)
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
from typing import Any, Callable, Coroutine, Dict, List, Optional, Sequence, Set, Tuple, TypeVar, cast

from thirteen import Declaration, PlayerId, Table, ThirteenError, TableError, parse_cards
from thirteen.game.decisions import SURRENDER, engine_gift, engine_play, gift_seed
from thirteen.server.config import RoomConfig
from thirteen.server.refusals import GameError
from thirteen.server.commits import Committer, Journal, Staged
from thirteen.server.store import HOUSE, Move, StaleState, Store, StoredRoom
from thirteen.server.views import is_ai, play_dict, result_frame, state_frame, you_frame
from thirteen.server.wire import Wire, wire

__all__ = ["Room", "Client", "GameError"]

T = TypeVar("T")
log = logging.getLogger("thirteen.server")


class Client:
    """One live connection of a player: ``send`` queues an encoded frame to it (the same
    :class:`Wire` for every client of a broadcast); ``you`` is the last ``you`` frame sent
    to it (a frame that did not change is not sent again); ``close`` closes it with a code."""

    __slots__ = ("player", "send", "close", "you")

    def __init__(self, player: str, send: Callable[[Wire], None], close: Callable[[int], None] = lambda code: None) -> None:
        self.player = player
        self.send = send
        self.close = close
        self.you: Optional[bytes] = None


class Room:
    """A room: a table, its clients and its clock.

    Args:
        stored: the room as saved.
        store: the database.
        executor: where database calls run (one thread for SQLite).
        committer: the process's group commit (:mod:`thirteen.server.commits`; one of
            the room's own when omitted).
        max_spectators: connections of people not seated (:meth:`admit` refuses more).
        ai_float: AI seats bring money from the house account (token accounts: real
            money is never minted) instead of a bankroll minted for them (play money).
        lost: called when the room finds that another process took its lease (the hub
            takes it out of memory).
    """

    def __init__(
        self,
        stored: StoredRoom,
        store: Store,
        executor: Executor,
        *,
        committer: Optional[Committer] = None,
        max_spectators: int = 50,
        ai_float: bool = False,
        lost: Optional[Callable[["Room"], Coroutine[Any, Any, None]]] = None,
    ) -> None:
        self.id = stored.id
        self.config = RoomConfig.from_dict(stored.config)
        self.store = store
        self.executor = executor
        self.committer = committer if committer is not None else Committer(store)
        self.table: Table = Table.from_json(stored.state)
        self.deadline: Optional[float] = stored.deadline
        self.journal = Journal(self.committer, self.id, stored.version, self._snapshot, self._saved, self._refused)
        self.journal.lease = stored.lease_version
        self.lease_owner = stored.lease_owner
        self.lease_until = float("inf")  # monotonic time the lease is known to last until
        self.lost = lost
        self.broken = False  # a change was refused: the room is read back before anything else
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
        self.ai_float = ai_float
        self.connections = 0  # live clients
        self.reserved = 0  # admitted joins not connected yet
        self.pins = 0  # connections holding the room in memory (app.py)
        self.shown: Set[str] = set()  # players sent a `you` frame by the last publish
        # Decided AI gifts or plays, and 代打 ones: ((phase, hands decided for), decisions).
        self.ai_ready: Optional[Tuple[Tuple[str, Dict[int, Any]], Dict[int, Any]]] = None
        self.auto_ready: Optional[Tuple[Tuple[str, Dict[int, Any]], Dict[int, Any]]] = None
        self.read_back: Optional[asyncio.Task[None]] = None
        self.deferred: Optional[Tuple[bool, Set[str]]] = None  # a publish waiting for a save
        self.last_used = time.monotonic()
        now = time.time()
        for p in self.table.players:
            self.offline_since.setdefault(p, now)

    # ------------------------------------------------------------------ plumbing

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Runs a database call on the executor."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args, **kwargs))

    @property
    def version(self) -> int:
        """The room's saved version."""
        return self.journal.version

    def stage(
        self,
        moves: Sequence[Move] = (),
        *,
        settlement: Optional[Tuple[int, Wire]] = None,
        publish: bool = False,
        also: Sequence[str] = (),
        only: Optional[Sequence[str]] = None,
    ) -> "asyncio.Future[int]":
        """Records the change just made to the table, with its money ``moves`` and a
        settled round's ``(number, result frame)``, for the group commit
        (:mod:`thirteen.server.commits`); returns the future done once it is saved.
        Once saved, the result frame goes to everyone, then with ``publish`` the room's
        frames (:meth:`publish` with ``also`` or ``only``), once for every change saved
        together, before any caller is answered.

        Raises:
            StaleState: the room is being read back after a refused change.
        """
        if self.broken:
            raise StaleState(f"room {self.id} is being read back from the database")
        if time.monotonic() > self.lease_until:
            raise StaleState(f"room {self.id}: its lease was not renewed in time")
        report = None if settlement is None else (settlement[0], settlement[1].text)
        return self.journal.stage(
            moves,
            settlement=report,
            frames=() if settlement is None else (settlement[1],),
            publish=publish,
            full=only is None,
            you=tuple(also) if only is None else tuple(only),
        )

    async def commit(self, moves: Sequence[Move] = (), **publish: Any) -> None:
        """:meth:`stage` the change and wait until it is saved (its refusal is raised)."""
        await self.stage(moves, **publish)

    def _snapshot(self) -> Tuple[str, Optional[float]]:
        return self.table.to_json(), self.deadline

    def _saved(self, version: int, staged: Staged) -> None:
        for move in staged.moves:
            if move.player in self.accounts:
                self.accounts[move.player] += move.amount
        for item in staged.frames:
            self.broadcast(item)
        if staged.publish:
            self._request(staged.full, staged.you)
        if self.journal.staged is None and self.deferred is not None:
            full, you = self.deferred
            self.deferred = None
            self.publish_soon(tuple(you), only=None if full else tuple(you))

    def _request(self, full: bool, you: Set[str]) -> None:
        """Remembers a publish until the room's state in memory is all saved."""
        if self.deferred is None:
            self.deferred = (full, set(you))
        else:
            self.deferred = (self.deferred[0] or full, self.deferred[1] | you)

    def _refused(self, error: BaseException) -> None:
        """A change was refused: nothing more is staged until the room is read back."""
        log.warning("room %s: a change was refused (%s); reading the room back", self.id, error)
        self.broken = True
        self.read_back = asyncio.get_running_loop().create_task(self._read_back())

    async def _read_back(self) -> None:
        async with self.lock:
            try:
                await self.reload()
                self.broken = False
            except Exception:
                log.exception("room %s: cannot read the room back", self.id)
                return
        await self.publish()
        self.changed.set()

    @property
    def lease(self) -> int:
        """The version of the room's lease this process holds."""
        return self.journal.lease or 0

    async def reload(self) -> None:
        """The room as last saved (StaleState when another process took its lease: the
        room then leaves memory)."""
        stored = await self.db(self.store.room, self.id)
        assert stored is not None
        if stored.lease_version != self.lease or stored.lease_owner != self.lease_owner:
            if self.lost is not None:
                asyncio.get_running_loop().create_task(self.lost(self))
            raise StaleState(f"room {self.id}: another process holds its lease")
        self.table = Table.from_json(stored.state)
        self.journal.version = stored.version
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

    def public_wire(self) -> Wire:
        """The ``state`` frame, encoded once for everyone in the room."""
        left = None if self.deadline is None or self.table.round is None else self.deadline - time.time()
        frame = state_frame(
            self.id,
            self.table,
            names=self.names,
            online={p: self.online(p) for p in self.players},
            deadline_in=left,
            ladders=(self.config.money_ladder, self.config.points_ladder),
        )
        return wire(frame)

    def move_clients(self, url: Optional[str]) -> None:
        """Sends every connection of the room the ``redirect`` frame naming the process
        that plays it now (``url``; ``None``: not known, try any) and closes it (4307)."""
        item = wire({"type": "redirect", "room": self.id, "url": url})
        for clients in list(self.clients.values()):
            for client in list(clients):
                client.send(item)
                client.close(4307)

    def broadcast(self, item: Wire) -> None:
        """Queues one encoded frame to every connection of the room."""
        for clients in self.clients.values():
            for client in clients:
                client.send(item)

    async def publish(self, also: Tuple[str, ...] = (), *, only: Optional[Tuple[str, ...]] = None) -> None:
        """Sends everyone the room's ``state`` (made once) and the ``you`` frame to each
        player whose own view may have changed: the seated, those dealt in or waiting now
        or at the last publish, and ``also``; with ``only``, to those players alone (a
        seat's own round action changes no other seat's view)."""
        await self.learn_names(list(self.players))
        for player in self._you_targets(also, only, remember=False):
            if self.clients.get(player):
                await self.account(player)
        self.publish_soon(also, only=only)

    def publish_soon(self, also: Tuple[str, ...] = (), *, only: Optional[Tuple[str, ...]] = None) -> None:
        """:meth:`publish` now when the names and accounts it shows are known (the usual
        case), else in a task that reads them first; but while changes in memory are not
        all saved, after the save (a frame never shows what a crash could undo)."""
        if self.journal.staged is not None or self.journal.writing is not None:
            self._request(only is None, set(also if only is None else only))
            return
        known = all(p in self.names for p in self.players) and all(
            p in self.accounts for p in self._you_targets(also, only, remember=False) if self.clients.get(p)
        )
        if known:
            self._publish_now(also, only)
        else:
            asyncio.get_running_loop().create_task(self.publish(also, only=only))

    def _you_targets(self, also: Tuple[str, ...], only: Optional[Tuple[str, ...]], *, remember: bool) -> Set[str]:
        if only is not None:
            return set(only)
        now = set(self.players) | set(self.waiting)
        if self.table.round is not None:
            now |= {cast(str, p) for p in self.table.round.players}
        targets = now | self.shown | set(also)
        if remember:
            self.shown = now
        return targets

    def _publish_now(self, also: Tuple[str, ...], only: Optional[Tuple[str, ...]]) -> None:
        self.broadcast(self.public_wire())
        for player in self._you_targets(also, only, remember=True):
            self._send_you_now(player)

    async def send_you(self, player: str) -> None:
        """The player's ``you`` frame, to each of its connections that was not sent this
        same frame last."""
        if self.clients.get(player):
            await self.account(player)
            self._send_you_now(player)

    def _send_you_now(self, player: str) -> None:
        clients = self.clients.get(player)
        if not clients:
            return
        frame = you_frame(
            self.table,
            viewer=player,
            name=self.names.get(player, ""),
            account=self.accounts.get(player),
            waiting=player in self.waiting,
        )
        item = wire(frame)
        for client in list(clients):
            if client.you != item.data:
                client.you = item.data
                client.send(item)

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
            self.accounts.pop(player, None)
            await self.learn_names([player])
            await self.account(player)
            changed = seated and self.table.player(player).disconnected
            if changed:
                self.table.reconnect(player)
                await self.commit(publish=True, also=(player,))
            self.last_used = time.monotonic()
        if seated and not changed:
            await self.publish(also=(player,))
        elif not seated:
            if self.journal.staged is None and self.journal.writing is None:
                client.send(self.public_wire())
                await self.send_you(player)
            else:  # the room's next frames, once saved, go to it too
                self._request(False, {player})
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
                    await self.commit(publish=True)
                    seated = False  # published with the change
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
                    self._stand_up(target)
                else:
                    self.table.stand_after_round(target)
                    self.waiting[player] = (seat, amount)
                    await self.commit(publish=True, also=(player,))
                    queued = True
            if not queued:
                self.table.sit(player, seat, balance=amount)
                await self.commit([Move(player, -amount, "sit")], publish=True, also=(player,))
            result = {"queued": queued}
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
                later = True
            else:
                self._stand_up(player)
                later = False
            await self.commit(publish=True, also=(player,))
        self.changed.set()
        return {"after_round": later}

    def _stand_up(self, player: str) -> "asyncio.Future[int]":
        """Stands the player up now, its table balance back to its account (staged)."""
        record = self.table.stand(player)
        return self.stage(self._stand_moves(player, record.balance))

    def _stand_moves(self, player: str, balance: int, round_no: Optional[int] = None) -> List[Move]:
        """The money of a seat standing up with ``balance``: back to its account, and an
        AI seat's float on to the house (token accounts)."""
        moves = [Move(player, balance, "stand", overdraw=True, round_no=round_no)]
        if self.ai_float and is_ai(player):
            moves += [
                Move(player, -balance, "float", overdraw=True, round_no=round_no),
                Move(HOUSE, balance, "float", overdraw=True, round_no=round_no),
            ]
        return moves

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
            saved = self.stage(publish=True, only=(player,))
        await saved  # sent with the others saved with it; answered once saved
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
            self._auto_play()  # the gifts decided for the seats the engine gives for (代打)
            rnd.finish_swap(auto_missing=True)
            self.deadline = now + self.config.arrange_seconds
            await self.commit(publish=True)
            return 0.0
        if rnd.phase == "arrange":
            ai = [s for s in rnd.missing if is_ai(rnd.players[s])]
            if ai:
                await self._ai_play(ai)
                return 0.0  # solved on the next turn of the clock, if not yet
            if rnd.missing and (self.deadline is None or now < self.deadline):
                return None if self.deadline is None else self.deadline - now
            self._auto_play()
            await self._finish_round()
            return self.config.pause_seconds
        return None  # pragma: no cover - a table round is never left settled

    async def _start_round(self) -> bool:
        """Stands up who did not come back, seats who waited, fills seats with AI players
        and deals, when the room can play: one change, saved before anyone is told."""
        table = self.table
        now = time.time()
        staged: List["asyncio.Future[int]"] = []
        # People who did not come back in time stand up; people waiting for a seat sit.
        for p in list(self.players):
            if not is_ai(p) and not self.online(p):
                if now - self.offline_since.get(p, now) >= self.config.grace_seconds:
                    staged.append(self._stand_up(p))
        for p, (seat, amount) in list(self.waiting.items()):
            free = [s for s, q in enumerate(table.seats) if q is None]
            if not free or not self.online(p):
                continue
            if seat is not None and seat not in free:
                seat = None
            try:
                table.sit(p, seat, balance=amount)
                staged.append(self.stage([Move(p, -amount, "sit")]))
            except ThirteenError:
                pass
            self.waiting.pop(p, None)
        humans = [p for p in self.players if not is_ai(p)]
        started = False
        if not any(self.online(p) for p in humans):
            for p in [p for p in self.players if is_ai(p)]:
                staged.append(self._stand_up(p))
        else:
            ai_seated = len([p for p in table.players if is_ai(p)])
            while ai_seated < self.config.ai and None in table.seats:
                seated = await self._seat_ai()
                if seated is None:
                    break
                staged.append(seated)
                ai_seated += 1
            if len(table.players) >= 2 and len(table.players) in table.rules.players:
                number = table.rounds_played + 1
                rnd = table.start_round(seed=self.config.round_seed(self.id, number))
                limit = self.config.swap_seconds if rnd.phase == "swap" else self.config.arrange_seconds
                self.deadline = now + limit
                staged.append(self.stage())
                started = True
        if staged:
            self.stage(publish=True)
            for saved in staged:
                await saved
        return started

    async def _seat_ai(self) -> "Optional[asyncio.Future[int]]":
        """Seats an AI player (staged): with a bankroll minted for it (play money), or
        with ``ai_float`` moved from the house account, when the house can pay it (else
        no AI seat sits: ``None``)."""
        player = f"ai-{secrets.token_hex(6)}"
        name = f"AI {1 + len([p for p in self.table.players if is_ai(p)])}"
        amount = self.config.ai_bankroll
        if self.ai_float:
            if await self.db(self.store.balance, HOUSE) < amount:
                log.info("room %s: the house cannot float an AI seat (%d)", self.id, amount)
                return None
            await self.db(self.store.new_player, player, name, "ai", 0)
            moves = [Move(HOUSE, -amount, "float"), Move(player, amount, "float")]
        else:
            await self.db(self.store.new_player, player, name, "ai", amount)
            moves = []
        self.names[player] = name
        self.table.sit(player, balance=amount)
        return self.stage(moves + [Move(player, -amount, "sit")])

    async def _solve_ai(self) -> None:
        """Decides, without holding the room's lock, for the AI seats still to give
        (swap-three, 换三张) or to play (a submission, or surrendering where the rules allow
        it), and for the people's seats the engine will decide for (代打: out of time, or
        disconnected): a decision takes a while and its time depends on the seat's cards,
        so no player's answer may wait for it (nor could time it). The decisions wait in
        ``ai_ready`` and ``auto_ready`` for the next step (:meth:`_ai_play`,
        :meth:`_auto_play`)."""
        rnd = self.table.round
        if rnd is None or rnd.phase not in ("swap", "arrange"):
            return
        phase = rnd.phase
        late = self.deadline is not None and time.time() >= self.deadline
        if phase == "swap":
            open_seats = [s for s in rnd.present if s not in rnd.given]
        else:
            open_seats = list(rnd.missing)
        ai = [s for s in open_seats if is_ai(rnd.players[s])]
        auto = [s for s in open_seats if not is_ai(rnd.players[s]) and (late or s in rnd.disconnected)]
        players = len(rnd.present) if len(rnd.present) in rnd.rules.players else rnd.seats
        banker = rnd.banker if rnd.rules.mode == "banker" else None
        rules, seed = rnd.rules, rnd.seed
        for seats, attr in ((ai, "ai_ready"), (auto, "auto_ready")):
            hands = {s: rnd.hand(s) for s in seats}
            ready = getattr(self, attr)
            if seats and (ready is None or ready[0] != (phase, hands)):
                decided = await asyncio.to_thread(_decide, phase, rules, players, banker, seed, hands)
                setattr(self, attr, ((phase, hands), decided))

    def _auto_play(self) -> None:
        """Records the decisions of the people's seats the engine decides for (代打: a gift
        in the swap, a play or surrendering in the arrangement), whose hands are still the
        ones decided for; a seat not decided yet is decided when the swap ends
        (``finish_swap(auto_missing=True)``) or the round settles."""
        rnd = self.table.round
        ready, self.auto_ready = self.auto_ready, None
        if rnd is None or ready is None:
            return
        (phase, hands), decided = ready
        if phase != rnd.phase:
            return
        late = self.deadline is not None and time.time() >= self.deadline
        seats = [s for s in rnd.present if s not in rnd.given] if phase == "swap" else rnd.missing
        for s in seats:
            if s in decided and hands.get(s) == rnd.hand(s) and not is_ai(rnd.players[s]):
                if s in rnd.disconnected:
                    rnd.auto(s, "disconnect", play=decided[s])
                elif late:
                    rnd.auto(s, "timeout", play=decided[s])

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
            await self.stage(publish=True, only=())

    async def _finish_round(self) -> None:
        table = self.table
        rnd = table.round
        assert rnd is not None
        report = table.finish_round(auto_missing=True)
        number = table.rounds_played
        plays = rnd.submissions
        moves = [m for p in report.stood_up for m in self._stand_moves(p, report.balances[p], number)]
        rake = sum(report.result.rake)
        if rake:
            moves.append(Move(HOUSE, rake, "rake", round_no=number))
        await self.learn_names(list(cast(Tuple[str, ...], report.players)))
        result = wire(result_frame(self.id, number, report, plays, self.names))
        self.deadline = None
        self.next_start = time.time() + self.config.pause_seconds
        await self.commit(moves, settlement=(number, result), publish=True)


def _decide(
    phase: str, rules: Any, players: int, banker: Optional[int], seed: Optional[int], hands: Dict[int, Any]
) -> Dict[int, Any]:
    """The engine's decisions for round seats holding ``hands`` at a table of ``players``
    (``banker``: the banker's seat in banker mode), run in a thread: in the ``"swap"`` phase
    each seat's gift (换三张, the round's ``seed`` makes it a replay's), else its play (a
    submission, or ``"surrender"``)."""
    if phase == "swap":
        return {
            s: engine_gift(rules, h, players=players, banker=s == banker, seed=gift_seed(seed, s))
            for s, h in hands.items()
        }
    return {s: engine_play(rules, h, players=players, banker=s == banker) for s, h in hands.items()}
