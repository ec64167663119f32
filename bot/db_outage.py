"""What a lost or refused database connection means: work tried again where that is safe, else DatabaseUnavailable; the writes an interaction committed.

A lost PostgreSQL connection (a restart, a failover, a terminated backend) is tried again where
that is safe and otherwise raised as DatabaseUnavailable, which says whether the work may have
been committed (docs/operating-database.md). bot.db re-exports these names.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import TypeVar

log = logging.getLogger("bot.db")
T = TypeVar("T")

# Whether the work of the current interaction has committed a write yet (a holder set by
# `track_writes` at its start, shared with the tasks it spawns): a failure after one must not say
# "nothing was changed".
_WRITES: ContextVar[list[bool] | None] = ContextVar("junction_writes", default=None)


def track_writes() -> None:
    """From now on, in this task and those it starts, note the writes committed (`wrote`)."""
    _WRITES.set([False])


def wrote() -> bool:
    """Whether a write was committed since `track_writes` (False when nothing tracks them)."""
    holder = _WRITES.get()
    return holder is not None and holder[0]


# What to do before waiting for a database that cannot be reached (set per interaction: defer it,
# so that the answer may come after Discord's 3 s).
_ON_WAIT: ContextVar[Callable[[], Awaitable[None]] | None] = ContextVar("junction_on_wait", default=None)


def on_wait(callback: Callable[[], Awaitable[None]] | None) -> None:
    """In this task and those it starts, `callback()` runs before `retrying` waits (each time)."""
    _ON_WAIT.set(callback)


def _note_write() -> None:
    holder = _WRITES.get()
    if holder is not None:
        holder[0] = True


# Waits between tries of an operation that is safe to try again (a read, a lock, an idempotent
# write, a BEGIN) when the database cannot be reached: about 4 s in all, which covers a fast restart
# of PostgreSQL and the stale pooled connections it leaves; a longer outage is reported.
RETRY_DELAYS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0)


class DatabaseUnavailable(Exception):
    """The database could not be reached, or the connection was lost during the work.

    `committed` says what became of the work: False, nothing was written (the failure came before
    the commit); None, unknown (the connection was lost during COMMIT): only the stored data can tell.
    `waited`: the work was tried again for a while already (`retrying`), in vain: an outage, not a blip.
    """

    def __init__(self, message: str, committed: bool | None = False, waited: bool = False) -> None:
        super().__init__(message)
        self.committed = committed
        self.waited = waited


def is_disconnect(error: BaseException) -> bool:
    """Whether `error`, raised by asyncpg, means the server could not be reached or the connection
    was lost (refused, reset, terminated, shutting down or starting up), rather than a refusal of the
    statement itself."""
    if isinstance(error, (OSError, TimeoutError)):  # refused, reset, unreachable, connect timeout
        return True
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is installed with the bot
        return False
    if isinstance(error, asyncpg.InterfaceError):
        return "connection is closed" in str(error) or "connection was closed" in str(error)
    return isinstance(error, (
        asyncpg.PostgresConnectionError,  # ConnectionDoesNotExistError and the other lost connections
        asyncpg.InternalClientError,  # a protocol state broken by a connection lost mid-message
        asyncpg.CannotConnectNowError, asyncpg.AdminShutdownError, asyncpg.CrashShutdownError,
        asyncpg.IdleSessionTimeoutError, asyncpg.TooManyConnectionsError))


async def retrying(what: str, work: Callable[[], Awaitable[T]]) -> T:
    """`work()`, tried again after each lost or refused connection (RETRY_DELAYS); then
    DatabaseUnavailable. Only for work that may safely run twice."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return await work()
        except Exception as error:
            if not is_disconnect(error):
                raise
            if delay is None:
                raise DatabaseUnavailable(f"{what}: {type(error).__name__}: {error}", waited=True) from error
            log.info("%s: the database connection failed (%s: %s); trying again in %s s",
                     what, type(error).__name__, error, delay)
        before_waiting = _ON_WAIT.get()
        if before_waiting is not None:
            await before_waiting()
        await asyncio.sleep(delay)
    raise AssertionError("unreachable")
