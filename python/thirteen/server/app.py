"""The ASGI application of ``thirteen serve`` (Starlette): the web table's static files, the
health check and the WebSocket endpoint ``/ws`` (the protocol of ``docs/server.md``).

Per connection: a ``hello`` frame with a fresh nonce; then ``join`` or ``resume`` (within
``join_timeout``); then signed actions. Every frame is checked in this order: text, not
binary (else closed with code 1003); the rate limit (a token bucket; a connection that
keeps flooding is closed with code 1008 after its refusal); the schema; the session; the
body's size; the signature (tampered → ``bad_signature``); the sequence number (replayed →
``replayed``); then the room applies it. Each refusal is an ``error`` frame from the
allow-list of :mod:`thirteen.server.refusals`, with the refused message's ``seq`` when it
can be read. A close always follows the frames queued before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from importlib.resources import files
from typing import Any, AsyncIterator, Awaitable, Callable, Dict, List, MutableMapping, Optional, Union

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
from thirteen.server.hub import Hub, Moved
from thirteen.server.names import normalize_name
from thirteen.server.refusals import TEXTS, Refusal, engine_code, error_frame
from thirteen.server.room import Client, Room
from thirteen.server.settings import ServerSettings
from thirteen.server.store import StoreError
from thirteen.server.tokens import verify_token
from thirteen.server.wire import RAW_EXTENSION, Wire, wire
from thirteen.solver import label

__all__ = ["ServerSettings", "Hub", "create_app", "SECURITY_HEADERS"]

log = logging.getLogger("thirteen.server")

#: Headers of every HTTP response: the page runs only its own script and style, talks only
#: to its own server, cannot be framed, and sends no referrer.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
}

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]


class _SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.raw = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]], send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + self.raw
            await send(message)

        await self.app(scope, receive, with_headers)


class Connection:
    """One WebSocket: its nonce, connection key, session, sequence and rate limit, and its
    outgoing frames.

    Under ``thirteen serve`` (whose WebSocket protocol offers its socket in the scope, see
    :mod:`thirteen.server.wire`) frames are written straight to the socket: the frames
    queued in one turn of the event loop go out in one write, after it. Elsewhere a writer
    task sends them through the framework, one by one. Either way a close follows the
    frames queued before it, and a client that lets more than ``settings.queue`` frames
    wait unread is closed (1008)."""

    def __init__(self, ws: WebSocket, settings: ServerSettings) -> None:
        self.ws = ws
        self.settings = settings
        self.nonce = security.new_nonce()
        self.limit = security.RateLimit(settings.rate, settings.burst)
        self.seq = security.Sequence()
        self.key: Optional[str] = None
        self.room: Optional[Room] = None
        self.client: Optional[Client] = None
        self.admitted = False
        self.strikes = 0
        self.closing = False
        self.queue: "asyncio.Queue[Union[Wire, int]]" = asyncio.Queue()
        self.opened = time.monotonic()
        self.raw: Any = ws.scope.get("extensions", {}).get(RAW_EXTENSION)
        self.outbox: List[bytes] = []
        self.unread = 0  # frames written while the socket's buffer was not empty

    def send_wire(self, item: Wire) -> None:
        """Queues an encoded frame (dropped once the connection is closing)."""
        if self.closing:
            return
        if self.raw is None:
            if self.queue.qsize() >= self.settings.queue:
                self._slow(self.queue.qsize())
                return
            self.queue.put_nowait(item)
            return
        if not self.outbox:
            asyncio.get_running_loop().call_soon(self.flush)
        self.outbox.append(item.frame)

    def flush(self) -> None:
        """Writes the queued frames to the socket in one write (``thirteen serve``)."""
        if not self.outbox:
            return
        frames, self.outbox = self.outbox, []
        raw = self.raw
        if raw.close_sent or raw.disconnected or raw.transport.is_closing():
            return
        backlog = raw.transport.get_write_buffer_size()
        self.unread = self.unread + len(frames) if backlog else 0
        raw.transport.write(frames[0] if len(frames) == 1 else b"".join(frames))
        if self.unread >= self.settings.queue:
            self._slow(self.unread)

    def _slow(self, frames: int) -> None:
        log.warning("closing a client that does not read (%d frames queued)", frames)
        self.close(1008)

    def send(self, frame: Dict[str, Any]) -> None:
        self.send_wire(wire(frame))

    def refuse(self, code: str, seq: Optional[int] = None, echo: Optional[Dict[str, Any]] = None) -> None:
        """Queues the ``error`` frame of a refusal (see :func:`error_frame`)."""
        self.send(error_frame(code, seq, echo))

    def close(self, code: int) -> None:
        """Queues a close with ``code`` after the frames already queued."""
        if not self.closing:
            if self.raw is not None:
                self.flush()
            self.closing = True
            self.queue.put_nowait(code)

    async def writer(self) -> None:
        while True:
            item = await self.queue.get()
            if isinstance(item, int):
                await self.ws.close(code=item)
                return
            await self.ws.send_text(item.text)


def create_app(settings: ServerSettings) -> Starlette:
    """The ASGI application (run it with uvicorn; ``thirteen serve`` does)."""
    static = files("thirteen.server") / "static"
    sockets: Dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(settings)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    async def index(request: Request) -> Response:
        return FileResponse(str(static / "index.html"), headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        hub: Hub = request.app.state.hub
        return JSONResponse(
            {
                "ok": True,
                "version": thirteen.__version__,
                "rooms": len(hub.rooms),
                "sockets": sum(sockets.values()),
                "commits": {"transactions": hub.committer.batches, "rooms": hub.committer.changes},
            }
        )

    async def ws_endpoint(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if settings.allowed_origins and origin is not None and origin not in settings.allowed_origins:
            log.info("refusing a WebSocket from origin %r", origin)
            await ws.close(code=1008)  # before accept: an HTTP 403
            return
        address = ws.client.host if ws.client is not None else ""
        await ws.accept()
        if sockets.get(address, 0) >= settings.max_connections_per_address:
            await ws.send_text(wire(error_frame("too_many_connections")).text)
            await ws.close(code=1008)
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await _serve(ws.app.state.hub, Connection(ws, settings), address)
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    routes = [
        Route("/", index),
        Route("/health", health),
        WebSocketRoute("/ws", ws_endpoint),
        Mount("/static", app=StaticFiles(directory=str(static)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders)
    return app


async def _serve(hub: Hub, conn: Connection, address: str) -> None:
    """Reads one connection's frames until it closes (see the module doc)."""
    settings = hub.settings
    writer = asyncio.create_task(conn.writer())
    conn.send(
        {
            "type": "hello",
            "nonce": conn.nonce,
            "protocol": P.PROTOCOL,
            "version": thirteen.__version__,
            "accounts": settings.accounts,
        }
    )
    try:
        while not conn.closing:
            wait = None
            if conn.key is None:
                wait = max(0.0, settings.join_timeout - (time.monotonic() - conn.opened))
            try:
                message = await (conn.ws.receive() if wait is None else asyncio.wait_for(conn.ws.receive(), wait))
            except asyncio.TimeoutError:
                conn.refuse("join_timeout")
                conn.close(1008)
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                conn.refuse("binary_frame")
                conn.close(1003)
                break
            await _handle(hub, conn, text, address)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        await _detach(hub, conn)
        if conn.closing:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), 5.0)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _detach(hub: Hub, conn: Connection) -> None:
    """Lets the room know the connection is gone and releases the room."""
    room = conn.room
    if room is None:
        return
    conn.room = None
    if conn.admitted:
        room.cancel_admit()
    if conn.client is not None:
        with contextlib.suppress(Exception):
            await room.disconnect(conn.client)
    hub.leave(room)


async def _handle(hub: Hub, conn: Connection, text: str, address: str) -> None:
    """One text frame from a client (see the module doc for the order of the checks)."""
    settings = hub.settings
    if not conn.limit.allow():
        conn.strikes += 1
        conn.refuse("rate_limited", P.read_seq(text))
        if conn.strikes > settings.max_strikes:
            conn.close(1008)
        return
    conn.strikes = 0
    try:
        msg = P.decode_opening(text)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        conn.refuse("bad_frame", P.read_seq(text), P.problem(exc) if not isinstance(exc, RecursionError) else {})
        return
    if isinstance(msg, P.Signed):
        await _signed(conn, msg)
        return
    if conn.key is not None:
        conn.refuse("already_joined")
        return
    if msg.protocol != P.PROTOCOL:
        conn.refuse("unsupported_protocol")
        return
    try:
        if isinstance(msg, P.Join):
            await _join(hub, conn, msg, address)
        else:
            await _resume(hub, conn, msg)
    except Moved as exc:
        log.info("redirected an opening: %s", exc)
        await _detach(hub, conn)
        conn.send({"type": "redirect", "room": exc.room, "url": exc.url})
        conn.close(4307)
    except Refusal as exc:
        log.info("refused an opening: %s", exc.message)
        await _detach(hub, conn)
        conn.refuse(exc.code, echo=exc.echo)
    except StoreError as exc:
        log.info("refused an opening: %s", exc.message)
        await _detach(hub, conn)
        conn.refuse(exc.kind if exc.kind in TEXTS else "store")


async def _enter(hub: Hub, conn: Connection, room_name: str, player: Optional[str]) -> Room:
    room = await hub.enter(room_name)
    conn.room = room
    room.admit(player)
    conn.admitted = True
    return room


async def _welcome(conn: Connection, room: Room, session: str, player: str, name: str) -> None:
    conn.key = security.new_connection_key()
    conn.client = Client(player, conn.send_wire, conn.close)
    conn.send({"type": "welcome", "session": session, "player": player, "room": room.id, "name": name, "key": conn.key})
    conn.admitted = False
    await room.connect(conn.client)


async def _join(hub: Hub, conn: Connection, msg: P.Join, address: str) -> None:
    """A new player: the account (play money or an operator's token) and its session."""
    settings = hub.settings
    try:
        security.check_public_key(msg.key)
    except ValueError:
        raise Refusal("not a P-256 point", code="bad_key") from None
    session = security.new_session_id()
    if settings.accounts == "token":
        if msg.token is None or settings.tokens is None:
            raise Refusal("a token is needed", code="token_required")
        claims = verify_token(settings.tokens, msg.token)
        room = await _enter(hub, conn, msg.room, claims.player)
        player, name = claims.player, claims.name
        await hub.db(
            hub.store.open_token_account,
            player=player,
            name=name,
            deposit=claims.buy_in,
            jti=claims.jti,
            expires=claims.expires,
            session=session,
            public_key=msg.key,
            room=room.id,
        )
    else:
        name = normalize_name(msg.name or "")
        room = await _enter(hub, conn, msg.room, None)
        player = f"p-{security.new_session_id()}"
        await hub.db(
            hub.store.open_play_account,
            player=player,
            name=name,
            session=session,
            public_key=msg.key,
            room=room.id,
            address=address,
            amount=room.config.starting_balance,
            window=settings.grant_window,
            per_address=settings.grants_per_address,
        )
    await _welcome(conn, room, session, player, name)


async def _resume(hub: Hub, conn: Connection, msg: P.Resume) -> None:
    """Back to a session: the proof must sign this connection's nonce with its key."""
    found = await hub.db(hub.store.session, msg.session)
    if found is None:
        raise Refusal("no such session", code="unknown_session")
    if not security.verify_resume(found.public_key, conn.nonce, msg.session, msg.proof):
        raise Refusal("the proof does not verify", code="bad_proof")
    room = await _enter(hub, conn, found.room, found.player)
    await _welcome(conn, room, msg.session, found.player, found.name)


async def _signed(conn: Connection, msg: P.Signed) -> None:
    seq = msg.seq
    if conn.key is None or conn.room is None or conn.client is None:
        conn.refuse("no_session", seq)
        return
    if len(msg.body) > conn.settings.max_body_chars:
        conn.refuse("bad_frame", seq, {"field": "body", "problem": "invalid"})
        return
    if not security.verify(security.sign(conn.key, conn.nonce, seq, msg.body), msg.sig):
        conn.refuse("bad_signature", seq)
        return
    if not conn.seq.accept(seq):
        conn.refuse("replayed", seq)
        return
    try:
        action = P.decode_action(msg.body)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        conn.refuse("bad_frame", seq, P.problem(exc) if not isinstance(exc, RecursionError) else {})
        return
    try:
        await _act(conn, conn.room, conn.client.player, seq, action)
    except Refusal as exc:
        conn.refuse(exc.code, seq, exc.echo)
    except StoreError as exc:
        log.warning("room %s: %s", conn.room.id, exc.message)
        conn.refuse(exc.kind if exc.kind in TEXTS else "store", seq)
    except ThirteenError as exc:
        code, echo = engine_code(exc)
        log.debug("room %s: refused %s: %s", conn.room.id, code, exc.message)
        conn.refuse(code, seq, echo)
    except TypeError:
        conn.refuse("bad_frame", seq)


async def _act(conn: Connection, room: Room, player: str, seq: int, action: P.Action) -> None:
    """Applies one action of ``player`` and queues the reply."""
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


def _check(room: Room, action: P.Check) -> Dict[str, Any]:
    """Lanes' categories and the foul check (相公) of a proposed arrangement: it depends on
    the cards sent only (no other seat's hand is consulted)."""
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
        code, echo = engine_code(exc)
        return {"foul": None, "error": code, "message": TEXTS[code], **echo}
