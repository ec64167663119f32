"""python -m bot migrate-db: an SQLite file copied into PostgreSQL keeps every game playable; the two
backends' migrations build the same schema."""

from __future__ import annotations

import asyncio
import itertools
import random

from bot.__main__ import main, parse_shards
from bot.store import COPIED_TABLES, Store
from bot.tables import Tables
from tests.bot.guess_game import GAMES
from tests.bot.test_tables import lobby, play_one
from tests.pg_server import fresh_database

_numbers = itertools.count(1)


async def _everything(store: Store) -> dict[str, list[tuple]]:
    return {table: sorted((await store.table_rows(table))[1], key=repr) for table in COPIED_TABLES}


async def test_both_backends_build_the_same_tables_and_columns(sqlite_path, pg_server):
    url = await fresh_database(pg_server, f"junction_schema_{next(_numbers)}")
    lite, pg = await Store.open(sqlite_path), await Store.open(url)
    try:
        assert await lite.schema_version() == await pg.schema_version() == len(lite.migrations()) == len(pg.migrations())
        for table in (*COPIED_TABLES, "schema_version"):
            assert await lite._columns(table) == await pg._columns(table), table
    finally:
        await lite.close()
        await pg.close()


async def test_migrate_db_copies_everything_and_refuses_a_non_empty_target(sqlite_path, pg_server, capsys):
    lite = await Store.open(sqlite_path)
    tables = Tables(lite, games=GAMES)
    await tables.load()
    rng = random.Random(3)
    running = await lobby(tables, channel=50)
    await tables.start(running, 1)
    for _ in range(4):
        await play_one(tables, running, rng)
    await lobby(tables, channel=51)  # a lobby, owed posts and all
    await lite.set_guild_settings(9, {"turn_hours": 48})
    before = await _everything(lite)
    await lite.close()

    url = await fresh_database(pg_server, f"junction_migrate_{next(_numbers)}")
    assert await asyncio.to_thread(main, ["migrate-db", sqlite_path, url]) == 0
    assert "copied" in capsys.readouterr().out
    pg = await Store.open(url)
    try:
        assert await _everything(pg) == before
        # The game goes on in PostgreSQL, and a new game gets a new id (the sequence moved past the copy).
        tables = Tables(pg, games=GAMES)
        await tables.load()
        await play_one(tables, running, rng)
        assert len(await pg.moves(running)) == 5
        fresh = await lobby(tables, channel=52)
        assert fresh > running
    finally:
        await pg.close()
    # A second copy would mix two databases: refused, nothing written.
    assert await asyncio.to_thread(main, ["migrate-db", sqlite_path, url]) == 1
    assert "already holds games" in capsys.readouterr().err


def test_shard_ranges():
    assert parse_shards("0-3", 8) == [0, 1, 2, 3]
    assert parse_shards("4,6-7", 8) == [4, 6, 7]
    for bad in ("0-8", "a", "1-"):
        try:
            parse_shards(bad, 8)
        except ValueError:
            continue
        raise AssertionError(bad)
