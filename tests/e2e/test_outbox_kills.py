"""SIGKILL again and again (issue 29): a bot process is killed at a random moment, many times over one
whole game (as Discord makes a board post, an edit or a DM, or right after a move's answer, or after
moves made during a Discord outage), and a new one takes over each time. At the end every event line
of the game is in exactly one board post, in order, except where a post says it again marked as a
recap (a new post's recap of the turn its edits showed); no DM is sent twice; no secret reaches
anyone else. The moments are drawn from a seeded random generator and are Discord events,
not times, so a run is the same on a fast or a slow machine."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap

from rules.engine import name_seats
from tests.bot import guess_game
from tests.e2e.fake_discord import FakeDiscordError
from tests.e2e.test_exactly_once_posts import doubled, owed
from tests.e2e.test_outbox_stress import shown_lines
from tests.e2e.test_platform import board_posts, started_game

SEED = 29
ROUNDS = 5
MOVES = 30  # the whole game (3 seats, 5 rounds); a kill every 1-3 moves

BOT_PROCESS = textwrap.dedent("""
    # The Guess bot in its own process (a SIGKILL target); its 'hand image' is the DM's view in JSON.
    import asyncio, sys
    import discord, yarl
    from bot.app import create_bot
    from tests.bot import guess_game
    from tests.e2e.fake_discord import API_PREFIX, TOKEN, FakeDiscord
    from tests.e2e.test_outbox_kills import view_json

    base, db = sys.argv[1], sys.argv[2]
    discord.http.Route.BASE = base + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws") + "/gateway")
    bot = create_bot(db, games=guess_game.GAMES, board_renderer=guess_game.board, hand_renderer=view_json,
                     render_workers=0, **FakeDiscord.bot_kwargs())
    if __name__ == "__main__":
        asyncio.run(bot.start(TOKEN))
""")


def view_json(view, names) -> bytes:
    """The 'hand image': the very view drawn, so two DMs with equal images showed one position."""
    return json.dumps(view, sort_keys=True).encode()


def stored_game(db):
    """(state, user id per seat, names, options, seed, [(seat, notation)...]) as committed."""
    with sqlite3.connect(db) as raw:
        state = raw.execute("SELECT state FROM snapshots WHERE game_id = 1").fetchone()[0]
        seats = raw.execute("SELECT user_id, name FROM seats WHERE game_id = 1 ORDER BY seat").fetchall()
        options, seed = raw.execute("SELECT options, seed FROM games WHERE id = 1").fetchone()
        moves = raw.execute("SELECT seat, notation FROM moves WHERE game_id = 1 ORDER BY n").fetchall()
    options = {k: v for k, v in json.loads(options).items() if not k.startswith("_")}  # the table's own keys
    return (guess_game.DEFINITION.from_json(json.loads(state)), [s[0] for s in seats], [s[1] for s in seats],
            options, seed, moves)


def move_lines(db) -> list[str]:
    """Every public event line of the stored moves, in order, replayed (the engines are deterministic)."""
    _, users, names, options, seed, moves = stored_game(db)
    state = guess_game.DEFINITION.new_game(len(users), options, seed)
    lines = []
    for seat, notation in moves:
        lines += [name_seats(e.text, names) for e in state.apply(seat, notation) if e.seats is None]
    return lines


def private_lines(db) -> dict[int, list[str]]:
    """Each seat's private event lines of the stored moves, in order."""
    _, users, names, options, seed, moves = stored_game(db)
    state = guess_game.DEFINITION.new_game(len(users), options, seed)
    lines: dict[int, list[str]] = {seat: [] for seat in range(len(users))}
    for seat, notation in moves:
        for event in state.apply(seat, notation):
            for reader in sorted(event.seats or ()):
                lines[reader].append(name_seats(event.text, names))
    return lines


RECAP = "(recap) "  # how a post marks a line an earlier post showed (bot.delivery.posting.recap)


def said(posts) -> list[str]:
    """The lines the posts say, in order, the lines marked as a recap left out; each recap line
    repeats a line an earlier post said."""
    out: list[str] = []
    for post in posts:
        for line in shown_lines(post):
            if line.startswith(RECAP):
                assert line[len(RECAP):] in out, line  # a recap says again what was said, nothing new
            else:
                out.append(line)
    return out


async def test_sigkill_again_and_again_says_every_line_once_and_no_dm_twice(fake_discord, tmp_path):
    fake = fake_discord
    rng = random.Random(SEED)
    db = str(tmp_path / "j.db")
    script = tmp_path / "bot_process.py"
    script.write_text(BOT_PROCESS)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    users = [fake.user(name) for name in ("Ann", "Bob", "Cid")]
    general = fake.channel("general")
    processes: list[subprocess.Popen] = []

    async def start() -> subprocess.Popen:
        old = list(fake._conns)
        process = subprocess.Popen([sys.executable, str(script), fake.base_url, db], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(process)
        await fake.wait_for(lambda: process.poll() is None and all(c.ws.closed for c in old) and any(
            c.identified and not c.ws.closed for c in fake._conns if c not in old),
                            timeout=30, what="the bot process connected")
        return process

    def kill(process: subprocess.Popen) -> None:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)

    edit = fake._edit_message
    edited = []  # called on every edit of a message with attachments in the game's channel

    def on_edit(message, body, files):
        edit(message, body, files)
        if message.channel_id == general.id and message.attachments:
            for hook in list(edited):
                hook(message)

    fake._edit_message = on_edit
    kills: list[str] = []
    try:
        process = await start()
        await fake.wait_for(lambda: fake.commands(), timeout=30, what="commands synced")
        await started_game(fake, users, general, options=f"rounds={ROUNDS} span=5")
        await fake.wait_for(lambda: not owed(db), what="opening posts")
        opening = board_posts(general)[0]
        played = 0
        while played < MOVES:
            # The moment of this round's kill: the n-th board post, edit or DM the bot makes, or
            # right after the answer to one of its next moves.
            moment, n = rng.choice(["post", "edit", "dm", "answer", "outage"]), rng.randint(1, 2)
            if moment == "outage":  # Discord fails every post, edit and DM; the kill comes after the moves
                fake.outage(503)
            count = [0]

            def at(kind: str, message, process=process, moment=moment, n=n, count=count) -> None:
                if kind == moment:
                    count[0] += 1
                    if count[0] == n:
                        kill(process)
                        kills.append(f"{moment} {n}")

            fake.on_created = lambda m, at=at: at(
                "post" if m.channel_id == general.id and m.attachments else "dm" if m.guild_id is None else "", m)
            edited[:] = [lambda m, at=at: at("edit", m)]
            for _ in range(3):  # a few moves, until the process dies
                if played >= MOVES or process.poll() is not None:
                    break
                state, user_ids, *_ = stored_game(db)
                seat = min(state.to_act())
                user = next(u for u in users if u.id == user_ids[seat])
                move = str(rng.choice(state.legal_moves(seat)))
                try:
                    ix = await fake.slash(user, general, "play", options={"move": move}, wait=False)
                except FakeDiscordError:  # killed just now (a post of the move before): not connected
                    break
                await fake.wait_for(lambda ix=ix, process=process: ix.answered_at is not None
                                    or process.poll() is not None,
                                    timeout=20, what="the move's answer or the kill")
                played = len(stored_game(db)[5])
                if ix.answered_at is not None:
                    at("answer", None)
                    await asyncio.sleep(rng.random() * 0.05)  # let the kill land, or the posts go on
            if process.poll() is None:  # the round's moment did not come: killed now, wherever it is
                kill(process)
                kills.append("after the moves" if moment != "outage" else "after the moves in an outage")
            fake.outage(None)
            await asyncio.to_thread(process.wait, 10)
            fake.on_created, edited[:] = None, []
            process = await start()  # sends what is owed as it starts
        # A row leaves the outbox once Discord answered its post: then everything owed is there.
        await fake.wait_for(lambda: not owed(db), timeout=30, what="everything owed after the last restart")
    finally:
        fake.on_created, edited[:] = None, []
        for process in processes:
            kill(process)
            process.wait(10)

    posts = board_posts(general)
    assert doubled(general) == []
    # Every event line of the game in exactly one post, in order (the opening words first), but for
    # the recaps, which are marked.
    first = opening.versions[0] if opening.versions else opening
    assert said(posts) == shown_lines(first) + move_lines(db), kills
    assert any(line.startswith(RECAP) for post in posts for line in shown_lines(post))  # recaps were shown
    assert "outage" in " ".join(kills) and stored_game(db)[0].is_over(), kills
    # No DM twice: each DM's text and view differ from every other DM of its player.
    _, user_ids, *_ = stored_game(db)
    for seat, user in enumerate(users):
        dms = [(m.text, tuple(a.data for a in m.attachments)) for m in fake.dms(user)]
        assert len(set(dms)) == len(dms), (user.name, kills)
        # No leak: a DM shows its player's own view only, and no private line reaches the channel.
        for m in fake.dms(user):
            for a in m.attachments:
                if a.filename == "hand.png":
                    assert json.loads(a.data)["seat"] == seat
        # Nothing lost: the player's private news reached them once each, in order (the newest may
        # still wait for their next DM).
        news = [line[2:] for m in fake.dms(user) for line in m.text.splitlines() if line.startswith("• ")]
        owed_news = private_lines(db)[seat]
        assert news == owed_news[:len(news)] and len(news) >= len(owed_news) - 2, (user.name, kills)
    for message in general.messages:
        if not message.ephemeral:
            assert "You bid" not in message.all_text() and " holds " not in message.all_text()
    assert len(kills) >= MOVES // 3, kills
