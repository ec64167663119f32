"""The one migration source renders, for each backend, exactly the SQL that ran before it was shared."""

from __future__ import annotations

import pytest

from bot.store.schema import MIGRATIONS, POSTGRES_MIGRATIONS, SOURCE, migrations, render
from tests.bot import migrations_before


def _code(script: str) -> list[str]:
    """A script's lines without its comment lines (PostgreSQL's text had fewer comments than SQLite's)."""
    return [line for line in script.splitlines() if not line.strip().startswith("--")]


def test_one_source_for_every_migration():
    assert len(SOURCE) == len(MIGRATIONS) == len(POSTGRES_MIGRATIONS) == len(migrations_before.SQLITE)


@pytest.mark.parametrize("number", range(1, len(SOURCE) + 1))
def test_sqlite_text_is_what_ran_before(number):
    assert render(SOURCE[number - 1], "sqlite") == migrations_before.SQLITE[number - 1]


@pytest.mark.parametrize("number", range(1, len(SOURCE) + 1))
def test_postgresql_text_is_what_ran_before(number):
    assert _code(render(SOURCE[number - 1], "postgresql")) == _code(migrations_before.POSTGRES[number - 1])


def test_each_backend_gets_its_own_text():
    assert migrations("sqlite") == MIGRATIONS and migrations("postgresql") == POSTGRES_MIGRATIONS
    assert "WITHOUT ROWID" not in "".join(POSTGRES_MIGRATIONS) and "BIGINT" not in "".join(MIGRATIONS)
    with pytest.raises(ValueError):
        render(SOURCE[0], "mysql")
