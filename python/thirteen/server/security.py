"""Sessions, message signatures, replay and rate limits of ``thirteen serve``.

A session (one player in one room) is a public id and a key pair that the client makes:
ECDSA on P-256. ``join`` sends the public key; the server keeps only that. Nothing the
database holds lets anyone resume a session: resuming proves the private key by signing
``"thirteen resume\\n" + nonce + "\\n" + session`` for the connection's fresh nonce (so a
proof cannot be replayed on another connection), and the server checks it with the stored
public key.

After ``welcome`` the server and the client share a random key for this connection only
(sent in ``welcome``, kept in memory, never stored). Every later message is signed with it
by HMAC-SHA256 over the nonce, its sequence number and its exact text, so a message changed
on the way fails its signature (tampered), and a message sent again, on this connection or
another, fails the rising sequence number or the nonce (replayed).
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Tuple

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

__all__ = [
    "new_session_id",
    "new_nonce",
    "new_connection_key",
    "new_key_pair",
    "public_key_hex",
    "check_public_key",
    "resume_message",
    "resume_proof",
    "verify_resume",
    "sign",
    "verify",
    "Sequence",
    "RateLimit",
]

_CURVE = ec.SECP256R1()


def new_session_id() -> str:
    """A random public session id (URL-safe text)."""
    return secrets.token_urlsafe(12)


def new_nonce() -> str:
    """A random per-connection nonce (hex)."""
    return secrets.token_hex(16)


def new_connection_key() -> str:
    """A random key for one connection's message signatures (hex of 32 bytes)."""
    return secrets.token_hex(32)


def new_key_pair() -> Tuple[ec.EllipticCurvePrivateKey, str]:
    """A client's session key pair: the private key and the public key as the hex text
    ``join`` carries (what a browser makes with Web Crypto's ECDSA P-256)."""
    private = ec.generate_private_key(_CURVE)
    return private, public_key_hex(private.public_key())


def public_key_hex(public: ec.EllipticCurvePublicKey) -> str:
    """A P-256 public key as hex of its 65-byte uncompressed point (``04`` || x || y)."""
    return public.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint).hex()


def check_public_key(text: str) -> ec.EllipticCurvePublicKey:
    """The public key of a ``join``. Raises ValueError when it is not a P-256 point."""
    data = bytes.fromhex(text)
    if len(data) != 65 or data[0] != 4:
        raise ValueError("not a 65-byte uncompressed P-256 point")
    return ec.EllipticCurvePublicKey.from_encoded_point(_CURVE, data)


def resume_message(nonce: str, session: str) -> bytes:
    """What a resume proof signs: ``"thirteen resume\\n" + nonce + "\\n" + session``."""
    return f"thirteen resume\n{nonce}\n{session}".encode()


def resume_proof(private: ec.EllipticCurvePrivateKey, nonce: str, session: str) -> str:
    """A ``resume`` message's proof: the ECDSA-SHA256 signature of :func:`resume_message`
    as hex of r || s (32 bytes each, the form Web Crypto gives)."""
    der = private.sign(resume_message(nonce, session), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    return (r.to_bytes(32, "big") + s.to_bytes(32, "big")).hex()


def verify_resume(public_hex: str, nonce: str, session: str, proof: str) -> bool:
    """Whether ``proof`` (hex r || s) signs :func:`resume_message` under the stored key."""
    try:
        raw = bytes.fromhex(proof)
        if len(raw) != 64:
            return False
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        check_public_key(public_hex).verify(der, resume_message(nonce, session), ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError):
        return False
    return True


def sign(key: str, nonce: str, seq: int, body: str) -> str:
    """The signature of one message: hex HMAC-SHA256 keyed by the connection key's 32
    bytes over ``nonce + "\\n" + seq + "\\n" + body``."""
    return hmac.digest(bytes.fromhex(key), f"{nonce}\n{seq}\n{body}".encode(), "sha256").hex()


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
