"""The rooms a ``thirteen serve`` process holds in memory, and its database.

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
import logging
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

__all__ = ["Hub"]

T = TypeVar("T")
log = logging.getLogger("thirteen.server")


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
            self._run(stored)
        self.sweeper = asyncio.create_task(self._sweep(), name="thirteen idle rooms")

    async def stop(self) -> None:
        """Stops every clock, the database threads and the connection pool."""
        if self.warming is not None:
            with contextlib.suppress(Exception):
                await self.warming
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
        for room in list(self.rooms.values()):
            if room.task is not None:
                room.task.cancel()
        for room in list(self.rooms.values()):
            if room.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task
        self.committer.stop()
        self.executor.shutdown(wait=True)
        self.store.close()

    def _run(self, stored: StoredRoom) -> Room:
        room = Room(
            stored, self.store, self.executor, committer=self.committer,
            max_spectators=self.settings.max_spectators,
            ai_float=self.settings.accounts == "token",
        )
        self.rooms[room.id] = room
        room.task = asyncio.create_task(room.run(), name=f"room {room.id}")
        return room

    async def enter(self, name: str) -> Room:
        """The room ``name`` in memory (loaded, or created with the server's room settings
        when new), held there until :meth:`leave`.

        Raises:
            GameError: ``server_busy``: ``max_rooms`` rooms are in memory and none is idle.
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
                    stored = await self.db(self.store.create_room, name, config.to_dict(), state)
                room = self._run(stored)
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
        log.info("room %s unloaded (idle)", room.id)

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
