"""Bot latency against the local fake Discord: python bench/bot_latency.py [--moves N] [--workers W].

Three players start a Trans Europa game (or --game KEY) and send the greedy AI's move for the
seat to act by `/play`, one after the other. Printed, as median and p95 over the moves:
- ack: from the interaction arriving (INTERACTION_CREATE sent) to the player's ephemeral reply
  (apply + commit, or a deferral);
- post: from the interaction arriving to the channel's board post with its PNG that shows the move
  (its header's "move N"; a new post, or an edit of the live post for a decision inside a turn:
  apply + commit + render in the process pool + post);
- commit: the SQLite transaction of one move (moves, snapshot and owed posts), from the store;
- loop lag: how late a 5 ms ticker on the bot's event loop ran (rendering must not stall it).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import locales  # noqa: E402
from bot.app import create_bot  # noqa: E402
from rules.engine import ai_move  # noqa: E402
from rules.registry import GAMES  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.test_platform import table_snapshot  # noqa: E402


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def _line(label: str, seconds: list[float]) -> str:
    return (f"{label:<34} median {1000 * statistics.median(seconds):8.2f} ms   "
            f"p95 {1000 * _p95(seconds):8.2f} ms   (n={len(seconds)})")


async def run(moves: int, workers: int, game_key: str, options: str, locale: str | None = None) -> None:
    fake = FakeDiscord()
    await fake.start()
    if locale:
        fake.guild_locale = locale  # the posts (and their images) in that language, as the players' replies
    # The board post's header (its text: a layout post has no content) says which move it shows: its
    # template in the server's language, from the catalog, as a pattern of the move number.
    language = locales.language_of(locale)
    template = locales.gettext(language, "**{title}** · game #{id} · move {n}").split("{id}", 1)[1]
    header = re.compile(re.escape(template).replace(re.escape("{n}"), r"(\d+)"))
    over_word = locales.gettext(language, "Game over", game_key)
    lags: list[float] = []
    try:
        db = str(Path(tempfile.mkdtemp()) / "bench.db")
        bot = await fake.start_bot(create_bot(db, render_workers=workers, **fake.bot_kwargs()))
        players = [fake.user(n) for n in ("Ann", "Bob", "Cid")]
        by_id = {u.id: u for u in players}
        channel = fake.channel("games")
        await fake.slash(players[0], channel, "game new", options={"game": game_key, "options": options},
                         locale=locale)
        for user in players[1:]:
            await fake.slash(user, channel, "game join", locale=locale)
        await fake.slash(players[0], channel, "game start", locale=locale)

        def boards() -> list:
            return [m for m in channel.messages if not m.ephemeral and m.attachments and header.search(m.text)]

        def shown() -> int:
            """The newest move a board post of the channel shows (posts are edited in place)."""
            return max((int(header.search(m.text).group(1)) for m in boards()), default=0)

        await fake.wait_for(lambda: boards(), timeout=60, what="first board")

        measuring = [False]  # off while this script itself computes the next move on the loop

        async def ticker() -> None:
            while True:
                start = time.perf_counter()
                await asyncio.sleep(0.005)
                if measuring[0]:
                    lags.append(time.perf_counter() - start - 0.005)

        tick = asyncio.create_task(ticker())
        greedy = GAMES[game_key].ai("greedy")
        acks: list[float] = []
        posts: list[float] = []
        commits_before = len(bot.store.commit_seconds)
        played = 0
        while played < moves:
            measuring[0] = False
            state, users, _, _, status = table_snapshot(db, GAMES[game_key])
            if status != "running":  # a finished game: start the next one in the same channel
                await fake.wait_for(lambda: over_word in boards()[-1].text, timeout=60)
                break
            seat = min(state.to_act())
            move = str(ai_move(state, seat, greedy))
            after = state.moves_applied + 1  # the move number its board post shows
            await asyncio.sleep(0.01)  # let the ticker resume before measuring
            measuring[0] = True
            arrived = time.perf_counter()
            ix = await fake.slash(by_id[users[seat]], channel, "play", options={"move": move}, wait=False,
                                  locale=locale)
            await ix.wait(timeout=30)
            acks.append(ix.latency)
            await fake.wait_for(lambda n=after: shown() >= n, timeout=60, what="board post")
            posts.append(time.perf_counter() - arrived)
            # Let the DMs of this move go out before the next one, as players would be slower.
            await fake.wait_for(lambda: not bot.delivery._flushing, timeout=60)
            played += 1
        tick.cancel()
        commits = bot.store.commit_seconds[commits_before:]
        print(f"game {game_key} ({options or 'defaults'}), 3 players, {played} moves by /play, "
              f"render workers {workers}, locale {locale or 'en-US'}")
        print(_line("interaction -> ephemeral reply", acks))
        print(_line("interaction -> board post (PNG)", posts))
        print(_line("SQLite commit per move", commits))
        print(_line("event-loop lag (5 ms ticker)", lags) + f"   max {1000 * max(lags):.1f} ms")
        await fake.stop_bot(bot)
    finally:
        await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--workers", type=int, default=1, help="render processes (0: a thread, for comparison)")
    parser.add_argument("--game", default="trans_europa")
    parser.add_argument("--options", default="", help="table options, key=value key=value")
    parser.add_argument("--locale", default=None, help="players' and server's Discord locale, e.g. ja")
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.workers, args.game, args.options, args.locale))


if __name__ == "__main__":
    main()
