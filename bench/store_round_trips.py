"""Database round trips per move, by step: python bench/store_round_trips.py [--games 5] [--moves 40]

Plays Trans Europa games through the service (bot/tables.py) the way the bot does for a `/play`
click (with its interaction id) and then sends the board post as bot/cogs/games.py's flush does
(claim the game's owed posts, number the batch, draw the board, store the post's message id, mark
the posts done, release the claim), and counts the database calls of each step:
- PostgreSQL: statements sent by asyncpg (each a round trip to the server: BEGIN, COMMIT and the
  pool's reset on release included; a pipelined executemany counts once);
- SQLite: calls into aiosqlite (each a hop to its thread; no network).
Printed: the mean per move of each step, steady state (the first move of each game, which loads
the game, is left out).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import os
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COUNTS: collections.Counter[str] = collections.Counter()


def _count(cls: type, names: list[str], key: str) -> None:
    for name in names:
        original = getattr(cls, name)

        def counted(self, *args, __original=original, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            COUNTS[key] += 1
            return __original(self, *args, **kwargs)

        setattr(cls, name, counted)


def _patch() -> None:
    import aiosqlite
    from asyncpg.connection import Connection

    _count(Connection, ["execute", "executemany", "fetch", "fetchval", "fetchrow"], "calls")
    _count(aiosqlite.Connection, ["execute", "executemany", "execute_fetchall", "commit", "rollback"], "calls")


async def _run(db: str, games: int, moves: int) -> dict[str, float]:
    from bench.shared_store import GAME, SEATS, _create_games
    from bot.store import Store
    from bot.tables import Tables

    ids = await _create_games(db, games)
    store = await Store.open(db)
    tables = Tables(store)
    per_step: collections.Counter[str] = collections.Counter()
    counted_moves = 0
    interaction = 10**15

    @contextlib.asynccontextmanager
    async def step(name: str, counting: bool):  # noqa: ANN202
        before = COUNTS["calls"]
        yield
        if counting:
            per_step[name] += COUNTS["calls"] - before

    try:
        for game_id in ids:
            rng = random.Random(game_id)
            for number in range(moves):
                counting = number > 0
                async with step("read: info", counting):
                    info = await tables.info(game_id)
                if info.row.status != "running":
                    break
                user = info.seats[info.to_act[0]].user_id
                async with step("read: legal moves", counting):
                    _, token, legal = await tables.legal_moves(game_id, user)
                interaction += 1
                async with step("play: lock, checks, commit", counting):
                    await tables.play(game_id, user, rng.choice(legal), token=token, interaction_id=interaction)
                async with step("post: claim", counting):
                    owed = await tables.claim_posts(game_id)
                assert owed is not None
                boards = [p for p in owed if p.kind == "board"]
                async with step("post: number the batch", counting):
                    if boards:
                        await store.claim_batch([p.id for p in boards])
                async with step("post: info + view", counting):
                    await tables.info(game_id)
                    await tables.public_view(game_id)
                async with step("post: store message id", counting):
                    await tables.set_message(game_id, board_message_id=game_id * 1000 + number)
                async with step("post: done + release", counting):
                    await tables.posts_done([p.id for p in owed])
                    await tables.release_posts(game_id)
                counted_moves += counting
    finally:
        await store.close()
    del GAME, SEATS
    result = {name: total / counted_moves for name, total in per_step.items()}
    result["total"] = sum(per_step.values()) / counted_moves
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    _patch()
    from tests.pg_server import fresh_database, throwaway_server

    results = {}
    results["sqlite"] = asyncio.run(_run(str(Path(tempfile.mkdtemp()) / "rt.db"), args.games, args.moves))
    with throwaway_server() as admin:
        url = asyncio.run(fresh_database(admin, "junction_round_trips"))
        results["postgresql"] = asyncio.run(_run(url, args.games, args.moves))
    steps = list(results["postgresql"])
    print(f"database calls per move ({args.games} games x {args.moves} moves, pid {os.getpid()}):")
    print(f"{'step':<30} {'SQLite':>8} {'PostgreSQL':>11}")
    for name in steps:
        print(f"{name:<30} {results['sqlite'].get(name, 0):8.1f} {results['postgresql'][name]:11.1f}")


if __name__ == "__main__":
    main()
