"""Rooms never stall (issue 52, item 4): every path that can make a room playable wakes its
clock. The server is killed (SIGKILL of the real subprocess) at many points of the round
and of the pause, on SQLite and on PostgreSQL; after each restart the player, back, is dealt
within ``pause + 2`` seconds. A player who comes back after the room stood its AI seats up
is dealt again, whether the room stayed in memory or was unloaded; a seat freed by an AI
seat standing up after the round goes to the player waiting for it. Money is conserved
through it all (accounts + seated balances + the house = minted) and no round settles
twice."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest
from server_support import GENEROUS, Server, best_action, database, dealt, money_held, opened, serve  # noqa: F401

from thirteen import RuleSet
from thirteen.server.client import ProtocolError, TableClient

KAIXIN = RuleSet.preset("kaixin")
PAUSE = 1.0


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def conserved(db: str, room: str) -> None:
    """Money: accounts (the house too) + the room's seated balances = all money minted; one
    settlement row per round played."""
    with opened(db) as store:
        held, table = money_held(store, room)
        assert held == store.minted()
        assert store.settlement_count(room) == table.rounds_played


# Seconds after a deal when the server is killed, and whether the player has played by then:
# early in the round, late in the round, at the arrange deadline (2 s: the engine plays for
# the player, 代打), in the pause after the reveal, and about when the next deal comes.
KILLS = [(0.0, False), (0.4, True), (1.2, False), (2.2, False), (0.3, True), (1.0, True), (2.9, False)]


def test_killed_anywhere_a_player_back_is_dealt_within_the_pause(database):
    args = [*GENEROUS, "--ai", "3", "--seed", "11", "--arrange-seconds", "2", "--pause-seconds", str(PAUSE)]
    servers = [Server(database, args).start()]

    async def scenario() -> list:
        waits = []
        c = await TableClient.connect(servers[-1].ws)
        await c.join("alive", "liv")
        await c.request({"type": "sit"})
        await dealt(c)
        for delay, plays in KILLS:
            mine = c.you["round"] if c.you else None
            if plays and mine and mine.get("hand") and not mine.get("play") and mine["phase"] == "arrange":
                with contextlib.suppress(ProtocolError):  # the round may have moved on meanwhile
                    await c.request(best_action(mine["hand"], KAIXIN, 4))
            await asyncio.sleep(delay)
            servers[-1].kill()
            with contextlib.suppress(Exception):
                await c.close()
            servers.append(await asyncio.to_thread(Server(database, args).start, servers[-1].port))  # same address: same leases
            again = await TableClient.connect(servers[-1].ws)
            await again.resume(c.session, c.private)
            start = time.monotonic()
            await dealt(again, timeout=PAUSE + 10)
            waits.append(round(time.monotonic() - start, 2))
            c = again
        await c.close()
        return waits

    try:
        waits = run(scenario())
    finally:
        for server in servers:
            server.stop()
    assert len(waits) == len(KILLS)
    assert all(w <= PAUSE + 2 for w in waits), waits
    conserved(database, "alive")


@pytest.mark.parametrize("idle_seconds", ["60", "0.3"], ids=["in-memory", "unloaded"])
def test_a_player_back_after_the_ai_stood_up_is_dealt(tmp_path, idle_seconds):
    server = serve(tmp_path, "--ai", "3", "--pause-seconds", str(PAUSE), "--room-idle-seconds", idle_seconds)
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("stall", "sta")
            await c.request({"type": "sit"})
            you = await dealt(c)
            await c.request(best_action(you["round"]["hand"], KAIXIN, 4))
            await c.wait_for(lambda f: f["type"] == "result", 30)
            await c.close()  # gone for the pause: at the next start the room stands its AI up
            watcher = await TableClient.connect(server.ws)
            await watcher.join("stall-watch", "wat")  # another room: this one stays unwatched
            await asyncio.sleep(PAUSE + 1.5)
            await watcher.close()
            back = await TableClient.connect(server.ws)
            await back.resume(c.session, c.private)
            start = time.monotonic()
            await dealt(back, 2, timeout=PAUSE + 10)
            took = time.monotonic() - start
            ai = [s for s in back.state["seats"] if s and s["ai"]]
            await back.close()
            return took, len(ai)

        took, ai = run(scenario())
    finally:
        server.stop()
    assert took <= PAUSE + 2 and ai == 3
    conserved(server.db, "stall")


def test_a_seat_freed_goes_to_the_player_waiting_for_it(tmp_path):
    server = serve(tmp_path, "--ai", "3", "--pause-seconds", str(PAUSE))
    try:
        async def scenario():
            a = await TableClient.connect(server.ws)
            await a.join("queue", "que")
            await a.request({"type": "sit"})
            you = await dealt(a)
            b = await TableClient.connect(server.ws)
            await b.join("queue", "bee")
            queued = (await b.request({"type": "sit"}))["queued"]  # full of AI: an AI seat frees after the round
            await a.request(best_action(you["round"]["hand"], KAIXIN, 4))
            await b.wait_for(lambda f: f["type"] == "result", 30)
            start = time.monotonic()
            await dealt(b, 2, timeout=PAUSE + 10)
            took = time.monotonic() - start
            for c in (a, b):
                await c.close()
            return queued, took

        queued, took = run(scenario())
    finally:
        server.stop()
    assert queued is True and took <= PAUSE + 2


def test_rooms_are_not_stalled_by_a_lost_wake_up(tmp_path: Path):
    """Rounds one after another with no pause: each deal follows the last reveal at once
    (a wake-up set while the clock stepped used to be cleared after its wait)."""
    server = serve(tmp_path, "--ai", "3", "--pause-seconds", "0")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("flow", "flo")
            await c.request({"type": "sit"})
            took = []
            for number in range(1, 6):
                you = await dealt(c, number)
                await c.request(best_action(you["round"]["hand"], KAIXIN, 4))
                await c.wait_for(lambda f: f["type"] == "result" and f["round"] == number, 30)
                start = time.monotonic()
                await dealt(c, number + 1, timeout=10)
                took.append(time.monotonic() - start)
            await c.close()
            return took

        took = run(scenario())
    finally:
        server.stop()
    assert max(took) < 2, took
