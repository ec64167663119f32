"""The words upgrade at the first start after migration 14 (bot/service/words_upgrade.py), on many games.

    PYTHONPATH=$PWD python bench/words_upgrade.py [--games 1500] [--postgresql]

Builds a database of N running games (the five titles in turn, 4 seats, two of them humans), each cut at a
random point of a whole game the easy AI played, whose stored words hold lines as the code before messages
wrote them (English with the names in it, which is `str()` of today's messages named: tests/bot/
test_words_upgrade.py checks that byte for byte against a database bc8fe81 wrote): the board post's summary
and lines, the last move's lines in board_words and in an owed board post, a seat's private news, and the
opening line. Then times `upgrade_words` from migration 14's list to the last game rewritten: on SQLite, and
with --postgresql on a throwaway PostgreSQL (tests/pg_server.py, or JUNCTION_BENCH_PG=postgresql://... of an
admin user) by one process's store and by two at once (each game done by one of them). Prints games, lines
rewritten, lines kept and seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service.words_upgrade import upgrade_words  # noqa: E402
from bot.store import Store  # noqa: E402
from rules.engine import name_seats, play_out  # noqa: E402
from rules.registry import GAMES  # noqa: E402

NAMES = ["Deck", "Score", "AI 1", "AI 2"]
SEATS = len(NAMES)


def template(key: str, seed: int) -> list[tuple[int, str]]:
    definition = GAMES[key]
    state = definition.new_game(SEATS, {}, seed)
    return play_out(state, {s: definition.ai("easy") for s in range(SEATS)})


def old_words(key: str, seed: int, moves: list[tuple[int, str]]) -> tuple[dict, list, list]:
    """post_words, board_words and an owed board post's lines as the code before messages wrote them."""
    definition = GAMES[key]
    state = definition.new_game(SEATS, {}, seed)
    said: list[tuple[list[str], dict[int, list[str]]]] = []
    for seat, notation in moves:
        public, private = [], {}
        for event in state.apply(seat, notation):
            line = name_seats(str(event.msg), NAMES)
            if event.seats is None:
                public.append(line)
            for s in event.seats or ():
                private.setdefault(s, []).append(line)
        said.append((public, private))
    opening = f"{definition.title} begins. Seats: {', '.join(NAMES)}."
    summary = [opening, *(line for public, _ in said[-3:-1] for line in public)]
    last = said[-1][0] if said else []
    news = {str(s): lines for _, private in said[-4:] for s, lines in private.items() if s < 2}
    return {"summary": summary, "lines": last, "news": news}, last, [*summary[-2:], *last]


async def build(store: Store, games: int, rng: random.Random) -> int:
    keys = sorted(GAMES)
    templates = {key: [(seed, template(key, seed)) for seed in (1, 2)] for key in keys}
    lines = 0
    now = time.time()
    async with store.db.transaction() as tx:
        for number in range(games):
            key = keys[number % len(keys)]
            seed, log = templates[key][number // len(keys) % 2]
            cut = rng.randrange(1, len(log))
            post, board, owed = old_words(key, seed, log[:cut])
            lines += len(post["summary"]) + len(post["lines"]) + sum(map(len, post["news"].values())) + len(board)
            lines += len(owed)
            rows = await tx.fetch(
                "INSERT INTO games (game_key, options, seed, status, channel_id, creator_id, created_at, updated_at,"
                " post_words, board_words) VALUES (?, '{}', ?, 'running', ?, 1, ?, ?, ?, ?) RETURNING id",
                (key, seed, 10_000 + number, now, now, json.dumps(post), json.dumps({"lines": board, "through": 0})))
            game_id = rows[0][0]
            await tx.executemany("INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
                                 [(game_id, s, 100 + s if s < 2 else None, None if s < 2 else "easy", NAMES[s])
                                  for s in range(SEATS)])
            await tx.executemany("INSERT INTO moves (game_id, n, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
                                 [(game_id, n, s, m, now) for n, (s, m) in enumerate(log[:cut])])
            await tx.execute("INSERT INTO outbox (game_id, kind, seat, payload, at) VALUES (?, 'board', NULL, ?, ?)",
                             (game_id, json.dumps({"lines": owed, "fresh": len(owed)}), now))
            await tx.execute("INSERT INTO words_upgrade (game_id) VALUES (?)", (game_id,))
    return lines


async def run(target: str, games: int, processes: int) -> None:
    store = await Store.open(target)
    others = [await Store.open(target) for _ in range(processes - 1)]
    try:
        lines = await build(store, games, random.Random(25))
        moves = (await store.db.fetch("SELECT count(*) FROM moves"))[0][0]
        start = time.perf_counter()
        reports = await asyncio.gather(*(upgrade_words(s) for s in (store, *others)))
        seconds = time.perf_counter() - start
        print(f"{'PostgreSQL' if target.startswith('postgresql') else 'SQLite'}, {processes} process(es): "
              f"{sum(r.games for r in reports)} games ({moves:,} moves, {lines:,} stored lines) upgraded in "
              f"{seconds:.1f} s ({seconds / games * 1000:.1f} ms a game); {sum(r.rewritten for r in reports):,} lines"
              f" rewritten, {sum(len(r.kept) for r in reports)} kept; games per process"
              f" {[r.games for r in reports]}")
    finally:
        for s in (store, *others):
            await s.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_500)
    parser.add_argument("--postgresql", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        await run(str(Path(scratch) / "junction.db"), args.games, 1)
    if args.postgresql:
        from tests.pg_server import fresh_database, throwaway_server

        async def on(admin: str) -> None:
            for processes in (1, 2):
                await run(await fresh_database(admin, f"junction_words_upgrade_{processes}"), args.games, processes)

        if os.environ.get("JUNCTION_BENCH_PG"):
            await on(os.environ["JUNCTION_BENCH_PG"])
        else:
            with throwaway_server() as admin:
                await on(admin)


if __name__ == "__main__":
    asyncio.run(main())
