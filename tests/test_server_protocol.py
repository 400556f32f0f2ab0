"""``thirteen serve`` end to end: a real server subprocess on 127.0.0.1, a real SQLite file,
real WebSocket clients. Expected money comes from RULES.md (escape, surrender, stake
arithmetic, the ladder thresholds) or from the engine's own Round on the same seed and
plays (the server must apply the engine faithfully)."""

from __future__ import annotations

import asyncio
import random
import zlib

import pytest
from server_support import best_action, cards_in, dealt, joined, lanes, serve, sit

import thirteen
from thirteen import Round, RuleSet
from thirteen.server.client import ProtocolError, TableClient

KAIXIN = RuleSet.preset("kaixin")


@pytest.fixture(scope="module")
def ai_server(tmp_path_factory):
    server = serve(
        tmp_path_factory.mktemp("ai"),
        "--ai", "3", "--seed", "1000", "--arrange-seconds", "30", "--pause-seconds", "0.2",
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def duo_server(tmp_path_factory):
    """Two seats, no AI, a short clock: for disconnects, timeouts, escapes."""
    server = serve(
        tmp_path_factory.mktemp("duo"),
        "--ai", "0", "--seats", "2", "--seed", "77", "--arrange-seconds", "3",
        "--pause-seconds", "0.2", "--grace-seconds", "0.5",
    )
    yield server
    server.stop()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def fouled_split(hand: str, rules: RuleSet) -> dict:
    """Some fouled arrangement of the hand (front <= middle <= back broken)."""
    cards = list(thirteen.parse_cards(hand))
    rng = random.Random(0)
    while True:
        rng.shuffle(cards)
        arr = thirteen.Arrangement(cards[:3], cards[3:8], cards[8:13], rules)
        if thirteen.is_foul(arr, rules):
            return lanes(arr)


def test_the_card_scan_reads_cards_but_not_random_ids():
    """The leak check's scan (``cards_in``) must find every card and nothing in the server's
    URL-safe ids and secrets: ``token_urlsafe`` output such as ``x-3c_Q`` once read as 3c."""
    frame = {
        "hand": "As Kd 10h 2c",
        "plays": [{"front": "Qs", "label": "pair of queens / two pair / flush"}],
        "session": "ab-3c_Kd-7sQ",
        "player": "p-5h_x",
        "secret": "9d-_Td",
    }
    assert cards_in(frame) == {"As", "Kd", "Th", "2c", "Qs"}


def test_a_round_against_ai_seats(ai_server):
    async def scenario():
        c = await TableClient.connect(ai_server.ws)
        await c.join("basic", "ann")
        sat = await c.request({"type": "sit"})
        assert sat["queued"] is False
        you = await dealt(c)
        hand = you["round"]["hand"]
        assert [s["ai"] for s in c.state["seats"]] == [False, True, True, True]
        assert len(hand.split()) == 13
        # Hints (牌型提示): labelled plays of the own hand, best first.
        hints = (await c.request({"type": "hints", "n": 3}))["hints"]
        assert 1 <= len(hints) <= 3
        assert all("label" in h and "play" in h for h in hints)
        # A fouled split is reported by check and refused by submit (kaixin: foul = reject).
        bad = fouled_split(hand, KAIXIN)
        checked = await c.request({"type": "check", **bad})
        assert checked["foul"] is True
        with pytest.raises(ProtocolError) as err:
            await c.request({"type": "submit", **bad})
        assert err.value.code == "fouled"
        action = best_action(hand, KAIXIN, 4)
        if action["type"] == "submit":
            assert (await c.request({"type": "check", **{k: action[k] for k in ("front", "middle", "back")}}))["foul"] is False
        await c.request(action)
        result = await c.wait_for(lambda f: f["type"] == "result", 30)
        frames_before = c.frames[: c.frames.index(result)]
        await c.close()
        return hand, action, frames_before, result

    hand, action, before, result = run(scenario())
    # Only the own hand travels before the reveal.
    own = {str(x) for x in thirteen.parse_cards(hand)}
    seen = set().union(*(cards_in(f) for f in before))
    assert seen <= own
    everyone = cards_in([s["play"] for s in result["seats"]])
    assert len(everyone) == 52 and everyone - own  # the reveal shows the others

    # The same round by the engine: seed 1000 + round 1 + crc32("basic") * 2**32, AI seats
    # played by solve.
    rnd = Round(KAIXIN, 4, seed=1001 + (zlib.crc32(b"basic") << 32), stake=100)
    rnd.deal()
    assert thirteen.format_cards(list(rnd.hand(0))) == hand
    for seat in range(4):
        if seat == 0:
            sub = action if action["type"] == "submit" else None
            rnd.submit(0, {k: action[k] for k in ("front", "middle", "back")} if sub else
                       thirteen.Declaration(list(rnd.hand(0)), action["special"]))
        else:
            rnd.submit(seat, thirteen.solve(rnd.hand(seat), KAIXIN, players=4).submission())
    expected = rnd.settle()
    units = [s["units"] for s in result["seats"]]
    assert units == list(expected.units)
    assert sum(units) == 0
    for s in result["seats"]:
        assert s["money"] == s["units"] * 100  # stake 100, no rake
    assert result["seats"][0]["balance"] == 100_000 + result["seats"][0]["money"]


def test_two_players_disconnect_reconnect_and_timeout(duo_server):
    async def scenario():
        a, b = await joined(duo_server.ws, "duo1", "ann", "bo")
        await sit(a, b)
        sa = await dealt(a)
        hand_b = (await dealt(b))["round"]["hand"]
        # b drops (断线): a sees it; b comes back on a new connection to the same seat.
        session, private = b.session, b.private
        await b.close()
        st = await a.wait_for(lambda f: f["type"] == "state" and f["seats"][1]["disconnected"], 10)
        assert st["seats"][1]["online"] is False
        b2 = await TableClient.connect(duo_server.ws)
        await b2.resume(session, private)
        st_b = await dealt(b2)
        assert st_b["round"]["hand"] == hand_b
        assert b2.state["seats"][1]["disconnected"] is False
        # a plays, b lets the clock run out: auto-arranged (代打) for "timeout".
        await a.request(best_action(sa["round"]["hand"], KAIXIN, 2))
        result = await a.wait_for(lambda f: f["type"] == "result", 20)
        assert [s["auto"] for s in result["seats"]] == [None, "timeout"]
        assert sum(s["units"] for s in result["seats"]) == 0
        # Round 2: b drops and stays away: played by the engine for "disconnect", then
        # its seat is released and its table money goes back to its account.
        await dealt(b2, 2)
        await b2.close()
        sa = await dealt(a, 2)
        await a.request(best_action(sa["round"]["hand"], KAIXIN, 2))
        result2 = await a.wait_for(lambda f: f["type"] == "result", 20)
        assert result2["seats"][1]["auto"] == "disconnect"
        assert result2["seats"][1]["stood_up"] == "disconnected"
        b3 = await TableClient.connect(duo_server.ws)
        await b3.resume(session, private)
        you = await b3.wait_for(lambda f: f["type"] == "you", 10)
        assert you["seat"] is None
        assert you["account"] == result2["seats"][1]["balance"]
        await a.request({"type": "stand"})
        for c in (a, b3):
            await c.close()

    run(scenario())


def test_escape_pays_the_kaixin_penalty(duo_server):
    """RULES.md 5 "Escape", kaixin: the leaver pays by_players[2] = 12 units to the winner
    (with two players, the one left); the showdown has one seat: 0."""

    async def scenario():
        a, b = await joined(duo_server.ws, "duo2", "ann2", "bo2")
        await sit(a, b)
        sa = await dealt(a)
        await dealt(b)
        await b.request({"type": "leave"})
        await a.request(best_action(sa["round"]["hand"], KAIXIN, 2))
        result = await a.wait_for(lambda f: f["type"] == "result", 20)
        assert [s["units"] for s in result["seats"]] == [12, -12]
        assert [s["money"] for s in result["seats"]] == [1200, -1200]
        assert result["seats"][1]["escaped"] is True
        assert result["seats"][1]["stood_up"] == "left"
        you = await b.wait_for(lambda f: f["type"] == "you" and f["seat"] is None, 10)
        assert you["account"] == 100_000 - 1200
        await a.request({"type": "stand"})
        await a.close()
        await b.close()

    run(scenario())


def test_surrender_western(tmp_path):
    """RULES.md 5 step 1, western-2-4: a surrendering seat pays surrender.units = 3 to each
    seat that did not."""
    server = serve(tmp_path, "--rules", "western-2-4", "--seats", "2", "--ai", "1", "--stake", "10")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("w", "ann")
            await c.request({"type": "sit"})
            await dealt(c)
            assert c.state["rules"]["surrender"] is True
            await c.request({"type": "surrender"})
            result = await c.wait_for(lambda f: f["type"] == "result", 20)
            assert [s["units"] for s in result["seats"]] == [-3, 3]
            assert [s["money"] for s in result["seats"]] == [-30, 30]
            assert result["seats"][0]["surrendered"] is True
            await c.close()

        run(scenario())
    finally:
        server.stop()


def test_surrender_refused_where_the_rules_do_not_allow_it(ai_server):
    async def scenario():
        c = await TableClient.connect(ai_server.ws)
        await c.join("nosurrender", "nora")
        await c.request({"type": "sit"})
        await dealt(c)
        with pytest.raises(ProtocolError) as err:
            await c.request({"type": "surrender"})
        assert err.value.code == "surrender_not_allowed"
        await c.close()

    run(scenario())


def ladder_level(money: int) -> int:
    """RULES.md 8: the highest k with 100 * 2**(k-1) <= money (level 1 below 100), 24 at most."""
    level = 1
    for k in range(1, 25):
        if money >= 100 * 2 ** (k - 1):
            level = k
    return level


def test_bankrupt_seats_stand_up_and_levels_move(tmp_path):
    """A stake of 100,000 per unit and a room minimum of 100,000: any seat that loses is
    below the minimum (破产) and stands up; winners move up the money ladder."""
    server = serve(
        tmp_path, "--ai", "3", "--seed", "5", "--stake", "100000", "--min-balance", "100000",
        "--starting-balance", "100000", "--pause-seconds", "30",
    )
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("big", "ann")
            await c.request({"type": "sit"})
            st = await dealt(c)
            await c.request(best_action(st["round"]["hand"], KAIXIN, 4))
            result = await c.wait_for(lambda f: f["type"] == "result", 20)
            after = await c.wait_for(lambda f: f["type"] == "state" and f["round"] is None, 10)
            you = await c.wait_for(lambda f: f["type"] == "you", 10)
            await c.close()
            return result, after, you

        result, after, you = run(scenario())
        moved = {(x["player"], x["ladder"]): x for x in result["level_changes"]}
        for s in result["seats"]:
            assert s["balance"] == 100_000 + s["units"] * 100_000
            assert (s["stood_up"] == "bankrupt") == (s["balance"] < 100_000)
            before, now = ladder_level(100_000), ladder_level(max(s["balance"], 0))
            change = moved.get((s["player"], "bianfeng-money"))
            if before == now:
                assert change is None
            else:
                assert (change["before"]["level"], change["after"]["level"]) == (before, now)
        assert any(s["stood_up"] == "bankrupt" for s in result["seats"])
        seated = {s["player"] for s in after["seats"] if s}
        assert seated == {s["player"] for s in result["seats"] if s["stood_up"] is None}
        if result["seats"][0]["stood_up"] == "bankrupt":
            assert you["account"] == result["seats"][0]["balance"]
    finally:
        server.stop()


def test_swap_three_with_one_giver_gets_its_own_cards_back(tmp_path):
    """RULES.md 7.3: the given cards are pooled and each player draws back as many as it
    gave; when only one player gives, the pool is its own cards. Two people and no AI seat
    (AI seats give what the engine chooses, below): one gives three cards, the other none."""
    server = serve(tmp_path, "--rules", "kaixin-swap", "--ai", "0", "--seed", "9")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            d = await TableClient.connect(server.ws)
            await c.join("swap", "ann")
            await d.join("swap", "bo")
            await c.request({"type": "sit"})
            await d.request({"type": "sit"})
            swapping = lambda f: f["type"] == "you" and (f["round"] or {}).get("phase") == "swap"
            st = await c.wait_for(swapping, 20)
            await d.wait_for(swapping, 20)
            before = st["round"]["hand"]
            gift = " ".join(before.split()[:3])
            await c.request({"type": "give", "cards": gift})
            await d.request({"type": "give", "cards": ""})
            st = await dealt(c)
            assert sorted(st["round"]["hand"].split()) == sorted(before.split())
            await c.close()
            await d.close()

        run(scenario())
    finally:
        server.stop()


def test_swap_three_pools_the_ai_seats_gifts(tmp_path):
    """Issue 54: AI seats give what the engine chooses (thirteen.gift), so the pool holds
    more than the person's own three cards: with the seed of this room the person draws
    cards it did not hold."""
    server = serve(tmp_path, "--rules", "kaixin-swap", "--ai", "3", "--seed", "9")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("swap", "ann")
            await c.request({"type": "sit"})
            st = await c.wait_for(lambda f: f["type"] == "you" and (f["round"] or {}).get("phase") == "swap", 20)
            before = st["round"]["hand"]
            gift = " ".join(before.split()[:3])
            await c.request({"type": "give", "cards": gift})
            st = await dealt(c)
            after = st["round"]["hand"].split()
            kept = before.split()[3:]
            assert len(after) == 13 and set(kept) <= set(after)
            assert set(after) != set(before.split())
            await c.request(best_action(st["round"]["hand"], RuleSet.preset("kaixin-swap"), 4))
            await c.wait_for(lambda f: f["type"] == "result", 20)
            await c.close()

        run(scenario())
    finally:
        server.stop()


def test_sit_errors_name_the_problem(ai_server):
    async def scenario():
        c = await TableClient.connect(ai_server.ws)
        await c.join("sitting", "sid")
        with pytest.raises(ProtocolError) as err:
            await c.request({"type": "sit", "buy_in": 50})
        assert err.value.code == "below_minimum"
        with pytest.raises(ProtocolError) as err:
            await c.request({"type": "sit", "buy_in": 100_001})
        assert err.value.code == "insufficient_funds"
        with pytest.raises(ProtocolError) as err:
            await c.request({"type": "hints"})
        assert err.value.code == "not_in_round"
        await c.request({"type": "sit", "buy_in": 5_000})
        you = await c.wait_for(lambda f: f["type"] == "you" and f["seat"] is not None, 10)
        assert you["account"] == 95_000
        with pytest.raises(ProtocolError) as err:
            await c.request({"type": "sit"})
        assert err.value.code == "seated"
        await c.close()

    run(scenario())
