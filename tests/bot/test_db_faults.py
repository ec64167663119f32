"""PostgreSQL connections lost under the service, as a restart, a failover or a reaper loses them:
a move committed before its lock's connection died is answered as played, a commit whose reply was
lost is decided by the stored interaction, a reminder fires once when its process loses the game's
lock mid-work, and a server restart under a running service costs no move.

A lost connection is made at an exact statement: the backend is terminated from another thread
while this event loop is blocked, so the client learns of it only when it sends that statement (as
when the server goes away between two statements). The tests run on a server of their own, which
they restart and stop.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from concurrent.futures import ThreadPoolExecutor

import asyncpg
import asyncpg.connection
import pytest

from bot.db import DatabaseUnavailable, track_writes, wrote
from bot.store import Store
from bot.tables import DB_DOWN, Refused, Tables
from tests.bot.test_deadlines import HOUR, SKIP_DEFINITION, Clock
from tests.pg_server import control, find_bin, fresh_database, throwaway_server

ANN, BOB = 1, 2
GAMES = {"guess": SKIP_DEFINITION}
_numbers = itertools.count(1)


@pytest.fixture(scope="module")
def own_server(pg_server):
    """A server for this module alone (the tests restart and stop it); `pg_server` first, for its
    skip or failure when PostgreSQL is not installed."""
    assert find_bin() is not None
    with throwaway_server() as url:
        yield url


@pytest.fixture
async def url(own_server):
    return await fresh_database(own_server, f"junction_faults_{next(_numbers)}")


@pytest.fixture
async def two(url):
    """Two services ("processes") on one database, with one clock."""
    clock = Clock()
    stores = [await Store.open(url), await Store.open(url)]
    services = [Tables(s, games=GAMES, now=clock) for s in stores]
    for service in services:
        await service.load()
    yield services[0], services[1], clock
    for s in stores:
        await s.close()


def kill_backend(url: str, pid: int) -> None:
    """Terminate a server process and wait until it is gone, blocking the calling event loop."""

    async def kill() -> None:
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT pg_terminate_backend($1, 5000)", pid)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, kill()).result()


class Cuts:
    """Loses the connection that sends a statement holding `text`, once: `before` the statement
    reaches the server (its backend is terminated first), or `after` it ran (its reply is lost)."""

    def __init__(self, url: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.url = url
        self.armed: tuple[str, str] | None = None
        self.fired = 0
        original = asyncpg.connection.Connection.execute
        cuts = self

        async def execute(conn, query, *args, **kwargs):
            armed = cuts.armed
            if armed is None or armed[1] not in query:
                return await original(conn, query, *args, **kwargs)
            cuts.armed, cuts.fired = None, cuts.fired + 1
            if armed[0] == "before":
                kill_backend(cuts.url, conn.get_server_pid())
                return await original(conn, query, *args, **kwargs)
            await original(conn, query, *args, **kwargs)
            conn.terminate()
            raise asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")

        monkeypatch.setattr(asyncpg.connection.Connection, "execute", execute)

    def before(self, text: str) -> None:
        self.armed = ("before", text)

    def after(self, text: str) -> None:
        self.armed = ("after", text)


@pytest.fixture
def cuts(url, monkeypatch):
    return Cuts(url, monkeypatch)


async def _started(a: Tables, b: Tables, turn_hours: int = 0) -> int:
    info = await a.create("guess", guild_id=9, channel_id=50, user_id=ANN, user_name="Ann", seat_order="join",
                          options={"rounds": 2}, clock={"turn_hours": turn_hours})
    await b.join(info.row.id, BOB, "Bob")
    await a.start(info.row.id, ANN)
    return info.row.id


async def _notations(service: Tables, game_id: int) -> list[str]:
    return [m.notation for m in await service.store.moves(game_id)]


async def test_a_move_committed_before_its_lock_connection_dies_is_answered_as_played(two, cuts):
    a, b, _ = two
    game_id = await _started(a, b)
    cuts.before("pg_advisory_unlock")  # the lock's connection dies as the move's lock is released
    outcome = await a.play(game_id, ANN, "bid 1", interaction_id=1001)
    assert cuts.fired == 1
    assert outcome.applied == ((0, "bid 1"),)
    assert await _notations(a, game_id) == ["bid 1"]
    # The lock died with its connection: the other process takes the game at once; and the process
    # that lost it plays on (the dead connection was not returned to its pool).
    assert (await b.play(game_id, BOB, "bid 2", interaction_id=1002)).applied[0] == (1, "bid 2")
    info = await a.info(game_id)
    user = info.seats[info.to_act[0]].user_id
    assert (await a.play(game_id, user, "pass", interaction_id=1003)).applied[0][1] == "pass"
    assert await _notations(b, game_id) == ["bid 1", "bid 2", "pass"]


async def test_a_commit_whose_reply_is_lost_is_answered_by_the_stored_interaction(two, cuts):
    a, b, _ = two
    game_id = await _started(a, b)
    cuts.after("COMMIT")  # committed on the server; the reply never reaches the process
    outcome = await a.play(game_id, ANN, "bid 1", interaction_id=2001)
    assert cuts.fired == 1 and outcome.applied == ((0, "bid 1"),)
    assert await _notations(a, game_id) == ["bid 1"]
    # Lost before the COMMIT reached the server: nothing was written, so the move is tried once
    # more (on a new connection, the game reloaded) and played, once.
    cuts.before("COMMIT")
    assert (await b.play(game_id, BOB, "bid 2", interaction_id=2002)).applied == ((1, "bid 2"),)
    assert cuts.fired == 2
    assert await _notations(a, game_id) == ["bid 1", "bid 2"]


async def _lock_holder(url: str, game_id: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                                   " AND objid = $1 AND classid = 0", game_id)
    finally:
        await conn.close()


async def test_a_reminder_fires_once_when_its_process_loses_the_lock_mid_work(two, url):
    a, b, clock = two
    game_id = await _started(a, b, turn_hours=24)
    await a.play(game_id, ANN, "bid 1")  # Bob's turn: his reminder is due at half time
    clock.advance(12)
    real_save = a.store.save_clock_state
    took_over = []

    async def save_after_losing_the_lock(*args, **kwargs):
        if not took_over:
            # A is about to write the reminder it owes; its lock connection dies first, and B, which
            # the scheduler woke as well, takes the game's lock and fires the reminder itself.
            kill_backend(url, await _lock_holder(url, game_id))
            took_over.append(await b.fire_due(game_id))
        return await real_save(*args, **kwargs)

    a.store.save_clock_state = save_after_losing_the_lock
    await a.fire_due(game_id)
    assert took_over and took_over[0].reminded == (1,)
    reminders = [p for p in await a.owed_posts(game_id) if p.kind == "remind"]
    assert [(p.seat, p.payload["deadline"]) for p in reminders] == [(1, clock() + 12 * HOUR)]
    assert await a.fire_due(game_id) is None and await b.fire_due(game_id) is None


async def test_a_server_restart_under_a_running_service_costs_no_move(two, url):
    a, b, _ = two
    game_id = await _started(a, b)
    await a.play(game_id, ANN, "bid 1", interaction_id=3001)
    # The server restarts while the process is busy (the loop does not run meanwhile): every pooled
    # connection is stale, and the process learns it only when it uses one.
    control(url).restart()
    assert (await a.play(game_id, BOB, "bid 2", interaction_id=3002)).applied[0] == (1, "bid 2")
    info = await b.info(game_id)
    user = info.seats[info.to_act[0]].user_id
    assert (await b.play(game_id, user, "pass", interaction_id=3003)).applied[0][1] == "pass"
    assert await _notations(a, game_id) == ["bid 1", "bid 2", "pass"]
    assert await a.open_game_at(50) == game_id


async def test_an_outage_is_answered_in_one_line_and_play_resumes_when_the_server_is_back(two, url):
    a, b, _ = two
    game_id = await _started(a, b)
    server = control(url)
    server.stop()
    try:
        started = time.monotonic()
        with pytest.raises(Refused) as refused:
            await a.play(game_id, ANN, "bid 1", interaction_id=4001)
        assert str(refused.value.reason) == DB_DOWN
        assert time.monotonic() - started < 15  # tried again for a few seconds, then answered
    finally:
        server.start()
    assert (await a.play(game_id, ANN, "bid 1", interaction_id=4002)).applied == ((0, "bid 1"),)
    assert await _notations(b, game_id) == ["bid 1"]


async def test_an_interaction_that_wrote_before_the_outage_is_not_told_nothing_was_changed(two, url):
    """What decides between "nothing was changed" and "cannot tell yet" (bot.cogs.answer_failure):
    the writes committed since the interaction began, in its task and those it started."""
    a, b, _ = two
    track_writes()
    await a.store.games_with_status("lobby")
    assert not wrote()
    info = await asyncio.ensure_future(a.create("guess", guild_id=9, channel_id=77, user_id=ANN, user_name="Ann",
                                                 seat_order="join"))
    assert wrote()  # committed in a task the interaction started
    control(url).stop()
    try:
        with pytest.raises(DatabaseUnavailable) as lost:
            await b.join(info.row.id, BOB, "Bob")
    finally:
        control(url).start()
    assert lost.value.committed is False and lost.value.waited  # this call wrote nothing, the lobby stays


async def test_a_game_loaded_while_another_process_moves_never_rolls_its_snapshot_back(two):
    """A copy is loaded outside the game's lock (a board, a status): the log, then the snapshot. A
    move committed between the two reads looks like a snapshot out of step with the log; the
    repair that rewrites the snapshot from the log must not write the older state over it."""
    a, b, _ = two
    game_id = await _started(a, b)
    await a.play(game_id, ANN, "bid 1")
    real_moves = b.store.moves

    async def moves_then_another_process_moves(game: int):
        read = await real_moves(game)
        b.store.moves = real_moves
        await a.play(game_id, BOB, "bid 2")  # commits between B's two reads
        return read

    b.store.moves = moves_then_another_process_moves
    await b.info(game_id)
    assert (await a.store.snapshot(game_id))[0] == 2 == len(await a.store.moves(game_id))
    info = await b.info(game_id)  # B's copy is older than the store: reloaded on its next use
    user = info.seats[info.to_act[0]].user_id
    assert (await b.play(game_id, user, "pass")).applied[0][1] == "pass"
    assert await _notations(a, game_id) == ["bid 1", "bid 2", "pass"]
