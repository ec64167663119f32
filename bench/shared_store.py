"""Several processes on one database: python bench/shared_store.py [--games 200] [--seconds 20] [--render-workers 2]

200 Trans Europa games (3 seats each) are played at once, by the service itself (no Discord):
each game's seat to act sends a random legal move, then the process does what a board
post costs — claims the game's owed posts, draws the board PNG in its render pool and marks the
posts done — and the game's next move follows at once. The games are split over the processes as
shards would split them (game i to process i mod N); the render workers are split too, so every
configuration has the same total (at least one per process). Printed per configuration:
- moves per second, all processes together, over the measured seconds;
- board-post latency: from the move's call to its board PNG drawn (lock, apply, commit, claim,
  render), median and p95.
Configurations: 1 process on SQLite, and 1, 2 and 4 processes on PostgreSQL (a throwaway server,
tests/pg_server.py, or JUNCTION_BENCH_PG=postgresql://... of an admin user).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "trans_europa"
SEATS = 3
USER_BASE = 10_000


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


# ------------------------------------------------------------------------------------ setup


async def _create_games(db: str, games: int) -> list[int]:
    from bot.store import Store
    from bot.tables import Tables

    store = await Store.open(db)
    tables = Tables(store)
    try:
        ids = []
        for number in range(games):
            users = [USER_BASE + SEATS * number + s for s in range(SEATS)]
            info = await tables.create(GAME, guild_id=1, channel_id=1000 + number, user_id=users[0],
                                       user_name="P0", seat_order="join", seed=number, clock={"turn_hours": 0})
            for seat, user in enumerate(users[1:], start=1):
                await tables.join(info.row.id, user, f"P{seat}")
            await tables.start(info.row.id, users[0])
            ids.append(info.row.id)
        for game_id in ids:  # the opening posts are not part of the measure
            await store.posts_done([p.id for p in await store.pending_posts(game_id)])
        return ids
    finally:
        await store.close()


# ------------------------------------------------------------------------------------ worker


async def _worker(db: str, game_ids: list[int], seconds: float, render_workers: int) -> dict[str, Any]:
    from bot.render_pool import RenderPool
    from bot.store import Store
    from bot.tables import Refused, Tables

    store = await Store.open(db)
    tables = Tables(store)
    renderer = RenderPool(workers=render_workers)
    await renderer.warm_up()
    latencies: list[float] = []
    refused = 0
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)  # every process starts together
    started = time.perf_counter()
    stop_at = started + seconds

    async def play(game_id: int) -> None:
        nonlocal refused
        rng = random.Random(game_id)
        while time.perf_counter() < stop_at:
            began = time.perf_counter()
            info = await tables.info(game_id)
            if info.row.status != "running":
                return
            seat = info.to_act[0]
            user = info.seats[seat].user_id
            _, token, legal = await tables.legal_moves(game_id, user)
            if not legal:
                return
            move = rng.choice(legal)  # what the random AI would pick, as a player's click
            try:
                await tables.play(game_id, user, move, token=token)
            except Refused:
                refused += 1
                continue
            owed = await tables.claim_posts(game_id)
            if owed:
                view, names = await tables.public_view(game_id)
                await renderer.board(view, names)
                await tables.posts_done([p.id for p in owed])
                await tables.release_posts(game_id)
            latencies.append(time.perf_counter() - began)

    await asyncio.gather(*(play(g) for g in game_ids))
    elapsed = time.perf_counter() - started
    renderer.close()
    await store.close()
    return {"moves": len(latencies), "elapsed": elapsed, "latencies": latencies, "refused": refused}


def _worker_main(args: argparse.Namespace) -> None:
    ids = [int(i) for i in args.ids.split(",")]
    result = asyncio.run(_worker(args.db, ids, args.seconds, args.render_workers))
    print(json.dumps(result), flush=True)


# ------------------------------------------------------------------------------------ driver


def _run_config(db: str, processes: int, games: list[int], seconds: float, total_workers: int) -> dict[str, Any]:
    per_process = max(1, total_workers // processes)
    children = []
    for k in range(processes):
        mine = [g for i, g in enumerate(games) if i % processes == k]
        children.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", "--db", db, "--ids", ",".join(map(str, mine)),
             "--seconds", str(seconds), "--render-workers", str(per_process)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT))
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = []
    for child in children:
        out, _ = child.communicate(timeout=seconds + 120)
        results.append(json.loads(out.strip().splitlines()[-1]))
    latencies = [x for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    return {"moves_per_s": len(latencies) / elapsed, "median": statistics.median(latencies),
            "p95": _p95(latencies), "moves": len(latencies), "render_workers": per_process * processes,
            "refused": sum(r["refused"] for r in results)}


async def _fresh_pg(admin: str, name: str) -> str:
    from tests.pg_server import fresh_database

    return await fresh_database(admin, name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--render-workers", type=int, default=2, help="in all, split over the processes")
    parser.add_argument("--configs", default="sqlite:1,postgresql:1,postgresql:2,postgresql:4")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker_main(args)
        return

    import contextlib

    from tests.pg_server import throwaway_server

    configs = [(kind, int(n)) for kind, n in (c.split(":") for c in args.configs.split(","))]
    with contextlib.ExitStack() as stack:
        admin = os.environ.get("JUNCTION_BENCH_PG")
        if admin is None and any(kind == "postgresql" for kind, _ in configs):
            admin = stack.enter_context(throwaway_server(max_connections=300))
        print(f"{args.games} games of {GAME} ({SEATS} seats), {args.seconds:g} s each, "
              f"{args.render_workers} render workers in all; {os.cpu_count()} cores")
        for number, (kind, processes) in enumerate(configs):
            if kind == "sqlite":
                db = str(Path(tempfile.mkdtemp()) / "bench.db")
            else:
                db = asyncio.run(_fresh_pg(admin, f"junction_bench_{number}"))
            games = asyncio.run(_create_games(db, args.games))
            figures = _run_config(db, processes, games, args.seconds, args.render_workers)
            print(f"{kind:<10} {processes} process(es), {figures['render_workers']} render workers: "
                  f"{figures['moves_per_s']:6.1f} moves/s   board post median {1000 * figures['median']:7.0f} ms"
                  f"   p95 {1000 * figures['p95']:7.0f} ms   ({figures['moves']} moves, "
                  f"{figures['refused']} refused)", flush=True)


if __name__ == "__main__":
    main()
