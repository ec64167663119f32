"""SQLite's two connections (bot.db.SqliteDatabase): writes on the writer, at once on the event loop;
reads through aiosqlite, which see committed data only; the WAL checkpointed off the loop."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import Store


@pytest.fixture
async def db(sqlite_path):
    store = await Store.open(sqlite_path)
    await store._db.write("CREATE TABLE scratch (x TEXT)")
    yield store._db
    await store.close()


async def test_a_read_sees_a_write_once_committed_not_before(db):
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO scratch (x) VALUES (?)", ("half-done",))
        assert await tx.fetch("SELECT x FROM scratch") == [("half-done",)]  # the transaction sees its own
        assert await db.fetch("SELECT x FROM scratch") == []  # a reader does not, yet
    assert await db.fetch("SELECT x FROM scratch") == [("half-done",)]


async def test_a_failed_transaction_writes_nothing_and_the_next_one_works(db):
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO scratch (x) VALUES (?)", ("lost",))
            raise RuntimeError("the block failed")
    await db.write("INSERT INTO scratch (x) VALUES (?)", ("kept",))
    assert await db.fetch("SELECT x FROM scratch") == [("kept",)]


async def test_a_transaction_waits_for_the_one_before_it(db):
    """Writes take turns: a transaction whose block awaits something keeps the writer until it ends."""
    order = []

    async def first() -> None:
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO scratch (x) VALUES ('first')")
            order.append("first wrote")
            await asyncio.sleep(0.05)
            order.append("first ends")

    async def second() -> None:
        await asyncio.sleep(0.01)
        async with db.transaction() as tx:
            order.append("second begins")
            await tx.execute("INSERT INTO scratch (x) VALUES ('second')")

    await asyncio.gather(first(), second())
    assert order == ["first wrote", "first ends", "second begins"]
    assert sorted(await db.fetch("SELECT x FROM scratch")) == [("first",), ("second",)]


async def test_the_wal_is_checkpointed_off_the_writer(db, sqlite_path):
    """The writer never checkpoints (its commits never wait for the disk); every CHECKPOINT_EVERY
    commits the reader's thread copies the WAL into the file."""
    db.CHECKPOINT_EVERY, db._commits = 4, 0
    await db.write("INSERT INTO scratch (x) VALUES (?)", ("marker-7f3a",))
    for _ in range(2):
        await db.write("INSERT INTO scratch (x) VALUES ('filler')")
    assert b"marker-7f3a" not in Path(sqlite_path).read_bytes()  # only in the WAL so far
    assert b"marker-7f3a" in Path(sqlite_path + "-wal").read_bytes()
    await db.write("INSERT INTO scratch (x) VALUES ('filler')")  # the 4th commit
    assert db._checkpoint is not None
    await db._checkpoint
    assert b"marker-7f3a" in Path(sqlite_path).read_bytes()
