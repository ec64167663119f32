"""One bot process for the multi-process tests: the real bot on some shards, against a fake Discord
running in the test process, on a shared PostgreSQL database.

    python -m tests.e2e.shard_process BASE_URL DB_URL CLOCK_FILE --shards 0 --shard-count 2

The clock of turn timers is a file the test rewrites (epoch seconds), so the test moves time for
every process at once. Polls and leases are shortened so a test sees a dead process's work taken
over within seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

import discord
import yarl


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base_url")
    parser.add_argument("db")
    parser.add_argument("clock_file")
    parser.add_argument("--shards", required=True)
    parser.add_argument("--shard-count", type=int, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format=f"[shards {args.shards}] %(levelname)s %(name)s: %(message)s")

    import bot.app
    import bot.service.live
    from bot.__main__ import parse_shards
    from tests.bot import guess_game
    from tests.bot.test_deadlines import GAMES
    from tests.e2e.fake_discord import API_PREFIX, TOKEN, FakeDiscord

    discord.http.Route.BASE = args.base_url + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.base_url.replace("http", "ws") + "/gateway")
    bot.app.SHARED_POLL = 0.3  # the bot's shared_poll too (the seasons cog's look)
    bot.service.live.POST_LEASE = 3.0
    clock_path = Path(args.clock_file)

    def now() -> float:
        return float(clock_path.read_text())

    client = bot.app.create_bot(args.db, games=GAMES, board_renderer=guess_game.board,
                                hand_renderer=guess_game.hand, render_workers=0, now=now,
                                shard_ids=parse_shards(args.shards, args.shard_count),
                                shard_count=args.shard_count, **FakeDiscord.bot_kwargs())
    client.scheduler.max_sleep = 0.2  # notice the test moving the clock file

    async def run() -> None:
        async with client:
            await client.start(TOKEN)

    asyncio.run(run())


if __name__ == "__main__":
    main()
