"""The settings of a ``thirteen serve`` process: its database, account mode and the bounds
of every resource a client can make it spend (each with a safe default; docs/server.md
lists them with their command-line options)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Tuple

if TYPE_CHECKING:  # this module imports nothing of the server extra: the CLI reads its defaults
    from thirteen.server.config import RoomConfig
    from thirteen.server.tokens import TokenPolicy

__all__ = ["ServerSettings", "ACCOUNT_MODES"]

#: ``play``: play money, a starting balance per new name (bounded per address);
#: ``token``: real money, accounts only from the operator's signed tokens.
ACCOUNT_MODES = ("play", "token")


@dataclass(frozen=True)
class ServerSettings:
    """Settings of a server. Times are seconds, sizes bytes (or characters).

    Attributes:
        db: the SQLAlchemy URL of the database.
        room: the settings of rooms created from now on (rooms keep theirs).
        rate, burst: messages per second allowed per connection on average, and at once.
        max_strikes: rate-limited messages in a row after which the connection is closed
            (code 1008, after a ``flooding`` refusal).
        queue: frames waiting for a slow client after which it is dropped.
        accounts: ``"play"`` or ``"token"`` (:data:`ACCOUNT_MODES`).
        grants_per_address, grant_window: play money: the starting balance is granted at
            most this many times per client address in a window of this many seconds.
        tokens: token accounts: how tokens are checked (``None`` in play mode).
        max_rooms: rooms held in memory; an idle room is unloaded to make space (it stays
            in the database and is loaded again when someone comes).
        room_idle_seconds: a room without connections or a round in progress this long is
            unloaded.
        max_spectators: connections of people not seated, per room.
        max_connections: open connections of the whole server (HTTP and WebSocket).
        max_connections_per_address: open connections per client address.
        max_message_bytes: the largest WebSocket message (larger: closed with code 1009).
        max_body_chars: the largest ``body`` of a signed message.
        max_header_bytes: the largest HTTP request head.
        header_timeout: seconds a connection may take to send a whole request head.
        keep_alive_timeout: seconds an idle HTTP keep-alive connection is kept.
        join_timeout: seconds a WebSocket may stay without ``join`` or ``resume``.
        ping_interval, ping_timeout: WebSocket pings; a peer that does not answer one in
            ``ping_timeout`` seconds is closed.
        allowed_origins: when not empty, a WebSocket whose ``Origin`` header is another is
            refused (HTTP 403); a client sending no ``Origin`` (not a browser) is let in.
        trusted_proxies: addresses of reverse proxies whose ``X-Forwarded-For`` names the
            client; empty: the peer address is the client's.
        lease_seconds: how long a room's lease lasts unless renewed (renewed every third
            of it): after its holder dies, another process takes the room this long after
            the last renewal at most.
        advertise: the WebSocket URL clients reach this process at (``ws://`` or ``wss://``
            ... ``/ws``): its name in the rooms' leases, sent in ``redirect`` frames.
    """

    db: str = "sqlite:///thirteen.db"
    room: "RoomConfig" = field(default_factory=lambda: _default_room())
    rate: float = 10.0
    burst: float = 30.0
    max_strikes: int = 50
    queue: int = 500
    accounts: str = "play"
    grants_per_address: int = 1
    grant_window: float = 86_400.0
    tokens: Optional["TokenPolicy"] = None
    max_rooms: int = 1_000
    room_idle_seconds: float = 60.0
    max_spectators: int = 50
    max_connections: int = 2_000
    max_connections_per_address: int = 32
    max_message_bytes: int = 16 * 1024
    max_body_chars: int = 4_000
    max_header_bytes: int = 16 * 1024
    header_timeout: float = 10.0
    keep_alive_timeout: float = 5.0
    join_timeout: float = 30.0
    ping_interval: float = 20.0
    ping_timeout: float = 20.0
    allowed_origins: Tuple[str, ...] = ()
    trusted_proxies: Tuple[str, ...] = ()
    lease_seconds: float = 10.0
    advertise: str = ""


def _default_room() -> Any:
    from thirteen.server.config import RoomConfig

    return RoomConfig()
