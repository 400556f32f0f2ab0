"""A Python client of the ``thirteen serve`` protocol (``websockets``): for bots, load tests
and scripts. It makes the session's key pair, signs every action and records every frame
it reads.

    client = await TableClient.connect("ws://127.0.0.1:8000/ws")
    await client.join("lobby", "bot")
    await client.request({"type": "sit"})
    you = await client.wait_for(lambda f: f["type"] == "you" and (f["round"] or {}).get("hand"))
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Callable, Dict, List, Optional, cast

import websockets

from cryptography.hazmat.primitives.asymmetric import ec

from thirteen.server import security
from thirteen.server.protocol import PROTOCOL

__all__ = ["TableClient", "ProtocolError", "Redirected"]

Frame = Dict[str, Any]


class ProtocolError(Exception):
    """An ``error`` frame the server sent in reply: ``code`` and ``frame``."""

    def __init__(self, frame: Frame) -> None:
        super().__init__(f"{frame.get('code')}: {frame.get('message')}")
        self.code = frame.get("code")
        self.frame = frame


class Redirected(ProtocolError):
    """A ``redirect`` frame: another process plays the room; ``url`` is its address
    (``None``: not known now, try again)."""

    def __init__(self, frame: Frame) -> None:
        super().__init__({"code": "redirect", "message": f"the room is played at {frame.get('url')}"})
        self.frame = frame
        self.url: Optional[str] = frame.get("url")


class TableClient:
    """One connection. Attributes: ``nonce`` (from ``hello``), ``session``, ``private`` (the
    session's private key: with ``session``, what resumes it), ``key`` (this connection's
    signing key, from ``welcome``), ``player``, ``state`` (the last ``state`` frame),
    ``you`` (the last ``you`` frame), ``frames`` (every frame read, in order), ``seq`` (the
    last sequence number sent). With ``keep_frames=False`` (long load runs) ``frames`` keeps
    only the ``hello``."""

    def __init__(self, ws: Any, hello: Frame, *, keep_frames: bool = True) -> None:
        self.ws = ws
        self.nonce: str = hello["nonce"]
        self.session: Optional[str] = None
        self.private: Optional[ec.EllipticCurvePrivateKey] = None
        self.key: Optional[str] = None
        self.player: Optional[str] = None
        self.state: Optional[Frame] = None
        self.you: Optional[Frame] = None
        self.frames: List[Frame] = [hello]
        self.seq = 0
        self.keep_frames = keep_frames
        self._backlog: List[Frame] = []

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        timeout: float = 10.0,
        origin: Optional[str] = None,
        headers: Optional[Dict[str, str]] = None,
        local_address: Optional[str] = None,
        keep_frames: bool = True,
    ) -> "TableClient":
        """Opens a connection and reads its ``hello``: ``origin`` is sent as its Origin
        header, ``headers`` with the handshake, ``local_address`` is the address it
        connects from (e.g. another loopback address, ``127.0.0.2``); ``keep_frames``:
        whether :attr:`frames` records every frame read."""
        extra: Dict[str, Any] = {}
        if local_address is not None:
            extra["local_addr"] = (local_address, 0)
        ws = await websockets.connect(
            url,
            max_size=2**22,
            open_timeout=timeout,
            origin=cast(Any, origin),
            additional_headers=headers,
            ping_interval=None,
            compression=None,
            proxy=None,
            **extra,
        )
        hello = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        return cls(ws, hello, keep_frames=keep_frames)

    async def close(self) -> None:
        await self.ws.close()

    # ------------------------------------------------------------------ sending

    async def send_raw(self, text: str) -> None:
        """Sends a frame as it is (for tests of refusals)."""
        await self.ws.send(text)

    def signed(self, action: Dict[str, Any], *, seq: Optional[int] = None) -> str:
        """The signed envelope of an action (the next sequence number unless given)."""
        if self.key is None:
            raise RuntimeError("join or resume first")
        if seq is None:
            self.seq += 1
            seq = self.seq
        body = json.dumps(action, ensure_ascii=False)
        sig = security.sign(self.key, self.nonce, seq, body)
        return json.dumps({"type": "signed", "seq": seq, "body": body, "sig": sig})

    async def send(self, action: Dict[str, Any]) -> int:
        """Sends an action, signed; returns its sequence number."""
        text = self.signed(action)
        await self.ws.send(text)
        return self.seq

    async def request(self, action: Dict[str, Any], *, timeout: float = 10.0) -> Frame:
        """Sends an action and returns the reply to it (``ok``, ``hints``, ``checked``,
        ``pong``); raises :class:`ProtocolError` on an ``error`` reply."""
        seq = await self.send(action)
        reply = await self.wait_for(lambda f: f.get("seq") == seq and f["type"] != "state", timeout)
        if reply["type"] == "error":
            raise ProtocolError(reply)
        return reply

    async def join(
        self, room: str, name: Optional[str] = None, *, token: Optional[str] = None, timeout: float = 10.0
    ) -> Frame:
        """Joins a room as a new player (a play-money ``name``, or an operator's ``token``)
        with a new key pair; keeps the session and its private key."""
        private, public = security.new_key_pair()
        message: Dict[str, Any] = {"type": "join", "protocol": PROTOCOL, "room": room, "key": public}
        if name is not None:
            message["name"] = name
        if token is not None:
            message["token"] = token
        await self.ws.send(json.dumps(message))
        welcome = await self._welcome(timeout)
        self.session, self.private, self.player = welcome["session"], private, welcome["player"]
        self.key = welcome["key"]
        return welcome

    async def resume(self, session: str, private: ec.EllipticCurvePrivateKey, *, timeout: float = 10.0) -> Frame:
        """Resumes a session on this connection (signing its nonce with the session key)."""
        proof = security.resume_proof(private, self.nonce, session)
        message = {"type": "resume", "protocol": PROTOCOL, "session": session, "proof": proof}
        await self.ws.send(json.dumps(message))
        welcome = await self._welcome(timeout)
        self.session, self.private, self.player = session, private, welcome["player"]
        self.key = welcome["key"]
        return welcome

    async def _welcome(self, timeout: float) -> Frame:
        """The ``welcome`` of a join or resume; raises :class:`ProtocolError` for an error
        frame and :class:`Redirected` for a redirect."""
        welcome = await self.wait_for(lambda f: f["type"] in ("welcome", "error", "redirect"), timeout)
        if welcome["type"] == "error":
            raise ProtocolError(welcome)
        if welcome["type"] == "redirect":
            raise Redirected(welcome)
        return welcome

    # ------------------------------------------------------------------ reading

    async def recv(self, timeout: float = 10.0) -> Frame:
        """The next frame (from the backlog first)."""
        if self._backlog:
            return self._backlog.pop(0)
        frame: Frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self._note(frame)
        return frame

    def _note(self, frame: Frame) -> None:
        if self.keep_frames:
            self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        elif frame["type"] == "you":
            self.you = frame

    async def wait_for(self, predicate: Callable[[Frame], bool], timeout: float = 10.0) -> Frame:
        """Reads until a frame matches; frames passed over stay readable by :meth:`recv`
        (a backlog), except ``state`` and ``you`` frames, which only update :attr:`state`
        and :attr:`you`."""
        deadline = time.monotonic() + timeout
        skipped: List[Frame] = []
        try:
            for i, frame in enumerate(self._backlog):
                if predicate(frame):
                    del self._backlog[i]
                    return frame
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise asyncio.TimeoutError("no matching frame in time")
                frame = cast(Frame, json.loads(await asyncio.wait_for(self.ws.recv(), left)))
                self._note(frame)
                if predicate(frame):
                    return frame
                if frame["type"] not in ("state", "you"):
                    skipped.append(frame)
        finally:
            self._backlog.extend(skipped)
