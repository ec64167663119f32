"""A busy bot's outbox: python bench/outbox_backlog.py [--trees new=. old=/tmp/old] [--loads 1x,5/s,15/s,2x,4x]
[--profile] [--render-workers N]

Many Trans Europa games (2 players and 1 AI seat each) are played at once through the real bot and
the local fake Discord, one process (the bot, the fake Discord and the players share its event
loop) with 1 render worker (the issue's load; `--render-workers N` for another number). Each load
runs in a fresh process, one after the other, for every code tree given (`--trees name=path`: e.g.
this checkout and a `git worktree` of an older commit), so before and after are measured in one run
on the same machine:
- `Nx`: 200 x N games; in each, the player to act sends a legal move (random, by `/play`) as soon as
  the answer to the previous one arrived, 4 moves per game (all games at once: as fast as players
  click);
- `R/s`: 200 games; moves arrive at R per second in all (Poisson, the same times for every tree),
  each to a random game whose previous move was answered, for `--seconds`.

Printed per run: moves, the offered rate, acknowledgement (interaction -> answer) p50/p95/max,
move -> board post p50/p95/max (from the interaction to the first post or edit of the game's board
that shows the move, read from its "move N" header), the most outbox rows owed at once, board
posts made and edited, the load average and the run's wall time. `--profile`: where each board
post's time went (see _Profile) and the drawings by kind.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
GAME = "trans_europa"
GAMES_PER_X = 200


def _cpu_seconds(pid: int) -> float:
    """utime + stime of a process (0 if gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    """CPU seconds of this process's live children (the render workers and the AI worker)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(text[text.rindex(")") + 2:].split()[1]) == os.getpid():
                total += _cpu_seconds(int(entry))
    return total


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


# ------------------------------------------------------------------------------------ worker


async def _worker(args: argparse.Namespace) -> dict[str, Any]:
    import asyncio
    import re

    from bot.app import create_bot
    from bot.store import Store
    from bot.tables import Tables
    from tests.e2e.fake_discord import FakeChannel, FakeDiscord

    games = args.games
    db = str(Path(tempfile.mkdtemp()) / "bench.db")
    fake = FakeDiscord()
    fake.clocked_ids = True  # ids carry Discord's time (a tree whose fake predates them: a fixed time)
    await fake.start()
    channels, players = [], []
    for number in range(games):
        channel = FakeChannel(fake.next_id(), f"table-{number}", 0, guild_id=fake.guild_id, position=10 + number)
        fake.channels[channel.id] = channel
        channels.append(channel)
        players.append([fake.add_user(f"P{number}-{seat}") for seat in range(2)])
    # The games exist before the bot starts (their creation and opening posts are not measured).
    store = await Store.open(db)
    tables = Tables(store)
    ids = []
    for number in range(games):
        first, second = players[number]
        info = await tables.create(GAME, guild_id=fake.guild_id, channel_id=channels[number].id, user_id=first.id,
                                   user_name=first.name, seat_order="join", seed=number, clock={"turn_hours": 0})
        await tables.join(info.row.id, second.id, second.name)
        await tables.add_ai(info.row.id, first.id, "normal")
        await tables.start(info.row.id, first.id)
        ids.append(info.row.id)
    for game_id in ids:  # the opening posts and welcome DMs are not part of the measure
        await store.posts_done([p.id for p in await store.pending_posts(game_id)])
    await store.close()

    shown: dict[int, list[tuple[float, int]]] = {c.id: [] for c in channels}  # channel -> (time, move N)
    counts = {"posts": 0, "edits": 0}
    header = re.compile(r"· move (\d+)")
    dms: list[float] = []  # when each DM was sent (every other channel is a game's)

    def record(message: Any, edited: bool) -> None:
        if message.channel_id not in shown and not edited:
            dms.append(time.perf_counter())
        if message.channel_id in shown and message.attachments:
            found = header.search(message.text)
            if found:
                shown[message.channel_id].append((time.perf_counter(), int(found.group(1))))
                counts["edits" if edited else "posts"] += 1

    create, edit = fake._create_message, fake._edit_message

    def created(channel: Any, body: Any, files: Any, **more: Any) -> Any:
        message = create(channel, body, files, **more)
        record(message, False)
        return message

    def edited(message: Any, body: Any, files: Any) -> None:
        edit(message, body, files)
        record(message, True)

    fake._create_message, fake._edit_message = created, edited
    profile = _Profile() if args.profile else None
    more = {"defer_after": args.defer_after} if args.defer_after else {}  # an experiment: another defer delay
    bot = await fake.start_bot(create_bot(db, render_workers=args.render_workers, **more, **fake.bot_kwargs()),
                               timeout=600)
    if args.defer_by:  # an experiment: another deadline for interactions read late
        from bot import cogs

        cogs.DEFER_BY = args.defer_by
    if args.send_slots:  # an experiment: another number of games sending at once
        bot.delivery._send_slots = asyncio.Semaphore(args.send_slots)

    def owed() -> int:
        with sqlite3.connect(db) as raw:
            return raw.execute("SELECT count(*) FROM outbox").fetchone()[0]

    while await asyncio.to_thread(owed):
        await asyncio.sleep(0.5)
    for channel in channels:
        shown[channel.id].clear()
    counts.update(posts=0, edits=0)
    dms.clear()

    most = [0]
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            most[0] = max(most[0], owed())
            time.sleep(0.2)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    moves: list[tuple[int, float, int]] = []  # channel, sent at, moves applied once answered
    acks: list[float] = []  # in the order of `moves`
    responses: list[float] = []  # interaction -> its first callback (an answer or a defer), as `acks`
    deferred = [0]  # moves whose first callback was a defer
    busy: set[int] = set()
    unanswered = [0]

    async def one_move(index: int, rng: random.Random) -> bool:
        game_id = ids[index]
        info = await bot.tables.info(game_id)
        if info.row.status != "running" or not info.to_act:
            return False
        user = info.seats[info.to_act[0]].user_id
        by_id = {p.id: p for p in players[index]}
        _, _, legal = await bot.tables.legal_moves(game_id, user)
        sent = time.perf_counter()
        ix = await fake.slash(by_id[user], channels[index], "play", options={"move": rng.choice(legal)},
                              wait=False)
        try:
            await ix.wait(timeout=args.drain)
        except (TimeoutError, AssertionError):
            unanswered[0] += 1
            return False
        answered = time.perf_counter() - sent
        moves.append((channels[index].id, sent, (await bot.tables.info(game_id)).moves))
        acks.append(answered)
        responses.append(ix.responded_at - ix.sent_at if getattr(ix, "responded_at", None) else answered)
        deferred[0] += ix.response_type in (5, 6)  # a "thinking…" first, the answer after
        return True

    renders = [0]
    call = bot.renderer.call

    kinds: dict[str, int] = {}

    async def counted(function: Any, *more: Any, **keywords: Any) -> Any:  # keywords: the priority (new trees)
        renders[0] += 1
        kind = getattr(more[1], "__name__", "") if getattr(function, "__name__", "") == "_drawn_in" else ""
        kind = kind or getattr(function, "__name__", "?")
        kinds[kind] = kinds.get(kind, 0) + 1
        return await call(function, *more, **keywords)

    bot.renderer.call = counted
    if profile is not None:
        profile.install(bot)
    cpu_main, cpu_render = time.process_time(), _children_cpu()
    started = time.perf_counter()
    if args.rate:
        arrivals = random.Random(7)
        pending: list[asyncio.Task] = []
        at = started
        while True:
            at += arrivals.expovariate(args.rate)
            if at - started >= args.seconds:
                break
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            free = [i for i in range(games) if i not in busy]
            if not free:
                continue
            index = arrivals.choice(free)
            busy.add(index)

            async def move_then_free(index: int = index) -> None:
                try:
                    await one_move(index, random.Random(index * 1000 + len(moves)))
                finally:
                    busy.discard(index)

            pending.append(asyncio.ensure_future(move_then_free()))
        await asyncio.gather(*pending)
    else:
        async def play(index: int) -> None:
            rng = random.Random(index)
            for _ in range(args.moves):
                if not await one_move(index, rng):
                    return

        await asyncio.gather(*(play(i) for i in range(games)))
    offered_for = time.perf_counter() - started
    latencies, unseen = [], 0
    deadline = time.perf_counter() + args.drain
    while time.perf_counter() < deadline:
        latencies, unseen = [], 0
        for channel_id, sent, applied in moves:
            seen = next((t for t, n in shown[channel_id] if t >= sent and n >= applied), None)
            if seen is None:
                unseen += 1
            else:
                latencies.append(seen - sent)
        if not unseen and not await asyncio.to_thread(owed):
            break
        await asyncio.sleep(0.5)
    elapsed = time.perf_counter() - started
    cpu_main, cpu_render = time.process_time() - cpu_main, _children_cpu() - cpu_render
    stop.set()
    watcher.join()
    try:
        await fake.stop_bot(bot)
    except AssertionError:  # still sending when the drain window ended (counted as never shown)
        await fake.stop_bot(bot, drain=False)
    await fake.stop()
    return {"games": games, "moves": len(moves), "offered_for": offered_for, "elapsed": elapsed,
            "acks": acks, "responses": responses, "deferred": deferred[0], "latencies": latencies, "unseen": unseen, "most_owed": most[0], **counts,
            "renders": renders[0], "render_kinds": kinds, "unanswered": unanswered[0], "cpu_main": cpu_main, "cpu_render": cpu_render,
            "profile": profile.summary() if profile is not None else None,
            "dms": sorted(t - started for t in dms),
            "timeline": {"moves": sorted(sent - started for _, sent, _ in moves),
                         "acks": sorted(sent - started + ack for (_, sent, _), ack in zip(moves, acks, strict=True)),
                         "posts": sorted(t - started for seen in shown.values() for t, _ in seen)}}


class _Profile:
    """Where a board post's time goes (`--profile`): each claim of a game's board posts (one
    `Delivery._flush_boards` that had something to send) is timed from its start, split into the
    wait for its turn (the edit pause and the send slots, until the claim starts), the store's
    writes (waiting for SQLite's write lock, then holding it), its reads, the drawings (waiting in
    the render line and drawing) and the requests to the fake Discord (HTTP, in-process); the
    rest is the event loop's other work meanwhile. Timers wrap methods of whatever tree runs, so
    the same profile reads old and new code. The totals of every store write (moves and posts)
    come with it."""

    STEPS = ("slot", "db_wait", "db_hold", "db_read", "render", "http")

    def __init__(self) -> None:
        import contextvars

        self.current: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar("post", default=None)
        self.posts: list[dict[str, float]] = []
        self.writes = {"n": 0, "wait": 0.0, "hold": 0.0}

    def _add(self, step: str, seconds: float) -> None:
        acc = self.current.get()
        if acc is not None:
            acc[step] = acc.get(step, 0.0) + seconds
            if step == "db_hold":
                acc["writes"] = acc.get("writes", 0) + 1

    def install(self, bot: Any) -> None:
        import contextlib

        import discord

        profile = self
        delivery = type(bot.delivery)
        flush_boards, claim = delivery._flush_boards, delivery._claim

        async def timed_flush(this: Any, game_id: int) -> Any:
            acc: dict[str, float] = {}
            token = profile.current.set(acc)
            start = time.perf_counter()
            acc["start"] = start
            try:
                result = await flush_boards(this, game_id)
            finally:
                profile.current.reset(token)
            owed = result[0] if isinstance(result, tuple) else None
            if owed and any(r.kind == "board" for r in owed):
                acc["total"] = time.perf_counter() - start
                profile.posts.append(acc)
            return result

        async def timed_claim(this: Any, game_id: int) -> Any:
            acc = profile.current.get()
            if acc is not None and "slot" not in acc:
                acc["slot"] = time.perf_counter() - acc["start"]
            return await claim(this, game_id)

        bot.delivery._flush_boards = timed_flush.__get__(bot.delivery)
        bot.delivery._claim = timed_claim.__get__(bot.delivery)
        db = bot.store._db
        transaction, fetch = db.transaction, db.fetch

        @contextlib.asynccontextmanager
        async def timed_transaction() -> Any:
            asked = time.perf_counter()
            async with transaction() as tx:  # SQLite: it takes the write lock, then yields
                held = time.perf_counter()
                yield tx
            done = time.perf_counter()
            wait = held - asked
            profile._add("db_wait", wait)
            profile._add("db_hold", done - held)
            profile.writes["n"] += 1
            profile.writes["wait"] += wait
            profile.writes["hold"] += done - held

        async def timed_fetch(sql: str, params: Any = ()) -> Any:
            start = time.perf_counter()
            try:
                return await fetch(sql, params)
            finally:
                profile._add("db_read", time.perf_counter() - start)

        db.transaction, db.fetch = timed_transaction, timed_fetch
        call = bot.renderer.call

        async def timed_call(*more: Any, **keywords: Any) -> Any:
            start = time.perf_counter()
            try:
                return await call(*more, **keywords)
            finally:
                profile._add("render", time.perf_counter() - start)

        bot.renderer.call = timed_call
        request = discord.http.HTTPClient.request

        async def timed_request(this: Any, *more: Any, **keywords: Any) -> Any:
            start = time.perf_counter()
            try:
                return await request(this, *more, **keywords)
            finally:
                profile._add("http", time.perf_counter() - start)

        discord.http.HTTPClient.request = timed_request

    def summary(self) -> dict[str, Any]:
        posts = self.posts
        out: dict[str, Any] = {"claims": len(posts), "all_writes": self.writes}
        for step in ("total", *self.STEPS, "writes"):
            values = [p.get(step, 0.0) for p in posts]
            out[step] = {"mean": statistics.fmean(values) if values else 0.0, "p95": _pct(values, 0.95)}
        rest = [p["total"] - sum(p.get(s, 0.0) for s in self.STEPS) for p in posts]
        out["other"] = {"mean": statistics.fmean(rest) if rest else 0.0, "p95": _pct(rest, 0.95)}
        return out


# ------------------------------------------------------------------------------------ driver


def _timeline(events: dict[str, list[float]], step: float) -> str:
    """Per `step` seconds from the first move: moves sent, moves answered, board posts and edits."""
    end = max((t for times in events.values() for t in times), default=0.0)
    rows = ["      from s   sent  answered  posts"]
    for bucket in range(int(end // step) + 1):
        low, high = bucket * step, (bucket + 1) * step
        counts = [sum(low <= t < high for t in events[k]) for k in ("moves", "acks", "posts")]
        if any(counts):
            rows.append(f"      {low:6.1f} {counts[0]:6} {counts[1]:9} {counts[2]:6}")
    return "\n".join(rows)


def _run(tree: Path, load: str, args: argparse.Namespace) -> dict[str, Any]:
    if load.endswith("/s"):
        extra = ["--games", str(GAMES_PER_X), "--rate", load[:-2], "--seconds", str(args.seconds)]
    else:
        extra = ["--games", str(GAMES_PER_X * int(load[:-1])), "--moves", str(args.moves)]
    extra += ["--drain", str(args.drain), "--send-slots", str(args.send_slots), "--render-workers", str(args.render_workers),
              "--defer-after", str(args.defer_after), "--defer-by", str(args.defer_by)] + (
                  ["--profile"] if args.profile else [])
    env = {**os.environ, "PYTHONPATH": str(tree)}
    load_before = os.getloadavg()[0]
    out = subprocess.run([sys.executable, __file__, "--worker", "--tree", str(tree), *extra], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=3600)
    if out.returncode:
        raise SystemExit(f"{tree} {load} failed:\n{out.stderr[-3000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = (load_before, os.getloadavg()[0])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", nargs="+", default=[f"this={HERE}"], help="name=path of a code tree")
    parser.add_argument("--loads", default="1x,5/s,15/s,2x,4x")
    parser.add_argument("--moves", type=int, default=4, help="Nx loads: moves per game")
    parser.add_argument("--seconds", type=float, default=30.0, help="R/s loads: how long moves arrive")
    parser.add_argument("--drain", type=float, default=240.0,
                        help="seconds to wait for the last posts after the last move (then: never shown)")
    parser.add_argument("--profile", action="store_true",
                        help="where a board post's time goes (timers around the store, the drawings, HTTP)")
    parser.add_argument("--send-slots", type=int, default=0,
                        help="games sending at once (default: the bot's own number, SEND_SLOTS)")
    parser.add_argument("--defer-after", type=float, default=0.0,
                        help="seconds of work before an interaction is deferred (default: the bot's own)")
    parser.add_argument("--defer-by", type=float, default=0.0,
                        help="seconds from Discord sending an interaction read late by which it is deferred"
                             " (default: the bot's own, bot.cogs.DEFER_BY)")
    parser.add_argument("--render-workers", type=int, default=1,
                        help="render processes (default 1, as in the issue; the bot's own default is 2 or more)")
    parser.add_argument("--timeline", type=float, default=0.0, metavar="SECONDS",
                        help="also print, per SECONDS from the first move, the moves sent and answered and the board"
                             " posts and edits made")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import asyncio

        sys.path.insert(0, args.tree)
        import logging
        logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
        print(json.dumps(asyncio.run(_worker(args))), flush=True)
        return
    trees = [(name, Path(path).resolve()) for name, path in (t.split("=", 1) for t in args.trees)]
    print(f"{GAME}, 2 players + 1 AI (normal) per game, {args.render_workers} render worker(s), {os.cpu_count()} cores, "
          f"{args.moves} moves per game (Nx), {args.seconds:g} s of moves (R/s); "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", flush=True)
    for load in args.loads.split(","):
        for name, tree in trees:
            r = _run(tree, load, args)
            acks, posts = r["acks"], r["latencies"]
            print(f"{load:>5} {name:<5} {r['games']:4} games {r['moves']:5} moves ({r['moves'] / r['offered_for']:5.1f}/s)"
                  f" | ack p50 {1000 * statistics.median(acks):6.0f} p95 {1000 * _pct(acks, 0.95):6.0f}"
                  f" max {1000 * max(acks):6.0f} ms"
                  + (f" (first response p95 {1000 * _pct(r['responses'], 0.95):5.0f} max {1000 * max(r['responses']):5.0f} ms,"
                     f" {sum(t > 3.0 for t in r['responses'])} past 3 s, {r.get('deferred', 0)} deferred)"
                     if r.get("responses") else "")
                  + f" | move->post p50 {statistics.median(posts):6.2f} p95 {_pct(posts, 0.95):6.2f}"
                  f" max {max(posts):6.2f} s{' (' + str(r['unseen']) + ' never shown)' if r['unseen'] else ''}"
                  f"{' (' + str(r['unanswered']) + ' moves unanswered)' if r['unanswered'] else ''}"
                  f" | owed max {r['most_owed']:4} | posts {r['posts']:4} edits {r['edits']:4}"
                  + (f" | DMs {len(r['dms']):4} at p50 {statistics.median(r['dms']):5.1f} p95 {_pct(r['dms'], 0.95):5.1f}"
                     f" last {max(r['dms']):5.1f} s" if r.get("dms") else "")
                  + f" | renders {r['renders']:5}, CPU s: bot {r['cpu_main']:4.0f} workers {r['cpu_render']:4.0f}"
                  f" | load {r['load'][0]:.1f}->{r['load'][1]:.1f} | {r['elapsed']:5.0f} s", flush=True)
            if args.timeline:
                print(_timeline(r["timeline"], args.timeline), flush=True)
            if r.get("profile"):
                p = r["profile"]
                print(f"      profile: {p['claims']} board claims, mean / p95 s: "
                      + ", ".join(f"{step} {p[step]['mean']:.2f} / {p[step]['p95']:.2f}"
                                  for step in ("total", *_Profile.STEPS, "other", "writes"))
                      + f"; all store writes: {p['all_writes']['n']}, lock wait {p['all_writes']['wait']:.0f} s,"
                        f" held {p['all_writes']['hold']:.0f} s; drawings by kind: {r['render_kinds']}", flush=True)


if __name__ == "__main__":
    main()
