"""ttr_cards scoring: time of the exact best ticket set, by tickets in hand: python bench/ttr_completion.py.

Random hands first (the spec's timing table), then the worst case of issue #12: all 46 tickets against
large track stacks (`--worst N` seeded stacks, each search stopped after `--cap` seconds; a stopped
search prints as "> cap"). Unix only for the cap (SIGALRM).

`--loop` shows what the bot's event loop lives with while one such search runs the way the service
runs an engine call (`asyncio.to_thread`): the longest gap between two 10 ms ticks of the loop,
against the same search run on the loop itself.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import statistics
import time

from rules.ttr_cards.cards import COLOURS, KINDS, LOCO, TICKET_IDS
from rules.ttr_cards.scoring import best_completion


class _Stopped(Exception):
    pass


def _stop(*_: object) -> None:
    raise _Stopped


def timed(tickets: list[int], track: dict[str, int], cap: float) -> float | None:
    """Seconds of one exact search, or None when it ran past `cap` seconds."""
    signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, cap)
    started = time.perf_counter()
    try:
        best_completion(tickets, track)
    except _Stopped:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - started


async def _loop_gaps(search, ticks_every: float = 0.01) -> tuple[float, float]:
    """(seconds the search took, longest gap between loop ticks) while `search` is awaited."""
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(ticks_every)
            now = time.perf_counter()
            gaps.append(now - last - ticks_every)
            last = now

    tick = asyncio.ensure_future(ticker())
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    await search()
    took = time.perf_counter() - started
    done.set()
    await tick
    return took, max(gaps)


def loop_lag(seed: int) -> None:
    rng = random.Random(seed)
    track = {colour: rng.randint(0, 10) for colour in COLOURS} | {LOCO: rng.randint(0, 16)}
    tickets = list(TICKET_IDS)

    async def in_thread() -> None:
        await asyncio.to_thread(best_completion, tickets, track)

    async def on_loop() -> None:
        best_completion(tickets, track)

    for name, search in (("asyncio.to_thread (the service)", in_thread), ("on the event loop", on_loop)):
        took, gap = asyncio.run(_loop_gaps(search))
        print(f"  {name:<32} search {1000 * took:8.0f} ms   longest loop stall {1000 * gap:8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worst", type=int, default=20, help="seeded large stacks against all 46 tickets")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds before one search is stopped")
    parser.add_argument("--loop", type=int, metavar="SEED", help="only the event-loop stall of one 46-ticket search")
    args = parser.parse_args()
    if args.loop is not None:
        print("all 46 tickets, one seeded large stack: the event loop while the exact search runs")
        loop_lag(args.loop)
        return
    rng = random.Random(7)
    print("tickets in hand   median      worst   (random hands, track stacks of 0-6 cards per kind)")
    for low, high, count in ((1, 12, 300), (13, 20, 200), (21, 30, 100), (31, 36, 30)):
        times = []
        for _ in range(count):
            tickets = rng.sample(range(1, 47), rng.randint(low, high))
            track = {kind: rng.randint(0, 6) for kind in KINDS}
            started = time.perf_counter()
            best_completion(tickets, track)
            times.append(time.perf_counter() - started)
        print(f"{low:>5}-{high:<5}  {1000 * statistics.median(times):9.2f} ms {1000 * max(times):9.2f} ms")
    if not args.worst:
        return
    print(f"\nworst case: all 46 tickets, {args.worst} seeded large stacks (0-10 per colour, 0-16 locomotives)")
    rng = random.Random(46)
    results: list[tuple[float | None, dict[str, int]]] = []
    for _ in range(args.worst):
        track = {colour: rng.randint(0, 10) for colour in COLOURS} | {LOCO: rng.randint(0, 16)}
        results.append((timed(list(TICKET_IDS), track, args.cap), track))
    finished = sorted(seconds for seconds, _ in results if seconds is not None)
    stopped = [track for seconds, track in results if seconds is None]
    if finished:
        print(f"  finished {len(finished)}: median {1000 * statistics.median(finished):.0f} ms,"
              f" worst {1000 * finished[-1]:.0f} ms")
    print(f"  stopped after {args.cap:.0f} s: {len(stopped)}")
    for seconds, track in sorted(results, key=lambda r: -(r[0] if r[0] is not None else float("inf")))[:3]:
        shown = "> cap" if seconds is None else f"{1000 * seconds:.0f} ms"
        print(f"  {shown:>10}  {track}")


if __name__ == "__main__":
    main()
