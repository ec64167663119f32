"""python -m bot [run | demo | invite]: run the Discord bot, play an offline demo, print the invite URL."""

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
    }


def _run() -> int:
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
    client = create_bot(settings["db"], dev_guild=dev_guild)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Junction: railway board games in Discord")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="run the bot with DISCORD_TOKEN from .env (the default)")
    demo = sub.add_parser("demo", help="play a whole game offline with AI seats and write the board images")
    demo.add_argument("--game", default="trans_europa", help="game key, or 'all'")
    demo.add_argument("--players", type=int, default=0, help="number of AI seats (default: 4, or the minimum)")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--out", default="demo")
    demo.add_argument("--ai", default="greedy", choices=("greedy", "random"))
    demo.add_argument("--lang", default="en", choices=("en", "ja"), help="language of the images and the log")
    invite = sub.add_parser("invite", help="print the URL that invites the bot to a server")
    invite.add_argument("application_id", nargs="?", type=_application_id)
    args = parser.parse_args(argv)

    if args.command == "demo":
        return _demo(args, demo)
    if args.command == "invite":
        return _invite(args.application_id)
    return _run()


if __name__ == "__main__":
    sys.exit(main())
