"""Helpers of the server tests: ``thirteen serve`` as a real subprocess on 127.0.0.1 with a
real database (an SQLite file, or a fresh database of a real PostgreSQL), the frames a
client waits for, and plays computed for a hand.

PostgreSQL: ``THIRTEEN_TEST_PG`` is the SQLAlchemy URL of a database on a running cluster
whose user may create databases (``.ci/run`` starts one and sets it); each test gets its own
database, dropped after it. Without it the PostgreSQL variants skip, unless
``THIRTEEN_REQUIRE_PG=1`` (set by ``.ci/run``), where they fail.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")
pytest.importorskip("sqlalchemy")
pytest.importorskip("msgspec")
pytest.importorskip("jwt")

import thirteen  # noqa: E402
from thirteen.server.client import TableClient  # noqa: E402
from thirteen.server.process import ServerProcess  # noqa: E402
from thirteen.server.store import Store  # noqa: E402

# A card token stands alone: not inside a word, and not inside the URL-safe random ids and keys
# the server hands out (session, player ``p-...``; alphabet ``A-Za-z0-9_-``), where a run like
# ``-3c_`` would otherwise read as a card.
CARD = re.compile(r"(?<![\w-])(?:10|[2-9TJQKA])[shcd](?![\w-])", re.I)

#: What the tests' servers grant: many players come from 127.0.0.1 (the default is one
#: starting balance per address and day; the tests of that bound set their own).
GENEROUS = ("--grants-per-address", "100000")

PG_URL = os.environ.get("THIRTEEN_TEST_PG")
PG_REQUIRED = os.environ.get("THIRTEEN_REQUIRE_PG") == "1"
PG_MISSING = (
    "THIRTEEN_TEST_PG is not set: no PostgreSQL to test on (install Debian's postgresql and "
    "start a cluster as .ci/run does)"
)


class Server(ServerProcess):
    """A test server (see :class:`thirteen.server.process.ServerProcess`)."""


def serve(tmp_path: Path, *args: str, name: str = "server.db", db: Optional[str] = None, **kw: Any) -> Server:
    """Starts a server on ``db`` (default: a fresh SQLite file in ``tmp_path``) with
    :data:`GENEROUS` grants unless ``args`` set them."""
    extra = () if "--grants-per-address" in args else GENEROUS
    return Server(db if db is not None else tmp_path / name, [*extra, *args], **kw).start()


def _pg_database() -> Iterator[str]:
    if not PG_URL:
        if PG_REQUIRED:
            pytest.fail(f"PostgreSQL is required here (THIRTEEN_REQUIRE_PG=1) but {PG_MISSING}")
        pytest.skip(PG_MISSING)
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    name = f"thirteen_t_{secrets.token_hex(6)}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: Any, tmp_path: Path) -> Iterator[str]:
    """A fresh database URL: an SQLite file, then a new PostgreSQL database (see the module
    doc for when that variant skips)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.db'}"
    else:
        yield from _pg_database()


def has_hand(number: int = 1):
    """A predicate: a ``you`` frame with a hand to arrange in round ``number`` or later."""

    def check(f: Dict[str, Any]) -> bool:
        r = f.get("round") if f["type"] == "you" else None
        return bool(r and r.get("hand") and r["phase"] == "arrange" and not r.get("play") and r["number"] >= number)

    return check


async def dealt(client: TableClient, number: int = 1, timeout: float = 20.0) -> Dict[str, Any]:
    """The client's ``you`` frame once it holds a hand to arrange in round ``number`` or
    later (at once when the last one did)."""
    if client.you is not None and has_hand(number)(client.you):
        return client.you
    return await client.wait_for(has_hand(number), timeout)


async def joined(url: str, room: str, *names: str) -> List[TableClient]:
    """A client for each of ``names``, in turn: a new connection to ``url`` that joins
    ``room`` under that name."""
    clients = []
    for name in names:
        c = await TableClient.connect(url)
        await c.join(room, name)
        clients.append(c)
    return clients


async def sit(*clients: TableClient) -> None:
    """Each client asks for a seat, in turn (answered before the next asks)."""
    for c in clients:
        await c.request({"type": "sit"})


@contextlib.contextmanager
def opened(db: str) -> Iterator[Store]:
    """The store of database ``db`` (a URL or an SQLite path), closed on leaving."""
    store = Store(db)
    try:
        yield store
    finally:
        store.close()


def money_held(store: Store, room: str) -> Tuple[int, thirteen.Table]:
    """``(every account's balance, the house's too, + the balances seated in room,
    the room's table)``: what conservation sets against the money minted (RULES.md 5
    "Money")."""
    saved = store.room(room)
    assert saved is not None, room
    table = thirteen.Table.from_json(saved.state)
    return store.account_total() + sum(table.balance(p) for p in table.players), table


async def join_code(url: str, room: str, name: str, **connect: Any) -> str:
    """Joins ``room`` as ``name`` on a new connection (``connect``: its options) and closes
    it: ``"welcome"``, or the code of the refusal."""
    from thirteen.server.client import ProtocolError

    c = await TableClient.connect(url, **connect)
    try:
        await c.join(room, name)
        return "welcome"
    except ProtocolError as err:
        return str(err.code)
    finally:
        await c.close()


def lanes(sub: Any) -> Dict[str, str]:
    """The action fields of an arrangement."""
    return {
        "front": thirteen.format_cards(list(sub.front)),
        "middle": thirteen.format_cards(list(sub.middle)),
        "back": thirteen.format_cards(list(sub.back)),
    }


def best_action(hand: str, rules: thirteen.RuleSet, players: int) -> Dict[str, Any]:
    """The engine's play for a hand as a ``submit`` or ``declare`` action."""
    sol = thirteen.solve(hand, rules, players=players)
    if sol.arrangement is None:
        return {"type": "declare", "special": sol.special.key}
    return {"type": "submit", **lanes(sol.arrangement)}


def cards_in(value: Any) -> set:
    """Every card token in any string inside a frame (canonical text)."""
    out: set = set()
    if isinstance(value, str):
        for token in CARD.findall(value):
            out.add(str(thirteen.Card(token)))
    elif isinstance(value, dict):
        for v in value.values():
            out |= cards_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= cards_in(v)
    return out


@pytest.fixture
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database only (the several-process tests)."""
    yield from _pg_database()
