"""After a (re)start, posts a database outage kept from being sent stay owed, with a warning, not a bug's traceback."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from bot.db import DatabaseUnavailable
from bot.delivery.outbox import Delivery


async def test_an_outage_while_resuming_the_owed_posts_is_a_warning_and_the_next_game_is_still_sent(caplog):
    """Seen in CI (tests/e2e/test_shards.py, a server restart while a shard process started): the
    flush of the owed posts lost its connection; resume_all logged it as an error with a traceback.
    The posts stay owed (tried again later, as the shared upkeep would), and the next game's posts are
    still sent."""

    async def owing_ai() -> list[int]:
        return []

    async def owed_posts() -> list[SimpleNamespace]:
        return [SimpleNamespace(game_id=7), SimpleNamespace(game_id=8)]

    flushed: list[int] = []

    async def flush(game_id: int) -> None:
        flushed.append(game_id)
        if game_id == 7:
            raise DatabaseUnavailable("a transaction: InternalClientError: cannot switch to state 11")

    delivery = Delivery.__new__(Delivery)
    delivery.bot = SimpleNamespace(is_closed=lambda: True)  # the try again later: not in this test
    delivery.tables = SimpleNamespace(owing_ai=owing_ai, owed_posts=owed_posts)
    delivery.flush = flush  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="bot.games"):
        await delivery.resume_all()
    assert flushed == [7, 8]
    assert [r.levelno for r in caplog.records] == [logging.WARNING, logging.WARNING]
    assert "game 7: the database is out of reach" in caplog.records[0].getMessage()
    assert "resuming the games again in 1.0 s" in caplog.records[1].getMessage()
    assert all(r.exc_info is None for r in caplog.records)


async def test_an_outage_longer_than_the_reads_retries_at_the_start_is_tried_again_until_the_ai_has_moved(
        caplog, monkeypatch):
    """A process that starts during a database outage: reading the games that owe an AI turn fails
    (the reads gave up after their own retries), then resuming that game's AI turn fails. Nothing
    else would ever play that turn (the shared upkeep sends owed posts and schedules clocks): the
    game would wait for its AI until the next restart. resume_all tries again later until done,
    with a warning each time and no traceback."""
    import asyncio

    from bot.delivery import outbox

    monkeypatch.setattr(outbox, "RETRY_DELAYS", (0.01, 0.02))
    calls: list[str] = []
    failures = {"owing": 1, "resume": 1}

    def fail(what: str) -> None:
        calls.append(what)
        if failures[what]:
            failures[what] -= 1
            raise DatabaseUnavailable(f"{what}: ConnectionRefusedError", waited=True)

    async def owing_ai() -> list[int]:
        fail("owing")
        return [5]

    async def resume(game_id: int) -> None:
        fail("resume")

    async def owed_posts() -> list[SimpleNamespace]:
        calls.append("owed")
        return [SimpleNamespace(game_id=5)] if "owed" not in calls[:-1] else []

    flushed: list[int] = []

    async def flush(game_id: int) -> None:
        flushed.append(game_id)

    delivery = Delivery.__new__(Delivery)
    delivery.bot = SimpleNamespace(is_closed=lambda: False)
    delivery.tables = SimpleNamespace(owing_ai=owing_ai, resume=resume, owed_posts=owed_posts)
    delivery._flushing = set()
    delivery.flush = flush  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="bot.games"):
        await delivery.resume_all()
        for _ in range(100):
            if calls.count("resume") == 2:
                break
            await asyncio.sleep(0.01)
        await delivery.drain()
    assert calls == ["owing", "owing", "resume", "owed", "owing", "resume", "owed"]
    assert flushed == [5]
    assert all(r.levelno == logging.WARNING and r.exc_info is None for r in caplog.records)
    assert "AI turns owed by game 5: the database is out of reach" in caplog.text


async def test_the_clocks_start_even_when_resuming_the_games_fails(caplog):
    """on_ready: whatever resume_all meets, the clock scheduler still starts (a deadline must not
    wait for the next restart)."""
    from bot.app import JunctionBot

    started: list[str] = []

    async def resume_all() -> None:
        raise RuntimeError("a bug")

    async def rate_pending() -> int:
        return 0

    bot = JunctionBot.__new__(JunctionBot)
    bot._connection = SimpleNamespace(application_id=None)
    bot._resumed = False
    bot.delivery = SimpleNamespace(resume_all=resume_all)
    bot.scheduler = SimpleNamespace(start=lambda: started.append("clocks"))
    bot.store = SimpleNamespace(shared=False)
    bot.tables = SimpleNamespace(rate_pending=rate_pending)
    with caplog.at_level(logging.ERROR, logger="bot.app"):
        await bot.on_ready()
    await bot._rating_sweep
    assert started == ["clocks"]
    assert "resuming the games after the start failed" in caplog.text
