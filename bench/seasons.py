"""Reliability, a season's standings and the idle-lobby look, on a large store, on SQLite and PostgreSQL.

    python bench/seasons.py [--games 100000] [--players 10000] [--lobbies 1000]

Writes `--games` finished 3-seat games among `--players` users straight into the tables (a tenth of them
with a seat left to the AI, some timeouts), a season's ratings for every player, and `--lobbies` open
lobbies, then times: `reliability(store, user)` (what /profile and a lobby's minimum ask; median of 50
players), a season's leaderboard of a title with every player rated (what `/leaderboard season:` and
`/season standings` read: the board's size, a player's own row and rank, a page in the middle; median of
20) and its podium (what the season's end posts), and `lobby_due_times(before=...)` (what each process looks at
every poll on a shared database; median of 20). PostgreSQL on a throwaway server (tests/pg_server.py),
or JUNCTION_BENCH_PG. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store import Store, stats  # noqa: E402
from bot.store.reliability import reliability  # noqa: E402
from bot.store.seasons import podium, start_season  # noqa: E402
from bot.tables import Tables  # noqa: E402

CHUNK = 5000


async def _insert(store: Store, sql: str, rows: list[tuple]) -> None:
    for start in range(0, len(rows), CHUNK):
        async with store.db.transaction() as tx:
            await tx.executemany(sql, rows[start:start + CHUNK])


async def _fill(store: Store, games: int, players: int, lobbies: int) -> int:
    rng = random.Random(26)
    now = time.time()
    game_rows, seat_rows, holder_rows, pref_rows = [], [], [], []
    for game_id in range(1, games + 1):
        users = rng.sample(range(1, players + 1), 3)
        game_rows.append((game_id, "trans_europa", "{}", 1, "over", "join", 1, 10_000 + game_id, users[0], now, now))
        left = rng.random() < 0.1
        for seat, user in enumerate(users):
            gone = left and seat == 2
            seat_rows.append((game_id, seat, None if gone else user, "normal" if gone else None, f"p{user}"))
            holder_rows.append((game_id, seat, 0, user, None))
            if gone:
                holder_rows.append((game_id, seat, 30, None, "normal"))
            timeouts = rng.choice((0, 0, 0, 1, 2))
            if timeouts or gone:
                pref_rows.append((game_id, seat, timeouts))
    for n in range(lobbies):
        game_id = games + 1 + n
        game_rows.append((game_id, "trans_europa", "{}", 1, "lobby", "join", 1 + n % 50, 20_000_000 + n, 1,
                          now - rng.random() * 6 * 86400, now - rng.random() * 6 * 86400))
    await _insert(store, "INSERT INTO games (id, game_key, options, seed, status, seat_order, guild_id, channel_id,"
                         " creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", game_rows)
    await _insert(store, "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)", seat_rows)
    await _insert(store, "INSERT INTO seat_holders (game_id, seat, from_n, user_id, ai_kind) VALUES (?, ?, ?, ?, ?)",
                  holder_rows)
    await _insert(store, "INSERT INTO seat_prefs (game_id, seat, timeouts_total) VALUES (?, ?, ?)", pref_rows)
    if store.dialect == "postgresql":
        async with store.db.transaction() as tx:
            await tx.fetch("SELECT setval('games_id_seq', (SELECT max(id) FROM games))")
    season = await start_season(store, 1, 4, 700)
    await _insert(store, "INSERT INTO ratings (scope, game_key, user_id, mu, sigma, games, last_game_id, updated_at)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  [(season.scope, "trans_europa", u, rng.gauss(25, 3), rng.uniform(2, 8),
                    stats.MIN_RATED_GAMES + rng.randint(0, 17), 1, now) for u in range(1, players + 1)])
    if store.dialect == "postgresql":
        await store.db.fetch("ANALYZE")
    return season.id


async def _season_board(store: Store, scope: str, user: int) -> list[stats.Standing]:
    """What a season's leaderboard reads: its size, the viewer's row and rank, a page in the middle."""
    total = await stats.board_size(store, scope, "trans_europa")
    await stats.standing_of(store, scope, "trans_europa", user)
    return await stats.board_page(store, scope, "trans_europa", total // stats.PAGE_SIZE // 2)


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


async def _measure(target: str, games: int, players: int, lobbies: int) -> dict[str, float]:
    store = await Store.open(target)
    try:
        started = time.perf_counter()
        season_id = await _fill(store, games, players, lobbies)
        filled = time.perf_counter() - started
        tables = Tables(store)
        rng = random.Random(5)
        times, records = [], []
        for user in rng.sample(range(1, players + 1), 50):
            started = time.perf_counter()
            records.append(await reliability(store, user))
            times.append(time.perf_counter() - started)
        assert sum(r.finished for r in records) and sum(r.abandoned for r in records)  # the query found games
        standings, podiums = [], []
        for user in rng.sample(range(1, players + 1), 20):
            started = time.perf_counter()
            rows = await _season_board(store, f"season:{season_id}", user)
            standings.append(time.perf_counter() - started)
            started = time.perf_counter()
            places = await podium(store, season_id, "trans_europa")
            podiums.append(time.perf_counter() - started)
        assert len(rows) == stats.PAGE_SIZE and places
        looks = []
        for _ in range(20):
            started = time.perf_counter()
            await tables.lobby_due_times(before=time.time() + 5)
            looks.append(time.perf_counter() - started)
        return {"fill s": round(filled, 1), "games per player": round(3 * games / players, 1),
                "reliability ms": _median_ms(times),
                "season leaderboard ms": _median_ms(standings), "season podium ms": _median_ms(podiums),
                "idle-lobby look ms": _median_ms(looks)}
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--lobbies", type=int, default=1_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print("sqlite", await _measure(os.path.join(folder, "bench.db"), args.games, args.players, args.lobbies))
    url = os.environ.get("JUNCTION_BENCH_PG")
    if url:
        print("postgresql", await _measure(url, args.games, args.players, args.lobbies))
        return
    from tests.pg_server import fresh_database, throwaway_server

    with throwaway_server() as admin:
        target = await fresh_database(admin, "junction_bench_seasons")
        print("postgresql", await _measure(target, args.games, args.players, args.lobbies))


if __name__ == "__main__":
    asyncio.run(main())
