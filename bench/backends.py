"""What the benches that compare the two backends share: one measurement on a fresh SQLite file, then on a fresh
PostgreSQL database (on JUNCTION_BENCH_PG's server, else a throwaway one from tests/pg_server.py)."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


def sqlite_and_postgresql(measure: Callable[[str], Awaitable[T]], database: str) -> tuple[T, T]:
    """(`measure` on SQLite, `measure` on PostgreSQL): `measure(target)` gets a JUNCTION_DB value."""
    with tempfile.TemporaryDirectory() as folder:
        lite = asyncio.run(measure(os.path.join(folder, "bench.db")))

    async def on_postgresql(admin: str) -> T:
        from tests.pg_server import fresh_database

        return await measure(await fresh_database(admin, database))

    given = os.environ.get("JUNCTION_BENCH_PG")
    if given:
        return lite, asyncio.run(on_postgresql(given))
    from tests.pg_server import throwaway_server

    with throwaway_server() as admin:
        return lite, asyncio.run(on_postgresql(admin))
