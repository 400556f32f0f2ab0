"""Crash and restart: ``thirteen serve`` is killed (SIGKILL) mid-round on a real database
(an SQLite file, and PostgreSQL), started again on the same database, and the round resumes where it was (hands, plays,
clock) and settles exactly as the same round does without a crash: the engine's
:class:`~thirteen.Round` on the same seed and plays. Money is neither lost nor doubled:
accounts + seated balances + the house = the money minted, and the round has one
settlement row."""

from __future__ import annotations

import asyncio
import contextlib
import time
import zlib

from server_support import GENEROUS, Server, best_action, database, has_hand, joined, money_held, opened, sit  # noqa: F401

import thirteen
from thirteen import Round, RuleSet
from thirteen.server.client import TableClient

KAIXIN = RuleSet.preset("kaixin")
ARGS = [
    *GENEROUS, "--ai", "0", "--seats", "2", "--seed", "42", "--stake", "100", "--rake", "5,200",
    "--arrange-seconds", "60", "--pause-seconds", "60", "--grace-seconds", "60",
]


def play_of(action: dict):
    if action["type"] == "submit":
        return {k: action[k] for k in ("front", "middle", "back")}
    return None


def test_kill_mid_round_then_resume_and_settle_once(database):
    server = Server(database, ARGS).start()
    restarted = None
    try:
        async def before_crash():
            a, b = await joined(server.ws, "crash", "ann", "bo")
            await sit(a, b)
            ha = (await a.wait_for(has_hand(), 20))["round"]["hand"]
            hb = (await b.wait_for(has_hand(), 20))["round"]["hand"]
            action_a = best_action(ha, KAIXIN, 2)
            await a.request(action_a)  # answered after the commit
            server.kill()  # mid-round, both connected: ann has played, bo has not
            for c in (a, b):
                with contextlib.suppress(Exception):
                    await c.close()
            return (a.session, a.private, ha, action_a), (b.session, b.private, hb)

        dealt_at = time.time()
        (sa, keya, ha, action_a), (sb, keyb, hb) = asyncio.run(before_crash())

        restarted = Server(database, ARGS).start(port=server.port)  # back on its address: its leases

        async def after_restart():
            a = await TableClient.connect(restarted.ws)
            await a.resume(sa, keya)
            b = await TableClient.connect(restarted.ws)
            await b.resume(sb, keyb)
            await b.request({"type": "ping"})
            st_b = b.you
            await a.request({"type": "ping"})
            st_a = a.you
            assert st_a["round"]["hand"] == ha and st_b["round"]["hand"] == hb
            assert st_a["round"]["play"] is not None  # ann's play survived
            assert st_b["round"]["play"] is None
            assert st_b["round"]["number"] == 1
            # the clock kept running: the deadline was saved, not restarted
            assert b.state["round"]["deadline_in"] <= 60 - (time.time() - dealt_at) + 1.0
            action_b = best_action(hb, KAIXIN, 2)
            await b.request(action_b)
            result = await a.wait_for(lambda f: f["type"] == "result", 30)
            await a.close()
            await b.close()
            return action_b, result

        action_b, result = asyncio.run(after_restart())
    finally:
        server.stop()
        if restarted is not None:
            restarted.stop()

    # The same round without a crash.
    seed = (42 + 1 + (zlib.crc32(b"crash") << 32)) % 2**64
    rnd = Round(KAIXIN, ["ann", "bo"], seed=seed, stake=100, rake=(5, 200))
    rnd.deal()
    assert [thirteen.format_cards(list(rnd.hand(s))) for s in (0, 1)] == [ha, hb]
    for seat, (action, hand) in enumerate(((action_a, ha), (action_b, hb))):
        play = play_of(action)
        rnd.submit(seat, play if play else thirteen.Declaration(list(rnd.hand(seat)), action["special"]))
    expected = rnd.settle(balances=[100_000, 100_000])
    assert [s["units"] for s in result["seats"]] == list(expected.units)
    assert [s["money"] for s in result["seats"]] == list(expected.money)
    assert [s["balance"] for s in result["seats"]] == list(expected.balances)
    # rake: 5% of the winner's money, floored, at most 200 (RULES.md 5 "Money")
    win = max(expected.units) * 100
    assert sum(s["rake"] for s in result["seats"]) == min(win * 5 // 100, 200)

    with opened(database) as store:
        assert store.settlement_count("crash") == 1
        held, table = money_held(store, "crash")
        assert table.rounds_played == 1 and table.round is None
        assert store.minted() == 200_000
        assert held == store.minted()
        assert store.balance("house") == sum(s["rake"] for s in result["seats"])
