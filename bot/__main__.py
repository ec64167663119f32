"""python -m bot [run | demo | invite]: run the Discord bot, play an offline demo, print the invite URL."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path


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
    from bot.app import create_bot

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    dev_guild = int(settings["dev_guild"]) if settings["dev_guild"] else None
    client = create_bot(settings["db"], dev_guild=dev_guild)
    client.run(settings["token"], log_handler=None)
    return 0


def _invite(application_id: str | None) -> int:
    from bot.app import invite_url

    if not application_id:
        print("Usage: python -m bot invite APPLICATION_ID (from the Discord developer portal)", file=sys.stderr)
        return 2
    print(invite_url(int(application_id)))
    return 0


def _demo(args: argparse.Namespace) -> int:
    from bot.demo import play_demo
    from rules import registry

    games = list(registry.GAMES) if args.game == "all" else [args.game]
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
    invite.add_argument("application_id", nargs="?")
    args = parser.parse_args(argv)

    if args.command == "demo":
        return _demo(args)
    if args.command == "invite":
        return _invite(args.application_id)
    return _run()


if __name__ == "__main__":
    sys.exit(main())
