"""Server frames on the wire: a frame is encoded to JSON once, and to a WebSocket text
frame once, however many connections it goes to.

A server's WebSocket frames are not masked (RFC 6455 5.1) and this server does not
compress them, so the bytes of a text frame depend on its text only: a broadcast builds
them once and writes the same bytes to every socket. :class:`Wire` holds both forms: the
JSON text (for an ASGI server other than ``thirteen serve``'s, through the framework) and
the frame bytes (written straight to the socket by ``thirteen serve``'s WebSocket protocol,
which puts itself in the scope's ``extensions`` under :data:`RAW_EXTENSION`).
"""

from __future__ import annotations

import struct
from typing import Any, Dict

import msgspec

__all__ = ["Wire", "RAW_EXTENSION", "text_frame", "wire"]

#: The key of the ASGI scope's ``extensions`` under which ``thirteen serve``'s WebSocket
#: protocol (:mod:`thirteen.server.transport`) offers its socket to the application.
RAW_EXTENSION = "thirteen.raw_websocket"

_encoder = msgspec.json.Encoder()


def text_frame(payload: bytes) -> bytes:
    """The unmasked, final WebSocket text frame (opcode 1) carrying ``payload`` (UTF-8)."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, n) + payload
    return struct.pack("!BBQ", 0x81, 127, n) + payload


class Wire:
    """One server frame, encoded: ``data`` (its JSON, UTF-8 bytes) and ``frame`` (the
    WebSocket frame carrying it)."""

    __slots__ = ("data", "frame")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.frame = text_frame(data)

    @property
    def text(self) -> str:
        """The JSON text."""
        return self.data.decode("utf-8")


def wire(frame: Dict[str, Any]) -> Wire:
    """A server frame (plain data) encoded once (:class:`Wire`)."""
    return Wire(_encoder.encode(frame))
