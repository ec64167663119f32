"""The Store: one database opened (an SQLite file under its instance lock, or PostgreSQL), migrated and closed; its parts joined."""

from __future__ import annotations

import os
import sqlite3

from bot.db import PostgresDatabase, SqliteDatabase, is_postgres
from bot.store.clocks import ClocksPart
from bot.store.copying import CopyPart
from bot.store.games import GamesPart
from bot.store.lock import (
    acquire_instance_lock,
    first_holder,
    open_error,
    postgres_open_error,
    release_instance_lock,
)
from bot.store.moves import MovesPart
from bot.store.outbox import OutboxPart
from bot.store.prefs import PrefsPart
from bot.store.rows import StoreOpenError
from bot.store.schema import migrate, migrations
from bot.store.words_upgrade import WordsUpgradePart


class Store(GamesPart, MovesPart, OutboxPart, ClocksPart, PrefsPart, CopyPart, WordsUpgradePart):
    """The store over one backend (bot.db): SQLite by default, PostgreSQL for several processes.

    Every write that changes a game bumps its `version` (migration 7); `on_version(game_id, version)`
    hears the new value, so the service can tell its own writes from another process's.
    """

    @classmethod
    async def open(cls, target: str, **pool: int) -> Store:
        """Open (or create) the database and migrate it: a file path opens SQLite and holds its
        single-instance lock until close; a postgresql:// URL opens PostgreSQL (pool sizes in `pool`),
        which several processes share.

        StoreOpenError with one line for the operator when it cannot be used: another process
        holds the SQLite file, an empty or corrupt file, a schema from a newer Junction, a locked
        file, an unreachable server. On any failure the connections (and aiosqlite's thread, which
        would keep the interpreter alive) are closed.
        """
        if is_postgres(target):
            return await cls._open_postgres(target, **pool)
        lock_path = acquire_instance_lock(target)
        try:
            first_here = first_holder(lock_path)  # not a file this process is creating
            if first_here and target != ":memory:" and os.path.isfile(target) and os.path.getsize(target) == 0:
                # SQLite would take it for a new database and start empty: if this was a real
                # database truncated by accident, its games would silently vanish.
                raise StoreOpenError(f"{target} is an empty file (0 bytes), not a Junction database: restore it"
                                     " from a backup, or delete it to start with a new empty database.")
            db = await SqliteDatabase.open(target)
            store = cls(db, lock_path)
            try:
                await migrate(db, target)
            except BaseException:
                await db.close()
                raise
            return store
        except BaseException as error:
            release_instance_lock(lock_path)
            if isinstance(error, sqlite3.Error):
                raise open_error(target, error) from error
            raise

    @classmethod
    async def _open_postgres(cls, url: str, **pool: int) -> Store:
        where = url.split("@")[-1]  # never print a password
        try:
            db = await PostgresDatabase.open(url, **pool)
        except Exception as error:
            told = postgres_open_error(where, error)
            if told is None:
                raise
            raise told from error
        store = cls(db)
        try:
            await migrate(db, where)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        try:
            await self._db.close()
        finally:
            release_instance_lock(self._lock_path)
            self._lock_path = None

    def migrations(self) -> tuple[str, ...]:
        """This backend's migrations, number for number."""
        return migrations(self.dialect)

    async def schema_version(self) -> int:
        rows = await self._db.fetch("SELECT max(version) FROM schema_version")
        return rows[0][0] or 0
