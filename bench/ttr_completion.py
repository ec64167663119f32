"""ttr_cards scoring: time of the exact best ticket set, by tickets in hand: python bench/ttr_completion.py.

Random hands first (the spec's timing table), then the worst case of issue #12: all 46 tickets against
large track stacks (`--worst N` seeded stacks, each search stopped after `--cap` seconds; a stopped
search prints as "> cap"). Unix only for the cap (SIGALRM).
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--worst", type=int, default=20, help="seeded large stacks against all 46 tickets")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds before one search is stopped")
    args = parser.parse_args()
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
