"""Bounded resources (issue 52, item 3): each bound is exhausted over real sockets and
refused clearly, while another room keeps playing rounds: rooms in memory, spectators per
room, connections per address and in all, message and body sizes, idle WebSockets (ping
timeout, join timeout), HTTP request heads and keep-alive, and hundreds of idle or half-open
sockets against a process with few file descriptors (they used to make ``/health`` fail
with EMFILE)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import urllib.error
import urllib.request
from typing import List, Optional

import pytest
import websockets
from server_support import GENEROUS, Server, best_action, dealt, join_code, serve

from thirteen import RuleSet
from thirteen.server.client import ProtocolError, TableClient
from thirteen.server.store import Store

KAIXIN = RuleSet.preset("kaixin")
FAST = ("--ai", "3", "--pause-seconds", "0.2", "--arrange-seconds", "30")


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def health(server: Server, source: Optional[str] = None) -> dict:
    """``/health`` over a fresh connection (from ``source`` when given)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=(source, 0) if source else None) as s:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    return {"status": status, **(json.loads(body) if status == 200 else {})}


class Player:
    """A person playing rounds in a room in the background: ``rounds`` settled so far."""

    def __init__(self, url: str, room: str, name: str) -> None:
        self.url, self.room, self.name = url, room, name
        self.rounds = 0
        self.task: Optional[asyncio.Task] = None
        self.client: Optional[TableClient] = None

    async def start(self) -> "Player":
        self.client = await TableClient.connect(self.url)
        await self.client.join(self.room, self.name)
        await self.client.request({"type": "sit"})
        self.task = asyncio.create_task(self._play())
        return self

    async def _play(self) -> None:
        c = self.client
        assert c is not None
        number = 1
        while True:
            you = await dealt(c, number, 30)
            number = you["round"]["number"]
            players = c.state["round"]["players"]
            await c.request(best_action(you["round"]["hand"], KAIXIN, players), timeout=30)
            await c.wait_for(lambda f: f["type"] == "result" and f["round"] == number, 30)
            self.rounds += 1
            number += 1

    async def more_rounds(self, n: int, timeout: float = 30) -> None:
        """Waits until ``n`` more rounds have settled (failing if the task died)."""
        goal = self.rounds + n
        deadline = time.monotonic() + timeout
        while self.rounds < goal:
            assert self.task is not None
            if self.task.done():
                self.task.result()
            assert time.monotonic() < deadline, f"{self.name}: no round in {timeout} s"
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if self.client is not None:
            await self.client.close()


def test_rooms_in_memory_are_bounded_and_idle_ones_leave(tmp_path):
    server = serve(tmp_path, *FAST, "--max-rooms", "2", "--room-idle-seconds", "0.5")
    try:
        async def scenario():
            ann = await Player(server.ws, "r1", "ann").start()
            bo = await TableClient.connect(server.ws)
            await bo.join("r2", "bo")
            await bo.request({"type": "sit"})
            await dealt(bo)
            busy = await join_code(server.ws, "r3", "cy")  # two rooms, none idle
            await ann.more_rounds(1)  # ... while the other room plays on
            await bo.request({"type": "leave"})  # 强退: the round settles without bo
            await bo.close()
            await asyncio.sleep(2.0)  # r2 settles, stands its AI up, idles 0.5 s: unloaded
            in_memory = health(server)["rooms"]
            cy = await TableClient.connect(server.ws)
            await cy.join("r3", "cy")  # r3 takes r2's place
            again = await TableClient.connect(server.ws)
            with pytest.raises(ProtocolError) as full:
                await again.resume(bo.session, bo.private)  # r2 again: no place while cy holds r3
            await cy.close()
            await asyncio.sleep(1.5)
            await again.resume(bo.session, bo.private)  # r3 idle: r2 loaded from the database
            you = await again.wait_for(lambda f: f["type"] == "you", 10)
            await ann.more_rounds(1)
            await ann.stop()
            await again.close()
            return busy, in_memory, full.value.code, you

        busy, in_memory, full, you = run(scenario())
    finally:
        server.stop()
    assert busy == "server_busy" and full == "server_busy"
    assert in_memory == 1
    # r2 came back as the database kept it: bo left during round 1 and paid kaixin's escape
    # penalty with four players dealt in, by_players[4] = 48 units of 100 (RULES.md 5).
    assert you["seat"] is None and you["account"] == 100_000 - 48 * 100


def test_only_rooms_with_a_round_in_progress_load_at_start(tmp_path):
    args = (*GENEROUS, "--ai", "3", "--arrange-seconds", "2", "--pause-seconds", "30")
    db = tmp_path / "start.db"
    server = Server(db, list(args)).start()
    try:
        async def before():
            for room in ("quiet1", "quiet2", "quiet3"):
                c = await TableClient.connect(server.ws)
                await c.join(room, f"{room}-x")
                await c.close()
            p = await TableClient.connect(server.ws)
            await p.join("busy", "pia")
            await p.request({"type": "sit"})
            await dealt(p)
            server.kill()  # mid-round
            with contextlib.suppress(Exception):
                await p.close()

        run(before())
        again = Server(db, list(args)).start()
        try:
            loaded = health(again)["rooms"]
            # The loaded room's clock runs: pia, gone, is auto-arranged (代打) at the saved
            # deadline and the round settles without anyone coming back.
            store = Store(again.db)
            deadline = time.monotonic() + 20
            while (settled := store.settlement_count("busy")) == 0 and time.monotonic() < deadline:
                time.sleep(0.1)
            store.close()
        finally:
            again.stop()
    finally:
        server.stop()
    assert loaded == 1 and settled == 1


def test_spectators_per_room_are_bounded(tmp_path):
    server = serve(tmp_path, *FAST, "--max-spectators", "3")
    try:
        async def scenario():
            ann = await Player(server.ws, "other", "ann").start()
            seated = await TableClient.connect(server.ws)
            await seated.join("watched", "sam")
            await seated.request({"type": "sit"})
            watchers = []
            for i in range(3):
                w = await TableClient.connect(server.ws)
                await w.join("watched", f"w{i}")
                watchers.append(w)
            fourth = await join_code(server.ws, "watched", "w3")
            back = await TableClient.connect(server.ws)
            await back.resume(seated.session, seated.private)  # a seated player always gets in
            await watchers[0].close()
            await asyncio.sleep(0.2)
            fifth = await join_code(server.ws, "watched", "w4")  # a place came free
            await ann.more_rounds(2)
            await ann.stop()
            for c in watchers[1:] + [seated, back]:
                await c.close()
            return fourth, fifth

        assert run(scenario()) == ("room_full", "welcome")
    finally:
        server.stop()


async def open_sockets(url: str, n: int, source: str) -> List[object]:
    """``n`` WebSockets from ``source``, each past its hello."""
    out = []
    for _ in range(n):
        out.append(await TableClient.connect(url, local_address=source))
    return out


def test_connections_per_address_are_bounded(tmp_path):
    server = serve(tmp_path, *FAST, "--max-connections-per-address", "4")
    try:
        async def scenario():
            ann = await Player(server.ws, "r", "ann").start()
            mine = await open_sockets(server.ws, 4, "127.0.0.2")
            with pytest.raises(websockets.exceptions.InvalidStatus) as err:
                await TableClient.connect(server.ws, local_address="127.0.0.2")
            other = await TableClient.connect(server.ws, local_address="127.0.0.3")  # another address
            await ann.more_rounds(2)
            await ann.stop()
            for c in mine + [other]:
                await c.close()
            return err.value.response.status_code

        assert run(scenario()) == 503
    finally:
        server.stop()


def test_total_connections_are_bounded(tmp_path):
    server = serve(tmp_path, *FAST, "--max-connections", "12", "--max-connections-per-address", "4")
    try:
        async def scenario():
            ann = await Player(server.ws, "r", "ann").start()  # 1 connection
            held = []
            for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
                held += await open_sockets(server.ws, 4 if source != "127.0.0.4" else 3, source)  # 11 more
            with pytest.raises(websockets.exceptions.InvalidStatus) as err:
                await TableClient.connect(server.ws, local_address="127.0.0.5")
            status = health(server, "127.0.0.6")["status"]
            await ann.more_rounds(2)  # the connections already open play on
            await held.pop().close()
            await asyncio.sleep(0.2)
            after = health(server, "127.0.0.6")["status"]
            await ann.stop()
            for c in held:
                await c.close()
            return err.value.response.status_code, status, after

        assert run(scenario()) == (503, 503, 200)
    finally:
        server.stop()


def test_message_and_body_sizes_are_bounded(tmp_path):
    server = serve(tmp_path, "--max-message-bytes", "2048", "--max-body-chars", "200")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.send_raw("x" * 3000)
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                while True:
                    await c.recv(5)
            d = await TableClient.connect(server.ws)
            await d.join("sizes", "sia")
            seq = await d.send({"type": "check", "front": "As " * 70, "middle": "", "back": ""})
            err = await d.wait_for(lambda f: f["type"] == "error", 10)
            pong = await d.request({"type": "ping"})
            await d.close()
            return closed.value.rcvd.code, err, seq, pong

        code, err, seq, pong = run(scenario())
    finally:
        server.stop()
    assert code == 1009  # message too big
    assert (err["code"], err["field"], err["seq"]) == ("bad_frame", "body", seq)
    assert pong["type"] == "pong"


def raw_websocket(port: int) -> socket.socket:
    """A WebSocket handshake by hand, the 101 answer read; the socket is then left alone."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101")
    return s


def closed_within(s: socket.socket, seconds: float) -> Optional[float]:
    """Reads (and drops) what the server sends until it closes the socket: the seconds it
    took, or ``None`` if it was still open after ``seconds``."""
    start = time.monotonic()
    s.settimeout(0.2)
    while time.monotonic() - start < seconds:
        try:
            if s.recv(65536) == b"":
                return time.monotonic() - start
        except socket.timeout:
            continue
        except ConnectionResetError:
            return time.monotonic() - start
    return None


def test_idle_websockets_are_closed(tmp_path):
    """A peer that never answers the server's pings is closed after ping interval + ping
    timeout; a connection that never joins is refused ``join_timeout`` and closed 1008."""
    server = serve(tmp_path, "--ping-interval", "0.3", "--ping-timeout", "0.3", "--join-timeout", "2")
    try:
        silent = raw_websocket(server.port)
        # The silent peer sends no pong: closed by the ping timeout (about 0.6 s), before the
        # join timeout (whose close frame would wait for the peer's reply).
        took = closed_within(silent, 5)
        silent.close()

        async def lazy():
            c = await TableClient.connect(server.ws)  # answers pings (the library does), never joins
            err = await c.wait_for(lambda f: f["type"] == "error", 5)
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await c.recv(5)
            return err["code"], closed.value.rcvd.code

        codes = run(lazy())
    finally:
        server.stop()
    assert took is not None and took < 1.8
    assert codes == ("join_timeout", 1008)


def test_http_heads_and_keep_alive_are_bounded(tmp_path):
    server = serve(tmp_path, "--header-timeout", "0.5", "--keep-alive-timeout", "1", "--max-header-bytes", "1024")
    try:
        half = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        half.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")  # the head never ends
        head_closed = closed_within(half, 5)
        half.close()
        dribble = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        start = time.monotonic()
        for part in (b"GET /health HTTP/1.1\r\n", b"Host: x\r\n", b"X-A: 1\r\n", b"X-B: 1\r\n"):
            with contextlib.suppress(OSError):
                dribble.sendall(part)  # a byte now and then does not reset the head's clock
            time.sleep(0.2)
        dribble_closed = closed_within(dribble, 5)
        dribble_took = time.monotonic() - start
        dribble.close()
        alive = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        alive.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        first = alive.recv(65536)
        kept = closed_within(alive, 5)
        alive.close()
        try:
            urllib.request.urlopen(urllib.request.Request(server.url + "health", headers={"X-Big": "y" * 2000}), timeout=5)
            big = 200
        except urllib.error.HTTPError as exc:
            big = exc.code
    finally:
        server.stop()
    assert head_closed is not None and head_closed < 2
    assert dribble_closed is not None and dribble_took < 3
    assert first.startswith(b"HTTP/1.1 200") and kept is not None and 0.5 < kept < 3
    assert big == 431


def test_idle_and_half_open_sockets_do_not_exhaust_the_process(tmp_path):
    """The server runs with 256 file descriptors. 150 idle sockets from one address and 150
    half-open requests from another: past 32 per address they are refused at once (a 503,
    or closed when too many refusals wait to be read); /health keeps answering, a room keeps
    playing, and the process never runs out of descriptors."""
    server = serve(tmp_path, *FAST, "--header-timeout", "30", files=256)
    opened: List[socket.socket] = []
    try:
        for source, first in (("127.0.0.2", b""), ("127.0.0.3", b"GET / HTTP/1.1\r\nHost: x\r\n")):
            for _ in range(150):
                s = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))
                if first:
                    with contextlib.suppress(OSError):
                        s.sendall(first)
                opened.append(s)
        time.sleep(1.5)
        kept = 0
        for s in opened:
            s.settimeout(0.01)
            try:
                s.recv(4096)  # a 503, an end of file or a reset: refused
            except socket.timeout:
                kept += 1  # still open, waiting
            except OSError:
                pass
        statuses = [health(server)["status"] for _ in range(5)]

        async def play():
            ann = await Player(server.ws, "r", "ann").start()
            await ann.more_rounds(1)
            await ann.stop()

        run(play())
        crashed = [line for line in server.output if "Too many open files" in line or "EMFILE" in line]
    finally:
        for s in opened:
            s.close()
        server.stop()
    assert kept == 2 * 32
    assert statuses == [200] * 5
    assert crashed == []
