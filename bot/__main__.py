"""python -m bot [run | demo | invite | migrate-db | ratings-backfill]: run the Discord bot, play an offline
demo, print the invite URL, copy an SQLite database into PostgreSQL, rate the finished games not rated yet."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any

log = logging.getLogger("bot.main")
BAD_TOKEN = ("Discord refused the token in .env (DISCORD_TOKEN): copy it again from the developer portal "
             "(your application → Bot → Reset Token), without quotes or spaces.")


def _settings() -> dict[str, str]:
    from dotenv import load_dotenv

    load_dotenv()
    return {
        "token": os.environ.get("DISCORD_TOKEN", "").strip(),
        "db": os.environ.get("JUNCTION_DB", "").strip() or "./junction.db",
        "dev_guild": os.environ.get("JUNCTION_DEV_GUILD", "").strip(),
        "render_workers": os.environ.get("JUNCTION_RENDER_WORKERS", "").strip(),
        "shards": os.environ.get("JUNCTION_SHARDS", "").strip(),
        "shard_count": os.environ.get("JUNCTION_SHARD_COUNT", "").strip(),
    }


def parse_shards(text: str, count: int | None) -> list[int]:
    """Shard ids from `0-3`, `4,5,7` or `0-1,6`; each must be below `count` when it is given."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"shards are written like 0-3 or 0,2,5, not {text!r}")
        ids.update(range(int(first), int(last or first) + 1))
    if count is not None and max(ids) >= count:
        raise ValueError(f"shard {max(ids)} does not exist with a shard count of {count} (ids go from 0 to {count - 1})")
    return sorted(ids)


def _run(args: argparse.Namespace) -> int:
    settings = _settings()
    if not settings["token"]:
        print(
            "No DISCORD_TOKEN: copy .env.example to .env and put your bot token in it.\n"
            "Without a token, try the offline demo: python -m bot demo",
            file=sys.stderr,
        )
        return 2
    import discord

    from bot.app import create_bot
    from bot.store import StoreOpenError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings["dev_guild"] and not settings["dev_guild"].isdigit():
        print(f"JUNCTION_DEV_GUILD in .env must be a server id (digits), not {settings['dev_guild']!r}.",
              file=sys.stderr)
        return 2
    dev_guild = int(settings["dev_guild"]) if settings["dev_guild"] else None
    shards_text = args.shards or settings["shards"]
    count_text = str(args.shard_count or "") or settings["shard_count"]
    try:
        shard_count = int(count_text) if count_text else None
        shard_ids = parse_shards(shards_text, shard_count) if shards_text else None
        workers = int(settings["render_workers"]) if settings["render_workers"] else None
    except ValueError as error:
        print(f"Bad shard or render settings: {error}", file=sys.stderr)
        return 2
    if shard_ids is not None and shard_count is None:
        print("--shards needs --shard-count (the total over every process), e.g. --shards 0-3 --shard-count 8",
              file=sys.stderr)
        return 2
    client = create_bot(settings["db"], dev_guild=dev_guild, render_workers=workers, shard_ids=shard_ids,
                        shard_count=shard_count)
    try:
        asyncio.run(serve(client, settings["token"]))
    except discord.LoginFailure:
        print(BAD_TOKEN, file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord refused an intent the bot asked for; Junction needs no privileged intent: "
              "check that this is the Junction bot's token.", file=sys.stderr)
        return 1
    except StoreOpenError as error:  # a corrupt, locked or newer database: one line, never a hang
        print(error, file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a second Ctrl+C while closing, or one where signals cannot be caught
        return 130
    return 0


async def serve(client: Any, token: str, stop: asyncio.Event | None = None) -> None:
    """Run the bot until it ends or SIGINT/SIGTERM (or `stop`) asks it to; then close it gracefully:
    interactions in flight finish and are answered first (JunctionBot.close)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    caught = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        # Not on Windows or outside the main thread: Ctrl+C then interrupts as Python's default.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, stop.set)
            caught.append(signum)
    try:
        async with client:
            running = asyncio.create_task(client.start(token), name="junction-bot")
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not running.done():
                log.info("shutting down: finishing the interactions in flight")
                await client.close()
            await running  # re-raises what ended the bot (a refused token, a database that cannot open)
    finally:
        for signum in caught:
            loop.remove_signal_handler(signum)


def _invite(application_id: int | None) -> int:
    from bot.app import invite_url

    if not application_id:
        print("Usage: python -m bot invite APPLICATION_ID (from the Discord developer portal)", file=sys.stderr)
        return 2
    print(invite_url(application_id))
    return 0


def _application_id(text: str) -> int:
    """argparse type: a Discord application id, a snowflake of 17 to 20 digits."""
    if not (text.isascii() and text.isdigit() and 17 <= len(text) <= 20):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an application id: copy the number (17 to 20 digits) from the developer portal, "
            "your application → General Information → Application ID")
    return int(text)


def _demo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from bot.demo import play_demo
    from rules import registry

    if args.game != "all" and args.game not in registry.GAMES:
        parser.error(f"argument --game: unknown game {args.game!r}; choose from {', '.join(registry.GAMES)}, all")
    games = list(registry.GAMES) if args.game == "all" else [args.game]
    for key in games:
        definition = registry.get(key)
        if args.players and not definition.min_players <= args.players <= definition.max_players:
            parser.error(f"argument --players: {definition.title} ({key}) takes {definition.min_players} to "
                         f"{definition.max_players} players, not {args.players}")
    for key in games:
        definition = registry.get(key)
        players = args.players or max(definition.min_players, min(4, definition.max_players))
        out = Path(args.out) / key if len(games) > 1 else Path(args.out)
        print(play_demo(key, players, args.seed, out, ai=args.ai, lang=args.lang))
        print()
    return 0


def _migrate_db(source: str, target: str) -> int:
    from bot.db import is_postgres
    from bot.store import Store, StoreError, StoreOpenError

    if is_postgres(source) or not os.path.isfile(source):
        print(f"FROM must be an existing SQLite file, not {source!r}", file=sys.stderr)
        return 2
    if not is_postgres(target):
        print(f"TO must be a postgresql:// URL, not {target!r}", file=sys.stderr)
        return 2

    async def copy() -> dict[str, int]:
        src = await Store.open(source)
        try:
            dst = await Store.open(target)
            try:
                return await dst.copy_from(src)
            finally:
                await dst.close()
        finally:
            await src.close()

    try:
        counts = asyncio.run(copy())
    except (StoreError, StoreOpenError) as error:
        print(error, file=sys.stderr)
        return 1
    print("copied " + ", ".join(f"{n} {table}" for table, n in counts.items() if n) + f" into {target.split('@')[-1]}")
    return 0


def _ratings_backfill(target: str) -> int:
    """Apply the rating updates of every finished game that has none yet, in the order they ended."""
    from bot.rating_store import apply_pending
    from bot.store import Store, StoreError, StoreOpenError

    async def backfill() -> int:
        store = await Store.open(target)
        try:
            return await apply_pending(store)
        finally:
            await store.close()

    try:
        applied = asyncio.run(backfill())
    except (StoreError, StoreOpenError) as error:
        print(error, file=sys.stderr)
        return 1
    print(f"ratings: {applied} finished games applied" if applied else "ratings: nothing to apply, all finished"
          " games are rated already")
    return 0


def main(argv: list[str] | None = None) -> int:
    import locales  # the languages the demo speaks (locales/LINGUAS)

    parser = argparse.ArgumentParser(prog="python -m bot", description="Junction: railway board games in Discord")
    parser.add_argument("--shards", default="", help="shard ids this process serves, e.g. 0-3 (with --shard-count;"
                        " env JUNCTION_SHARDS)")
    parser.add_argument("--shard-count", type=int, default=0, help="shards over all processes (env JUNCTION_SHARD_COUNT)")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot with DISCORD_TOKEN from .env (the default)")
    migrate = sub.add_parser("migrate-db", help="copy an SQLite database into an empty PostgreSQL database")
    migrate.add_argument("source", metavar="FROM", help="the SQLite file (stop the bot that uses it first)")
    migrate.add_argument("target", metavar="TO", help="postgresql://user:password@host:port/database")
    sub.add_parser("ratings-backfill", help="rate the finished games that have no rating update yet (JUNCTION_DB;"
                   " running it again changes nothing)")
    demo = sub.add_parser("demo", help="play a whole game offline with AI seats and write the board images")
    demo.add_argument("--game", default="trans_europa", help="game key, or 'all'")
    demo.add_argument("--players", type=int, default=0, help="number of AI seats (default: 4, or the minimum)")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--out", default="demo")
    demo.add_argument("--ai", default="greedy", choices=("greedy", "random"))
    demo.add_argument("--lang", default="en", choices=locales.LANGUAGES, help="language of the images and the log")
    invite = sub.add_parser("invite", help="print the URL that invites the bot to a server")
    invite.add_argument("application_id", nargs="?", type=_application_id)
    args = parser.parse_args(argv)

    if args.command == "demo":
        return _demo(args, demo)
    if args.command == "invite":
        return _invite(args.application_id)
    if args.command == "migrate-db":
        return _migrate_db(args.source, args.target)
    if args.command == "ratings-backfill":
        return _ratings_backfill(_settings()["db"])
    return _run(args)


if __name__ == "__main__":
    sys.exit(main())
