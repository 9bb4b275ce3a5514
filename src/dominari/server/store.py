"""The game store: every game is its config, seed and append-only log, in SQL.

One SQLAlchemy 2 code path serves SQLite (the default: a file in the data folder,
WAL mode) and PostgreSQL (``postgresql+psycopg://…``). Three tables:

- ``games``: id, game name, the engine config (seed included) as JSON, the
  spectator id, status (``active``/``finished``) and ``version``, the number of
  log entries;
- ``seats``: per seat whether a human or a bot (with its level) plays it, and for a
  human seat the SHA-256 of its token (the token itself is never stored);
- ``log``: ``(game, seq)`` entries, each an action in notation by a seat, or an
  undo of that seat's last action. Entries are only ever appended, and the primary
  key ``(game, seq)`` makes a second writer of the same entry fail instead of
  forking the game;
- ``again``: a finished game's next one ("Play again": the same seats and options),
  at most one (its primary key is the finished game's id). The next game's human
  seats are made without tokens: each is claimed by its player of the finished game
  (:meth:`Store.claim_seat`), whose token the server never had to keep.

An entry is committed before the server acknowledges or broadcasts it.

>>> store = Store("sqlite://")
>>> seats = [SeatRow(0, "human", None, "Ann", "h0"), SeatRow(1, "bot", "bmu", "BMU", None)]
>>> gid = store.create_game("dominion", {"players": 2, "seed": 7}, "spect", seats)
>>> store.append(gid, 1, "act", 0, "end")
>>> [e.text for e in store.load(gid).log]
['end']
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hmac
import secrets
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

from dominari.core.checks import escaped
from dominari.core.errors import DominariError

DB_ENV = "DOMINARI_DB_URL"
"""The environment variable naming the database when ``--db`` is not given."""


class StoreError(DominariError):
    """The database cannot be opened or written."""


class ConflictError(StoreError):
    """Another writer appended the same log entry first."""


class Base(DeclarativeBase):
    pass


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(16))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    spectator: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    status: Mapped[str] = mapped_column(String(16), index=True, default="active")
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SeatTable(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True,
                                                   index=True)


class AgainTable(Base):
    __tablename__ = "again"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    again_id: Mapped[str] = mapped_column(ForeignKey("games.id"), unique=True)


class LogTable(Base):
    __tablename__ = "log"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(2000))
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), default=_now)


_GAMES = GameRow.__table__.c  # the statements of Store.append
_ADVANCE = (update(GameRow.__table__)  # type: ignore[arg-type]
            .where(_GAMES.id == bindparam("p_game"), _GAMES.version == bindparam("p_before"))
            .values(version=bindparam("p_seq"), updated=bindparam("p_now")))
"""A game's version moves on by one (no row changes when it was not ``p_before``)."""
_FINISH = _ADVANCE.values(status=bindparam("p_status"))
_APPEND = insert(LogTable.__table__).values(  # type: ignore[arg-type]
    game_id=bindparam("p_game"), seq=bindparam("p_seq"), kind=bindparam("p_kind"),
    seat=bindparam("p_seat"), text=bindparam("p_text"), at=bindparam("p_now"))


class _Appends:
    """:data:`_ADVANCE`, :data:`_FINISH` and :data:`_APPEND` compiled once for an
    engine's dialect and run as the driver's SQL: SQLAlchemy's per-statement work
    (cache lookup, parameter processing) was most of the cost of storing an action. The
    timestamp is turned into what the dialect stores (SQLite: text) by the column type's
    own bind processor, so the rows are those SQLAlchemy writes."""

    def __init__(self, engine: Engine) -> None:
        dialect = engine.dialect
        self.sql: dict[str, tuple[str, list[str], bool]] = {}
        for name, stmt in (("advance", _ADVANCE), ("finish", _FINISH), ("append", _APPEND)):
            compiled = stmt.compile(dialect=dialect)
            # Positional paramstyles (SQLite's "?") take the values in order, named ones
            # (psycopg's "%(name)s") a dict.
            order = compiled.positiontup
            self.sql[name] = (str(compiled), list(order if order is not None
                                                  else compiled.params), order is not None)
        column = LogTable.__table__.c.at
        self._stamp = column.type.dialect_impl(dialect).bind_processor(dialect)

    def now(self) -> Any:
        now = _now()
        return self._stamp(now) if self._stamp is not None else now

    def run(self, conn: Connection, name: str, values: dict[str, Any]) -> CursorResult[Any]:
        sql, names, positional = self.sql[name]
        if positional:
            return conn.exec_driver_sql(sql, tuple(values[k] for k in names))
        return conn.exec_driver_sql(sql, {k: values[k] for k in names})


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    """``human`` or ``bot``."""
    bot: str | None
    name: str
    token_hash: str | None


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    """``act`` (an action in notation) or ``undo`` (the seat's last action taken back)."""
    seat: int
    text: str


@dataclass(frozen=True)
class GameFacts:
    """A game as its rows say, without its log."""

    id: str
    game: str
    config: dict[str, Any]
    spectator: str
    status: str
    version: int
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class StoredGame(GameFacts):
    log: tuple[Entry, ...]
    created: dt.datetime
    again: tuple[str, str] | None = None
    """The next game's id and spectator id, once a player asked to play again."""


@dataclass(frozen=True)
class SeatGame(GameFacts):
    """A game as its rows say (no log), and the seat that a token holds in it."""

    seat: int


def default_url(data_dir: str | Path) -> str:
    """The SQLite database in ``data_dir`` (created when missing)."""
    folder = Path(data_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the data folder {str(folder)!r}: {exc.strerror}") \
            from None
    return f"sqlite:///{(folder / 'dominari.db').resolve()}"


BUSY_TIMEOUT = 5.0
"""Seconds an SQLite statement waits for a lock another process holds (a writer, a
backup, a rebuild of the WAL index) before it fails: every connection's, but see
``wait`` in :meth:`Store.append` and the store's other methods."""


def _busy_timeout(seconds: float) -> str:
    """The pragma that makes an SQLite connection wait ``seconds`` for a lock."""
    return f"PRAGMA busy_timeout={round(max(0.0, seconds) * 1000)}"


def _store_error(exc: BaseException) -> StoreError:
    """A driver's error as the store's."""
    return StoreError(f"database error: {exc.__class__.__name__}: {_first_line(exc)}")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL: readers never block the writer. synchronous=NORMAL keeps every commit through
    # a process crash (SIGKILL); only an OS crash may lose the last commits.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(_busy_timeout(BUSY_TIMEOUT))
    cur.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL mode and foreign keys."""
    try:
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            engine = create_engine(
                url,
                connect_args={"check_same_thread": False},
                poolclass=StaticPool if memory else None,
            )
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_pre_ping=True)
    except ImportError as exc:  # the database's driver
        why = f"{exc.name} is missing" if exc.name else str(exc)
        hint = (": pip install 'dominari[postgres]'" if exc.name == "psycopg" else
                ": name the driver Dominari installs, postgresql+psycopg://…, and pip "
                "install 'dominari[postgres]'" if exc.name == "psycopg2" else "")
        raise StoreError(f"cannot use the database {redact(url)!r}: its driver is not "
                         f"installed ({why}){hint}") from None
    except (SQLAlchemyError, ValueError) as exc:
        raise StoreError(f"cannot use the database {redact(url)!r}: {exc}") from None
    return engine


def _again(s: Session, game_id: str) -> tuple[str, str] | None:
    """The id and spectator id of ``game_id``'s next game, if it has one."""
    row = s.execute(select(AgainTable.again_id, GameRow.spectator)
                    .join(GameRow, GameRow.id == AgainTable.again_id)
                    .where(AgainTable.game_id == game_id)).first()
    return (row[0], row[1]) if row is not None else None


def _seat_row(r: SeatTable) -> SeatRow:
    """A seat as stored; a name stored before names were checked, as its escapes (as the
    config's)."""
    return SeatRow(r.seat, r.kind, r.bot, escaped(r.name), r.token_hash)


def redact(url: str) -> str:
    """``url`` without its password (for messages)."""
    head, sep, tail = url.partition("://")
    if not sep or "@" not in tail:
        return url
    cred, _, host = tail.rpartition("@")
    user, has_password, _ = cred.partition(":")
    return f"{head}://{user}:***@{host}" if has_password else url


def _lacking_columns(engine: Any) -> list[str]:
    """The store's tables that the database has without all their columns, each with the
    columns it lacks (``games lacks status, seed``): ``create_all`` makes the tables that
    are missing and leaves alone those already there, which then failed at the first
    query, after the server had said it started (the server host's audit)."""
    from sqlalchemy import inspect

    seen = inspect(engine)
    out = []
    for table in Base.metadata.sorted_tables:
        have = {c["name"] for c in seen.get_columns(table.name)}
        missing = [c.name for c in table.columns if c.name not in have]
        if missing:
            out.append(f"{table.name} lacks {', '.join(missing)}")
    return out


class Store:
    """Games in a SQL database (``url``: SQLAlchemy URL)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        try:
            Base.metadata.create_all(self.engine)
            lacking = _lacking_columns(self.engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot open the database {redact(url)!r}: "
                             f"{exc.__class__.__name__}: {_first_line(exc)}") from None
        if lacking:  # tables of another program, or of another version: said now, once
            self.engine.dispose()
            raise StoreError(f"the database {redact(url)!r} holds tables of another program "
                             f"or version ({'; '.join(lacking)}): give this server another "
                             "database (--db, or another data folder)")
        self._appends = _Appends(self.engine)
        self._writer: Connection | None = None
        """The connection that appends log entries (kept open: see :meth:`append`)."""
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._writer_wait = BUSY_TIMEOUT
        """The writer's SQLite busy timeout now, in seconds."""

    def close(self) -> None:
        self._drop_writer()
        self.engine.dispose()

    def _drop_writer(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(SQLAlchemyError):
                if self._writer_wait != BUSY_TIMEOUT:  # back to the pool as it came
                    self._restore_wait(self._writer)
                self._writer.close()
            self._writer = None

    def _set_wait(self, conn: Connection, wait: float) -> None:
        """Make SQLite's busy timeout of ``conn`` ``wait`` seconds (set on the driver's
        connection: a pragma outside SQLAlchemy's transaction); other databases have
        none. The store's one way to change it: see :meth:`_waiting` and
        :meth:`_restore_wait`."""
        if self._sqlite:
            driver: Any = conn.connection.driver_connection
            driver.execute(_busy_timeout(wait))

    def _restore_wait(self, conn: Connection) -> None:
        """Give ``conn``, whose wait was changed, :data:`BUSY_TIMEOUT` again before it goes
        back to the pool, where whoever takes it next expects it; a connection that
        cannot be set is invalidated (broken: never to be used again)."""
        try:
            self._set_wait(conn, BUSY_TIMEOUT)
        except (sqlite3.Error, SQLAlchemyError):
            conn.invalidate()

    @contextlib.contextmanager
    def _waiting(self, conn: Connection, wait: float | None) -> Iterator[None]:
        """``conn`` waits ``wait`` seconds for a locked SQLite database within the block
        (``None``: :data:`BUSY_TIMEOUT`), and :data:`BUSY_TIMEOUT` again after it,
        whatever happens in it."""
        if wait is None or not self._sqlite or max(0.0, wait) == BUSY_TIMEOUT:
            yield
            return
        self._set_wait(conn, wait)
        try:
            yield
        finally:
            self._restore_wait(conn)

    def new_id(self) -> str:
        return secrets.token_urlsafe(9)

    def create_game(self, game: str, config: dict[str, Any], spectator: str,
                    seats: Sequence[SeatRow], game_id: str | None = None,
                    wait: float | None = None, again_of: str | None = None) -> str:
        """Store a new game and its seats; ``wait`` as for :meth:`append`. With
        ``again_of``, the new game is that game's next one, stored in the same
        transaction: :class:`ConflictError` (nothing stored) where it has one already."""
        gid = game_id or self.new_id()
        try:
            with self._session(wait) as s:
                s.add(GameRow(id=gid, game=game, config=config, spectator=spectator,
                              status="active", version=0))
                s.flush()
                for row in seats:
                    s.add(SeatTable(game_id=gid, seat=row.seat, kind=row.kind, bot=row.bot,
                                    name=row.name, token_hash=row.token_hash))
                if again_of is not None:
                    s.flush()
                    s.add(AgainTable(game_id=again_of, again_id=gid))
        except IntegrityError:
            if again_of is None:
                raise
            raise ConflictError(f"game {again_of} has its next game already") from None
        return gid

    def again_of(self, game_id: str, wait: float | None = None) -> tuple[str, str] | None:
        """The id and spectator id of ``game_id``'s next game (None: none yet); ``wait``
        as for :meth:`load`."""
        with self._session(wait) as s:
            return _again(s, game_id)

    def claim_seat(self, game_id: str, seat: int, token_hash: str,
                   wait: float | None = None) -> bool:
        """Give the human seat ``seat`` of ``game_id``, made without a token, the token
        whose hash is ``token_hash``: True when the seat is now that token's (claimed now
        or before), False when it holds another (or is no unclaimed human seat)."""
        with self._session(wait) as s:
            row = s.get(SeatTable, (game_id, seat))
            if row is None or row.kind != "human":
                return False
            if row.token_hash is None:
                row.token_hash = token_hash
                return True
            return hmac.compare_digest(row.token_hash, token_hash)

    def append(self, game_id: str, seq: int, kind: str, seat: int, text: str,
               finished: bool = False, wait: float | None = None) -> None:
        """Append log entry ``seq`` (it must be the game's version + 1) and commit.

        ``wait``: the longest an SQLite database locked by another process (a writer, a
        backup) is waited for, in seconds (default :data:`BUSY_TIMEOUT`), after which
        :class:`StoreError` is raised with nothing written. The server appends on its
        event loop, so it waits little (see :mod:`dominari.server.service`). Other
        databases ignore it."""
        # The hot path of every action: one transaction on a connection kept open, with
        # the statements compiled once (see _Appends). A failed connection is dropped and
        # the next append opens a new one.
        values = {"p_game": game_id, "p_before": seq - 1, "p_seq": seq, "p_kind": kind,
                  "p_seat": seat, "p_text": text, "p_now": self._appends.now(),
                  "p_status": "finished"}
        wait = BUSY_TIMEOUT if wait is None else max(0.0, wait)
        try:
            if self._writer is None:
                self._writer = self.engine.connect()
                self._writer_wait = BUSY_TIMEOUT
            conn = self._writer
            if wait != self._writer_wait:
                self._set_wait(conn, wait)
                self._writer_wait = wait
            with conn.begin():
                done = self._appends.run(conn, "finish" if finished else "advance", values)
                if done.rowcount != 1:
                    raise ConflictError(f"game {game_id}: log entry {seq} is out of order")
                self._appends.run(conn, "append", values)
        except IntegrityError:
            raise ConflictError(f"game {game_id}: log entry {seq} already exists") from None
        except (SQLAlchemyError, sqlite3.Error) as exc:
            self._drop_writer()
            raise _store_error(exc) from None

    def load(self, game_id: str, wait: float | None = None) -> StoredGame | None:
        """The game ``game_id`` (``None``: there is none). ``wait``: the longest a locked
        SQLite database is waited for, as for :meth:`append`; a read waits only for a lock
        that blocks readers too (a rebuild of the WAL index), not for a writer (in WAL mode,
        which the store asks for: a file system without shared memory may refuse it)."""
        with self._session(wait) as s:
            g = s.get(GameRow, game_id)
            if g is None:
                return None
            seats = s.scalars(select(SeatTable).where(SeatTable.game_id == game_id)
                              .order_by(SeatTable.seat)).all()
            log = s.scalars(select(LogTable).where(LogTable.game_id == game_id)
                            .order_by(LogTable.seq)).all()
            return StoredGame(
                id=g.id, game=g.game, config=dict(g.config), spectator=g.spectator,
                status=g.status, version=g.version,
                seats=tuple(_seat_row(r) for r in seats),
                log=tuple(Entry(e.seq, e.kind, e.seat, e.text) for e in log),
                created=g.created, again=_again(s, game_id),
            )

    def load_seats(self, game_id: str, wait: float | None = None) -> tuple[SeatRow, ...]:
        """The seats of ``game_id`` as stored now; ``wait`` as for :meth:`load`."""
        with self._session(wait) as s:
            return tuple(_seat_row(r) for r in s.scalars(
                select(SeatTable).where(SeatTable.game_id == game_id).order_by(SeatTable.seat)))

    def game_of_spectator(self, spectator: str, wait: float | None = None) -> str | None:
        """The id of the game ``spectator`` watches; ``wait`` as for :meth:`load`."""
        with self._session(wait) as s:
            return s.scalar(select(GameRow.id).where(GameRow.spectator == spectator))

    def games_of_tokens(self, hashes: Iterable[str], wait: float | None = None
                        ) -> list[SeatGame]:
        """The game of each token hash that belongs to a seat, as its rows say (no log),
        in the order of ``hashes``; ``wait`` as for :meth:`load`."""
        keys = list(hashes)
        if not keys:
            return []
        with self._session(wait) as s:
            held = s.execute(select(SeatTable.game_id, SeatTable.seat, SeatTable.token_hash)
                             .where(SeatTable.token_hash.in_(keys))).all()
            ids = sorted({r[0] for r in held})
            games = {g.id: g for g in s.scalars(select(GameRow).where(GameRow.id.in_(ids)))}
            seats: dict[str, list[SeatRow]] = {}
            for r in s.scalars(select(SeatTable).where(SeatTable.game_id.in_(ids))
                               .order_by(SeatTable.game_id, SeatTable.seat)):
                seats.setdefault(r.game_id, []).append(_seat_row(r))
        order = {h: i for i, h in enumerate(keys)}
        out = []
        for gid, seat, _ in sorted(held, key=lambda r: order.get(r[2] or "", 0)):
            g = games[gid]
            out.append(SeatGame(id=g.id, game=g.game, config=dict(g.config),
                                spectator=g.spectator, status=g.status, version=g.version,
                                seat=seat, seats=tuple(seats.get(gid, ()))))
        return out

    def ping(self, wait: float | None = None) -> None:
        """Read the store once (``SELECT 1``), raising :class:`StoreError` where it does
        not answer; ``wait`` as for :meth:`load`."""
        with self._session(wait) as s:
            s.execute(select(GameRow.id).limit(1))

    def active_games(self, wait: float | None = None) -> list[str]:
        """The ids of the games not finished, oldest first; ``wait`` as for :meth:`load`."""
        with self._session(wait) as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.status == "active")
                                  .order_by(GameRow.created)))

    def _session(self, wait: float | None = None) -> _Tx:
        return _Tx(self, wait)


class _Tx:
    """A session that commits on success and turns driver errors into StoreError, on a
    connection of its own that waits ``wait`` seconds for a locked SQLite database (see
    :meth:`Store._waiting`; its usual wait is restored before it goes back to the pool)."""

    def __init__(self, store: Store, wait: float | None = None) -> None:
        self.store = store
        self.wait = wait
        self.held = contextlib.ExitStack()  # the connection, and its wait

    def __enter__(self) -> Session:
        try:
            conn = self.held.enter_context(self.store.engine.connect())
            self.held.enter_context(self.store._waiting(conn, self.wait))
        except (SQLAlchemyError, sqlite3.Error) as exc:
            self.held.close()
            raise _store_error(exc) from None
        self.session = Session(conn, expire_on_commit=False)
        return self.session

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        with self.held:  # last: the connection back to the pool, as it came
            self._end(exc_type, exc)

    def _end(self, exc_type: Any, exc: Any) -> None:
        s = self.session
        try:
            if exc_type is None:
                s.commit()
            else:
                s.rollback()
        except IntegrityError:
            s.rollback()
            s.close()
            raise
        except SQLAlchemyError as err:
            s.rollback()
            s.close()
            raise _store_error(err) from None
        s.close()
        if isinstance(exc, SQLAlchemyError) and not isinstance(exc, IntegrityError):
            raise _store_error(exc) from None


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else exc.__class__.__name__
