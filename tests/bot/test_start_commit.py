"""A game's start, its opening post's words and its owed DM news are one commit (issue 29): a kill
right after the start leaves the first post with its opening lines."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store
from bot.tables import Tables
from bot.words import say
from tests.bot.guess_game import GAMES

ANN, BOB = 1, 2


async def test_a_kill_right_after_the_start_commit_keeps_the_opening_words(db_path):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    await tables.load()
    info = await tables.create("guess", guild_id=9, channel_id=50, user_id=ANN, user_name="Ann",
                               seat_order="join", options={"rounds": "1"})
    await tables.join(info.row.id, BOB, "Bob")
    commit = store.start_game

    async def start_then_die(*args, **kwargs):
        await commit(*args, **kwargs)
        raise asyncio.CancelledError  # the process is killed right after the start's commit

    store.start_game = start_then_die
    with pytest.raises(asyncio.CancelledError):
        await tables.start(info.row.id, ANN)
    await store.close()

    store = await Store.open(db_path)  # the next process on the same database
    try:
        tables = Tables(store, games=GAMES)
        await tables.load()
        assert (await tables.info(info.row.id)).row.status == "running"
        await tables.play(info.row.id, ANN, "bid 1")  # an edit of the opening post: Bob still bids
        boards = [p for p in await tables.owed_posts(info.row.id) if p.kind == "board"]
        names = (await tables.info(info.row.id)).names
        assert say(boards[0].payload["lines"][0], "en", names) == "Guess begins. Seats: Ann, Bob."
        # The edit shows the opening lines with Ann's bid, as it does without the kill.
        assert boards[-1].payload.get("edit") and [say(line, "en", names) for line in boards[-1].payload["lines"]] == [
            "Guess begins. Seats: Ann, Bob.", "Ann has bid."]
    finally:
        await store.close()
