"""The ASGI application of ``thirteen serve`` (Starlette): the web table's static files and
the WebSocket endpoint ``/ws`` (the protocol of ``docs/server.md``).

Per connection: a ``hello`` frame with a fresh nonce; then ``join`` or ``resume``; then
signed actions. Every frame is checked in this order: the rate limit (a token bucket),
the schema, the session, the signature (tampered → ``bad_signature``), the sequence
number (replayed → ``replayed``), then the room applies it. Each refusal is an ``error``
frame naming the problem; the connection stays open (it is closed after many refusals
in a row of the rate limit).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, AsyncIterator, Dict, Optional

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import thirteen
from thirteen import ThirteenError
from thirteen.server import protocol as P
from thirteen.server import security
from thirteen.server.config import RoomConfig
from thirteen.server.room import Client, GameError, Room
from thirteen.server.store import StoreError, Store
from thirteen.solver import label

__all__ = ["ServerSettings", "Hub", "create_app"]

log = logging.getLogger("thirteen.server")


@dataclass(frozen=True)
class ServerSettings:
    """Settings of a server.

    Attributes:
        db: the SQLAlchemy URL of the database.
        room: the settings of rooms created from now on (rooms keep theirs).
        rate: messages per second allowed per connection, on average.
        burst: messages allowed at once per connection.
        max_strikes: rate-limited messages in a row after which the connection closes.
        queue: frames waiting for a slow client after which it is dropped.
    """

    db: str = "sqlite:///thirteen.db"
    room: RoomConfig = field(default_factory=RoomConfig)
    rate: float = 10.0
    burst: float = 30.0
    max_strikes: int = 50
    queue: int = 500


class Hub:
    """The rooms of a server and its database."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self.store = Store(settings.db)
        workers = 1 if self.store.sqlite else 4
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="thirteen-db")
        self.rooms: Dict[str, Room] = {}
        self.creating = asyncio.Lock()

    async def db(self, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args))

    async def start(self) -> None:
        """Loads every saved room and starts its clock (a restart resumes here)."""
        settings = self.settings.room
        settings.new_table()  # bad room settings fail at start, not at the first join
        for stored in await self.db(self.store.rooms):
            self._run(Room(stored, self.store, self.executor))

    async def stop(self) -> None:
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
        for room in self.rooms.values():
            if room.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task
        self.executor.shutdown(wait=True)
        self.store.close()

    def _run(self, room: Room) -> Room:
        self.rooms[room.id] = room
        room.task = asyncio.create_task(room.run(), name=f"room {room.id}")
        return room

    async def room(self, name: str) -> Room:
        """The room, created with the server's room settings if new."""
        room = self.rooms.get(name)
        if room is not None:
            return room
        async with self.creating:
            room = self.rooms.get(name)
            if room is None:
                config = self.settings.room
                state = config.new_table().to_json()
                stored = await self.db(self.store.create_room, name, config.to_dict(), state)
                room = self._run(Room(stored, self.store, self.executor))
        return room


class Connection:
    """One WebSocket: its nonce, session, sequence and rate limit, and the queue of frames
    that one writer task sends."""

    def __init__(self, ws: WebSocket, settings: ServerSettings) -> None:
        self.ws = ws
        self.nonce = security.new_nonce()
        self.limit = security.RateLimit(settings.rate, settings.burst)
        self.seq = security.Sequence()
        self.secret: Optional[str] = None
        self.room: Optional[Room] = None
        self.client: Optional[Client] = None
        self.strikes = 0
        self.queue: "asyncio.Queue[Optional[bytes]]" = asyncio.Queue()
        self.max_queue = settings.queue

    def send(self, frame: Dict[str, Any]) -> None:
        if self.queue.qsize() > self.max_queue:
            log.warning("dropping a client that does not read (%d frames queued)", self.queue.qsize())
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(P.encode(frame))

    def error(self, code: str, message: str, seq: Optional[int] = None, **extra: Any) -> None:
        frame: Dict[str, Any] = {"type": "error", "code": code, "message": message}
        if seq is not None:
            frame["seq"] = seq
        frame.update(extra)
        self.send(frame)

    async def writer(self) -> None:
        while True:
            data = await self.queue.get()
            if data is None:
                await self.ws.close(code=1008)
                return
            await self.ws.send_text(data.decode())


def create_app(settings: ServerSettings) -> Starlette:
    """The ASGI application (run it with uvicorn; ``thirteen serve`` does)."""
    hub_box: Dict[str, Hub] = {}
    static = files("thirteen.server") / "static"

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        hub_box["hub"] = hub
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        hub = hub_box["hub"]
        return JSONResponse({"ok": True, "version": thirteen.__version__, "rooms": len(hub.rooms)})

    async def ws_endpoint(ws: WebSocket) -> None:
        hub = hub_box["hub"]
        await ws.accept()
        conn = Connection(ws, settings)
        writer = asyncio.create_task(conn.writer())
        conn.send({"type": "hello", "nonce": conn.nonce, "protocol": P.PROTOCOL, "version": thirteen.__version__})
        try:
            while True:
                text = await ws.receive_text()
                if writer.done():
                    break
                await _handle(hub, conn, text)
                if conn.strikes > settings.max_strikes:
                    conn.error("rate_limited", "too many messages: closing the connection")
                    conn.queue.put_nowait(None)
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if conn.room is not None and conn.client is not None:
                with contextlib.suppress(Exception):
                    await conn.room.disconnect(conn.client)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    routes = [
        Route("/", index),
        Route("/health", health),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _handle(hub: Hub, conn: Connection, text: str) -> None:
    """One frame from a client (see the module doc for the order of the checks)."""
    if not conn.limit.allow():
        conn.strikes += 1
        conn.error("rate_limited", "too many messages: slow down")
        return
    conn.strikes = 0
    try:
        msg = P.decode_opening(text)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        conn.error("bad_frame", f"not a valid message: {exc}")
        return
    if isinstance(msg, P.Join):
        await _join(hub, conn, msg)
    elif isinstance(msg, P.Resume):
        await _resume(hub, conn, msg)
    else:
        await _signed(conn, msg)


async def _join(hub: Hub, conn: Connection, msg: P.Join) -> None:
    if conn.secret is not None:
        conn.error("already_joined", "this connection already has a session")
        return
    room = await hub.room(msg.room)
    session, secret = security.new_session_id(), security.new_secret()
    player = f"p-{security.new_session_id()}"
    config = room.config
    await hub.db(hub.store.new_player, player, msg.name, "human", config.starting_balance)
    await hub.db(hub.store.new_session, session, secret, player, room.id)
    await _attach(conn, room, player, secret)
    conn.send({"type": "welcome", "session": session, "secret": secret, "player": player, "room": room.id, "name": msg.name})
    await room.connect(conn.client)  # type: ignore[arg-type]


async def _resume(hub: Hub, conn: Connection, msg: P.Resume) -> None:
    if conn.secret is not None:
        conn.error("already_joined", "this connection already has a session")
        return
    found = await hub.db(hub.store.session, msg.session)
    if found is None:
        conn.error("unknown_session", "no such session")
        return
    secret, player, name, room_id = found
    if not security.verify(security.resume_proof(secret, conn.nonce), msg.proof):
        conn.error("bad_proof", "the resume proof does not match this connection's nonce")
        return
    room = await hub.room(room_id)
    await _attach(conn, room, player, secret)
    conn.send({"type": "welcome", "session": msg.session, "player": player, "room": room.id, "name": name})
    await room.connect(conn.client)  # type: ignore[arg-type]


async def _attach(conn: Connection, room: Room, player: str, secret: str) -> None:
    conn.secret = secret
    conn.room = room
    conn.client = Client(player, conn.send)


async def _signed(conn: Connection, msg: P.Signed) -> None:
    if conn.secret is None or conn.room is None or conn.client is None:
        conn.error("no_session", "join or resume first", seq=msg.seq)
        return
    if not security.verify(security.sign(conn.secret, conn.nonce, msg.seq, msg.body), msg.sig):
        conn.error("bad_signature", "the signature does not match the message (tampered?)", seq=msg.seq)
        return
    if not conn.seq.accept(msg.seq):
        conn.error("replayed", f"sequence number {msg.seq} is not above {conn.seq.last} (replayed?)", seq=msg.seq)
        return
    try:
        action = P.decode_action(msg.body)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        conn.error("bad_frame", f"not a valid action: {exc}", seq=msg.seq)
        return
    room, player, seq = conn.room, conn.client.player, msg.seq
    try:
        if isinstance(action, P.Ping):
            conn.send({"type": "pong", "seq": seq})
        elif isinstance(action, P.Sit):
            out = await room.sit(player, action.seat, action.buy_in)
            conn.send({"type": "ok", "seq": seq, "action": "sit", **out})
        elif isinstance(action, (P.Stand, P.Leave)):
            out = await room.stand(player, leave=isinstance(action, P.Leave))
            conn.send({"type": "ok", "seq": seq, "action": action.__struct_config__.tag, **out})
        elif isinstance(action, P.Hints):
            hints = await room.hints(player, action.n)
            conn.send({"type": "hints", "seq": seq, "hints": hints})
        elif isinstance(action, P.Check):
            conn.send({"type": "checked", "seq": seq, **_check(room, action)})
        elif isinstance(action, P.Submit):
            await room.play(player, "submit", front=action.front, middle=action.middle, back=action.back)
            conn.send({"type": "ok", "seq": seq, "action": "submit"})
        elif isinstance(action, P.Declare):
            await room.play(player, "declare", special=action.special, cards=action.cards)
            conn.send({"type": "ok", "seq": seq, "action": "declare"})
        elif isinstance(action, P.Give):
            await room.play(player, "give", cards=action.cards)
            conn.send({"type": "ok", "seq": seq, "action": "give"})
        elif isinstance(action, P.Surrender):
            await room.play(player, "surrender")
            conn.send({"type": "ok", "seq": seq, "action": "surrender"})
    except GameError as exc:
        conn.error(exc.code, exc.message, seq=seq)
    except StoreError as exc:
        conn.error(exc.kind, f"{exc.message}; try again", seq=seq)
    except ThirteenError as exc:
        conn.error(exc.kind, exc.message, seq=seq, details=_jsonable(exc.details()))
    except TypeError as exc:
        conn.error("bad_frame", str(exc), seq=seq)


def _check(room: Room, action: P.Check) -> Dict[str, Any]:
    """Lanes' categories and the foul check (相公) of a proposed arrangement."""
    rules = room.table.rules
    try:
        arrangement = thirteen.Arrangement(
            thirteen.parse_cards(action.front),
            thirteen.parse_cards(action.middle),
            thirteen.parse_cards(action.back),
            rules,
        )
        values = arrangement.values(rules)
        return {
            "foul": bool(thirteen.is_foul(arrangement, rules)),
            "lanes": [v.category.key for v in values],
            "label": label(arrangement, rules),
        }
    except ThirteenError as exc:
        return {"foul": None, "error": exc.message}


def _jsonable(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value, enc_hook=str))
