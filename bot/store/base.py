"""What every part of the store shares: the backend, the clock, the game row's version bump."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.db import Database, LockedGame, Tx


class StorePart:
    """The state the store's parts (games, moves, outbox, clocks, preferences, copying) work on;
    bot.store.Store joins them into one object over one backend (bot.db)."""

    def __init__(self, db: Database, lock_path: str | None = None) -> None:
        self._db = db
        self._lock_path = lock_path  # SQLite's single-instance lock file, held until close
        self.commit_seconds: list[float] = []  # time of each move commit, read by the bench
        self.now: Callable[[], float] = time.time  # the service injects its clock (tests move it)
        self.on_version: Callable[[int, int], None] | None = None

    @property
    def dialect(self) -> str:
        return self._db.dialect

    @property
    def db(self) -> Database:
        """The backend, for modules that keep tables of their own in this store (bot/rating_store.py)."""
        return self._db

    @property
    def shared(self) -> bool:
        """True when other processes may write the same database (PostgreSQL)."""
        return self._db.shared

    def game_lock(self, game_id: int, interaction_id: int | None = None
                  ) -> contextlib.AbstractAsyncContextManager[LockedGame | None]:
        """Hold the game against every other process (PostgreSQL advisory lock; a no-op on SQLite).
        Yields the game's stored version read under the lock, and whether `interaction_id` already
        led to a move, in the same round trip (None on SQLite: ask interaction_played)."""
        return self._db.game_lock(game_id, interaction_id)


    async def _bump(self, tx: Tx, game_id: int, sets: str = "", args: Sequence[Any] = ()) -> int:
        """UPDATE the game row (with `sets`, e.g. "status = ?, "), its updated_at and version; returns
        the new version."""
        rows = await tx.fetch(
            f"UPDATE games SET {sets}updated_at = ?, version = version + 1 WHERE id = ? RETURNING version",
            (*args, self.now(), game_id))
        return rows[0][0] if rows else 0

    def _saw(self, game_id: int, version: int) -> None:
        if self.on_version is not None and version:
            self.on_version(game_id, version)

    async def game_version(self, game_id: int) -> int | None:
        rows = await self._db.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

