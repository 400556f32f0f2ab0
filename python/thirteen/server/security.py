"""Sessions, message signatures, replay and rate limits of ``thirteen serve``.

A session (one player) has a public id and a secret, both random; the secret is sent once,
in the ``welcome`` frame after ``join``, and never again. Each connection gets a fresh
random nonce in its ``hello`` frame. Resuming proves the secret without sending it:
``HMAC-SHA256(secret, "resume\\n" + nonce)``. Every later message is signed over the
nonce, its sequence number and its exact text, so a message changed on the way fails its
signature (tampered), and a message sent again, on this connection or on another one,
fails the rising sequence number or the nonce (replayed).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field

__all__ = [
    "new_session_id",
    "new_secret",
    "new_nonce",
    "sign",
    "resume_proof",
    "verify",
    "Sequence",
    "RateLimit",
]


def new_session_id() -> str:
    """A random public session id (URL-safe text)."""
    return secrets.token_urlsafe(12)


def new_secret() -> str:
    """A random session secret (URL-safe text, 256 bits)."""
    return secrets.token_urlsafe(32)


def new_nonce() -> str:
    """A random per-connection nonce (hex)."""
    return secrets.token_hex(16)


def _mac(secret: str, text: str) -> str:
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()


def sign(secret: str, nonce: str, seq: int, body: str) -> str:
    """The signature of one message: hex HMAC-SHA256 keyed by the session secret over
    ``nonce + "\\n" + seq + "\\n" + body``."""
    return _mac(secret, f"{nonce}\n{seq}\n{body}")


def resume_proof(secret: str, nonce: str) -> str:
    """What a ``resume`` message carries: hex HMAC-SHA256(secret, ``"resume\\n" + nonce``)."""
    return _mac(secret, f"resume\n{nonce}")


def verify(expected: str, got: str) -> bool:
    """Constant-time comparison of two hex signatures."""
    return hmac.compare_digest(expected.encode(), got.encode())


@dataclass
class Sequence:
    """The last sequence number accepted on a connection: each message's must be higher."""

    last: int = 0

    def accept(self, seq: int) -> bool:
        """Takes ``seq`` when it is higher than the last; False (a replay) otherwise."""
        if seq <= self.last:
            return False
        self.last = seq
        return True


@dataclass
class RateLimit:
    """A token bucket per connection: ``burst`` messages at once, ``rate`` per second on
    average. :meth:`allow` takes one token or says no."""

    rate: float
    burst: float
    tokens: float = field(default=-1.0)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def allow(self) -> bool:
        """Whether one more message may pass now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False
