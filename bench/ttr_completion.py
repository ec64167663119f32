"""ttr_cards scoring: time of the exact best ticket set, by tickets in hand: python bench/ttr_completion.py."""

from __future__ import annotations

import random
import statistics
import time

from rules.ttr_cards.cards import KINDS
from rules.ttr_cards.scoring import best_completion


def main() -> None:
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


if __name__ == "__main__":
    main()
