"""Fixtures for the service and store tests: a store on each backend (an SQLite file, a PostgreSQL
database on the session's throwaway server) and the Guess game."""

from __future__ import annotations

import itertools

import pytest

from bot.store import Store
from bot.tables import Tables
from tests.bot.guess_game import GAMES
from tests.pg_server import fresh_database

_numbers = itertools.count(1)


@pytest.fixture
def sqlite_path(tmp_path) -> str:
    """An SQLite file, for the tests about SQLite itself (WAL, old file versions)."""
    return str(tmp_path / "junction.db")


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_path(request, tmp_path) -> str:
    """What JUNCTION_DB would hold: a file path, or a postgresql:// URL of an empty database."""
    if request.param == "sqlite":
        return str(tmp_path / "junction.db")
    admin_url = request.getfixturevalue("pg_server")
    return await fresh_database(admin_url, f"junction_test_{next(_numbers)}")


@pytest.fixture
async def store(db_path):
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
async def tables(store):
    tables = Tables(store, games=GAMES)
    await tables.load()
    return tables
