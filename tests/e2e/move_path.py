"""The path of a move from a click to its board post, counted: which of Junction's modules it crosses.

    python -m tests.e2e.move_path [--game trans_europa] [--moves 3]

Runs the real bot against the fake Discord (tests/e2e/fake_discord.py) with a registered game and
two players; the board is drawn in a thread (`render_workers=0`) so that render/ is traced too. For
each traced move a player opens the turn panel (Take turn), narrows it to its first move untraced,
then picks that move: from that click until the fake has the board post (or its edit) and the bot's
handlers are done (DMs sent), every call from one Junction module (bot/, render/, rules/) into
another is recorded, in every thread. A coroutine resumed after an await is not a new call.

It prints, per move: the modules crossed in the order they are first entered; the hops (a call
from one module into another; returns and calls inside a module are not counted), all of them and
those between two bot/ modules; the store operations (its async methods and the game lock, called
from outside bot/store/), and how many of them a cog or a component calls past the service
(bot/tables.py); the module pairs with their counts.
docs/architecture.md quotes its output; run it again after the bot layer changes shape.
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import inspect
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from bot.app import create_bot
from rules.registry import GAMES
from tests.e2e.fake_discord import FakeDiscord

OURS = ("bot", "render", "rules")
RESUME = dis.opmap["RESUME"]
ASYNC = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _first_entry(frame: FrameType) -> bool:
    """A function's start, not a coroutine or generator resumed after an await or a yield (its
    RESUME instruction's argument is 0 only at the start)."""
    code = frame.f_code.co_code
    return not (code[frame.f_lasti] == RESUME and code[frame.f_lasti + 1] != 0)


def _ours(frame: FrameType | None) -> str | None:
    name = frame.f_globals.get("__name__", "") if frame is not None else ""
    if name.startswith("bot.store."):
        name = "bot.store"  # the store package counts as one module, as bot/store.py did
    return name if name.split(".")[0] in OURS else None


class Tracer:
    """Records (caller module, callee module) for every call between two Junction modules."""

    def __init__(self) -> None:
        self.on = False
        self.hops: list[tuple[str, str, str, bool]] = []  # (caller, callee, callee function, async)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.on or event != "call":
            return
        callee = _ours(frame)
        if callee is None:
            return
        caller = _ours(frame.f_back)
        if caller is not None and caller != callee and _first_entry(frame):
            self.hops.append((caller, callee, frame.f_code.co_name, bool(frame.f_code.co_flags & ASYNC)))


def report(title: str, hops: list[tuple[str, str, str, bool]]) -> None:
    order: list[str] = []
    for caller, callee, _, _ in hops:
        for module in (caller, callee):
            if module not in order:
                order.append(module)
    # What the store does for the move: its async methods (and the game lock) called from outside.
    store_trips = [(c, f) for c, m, f, is_async in hops if m == "bot.store" and (is_async or f == "game_lock")]
    print(f"\n{title}")
    print(f"  modules crossed ({len(order)}): {' -> '.join(order)}")
    print(f"  hops (calls from one module into another): {len(hops)}")
    bot_hops = sum(1 for c, m, _, _ in hops if c.startswith("bot.") and m.startswith("bot."))
    print(f"  hops between two bot/ modules: {bot_hops}")
    print(f"  store operations (async calls into bot.store from outside it: {len(store_trips)}): "
          + ", ".join(f"{c.rsplit('.', 1)[-1]}->{f}" for c, f in store_trips))
    past = sum(1 for c, _ in store_trips if c != "bot.tables" and not c.startswith("bot.service"))
    print(f"    of which {past} past the service (from a cog or a component, not from bot.service)")
    pairs = Counter((c, m) for c, m, _, _ in hops)
    print(f"  distinct module pairs ({len(pairs)}):")
    for (caller, callee), count in sorted(pairs.items(), key=lambda item: -item[1]):
        print(f"    {count:4d}  {caller} -> {callee}")


async def main(game: str, moves: int) -> None:
    tracer = Tracer()
    sys.setprofile(tracer)
    threading.setprofile(tracer)  # the threads the bot starts from now on (to_thread, render)
    fake = FakeDiscord()
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            bot = await fake.start_bot(create_bot(str(Path(tmp) / "j.db"), render_workers=0, ai_workers=0,
                                                  **fake.bot_kwargs()))
            ann, bob = fake.user("Ann"), fake.user("Bob")
            channel = fake.channel("general")
            await fake.slash(ann, channel, "game new", options={"game": game, "seats": "join"})
            lobby = next(m for m in reversed(channel.messages) if m.buttons())
            await fake.click(bob, lobby, label="Join")
            await fake.click(ann, fake.message(lobby.id), label="Start")
            users = {ann.id: ann, bob.id: bob}

            def board_posts() -> list[Any]:
                return [m for m in channel.messages if not m.ephemeral and m.attachments and "game #" in m.text]

            def updates() -> int:
                return sum(1 + m.edits for m in board_posts())

            await fake.wait_for(board_posts, what="first board post")
            for number in range(moves + 1):  # move 0: a warm-up, untraced (it sends what the start owed)
                board = board_posts()[-1]
                user = next(users[u] for u in users if f"<@{u}>" in board.text)
                panel = (await fake.click(user, board, label="Take turn")).reply
                while True:  # narrow to the first move, untraced
                    values = [o["value"] for o in panel.component(custom_id=panel.custom_ids()[0])["options"]]
                    move = next((v for v in values if v.startswith("m:")), None)
                    if move is not None:
                        break
                    await fake.select(user, panel, [next(v for v in values if v.startswith("g:"))])
                    panel = fake.message(panel.id)
                before, posts_before = updates(), len(board_posts())
                tracer.hops.clear()
                tracer.on = number > 0
                await fake.select(user, panel, [move])
                await fake.wait_for(lambda n=before: updates() > n, what="board post or edit")
                await fake.drain()
                tracer.on = False
                if number == 0:
                    continue
                kind = "a new board post" if len(board_posts()) > posts_before else "an edit of the board post"
                report(f"move {number}: {user.name} picks `{move[2:]}` on the turn panel -> {kind}",
                       list(tracer.hops))
            await fake.stop_bot(bot)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        await fake.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="trans_europa", choices=sorted(GAMES))
    parser.add_argument("--moves", type=int, default=3, help="moves traced, after one untraced warm-up")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.game, arguments.moves))
