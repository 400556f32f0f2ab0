"""Several ``thirteen serve`` processes on one PostgreSQL (issue 56): each room is played
by the holder of its lease; a client reaching another process is redirected to it; when the
holder is killed (SIGKILL) or paused (SIGSTOP), mid-round or between rounds, another process
takes the lease within ``--lease-seconds`` and plays on from the database: the round settles
exactly once, money is conserved, and the players are dealt again. A paused holder that
wakes up writes nothing: its lease's version is stale and the database refuses its writes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any, Dict, List, Optional, Tuple

import pytest
from server_support import GENEROUS, Server, best_action, dealt, money_held, opened, pg_database  # noqa: F401

import thirteen
from thirteen.server.client import Redirected, TableClient
from thirteen.server.store import Change, StaleState, Store

KAIXIN = thirteen.RuleSet.preset("kaixin")
LEASE = 2.0
ARGS = [
    *GENEROUS, "--ai", "0", "--seats", "2", "--arrange-seconds", "40", "--pause-seconds", "4",
    "--grace-seconds", "120", "--lease-seconds", str(LEASE),
]


async def reach(urls: List[str], session: str, private: Any, timeout: float = 30.0) -> TableClient:
    """Resumes a session on whichever process plays its room now: tries each of ``urls``
    in turn and follows a redirect that names one of them, until one welcomes it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for url in urls:
            target: Optional[str] = url
            for _ in range(3):  # a redirect or two
                if target not in urls:
                    break
                try:
                    c = await TableClient.connect(target, timeout=2)
                except (OSError, asyncio.TimeoutError):
                    break
                try:
                    await c.resume(session, private, timeout=5)
                    return c
                except Redirected as moved:
                    await c.close()
                    target = moved.url
                except Exception:
                    await c.close()
                    break
        await asyncio.sleep(0.3)
    raise AssertionError("no process took the room over in time")


def money(db: str, room: str) -> Tuple[int, int, int]:
    """(accounts + seated balances, minted, settlements of the room)."""
    with opened(db) as store:
        return money_held(store, room)[0], store.minted(), store.settlement_count(room)


@pytest.mark.parametrize("sig", ["kill", "stop"])
@pytest.mark.parametrize("when", ["mid-round", "between-rounds"])
def test_the_owner_dies_and_another_process_plays_on(pg_database, sig, when):
    servers = [Server(pg_database, ARGS).start() for _ in range(3)]
    owner, others = servers[0], servers[1:]
    try:
        async def scenario() -> Dict[str, Any]:
            out: Dict[str, Any] = {}
            ann = await TableClient.connect(owner.ws)
            await ann.join("fo", "ann")  # the first join: the room is played by `owner`
            bo = await TableClient.connect(others[0].ws)
            with pytest.raises(Redirected) as moved:
                await bo.join("fo", "bo")  # another process: redirected to the owner
            await bo.close()
            out["redirect"] = moved.value.url
            bo = await TableClient.connect(moved.value.url)
            await bo.join("fo", "bo")
            watcher = await TableClient.connect(others[1].ws)  # a client on the third process
            with pytest.raises(Redirected):
                await watcher.join("fo", "watcher")
            await watcher.close()
            for c in (ann, bo):
                await c.request({"type": "sit"})
            hands = [(await dealt(c, 1))["round"]["hand"] for c in (ann, bo)]
            await ann.request(best_action(hands[0], KAIXIN, 2))
            if when == "between-rounds":
                await bo.request(best_action(hands[1], KAIXIN, 2))
                out["result1"] = (await ann.wait_for(lambda f: f["type"] == "result", 20))["round"]
            # the owner dies (or freezes); its clients find the room on another process
            if sig == "kill":
                owner.kill()
            else:
                os.kill(owner.proc.pid, signal.SIGSTOP)
            stopped = time.monotonic()
            urls = [s.ws for s in others]
            sessions = [(c.session, c.private) for c in (ann, bo)]
            for c in (ann, bo):
                c.ws.transport.abort()  # no close handshake with a dead or frozen process
            ann, bo = [await reach(urls, s, k) for s, k in sessions]
            out["took_over_in"] = time.monotonic() - stopped
            if when == "mid-round":
                you = await dealt(bo, 1)
                mine = ann.you or await ann.wait_for(lambda f: f["type"] == "you", 10)
                assert you["round"]["number"] == 1 and mine["round"]["play"] is not None  # kept
                await bo.request(best_action(you["round"]["hand"], KAIXIN, 2))
                out["result1"] = (await ann.wait_for(lambda f: f["type"] == "result", 20))["round"]
            out["dealt2"] = [(await dealt(c, 2, 20))["round"]["number"] for c in (ann, bo)]
            if sig == "stop":  # the frozen holder wakes up: it must write nothing
                os.kill(owner.proc.pid, signal.SIGCONT)
                await asyncio.sleep(2 * LEASE)
            out["money"] = money(pg_database, "fo")
            store = Store(pg_database)
            try:
                out["holder"] = store.lease_owner("fo")
            finally:
                store.close()
            for c in (ann, bo):
                await c.close()
            return out

        out = asyncio.run(scenario())
    finally:
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                os.kill(s.proc.pid, signal.SIGCONT)
            s.stop()
    assert out["redirect"] == owner.ws
    assert out["result1"] == 1
    assert out["took_over_in"] < 3 * LEASE + 5
    assert out["dealt2"] == [2, 2]  # dealt again by the new holder
    held, minted, settled = out["money"]
    assert held == minted == 2 * 100_000  # accounts + seated balances = money minted
    assert settled == 1  # round 1 settled exactly once
    assert out["holder"] in (others[0].ws, others[1].ws)  # the old holder did not take it back
    if sig == "stop":  # woken up, the old holder found its lease taken and let the room go
        assert any("its lease was taken by another process" in line for line in owner.output)


def test_a_write_under_a_lease_taken_over_is_refused(pg_database):
    """Fencing, in the database: once another process has taken the room's lease, a write
    naming the old lease (a paused process waking up) is refused, and nothing of it lands."""
    store = Store(pg_database)
    try:
        table = thirteen.Table(KAIXIN)
        store.create_room("fence", {}, table.to_json())
        first = store.take_lease("fence", "ws://a/ws", 30)
        assert first is not None
        assert store.take_lease("fence", "ws://b/ws", 30) is None  # held: refused
        second = store.take_lease("fence", "ws://b/ws", 30, steal=True)  # (an expired lease)
        assert second is not None and second.lease_version == first.lease_version + 1
        late = Change("fence", first.version, "late", None, lease=first.lease_version)
        assert isinstance(store.commit_many([late])[0], StaleState)
        stale_room = Change("fence", second.version, "late", None, lease=first.lease_version)
        assert isinstance(store.commit_many([stale_room])[0], StaleState)  # fenced by the lease alone
        ok = Change("fence", second.version, table.to_json(), None, lease=second.lease_version)
        assert store.commit_many([ok]) == [second.version + 1]
        assert store.renew_leases("ws://a/ws", {"fence": first.lease_version}, 30) == ["fence"]
        assert store.renew_leases("ws://b/ws", {"fence": second.lease_version}, 30) == []
    finally:
        store.close()
