"""What a whole game sends to a channel: python bench/table_traffic.py [--games KEY ...] [--picker].

Against the local fake Discord, two players (the greedy AI's move for their seat, by /play, or by
the Take turn picker with --picker) and one AI seat play each game to its end. Printed per game:
turns (a seat starts being awaited), channel posts made and edited, bytes of images uploaded (posts
and edits), mentions and mentions of a player already in their turn, DMs per player, and with
--picker the clicks per player turn (median and max; Take turn counts once per turn, the panel then
stays open) and the most clicks any one decision took.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.test_table_traffic import GAME_OPTIONS, play_game  # noqa: E402


async def main(games: list[str], picker: bool) -> None:
    print(f"{'game':14} {'moves':>5} {'turns':>5} {'posts':>5} {'edits':>5} {'image MB':>8} {'pings':>5}"
          f" {'re-pings':>8} {'DMs/player':>10} {'clicks/turn':>11} {'decision':>8} {'s':>4}")
    for key in games:
        fake = FakeDiscord()
        await fake.start()
        try:
            started = time.perf_counter()
            with tempfile.TemporaryDirectory() as tmp:
                traffic, (_, _, moves, _, bot, _) = await play_game(fake, Path(tmp), key, picker=picker)
                await fake.stop_bot(bot)
            seconds = time.perf_counter() - started
        finally:
            await fake.stop()
        dms = "/".join(str(n) for _, n in sorted(traffic.dms.items()))
        clicks = (f"{statistics.median(traffic.clicks_per_turn):g} max {max(traffic.clicks_per_turn)}"
                  if traffic.clicks_per_turn else "-")
        print(f"{key:14} {len(moves):5} {traffic.total_turns:5} {traffic.posts:5} {traffic.edits:5}"
              f" {traffic.image_bytes / 1e6:8.1f} {traffic.mentions:5} {len(traffic.repings):8} {dms:>10}"
              f" {clicks:>11} {max(traffic.clicks_per_decision, default=0) or '-':>8} {seconds:4.0f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=sorted(GAME_OPTIONS))
    parser.add_argument("--picker", action="store_true", help="play through Take turn and the picker")
    args = parser.parse_args()
    asyncio.run(main(args.games, args.picker))
