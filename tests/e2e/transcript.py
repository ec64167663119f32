"""A whole game's transcript: everything the bot sent, as players see it, to compare before and after a refactor.

    python -m tests.e2e.transcript OUT_DIR [--game KEY ...]    # one OUT_DIR/<game>.txt per game
    diff -r BEFORE_DIR AFTER_DIR                                # a refactor keeps behaviour: no difference

Each game is `tests/e2e/test_table_traffic.play_game` (two players sending the greedy AI's move by
/play, one normal AI seat, a restart after the 12th move) with the game's seed fixed. The transcript
lists every message of the game channel and of the players' DMs in the order they were created, with
each version of it: the text (every component's text too), who it pinged, its buttons and selects
(label and custom_id) and its attachments (name, alt text, a hash of the bytes). Discord timestamps
(`<t:…>`, real time) are written as `<t:…>`; nothing else is changed.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.e2e.fake_discord import FakeDiscord, FakeMessage, _walk_components

GAMES = ("ttr_cards", "great_western", "trans_europa", "off_the_rails", "santa_fe")
STAMP = re.compile(r"<t:\d+(:\w)?>")
SEED = 11


def _version_lines(message: FakeMessage) -> list[str]:
    lines = [STAMP.sub("<t:…>", line) for line in message.every_text().splitlines()]
    pinged = sorted(str(p) for p in message.pinged())
    if pinged:
        lines.append(f"[pings {', '.join(pinged)}]")
    for component in _walk_components(message.components):
        if component.get("type") in (2, 3, 5, 6, 7, 8):
            labels = [o.get("label", "") for o in component.get("options", [])]
            lines.append(f"[component {component.get('type')} {component.get('label', '')!r}"
                         f" {component.get('custom_id', '')!r}{' ' + repr(labels) if labels else ''}]")
    for attachment in message.attachments:
        digest = hashlib.sha256(attachment.data).hexdigest()[:16]
        lines.append(f"[file {attachment.filename} {digest} alt={attachment.description!r}]")
    return lines


def transcript(fake: FakeDiscord, channel: Any, users: list[int | None]) -> str:
    where: dict[int, str] = {m.id: f"#{channel.name}" for m in channel.messages}
    for user_id in users:
        if user_id is not None:
            user = fake.users[user_id]
            where.update({m.id: f"DM {user.name}" for m in fake.dms(user)})
    out: list[str] = []
    for message_id in sorted(where):
        message = fake.message(message_id)
        versions = [*message.versions, message] if message.versions else [message]
        for n, version in enumerate(versions):
            head = f"== {where[message_id]} message {message_id}" + (f" edit {n}" if n else "")
            out += [head, *("  " + line for line in _version_lines(version))]
    return "\n".join(out) + "\n"


async def record(key: str, workdir: Path) -> str:
    from tests.e2e.test_table_traffic import play_game

    fake = FakeDiscord()
    await fake.start()
    system_random = random.SystemRandom
    random.SystemRandom = lambda: random.Random(SEED)  # the game's seed
    try:
        _, (state, users, moves, channel, bot, db) = await play_game(fake, workdir, key, restart_at=12)
        await fake.stop_bot(bot)
        return transcript(fake, channel, users)
    finally:
        random.SystemRandom = system_random
        await fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--game", action="append", choices=GAMES)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for key in args.game or GAMES:
        with tempfile.TemporaryDirectory() as workdir:
            text = asyncio.run(record(key, Path(workdir)))
        (args.out / f"{key}.txt").write_text(text)
        print(f"{key}: {text.count('== ')} message versions -> {args.out / f'{key}.txt'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
