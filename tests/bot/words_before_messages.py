"""Make the database of tests/bot/data/words_before_messages.sql with the code from before messages.

Run it with the commit before messages on the path, so that Junction's own service writes the rows:

    git worktree add /tmp/old bc8fe81
    cd /tmp/old && PYTHONPATH=/tmp/old python /path/to/tests/bot/words_before_messages.py /tmp/old.db
    sqlite3 /tmp/old.db .dump > tests/bot/data/words_before_messages.sql

A game of each title with players named like catalog words ("Deck", "Score", "Round"), each stopped part way
with its posts owed (nothing sends them; in three games all but the last board post are marked sent and the
live post's words stored, as that release's delivery did), so the outbox, the board post's words and the DM
news hold English as that code wrote it; one player hands their seat to the AI, one concedes, one game is ended by an admin, one cancelled by its creator.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.store import Store
from bot.tables import Tables
from rules.registry import GAMES

DECK, SCORE, ROUND = 101, 102, 103
NAMES = {DECK: "Deck", SCORE: "Score", ROUND: "Round"}


async def play_humans(tables: Tables, game_id: int, humans: list[int], moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        info = await tables.info(game_id)
        if info.row.status != "running":
            return
        for user in humans:
            try:
                _, token, legal = await tables.legal_moves(game_id, user)
            except Exception:  # not this player's turn
                continue
            await tables.play(game_id, user, rng.choice(legal), token=token)
            break
        else:
            return


async def main(path: str) -> None:
    store = await Store.open(path)
    tables = Tables(store, games=GAMES)
    await tables.load()
    rng = random.Random(25)
    for number, key in enumerate(sorted(GAMES)):
        info = await tables.create(key, guild_id=1, channel_id=1000 + number, user_id=DECK, user_name="Deck",
                                   seed=2500 + number, seat_order="join")
        game_id = info.row.id
        await tables.join(game_id, SCORE, "Score")
        await tables.join(game_id, ROUND, "Round")
        if GAMES[key].max_players > 3:
            await tables.add_ai(game_id, DECK, "easy")
        await tables.start(game_id, DECK)
        await play_humans(tables, game_id, [DECK, SCORE, ROUND], 5 + number, rng)
        if number == 1:
            await tables.seat_to_ai(game_id, ROUND)
            await play_humans(tables, game_id, [DECK, SCORE], 4, rng)
        elif number == 2:
            await tables.concede(game_id, SCORE)
            await play_humans(tables, game_id, [DECK, ROUND], 4, rng)
        elif number == 3:
            await tables.end_by_admin(game_id)
        if number % 2 == 0:
            await sent_but_the_last(tables, game_id, 900_000 + number)
    # A running game its creator cancels: its last owed post is the bot's own line.
    info = await tables.create("ttr_cards", guild_id=1, channel_id=1005, user_id=DECK, user_name="Deck", seed=2505,
                               seat_order="join")
    await tables.join(info.row.id, SCORE, "Score")
    await tables.start(info.row.id, DECK)
    await play_humans(tables, info.row.id, [DECK, SCORE], 3, rng)
    await tables.cancel(info.row.id, DECK)
    await store.close()


async def sent_but_the_last(tables: Tables, game_id: int, message_id: int) -> None:
    """What that release's delivery stored after sending every owed post of the game but the last board post:
    the rows done, the live post's id and its words (bot/delivery/posts.py: {"lines", "through"})."""
    rows = await tables.owed_posts(game_id)
    boards = [r for r in rows if r.kind == "board"]
    sent = [r for r in rows if r.id < boards[-1].id]
    await tables.posts_done([r.id for r in sent])
    await tables.set_message(game_id, board_message_id=message_id)
    last = [r for r in sent if r.kind == "board"][-1]
    await tables.set_message(game_id, board_words={"lines": last.payload["lines"], "through": last.id})


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
