"""The database of ``thirteen serve`` (SQLAlchemy Core): rooms, accounts, sessions, the
ledger, one row per settled round, the play-money grants per address and the operator
tokens used.

Every change of a room is one transaction: the room's saved :class:`~thirteen.Table`
(``Table.to_json``) with a version check (a writer holding an older version is refused:
:class:`StaleState`), the money it moves between accounts and seats, and, when a round
finishes, its settlement row. ``settlements`` has a unique ``(room, round_no)``: a round
pays out once, even when two workers or a retry try twice (:class:`AlreadySettled`).
Money is conserved: every unit of money enters an account once (``ledger`` kind
``"mint"`` for play money and AI bankrolls, ``"deposit"`` for an operator token's buy-in)
and then only moves: accounts + seated balances + the house (the rake) = minted.

Every public method is one transaction (``engine.begin()``) or one read: the boundaries a
change is all-or-nothing within. Opening an account is one: the name (unique by
:func:`~thirteen.server.names.name_key`), the grant or the token's ``jti``, the money and
the session, or none of them.

The default database is an SQLite file (WAL journal, ``synchronous=NORMAL``: a committed
change survives the server process being killed); any SQLAlchemy URL works
(``postgresql+psycopg://...``).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Dict, Iterable, List, Optional, Sequence

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
    case,
    create_engine,
    delete,
    event,
    func,
    inspect,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError

from thirteen.errors import ThirteenError
from thirteen.server.names import name_key

__all__ = [
    "Store",
    "StoredRoom",
    "StoredSession",
    "StoreError",
    "StaleState",
    "AlreadySettled",
    "InsufficientFunds",
    "NameTaken",
    "NoGrant",
    "TokenReplayed",
    "Move",
    "Change",
    "HOUSE",
    "SCHEMA",
    "masked_url",
]

#: The account the rake (服务费) is paid to.
HOUSE = "house"
#: The version of the tables below; a database made by another version is refused.
SCHEMA = "3"

metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("config", Text, nullable=False),
    Column("state", Text, nullable=False),
    Column("version", Integer, nullable=False),
    Column("deadline", Float, nullable=True, index=True),
    Column("updated", Float, nullable=False),
    # The lease (schema 3): the process playing the room (its address), the lease's
    # version (raised by every take-over: every write of the room names it), its expiry.
    Column("lease_owner", String(200), nullable=True),
    Column("lease_version", BigInteger, nullable=False, server_default="0"),
    Column("lease_expires", Float, nullable=True),
)

accounts = Table(
    "accounts",
    metadata,
    Column("player", String(80), primary_key=True),
    Column("name", String(40), nullable=False),
    # what makes two names the same (names.name_key) for people; the player id otherwise
    Column("name_key", String(100), nullable=False, unique=True),
    Column("kind", String(8), nullable=False),
    Column("balance", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(40), primary_key=True),
    # the session's P-256 public key: it checks a resume proof and cannot make one
    Column("public_key", String(130), nullable=False),
    Column("player", String(80), ForeignKey("accounts.player"), nullable=False),
    Column("room", String(40), nullable=False),
    Column("created", Float, nullable=False),
)

grants = Table(
    "grants",
    metadata,
    Column("address", String(64), primary_key=True),
    Column("window_start", Float, nullable=False),
    Column("count", Integer, nullable=False),
)

token_uses = Table(
    "token_uses",
    metadata,
    Column("jti", String(128), primary_key=True),
    Column("player", String(80), nullable=False),
    Column("expires", Float, nullable=False, index=True),
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
    Column("player", String(80), nullable=False),
    Column("room", String(40), nullable=True),
    Column("round_no", Integer, nullable=True),
    Column("kind", String(12), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("created", Float, nullable=False),
)


class _HotSql:
    """The statements of every change, as the driver's own SQL text with named parameters
    (``:name`` for SQLite, ``%(name)s`` for psycopg)."""

    def __init__(self, paramstyle: str) -> None:
        def p(name: str) -> str:
            return f":{name}" if paramstyle == "named" else f"%({name})s"

        self.update_room = (
            f"UPDATE rooms SET state = {p('state')}, version = {p('next')}, deadline = {p('deadline')}, "
            f"updated = {p('updated')} WHERE id = {p('id')} AND version = {p('version')}"
        )
        self.update_room_fenced = self.update_room + f" AND lease_version = {p('lease')}"
        self.insert_settlement = (
            f"INSERT INTO settlements (room, round_no, report, created) "
            f"VALUES ({p('room')}, {p('round_no')}, {p('report')}, {p('created')})"
        )
        self.move = f"UPDATE accounts SET balance = balance + {p('amount')} WHERE player = {p('player')}"
        self.move_covered = self.move + f" AND balance + {p('amount')} >= 0"
        self.insert_ledger = (
            f"INSERT INTO ledger (player, room, round_no, kind, amount, created) VALUES "
            f"({p('player')}, {p('room')}, {p('round_no')}, {p('kind')}, {p('amount')}, {p('created')})"
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


class NameTaken(StoreError):
    """Another person's account has this name (by :func:`~thirteen.server.names.name_key`)."""

    kind = "name_taken"


class NoGrant(StoreError):
    """The client address had as many starting balances as it may in the window."""

    kind = "no_grant"


class TokenReplayed(StoreError):
    """An operator token (its ``jti``) was used before."""

    kind = "token_replayed"


@dataclass(frozen=True)
class Move:
    """Money into (``amount`` > 0) or out of (< 0) an account, in minor currency units,
    recorded in the ledger as ``kind`` (``"sit"``, ``"stand"``, ``"rake"``, ...). A move
    out of an account is refused when the account cannot pay it, unless ``overdraw``
    (a seat that lost more than it had brings its debt back: a loss is never capped).
    ``round_no``: the round it belongs to in the ledger."""

    player: str
    amount: int
    kind: str
    overdraw: bool = False
    round_no: Optional[int] = None


@dataclass(frozen=True)
class Change:
    """One change of a room for :meth:`Store.commit_many`: the saved ``version`` it was
    made on, the new ``state`` (``Table.to_json``), the clock's ``deadline``, the money
    ``moves`` (each with its own ``round_no`` in the ledger) and, when a round ends, its
    ``settlement`` (the result frame's JSON text) under ``round_no``; ``lease``: the lease version the
    writer holds (the write is refused when the room's lease has moved on since: a fenced,
    late writer), ``None``: not checked."""

    room: str
    version: int
    state: str
    deadline: Optional[float]
    moves: Sequence[Move] = ()
    round_no: Optional[int] = None
    settlement: Optional[str] = None
    lease: Optional[int] = None


@dataclass(frozen=True)
class StoredRoom:
    """A room as saved: its id, settings, ``Table.to_json`` text, version and the clock's
    deadline (epoch seconds, or ``None``); its lease's owner, version and expiry."""

    id: str
    config: Dict[str, Any]
    state: str
    version: int
    deadline: Optional[float]
    lease_owner: Optional[str] = None
    lease_version: int = 0
    lease_expires: Optional[float] = None


@dataclass(frozen=True)
class StoredSession:
    """A session as saved: its public key, player, the player's name and the room."""

    public_key: str
    player: str
    name: str
    room: str


def masked_url(url: str) -> str:
    """A database URL fit to print or log: its password replaced by ``***``."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: show its scheme only
        return url.split(":", 1)[0] + ":…"


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
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(url, **kwargs)
        if self.sqlite:
            _sqlite_pragmas(self.engine)
        self.sql = _HotSql("named" if self.sqlite else "pyformat")
        # The group commit's own connection, kept open (no pool checkout per batch).
        self._hot: Optional[Connection] = None
        self._hot_lock = threading.Lock()
        self._check_schema()
        metadata.create_all(self.engine)
        with self.engine.begin() as conn:
            for key, value in (("schema", SCHEMA),):
                _insert_missing(conn, meta, {"key": key, "value": value})
            _insert_missing(
                conn,
                accounts,
                {"player": HOUSE, "name": "house", "name_key": HOUSE, "kind": "house", "balance": 0, "created": time.time()},
            )

    def _check_schema(self) -> None:
        """Refuses a database made by another version of these tables (StoreError); schema
        2 is brought to 3 (the lease columns)."""
        names = set(inspect(self.engine).get_table_names())
        if "accounts" not in names:
            return
        found = None
        if "meta" in names:
            with self.engine.connect() as conn:
                found = conn.execute(select(meta.c.value).where(meta.c.key == "schema")).scalar()
        if found == "2":  # schema 3 adds the lease columns to rooms
            with self.engine.begin() as conn:
                conn.exec_driver_sql("ALTER TABLE rooms ADD COLUMN lease_owner VARCHAR(200)")
                conn.exec_driver_sql("ALTER TABLE rooms ADD COLUMN lease_version BIGINT NOT NULL DEFAULT 0")
                conn.exec_driver_sql("ALTER TABLE rooms ADD COLUMN lease_expires FLOAT")
                conn.execute(update(meta).where(meta.c.key == "schema").values(value=SCHEMA))
            return
        if found != SCHEMA:
            raise StoreError(
                f"the database {masked_url(self.url)} has tables of schema {found or 1}, this server "
                f"uses schema {SCHEMA}: start it on a new database"
            )

    def close(self) -> None:
        """Closes the connection pool."""
        with self._hot_lock:
            if self._hot is not None:
                self._hot.close()
                self._hot = None
        self.engine.dispose()

    # ------------------------------------------------------------------ accounts, sessions

    def new_player(self, player: str, name: str, kind: str, balance: int) -> None:
        """Creates an account with ``balance`` minted into it (AI seats, tests). A person's
        (``kind == "human"``) name must be free (:class:`NameTaken`)."""
        now = time.time()
        with self.engine.begin() as conn:
            self._insert_account(conn, player, name, kind, now)
            if balance:
                self._credit(conn, player, balance, "mint", now)

    def deposit(self, player: str, amount: int) -> None:
        """Money brought in from outside into an existing account (ledger kind
        ``deposit``): the operator funding the house's float for AI seats in token mode,
        for one. Raises StoreError for an unknown account or a negative amount."""
        if amount < 0:
            raise StoreError(f"a deposit is not negative, got {amount}")
        with self.engine.begin() as conn:
            if conn.execute(select(accounts.c.player).where(accounts.c.player == player)).first() is None:
                raise StoreError(f"no account {player!r}")
            self._credit(conn, player, amount, "deposit", time.time())

    def open_play_account(
        self,
        *,
        player: str,
        name: str,
        session: str,
        public_key: str,
        room: str,
        address: str,
        amount: int,
        window: float,
        per_address: int,
    ) -> None:
        """A play-money account, its starting balance and its session, in one transaction.

        The starting balance is granted at most ``per_address`` times per client
        ``address`` in a fixed window of ``window`` seconds (the window starts at the
        address's first grant after the last window ended).

        Raises:
            NameTaken: a person already has this name.
            NoGrant: the address had its grants in this window (nothing is created).
        """
        now = time.time()
        with self.engine.begin() as conn:
            self._insert_account(conn, player, name, "human", now)
            _insert_missing(conn, grants, {"address": address, "window_start": now, "count": 0})
            ended = grants.c.window_start < now - window
            done = conn.execute(
                update(grants)
                .where(grants.c.address == address, or_(ended, grants.c.count < per_address))
                .values(
                    count=case((ended, 1), else_=grants.c.count + 1),
                    window_start=case((ended, now), else_=grants.c.window_start),
                )
            )
            if done.rowcount != 1:
                raise NoGrant(f"address {address} had {per_address} grants in the last {window} s")
            self._credit(conn, player, amount, "mint", now)
            self._insert_session(conn, session, public_key, player, room, now)

    def open_token_account(
        self,
        *,
        player: str,
        name: str,
        deposit: int,
        jti: str,
        expires: float,
        session: str,
        public_key: str,
        room: str,
    ) -> None:
        """An operator token's join, in one transaction: the token used once (``jti``), the
        account made (or its name brought up to date), ``deposit`` credited, the session.

        Raises:
            TokenReplayed: the token was used before.
            NameTaken: another person has this name.
        """
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(token_uses).where(token_uses.c.expires < now - 86_400))
            try:
                with conn.begin_nested():
                    conn.execute(insert(token_uses).values(jti=jti, player=player, expires=expires))
            except IntegrityError:
                raise TokenReplayed(f"token {jti!r} was used before") from None
            found = conn.execute(select(accounts.c.name).where(accounts.c.player == player)).first()
            if found is None:
                self._insert_account(conn, player, name, "human", now)
            elif found[0] != name:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            update(accounts)
                            .where(accounts.c.player == player)
                            .values(name=name, name_key=name_key(name))
                        )
                except IntegrityError:
                    raise NameTaken(f"the name {name!r} is taken") from None
            self._credit(conn, player, deposit, "deposit", now)
            self._insert_session(conn, session, public_key, player, room, now)

    @staticmethod
    def _insert_account(conn: Connection, player: str, name: str, kind: str, now: float) -> None:
        key = name_key(name) if kind == "human" else player
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(accounts).values(
                        player=player, name=name, name_key=key, kind=kind, balance=0, created=now
                    )
                )
        except IntegrityError:
            raise NameTaken(f"the name {name!r} (or the account {player!r}) is taken") from None

    @staticmethod
    def _credit(conn: Connection, player: str, amount: int, kind: str, now: float) -> None:
        conn.execute(
            update(accounts).where(accounts.c.player == player).values(balance=accounts.c.balance + amount)
        )
        conn.execute(insert(ledger).values(player=player, kind=kind, amount=amount, created=now))

    @staticmethod
    def _insert_session(conn: Connection, session: str, public_key: str, player: str, room: str, now: float) -> None:
        conn.execute(
            insert(sessions).values(id=session, public_key=public_key, player=player, room=room, created=now)
        )

    def session(self, session: str) -> Optional[StoredSession]:
        """The saved session, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sessions.c.public_key, sessions.c.player, accounts.c.name, sessions.c.room)
                .join(accounts, accounts.c.player == sessions.c.player)
                .where(sessions.c.id == session)
            ).first()
        return None if row is None else StoredSession(row[0], row[1], row[2], row[3])

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

    def rooms_in_play(self, limit: int) -> List[StoredRoom]:
        """Up to ``limit`` saved rooms with a round in progress (a clock deadline), the
        soonest deadline first: what a server loads when it starts."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rooms).where(rooms.c.deadline.is_not(None)).order_by(rooms.c.deadline).limit(limit)
            )
            return [_stored(r) for r in rows]

    def room_count(self) -> int:
        """How many rooms are saved."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(rooms)).scalar_one())

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
        report = None if settlement is None else json.dumps(settlement, ensure_ascii=False)
        moves = tuple(m if m.round_no is not None else replace(m, round_no=round_no) for m in moves)
        change = Change(room, version, state, deadline, moves, round_no, report)
        outcome = self.commit_many([change])[0]
        if isinstance(outcome, StoreError):
            raise outcome
        return int(outcome)

    def commit_many(self, changes: Sequence[Change]) -> List[Any]:
        """Several changes (of rooms, see :meth:`commit`) in one transaction, each all or
        nothing within it: a refused change leaves no trace and does not stop the others.

        Returns:
            Per change, in order, the room's new version or the :class:`StoreError` that
            refused it (:class:`StaleState`, :class:`AlreadySettled`,
            :class:`InsufficientFunds`).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the transaction failed as a whole (nothing
                of any change was written).
        """
        now = time.time()
        out: List[Any] = []
        with self._hot_lock:
            conn = self._hot
            if conn is None or conn.closed or conn.invalidated:
                conn = self._hot = self.engine.connect()
            try:
                self._write(conn, changes, out, now)
            except BaseException:
                self._hot = None
                conn.close()
                raise
        return out

    def _write(self, conn: Connection, changes: Sequence[Change], out: List[Any], now: float) -> None:
        with conn.begin():
            # The driver's own cursor: these few statements are the server's hot path.
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            try:
                for change in changes:
                    if not change.moves and change.settlement is None:
                        out.append(self._apply(cursor, change, now))
                        continue
                    # Money or a settlement: the change in a savepoint, so that a refusal
                    # after its first statements leaves nothing of it.
                    cursor.execute("SAVEPOINT thirteen_change")
                    try:
                        out.append(self._apply(cursor, change, now))
                    except StoreError as exc:
                        cursor.execute("ROLLBACK TO SAVEPOINT thirteen_change")
                        out.append(exc)
                    cursor.execute("RELEASE SAVEPOINT thirteen_change")
            finally:
                cursor.close()

    def _apply(self, cursor: Any, change: Change, now: float) -> Any:
        """Writes one change with the driver's ``cursor`` (raises its refusal, or
        returns it when nothing was written: a stale version)."""
        sql = self.sql
        params = {
            "id": change.room,
            "version": change.version,
            "state": change.state,
            "next": change.version + 1,
            "deadline": change.deadline,
            "updated": now,
        }
        if change.lease is not None:
            params["lease"] = change.lease
        cursor.execute(sql.update_room if change.lease is None else sql.update_room_fenced, params)
        if cursor.rowcount != 1:
            stale = StaleState(
                f"room {change.room!r} changed since version {change.version} (or its lease {change.lease} moved on)"
            )
            if change.moves or change.settlement is not None:
                raise stale
            return stale
        if change.settlement is not None:
            try:
                cursor.execute(
                    sql.insert_settlement,
                    {"room": change.room, "round_no": change.round_no, "report": change.settlement, "created": now},
                )
            except self.engine.dialect.loaded_dbapi.IntegrityError:
                raise AlreadySettled(
                    f"round {change.round_no} of room {change.room!r} is already settled"
                ) from None
        for move in change.moves:
            if move.amount == 0:
                continue
            cursor.execute(
                sql.move if move.overdraw else sql.move_covered, {"player": move.player, "amount": move.amount}
            )
            if cursor.rowcount != 1:
                raise InsufficientFunds(f"account {move.player!r} cannot pay {-move.amount}")
            cursor.execute(
                sql.insert_ledger,
                {
                    "player": move.player,
                    "room": change.room,
                    "round_no": move.round_no,
                    "kind": move.kind,
                    "amount": move.amount,
                    "created": now,
                },
            )
        return change.version + 1

    # ------------------------------------------------------------------ leases

    def take_lease(self, room: str, owner: str, seconds: float, *, steal: bool = False) -> Optional[StoredRoom]:
        """Takes the room's lease for ``owner`` (a process's address) for ``seconds``: when
        nobody holds it, its holder's lease has expired, ``owner`` holds it already (a
        restart on the same address), or with ``steal``. The lease's version and the
        room's version both go up, so that every write of the previous holder is refused
        from now on (fencing). Returns the room as saved, with its new lease; ``None``
        when another process holds it (:meth:`lease_owner` names it).

        Raises:
            StoreError: no such room.
        """
        now = time.time()
        free = or_(
            rooms.c.lease_owner.is_(None),
            rooms.c.lease_owner == owner,
            rooms.c.lease_expires.is_(None),
            rooms.c.lease_expires < now,
        )
        where = [rooms.c.id == room]
        if not steal:
            where.append(free)
        with self.engine.begin() as conn:
            done = conn.execute(
                update(rooms)
                .where(*where)
                .values(
                    lease_owner=owner,
                    lease_version=rooms.c.lease_version + 1,
                    lease_expires=now + seconds,
                    version=rooms.c.version + 1,
                )
            )
            if done.rowcount != 1:
                if conn.execute(select(rooms.c.id).where(rooms.c.id == room)).first() is None:
                    raise StoreError(f"no room {room!r}")
                return None
            row = conn.execute(select(rooms).where(rooms.c.id == room)).first()
        return _stored(row)

    def lease_owner(self, room: str) -> Optional[str]:
        """The process holding the room's lease now (``None``: nobody, or it expired)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(rooms.c.lease_owner, rooms.c.lease_expires).where(rooms.c.id == room)
            ).first()
        if row is None or row[0] is None or row[1] is None or row[1] < time.time():
            return None
        return str(row[0])

    def renew_leases(self, owner: str, held: Dict[str, int], seconds: float) -> List[str]:
        """Renews ``owner``'s leases (room → lease version) for ``seconds`` from now, in
        one transaction; returns the rooms whose lease it no longer holds."""
        expires = time.time() + seconds
        with self.engine.begin() as conn:
            rows = conn.execute(
                update(rooms)
                .where(rooms.c.lease_owner == owner, rooms.c.id.in_(list(held)))
                .values(lease_expires=expires)
                .returning(rooms.c.id, rooms.c.lease_version)
            ).all()
        still = {r[0] for r in rows if held.get(r[0]) == r[1]}
        return [room for room in held if room not in still]

    def release_lease(self, room: str, owner: str, version: int) -> None:
        """Gives the lease up (a room leaving memory, a server stopping): another process
        may take it at once."""
        with self.engine.begin() as conn:
            conn.execute(
                update(rooms)
                .where(rooms.c.id == room, rooms.c.lease_owner == owner, rooms.c.lease_version == version)
                .values(lease_owner=None, lease_expires=None)
            )

    def orphans(self, limit: int) -> List[str]:
        """Up to ``limit`` rooms with a round in progress whose lease nobody holds (its
        holder died or stopped renewing), the soonest deadline first."""
        now = time.time()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rooms.c.id)
                .where(
                    rooms.c.deadline.is_not(None),
                    or_(rooms.c.lease_owner.is_(None), rooms.c.lease_expires.is_(None), rooms.c.lease_expires < now),
                )
                .order_by(rooms.c.deadline)
                .limit(limit)
            )
            return [r[0] for r in rows]

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

    def minted(self, kind: Optional[str] = None) -> int:
        """All money ever put into accounts (``mint`` and ``deposit``); with ``kind``, into
        accounts of that kind only (``"human"``, ``"ai"``)."""
        query = select(func.coalesce(func.sum(ledger.c.amount), 0)).where(
            ledger.c.kind.in_(("mint", "deposit"))
        )
        if kind is not None:
            query = query.join(accounts, accounts.c.player == ledger.c.player).where(accounts.c.kind == kind)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def accounts_of(self, kind: str) -> int:
        """How many accounts of ``kind`` there are."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).select_from(accounts).where(accounts.c.kind == kind)).scalar_one()
            )

    def account_total(self) -> int:
        """The money in all accounts (the house included), not counting seated balances."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.coalesce(func.sum(accounts.c.balance), 0))).scalar_one())


def _insert_missing(conn: Connection, table: Table, values: Dict[str, Any]) -> None:
    """Inserts a row unless its key is there (another worker may insert it at once)."""
    try:
        with conn.begin_nested():
            conn.execute(insert(table).values(**values))
    except IntegrityError:
        pass


def _stored(row: Any) -> StoredRoom:
    return StoredRoom(
        row.id,
        json.loads(row.config),
        row.state,
        row.version,
        row.deadline,
        row.lease_owner,
        int(row.lease_version or 0),
        row.lease_expires,
    )


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
