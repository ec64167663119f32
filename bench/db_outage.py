"""Database outages under a playing bot: python bench/db_outage.py [--games 12] [--down 10] [--calm 5]

Three services ("processes": three stores, so three pairs of connection pools) on one throwaway
PostgreSQL server (tests/pg_server.py) play Trans Europa games (3 seats, random legal moves, each
move with its own interaction id, each to a service picked at random) without pause, as players
keep clicking. Meanwhile the server goes through these faults, one after the other, with `--calm`
seconds of play between them:

  restart    pg_ctl restart -m fast: every session terminated, a clean shutdown, a start
  terminate  pg_terminate_backend of every connection of the services, the server stays up
  down       pg_ctl stop -m fast, `--down` seconds without a server, then a start
  crash      pg_ctl stop -m immediate (no shutdown: crash recovery runs at the start), a start

Printed per fault: how long the server action took; the answers given from the fault's start until
the first move played after it, by kind (played; "can't reach its database ... nothing was
changed"; "cannot tell yet"; a read that failed before the move, which the bot answers with the
same "can't reach" line; anything else); the longest answer; and recovery: from the server
accepting connections again (pg_ctl returned) to the first move played. At the end every answer is
checked against the store: a move answered as played is stored with its interaction id, a move
answered "nothing was changed" is not.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "trans_europa"
SEATS = 3
SERVICES = 3


@dataclass
class Answer:
    asked: float
    answered: float
    kind: str  # played | down | unknown | read_failed | other
    interaction_id: int | None = None


async def _open_games(tables, games: int, base: int) -> list[int]:
    ids = []
    for number in range(games):
        users = [base + SEATS * number + s for s in range(SEATS)]
        info = await tables.create(GAME, guild_id=1, channel_id=base + number, user_id=users[0], user_name="P0",
                                   seat_order="join", seed=base + number, clock={"turn_hours": 0})
        for seat, user in enumerate(users[1:], start=1):
            await tables.join(info.row.id, user, f"P{seat}")
        await tables.start(info.row.id, users[0])
        ids.append(info.row.id)
    return ids


async def run(args: argparse.Namespace) -> None:
    from bot.db import DatabaseUnavailable
    from bot.store import Store
    from bot.tables import DB_DOWN, MOVE_UNKNOWN, Refused, Tables
    from tests.pg_server import control, fresh_database, throwaway_server

    with throwaway_server() as admin:
        db = await fresh_database(admin, "junction_bench_outage")
        # The throwaway server trades durability for speed (synchronous_commit=off): a crash would
        # lose commits already answered. A production server keeps the default, on; so does this one.
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute('ALTER DATABASE "junction_bench_outage" SET synchronous_commit = on')
        finally:
            await conn.close()
        server = control(db)
        stores = [await Store.open(db) for _ in range(SERVICES)]
        services = [Tables(store) for store in stores]
        for service in services:
            await service.load()
        game_ids = await _open_games(services[0], args.games, 1000)
        answers: list[Answer] = []
        stop = asyncio.Event()
        interactions = iter(range(10_000_000, 100_000_000))

        async def player(game_id: int) -> None:
            rng = random.Random(game_id)
            while not stop.is_set():
                service = rng.choice(services)
                asked = time.monotonic()
                interaction_id = None
                try:
                    info = await service.info(game_id)
                    if info.row.status != "running":
                        [game_id] = await _open_games(service, 1, 1000 + next(interactions) % 1_000_000)
                        continue
                    user = info.seats[info.to_act[0]].user_id
                    _, token, legal = await service.legal_moves(game_id, user)
                    interaction_id = next(interactions)
                    await service.play(game_id, user, rng.choice(legal), token=token, interaction_id=interaction_id)
                    kind = "played"
                except DatabaseUnavailable:
                    kind = "read_failed"
                except Refused as refused:
                    kind = {DB_DOWN: "down", MOVE_UNKNOWN: "unknown"}.get(refused.reason, "other")
                answers.append(Answer(asked, time.monotonic(), kind, interaction_id))
                await asyncio.sleep(args.pause)

        async def fault(name: str) -> None:
            await asyncio.sleep(args.calm)
            began = time.monotonic()
            if name == "restart":
                await asyncio.to_thread(server.restart, "fast")
            elif name == "terminate":
                conn = await asyncpg.connect(db)
                try:
                    await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                       " WHERE datname = current_database() AND pid <> pg_backend_pid()")
                finally:
                    await conn.close()
            else:
                await asyncio.to_thread(server.stop, "fast" if name == "down" else "immediate")
                if name == "down":
                    await asyncio.sleep(args.down)
                await asyncio.to_thread(server.start)
            back = time.monotonic()
            while not any(a.kind == "played" and a.asked >= back for a in answers):
                await asyncio.sleep(0.01)
            recovered = min(a.answered for a in answers if a.kind == "played" and a.answered >= back)
            window = [a for a in answers if began <= a.answered <= recovered]
            counts = {k: sum(1 for a in window if a.kind == k) for k in ("played", "down", "unknown",
                                                                         "read_failed", "other")}
            longest = max((a.answered - a.asked for a in window), default=0.0)
            print(f"{name:9} server action {back - began:5.2f} s | answers until recovered: "
                  + ", ".join(f"{k} {v}" for k, v in counts.items())
                  + f" | longest answer {longest:5.2f} s | recovery after the server was back {recovered - back:5.2f} s",
                  flush=True)

        players = [asyncio.create_task(player(g)) for g in game_ids]
        try:
            for name in args.faults.split(","):
                await fault(name)
            await asyncio.sleep(args.calm)
        finally:
            stop.set()
            await asyncio.gather(*players, return_exceptions=True)
        played = {a.interaction_id for a in answers if a.kind == "played"}
        not_played = {a.interaction_id for a in answers if a.kind == "down" and a.interaction_id is not None}
        stored = {r[0] for r in await stores[0]._db.fetch("SELECT interaction_id FROM interactions")}
        latencies = [a.answered - a.asked for a in answers if a.kind == "played"]
        print(f"moves answered: {len(answers)}, played {len(played)} (median answer"
              f" {1000 * statistics.median(latencies):.1f} ms); answered played but not stored:"
              f" {len(played - stored)}; answered 'nothing was changed' but stored: {len(not_played & stored)}")
        for store in stores:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--down", type=float, default=10.0, help="seconds without a server in the `down` fault")
    parser.add_argument("--calm", type=float, default=5.0, help="seconds of play before each fault")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between a game's moves")
    parser.add_argument("--faults", default="restart,terminate,down,crash")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
