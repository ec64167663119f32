"""The two database backends behind bot.store: SQLite (aiosqlite) and PostgreSQL (asyncpg), one small API.

The store writes its SQL once, with `?` placeholders; the PostgreSQL backend numbers them (`$1`...).
What differs beyond that is asked of the backend: row locks, statements over a list of ids, a table's
columns, running a migration script, the ids after a bulk copy, and a commit's rows of several tables
(`Tx.write_rows`: one statement on PostgreSQL, one round trip).
Rows come back as plain tuples from both. A transaction commits on leaving its block and rolls back
on any exception. `shared` says whether other processes may write the same database (PostgreSQL):
only then does the service need cross-process game locks and freshness checks.

A lost PostgreSQL connection (a restart, a failover, a terminated backend) is tried again where
that is safe and otherwise raised as DatabaseUnavailable, which says whether the work may have
been committed (docs/operating-database.md; the retries and the error live in bot/db_outage.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

import aiosqlite

from bot.db_outage import (  # noqa: F401 - also re-exported: callers import these from bot.db
    RETRY_DELAYS,
    DatabaseUnavailable,
    _note_write,
    is_disconnect,
    on_wait,
    retrying,
    track_writes,
    wrote,
)

log = logging.getLogger("bot.db")
# Seconds to open a connection before the try counts as failed (asyncpg waits 60 s by default).
CONNECT_TIMEOUT = 5.0


def is_postgres(target: str) -> bool:
    """JUNCTION_DB names PostgreSQL by URL (postgresql://, postgres://); anything else is an SQLite file."""
    return target.startswith(("postgresql://", "postgres://"))


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (the store's SQL has no `?` inside literals)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


class LockedGame(NamedTuple):
    """What the game lock of a shared database reads once it holds the lock."""

    version: int | None  # the game's stored version (None: no such game)
    played: bool  # whether the interaction given to the lock already led to a move


# Key of the advisory lock that serializes migrations of processes starting together on PostgreSQL.
_MIGRATION_LOCK = 16_000_016
IDS = "{ids}"  # where a statement over a list of ids (`Database.write_ids`) names them


class Rows(NamedTuple):
    """Rows for one table, which `Tx.write_rows` inserts with the other tables' rows of a commit."""

    table: str
    columns: tuple[str, ...]
    types: tuple[str, ...]  # the columns' PostgreSQL types (bigint, integer, text, double precision)
    rows: Sequence[Sequence[Any]]
    conflict: str = ""  # e.g. "ON CONFLICT (game_id) DO NOTHING"

    def insert(self) -> str:
        """The INSERT of one row (`?` placeholders)."""
        return (f"INSERT INTO {self.table} ({', '.join(self.columns)})"
                f" VALUES ({', '.join('?' for _ in self.columns)}){' ' if self.conflict else ''}{self.conflict}")


class Tx(Protocol):
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int: ...
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None: ...
    async def run_script(self, script: str) -> None: ...
    async def follow_ids(self, tables: Sequence[str]) -> None: ...
    async def take_turns(self, key: int) -> None: ...
    async def write_rows(self, writes: Sequence[Rows], last: str = "", args: Sequence[Any] = ()
                         ) -> tuple[list[int], list[tuple[Any, ...]]]: ...


class Database(Protocol):
    dialect: str
    shared: bool
    integrity_errors: tuple[type[BaseException], ...]

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]: ...
    def transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...
    def game_lock(self, game_id: int, interaction_id: int | None = None
                  ) -> contextlib.AbstractAsyncContextManager[LockedGame | None]: ...
    def schema_transaction(self) -> contextlib.AbstractAsyncContextManager[Tx]: ...
    def for_update(self, of: str = "") -> str: ...
    async def write_ids(self, sql: str, args: Sequence[Any], ids: Sequence[int]) -> None: ...
    async def columns(self, table: str) -> list[str]: ...
    async def close(self) -> None: ...


# ---------------------------------------------------------------------------- SQLite


class _SqliteTx:
    """A transaction's statements on the writer connection, run at once on the event loop (see
    SqliteDatabase): `async` only to share the Tx protocol with PostgreSQL's."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        return self._conn.execute(sql, tuple(args)).rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if rows:
            self._conn.executemany(sql, rows)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._conn.execute(sql, tuple(args)).fetchall()]

    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Bulk insert (names come from code, never from users)."""
        await self.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})", rows)

    async def run_script(self, script: str) -> None:
        """A migration, statement by statement (the sqlite3 module runs one statement per call)."""
        for statement in _statements(script):
            self._conn.execute(statement)

    async def follow_ids(self, tables: Sequence[str]) -> None:
        """Nothing to do: AUTOINCREMENT goes on past the largest id inserted, also an explicit one."""

    async def take_turns(self, key: int) -> None:
        """Nothing to do: one transaction at a time writes an SQLite file."""

    async def write_rows(self, writes: Sequence[Rows], last: str = "", args: Sequence[Any] = ()
                         ) -> tuple[list[int], list[tuple[Any, ...]]]:
        """Each table's rows in turn (calls within the process), then `last` (with `args`; a statement
        ending in its RETURNING list, or none): the rows each write added, and the rows `last` returns."""
        added = []
        for write in writes:
            rows = [tuple(r) for r in write.rows]
            added.append(self._conn.executemany(write.insert(), rows).rowcount if rows else 0)
        return added, (await self.fetch(last, args) if last else [])


def _statements(script: str) -> list[str]:
    """A migration script cut into statements (sqlite3.complete_statement knows where comments and strings end)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not all(
            part.strip().startswith("--") or not part.strip() for part in pending.splitlines()):
        raise ValueError(f"incomplete statement in a migration: {pending.strip()[:60]!r}")
    return statements


async def _enter_wal(conn: aiosqlite.Connection, seconds: float = 5.0) -> None:
    """Switch the file to WAL. Switching needs the file to itself, and SQLite answers "database is
    locked" at once, without its busy handler, when another connection is opening or switching the
    same new file; so wait and try again, as the busy timeout would, for up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            await conn.execute_fetchall("PRAGMA journal_mode=WAL")  # read to the end: no statement left open
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.02)


class SqliteDatabase:
    """Two connections to one SQLite file in WAL mode: reads go through aiosqlite (in its thread,
    off the event loop); writes through a writer connection, one transaction at a time (a lock).

    A write transaction's statements run at once, on the event loop: each takes well under a
    millisecond (WAL, synchronous=NORMAL: a commit does not wait for the disk), while a trip to a
    thread and back waits for the event loop's turn, and a busy loop made every transaction hold
    the write lock for several such trips (issue 29: under a burst of moves, each write waited
    behind the others about a second). The writer never checkpoints; the reader's thread does it
    (`CHECKPOINT_EVERY` commits), so the disk's flushes stay off the loop. Readers see committed
    data only. One process owns the file (bot.store.lock), so the writer never waits for another
    one (but at the start: two processes opening a new file take turns at the migrations)."""

    dialect = "sqlite"
    shared = False
    integrity_errors: tuple[type[BaseException], ...] = (sqlite3.IntegrityError,)
    CHECKPOINT_EVERY = 200  # commits: about the 1000 pages (4 MB) of SQLite's own automatic checkpoint

    def __init__(self, conn: aiosqlite.Connection, writer: sqlite3.Connection) -> None:
        self.conn = conn
        self._writer = writer
        self._write = asyncio.Lock()
        self._commits = 0
        self._checkpoint: asyncio.Future[Any] | None = None

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        conn = await aiosqlite.connect(path)
        writer = None
        try:
            # First, so every later statement waits for a busy file instead of failing at once.
            await conn.execute("PRAGMA busy_timeout=5000")
            await _enter_wal(conn)
            writer = sqlite3.connect(path, isolation_level=None)  # used on the event loop's thread only
            # NORMAL is durable across application crashes in WAL mode (only power loss may drop the
            # last commits) and saves an fsync per move.
            for pragma in ("busy_timeout=5000", "synchronous=NORMAL", "foreign_keys=ON", "wal_autocheckpoint=0"):
                writer.execute(f"PRAGMA {pragma}")
            await conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            if writer is not None:
                writer.close()
            await conn.close()
            raise
        return cls(conn, writer)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.conn.execute_fetchall(sql, tuple(args))]

    async def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        """The rows of a query in batches (a big table is never all in memory)."""
        async with self.conn.execute(sql) as cursor:
            while rows := await cursor.fetchmany(batch):
                yield [tuple(r) for r in rows]

    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """One statement in a transaction of its own; its rows (RETURNING)."""
        async with self.transaction() as tx:
            return await tx.fetch(sql, args)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self._write, self._writing() as tx:
            yield tx
        self._commits += 1
        if self._commits % self.CHECKPOINT_EVERY == 0 and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.ensure_future(self._checkpoint_wal())

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Tx]:
        """BEGIN IMMEDIATE (the file's write lock at once), the block, COMMIT; ROLLBACK on any exception."""
        self._writer.execute("BEGIN IMMEDIATE")
        try:
            yield _SqliteTx(self._writer)
            self._writer.execute("COMMIT")
        except BaseException:
            if self._writer.in_transaction:
                self._writer.execute("ROLLBACK")
            raise
        _note_write()

    async def _checkpoint_wal(self) -> None:
        """Copy the WAL's pages into the file, off the event loop (PASSIVE: never waits for anyone)."""
        try:
            await self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # the next one tries again; the WAL only grows meanwhile
            log.warning("SQLite checkpoint failed", exc_info=True)

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int, interaction_id: int | None = None) -> AsyncIterator[LockedGame | None]:
        # One process owns an SQLite file: the service's asyncio lock is the whole story.
        yield None

    @contextlib.asynccontextmanager
    async def schema_transaction(self) -> AsyncIterator[Tx]:
        """The migrations' transaction: BEGIN IMMEDIATE takes the file's write lock at once, so two
        processes opening a new file take turns (the second finds the work done; meanwhile this one
        waits, up to the busy timeout, before the bot does anything else)."""
        async with self._write, self._writing() as tx:
            yield tx

    def for_update(self, of: str = "") -> str:
        return ""  # no row locks: one process writes an SQLite file, one transaction at a time

    async def write_ids(self, sql: str, args: Sequence[Any], ids: Sequence[int]) -> None:
        """`sql` (its last parameter the ids, at IDS) once per id, in one transaction."""
        async with self.transaction() as tx:
            await tx.executemany(sql.replace(IDS, "id = ?"), [(*args, i) for i in ids])

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.fetch(f"PRAGMA table_info({table})")]

    async def close(self) -> None:
        if self._checkpoint is not None:
            await asyncio.wait([self._checkpoint])
        self._writer.close()
        await self.conn.close()  # the last connection: SQLite checkpoints the WAL, in aiosqlite's thread


# ---------------------------------------------------------------------------- PostgreSQL


class _PgTx:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        status = await self._conn.execute(numbered(sql), *args)
        # asyncpg returns the command tag, e.g. "UPDATE 1" / "INSERT 0 3"
        tail = status.rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else -1

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if rows:
            await self._conn.executemany(numbered(sql), rows)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self._conn.fetch(numbered(sql), *args)]

    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Bulk insert with COPY (an order of magnitude faster than INSERTs for migrate-db)."""
        await self._conn.copy_records_to_table(table, records=[tuple(r) for r in rows], columns=list(columns))

    async def run_script(self, script: str) -> None:
        """A migration, whole (PostgreSQL runs a script without parameters in one round trip)."""
        await self._conn.execute(script)

    async def follow_ids(self, tables: Sequence[str]) -> None:
        """Ids given explicitly (a copy): move the tables' id sequences past them."""
        for table in tables:
            await self.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")

    async def take_turns(self, key: int) -> None:
        """Other processes' transactions taking turns on `key` wait until this one ends (advisory lock)."""
        await self.execute("SELECT pg_advisory_xact_lock(?)", (key,))

    async def write_rows(self, writes: Sequence[Rows], last: str = "", args: Sequence[Any] = ()
                         ) -> tuple[list[int], list[tuple[Any, ...]]]:
        """Every table's rows and `last` in one statement (one round trip): each table's rows come as
        one array per column, inserted in their order (ids follow it), and `last` runs after them."""
        live = [w for w in writes if w.rows]  # a table without rows costs nothing
        if not live and not last:
            return [0] * len(writes), []
        parts, values = [], []
        for k, write in enumerate(live):
            arrays = ", ".join(f"?::{t}[]" for t in write.types)
            names = ", ".join(write.columns)
            parts += [f"w{k} AS (INSERT INTO {write.table} ({names}) SELECT {names} FROM unnest({arrays})"
                      f" WITH ORDINALITY AS r ({names}, i) ORDER BY r.i {write.conflict} RETURNING 1)"]
            values += [[row[c] for row in write.rows] for c in range(len(write.columns))]
        counts = ", ".join(f"(SELECT count(*) FROM w{k})" for k in range(len(live)))
        tail = f"{last}{', ' if last else 'SELECT '}{counts}" if live else last
        rows = await self.fetch(f"WITH {', '.join(parts)} {tail}" if live else tail, (*values, *args))
        width = len(rows[0]) - len(live) if rows else 0
        added = iter(rows[0][width:] if rows else [0] * len(live))
        return [next(added) if w.rows else 0 for w in writes], ([row[:width] for row in rows] if last else [])


class _OneLineFloorRetry(logging.Filter):
    """asyncpg logs each failed try to reopen a pool's floor connection (min_size) with a full
    traceback: during an outage, one per pool per try (after 1, 2, 4... up to 60 s). The error's one
    line says it all, so it is appended to the message instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Failed to restore the pool connection floor"):
            error = record.exc_info[1]
            record.msg = f"{record.msg} ({type(error).__name__}: {error})".replace("%", "%%")
            record.exc_info, record.exc_text = None, None
        return True


_ONE_LINE_FLOOR_RETRY = _OneLineFloorRetry()


def _discard(conn: Any) -> None:
    """Close a pooled connection whose state is unknown, so it never goes back to the pool in use
    (the pool opens a new one when needed). One that already closed itself was released by asyncpg."""
    with contextlib.suppress(Exception):
        conn.terminate()


async def _keep_session(conn: Any) -> None:
    """The reset of both pools: nothing to undo (asyncpg still rolls back an open transaction
    itself; the game lock unlocks its connection itself, see `game_lock`)."""


class PostgresDatabase:
    """An asyncpg pool for queries and transactions, and a second, small pool whose connections hold
    the per-game advisory locks.

    Two pools, so that a task holding a game lock never waits for a connection that another lock
    holder keeps (one pool would deadlock once every connection is a waiting lock holder). A lock
    dies with its connection: a killed process frees its games at once.

    A lost connection (a server restart, a terminated backend, a network cut) is never fatal: pools
    replace closed connections; reads, locks, the store's `write` statements and the BEGIN of a
    transaction are tried again (`retrying`); what still fails raises DatabaseUnavailable, which says
    whether the work may have been committed.
    """

    dialect = "postgresql"
    shared = True

    def __init__(self, pool: Any, lock_pool: Any) -> None:
        import asyncpg

        self.pool = pool
        self.lock_pool = lock_pool
        self.integrity_errors: tuple[type[BaseException], ...] = (asyncpg.IntegrityConstraintViolationError,)

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10, lock_pool_size: int = 20) -> PostgresDatabase:
        import asyncpg

        logging.getLogger("asyncpg.pool").addFilter(_ONE_LINE_FLOOR_RETRY)  # once: the same filter is kept once
        # asyncpg resets a connection on its way back to the pool with one more round trip (RESET ALL,
        # UNLISTEN, advisory unlock...). The store sets no session state and takes only transaction
        # locks on `pool`; on `lock_pool` the game lock unlocks before it releases its connection.
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_keep_session,
                                         timeout=CONNECT_TIMEOUT)
        try:
            lock_pool = await asyncpg.create_pool(url, min_size=1, max_size=lock_pool_size, reset=_keep_session,
                                                  timeout=CONNECT_TIMEOUT)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, lock_pool)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async def once() -> list[tuple[Any, ...]]:
            async with self.pool.acquire() as conn:
                return [tuple(r) for r in await conn.fetch(numbered(sql), *args)]

        return await retrying("a read", once)

    async def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                cursor = await conn.cursor(sql)
                while rows := await cursor.fetch(batch):
                    yield [tuple(r) for r in rows]
        except Exception as error:
            if is_disconnect(error):
                raise DatabaseUnavailable(f"a read: {type(error).__name__}: {error}") from error
            raise

    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """One statement, in the implicit transaction of its own (no BEGIN / COMMIT round trips).

        Tried again when the connection fails: the store sends only idempotent statements this way
        (fields set to values, claims by owner, deletes by id), which may safely run twice."""
        async def once() -> list[tuple[Any, ...]]:
            async with self.pool.acquire() as conn:
                return [tuple(r) for r in await conn.fetch(numbered(sql), *args)]

        rows = await retrying("a write", once)
        _note_write()
        return rows

    async def _begin(self) -> tuple[Any, Any]:
        """A pooled connection with a transaction begun: the BEGIN is the first round trip, so a stale
        connection (its server restarted) fails there, before any work, and another is tried."""
        async def once() -> tuple[Any, Any]:
            conn = await self.pool.acquire()
            try:
                transaction = conn.transaction()
                await transaction.start()
            except BaseException:
                _discard(conn)
                await self.pool.release(conn)
                raise
            return conn, transaction

        return await retrying("a transaction", once)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """Commits on leaving the block, rolls back on an exception. A connection lost inside the block
        raises DatabaseUnavailable(committed=False); lost during COMMIT, committed=None (unknown)."""
        conn, transaction = await self._begin()
        try:
            try:
                yield _PgTx(conn)
            except BaseException as error:
                try:
                    await transaction.rollback()
                except Exception:
                    _discard(conn)
                if isinstance(error, Exception) and is_disconnect(error):
                    raise DatabaseUnavailable(f"a transaction: {type(error).__name__}: {error}") from error
                raise
            try:
                await transaction.commit()
            except BaseException as error:
                _discard(conn)
                if isinstance(error, Exception) and is_disconnect(error):
                    raise DatabaseUnavailable(f"a commit: {type(error).__name__}: {error}", committed=None) from error
                raise
            _note_write()
        finally:
            await self.pool.release(conn)

    @contextlib.asynccontextmanager
    async def schema_transaction(self) -> AsyncIterator[Tx]:
        """The migrations' transaction (DDL is transactional); an advisory lock makes processes
        starting together take turns (the second finds the work done)."""
        async with self.transaction() as tx:
            await tx.take_turns(_MIGRATION_LOCK)
            yield tx

    def for_update(self, of: str = "") -> str:
        """The clause that locks the rows a SELECT reads (of the table alias `of`) until the commit."""
        return f" FOR UPDATE OF {of}" if of else " FOR UPDATE"

    async def write_ids(self, sql: str, args: Sequence[Any], ids: Sequence[int]) -> None:
        """`sql` (its last parameter the ids, at IDS) once, over the array of ids: one round trip."""
        await self.write(sql.replace(IDS, "id = ANY(?::bigint[])"), (*args, list(ids)))

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetch(
            "SELECT column_name FROM information_schema.columns WHERE table_name = ? AND table_schema ="
            " current_schema() ORDER BY ordinal_position", (table,))
        return [r[0] for r in rows]

    async def _lock(self, game_id: int, interaction_id: int | None) -> tuple[Any, LockedGame]:
        """A lock-pool connection holding the game's advisory lock, and what it read under it."""
        async def once() -> tuple[Any, LockedGame]:
            conn = await self.lock_pool.acquire()
            try:
                await conn.execute("SELECT pg_advisory_lock($1)", game_id)
                row = await conn.fetchrow(
                    "SELECT (SELECT version FROM games WHERE id = $1),"
                    " EXISTS (SELECT 1 FROM interactions WHERE interaction_id = $2)", game_id, interaction_id)
            except BaseException:
                # Whether the lock was granted is unknown (a cancel, a lost connection): the session
                # goes, and the lock with it.
                _discard(conn)
                await self.lock_pool.release(conn)
                raise
            return conn, LockedGame(row[0], bool(row[1]))

        return await retrying(f"the lock of game {game_id}", once)

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int, interaction_id: int | None = None) -> AsyncIterator[LockedGame | None]:
        """Hold the game's advisory lock; yields the game's version as read under the lock (and
        whether `interaction_id` already led to a move).

        The read is a statement of its own, after the lock's: a statement reads the database as it
        was when the statement began, so a version read in the statement that waited for the lock
        could miss the commit of the process that held it.

        Leaving never raises for the lock's sake: what the block committed is committed whatever
        becomes of the lock. If the unlock fails (the connection was lost: the server restarted, the
        backend was terminated), the connection is closed, never returned to the pool, and the
        lock died with its session. A lock lost while the block still works is caught by the
        fences of the writes themselves (`Store.record_moves`, `Store.save_clock_state`).
        """
        conn, locked = await self._lock(game_id, interaction_id)
        try:
            yield locked
        finally:
            try:
                await conn.execute("SELECT pg_advisory_unlock($1)", game_id)
            except BaseException as error:
                _discard(conn)
                if not isinstance(error, Exception):
                    raise
                log.warning("game %s: the lock's connection was lost (%s: %s); it is closed, and the lock with it",
                            game_id, type(error).__name__, error)
            finally:
                await self.lock_pool.release(conn)

    async def close(self) -> None:
        await self.lock_pool.close()
        await self.pool.close()
