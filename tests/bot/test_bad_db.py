"""Issue 12, finding 3 (and the migration race of finding 2): a database that cannot be used stops
the start at once with one line; a damaged game snapshot is rebuilt from the move log."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, Store, StoreOpenError
from bot.tables import DAMAGED, Refused, Tables
from tests.bot.guess_game import GAMES

ROOT = Path(__file__).resolve().parents[2]
ANN, BOB = 1, 2


@pytest.fixture
def db_path(sqlite_path: str) -> str:
    """These tests break an SQLite file by hand: SQLite only (tests/bot/conftest.py runs the others on both)."""
    return sqlite_path


def real_db(path: Path) -> Path:
    """A database with one finished migration set (made by the real Store)."""

    async def make() -> None:
        store = await Store.open(str(path))
        await store.close()

    # In a thread of its own: the async tests call this from inside their event loop.
    worker = threading.Thread(target=asyncio.run, args=(make(),))
    worker.start()
    worker.join()
    return path


def corrupt(path: Path) -> Path:
    real_db(path)
    with open(path, "r+b") as file:
        file.write(b"this is not sqlite" * 8)  # over the header: what a bad copy or a disk error leaves
    return path


def empty(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def newer(path: Path) -> Path:
    real_db(path)
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO schema_version (version) VALUES (99)")
    return path


BAD = {
    "corrupt": (corrupt, "is not a usable SQLite database"),
    "empty": (empty, "is an empty file (0 bytes), not a Junction database"),
    "newer": (newer, "has schema version 99, newer than this Junction knows"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
async def test_store_open_refuses_a_bad_file_and_leaves_no_thread(tmp_path, kind):
    make, said = BAD[kind]
    path = make(tmp_path / "junction.db")
    size = path.stat().st_size
    before = set(threading.enumerate())
    with pytest.raises(StoreOpenError, match=re.escape(said)):
        await Store.open(str(path))
    # The aiosqlite thread ends (alive, it would keep the interpreter running forever; it may take
    # a moment to leave its loop) and the file is untouched. Compared by thread, not by count: an
    # earlier test's thread that happens to end meanwhile must not hide a new one (or fail the test).
    for _ in range(100):
        if not set(threading.enumerate()) - before:
            break
        await asyncio.sleep(0.02)
    assert not set(threading.enumerate()) - before
    assert path.stat().st_size == size
    # The single-instance lock was released: once the file is fixed, the same process opens it.
    path.unlink()
    store = await Store.open(str(path))
    await store.close()


async def test_two_first_opens_of_a_new_file_share_the_migrations(tmp_path):
    """Two connections migrating a new file at once (as two processes would without the instance
    lock): the IMMEDIATE transaction makes the second wait and find the work done."""
    path = str(tmp_path / "new.db")
    stores = await asyncio.wait_for(asyncio.gather(*(Store.open(path) for _ in range(4))), 30)
    try:
        assert [await s.schema_version() for s in stores] == [len(MIGRATIONS)] * 4
    finally:
        for store in stores:
            await store.close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [
            (n,) for n in range(1, len(MIGRATIONS) + 1)]


def run_bot(db: Path, timeout: float = 30) -> tuple[subprocess.CompletedProcess, float]:
    env = {**os.environ, "DISCORD_TOKEN": "not.a.token", "JUNCTION_DB": str(db), "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=db.parent, env=env, capture_output=True,
                          text=True, timeout=timeout)
    return done, time.monotonic() - started


@pytest.mark.parametrize("kind", sorted(BAD))
def test_python_m_bot_on_a_bad_database_exits_with_one_line(tmp_path, kind):
    make, said = BAD[kind]
    done, seconds = run_bot(make(tmp_path / "junction.db"))
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1 and seconds < 15
    assert len(lines) == 1 and said in lines[0], done.stderr


def test_python_m_bot_on_a_locked_database_exits_with_one_line(tmp_path):
    """Another program holds the file (an exclusive transaction in a rollback-journal database):
    the bot waits its busy timeout (5 s), then says so and exits."""
    path = tmp_path / "junction.db"
    with sqlite3.connect(path, isolation_level=None) as holder:
        holder.execute("CREATE TABLE other (x)")
        holder.execute("BEGIN EXCLUSIVE")
        done, seconds = run_bot(path)
        holder.execute("ROLLBACK")
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1 and seconds < 15
    assert len(lines) == 1 and "is locked by another program" in lines[0], done.stderr


# --------------------------------------------------------------------------- damaged game snapshots

async def two_games(tables: Tables) -> list[int]:
    ids = []
    for channel in (1, 2):
        info = await tables.create("guess", guild_id=9, channel_id=channel, user_id=ANN, user_name="Ann",
                                   seat_order="join", options={"rounds": 2})
        await tables.join(info.row.id, BOB, "Bob")
        await tables.start(info.row.id, ANN)
        await tables.play(info.row.id, ANN, "bid 1")
        await tables.play(info.row.id, BOB, "bid 2")
        ids.append(info.row.id)
    return ids


def damage(db_path: str, game_id: int, *, snapshot: str | None = None, move: str | None = None) -> None:
    with sqlite3.connect(db_path) as raw:
        if snapshot is not None:
            raw.execute("UPDATE snapshots SET state = ? WHERE game_id = ?", (snapshot, game_id))
        if move is not None:
            raw.execute("UPDATE moves SET notation = ? WHERE game_id = ? AND n = 1", (move, game_id))


@pytest.mark.parametrize("snapshot", ['{"truncated', "{}", "behind"])
async def test_a_damaged_snapshot_is_rebuilt_from_the_move_log(db_path, caplog, snapshot):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    first, second = await two_games(tables)
    view_before, _ = await tables.public_view(first)
    await store.close()
    if snapshot == "behind":  # a snapshot one move behind its log (the poisoned game of finding 1)
        state = GAMES["guess"].new_game(2, {"rounds": 2, "span": 3, "open_bids": False, "pace": "calm"}, 0)
        snapshot = json.dumps(state.to_json())
    damage(db_path, first, snapshot=snapshot)

    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    await tables.load()
    with caplog.at_level(logging.WARNING, logger="bot.tables"):
        view, _ = await tables.public_view(first)
    assert view == view_before
    assert any(f"game {first}:" in r.getMessage() and "rebuilt from its log of 2 moves" in r.getMessage()
               for r in caplog.records)
    await tables.play(first, ANN, "pass")  # the game goes on
    assert (await store.snapshot(first))[0] == 3
    await store.close()


async def test_a_game_whose_log_does_not_replay_answers_one_line_and_others_play_on(db_path):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    first, second = await two_games(tables)
    await store.close()
    damage(db_path, first, snapshot='{"truncated', move="bid 99")

    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    await tables.load()
    for call in (tables.info(first), tables.legal_moves(first, ANN), tables.play(first, ANN, "pass")):
        with pytest.raises(Refused) as refused:
            await call
        assert str(refused.value.reason) == DAMAGED.format(id=first)
    await tables.play(second, ANN, "pass")
    assert (await tables.info(second)).moves == 3
    # A server admin can still end it (without standings: nothing can rebuild them).
    await tables.end_by_admin(first)
    assert (await store.game(first)).status == "cancelled" and await tables.open_game_at(1) is None
    await store.close()
