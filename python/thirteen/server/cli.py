"""``thirteen serve``: the reference game server and its web table.

This module imports nothing of the ``server`` extra until the command runs, so the
``thirteen`` command works without it and ``thirteen serve`` names the extra it needs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import resource
import socket
import sys
from typing import Any, Dict, List, Optional, Tuple

from thirteen.server.settings import ServerSettings

__all__ = ["add_serve_parser", "cmd_serve", "listen_socket", "fit_file_limit", "FileBudget", "EXTRA_MESSAGE"]

#: What ``thirteen serve`` says when the extra is missing.
EXTRA_MESSAGE = (
    "thirteen serve needs the server extra (starlette, uvicorn, websockets, "
    "sqlalchemy, jwt, cryptography): pip install 'thirteen[server]'"
)

_EXTRA = ("starlette", "uvicorn", "websockets", "sqlalchemy", "jwt", "cryptography")

#: Server options set from the command line as they are: (field of ServerSettings, type,
#: help). The flag is the field with dashes; the default is the field's.
_BOUNDS: Tuple[Tuple[str, Any, str], ...] = (
    ("rate", float, "messages per second per connection"),
    ("burst", float, "messages at once per connection"),
    ("max_strikes", int, "rate-limited messages in a row before the connection is closed"),
    ("grants_per_address", int, "play money: starting balances per client address per window"),
    ("grant_window", float, "play money: the window of --grants-per-address, seconds"),
    ("max_rooms", int, "rooms in memory (idle ones are unloaded to make space)"),
    ("room_idle_seconds", float, "a room idle this long leaves memory (it stays in the database)"),
    ("max_spectators", int, "connections of people not seated, per room"),
    ("max_connections", int, "open connections of the server (HTTP and WebSocket)"),
    ("max_connections_per_address", int, "open connections per client address"),
    ("max_message_bytes", int, "the largest WebSocket message"),
    ("max_body_chars", int, "the largest body of a signed message"),
    ("max_header_bytes", int, "the largest HTTP request head"),
    ("header_timeout", float, "seconds to send a whole HTTP request head"),
    ("keep_alive_timeout", float, "seconds an idle HTTP keep-alive connection is kept"),
    ("join_timeout", float, "seconds a WebSocket may stay without join or resume"),
    ("ping_interval", float, "seconds between WebSocket pings"),
    ("ping_timeout", float, "seconds a WebSocket ping waits for its pong before the close"),
)
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(ServerSettings)}


def _missing_extra() -> List[str]:
    missing = []
    for name in _EXTRA:
        try:
            __import__(name)
        except ImportError:
            missing.append(name)
    return missing


def _rake(text: str) -> List[Any]:
    parts = text.split(",")
    if len(parts) not in (1, 2) or not parts[0].strip():
        raise argparse.ArgumentTypeError(f"rake is PERCENT or PERCENT,CAP, got {text!r}")
    cap = int(parts[1]) if len(parts) == 2 and parts[1].strip() else None
    return [parts[0].strip(), cap]


def _read_rules(path: str) -> Any:
    """The data of a rule-set file: JSON when it ends in ``.json``, else TOML."""
    from thirteen.errors import RuleSetError

    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        if path.endswith(".json"):
            return json.loads(raw)
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib
        return tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RuleSetError(f"cannot read the rule-set file {path}: {exc}", key=None) from None


def add_serve_parser(sub: Any) -> argparse.ArgumentParser:
    """Registers ``serve`` on the ``thirteen`` command's subparsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="run the game server and its web table (needs thirteen[server])",
        description="Run rooms of Thirteen over WebSockets, kept in a SQL database, with a web table "
        "to play in a browser against AI seats. Room settings apply to rooms created from now on.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--db", default="sqlite:///thirteen.db",
                   help="SQLAlchemy database URL (default sqlite:///thirteen.db, a file here)")
    p.add_argument("--rules", default="kaixin", help="preset of new rooms (default kaixin)")
    p.add_argument("--rules-file", metavar="FILE", help="a rule-set file (TOML or JSON) for new rooms")
    p.add_argument("--seats", type=int, choices=(2, 3, 4), default=None, help="seats per table (default: the most the rules allow)")
    p.add_argument("--ai", type=int, default=3, help="AI seats that fill a table (default 3)")
    p.add_argument("--stake", type=int, default=100, help="money per unit, minor units (default 100)")
    p.add_argument("--rake", type=_rake, default=None, metavar="PERCENT[,CAP]", help="rake on winnings, e.g. 5,200")
    p.add_argument("--min-balance", type=int, default=100, help="room minimum (default 100)")
    p.add_argument("--starting-balance", type=int, default=100_000, help="money a new player starts with (default 100000)")
    p.add_argument("--arrange-seconds", type=float, default=60.0, help="arrange clock (default 60)")
    p.add_argument("--pause-seconds", type=float, default=6.0, help="pause between rounds (default 6)")
    p.add_argument("--grace-seconds", type=float, default=30.0, help="how long an offline seat is kept between rounds (default 30)")
    p.add_argument("--seed", type=int, default=None, help="deal round k with seed SEED+k (reproducible rooms)")
    for name, kind, text in _BOUNDS:
        default = _DEFAULTS[name]
        p.add_argument(f"--{name.replace('_', '-')}", type=kind, default=default, help=f"{text} (default {default})")
    p.add_argument("--accounts", choices=("play", "token"), default="play",
                   help="play: play money for each new name; token: real money, accounts from the "
                   "operator's signed tokens only (default play)")
    p.add_argument("--token-key-file", metavar="FILE",
                   help="token accounts: the HMAC secret (32 bytes or more) or a PEM public key "
                   "(RSA, Ed25519, P-256); or the secret in $THIRTEEN_TOKEN_KEY")
    p.add_argument("--token-algorithm", default=None, help="token algorithm (default: HS256, RS256, EdDSA or ES256 by the key)")
    p.add_argument("--token-audience", default="thirteen", help="the aud claim tokens must carry (default thirteen)")
    p.add_argument("--token-issuer", default=None, help="the iss claim tokens must carry (default: not checked)")
    p.add_argument("--token-max-lifetime", type=float, default=3600.0, help="longest exp - iat of a token, seconds (default 3600)")
    p.add_argument("--max-buy-in", type=int, default=10**12, help="largest buy_in claim of a token (default 10**12)")
    p.add_argument("--allowed-origins", default="", metavar="ORIGIN[,ORIGIN...]",
                   help="refuse WebSockets from browser pages of other origins (default: any)")
    p.add_argument("--trusted-proxies", default="", metavar="ADDRESS[,ADDRESS...]",
                   help="reverse proxies whose X-Forwarded-For names the client (default: none)")
    p.add_argument("--lease-seconds", type=float, default=_DEFAULTS["lease_seconds"],
                   help="a room's lease lasts this long unless renewed: after its process dies another takes "
                   f"the room within it (default {_DEFAULTS['lease_seconds']})")
    p.add_argument("--advertise", default="", metavar="URL",
                   help="the WebSocket URL clients reach this process at (its name in the rooms' leases and "
                   "redirects; default ws://HOST:PORT/ws)")
    p.add_argument("--log-level", default="warning", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=cmd_serve)
    return p


@dataclasses.dataclass(frozen=True)
class FileBudget:
    """How the process's file descriptors are shared: ``connections`` held open at most,
    ``backlog`` (the listen queue, and how many connections asyncio accepts in one go
    before any is refused), ``lingering`` (refused connections kept a moment so that their
    503 is read); 64 stay for the database, logs and the listening socket."""

    connections: int
    backlog: int
    lingering: int


def fit_file_limit(max_connections: int) -> FileBudget:
    """Makes room for ``max_connections`` open sockets in the process's file limit: raises
    the soft ``RLIMIT_NOFILE`` up to the hard one when needed, then shares it (see
    :class:`FileBudget`): a burst of connections, accepted before any can be refused, must
    not run the process out of descriptors (EMFILE)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = max_connections + 64 + 2048 + 64
    if need > soft:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    spare = max(32, soft - 64)
    backlog = min(2048, max(16, spare // 4))
    lingering = min(64, max(4, spare // 8))
    return FileBudget(max(1, min(max_connections, spare - backlog - lingering)), backlog, lingering)


def _csv(text: str) -> Tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def listen_socket(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound to ``host``:``port`` (0: a free port).

    Made with ``IPPROTO_TCP`` named: asyncio turns Nagle's algorithm off (``TCP_NODELAY``)
    only on sockets whose protocol says TCP, and accepted sockets inherit it from this one.
    Without it every reply written after another waited for the client's delayed ACK
    (40 ms on Linux). Raises OSError when the address cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _server_settings(args: argparse.Namespace, room: Any) -> ServerSettings:
    """The settings of ``args`` (ThirteenError or OSError for bad token settings)."""
    from thirteen import ThirteenError
    from thirteen.server.tokens import TokenPolicy

    tokens = None
    if args.accounts == "token":
        options: Dict[str, Any] = dict(
            algorithm=args.token_algorithm,
            audience=args.token_audience,
            issuer=args.token_issuer,
            max_lifetime=args.token_max_lifetime,
            max_buy_in=args.max_buy_in,
        )
        if args.token_key_file:
            tokens = TokenPolicy.from_file(args.token_key_file, **options)
        elif os.environ.get("THIRTEEN_TOKEN_KEY"):
            tokens = TokenPolicy.from_key(os.environ["THIRTEEN_TOKEN_KEY"], **options)
        else:
            raise ThirteenError("--accounts token needs --token-key-file or $THIRTEEN_TOKEN_KEY")
    bounds = {name: getattr(args, name) for name, _, _ in _BOUNDS}
    for name, value in bounds.items():
        if value < 0 or (value == 0 and name.startswith("max_") and name != "max_strikes"):
            raise ThirteenError(f"--{name.replace('_', '-')} must be positive, got {value}")
    if not args.lease_seconds > 0:
        raise ThirteenError(f"--lease-seconds must be positive, got {args.lease_seconds}")
    if args.advertise and not args.advertise.startswith(("ws://", "wss://")):
        raise ThirteenError(f"--advertise is a ws:// or wss:// URL, got {args.advertise!r}")
    return ServerSettings(
        db=args.db,
        room=room,
        accounts=args.accounts,
        tokens=tokens,
        allowed_origins=_csv(args.allowed_origins),
        trusted_proxies=_csv(args.trusted_proxies),
        lease_seconds=args.lease_seconds,
        advertise=args.advertise,
        **bounds,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    """Runs the server until interrupted. Exit code 2 when the extra is missing or the
    settings are bad."""
    missing = _missing_extra()
    if missing:
        print(f"thirteen: error: {EXTRA_MESSAGE} (missing: {', '.join(missing)})", file=sys.stderr)
        return 2
    import msgspec

    from thirteen import RuleSet, ThirteenError
    from thirteen.server.config import RoomConfig
    from thirteen.server.store import masked_url

    rules: Any = args.rules
    try:
        if args.rules_file:
            rules = RuleSet.from_dict(_read_rules(args.rules_file)).to_dict()
        room = RoomConfig(
            rules=rules,
            seats=args.seats,
            ai=args.ai,
            stake=args.stake,
            rake=args.rake,
            min_balance=args.min_balance,
            starting_balance=args.starting_balance,
            arrange_seconds=args.arrange_seconds,
            pause_seconds=args.pause_seconds,
            grace_seconds=args.grace_seconds,
            seed=args.seed,
        )
        room.new_table()
        if not 0 <= args.ai <= 4:
            raise ThirteenError(f"--ai must be 0 to 4, got {args.ai}")
        settings = _server_settings(args, room)
    except (ThirteenError, msgspec.ValidationError, OSError) as exc:
        print(f"thirteen: error: {exc}", file=sys.stderr)
        return 2
    budget = fit_file_limit(settings.max_connections)
    if budget.connections < settings.max_connections:
        print(
            f"thirteen serve: the file limit allows {budget.connections} connections, not {settings.max_connections}",
            file=sys.stderr,
        )
        settings = dataclasses.replace(settings, max_connections=budget.connections)
    try:
        sock = listen_socket(args.host, args.port)
    except OSError as exc:
        print(f"thirteen: error: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if not settings.advertise:
        settings = dataclasses.replace(settings, advertise=f"ws://{shown}:{port}/ws")
    print(f"thirteen serve: open http://{shown}:{port}/ in a browser (database {masked_url(args.db)})", flush=True)
    print(json.dumps({"listening": f"http://{shown}:{port}/", "port": port}), flush=True)
    _run(settings, sock, args.log_level, budget)
    return 0


def _run(settings: ServerSettings, sock: socket.socket, log_level: str, budget: FileBudget) -> None:
    """Serves ``settings`` on ``sock`` with uvicorn and the connection guard until stopped."""
    import uvicorn

    from thirteen.server.app import create_app
    from thirteen.server.transport import Guard, guarded_protocols

    logging.getLogger("thirteen.server").setLevel(log_level.upper())
    guard = Guard(
        settings.max_connections,
        settings.max_connections_per_address,
        settings.header_timeout,
        frozenset(settings.trusted_proxies),
        settings.max_header_bytes,
        budget.lingering,
    )
    http, ws = guarded_protocols(guard)
    config = uvicorn.Config(
        create_app(settings),
        log_level=log_level,
        http=http,
        ws=ws,
        ws_max_size=settings.max_message_bytes,
        ws_per_message_deflate=False,
        ws_ping_interval=settings.ping_interval,
        ws_ping_timeout=settings.ping_timeout,
        h11_max_incomplete_event_size=settings.max_header_bytes,
        timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]
        # The guard admits at most max_connections; uvicorn counts the one asking too.
        limit_concurrency=settings.max_connections + 1,
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies) or None,
        server_header=False,
        backlog=budget.backlog,
        lifespan="on",
    )
    uvicorn.Server(config).run(sockets=[sock])


def main(argv: Optional[List[str]] = None) -> int:  # pragma: no cover - used by `python -m`
    parser = argparse.ArgumentParser(prog="thirteen")
    add_serve_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
