"""Security of ``thirteen serve`` over real sockets: signatures (tampered messages),
sequence numbers and nonces (replayed messages), session binding, schema validation,
frame size and rate limits. Each refusal is an ``error`` frame naming the problem, and
nothing of a refused message is applied."""

from __future__ import annotations

import asyncio
import json

import pytest
from server_support import serve

import thirteen
from thirteen.server import security
from thirteen.server.client import ProtocolError, TableClient


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = serve(tmp_path_factory.mktemp("sec"), "--ai", "3", "--seed", "3", "--rate", "5", "--burst", "10")
    yield s
    s.stop()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


async def error_reply(c: TableClient, seq=None) -> dict:
    return await c.wait_for(lambda f: f["type"] == "error" and (seq is None or f.get("seq") == seq), 10)


def test_a_tampered_message_is_refused_and_not_applied(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("tamper", "ann")
        frame = json.loads(c.signed({"type": "sit", "buy_in": 5000}))
        frame["body"] = frame["body"].replace("5000", "50000")  # changed on the way
        await c.send_raw(json.dumps(frame))
        err = await error_reply(c)
        assert err["code"] == "bad_signature" and err["seq"] == frame["seq"]
        pong = await c.request({"type": "ping"})  # the connection still works
        assert pong["type"] == "pong"
        assert c.state["you"]["seat"] is None  # the sit was not applied
        forged = json.loads(c.signed({"type": "stand"}))
        forged["sig"] = security.sign("not-the-secret", c.nonce, forged["seq"], forged["body"])
        await c.send_raw(json.dumps(forged))
        assert (await error_reply(c))["code"] == "bad_signature"
        await c.close()

    run(scenario())


def test_a_replayed_message_is_refused(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("replay", "ann")
        text = c.signed({"type": "sit", "buy_in": 5000})
        await c.send_raw(text)
        await c.wait_for(lambda f: f["type"] == "ok", 10)
        await c.send_raw(text)  # the same frame again
        err = await error_reply(c)
        assert err["code"] == "replayed"
        older = c.signed({"type": "ping"}, seq=1)  # a lower number, correctly signed
        await c.send_raw(older)
        assert (await error_reply(c))["code"] == "replayed"
        # Replayed on another connection of the same session: the nonce differs.
        c2 = await TableClient.connect(server.ws)
        await c2.resume(c.session, c.secret)
        await c2.send_raw(text)
        assert (await error_reply(c2))["code"] == "bad_signature"
        await c2.request({"type": "ping"})
        assert c2.state["you"]["account"] == 95_000  # bought in once
        await c.close()
        await c2.close()

    run(scenario())


def test_sessions_bind_seats(server):
    async def scenario():
        a = await TableClient.connect(server.ws)
        await a.join("bind", "ann")
        await a.request({"type": "sit"})
        # No session yet: refused.
        x = await TableClient.connect(server.ws)
        await x.send_raw(json.dumps({"type": "signed", "seq": 1, "body": '{"type":"ping"}', "sig": "0" * 64}))
        assert (await error_reply(x))["code"] == "no_session"
        # A resume needs the secret: a proof for another nonce, or a wrong one, is refused.
        old_proof = security.resume_proof(a.secret, a.nonce)
        await x.send_raw(json.dumps({"type": "resume", "session": a.session, "proof": old_proof}))
        assert (await error_reply(x))["code"] == "bad_proof"
        with pytest.raises(ProtocolError) as err:
            await x.resume("nosuchsession", "whatever")
        assert err.value.code == "unknown_session"
        # A message cannot name another seat: seats come from the session only.
        b = await TableClient.connect(server.ws)
        await b.join("bind", "bo")
        with pytest.raises(ProtocolError) as err:
            await b.request({"type": "stand", "seat": 0})
        assert err.value.code == "bad_frame" and "seat" in err.value.frame["message"]
        with pytest.raises(ProtocolError) as err:
            await b.request({"type": "stand"})
        assert err.value.code == "not_seated"
        # Another seat's cards are not the player's to play (four seats hold all 52).
        a2 = await TableClient.connect(server.ws)
        await a2.join("bind2", "cy")
        await a2.request({"type": "sit"})
        st2 = await a2.wait_for(lambda f: f["type"] == "state" and (f["round"] or {}).get("hand"), 20)
        mine = st2["round"]["hand"].split()
        other = next(str(card) for card in thirteen.deck() if str(card) not in mine)
        stolen = [other] + mine[1:]
        with pytest.raises(ProtocolError) as err:
            await a2.request({"type": "submit", "front": " ".join(stolen[:3]), "middle": " ".join(stolen[3:8]), "back": " ".join(stolen[8:13])})
        assert err.value.code == "card_not_held" and other in err.value.frame["message"]
        for c in (a, b, x, a2):
            await c.close()

    run(scenario())


@pytest.mark.parametrize(
    "text, code",
    [
        ("not json", "bad_frame"),
        ('{"type": "join", "room": "a b", "name": "x"}', "bad_frame"),
        ('{"type": "join", "room": "ok", "name": ""}', "bad_frame"),
        ('{"type": "join", "room": "ok", "name": "<script>"}', "bad_frame"),
        ('{"type": "join", "room": "ok", "name": "x", "admin": true}', "bad_frame"),
        ('{"type": "shuffle"}', "bad_frame"),
        ('{"type": "signed", "seq": 0, "body": "{}", "sig": "00"}', "bad_frame"),
        ("[1, 2, 3]", "bad_frame"),
    ],
)
def test_every_frame_is_validated(server, text, code):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.send_raw(text)
        err = await error_reply(c)
        assert err["code"] == code and err["message"]
        await c.close()

    run(scenario())


@pytest.mark.parametrize(
    "action, needle",
    [
        ({"type": "sit", "seat": "one"}, "seat"),
        ({"type": "sit", "seat": 7}, "seat"),
        ({"type": "sit", "buy_in": -5}, "buy_in"),
        ({"type": "hints", "n": 1000}, "n"),
        ({"type": "submit", "front": "As"}, "middle"),
        ({"type": "teleport"}, "teleport"),
    ],
)
def test_every_action_is_validated(server, action, needle):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("validate", "ann")
        with pytest.raises(ProtocolError) as err:
            await c.request(action)
        assert err.value.code == "bad_frame" and needle in err.value.frame["message"]
        await c.close()

    run(scenario())


def test_oversized_frames_close_the_connection(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.send_raw("x" * 100_000)
        with pytest.raises(Exception):
            while True:
                await c.recv(5)
        assert c.ws.close_code == 1009  # message too big
        await c.close()

    run(scenario())


def test_messages_are_rate_limited(server):
    """Rate 5/s, burst 10 (the fixture's settings): 30 pings at once see refusals; after a
    pause, pings pass again."""

    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("rate", "ann")
        for _ in range(30):
            await c.send({"type": "ping"})
        replies = []
        while len(replies) < 30:
            f = await c.recv(10)
            if f["type"] in ("pong", "error"):
                replies.append(f)
        limited = [f for f in replies if f["type"] == "error"]
        assert limited and all(f["code"] == "rate_limited" for f in limited)
        assert 9 <= sum(f["type"] == "pong" for f in replies) < 30  # the join took one token
        await asyncio.sleep(1.0)
        assert (await c.request({"type": "ping"}))["type"] == "pong"
        await c.close()

    run(scenario())
