"""Random tables with restarts and racing clicks: the log always replays to the snapshot.

JUNCTION_FUZZ_GAMES sets the number of games (default 20).
"""

from __future__ import annotations

import asyncio
import os
import random

from bot.store import Store
from bot.tables import Refused, Tables
from rules.engine import replay
from tests.bot.guess_game import DEFINITION, GAMES

GAMES_TO_PLAY = int(os.environ.get("JUNCTION_FUZZ_GAMES", "20"))


async def test_random_tables_survive_restarts_and_races(tmp_path):
    db_path = str(tmp_path / "fuzz.db")
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    for game_number in range(GAMES_TO_PLAY):
        rng = random.Random(game_number)
        humans = list(range(100, 100 + rng.randint(1, 3)))
        info = await tables.create("guess", guild_id=1, channel_id=game_number, user_id=humans[0], user_name="P0",
                                   options={"rounds": rng.randint(1, 2), "span": rng.choice([3, 30])},
                                   seat_order=rng.choice(["join", "shuffle"]), seed=game_number)
        game_id = info.row.id
        for user in humans[1:]:
            await tables.join(game_id, user, f"P{user}")
        while len((await tables.info(game_id)).seats) < 2 or rng.random() < 0.3:
            if len((await tables.info(game_id)).seats) == 4:
                break
            await tables.add_ai(game_id, humans[0])
        await tables.start(game_id, humans[0])
        for _ in range(400):
            info = await tables.info(game_id)
            if info.row.status != "running":
                break
            if rng.random() < 0.1:  # restart: a new service on the same file
                await store.close()
                store = await Store.open(db_path)
                tables = Tables(store, games=GAMES)
                await tables.load()
                continue
            seat = rng.choice(info.to_act)
            user = info.seats[seat].user_id
            _, token, legal = await tables.legal_moves(game_id, user)
            move = rng.choice(legal) if rng.random() < 0.8 else rng.choice(["bid 9", "guess s9 1", "pass", "x"])
            clicks = [tables.play(game_id, user, move, token=token) for _ in range(rng.choice([1, 2]))]
            clicks.append(tables.play(game_id, rng.choice(humans + [999]), rng.choice(legal)))
            results = await asyncio.gather(*clicks, return_exceptions=True)
            for result in results:
                assert isinstance(result, Refused) or not isinstance(result, Exception), result
            applied_mine = [r for r in results[:-1] if not isinstance(r, Exception)]
            assert len(applied_mine) <= 1  # racing clicks with one token apply at most once
        row = (await tables.info(game_id)).row
        assert row.status == "over"
        moves = await store.moves(game_id)
        played = [(m.seat, m.notation) for m in moves]
        n, data = await store.snapshot(game_id)
        assert n == len(played)
        assert replay(DEFINITION, len((await tables.info(game_id)).seats), row.options, row.seed, played) \
            == DEFINITION.from_json(data)
    await store.close()
