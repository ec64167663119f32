"""Fixtures for the service and store tests: a store on a temporary file and the Guess game."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import Tables
from tests.bot.guess_game import GAMES


@pytest.fixture
def db_path(tmp_path):
    return str(tmp_path / "junction.db")


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
