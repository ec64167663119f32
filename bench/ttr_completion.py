"""ttr_cards scoring: time of the exact best ticket set, by tickets in hand: python bench/ttr_completion.py.

Random hands first (the spec's timing table), then the worst case of issue #12: all 46 tickets against
large track stacks (`--worst N` seeded stacks, each search stopped after `--cap` seconds; a stopped
search prints as "> cap"), then the same against stacks built to be hard (HARD_STACKS: the slowest
found by a hill climb over 0-10 per colour and 0-16 Locomotives, best of 3 runs each). Times are wall
clock (perf_counter) with the process's CPU time beside them, and the load average is printed: on a
shared machine the CPU time is the steadier figure. Unix only for the cap (SIGALRM).

`--loop` shows what the bot's event loop lives with while one such search runs the way the service
runs an engine call (`asyncio.to_thread`): the longest gap between two 10 ms ticks of the loop,
against the same search run on the loop itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import time

from rules.ttr_cards.cards import COLOURS, KINDS, LOCO, TICKET_IDS
from rules.ttr_cards.scoring import best_completion

# Built against the search of issue 12 finding 7: the slowest stacks hill climbs found (all 46 tickets;
# the first ones against the final search, the rest against its earlier versions).
HARD_STACKS: list[dict[str, int]] = [
    {"black": 10, "blue": 6, "green": 9, "orange": 5, "purple": 5, "red": 8, "white": 9, "yellow": 6, "loco": 5},
    {"black": 9, "blue": 2, "green": 6, "orange": 5, "purple": 6, "red": 2, "white": 7, "yellow": 5, "loco": 14},
    {"black": 10, "blue": 9, "green": 10, "orange": 7, "purple": 6, "red": 9, "white": 4, "yellow": 6, "loco": 8},
    {"black": 10, "blue": 10, "green": 10, "orange": 10, "purple": 10, "red": 10, "white": 10, "yellow": 9, "loco": 0},
    {"black": 10, "blue": 7, "green": 9, "orange": 7, "purple": 5, "red": 9, "white": 9, "yellow": 5, "loco": 3},
    {"black": 10, "blue": 7, "green": 8, "orange": 6, "purple": 5, "red": 9, "white": 9, "yellow": 5, "loco": 2},
    {"black": 5, "blue": 10, "green": 6, "orange": 10, "purple": 7, "red": 7, "white": 7, "yellow": 7, "loco": 3},
    {"black": 4, "blue": 5, "green": 8, "orange": 10, "purple": 6, "red": 9, "white": 9, "yellow": 7, "loco": 8},
    {"black": 6, "blue": 7, "green": 2, "orange": 4, "purple": 6, "red": 3, "white": 8, "yellow": 5, "loco": 4},
    {"black": 3, "blue": 9, "green": 4, "orange": 10, "purple": 5, "red": 3, "white": 10, "yellow": 5, "loco": 2},
    {colour: 10 for colour in COLOURS} | {LOCO: 0},
    {colour: 6 for colour in COLOURS} | {LOCO: 7},
]


class _Stopped(Exception):
    pass


def _stop(*_: object) -> None:
    raise _Stopped


def timed(tickets: list[int], track: dict[str, int], cap: float) -> tuple[float, float] | None:
    """(wall, CPU) seconds of one exact search, or None when it ran past `cap` seconds."""
    signal.signal(signal.SIGALRM, _stop)
    signal.setitimer(signal.ITIMER_REAL, cap)
    started, cpu = time.perf_counter(), time.process_time()
    try:
        best_completion(tickets, track)
    except _Stopped:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return time.perf_counter() - started, time.process_time() - cpu


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


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
    print(f"  before: {_load()}")
    rng = random.Random(46)
    results: list[tuple[tuple[float, float] | None, dict[str, int]]] = []
    for _ in range(args.worst):
        track = {colour: rng.randint(0, 10) for colour in COLOURS} | {LOCO: rng.randint(0, 16)}
        results.append((timed(list(TICKET_IDS), track, args.cap), track))
    finished = sorted(seconds for seconds, _ in results if seconds is not None)
    stopped = [track for seconds, track in results if seconds is None]
    if finished:
        walls = sorted(wall for wall, _ in finished)
        cpus = sorted(cpu for _, cpu in finished)
        print(f"  finished {len(finished)}: median {1000 * statistics.median(walls):.1f} ms,"
              f" worst {1000 * walls[-1]:.1f} ms (CPU: median {1000 * statistics.median(cpus):.1f} ms,"
              f" worst {1000 * cpus[-1]:.1f} ms)")
    print(f"  stopped after {args.cap:.0f} s: {len(stopped)}")
    for seconds, track in sorted(results, key=lambda r: -(r[0][0] if r[0] is not None else float("inf")))[:3]:
        shown = "> cap" if seconds is None else f"{1000 * seconds[0]:.1f} ms"
        print(f"  {shown:>10}  {track}")
    print("\nstacks built to be hard (all 46 tickets, best of 3 runs each)")
    worst_wall = worst_cpu = 0.0
    for track in HARD_STACKS:
        runs = [timed(list(TICKET_IDS), track, args.cap) for _ in range(3)]
        if any(run is None for run in runs):
            print(f"  {'> cap':>10}  {track}")
            continue
        wall = min(run[0] for run in runs)
        cpu = min(run[1] for run in runs)
        worst_wall, worst_cpu = max(worst_wall, wall), max(worst_cpu, cpu)
        print(f"  {1000 * wall:7.1f} ms (CPU {1000 * cpu:6.1f} ms)  {track}")
    print(f"  worst {1000 * worst_wall:.1f} ms (CPU {1000 * worst_cpu:.1f} ms); after: {_load()}")

if __name__ == "__main__":
    main()
