"""Security of ``thirteen serve`` over real sockets: signatures (tampered messages),
sequence numbers and nonces (replayed messages), session binding, schema validation,
frame size and rate limits. Each refusal is an ``error`` frame naming the problem, and
nothing of a refused message is applied."""

from __future__ import annotations

import asyncio
import json
import secrets

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
        await c.join("tamper", "tam")
        frame = json.loads(c.signed({"type": "sit", "buy_in": 5000}))
        frame["body"] = frame["body"].replace("5000", "50000")  # changed on the way
        await c.send_raw(json.dumps(frame))
        err = await error_reply(c)
        assert err["code"] == "bad_signature" and err["seq"] == frame["seq"]
        pong = await c.request({"type": "ping"})  # the connection still works
        assert pong["type"] == "pong"
        assert c.you["seat"] is None  # the sit was not applied
        forged = json.loads(c.signed({"type": "stand"}))
        forged["sig"] = security.sign(security.new_connection_key(), c.nonce, forged["seq"], forged["body"])
        await c.send_raw(json.dumps(forged))
        assert (await error_reply(c))["code"] == "bad_signature"
        await c.close()

    run(scenario())


def test_a_replayed_message_is_refused(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("replay", "rae")
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
        await c2.resume(c.session, c.private)
        await c2.send_raw(text)
        assert (await error_reply(c2))["code"] == "bad_signature"
        await c2.request({"type": "ping"})
        assert c2.you["account"] == 95_000  # bought in once
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
        # A resume needs the session's private key: a proof made for another nonce, or with
        # another key, is refused.
        old_proof = security.resume_proof(a.private, a.nonce, a.session)
        await x.send_raw(json.dumps({"type": "resume", "protocol": 3, "session": a.session, "proof": old_proof}))
        assert (await error_reply(x))["code"] == "bad_proof"
        with pytest.raises(ProtocolError) as err:
            await x.resume(a.session, security.new_key_pair()[0])
        assert err.value.code == "bad_proof"
        with pytest.raises(ProtocolError) as err:
            await x.resume("nosuchsession", security.new_key_pair()[0])
        assert err.value.code == "unknown_session"
        # A message cannot name another seat: seats come from the session only.
        b = await TableClient.connect(server.ws)
        await b.join("bind", "bo")
        with pytest.raises(ProtocolError) as err:
            await b.request({"type": "stand", "seat": 0})
        assert err.value.code == "bad_frame" and err.value.frame["field"] == "seat"
        with pytest.raises(ProtocolError) as err:
            await b.request({"type": "stand"})
        assert err.value.code == "not_seated"
        # Another seat's cards are not the player's to play (four seats hold all 52).
        a2 = await TableClient.connect(server.ws)
        await a2.join("bind2", "cy")
        await a2.request({"type": "sit"})
        st2 = await a2.wait_for(lambda f: f["type"] == "you" and (f["round"] or {}).get("hand"), 20)
        mine = st2["round"]["hand"].split()
        other = next(str(card) for card in thirteen.deck() if str(card) not in mine)
        stolen = [other] + mine[1:]
        with pytest.raises(ProtocolError) as err:
            await a2.request({"type": "submit", "front": " ".join(stolen[:3]), "middle": " ".join(stolen[3:8]), "back": " ".join(stolen[8:13])})
        assert err.value.code == "card_not_held"
        assert other not in json.dumps(err.value.frame)  # the refusal names no card
        for c in (a, b, x, a2):
            await c.close()

    run(scenario())


KEY = security.new_key_pair()[1]


def join_text(**fields) -> str:
    """A join frame of protocol 2 with ``fields`` changed (``None`` drops a field)."""
    frame = {"type": "join", "protocol": 3, "room": "ok", "name": "x", "key": KEY, **fields}
    return json.dumps({k: v for k, v in frame.items() if v is not None})


@pytest.mark.parametrize(
    "text, code, echo",
    [
        ("not json", "bad_frame", {}),
        (join_text(room="a b"), "bad_frame", {"field": "room", "problem": "invalid"}),
        (join_text(key=None), "bad_frame", {"field": "key", "problem": "missing"}),
        (join_text(key="04" + "00" * 64), "bad_key", {}),  # not a point of the curve
        (join_text(name=""), "bad_name", {"reason": "empty"}),
        (join_text(name="<script>"), "bad_name", {"reason": "markup"}),
        (join_text(admin=True), "bad_frame", {"field": "admin", "problem": "unknown"}),
        (join_text(protocol=None), "unsupported_protocol", {}),
        (join_text(protocol=1), "unsupported_protocol", {}),
        (join_text(protocol=2), "unsupported_protocol", {}),  # protocol 3 adds the redirect frame
        ('{"type": "shuffle"}', "bad_frame", {"field": "type", "problem": "invalid"}),
        ('{"type": "signed", "seq": 0, "body": "{}", "sig": "00"}', "bad_frame", {"field": "seq"}),
        ("[1, 2, 3]", "bad_frame", {"problem": "invalid"}),
    ],
)
def test_every_frame_is_validated(server, text, code, echo):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.send_raw(text)
        err = await error_reply(c)
        assert err["code"] == code and err["message"]
        assert {k: err[k] for k in echo} == echo
        await c.close()

    run(scenario())


@pytest.mark.parametrize(
    "action, field, problem",
    [
        ({"type": "sit", "seat": "one"}, "seat", "invalid"),
        ({"type": "sit", "seat": 7}, "seat", "invalid"),
        ({"type": "sit", "buy_in": -5}, "buy_in", "invalid"),
        ({"type": "hints", "n": 1000}, "n", "invalid"),
        ({"type": "submit", "front": "As"}, "middle", "missing"),
        ({"type": "teleport"}, "type", "invalid"),
    ],
)
def test_every_action_is_validated(server, action, field, problem):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("validate", f"val-{secrets.token_hex(4)}")
        with pytest.raises(ProtocolError) as err:
            await c.request(action)
        frame = err.value.frame
        assert (frame["code"], frame["field"], frame["problem"]) == ("bad_frame", field, problem)
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
        await c.join("rate", "rat")
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
