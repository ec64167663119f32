"""A process that starts during a PostgreSQL outage (issue 29): the server goes down after the bot
opened its database and before Discord said READY, and stays down longer than the reads' own
retries. The AI turn a game owed from before the start is played once the server is back, its board
post is made, and the outage costs warnings only (no error, no traceback). On a server of its own,
which the test stops and starts."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.app import create_bot
from bot.store import Store
from bot.tables import Tables
from tests.bot import guess_game
from tests.pg_server import control, find_bin, fresh_database, throwaway_server

OUTAGE = 7.0  # seconds: longer than bot.db_outage's RETRY_DELAYS (about 4 s in all)


@pytest.fixture(scope="module")
def own_server(pg_server):
    assert find_bin() is not None
    with throwaway_server() as url:
        yield url


@pytest.mark.slow  # the outage lasts 7 s
async def test_an_ai_turn_owed_from_before_the_start_is_played_once_the_database_is_back(own_server, fake_discord,
                                                                                      caplog):
    fake = fake_discord
    url = await fresh_database(own_server, "junction_start_in_outage")
    ann, bob, channel = fake.add_user("Ann"), fake.add_user("Bob"), fake.channel("general")
    store = await Store.open(url)
    tables = Tables(store, games=guess_game.GAMES)
    info = await tables.create("guess", guild_id=fake.guild_id, channel_id=channel.id, user_id=ann.id,
                               user_name="Ann", seat_order="join", seed=9)
    game_id = info.row.id
    await tables.join(game_id, bob.id, "Bob")
    await tables.start(game_id, ann.id)
    # As if Bob's seat had been handed to the AI and the process died before the AI moved.
    seats = await store.seats(game_id)
    await store.replace_seats(game_id, [seats[0], type(seats[1])(1, None, "random", "Bob (AI)")])
    await store.posts_done([p.id for p in await store.pending_posts(game_id)])
    assert await store.games_owing_ai() == [game_id]
    await store.close()

    server = control(url)
    restarted = threading.Thread(target=lambda: (threading.Event().wait(OUTAGE), server.start()))
    bot = create_bot(url, games=guess_game.GAMES, board_renderer=guess_game.board, hand_renderer=guess_game.hand,
                     render_workers=0, **fake.bot_kwargs())
    setup = bot.setup_hook

    async def setup_then_outage() -> None:
        await setup()
        await asyncio.to_thread(server.stop)
        restarted.start()

    bot.setup_hook = setup_then_outage  # type: ignore[method-assign]
    try:
        await fake.start_bot(bot, timeout=30)
        posted = await fake.wait_for(lambda: [m for m in channel.messages if "move 1" in m.text], timeout=60,
                                     what="the AI's move posted once the server is back")
        assert len(posted) == 1
        assert [m.seat for m in await bot.store.moves(game_id)] == [1]
    finally:
        await asyncio.to_thread(restarted.join)
    assert "AI turns owed" in caplog.text or "resuming the games: the database is out of reach" in caplog.text
    assert "resuming the games again in" in caplog.text
