"""Connection bounds of ``thirteen serve`` below the web framework: uvicorn's HTTP/1.1 and
WebSocket protocols with a guard.

uvicorn accepts every connection and waits for its request head without a time limit, and
its ``limit_concurrency`` does not count WebSocket upgrades; a few hundred idle or half-open
sockets used to exhaust the process's file descriptors (``EMFILE``) so that even
``/health`` failed. The guard bounds them where they are accepted:

- at most ``max_connections`` open connections in all and ``max_connections_per_address``
  per peer address (a trusted proxy's connections count only towards the total): one over
  the bound is answered ``503`` at once and closed;
- a connection must send a whole request head within ``header_timeout`` seconds of
  connecting (or of its first byte after a keep-alive pause), else it is closed;
- a request head over ``max_head`` bytes is answered ``431`` and closed (h11's own bound
  holds only for a head that arrives in pieces).

A connection is counted from its acceptance until its socket closes, through the upgrade
from HTTP to WebSocket.

The WebSocket protocol offers itself to the application in the scope's ``extensions``
(:data:`thirteen.server.wire.RAW_EXTENSION`), so that frames encoded once are written
straight to the socket, and reads up to :data:`READ_AHEAD` messages ahead of the
application (uvicorn pauses the socket after every message).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Dict, FrozenSet, Optional, Tuple, Type

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from thirteen.server.wire import RAW_EXTENSION

__all__ = ["Guard", "guarded_protocols", "READ_AHEAD"]

#: Messages of a WebSocket read ahead of the application before the socket is paused.
READ_AHEAD = 8

log = logging.getLogger("thirteen.server")

_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)
_TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\n"
    b"content-length: 30\r\n\r\nthe request head is too large\n"
)


@dataclass(eq=False)
class Guard:
    """Counts open connections per peer address and in all.

    Args:
        max_connections: open connections in all.
        per_address: open connections per peer address (not for ``trusted`` ones).
        header_timeout: seconds allowed to send a request head.
        trusted: peer addresses of reverse proxies.
        max_head: the largest request head in bytes (larger: ``431`` and closed).
        max_lingering: refused connections kept open a moment for their peer to read the
            503 (more are closed at once).
    """

    max_connections: int
    per_address: int
    header_timeout: float
    trusted: FrozenSet[str]
    max_head: int = 16 * 1024
    max_lingering: int = 64
    open: Dict[asyncio.BaseTransport, str] = field(default_factory=dict, init=False)
    by_address: Dict[str, int] = field(default_factory=dict, init=False)
    refused: int = field(default=0, init=False)
    #: refused connections still open for their peer to read the 503
    lingering: int = field(default=0, init=False)

    def admit(self, transport: asyncio.BaseTransport) -> Optional[bytes]:
        """Counts a new connection; returns the refusal to write instead when it is over a
        bound (then nothing is counted)."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else ""
        if len(self.open) >= self.max_connections:
            reason = b"the server has as many connections as it may\n"
        elif address not in self.trusted and self.by_address.get(address, 0) >= self.per_address:
            reason = b"too many connections from this address\n"
        else:
            self.open[transport] = address
            self.by_address[address] = self.by_address.get(address, 0) + 1
            return None
        self.refused += 1
        return _REFUSAL % (len(reason), reason)

    def release(self, transport: asyncio.BaseTransport) -> None:
        """A counted connection closed (idempotent)."""
        address = self.open.pop(transport, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


def guarded_protocols(guard: Guard) -> Tuple[Type[asyncio.Protocol], Type[asyncio.Protocol]]:
    """uvicorn's HTTP/1.1 (h11) and WebSocket (websockets sans-I/O) protocol classes bound
    to ``guard``: pass them as ``Config(http=..., ws=...)``."""

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Optional[Exception]) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

        def send_receive_event_to_app(self) -> None:
            # uvicorn stops reading the socket after every message until the application
            # has taken it (two epoll changes per message); reading stops here only when
            # READ_AHEAD messages wait (the rate limit bounds what a client can send), and
            # never after the close was sent (the peer's close reply must be read).
            paused = self.read_paused
            self.read_paused = True  # the base class does not pause again
            super().send_receive_event_to_app()
            self.read_paused = paused
            if not paused and not self.close_sent and self.queue.qsize() >= READ_AHEAD:
                self.read_paused = True
                self.transport.pause_reading()

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:  # the application may write frames straight to the socket
                scope["extensions"][RAW_EXTENSION] = self

    class GuardedHTTP(H11Protocol):
        _head_timer: Optional[asyncio.TimerHandle] = None
        _head = b""  # the start of a request head not yet complete (at most max_head + 4 bytes)

        def connection_made(self, transport: Any) -> None:
            refusal = guard.admit(transport)
            self._refused = refusal is not None
            if refusal is None:
                super().connection_made(transport)
                self._arm()
                return
            # The 503, then our side shut; the socket stays open a moment, reading and
            # dropping what the peer sends (its request), so that closing it does not reset
            # the connection before the peer has read the answer (max_lingering at once).
            self.transport = transport
            self._lingers = False
            transport.write(refusal)
            if guard.lingering >= guard.max_lingering or not transport.can_write_eof():
                transport.close()
                return
            self._lingers = True
            guard.lingering += 1
            transport.write_eof()
            self._head_timer = self.loop.call_later(1.0, transport.close)

        def connection_lost(self, exc: Optional[Exception]) -> None:
            self._disarm()
            if self._refused:
                if self._lingers:
                    guard.lingering -= 1
                return
            guard.release(self.transport)
            super().connection_lost(exc)

        def eof_received(self) -> None:
            if self._refused:
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            if self.conn.their_state is h11.IDLE:
                self._head = (self._head + data)[: guard.max_head + 4]
                end = self._head.find(b"\r\n\r\n")
                if (end < 0 and len(self._head) > guard.max_head) or end > guard.max_head:
                    self._disarm()
                    self.transport.write(_TOO_LARGE)
                    self.transport.close()
                    return
                if end >= 0:
                    self._head = b""
            super().data_received(data)
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                self._disarm()  # closed, or upgraded to a WebSocket
            elif self.conn.their_state is h11.IDLE:
                self._arm()  # a request head is still coming
            else:
                self._disarm()

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(guard.header_timeout, self._head_timeout)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timeout(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                log.info("closing a connection that sent no whole request head in %s s", guard.header_timeout)
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._disarm()  # the keep-alive timer watches the pause until the next request

    GuardedHTTP.__name__ = "GuardedHTTP"
    GuardedWebSocket.__name__ = "GuardedWebSocket"
    return GuardedHTTP, GuardedWebSocket
