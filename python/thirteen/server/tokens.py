"""Operator tokens of ``thirteen serve`` (account mode ``token``, for real money).

The operator's own backend (where players log in and pay) signs a JSON Web Token for a
player, and the page or program passes it in ``join``. Without a valid token there is no
account. Claims (all required):

- ``sub``: the operator's player id (1 to 64 of ``A-Z a-z 0-9 _ . : @ -``); the account is
  ``o-`` + ``sub``, the same one on every join;
- ``name``: the display name (the rules of :mod:`thirteen.server.names`);
- ``buy_in``: money (minor units, 0 to ``max_buy_in``) moved from the operator into the
  player's account by this join (ledger kind ``deposit``);
- ``aud``: the server's audience (``thirteen`` unless configured), ``iss`` when an issuer is
  configured;
- ``exp``, ``iat``: a token lives at most ``max_lifetime`` seconds (``exp - iat``);
- ``jti``: a unique id: a token is used once (a replay is refused, so a deposit is made once).

Keys: an HMAC secret of at least 32 bytes (HS256, HS384, HS512), or a PEM public key
(RSA: RS256; Ed25519: EdDSA; P-256: ES256) whose private half only the operator holds. The
algorithm list never mixes the two kinds, so a public key cannot be used as an HMAC secret,
and ``none`` is never accepted. Verification is PyJWT's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Tuple, Union

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from thirteen.errors import ThirteenError
from thirteen.server.names import normalize_name
from thirteen.server.refusals import Refusal

__all__ = ["TokenPolicy", "Claims", "verify_token", "HMAC_ALGORITHMS", "MIN_SECRET_BYTES"]

HMAC_ALGORITHMS = ("HS256", "HS384", "HS512")
#: The shortest HMAC secret accepted (RFC 7518 3.2: at least the hash's size).
MIN_SECRET_BYTES = 32
_SUBJECT = re.compile(r"^[A-Za-z0-9_.:@-]{1,64}$")


@dataclass(frozen=True)
class TokenPolicy:
    """How tokens are checked.

    Attributes:
        key: the HMAC secret (bytes) or a public key object.
        algorithms: the algorithms accepted (all HMAC, or all of the public key's kind).
        audience: the ``aud`` a token must carry.
        issuer: the ``iss`` a token must carry (``None``: not checked).
        leeway: seconds of clock difference allowed on ``exp`` and ``iat``.
        max_lifetime: the longest ``exp - iat`` accepted, in seconds.
        max_buy_in: the largest ``buy_in`` accepted (minor units).
    """

    key: Any
    algorithms: Tuple[str, ...]
    audience: str = "thirteen"
    issuer: Optional[str] = None
    leeway: float = 30.0
    max_lifetime: float = 3600.0
    max_buy_in: int = 10**12

    @classmethod
    def from_key(
        cls,
        key: Union[bytes, str],
        *,
        algorithm: Optional[str] = None,
        **options: Any,
    ) -> "TokenPolicy":
        """A policy for a key given as text or bytes: a PEM public key (``-----BEGIN``), else
        an HMAC secret (outer whitespace dropped).

        Raises:
            ThirteenError: a secret shorter than :data:`MIN_SECRET_BYTES`, a PEM that is not
                an RSA, Ed25519 or P-256 public key, or an ``algorithm`` of another kind.
        """
        data = key.encode() if isinstance(key, str) else bytes(key)
        if data.lstrip().startswith(b"-----BEGIN"):
            try:
                public = load_pem_public_key(data.strip())
            except ValueError as exc:
                raise ThirteenError(f"the token key is not a PEM public key: {exc}") from None
            if isinstance(public, rsa.RSAPublicKey):
                allowed: Tuple[str, ...] = ("RS256", "RS384", "RS512", "PS256")
            elif isinstance(public, ed25519.Ed25519PublicKey):
                allowed = ("EdDSA",)
            elif isinstance(public, ec.EllipticCurvePublicKey) and isinstance(public.curve, ec.SECP256R1):
                allowed = ("ES256",)
            else:
                raise ThirteenError("the token key must be an RSA, Ed25519 or P-256 public key")
            material: Any = public
        else:
            material = data.strip()
            if len(material) < MIN_SECRET_BYTES:
                raise ThirteenError(
                    f"the token secret has {len(material)} bytes; HMAC needs at least {MIN_SECRET_BYTES}"
                )
            allowed = HMAC_ALGORITHMS
        chosen = allowed[:1] if algorithm is None else (algorithm,)
        if chosen[0] not in allowed:
            raise ThirteenError(f"algorithm {algorithm!r} does not fit this key (use one of {list(allowed)})")
        return cls(key=material, algorithms=chosen, **options)

    @classmethod
    def from_file(cls, path: Union[str, Path], **options: Any) -> "TokenPolicy":
        """:meth:`from_key` with the key read from a file (OSError when unreadable)."""
        return cls.from_key(Path(path).read_bytes(), **options)


@dataclass(frozen=True)
class Claims:
    """What a valid token says: ``player`` (the account id, ``o-`` + ``sub``), ``name``
    (normalized), ``buy_in``, ``jti`` and ``expires`` (epoch seconds)."""

    player: str
    name: str
    buy_in: int
    jti: str
    expires: float


def _refuse(reason: str, why: str) -> Refusal:
    return Refusal(f"token refused: {why}", code="bad_token", echo={"reason": reason})


_REASONS = (
    (jwt.ExpiredSignatureError, "expired"),
    (jwt.ImmatureSignatureError, "not_yet_valid"),
    (jwt.InvalidAudienceError, "audience"),
    (jwt.InvalidIssuerError, "issuer"),
    (jwt.InvalidAlgorithmError, "algorithm"),
    (jwt.InvalidSignatureError, "signature"),
    (jwt.MissingRequiredClaimError, "claims"),
    (jwt.InvalidIssuedAtError, "claims"),
)


def verify_token(policy: TokenPolicy, token: str) -> Claims:
    """Checks a token's signature and claims (see the module doc).

    Raises:
        Refusal: code ``bad_token`` with ``reason`` ``"expired"``, ``"not_yet_valid"``,
            ``"audience"``, ``"issuer"``, ``"algorithm"``, ``"signature"``, ``"claims"``
            (a claim missing or of the wrong kind), ``"lifetime"``, ``"name"`` or
            ``"malformed"``.
    """
    try:
        claims = jwt.decode(
            token,
            policy.key,
            algorithms=list(policy.algorithms),
            audience=policy.audience,
            issuer=policy.issuer,
            leeway=policy.leeway,
            options={"require": ["exp", "iat", "sub", "aud", "jti"]},
        )
    except jwt.PyJWTError as exc:
        reason = next((r for cls, r in _REASONS if isinstance(exc, cls)), "malformed")
        raise _refuse(reason, str(exc)) from None
    sub, name, buy_in, jti = claims.get("sub"), claims.get("name"), claims.get("buy_in"), claims.get("jti")
    if not isinstance(sub, str) or not _SUBJECT.match(sub):
        raise _refuse("claims", "sub is not 1 to 64 of A-Z a-z 0-9 _ . : @ -")
    if not isinstance(jti, str) or not 1 <= len(jti) <= 128:
        raise _refuse("claims", "jti is not 1 to 128 characters")
    if not isinstance(buy_in, int) or isinstance(buy_in, bool) or not 0 <= buy_in <= policy.max_buy_in:
        raise _refuse("claims", f"buy_in is not an integer 0 to {policy.max_buy_in}")
    exp, iat = claims["exp"], claims["iat"]
    if not isinstance(exp, (int, float)) or not isinstance(iat, (int, float)):
        raise _refuse("claims", "exp and iat are not numbers")
    if exp - iat > policy.max_lifetime:
        raise _refuse("lifetime", f"the token lives {exp - iat} s, more than {policy.max_lifetime}")
    if not isinstance(name, str):
        raise _refuse("claims", "name is missing")
    try:
        shown = normalize_name(name)
    except Refusal:
        raise _refuse("name", "the name is not a valid display name") from None
    return Claims(player=f"o-{sub}", name=shown, buy_in=buy_in, jti=jti, expires=float(exp))
