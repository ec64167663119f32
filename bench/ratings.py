"""Ratings: the backfill's pace, one game's update at its end, and the sweep's query, on SQLite and PostgreSQL.

    python bench/ratings.py [--games 2000] [--players 200]

Stores `--games` finished 2-4 player games among `--players` users (written straight through the
store: a start and one batch of moves each, no engine), then times: the backfill of them all
(`apply_pending`, games per second), `apply_game` of one more game at its end (median of 50, the
time a game's last move waits for it), and `pending_games` with every game rated (what the shared
upkeep runs each poll: games ended in the last 24 h; the stored games ended over the last 60 days). PostgreSQL on a throwaway server (tests/pg_server.py), or JUNCTION_BENCH_PG.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.backends import sqlite_and_postgresql  # noqa: E402
from bot import rating_store  # noqa: E402
from bot.store import SeatRow, Store  # noqa: E402


async def _finished_game(store: Store, rng: random.Random, players: int, channel: int) -> int:
    count = rng.randint(2, 4)
    users = rng.sample(range(1, players + 1), count)
    game_id = await store.create_game("trans_europa", {}, 1, guild_id=rng.choice((1, 2)), channel_id=channel,
                                      thread_id=None, creator_id=users[0], seat_order="join")
    seats = [SeatRow(i, u, None, f"p{u}") for i, u in enumerate(users)]
    await store.start_game(game_id, seats, {}, [])
    moves = [(i % count, "pass") for i in range(40)]
    ranks = list(range(1, count + 1))
    rng.shuffle(ranks)
    result = {"seats": [{"seat": s, "score": 10 - r, "rank": r} for s, r in enumerate(ranks)]}
    await store.record_moves(game_id, 0, moves, {}, [], status="over", result=result)
    return game_id


async def _measure(target: str, games: int, players: int) -> dict[str, float]:
    store = await Store.open(target)
    try:
        rng = random.Random(26)
        real = rating_store.apply_game
        now = time.time()
        for n in range(games):  # ended over the last 60 days, oldest first
            store.now = lambda n=n: now - 60 * 86400 * (1 - n / games)
            await _finished_game(store, rng, players, 1000 + n)
        store.now = time.time
        started = time.perf_counter()
        applied = await rating_store.apply_pending(store)
        backfill = time.perf_counter() - started
        assert applied == games
        one = []
        for n in range(50):
            game_id = await _finished_game(store, rng, players, 500_000 + n)
            started = time.perf_counter()
            await real(store, game_id)
            one.append(time.perf_counter() - started)
        sweep = []
        for _ in range(20):
            started = time.perf_counter()
            assert await rating_store.pending_games(store, ended_since=store.now() - 86400) == []
            sweep.append(time.perf_counter() - started)
        return {"backfill_per_s": games / backfill, "backfill_s": backfill,
                "apply_ms": 1000 * statistics.median(one), "apply_max_ms": 1000 * max(one),
                "sweep_ms": 1000 * statistics.median(sweep)}
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=200)
    args = parser.parse_args()
    lite, pg = sqlite_and_postgresql(lambda target: _measure(target, args.games, args.players),
                                     "junction_bench_ratings")
    print(f"{args.games} finished games, {args.players} players:")
    for name, figures in (("SQLite", lite), ("PostgreSQL", pg)):
        print(f"  {name:10} backfill {figures['backfill_per_s']:.0f} games/s ({figures['backfill_s']:.1f} s);"
              f" one game at its end {figures['apply_ms']:.1f} ms median, {figures['apply_max_ms']:.1f} ms max;"
              f" sweep query {figures['sweep_ms']:.1f} ms")


if __name__ == "__main__":
    main()
