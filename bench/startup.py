"""Startup bench: python bench/startup.py [--rebuild] [--games N] [--postgresql] — the real bot on 10,000 (or N)
stored games, against the fake Discord, on SQLite or (--postgresql) PostgreSQL.

The database holds 10,000 games in the real schema (migrations run by `Store.open`): 500 running
with turn timers (clock rows as the store writes them), 1,000 running without timers, 500 lobbies
and 8,000 finished games, spread over every game of `rules.registry.GAMES`. A few template games
per engine are played by the greedy AI and written through the store's own API into a scratch
database; the 10,000 games are then copied from those rows with plain SQL (new ids, channels,
players, times), so every snapshot, seat and move is one the store wrote. The built file is
cached under /tmp (keyed by VERSION and the number of games); --rebuild builds it anew. --games N
scales every kind of game of the plan by N / 10,000. --postgresql copies the built file into a fresh
database of a throwaway PostgreSQL server (tests/pg_server.py, or JUNCTION_BENCH_PG=postgresql://...
of an admin user) with the store's own copy (what `python -m bot migrate-db` does), timed, and starts
the bot on that.

Measured (the bot's clock is injected and fixed, so no deadline is due during the run):
- start_bot() -> READY (login, setup_hook: migrations, index, deadlines, command sync, workers);
- READY -> first answer of `/game status` in a channel with a stored running game, sent at READY;
- then clicks on the persistent "Take turn" / "My hand" buttons of another stored running game;
- READY -> the bot's on_ready work done (resume_all, then the scheduler starts);
- game states in memory (`bot.tables.loaded()`), deadlines scheduled, RSS (VmRSS) in MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import create_bot  # noqa: E402
from bot.store import STAND_IN_KEY, ClockRow, SeatRow, Store  # noqa: E402
from bot.tables import Tables, reminder_points  # noqa: E402
from rules.engine import play_out  # noqa: E402
from rules.registry import GAMES  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeMessage  # noqa: E402

VERSION = "startup-v3"  # change when the layout of the built database changes
TOTAL = 10_000
PLAN = {"running_timer": 500, "running": 1_000, "lobby": 500, "over": 8_000}
TEMPLATE_SEEDS = 4  # template games per engine and status
NOW = 1_780_000_000.0  # the bot's fixed clock (epoch seconds); every stored time lies before it
TURN_HOURS = 24
CACHE_DIR = Path(tempfile.gettempdir())
SYNTHETIC = 900_000_000_000_000_000  # base of made-up snowflakes (guilds, channels, users, messages)
ANSWER_TIMEOUT = 60.0


# ---------------------------------------------------------------------------------------- memory

def _rss_mb(pid: int | str = "self") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            children = Path(f"/proc/{pid}/task/{tid}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *_descendants(child)]
    return found


def _children_rss_mb() -> float:
    """RSS of our child processes (the render pool's forkserver and workers)."""
    return sum(_rss_mb(pid) for pid in _descendants(os.getpid()))


# ---------------------------------------------------------------------------------------- build

def _play(key: str, seats: int, seed: int, moves: int | None) -> tuple[Any, list[tuple[int, str]]]:
    """A game of `key` after `moves` greedy-AI moves (None: to the end), and the moves played."""
    definition = GAMES[key]
    state = definition.new_game(seats, definition.resolve_options(None), seed)
    brain = definition.ai("greedy")
    played = play_out(state, dict.fromkeys(range(seats), brain), max_moves=100_000 if moves is None else moves)
    return state, played


async def _write_templates(path: str) -> None:
    """Template games of every engine, written through the store's API (as the bot writes them)."""
    store = await Store.open(path)
    clock = [NOW - 40 * 86400]
    store.now = lambda: clock[0]
    try:
        channel = 1
        for key, definition in GAMES.items():
            low, high = max(2, definition.min_players), min(4, definition.max_players)
            for seed in range(TEMPLATE_SEEDS):
                seats_n = low + seed % (high - low + 1)
                for status in ("lobby", "running", "over"):
                    channel += 1
                    users = [SYNTHETIC + 1000 + i for i in range(seats_n)]
                    game_id = await store.create_game(
                        key, definition.resolve_options(None), seed, guild_id=SYNTHETIC, channel_id=channel,
                        thread_id=None, creator_id=users[0], seat_order="join",
                        first_seat=(users[0], None, "P0"))
                    seats = [SeatRow(i, u, None, f"P{i}") for i, u in enumerate(users)]
                    if status == "lobby":
                        await store.replace_seats(game_id, seats)
                        continue
                    start = definition.new_game(seats_n, definition.resolve_options(None), seed)
                    await store.start_game(game_id, seats, start.to_json(), [], to_act=start.to_act())
                    state, played = _play(key, seats_n, seed, None if status == "over" else 4 + 9 * seed)
                    clock[0] += 3600
                    result = state.result()
                    await store.record_moves(game_id, 0, played, state.to_json(), [],
                                             status="over" if state.is_over() else "running",
                                             result=None if result is None else result.to_json(), clocks=[],
                                             to_act=state.to_act())
    finally:
        await store.close()


def _rows(db: sqlite3.Connection, sql: str, *args: Any) -> list[dict[str, Any]]:
    cursor = db.execute(sql, args)
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _insert(db: sqlite3.Connection, table: str, rows: list[dict[str, Any]]) -> None:
    if rows:
        cols = list(rows[0])
        db.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
                       [tuple(r[c] for c in cols) for r in rows])


def build(path: str, total: int = TOTAL) -> None:
    """Write the database of `total` games (10,000 by default) at `path` (a new file)."""
    plan = {kind: count * total // TOTAL for kind, count in PLAN.items()}
    plan["over"] += total - sum(plan.values())
    scratch = path + ".templates"
    for p in (path, scratch):
        Path(p).unlink(missing_ok=True)
    asyncio.run(_write_templates(scratch))
    asyncio.run(_migrate_only(path))  # the real schema, from the store's migrations
    src = sqlite3.connect(scratch)
    templates: dict[str, list[dict[str, Any]]] = {"lobby": [], "running": [], "over": []}
    for game in _rows(src, "SELECT * FROM games ORDER BY id"):
        gid = game["id"]
        game["seats"] = _rows(src, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", gid)
        game["moves"] = _rows(src, "SELECT * FROM moves WHERE game_id = ? ORDER BY n", gid)
        game["snapshots"] = _rows(src, "SELECT * FROM snapshots WHERE game_id = ?", gid)
        if game["status"] == "running":
            state = GAMES[game["game_key"]].from_json(json.loads(game["snapshots"][0]["state"]))
            game["seats_to_act"] = sorted(state.to_act())
            counts = [0] * len(game["seats"])
            for move in game["moves"]:
                counts[move["seat"]] += 1
            game["seat_moves"] = counts
        if game["snapshots"]:  # the log replays to the snapshot: the copies are real games
            definition = GAMES[game["game_key"]]
            options = {k: v for k, v in json.loads(game["options"]).items() if k != STAND_IN_KEY}  # the table's, not the game's
            state = definition.new_game(len(game["seats"]), options, game["seed"])
            for move in game["moves"]:
                state.apply(move["seat"], move["notation"])
            if json.loads(json.dumps(state.to_json())) != json.loads(game["snapshots"][0]["state"]):
                raise AssertionError(f"template game {gid}: the moves do not replay to the snapshot")
        templates[game["status"]].append(game)
    src.close()

    kinds = [kind for kind, count in plan.items() for _ in range(count)]
    rng = random.Random(8)
    rng.shuffle(kinds)
    dst = sqlite3.connect(path)
    dst.execute("PRAGMA journal_mode=WAL")
    dst.execute("PRAGMA synchronous=OFF")
    used = {k: 0 for k in templates}
    batch: dict[str, list[dict[str, Any]]] = {t: [] for t in ("games", "seats", "moves", "snapshots", "clocks")}
    for gid, kind in enumerate(kinds, start=1):
        status = "running" if kind.startswith("running") else kind
        pool = templates[status]
        tpl = pool[used[status] % len(pool)]  # round-robin: every engine, every template
        used[status] += 1
        created = NOW - rng.uniform(2, 60) * 86400
        users = rng.sample(range(SYNTHETIC + 10_000, SYNTHETIC + 13_000), len(tpl["seats"]))
        shift = created - tpl["created_at"]
        timer = kind == "running_timer"
        clocks: list[ClockRow] = []
        if timer:
            for seat in tpl["seats_to_act"]:
                started = NOW - rng.uniform(0, 10) * 3600  # every first reminder lies ahead of NOW
                deadline = started + TURN_HOURS * 3600
                points = reminder_points(started, deadline)
                clocks.append(ClockRow(seat, tpl["seat_moves"][seat], started, deadline, 0, False,
                                       points[0] if points else deadline))
        updated = max([c.started_at for c in clocks], default=created + 3600)
        batch["games"].append({
            **{k: v for k, v in tpl.items() if k not in ("seats", "moves", "snapshots", "seats_to_act", "seat_moves")},
            "id": gid, "guild_id": SYNTHETIC + gid % 50, "channel_id": SYNTHETIC + 100_000 + gid,
            "creator_id": users[0],
            "lobby_message_id": SYNTHETIC + 200_000 + gid,
            "board_message_id": None if status == "lobby" else SYNTHETIC + 300_000 + gid,
            "turn_hours": TURN_HOURS if timer else 0,
            "turn_deadline": min((c.deadline for c in clocks), default=None),
            "timeout_action": "ai", "created_at": created, "updated_at": updated,
        })
        batch["seats"] += [{**s, "game_id": gid, "user_id": users[s["seat"]]} for s in tpl["seats"]]
        batch["moves"] += [{**m, "game_id": gid, "at": m["at"] + shift} for m in tpl["moves"]]
        batch["snapshots"] += [{**s, "game_id": gid, "at": s["at"] + shift} for s in tpl["snapshots"]]
        batch["clocks"] += [{"game_id": gid, "seat": c.seat, "token": c.token, "started_at": c.started_at,
                             "deadline": c.deadline, "reminders_sent": c.reminders_sent,
                             "channel_told": int(c.channel_told), "next_due": c.next_due} for c in clocks]
        if gid % 500 == 0 or gid == total:
            for table, rows in batch.items():
                _insert(dst, table, rows)
                rows.clear()
    dst.commit()
    dst.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file to cache and copy
    dst.close()
    Path(scratch).unlink()


async def _migrate_only(path: str) -> None:
    store = await Store.open(path)
    await store.close()


def cache_path(total: int) -> Path:
    suffix = "" if total == TOTAL else f"-{total}"
    return CACHE_DIR / f"junction-bench-{VERSION}{suffix}.db"


def ensure_db(rebuild: bool, total: int = TOTAL) -> tuple[float | None, dict[str, int]]:
    """Build the cached database if needed (in a child process, to keep this process's RSS clean)."""
    took = None
    cache = cache_path(total)
    if rebuild or not cache.exists():
        started = time.perf_counter()
        tmp = str(cache) + ".building"
        subprocess.run([sys.executable, __file__, "--build-into", tmp, "--games", str(total)], check=True)
        os.replace(tmp, cache)
        took = time.perf_counter() - started
    with sqlite3.connect(cache) as db:
        counts = {
            "games": db.execute("SELECT count(*) FROM games").fetchone()[0],
            **{f"games {s}": n for s, n in db.execute("SELECT status, count(*) FROM games GROUP BY status")},
            "with timers": db.execute("SELECT count(DISTINCT game_id) FROM clocks").fetchone()[0],
            "moves": db.execute("SELECT count(*) FROM moves").fetchone()[0],
            "engines": db.execute("SELECT count(DISTINCT game_key) FROM games").fetchone()[0],
        }
    return took, counts


# ---------------------------------------------------------------------------------------- probes

def _place_probes(db_path: str, fake: FakeDiscord) -> tuple[int, int]:
    """Move two stored running games with timers and 3 seats into the fake's channels, seated by its
    users: one in #games (for /game status) and one in #general with a board message (buttons)."""
    names = ["Ann", "Bob", "Cid"]
    with sqlite3.connect(db_path) as db:
        ids = [r[0] for r in db.execute(
            "SELECT g.id FROM games g WHERE g.status = 'running' AND g.turn_hours > 0"
            " AND (SELECT count(*) FROM seats s WHERE s.game_id = g.id) = 3 ORDER BY g.id DESC LIMIT 2")]
        if len(ids) != 2:
            raise AssertionError("the database has no two running 3-seat games with timers")
        for game_id, channel in zip(ids, ("games", "general"), strict=True):
            db.execute("UPDATE games SET guild_id = ?, channel_id = ?, creator_id = ? WHERE id = ?",
                       (fake.guild_id, fake.channel(channel).id, fake.user("Ann").id, game_id))
            for seat, name in enumerate(names):
                db.execute("UPDATE seats SET user_id = ?, name = ? WHERE game_id = ? AND seat = ?",
                           (fake.user(name).id, name, game_id, seat))
    return ids[0], ids[1]


def _board_message(fake: FakeDiscord, db_path: str, game_id: int) -> FakeMessage:
    """The game's board post as the bot left it before the restart: persistent buttons on it."""
    channel = fake.channel("general")
    message = FakeMessage(fake.next_id(), channel.id, fake.guild_id, fake.bot_user, content=f"game #{game_id}",
                          components=[{"type": 1, "components": [
                              {"type": 2, "style": 1, "label": "Take turn", "custom_id": f"jn:turn:{game_id}"},
                              {"type": 2, "style": 2, "label": "My hand", "custom_id": f"jn:hand:{game_id}"}]}])
    channel.all_messages.append(message)
    fake.messages_by_id[message.id] = message
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE games SET board_message_id = ? WHERE id = ?", (message.id, game_id))
    return message


def _seat_to_act(db_path: str, game_id: int) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT min(seat) FROM clocks WHERE game_id = ?", (game_id,)).fetchone()[0]


# ---------------------------------------------------------------------------------------- run

async def _to_postgres(sqlite_path: str, admin_url: str) -> tuple[str, float]:
    """Copy the prepared SQLite file into a fresh PostgreSQL database (as migrate-db does); its URL
    and the seconds the copy took."""
    from tests.pg_server import fresh_database

    url = await fresh_database(admin_url, "junction_startup_bench")
    source, target = await Store.open(sqlite_path), await Store.open(url)
    try:
        began = time.perf_counter()
        await target.copy_from(source)
        return url, time.perf_counter() - began
    finally:
        await source.close()
        await target.close()


async def run(db_path: str, pg_admin: str | None = None) -> list[tuple[str, str]]:
    fake = FakeDiscord()
    await fake.start()
    figures: list[tuple[str, str]] = []
    try:
        # The probes are placed in the SQLite file, before a copy into PostgreSQL.
        status_game, board_game = _place_probes(db_path, fake)
        board = _board_message(fake, db_path, board_game)
        actor = fake.user(["Ann", "Bob", "Cid"][_seat_to_act(db_path, board_game)])
        if pg_admin is not None:
            db_path, copied = await _to_postgres(db_path, pg_admin)
            figures.append(("copy into PostgreSQL (migrate-db)", f"{copied:8.1f} s"))
        rss_before = _rss_mb()

        bot = create_bot(db_path, render_workers=1, now=lambda: NOW, **fake.bot_kwargs())
        started = time.perf_counter()
        await fake.start_bot(bot, timeout=120)
        ready = time.perf_counter()
        loaded_at_ready = len(bot.tables.loaded())
        scheduled_at_ready = bot.scheduler.pending()
        rss_ready = _rss_mb()
        lags: list[float] = []

        async def ticker() -> None:  # how late a 5 ms sleep on the bot's loop wakes while on_ready works
            while True:
                began = time.perf_counter()
                await asyncio.sleep(0.005)
                lags.append(time.perf_counter() - began - 0.005)

        tick = asyncio.create_task(ticker())

        # The first interaction arrives at READY, as users keep clicking while the bot restarts.
        status_ix = await fake.slash(fake.user("Bob"), fake.channel("games"), "game status", wait=False)
        await status_ix.wait(ANSWER_TIMEOUT)
        status_answered = status_ix.answered_at - ready
        loaded_at_answer = len(bot.tables.loaded())
        # The stored game's status, its deadline as a Discord timestamp among it.
        if "To act:" not in status_ix.content or "<t:" not in status_ix.content:
            raise AssertionError(f"unexpected /game status answer: {status_ix.content!r}")

        board_loaded_before = board_game in bot.tables.loaded()
        turn_ix = await fake.click(actor, board, label="Take turn", wait=False)
        await turn_ix.wait(ANSWER_TIMEOUT)
        hand_ix = await fake.click(fake.user("Cid"), board, label="My hand", wait=False)
        await hand_ix.wait(ANSWER_TIMEOUT)
        if "Your move" not in turn_ix.content or "Your hand" not in hand_ix.content:
            raise AssertionError(f"unexpected answers: {turn_ix.content!r} / {hand_ix.content!r}")

        # on_ready's work (resume_all) ends by starting the scheduler.
        await fake.wait_for(lambda: bot.scheduler._task is not None, timeout=ANSWER_TIMEOUT, what="resume_all")
        resumed = time.perf_counter()
        tick.cancel()
        await fake.drain(timeout=ANSWER_TIMEOUT)
        loaded_after = len(bot.tables.loaded())
        rss_after = _rss_mb()
        children = _children_rss_mb()

        figures += [
            ("start_bot() -> READY", f"{1000 * (ready - started):8.0f} ms"),
            (f"READY -> /game status answered (#{status_game})", f"{1000 * status_answered:8.0f} ms"
             f"   (latency {1000 * status_ix.latency:.0f} ms)"),
            (f"'Take turn' click answered (#{board_game})", f"{1000 * turn_ix.latency:8.0f} ms"
             f"   (state loaded before: {'yes' if board_loaded_before else 'no'})"),
            ("'My hand' click answered (PNG)", f"{1000 * hand_ix.latency:8.0f} ms"),
            ("READY -> on_ready done (resume_all)", f"{1000 * (resumed - ready):8.0f} ms"),
            ("event-loop lag until then (5 ms ticker)", f"{1000 * max(lags, default=0):8.1f} ms max"),
            ("game states in memory at READY", f"{loaded_at_ready:8d}"),
            ("game states in memory at first answer", f"{loaded_at_answer:8d}"),
            ("game states in memory after", f"{loaded_after:8d}"),
            ("deadlines scheduled (at READY / after)", f"{scheduled_at_ready:8d} / {bot.scheduler.pending()}"),
            ("RSS before create_bot", f"{rss_before:8.1f} MB"),
            ("RSS at READY", f"{rss_ready:8.1f} MB"),
            ("RSS after clicks and resume", f"{rss_after:8.1f} MB"),
            ("RSS of render processes", f"{children:8.1f} MB"),
        ]
        await fake.stop_bot(bot)

        # What setup_hook reads before READY, timed alone on the same file: the index and deadlines.
        store = await Store.open(db_path)
        try:
            tables = Tables(store, now=lambda: NOW)
            began = time.perf_counter()
            running = await tables.load()
            indexed = time.perf_counter()
            due = await tables.due_times()
            figures += [
                ("  setup_hook: index of open games", f"{1000 * (indexed - began):8.1f} ms   "
                 f"({len(running)} running)"),
                ("  setup_hook: deadlines from the store", f"{1000 * (time.perf_counter() - indexed):8.1f} ms   "
                 f"({len(due)} games)"),
            ]
        finally:
            await store.close()
    finally:
        await fake.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rebuild", action="store_true", help="build the cached database anew")
    parser.add_argument("--games", type=int, default=TOTAL, help="stored games (the plan scaled to it)")
    parser.add_argument("--postgresql", action="store_true", help="run on PostgreSQL (a copy of the built file)")
    parser.add_argument("--build-into", help=argparse.SUPPRESS)  # the child process that builds
    args = parser.parse_args()
    if args.build_into:
        build(args.build_into, args.games)
        return
    took, counts = ensure_db(args.rebuild, args.games)
    cache = cache_path(args.games)
    work = Path(tempfile.mkdtemp(prefix="junction-startup-"))
    try:
        db_path = str(work / "bench.db")
        shutil.copyfile(cache, db_path)
        if args.postgresql:
            from tests.pg_server import throwaway_server

            admin = os.environ.get("JUNCTION_BENCH_PG")
            if admin is not None:
                figures = asyncio.run(run(db_path, admin))
            else:
                with throwaway_server() as admin:
                    figures = asyncio.run(run(db_path, admin))
        else:
            figures = asyncio.run(run(db_path))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    size = cache.stat().st_size / 2**20
    built = f"built in {took:.1f} s" if took is not None else "cached"
    print(f"database: {cache} ({size:.0f} MB, {built}; {'PostgreSQL' if args.postgresql else 'SQLite'})")
    print("  " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    width = max(len(label) for label, _ in figures)
    for label, value in figures:
        print(f"{label:<{width}}  {value}")


if __name__ == "__main__":
    main()
