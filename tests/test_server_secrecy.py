"""A player learns nothing from the server about cards it may not see (issue 52, item 1),
over real sockets.

The oracle attack: a seat submits its hand with one card replaced by a card it does not
hold, once for every such card, and compares the error frames. Which seat holds the probed
card (or whether it was dealt at all) must not change a byte of the answer, apart from the
``seq`` the client chose; and the answer names no card. Then every frame a player and a
spectator receive during a round full of refused and accepted actions is scanned: before the
``result`` frame (the reveal) no card but the player's own appears (none at all for the
spectator).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import List, Set

import pytest
from server_support import best_action, cards_in, dealt, joined, serve, sit

import thirteen
from thirteen import RuleSet
from thirteen.server.client import ProtocolError, TableClient

KAIXIN = RuleSet.preset("kaixin")
SEQ = re.compile(r'"seq":\d+')


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


async def raw_reply(c: TableClient, seq: int) -> str:
    """The raw text of the reply to ``seq`` (other frames are read past)."""
    while True:
        text = await asyncio.wait_for(c.ws.recv(), 10)
        frame = json.loads(text)
        if frame.get("seq") == seq and frame["type"] != "state":
            return text


def split(cards: List[str]) -> dict:
    return {"front": " ".join(cards[:3]), "middle": " ".join(cards[3:8]), "back": " ".join(cards[8:13])}


@pytest.mark.parametrize("seats", [4, 2])
def test_the_card_oracle_answers_alike_for_every_card(tmp_path, seats):
    """Four seats: the 39 probes are held by three other seats. Two seats: 13 are held by
    the other seat and 26 were never dealt. Every answer is the same bytes."""
    server = serve(
        tmp_path, "--ai", str(seats - 1), "--seats", str(seats), "--seed", "52",
        "--rate", "1000", "--burst", "1000", "--arrange-seconds", "60",
    )
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("oracle", "eve")
            await c.request({"type": "sit"})
            hand = (await dealt(c))["round"]["hand"].split()
            probes = [str(card) for card in thirteen.deck() if str(card) not in hand]
            answers = {}
            for probe in probes:
                seq = await c.send({"type": "submit", **split([probe] + hand[1:])})
                answers[probe] = await raw_reply(c, seq)
            await c.request(best_action(" ".join(hand), KAIXIN, seats))
            result = await c.wait_for(lambda f: f["type"] == "result", 30)
            await c.close()
            return hand, answers, result

        hand, answers, result = run(scenario())
    finally:
        server.stop()
    assert len(answers) == 39
    others = cards_in([s["play"] for s in result["seats"][1:]])
    held = [p for p in answers if p in others]
    assert len(held) == 13 * (seats - 1)  # the probes cover every other seat's cards ...
    assert (seats == 2) == (len(answers) > len(held))  # ... and, with two seats, undealt ones
    assert len({SEQ.sub('"seq":0', text) for text in answers.values()}) == 1, set(answers.values())
    frame = json.loads(next(iter(answers.values())))
    assert frame["code"] == "card_not_held"
    assert cards_in(frame) == set()  # the answer names no card, not even the probe


def test_the_gift_oracle_answers_alike(tmp_path):
    """Swap-three (换三张): giving a card the seat does not hold answers alike for all."""
    server = serve(tmp_path, "--rules", "kaixin-swap", "--ai", "3", "--seed", "7", "--rate", "1000", "--burst", "1000")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("gift", "eve")
            await c.request({"type": "sit"})
            you = await c.wait_for(lambda f: f["type"] == "you" and (f["round"] or {}).get("phase") == "swap", 20)
            hand = you["round"]["hand"].split()
            answers = set()
            for probe in (str(card) for card in thirteen.deck() if str(card) not in hand):
                seq = await c.send({"type": "give", "cards": f"{hand[0]} {probe}"})
                answers.add(SEQ.sub('"seq":0', await raw_reply(c, seq)))
            await c.close()
            return answers

        answers = run(scenario())
    finally:
        server.stop()
    assert len(answers) == 1, answers
    assert json.loads(answers.pop())["code"] == "card_not_held"


async def refused(c: TableClient, action: dict) -> str:
    with pytest.raises(ProtocolError) as err:
        await c.request(action)
    return str(err.value.code)


def test_no_frame_shows_another_seat_s_card_before_the_reveal(tmp_path):
    server = serve(tmp_path, "--ai", "3", "--seed", "2052", "--rate", "1000", "--burst", "1000")
    try:
        async def scenario():
            p, watcher = await joined(server.ws, "scan", "pat", "wes")
            await sit(p)
            hand = (await dealt(p))["round"]["hand"].split()
            foreign = next(str(c) for c in thirteen.deck() if str(c) not in hand)
            codes = []
            await p.request({"type": "ping"})
            await p.request({"type": "hints", "n": 10})
            good = best_action(" ".join(hand), KAIXIN, 4)
            if good["type"] == "submit":
                await p.request({"type": "check", **{k: good[k] for k in ("front", "middle", "back")}})
            await p.request({"type": "check", **split(hand[::-1])})
            await p.request({"type": "check", **split([foreign] + hand[1:])})
            await p.request({"type": "check", "front": "Zz Yy", "middle": "", "back": ""})
            codes.append(await refused(p, {"type": "submit", **split([foreign] + hand[1:])}))
            codes.append(await refused(p, {"type": "submit", **split([hand[1]] + hand[1:])}))
            codes.append(await refused(p, {"type": "submit", **split(hand[:12])}))
            codes.append(await refused(p, {"type": "submit", "front": "Zz", "middle": "", "back": ""}))
            codes.append(await refused(p, {"type": "declare", "special": "dragon"}))
            codes.append(await refused(p, {"type": "give", "cards": hand[0]}))
            codes.append(await refused(p, {"type": "surrender"}))
            codes.append(await refused(p, {"type": "sit"}))
            codes.append(await refused(p, {"type": "teleport"}))
            forged = json.loads(p.signed({"type": "ping"}))
            forged["sig"] = "0" * 64
            await p.send_raw(json.dumps(forged))
            await p.send_raw(p.signed({"type": "ping"}, seq=1))
            await p.request(good)
            result = await p.wait_for(lambda f: f["type"] == "result", 30)
            seen = await watcher.wait_for(lambda f: f["type"] == "result", 30)
            frames = p.frames[: p.frames.index(result)]
            watched = watcher.frames[: watcher.frames.index(seen)]
            for c in (p, watcher):
                await c.close()
            return hand, codes, frames, watched, result

        hand, codes, frames, watched, result = run(scenario())
    finally:
        server.stop()
    assert codes == [
        "card_not_held", "duplicate_card", "wrong_count", "bad_card", "false_special",
        "round_state", "surrender_not_allowed", "seated", "bad_frame",
    ]
    kinds: Set[str] = {f["type"] for f in frames}
    assert {"hello", "welcome", "state", "you", "ok", "pong", "hints", "checked", "error"} <= kinds
    own = set(hand)
    for frame in frames:
        assert cards_in(frame) <= own, frame  # the player: its own cards only
    for frame in watched:
        assert cards_in(frame) == set(), frame  # a spectator: no card at all
    assert len(cards_in([s["play"] for s in result["seats"]])) == 52  # the reveal shows all
