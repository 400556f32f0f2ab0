"""The database of ``thirteen serve`` (SQLAlchemy Core): rooms, accounts, sessions, the
ledger and one row per settled round.

Every change of a room is one transaction: the room's saved :class:`~thirteen.Table`
(``Table.to_json``) with a version check (a writer holding an older version is refused:
:class:`StaleState`), the money it moves between accounts and seats, and, when a round
finishes, its settlement row. ``settlements`` has a unique ``(room, round_no)``: a round
pays out once, even when two workers or a retry try twice (:class:`AlreadySettled`).
Money is conserved: every unit of money is minted into an account once (``ledger``
kind ``"mint"``) and then only moves: accounts + seated balances + the house (the rake)
= minted.

The default database is an SQLite file (WAL journal, ``synchronous=NORMAL``: a committed
change survives the server process being killed); any SQLAlchemy URL works
(``postgresql+psycopg://...``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from thirteen.errors import ThirteenError

__all__ = [
    "Store",
    "StoredRoom",
    "StoreError",
    "StaleState",
    "AlreadySettled",
    "InsufficientFunds",
    "Move",
    "HOUSE",
]

#: The account the rake (服务费) is paid to.
HOUSE = "house"

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("config", Text, nullable=False),
    Column("state", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("deadline", Float, nullable=True),
    Column("updated", Float, nullable=False),
)

accounts = Table(
    "accounts",
    metadata,
    Column("player", String(40), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("balance", BigInteger, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("secret", String(64), nullable=False),
    Column("player", String(40), ForeignKey("accounts.player"), nullable=False),
    Column("room", String(40), nullable=False),
    Column("created", Float, nullable=False),
)

settlements = Table(
    "settlements",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(40), nullable=False),
    Column("round_no", Integer, nullable=False),
    Column("report", Text, nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("room", "round_no", name="one_settlement_per_round"),
)

ledger = Table(
    "ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(40), nullable=False),
    Column("room", String(40), nullable=True),
    Column("round_no", Integer, nullable=True),
    Column("kind", String(12), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
)


class StoreError(ThirteenError):
    """A change the database refused; nothing of it was applied."""

    kind = "store"


class StaleState(StoreError):
    """The room changed since this copy was read (another worker, or a retry)."""

    kind = "stale_state"


class AlreadySettled(StoreError):
    """The round was settled before: it pays out once."""

    kind = "already_settled"


class InsufficientFunds(StoreError):
    """An account holds less than the move takes from it."""

    kind = "insufficient_funds"


@dataclass(frozen=True)
class Move:
    """Money into (``amount`` > 0) or out of (< 0) an account, in minor currency units,
    recorded in the ledger as ``kind`` (``"sit"``, ``"stand"``, ``"rake"``, ...). A move
    out of an account is refused when the account cannot pay it, unless ``overdraw``
    (a seat that lost more than it had brings its debt back: a loss is never capped)."""

    player: str
    amount: int
    kind: str
    overdraw: bool = False


@dataclass(frozen=True)
class StoredRoom:
    """A room as saved: its id, settings, ``Table.to_json`` text, version and the clock's
    deadline (epoch seconds, or ``None``)."""

    id: str
    config: Dict[str, Any]
    state: str
    version: int
    deadline: Optional[float]


class Store:
    """The server's database.

    Args:
        url: an SQLAlchemy URL; ``sqlite:///path.db`` for a file (the default of
            ``thirteen serve``). Tables are created when missing.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        kwargs: Dict[str, Any] = {}
        if self.sqlite:
            kwargs["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.sqlite:
            _sqlite_pragmas(self.engine)
        metadata.create_all(self.engine)
        with self.engine.begin() as conn:
            if conn.execute(select(accounts.c.player).where(accounts.c.player == HOUSE)).first() is None:
                try:
                    conn.execute(insert(accounts).values(player=HOUSE, name="house", kind="house", balance=0))
                except IntegrityError:  # another worker made it first
                    pass

    def close(self) -> None:
        """Closes the connection pool."""
        self.engine.dispose()

    # ------------------------------------------------------------------ accounts, sessions

    def new_player(self, player: str, name: str, kind: str, balance: int) -> None:
        """Creates an account with ``balance`` minted into it."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(insert(accounts).values(player=player, name=name, kind=kind, balance=balance))
            conn.execute(
                insert(ledger).values(player=player, kind="mint", amount=balance, created=now)
            )

    def new_session(self, session: str, secret: str, player: str, room: str) -> None:
        """Binds a session (id and secret) to a player and a room."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    id=session, secret=secret, player=player, room=room, created=time.time()
                )
            )

    def session(self, session: str) -> Optional[Tuple[str, str, str, str]]:
        """``(secret, player, name, room)`` of a session, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions.c.secret, sessions.c.player, accounts.c.name, sessions.c.room)
                .join(accounts, accounts.c.player == sessions.c.player)
                .where(sessions.c.id == session)
            ).first()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def balance(self, player: str) -> int:
        """The account's balance (money not at a table)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts.c.balance).where(accounts.c.player == player)).first()
        if row is None:
            raise StoreError(f"no account {player!r}")
        return int(row[0])

    def names(self, players: Iterable[str]) -> Dict[str, str]:
        """Display names of accounts."""
        ids = list(players)
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.player, accounts.c.name).where(accounts.c.player.in_(ids))
            ).all()
        return {r[0]: r[1] for r in rows}

    # ------------------------------------------------------------------ rooms

    def create_room(self, room: str, config: Dict[str, Any], state: str) -> StoredRoom:
        """Saves a new room at version 1, or returns the one already saved."""
        with self.engine.begin() as conn:
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(rooms).values(
                            id=room,
                            config=json.dumps(config),
                            state=state,
                            version=1,
                            deadline=None,
                            updated=time.time(),
                        )
                    )
            except IntegrityError:
                pass
        found = self.room(room)
        assert found is not None
        return found

    def room(self, room: str) -> Optional[StoredRoom]:
        """The saved room, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms).where(rooms.c.id == room)).first()
        return None if row is None else _stored(row)

    def rooms(self) -> List[StoredRoom]:
        """Every saved room."""
        with self.engine.connect() as conn:
            return [_stored(r) for r in conn.execute(select(rooms).order_by(rooms.c.id))]

    def commit(
        self,
        room: str,
        version: int,
        state: str,
        *,
        deadline: Optional[float],
        moves: Sequence[Move] = (),
        round_no: Optional[int] = None,
        settlement: Optional[Dict[str, Any]] = None,
    ) -> int:
        """One change of a room, all or nothing: the new state (if the saved version is
        still ``version``), the money ``moves`` (refused if an account would go below 0)
        and, with ``settlement``, the round's settlement row (once per ``round_no``).

        Returns:
            The new version.

        Raises:
            StaleState: the room is no longer at ``version``.
            AlreadySettled: round ``round_no`` of the room was settled before.
            InsufficientFunds: an account would go below 0.
        """
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(rooms)
                .where(rooms.c.id == room, rooms.c.version == version)
                .values(state=state, version=version + 1, deadline=deadline, updated=now)
            )
            if done.rowcount != 1:
                raise StaleState(f"room {room!r} changed since version {version}")
            if settlement is not None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            insert(settlements).values(
                                room=room,
                                round_no=round_no,
                                report=json.dumps(settlement, ensure_ascii=False),
                                created=now,
                            )
                        )
                except IntegrityError:
                    raise AlreadySettled(
                        f"round {round_no} of room {room!r} is already settled"
                    ) from None
            for move in moves:
                if move.amount == 0:
                    continue
                where = [accounts.c.player == move.player]
                if not move.overdraw:
                    where.append(accounts.c.balance + move.amount >= 0)
                done = conn.execute(
                    update(accounts).where(*where).values(balance=accounts.c.balance + move.amount)
                )
                if done.rowcount != 1:
                    raise InsufficientFunds(
                        f"account {move.player!r} cannot pay {-move.amount}"
                    )
                conn.execute(
                    insert(ledger).values(
                        player=move.player,
                        room=room,
                        round_no=round_no,
                        kind=move.kind,
                        amount=move.amount,
                        created=now,
                    )
                )
        return version + 1

    # ------------------------------------------------------------------ audit

    def settlement_count(self, room: str) -> int:
        """How many rounds of the room have settled."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(settlements).where(settlements.c.room == room)
                ).scalar_one()
            )

    def settlement(self, room: str, round_no: int) -> Optional[Dict[str, Any]]:
        """The saved report of a settled round, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(settlements.c.report).where(
                    settlements.c.room == room, settlements.c.round_no == round_no
                )
            ).first()
        return None if row is None else json.loads(row[0])

    def minted(self) -> int:
        """All money ever minted into accounts."""
        with self.engine.connect() as conn:
            total = conn.execute(
                select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.kind == "mint")
            ).scalar_one()
        return int(total)

    def account_total(self) -> int:
        """The money in all accounts (the house included), not counting seated balances."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.coalesce(func.sum(accounts.c.balance), 0))).scalar_one())


def _stored(row: Any) -> StoredRoom:
    return StoredRoom(row.id, json.loads(row.config), row.state, row.version, row.deadline)


def _sqlite_pragmas(engine: Engine) -> None:
    """WAL journal, NORMAL sync, and ``BEGIN IMMEDIATE`` so that writers queue instead of
    failing on a stale read snapshot."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # SQLAlchemy emits BEGIN itself (below)
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
