"""The rooms a ``thirteen serve`` process holds in memory, their leases, and its database.

A process plays a room only while it holds the room's lease (``Store.take_lease``): taken
when someone joins or resumes into the room, renewed every third of ``lease_seconds``
(PostgreSQL; on SQLite, one process's database, a process takes every room it touches),
released when the room leaves memory or the server stops. A room whose lease another
process holds is refused with :class:`Moved` (the client is redirected there); a room whose
lease this process lost leaves memory and its clients are redirected; rooms with a round in
progress whose lease lapsed (their process died) are taken over, clocks and all.

At most ``max_rooms`` rooms are in memory. A room is loaded when someone joins or resumes
into it (created when new), and leaves memory when it is idle (no connection, no round in
progress, nobody waiting for a seat) for ``room_idle_seconds``, or at once when another
room needs its place. Its state is in the database all along: an unloaded room is loaded
again, as it was, on demand. At start only rooms with a round in progress are loaded (their
clocks must run: the round settles on time even if nobody comes back), the soonest
deadline first, up to ``max_rooms``; the others wait in the database. The solver's tables
for the room settings' rules are loaded before the server answers (a second, once), so that
the first AI play after a restart does not hold its room up; other table sizes load in the
background.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Dict, Optional, TypeVar

from thirteen import Round, solve
from thirteen.server.commits import Committer
from thirteen.server.config import RoomConfig
from thirteen.server.refusals import GameError
from thirteen.server.room import Room
from thirteen.server.settings import ServerSettings
from thirteen.server.store import Store, StoredRoom

__all__ = ["Hub", "Moved"]

T = TypeVar("T")
log = logging.getLogger("thirteen.server")


class Moved(Exception):
    """Another process holds the room's lease: ``url`` is its address (``None`` when
    nobody holds it at this moment: try again)."""

    def __init__(self, room: str, url: Optional[str]) -> None:
        super().__init__(f"room {room} is played by {url or 'another process'}")
        self.room = room
        self.url = url


class Hub:
    """The rooms in memory and the database of one server process.

    Args:
        settings: the server's settings.
    """

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.store = Store(settings.db)
        workers = 1 if self.store.sqlite else 4
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="thirteen-db")
        self.committer = Committer(self.store)
        self.rooms: Dict[str, Room] = {}
        self.lock = asyncio.Lock()
        self.sweeper: Optional[asyncio.Task[None]] = None
        self.warming: Optional[asyncio.Task[None]] = None
        self.leasing: Optional[asyncio.Task[None]] = None
        # This process's name in the rooms' leases: the address its clients reach it at
        # (a redirect names it). SQLite is one process's database: it takes every room.
        self.owner = settings.advertise or f"process-{secrets.token_hex(8)}"
        self.steal = self.store.sqlite

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Runs a database call on the database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args, **kwargs))

    async def start(self) -> None:
        """Checks the room settings, loads the rooms with a round in progress and starts
        the sweeper of idle rooms."""
        self.settings.room.new_table()  # bad room settings fail at start, not at the first join
        await asyncio.to_thread(_warm_up, self.settings.room, True)
        self.warming = asyncio.create_task(asyncio.to_thread(_warm_up, self.settings.room, False), name="thirteen warm-up")
        for stored in await self.db(self.store.rooms_in_play, self.settings.max_rooms):
            taken = await self.db(self._take, stored.id)
            if taken is not None:
                self._run(taken)
        self.sweeper = asyncio.create_task(self._sweep(), name="thirteen idle rooms")
        # What is loaded now (the solver's and the rule sets' objects, the rooms) stays:
        # the garbage collector no longer walks it (shorter pauses under load).
        gc.collect()
        gc.freeze()
        if not self.steal:  # SQLite is one process's: its leases need no renewing
            self.leasing = asyncio.create_task(self._leases(), name="thirteen leases")

    async def stop(self) -> None:
        """Stops every clock, the database threads and the connection pool."""
        if self.warming is not None:
            with contextlib.suppress(Exception):
                await self.warming
        for task in (self.sweeper, self.leasing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            if room.task is not None:
                room.task.cancel()
        for room in list(self.rooms.values()):
            if room.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task
        for room in list(self.rooms.values()):  # another process may take them at once
            with contextlib.suppress(Exception):
                await self.db(self.store.release_lease, room.id, self.owner, room.lease)
        self.committer.stop()
        self.executor.shutdown(wait=True)
        self.store.close()

    def _run(self, stored: StoredRoom) -> Room:
        room = Room(
            stored, self.store, self.executor, committer=self.committer,
            max_spectators=self.settings.max_spectators,
            ai_float=self.settings.accounts == "token",
            lost=self._lost,
        )
        if not self.steal:
            room.lease_until = time.monotonic() + self.settings.lease_seconds
        self.rooms[room.id] = room
        room.task = asyncio.create_task(room.run(), name=f"room {room.id}")
        return room

    async def enter(self, name: str) -> Room:
        """The room ``name`` in memory (loaded, or created with the server's room settings
        when new), held there until :meth:`leave`.

        Raises:
            GameError: ``server_busy``: ``max_rooms`` rooms are in memory and none is idle.
            Moved: another process holds the room's lease (it plays the room).
        """
        async with self.lock:
            room = self.rooms.get(name)
            if room is None:
                if len(self.rooms) >= self.settings.max_rooms and not await self._unload_one():
                    raise GameError(f"{len(self.rooms)} rooms in memory, none idle", code="server_busy")
                stored = await self.db(self.store.room, name)
                if stored is None:
                    config = self.settings.room
                    state = config.new_table().to_json()
                    await self.db(self.store.create_room, name, config.to_dict(), state)
                taken = await self.db(self._take, name)
                if taken is None:
                    raise Moved(name, await self.db(self.store.lease_owner, name))
                room = self._run(taken)
            room.pins += 1
            room.last_used = time.monotonic()
            return room

    def leave(self, room: Room) -> None:
        """A connection no longer holds ``room`` (see :meth:`enter`)."""
        room.pins -= 1
        room.last_used = time.monotonic()

    async def _unload_one(self) -> bool:
        """Unloads the idle room used longest ago; False when none is idle. Call it with
        the lock held."""
        idle = [r for r in self.rooms.values() if r.idle()]
        if not idle:
            return False
        await self._unload(min(idle, key=lambda r: r.last_used))
        return True

    async def _unload(self, room: Room) -> None:
        del self.rooms[room.id]
        await room.close()
        await self.db(self.store.release_lease, room.id, self.owner, room.lease)
        log.info("room %s unloaded (idle)", room.id)

    # ------------------------------------------------------------------ leases

    def _take(self, name: str) -> Optional[StoredRoom]:
        """The room's lease for this process (on the database thread), or ``None``."""
        return self.store.take_lease(name, self.owner, self.settings.lease_seconds, steal=self.steal)

    async def _leases(self) -> None:
        """Every third of ``lease_seconds``: renews the leases of the rooms in memory (a
        room whose lease another process took leaves memory at once), and takes the
        rooms with a round in progress whose holder stopped renewing (it died or is
        paused), so that their clocks run here."""
        every = self.settings.lease_seconds / 3
        while True:
            await asyncio.sleep(every)
            try:
                await self._renew()
                await self._adopt()
            except Exception:  # the leases must keep being renewed
                log.exception("renewing the rooms' leases failed")

    async def _renew(self) -> None:
        held = {room.id: room.lease for room in self.rooms.values()}
        if not held:
            return
        sent = time.monotonic()
        lost = await self.db(self.store.renew_leases, self.owner, held, self.settings.lease_seconds)
        for name in held:
            room = self.rooms.get(name)
            if room is not None and name not in lost:
                room.lease_until = sent + self.settings.lease_seconds
        for name in lost:
            room = self.rooms.get(name)
            if room is not None and room.lease == held[name]:
                await self._lost(room)

    async def _adopt(self) -> None:
        room_slots = self.settings.max_rooms - len(self.rooms)
        if room_slots <= 0:
            return
        for name in await self.db(self.store.orphans, room_slots):
            async with self.lock:
                if name in self.rooms or len(self.rooms) >= self.settings.max_rooms:
                    continue
                taken = await self.db(self._take, name)
                if taken is not None:
                    log.info("room %s: its lease had lapsed; playing it here", name)
                    self._run(taken)

    async def _lost(self, room: Room) -> None:
        """Another process holds the room's lease now: the room leaves memory at once (its
        clock stops, nothing more of it is written) and its clients are sent where it is
        played."""
        if self.rooms.get(room.id) is not room:
            return
        del self.rooms[room.id]
        log.warning("room %s: its lease was taken by another process; it leaves memory", room.id)
        if room.task is not None:
            room.task.cancel()
        owner = None
        with contextlib.suppress(Exception):
            owner = await self.db(self.store.lease_owner, room.id)
        room.move_clients(owner)

    async def _sweep(self) -> None:
        """Unloads rooms idle for ``room_idle_seconds``, every few seconds."""
        every = max(0.2, min(5.0, self.settings.room_idle_seconds / 2))
        while True:
            await asyncio.sleep(every)
            try:
                async with self.lock:
                    now = time.monotonic()
                    for room in list(self.rooms.values()):
                        if room.idle() and now - room.last_used >= self.settings.room_idle_seconds:
                            await self._unload(room)
            except Exception:  # the sweeper must keep running
                log.exception("unloading idle rooms failed")


def _warm_up(config: RoomConfig, room_size: bool) -> None:
    """Loads the solver's tables for ``config``'s rules at the room's size (``room_size``)
    or at every other table size they allow (one solve each): what the first AI play or
    auto-arrangement would otherwise wait for."""
    try:
        rules = config.rule_set()
        size = config.seats or max(rules.players)
        for players in [size] if room_size else [n for n in rules.players if n != size]:
            rnd = Round(rules, players, seed=0)
            rnd.deal()
            solve(rnd.hand(0), rules, players=players)
    except Exception:  # a warm-up only: the first real solve reports any problem
        log.exception("warming the solver up failed")
