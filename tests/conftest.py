"""Fixtures shared by every test folder: a throwaway PostgreSQL server for the tests that run on it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pg_server import INSTALL_HINT, find_bin, throwaway_server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The admin URL of a PostgreSQL server started for this test session (stopped at its end).

    Without server binaries the PostgreSQL tests are skipped with the install hint, unless
    JUNCTION_REQUIRE_PG=1 (CI): then they fail.
    """
    if find_bin() is None:
        if os.environ.get("JUNCTION_REQUIRE_PG") == "1":
            pytest.fail(f"JUNCTION_REQUIRE_PG=1 but {INSTALL_HINT}", pytrace=False)
        pytest.skip(INSTALL_HINT)
    with throwaway_server() as url:
        yield url
