"""The copy between backends (python -m bot migrate-db): every table's rows streamed into an empty store."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

from bot.store.base import StorePart
from bot.store.rows import StoreError

# Parents before children (foreign keys); schema_version is the target's own.
COPIED_TABLES = ("games", "seats", "moves", "snapshots", "outbox", "guild_settings", "clocks", "seat_prefs",
                 "user_prefs", "dm_state", "seat_offers", "interactions", "seat_holders", "ratings", "rated_games",
                 "rating_changes", "rematches", "rematch_invites", "lobby_rules", "seasons", "words_upgrade")


class CopyPart(StorePart):
    """Reading a store's tables, and filling an empty one from another."""

    # ------------------------------------------------------------------ copying (migrate-db)

    async def table_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of one of the store's tables, with its column names (tests; small tables)."""
        columns = await self._columns(table)
        rows = [r async for batch in self._table_batches(table, columns, 10_000) for r in batch]
        return columns, rows

    def _table_batches(self, table: str, columns: Sequence[str], batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        if table not in COPIED_TABLES:
            raise ValueError(f"unknown table {table!r}")
        return self._db.stream(f"SELECT {', '.join(columns)} FROM {table}", batch)

    async def _columns(self, table: str) -> list[str]:
        return await self._db.columns(table)

    async def is_empty(self) -> bool:
        rows = await self._db.fetch("SELECT count(*) FROM games")
        return rows[0][0] == 0

    async def copy_from(self, source: CopyPart, batch: int = 50_000) -> dict[str, int]:
        """Copy every row of `source` into this (empty) store in one transaction; row counts by table."""
        if not await self.is_empty():
            raise StoreError("The target database already holds games; migrate-db copies only into an empty one.")
        counts: dict[str, int] = {}
        async with self._db.transaction() as tx:
            for table in COPIED_TABLES:
                target = set(await self._columns(table))
                shared = [c for c in await source._columns(table) if c in target]
                counts[table] = 0
                async for rows in source._table_batches(table, shared, batch):
                    await tx.copy_rows(table, shared, rows)
                    counts[table] += len(rows)
            # Copied ids were given explicitly: the next ids come after them.
            await tx.follow_ids(("games", "outbox", "seat_offers"))
        return counts


