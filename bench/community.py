"""/leaderboard, /profile and /history: their answer time with 100,000 finished games stored, on SQLite and PostgreSQL.

    python bench/community.py [--games 100000] [--players 10000] [--runs 7]

Writes `--games` finished 2-4 player games of the five titles, all on one server (the worst case for a
server's leaderboard and history), among `--players` users, in bulk (COPY on PostgreSQL): each with its
seats, seat holders, 30 moves an hour apart, a result with a score breakdown, and each player's rating
change in the server and global scopes; the ratings follow the changes (values from a random walk, not
openskill: the bench times the reads, and the rows have the shape and count the backfill writes). User 1
plays in 2% of the games (a heavy player: about 2,000 games), the others about 30 each.

Then times, median and max of `--runs`, in process, everything the command does before Discord is
answered: reading the store and composing the text (and drawing the chart for /profile):
/leaderboard of the busiest title (the first page for a player far down it, a page in the middle), /profile
of the heavy player and of a typical one (with a head-to-head), /history of the server (first and last page)
and of the heavy player. PostgreSQL on a throwaway server (tests/pg_server.py), or JUNCTION_BENCH_PG.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.backends import sqlite_and_postgresql  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.ui.history import show_history  # noqa: E402
from bot.ui.leaderboard import board_text  # noqa: E402
from bot.ui.profile import profile_answer  # noqa: E402
from rules.registry import GAMES  # noqa: E402

GUILD = 1
HEAVY = 1
KEYS = sorted(GAMES)
BATCH = 20_000


def _rows(games: int, players: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, in order of the games' ends (an hour apart... over the last years)."""
    rng = random.Random(26)
    start = time.time() - games * 1800.0
    tables: dict[str, list[tuple[Any, ...]]] = {name: [] for name in (
        "games", "seats", "seat_holders", "moves", "rated_games", "rating_changes")}
    ratings: dict[tuple[str, str, int], tuple[float, float, int, int]] = {}
    for game_id in range(1, games + 1):
        key = KEYS[game_id % len(KEYS)] if rng.random() > 0.4 else KEYS[0]  # the first title is the busiest
        count = rng.randint(2, 4)
        users = rng.sample(range(2, players + 1), count)
        if rng.random() < 0.02:
            users[0] = HEAVY
        rng.shuffle(users)
        began = start + game_id * 1800.0
        ended = began + 30 * 3600.0
        ranks = list(range(1, count + 1))
        rng.shuffle(ranks)
        result = {"seats": [{"seat": s, "score": 100 - 10 * r, "rank": r,
                             "breakdown": {"routes": 40 - r, "tickets": 30, "longest": 10, "stations": 8, "bonus": 2}}
                            for s, r in enumerate(ranks)], "labels": {}}
        tables["games"].append((game_id, key, "{}", game_id, "over", "join", GUILD, 10_000 + game_id % 50, None,
                                users[0], None, 900_000 + game_id, json.dumps(result), began, ended))
        for seat, user in enumerate(users):
            tables["seats"].append((game_id, seat, user, None, f"player {user}"))
            tables["seat_holders"].append((game_id, seat, 0, user, None))
        for n in range(30):
            tables["moves"].append((game_id, n, n % count, "pass", began + n * 3600.0))
        for scope in ("global", f"guild:{GUILD}"):
            tables["rated_games"].append((game_id, scope, 1, ended))
            for seat, user in enumerate(users):
                mu, sigma, played, _ = ratings.get((scope, key, user), (25.0, 25 / 3, 0, 0))
                after_mu = mu + (count + 1 - 2 * ranks[seat]) * sigma * 0.12
                after_sigma = max(sigma * 0.96, 1.0)
                ratings[(scope, key, user)] = (after_mu, after_sigma, played + 1, game_id)
                tables["rating_changes"].append((game_id, scope, user, key, ranks[seat], 1.0, mu, sigma, after_mu,
                                                 after_sigma, ended))
    tables["ratings"] = [(scope, key, user, mu, sigma, played, last, 0.0)
                         for (scope, key, user), (mu, sigma, played, last) in ratings.items()]
    return tables


COLUMNS = {
    "games": ("id", "game_key", "options", "seed", "status", "seat_order", "guild_id", "channel_id", "thread_id",
              "creator_id", "lobby_message_id", "board_message_id", "result", "created_at", "updated_at"),
    "seats": ("game_id", "seat", "user_id", "ai_kind", "name"),
    "seat_holders": ("game_id", "seat", "from_n", "user_id", "ai_kind"),
    "moves": ("game_id", "n", "seat", "notation", "at"),
    "rated_games": ("game_id", "scope", "rated", "applied_at"),
    "rating_changes": ("game_id", "scope", "user_id", "game_key", "rank", "weight", "mu_before", "sigma_before",
                       "mu", "sigma", "at"),
    "ratings": ("scope", "game_key", "user_id", "mu", "sigma", "games", "last_game_id", "updated_at"),
}


async def _fill(store: Store, tables: dict[str, list[tuple[Any, ...]]]) -> None:
    for name in ("games", "seats", "seat_holders", "moves", "rated_games", "rating_changes", "ratings"):
        rows = tables[name]
        for first in range(0, len(rows), BATCH):
            async with store.db.transaction() as tx:
                await tx.copy_rows(name, COLUMNS[name], rows[first:first + BATCH])
    async with store.db.transaction() as tx:
        await tx.follow_ids(("games",))
    if store.dialect == "postgresql":
        async with store.db.transaction() as tx:
            await tx.execute("ANALYZE")  # what autovacuum does after a bulk load; SQLite keeps no statistics unasked


class _Renderer:
    async def call(self, function: Any, *args: Any) -> Any:
        return await asyncio.to_thread(function, *args)


class _Response:
    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        self.sent = args

    def is_done(self) -> bool:
        return False


def _interaction(store: Store, user_id: int) -> Any:
    """What the commands read of an interaction: the client's store, registry and renderer, who asks, where."""
    client = SimpleNamespace(tables=SimpleNamespace(store=store, games=GAMES), renderer=_Renderer())
    return SimpleNamespace(client=client, guild_id=GUILD, user=SimpleNamespace(id=user_id), locale="en-US",
                           guild_locale=None, response=_Response(), extras={})


async def _timed(work: Any, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        await work()
        times.append(1000 * (time.perf_counter() - started))
    return statistics.median(times), max(times)


async def _measure(target: str, games: int, players: int, runs: int) -> dict[str, tuple[float, float]]:
    store = await Store.open(target)
    try:
        started = time.perf_counter()
        await _fill(store, _rows(games, players))
        print(f"  stored {games} games in {time.perf_counter() - started:.0f} s ({store.dialect})", flush=True)
        typical = (await store.db.fetch("SELECT user_id FROM seats WHERE game_id = 7"))[0][0]
        low = (await store.db.fetch(
            f"SELECT user_id FROM ratings WHERE scope = 'guild:{GUILD}' AND game_key = ? AND games >= 3"
            " ORDER BY mu - 3 * sigma LIMIT 1", (KEYS[0],)))[0][0]
        heavy, other = _interaction(store, HEAVY), _interaction(store, typical)
        member = SimpleNamespace(id=HEAVY)
        out = {
            "/leaderboard, first page, the viewer far down": await _timed(
                lambda: board_text(_interaction(store, low), KEYS[0], "server", 0, "en-US"), runs),
            "/leaderboard, a page in the middle": await _timed(
                lambda: board_text(other, KEYS[0], "server", 400, "en-US"), runs),
            "/leaderboard global, the viewer's own page": await _timed(
                lambda: board_text(heavy, KEYS[0], "global", None, "en-US"), runs),
            "/profile, the heavy player (~2,000 games)": await _timed(
                lambda: profile_answer(heavy, member, None, None, "en-US"), runs),
            "/profile, a typical player, head-to-head": await _timed(
                lambda: profile_answer(other, SimpleNamespace(id=typical), None, member, "en-US"), runs),
            "/history, the server's first page": await _timed(
                lambda: show_history(other, None, None, page=0), runs),
            "/history, the server's last page": await _timed(
                lambda: show_history(other, None, None, page=999_999), runs),
            "/history, the heavy player": await _timed(lambda: show_history(heavy, HEAVY, None, page=0), runs),
        }
        return out
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    lite, pg = sqlite_and_postgresql(lambda target: _measure(target, args.games, args.players, args.runs),
                                     "junction_bench_community")
    print(f"{args.games} finished games on one server, {args.players} players; ms, median / max of {args.runs}:")
    print(f"  {'':48} {'SQLite':>16} {'PostgreSQL':>16}")
    for name in lite:
        print(f"  {name:48} {lite[name][0]:7.1f} / {lite[name][1]:6.1f} {pg[name][0]:7.1f} / {pg[name][1]:6.1f}")


if __name__ == "__main__":
    main()
