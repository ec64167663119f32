"""Several processes on one database: python bench/shared_store.py [--games 200] [--seconds 30] [--rate 4]

200 Trans Europa games (3 players each) are played at once by the service itself (no Discord).
A move is what the bot does for a `/play` click: the game's state, the player's legal moves, the
move with its interaction id; then the board post as bot/cogs/games.py's flush makes it: claim the
game's owed posts (if another process holds them, try again after 1 s, as the bot does), number the
batch, read the game and its public view, draw the board PNG in the render pool, store the post's
message id, mark the posts done, release the claim. (The DMs it owes are marked done unsent.) Every
game is loaded before the clock starts, as games in play are in a running bot.

The games are split over the processes as shards would split them (game i to process i mod N); the
render workers too, so every configuration has the same total (one per process at least).

Two modes, each configuration in the same run, in turns (`--rounds`), so a load that changes
during the run hits every configuration alike:
- `saturation`: every game sends its next move as soon as its last board is drawn: the most moves
  per second the configuration sustains (latency is then the queue of 200 games, not a wait);
- `offered`: the games together send `--rate` moves per second (a Poisson process: each game's
  moves come at random times at rate/games per second, the same times in every configuration); a
  move arriving while its game's previous one is in flight waits for it, and its latency counts from
  its arrival. This is the board-post latency at 200 active games.

Printed per run: moves per second (all processes together), board-post latency (from the move's
arrival to its post stored) median and p95, the CPU each move cost the bot processes, their render
workers and the PostgreSQL server, how busy the machine's cores were, and the load average.
Configurations: 1 process on SQLite, and 1, 2 and 4 processes on PostgreSQL (a throwaway server,
tests/pg_server.py, or JUNCTION_BENCH_PG=postgresql://... of an admin user; then the server's CPU
is not measured).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
CLAIM_RETRY = 1.0  # seconds: bot/cogs/games.py's _flush_later


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


# ------------------------------------------------------------------------------------ CPU


_TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()  # fields from the 3rd (state) on


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _cpu(pid: int, reaped: bool = False) -> float:
    """CPU seconds of a process (utime + stime), with its reaped children's if `reaped`."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if reaped else 0)
    return ticks / _TICK


def _tree_cpu(pid: int) -> float:
    """A server's CPU seconds: its own, its exited children's, its running children's."""
    return _cpu(pid, reaped=True) + sum(_cpu(child) for child in _children(pid))


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


async def _worker(args: argparse.Namespace) -> dict[str, Any]:
    from bot.render_pool import RenderPool
    from bot.store import Store
    from bot.tables import Refused, Tables

    game_ids = [int(i) for i in args.ids.split(",")]
    store = await Store.open(args.db)
    tables = Tables(store)
    renderer = RenderPool(workers=args.render_workers)
    for game_id in game_ids:
        await tables.info(game_id)  # loaded, as the games in play of a running bot are
    # Every render worker started and warm before the clock (the pool starts them on demand).
    view, names = await tables.public_view(game_ids[0])
    await asyncio.gather(*(renderer.board(view, names) for _ in range(2 * args.render_workers)))
    latencies: list[float] = []
    counts = {"refused": 0, "claim_retries": 0, "over": 0}
    lock_wait = [0.0]  # seconds spent waiting for game locks (the coordination between processes)
    game_lock = store.game_lock

    @contextlib.asynccontextmanager
    async def timed_lock(game_id: int, interaction_id: int | None = None):  # noqa: ANN202
        asked = time.perf_counter()
        async with game_lock(game_id, *(() if interaction_id is None else (interaction_id,))) as locked:
            lock_wait[0] += time.perf_counter() - asked
            yield locked

    store.game_lock = timed_lock  # type: ignore[method-assign]
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)  # every process starts together
    cpu_main, cpu_render = time.process_time(), sum(_cpu(c) for c in _children(os.getpid()))
    started = time.perf_counter()
    stop_at = started + args.seconds

    async def move_and_post(game_id: int, rng: random.Random, interaction: int) -> bool:
        """One move and its board post, as the bot makes them; False when the game cannot go on."""
        info = await tables.info(game_id)
        if info.row.status != "running":
            counts["over"] += 1
            return False
        user = info.seats[info.to_act[0]].user_id
        _, token, legal = await tables.legal_moves(game_id, user)
        try:
            await tables.play(game_id, user, rng.choice(legal), token=token, interaction_id=interaction)
        except Refused:
            counts["refused"] += 1
            return True
        while (owed := await tables.claim_posts(game_id)) is None:
            counts["claim_retries"] += 1
            await asyncio.sleep(CLAIM_RETRY)
        try:
            boards = [p for p in owed if p.kind == "board"]
            if boards:
                await store.claim_batch([p.id for p in boards])
                await tables.info(game_id)
                view, names = await tables.public_view(game_id)
                await renderer.board(view, names)
                await tables.set_message(game_id, board_message_id=interaction)
            await tables.posts_done([p.id for p in owed])
        finally:
            await tables.release_posts(game_id)
        return True

    async def play(game_id: int) -> None:
        rng = random.Random(game_id)
        interaction = game_id * 1_000_000
        if args.mode == "saturation":
            while time.perf_counter() < stop_at:
                began = time.perf_counter()
                interaction += 1
                if not await move_and_post(game_id, rng, interaction):
                    return
                latencies.append(time.perf_counter() - began)
            return
        # offered load: this game's moves arrive at random times (the same in every configuration)
        arrivals = random.Random(args.seed * 1_000_003 + game_id)
        at = started
        while True:
            at += arrivals.expovariate(args.rate / args.total_games)
            if at >= stop_at:
                return
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            interaction += 1
            if not await move_and_post(game_id, rng, interaction):
                return
            latencies.append(time.perf_counter() - at)

    await asyncio.gather(*(play(g) for g in game_ids))
    elapsed = time.perf_counter() - started
    cpu_main = time.process_time() - cpu_main
    cpu_render = sum(_cpu(c) for c in _children(os.getpid())) - cpu_render
    renderer.close()
    await store.close()
    return {"moves": len(latencies), "elapsed": elapsed, "latencies": latencies, **counts, "lock_wait": lock_wait[0],
            "cpu_main": cpu_main, "cpu_render": cpu_render}


# ------------------------------------------------------------------------------------ driver


def _run_config(db: str, processes: int, games: list[int], args: argparse.Namespace,
                server_pid: int | None) -> dict[str, Any]:
    per_process = max(1, args.render_workers // processes)
    children = []
    for k in range(processes):
        mine = [g for i, g in enumerate(games) if i % processes == k]
        children.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", "--db", db, "--ids", ",".join(map(str, mine)),
             "--seconds", str(args.seconds), "--render-workers", str(per_process), "--mode", args.mode,
             "--rate", str(args.rate), "--total-games", str(len(games)), "--seed", str(args.seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT))
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    server_cpu = _tree_cpu(server_pid) if server_pid else 0.0
    load_before = os.getloadavg()[0]
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = []
    for child in children:
        out, _ = child.communicate(timeout=args.seconds + 300)
        results.append(json.loads(out.strip().splitlines()[-1]))
    server_cpu = (_tree_cpu(server_pid) - server_cpu) if server_pid else None
    latencies = [x for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    moves = len(latencies)
    cpu = {"bot": sum(r["cpu_main"] for r in results), "render": sum(r["cpu_render"] for r in results),
           "server": server_cpu or 0.0}
    return {"moves_per_s": moves / elapsed, "median": statistics.median(latencies), "p95": _p95(latencies),
            "moves": moves, "render_workers": per_process * processes,
            "refused": sum(r["refused"] for r in results), "claim_retries": sum(r["claim_retries"] for r in results),
            "cpu_ms": {k: 1000 * v / max(1, moves) for k, v in cpu.items()}, "server_measured": server_cpu is not None,
            "busy": sum(cpu.values()) / (elapsed * (os.cpu_count() or 1)),
            "lock_ms": 1000 * sum(r["lock_wait"] for r in results) / max(1, moves),
            "load": (load_before, os.getloadavg()[0])}


async def _fresh_pg(admin: str, name: str) -> str:
    from tests.pg_server import fresh_database

    return await fresh_database(admin, name)


async def _server_pid(admin: str) -> int | None:
    """The postmaster's pid of a server on this machine (the parent of a backend)."""
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        fields = _stat(await conn.fetchval("SELECT pg_backend_pid()"))  # while the backend runs
    finally:
        await conn.close()
    return int(fields[1]) if fields else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--mode", choices=["saturation", "offered"], default="offered")
    parser.add_argument("--rate", type=float, default=4.0, help="offered mode: moves per second, all games together")
    parser.add_argument("--render-workers", type=int, default=2, help="in all, split over the processes")
    parser.add_argument("--configs", default="sqlite:1,postgresql:1,postgresql:2,postgresql:4")
    parser.add_argument("--rounds", type=int, default=1, help="run every configuration this many times, in turns")
    parser.add_argument("--seed", type=int, default=1, help="offered mode: seeds the arrival times")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--ids", help=argparse.SUPPRESS)
    parser.add_argument("--total-games", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(asyncio.run(_worker(args))), flush=True)
        return

    from tests.pg_server import throwaway_server

    configs = [(kind, int(n)) for kind, n in (c.split(":") for c in args.configs.split(","))]
    with contextlib.ExitStack() as stack:
        admin = os.environ.get("JUNCTION_BENCH_PG")
        server_pid = None
        if admin is None and any(kind == "postgresql" for kind, _ in configs):
            admin = stack.enter_context(throwaway_server(max_connections=300))
            server_pid = asyncio.run(_server_pid(admin))
        load = "offered " + f"{args.rate:g} moves/s" if args.mode == "offered" else "saturation"
        print(f"{args.games} games of {GAME} ({SEATS} players), {load}, {args.seconds:g} s per run, "
              f"{args.render_workers} render workers in all; {os.cpu_count()} cores; "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
        for round_number in range(args.rounds):
            for number, (kind, processes) in enumerate(configs):
                if kind == "sqlite":
                    db = str(Path(tempfile.mkdtemp()) / "bench.db")
                else:
                    db = asyncio.run(_fresh_pg(admin, f"junction_bench_{round_number}_{number}"))
                games = asyncio.run(_create_games(db, args.games))
                f = _run_config(db, processes, games, args, server_pid if kind == "postgresql" else None)
                cpu = f["cpu_ms"]
                server = f" + server {cpu['server']:4.1f}" if kind == "postgresql" and f["server_measured"] else ""
                print(f"{kind:<10} {processes} proc, {f['render_workers']} render: {f['moves_per_s']:6.2f} moves/s"
                      f"  post median {1000 * f['median']:6.0f} ms  p95 {1000 * f['p95']:6.0f} ms"
                      f"  | CPU ms/move: bot {cpu['bot']:4.1f} + render {cpu['render']:4.1f}{server};"
                      f" cores busy {100 * f['busy']:3.0f}%; game-lock wait {f['lock_ms']:5.1f} ms/move  | load {f['load'][0]:.1f}->{f['load'][1]:.1f}"
                      f"  ({f['moves']} moves, {f['refused']} refused, {f['claim_retries']} claim retries)",
                      flush=True)


if __name__ == "__main__":
    main()
