"""The two database backends behind bot.store: SQLite (aiosqlite) and PostgreSQL (asyncpg), one small API.

The store writes its SQL once, with `?` placeholders; the PostgreSQL backend numbers them (`$1`...).
Rows come back as plain tuples from both. A transaction commits on leaving its block and rolls back
on any exception. `shared` says whether other processes may write the same database (PostgreSQL):
only then does the service need cross-process game locks and freshness checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

import aiosqlite


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


class Tx(Protocol):
    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int: ...
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...
    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...
    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None: ...


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
    async def close(self) -> None: ...


# ---------------------------------------------------------------------------- SQLite


class _SqliteTx:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        cursor = await self._conn.execute(sql, tuple(args))
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if rows:
            await self._conn.executemany(sql, rows)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self._conn.execute_fetchall(sql, tuple(args))]

    async def copy_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Bulk insert (names come from code, never from users)."""
        await self.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})", rows)


async def _enter_wal(conn: aiosqlite.Connection, seconds: float = 5.0) -> None:
    """Switch the file to WAL. Switching needs the file to itself, and SQLite answers "database is
    locked" at once, without its busy handler, when another connection is opening or switching the
    same new file; so wait and try again, as the busy timeout would, for up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(0.02)


class SqliteDatabase:
    """One aiosqlite connection; writes are serialized by a lock (a transaction spans several awaits)."""

    dialect = "sqlite"
    shared = False
    integrity_errors: tuple[type[BaseException], ...] = (aiosqlite.IntegrityError,)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._write = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> SqliteDatabase:
        conn = await aiosqlite.connect(path)
        try:
            # First, so every later statement waits for a busy file instead of failing at once.
            await conn.execute("PRAGMA busy_timeout=5000")
            await _enter_wal(conn)
            # NORMAL is durable across application crashes in WAL mode (only power loss may drop the
            # last commits) and saves an fsync per move.
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

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
        async with self._write:
            try:
                yield _SqliteTx(self.conn)
                await self.conn.commit()
            except BaseException:
                await self.conn.rollback()
                raise

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int, interaction_id: int | None = None) -> AsyncIterator[LockedGame | None]:
        # One process owns an SQLite file: the service's asyncio lock is the whole story.
        yield None

    async def close(self) -> None:
        await self.conn.close()


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


async def _keep_session(conn: Any) -> None:
    """The reset of `PostgresDatabase.pool`: nothing to undo (asyncpg still rolls back an open
    transaction itself)."""


async def _unlock_games(conn: Any) -> None:
    """The reset of `PostgresDatabase.lock_pool`: release the game lock the connection held."""
    await conn.execute("SELECT pg_advisory_unlock_all()")


class PostgresDatabase:
    """An asyncpg pool for queries and transactions, and a second, small pool whose connections hold
    the per-game advisory locks.

    Two pools, so that a task holding a game lock never waits for a connection that another lock
    holder keeps (one pool would deadlock once every connection is a waiting lock holder). A lock
    dies with its connection: a killed process frees its games at once.
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

        # asyncpg resets a connection on its way back to the pool with one more round trip (RESET ALL,
        # UNLISTEN, advisory unlock...). The store sets no session state and takes only transaction
        # locks on `pool`, so it skips that; on `lock_pool` the reset is the game's unlock.
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, reset=_keep_session)
        try:
            lock_pool = await asyncpg.create_pool(url, min_size=1, max_size=lock_pool_size, reset=_unlock_games)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, lock_pool)

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self.pool.acquire() as conn:
            return [tuple(r) for r in await conn.fetch(numbered(sql), *args)]

    async def stream(self, sql: str, batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        async with self.pool.acquire() as conn, conn.transaction():
            cursor = await conn.cursor(sql)
            while rows := await cursor.fetch(batch):
                yield [tuple(r) for r in rows]

    async def write(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """One statement, in the implicit transaction of its own (no BEGIN / COMMIT round trips)."""
        async with self.pool.acquire() as conn:
            return [tuple(r) for r in await conn.fetch(numbered(sql), *args)]

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PgTx(conn)

    @contextlib.asynccontextmanager
    async def game_lock(self, game_id: int, interaction_id: int | None = None) -> AsyncIterator[LockedGame | None]:
        """Hold the game's advisory lock; yields the game's version as read under the lock (and
        whether `interaction_id` already led to a move).

        The read is a statement of its own, after the lock's: a statement reads the database as it
        was when the statement began, so a version read in the statement that waited for the lock
        could miss the commit of the process that held it. The unlock is the connection's reset on
        its way back to the pool (`_unlock_games`); if that fails, asyncpg closes the connection,
        which frees the lock as well.
        """
        async with self.lock_pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", game_id)
            row = await conn.fetchrow(
                "SELECT (SELECT version FROM games WHERE id = $1),"
                " EXISTS (SELECT 1 FROM interactions WHERE interaction_id = $2)", game_id, interaction_id)
            yield LockedGame(row[0], bool(row[1]))

    async def close(self) -> None:
        await self.lock_pool.close()
        await self.pool.close()
