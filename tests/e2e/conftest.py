"""Fixtures for end-to-end tests: the fake Discord server and the ERROR-log guard.

- ``fake_discord``: a started :class:`tests.e2e.fake_discord.FakeDiscord` (discord.py's REST base and
  gateway URL point at it for the test; both restored afterwards; bots started with
  ``fake.start_bot`` are closed). The test fails if the fake recorded an internal error or a
  request to a route it does not know.
- ``log_guard`` (autouse): fails the test on any log record of level ERROR or above from the
  ``discord`` or ``bot`` loggers (discord.py only logs exceptions raised in commands and views).
  A test that provokes an error on purpose reads and clears ``log_guard.take()``.
  (Not guarded: the ``asyncio`` logger, e.g. "Task exception was never retrieved" for tasks the
  bot starts itself; log such failures to a ``bot.*`` logger.)
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.e2e.fake_discord import FakeDiscord

GUARDED_LOGGERS = ("discord", "bot")


class LogGuard(logging.Handler):
    """Collects ERROR records from the guarded loggers."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        """Return the records so far and forget them (for tests that provoke errors on purpose)."""
        out, self.records = self.records, []
        return out

    def check(self) -> None:
        """Fail the running test if any ERROR record is left (the fixture calls this at teardown)."""
        if self.records:
            pytest.fail("ERROR log records during the test:\n" + self.describe(), pytrace=False)

    def describe(self) -> str:
        lines = []
        for r in self.records:
            text = f"{r.name}: {r.getMessage()}"
            if r.exc_info and r.exc_info[1] is not None:
                text += f" [{type(r.exc_info[1]).__name__}: {r.exc_info[1]}]"
            lines.append(text)
        return "\n".join(lines)


@pytest.fixture(autouse=True)
def log_guard() -> Iterator[LogGuard]:
    guard = LogGuard()
    loggers = [logging.getLogger(name) for name in GUARDED_LOGGERS]
    for lg in loggers:
        lg.addHandler(guard)
    try:
        yield guard
    finally:
        for lg in loggers:
            lg.removeHandler(guard)
    guard.check()


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    if fake.errors:
        pytest.fail("fake Discord errors:\n" + "\n".join(fake.errors), pytrace=False)
