"""After a (re)start, posts a database outage kept from being sent stay owed, with a warning, not a bug's traceback."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from bot.db import DatabaseUnavailable
from bot.delivery.outbox import Delivery


async def test_an_outage_while_resuming_the_owed_posts_is_a_warning_and_the_next_game_is_still_sent(caplog):
    """Seen in CI (tests/e2e/test_shards.py, a server restart while a shard process started): the
    flush of the owed posts lost its connection; resume_all logged it as an error with a traceback.
    The posts stay owed (the shared upkeep sends them), and the next game's posts are still sent."""

    async def load() -> list[int]:
        return []

    async def owed_posts() -> list[SimpleNamespace]:
        return [SimpleNamespace(game_id=7), SimpleNamespace(game_id=8)]

    flushed: list[int] = []

    async def flush(game_id: int) -> None:
        flushed.append(game_id)
        if game_id == 7:
            raise DatabaseUnavailable("a transaction: InternalClientError: cannot switch to state 11")

    delivery = Delivery.__new__(Delivery)
    delivery.tables = SimpleNamespace(load=load, owed_posts=owed_posts)
    delivery.flush = flush  # type: ignore[method-assign]
    with caplog.at_level(logging.WARNING, logger="bot.games"):
        await delivery.resume_all()
    assert flushed == [7, 8]
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "game 7: the database is out of reach" in caplog.records[0].getMessage()
    assert caplog.records[0].exc_info is None
