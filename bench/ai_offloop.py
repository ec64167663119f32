"""How long another game waits while a hard AI thinks: the search in a thread of the bot vs in a worker process.

    PYTHONPATH=$PWD python bench/ai_offloop.py --decisions 12

Game A is a 2-player Trans Europa with a hard AI seat (seconds of search per decision); game B a Ticket to
Ride table. While A's human move runs its hard AI reply, B is asked for its status (Tables.info, the
public view and the move log from the store) every 20 ms; the bench prints those replies' latency from
when each was due (median, p95, max) with the search in a thread (JUNCTION_AI_WORKERS=0) and in one
worker process (the default), and B's latency with A idle.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai_pool import AIPool  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.tables import Tables  # noqa: E402
from rules.registry import GAMES  # noqa: E402

ANN, BOB = 1, 2


async def status_latencies(tables: Tables, game_id: int, until: asyncio.Future | None, samples: int) -> list[float]:
    """Ask game B's status every 20 ms until `until` is done (or `samples` times); seconds per reply."""
    out: list[float] = []
    while (until is not None and not until.done()) or (until is None and len(out) < samples):
        # From when the request is due (the end of the pause) to the answer: a late wake-up of the
        # event loop counts, as it would for an interaction arriving then.
        due = time.perf_counter() + 0.02
        await asyncio.sleep(0.02)
        await tables.info(game_id)
        await tables.public_view(game_id)
        await tables.log(game_id)  # a store read: aiosqlite's thread hands the answer back to the loop
        out.append(time.perf_counter() - due)
    return out


async def run(workers: int, decisions: int, folder: str) -> tuple[list[float], list[float]]:
    pool = AIPool(workers)
    await pool.warm_up()
    store = await Store.open(f"{folder}/w{workers}.db")
    tables = Tables(store, games=GAMES, ai_pool=pool)
    try:
        slow = (await tables.create("trans_europa", guild_id=9, channel_id=20, user_id=ANN, user_name="Ann",
                                    seat_order="join", options={"first_player": "seat0"}, seed=3)).row.id
        await tables.add_ai(slow, ANN, "hard")
        await tables.start(slow, ANN)
        quick = (await tables.create("ttr_cards", guild_id=9, channel_id=21, user_id=BOB, user_name="Bob",
                                     seat_order="join", seed=3)).row.id
        await tables.add_ai(quick, BOB, "easy")
        await tables.start(quick, BOB)
        idle = await status_latencies(tables, quick, None, 50)
        busy: list[float] = []
        for _ in range(decisions):
            _, token, legal = await tables.legal_moves(slow, ANN)
            move = asyncio.ensure_future(tables.play(slow, ANN, legal[0], token=token))
            busy += await status_latencies(tables, quick, move, 0)
            await move
        return idle, busy
    finally:
        pool.close()
        await store.close()


def figures(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} replies)"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=12, help="hard AI decisions to wait through per mode")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for workers, label in ((0, "thread (JUNCTION_AI_WORKERS=0)"), (1, "worker process (JUNCTION_AI_WORKERS=1)")):
            idle, busy = await run(workers, args.decisions, folder)
            print(f"hard AI search in a {label}")
            print(f"  other game's status, A idle:      {figures(idle)}")
            print(f"  other game's status, A thinking:  {figures(busy)}")


if __name__ == "__main__":
    asyncio.run(main())
