"""``thirteen serve``: the reference game server and its web table.

This module imports nothing of the ``server`` extra until the command runs, so the
``thirteen`` command works without it and ``thirteen serve`` names the extra it needs.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
from typing import Any, List, Optional

__all__ = ["add_serve_parser", "cmd_serve", "listen_socket", "EXTRA_MESSAGE"]

#: What ``thirteen serve`` says when the extra is missing.
EXTRA_MESSAGE = (
    "thirteen serve needs the server extra (starlette, uvicorn, websockets, "
    "sqlalchemy): pip install 'thirteen[server]'"
)

_EXTRA = ("starlette", "uvicorn", "websockets", "sqlalchemy")


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
    p.add_argument("--rate", type=float, default=10.0, help="messages per second per connection (default 10)")
    p.add_argument("--burst", type=float, default=30.0, help="messages at once per connection (default 30)")
    p.add_argument("--log-level", default="warning", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=cmd_serve)
    return p


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


def cmd_serve(args: argparse.Namespace) -> int:
    """Runs the server until interrupted. Exit code 2 when the extra is missing or the
    settings are bad."""
    missing = _missing_extra()
    if missing:
        print(f"thirteen: error: {EXTRA_MESSAGE} (missing: {', '.join(missing)})", file=sys.stderr)
        return 2
    import msgspec
    import uvicorn

    from thirteen import RuleSet, ThirteenError
    from thirteen.server.app import ServerSettings, create_app
    from thirteen.server.config import RoomConfig

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
    except (ThirteenError, msgspec.ValidationError, OSError) as exc:
        print(f"thirteen: error: {exc}", file=sys.stderr)
        return 2
    settings = ServerSettings(db=args.db, room=room, rate=args.rate, burst=args.burst)
    try:
        sock = listen_socket(args.host, args.port)
    except OSError as exc:
        print(f"thirteen: error: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"thirteen serve: open http://{shown}:{port}/ in a browser (database {args.db})", flush=True)
    print(json.dumps({"listening": f"http://{shown}:{port}/", "port": port}), flush=True)
    config = uvicorn.Config(
        create_app(settings),
        log_level=args.log_level,
        ws_max_size=16 * 1024,
        ws_ping_interval=20.0,
        ws="websockets-sansio",
        lifespan="on",
    )
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def main(argv: Optional[List[str]] = None) -> int:  # pragma: no cover - used by `python -m`
    parser = argparse.ArgumentParser(prog="thirteen")
    add_serve_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
