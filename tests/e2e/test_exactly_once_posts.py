"""Posts and DMs exactly once: no doubles after a crash or a 5xx, no hand DM re-sent by a restart,
no line dropped from a long backlog (issue 12, finding 4)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap

import discord
import pytest

from bot.store import PendingPost, Store
from tests.e2e.test_platform import board_posts, make_bot, started_game


def bids_and_passes(rounds: int, seats: int) -> list[tuple[int, str]]:
    """A Guess game with no guesses: every round all seats bid 1, then each seat passes in turn."""
    return [(seat, move) for _ in range(rounds) for move in ("bid 1", "pass") for seat in range(seats)]


async def play_out(fake, db, users, channel, *, restart_every: int | None):
    """Start a Guess table and play it through /play; with `restart_every`, the bot is stopped and a
    new one started on the same database after that many moves. Returns the hand DMs per user."""
    bot = await fake.start_bot(make_bot(fake, db))
    await started_game(fake, users, channel, options="rounds=2 span=20")
    for n, (seat, move) in enumerate(bids_and_passes(2, len(users)), start=1):
        ix = await fake.slash(users[seat], channel, "play", options={"move": move})
        assert ix.text == f"You played `{move}`.", ix.text
        await fake.wait_for(lambda: not owed(db), what="posts sent")
        if restart_every and n % restart_every == 0:
            bot = await fake.restart_bot(bot, make_bot(fake, db))
            await fake.wait_for(lambda: not owed(db), what="posts sent after the restart")
    await fake.stop_bot(bot)
    # Each DM's first line, without the channel (the two runs play in different channels).
    return {u.name: [re.sub(r"<#\d+>", "<#…>", m.text.splitlines()[0]) for m in fake.dms(u)] for u in users}


def owed(db) -> int:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT count(*) FROM outbox").fetchone()[0]


def doubled(channel) -> list[str]:
    """Posts whose text and images another post of the channel repeats."""
    seen: set[tuple] = set()
    repeats = []
    for message in channel.messages:
        if message.ephemeral:
            continue
        key = (message.text, tuple(a.data for a in message.attachments))
        if key in seen:
            repeats.append(message.text[:80])
        seen.add(key)
    return repeats


async def test_fake_discord_honours_message_nonces(fake_discord, tmp_path):
    fake = fake_discord
    bot = await fake.start_bot(make_bot(fake, str(tmp_path / "j.db")))
    general = fake.channel("general")
    channel = bot.get_partial_messageable(general.id)
    first = await channel.send("once", nonce="jb1.x.b")
    again = await channel.send("once more", nonce="jb1.x.b")
    assert again.id == first.id and [m.text for m in general.messages] == ["once"]
    assert fake.nonce_hits == 1
    other = await channel.send("other", nonce="jb2.b")
    assert other.id != first.id
    with pytest.raises(discord.HTTPException) as error:
        await channel.send("too long", nonce="x" * 26)
    assert error.value.status == 400
    fake.fail_after_create(status=503)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("made, but the answer is lost", nonce="jb3.b")
    assert general.messages[-1].text == "made, but the answer is lost"
    assert (await channel.send("made, but the answer is lost", nonce="jb3.b")).id == general.messages[-1].id


async def test_a_post_discord_made_but_never_answered_is_not_posted_again(fake_discord, tmp_path):
    """The board post is created, but the bot gets a 503 (no retry in discord.py): it stays owed and
    the next flush sends it again; the batch nonce makes Discord answer with the first message."""
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    await fake.slash(ann, general, "play", options={"move": "bid 1"})  # an edit: Bob is still to bid
    await fake.wait_for(lambda: not owed(db), what="Ann's bid shown")
    # Bob's bid ends the simultaneous step: Ann's guessing turn begins with a new post.
    fake.fail_after_create(status=503, where=lambda m: m.channel_id == general.id and bool(m.attachments))
    await fake.slash(bob, general, "play", options={"move": "bid 1"})
    await fake.wait_for(lambda: fake.failed_after_create, what="the injected 503")
    await fake.drain()
    assert owed(db) >= 1  # the bot does not know its post was made
    await fake.slash(ann, general, "play", options={"move": "pass"})  # the next flush retries it
    await fake.wait_for(lambda: not owed(db), what="posts sent")
    assert fake.nonce_hits >= 1
    assert doubled(general) == []
    assert len(board_posts(general)) == 3  # the first board, then Ann's turn and Bob's, once each


async def test_discords_own_retry_after_a_502_does_not_double_the_board(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    await fake.slash(ann, general, "play", options={"move": "bid 1"})  # an edit: Bob is still to bid
    await fake.wait_for(lambda: not owed(db), what="Ann's bid shown")
    posts = len(board_posts(general))
    fake.fail_after_create(status=502, where=lambda m: bool(m.attachments))
    await fake.slash(bob, general, "play", options={"move": "bid 1"})
    await fake.wait_for(lambda: not owed(db), timeout=20, what="posts sent after discord.py's retry")
    assert len(fake.failed_after_create) == 1 and fake.nonce_hits == 1
    assert len(board_posts(general)) == posts + 1 and doubled(general) == []


async def test_a_crash_between_discord_accepting_and_the_outbox_delete_posts_nothing_twice(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    await fake.wait_for(lambda: not owed(db), what="opening posts")

    async def killed(game_id, post_ids, **ids):  # the process dies right after Discord took the post
        raise asyncio.CancelledError

    await fake.slash(ann, general, "play", options={"move": "bid 1"})  # an edit: Bob is still to bid
    await fake.wait_for(lambda: not owed(db), what="Ann's bid shown")
    dms_before = {u.name: len(fake.dms(u)) for u in (ann, bob)}
    bot.tables.board_shown = killed  # its rows' delete and the post's id: one write
    await fake.slash(bob, general, "play", options={"move": "bid 1"})
    await fake.drain()
    assert owed(db) >= 1  # Discord has the post; the store still owes it
    made = len(general.messages)
    bot = await fake.restart_bot(bot, make_bot(fake, db), drain=False)
    await fake.wait_for(lambda: not owed(db), what="owed posts after the restart")
    # The post of the turn Bob's bid began was made before the "crash" and is not made again.
    assert len(board_posts(general)) == 2 and doubled(general) == []
    assert len(general.messages) <= made
    assert fake.nonce_hits >= 1
    # Bob's turn DM (his hand as the pass step begins) arrived once, not once more per restart.
    assert len(fake.dms(bob)) - dms_before["Bob"] <= 1 and len(fake.dms(ann)) - dms_before["Ann"] <= 1
    assert not [m for u in (ann, bob) for m in fake.dms(u) if fake.dms(u).count(m) > 1]
    await fake.stop_bot(bot)


BOT_PROCESS = textwrap.dedent("""
    # The Guess bot in its own process, against the fake Discord at sys.argv[1] (a real SIGKILL target).
    import asyncio, sys
    import discord, yarl
    from bot.app import create_bot
    from tests.bot import guess_game
    from tests.e2e.fake_discord import API_PREFIX, TOKEN, FakeDiscord

    base, db = sys.argv[1], sys.argv[2]
    discord.http.Route.BASE = base + API_PREFIX
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(base.replace("http", "ws") + "/gateway")
    bot = create_bot(db, games=guess_game.GAMES, board_renderer=guess_game.board, hand_renderer=guess_game.hand,
                     render_workers=0, **FakeDiscord.bot_kwargs())
    if __name__ == "__main__":
        asyncio.run(bot.start(TOKEN))
""")


async def test_sigkill_at_the_upload_then_a_restart_posts_nothing_twice(fake_discord, tmp_path):
    """A bot process is SIGKILLed while Discord creates its board post (the write done, the answer
    never read); the next bot on the same database sends what the store still owes: Discord
    answers the same nonce with the first message, so nothing appears twice."""
    fake = fake_discord
    db = str(tmp_path / "j.db")
    script = tmp_path / "bot_process.py"
    script.write_text(BOT_PROCESS)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    process = subprocess.Popen([sys.executable, str(script), fake.base_url, db], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        await fake.wait_for(lambda: any(c.identified and not c.ws.closed for c in fake._conns) and fake.commands(),
                            timeout=30, what="the bot process connected")
        ann, bob = fake.user("Ann"), fake.user("Bob")
        general = fake.channel("general")
        await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
        await fake.wait_for(lambda: not owed(db), what="opening posts")

        def kill_at_the_board(message):
            if message.channel_id == general.id and message.attachments:
                os.kill(process.pid, signal.SIGKILL)
                fake.on_created = None

        await fake.slash(ann, general, "play", options={"move": "bid 1"})  # an edit: Bob is still to bid
        await fake.wait_for(lambda: not owed(db), what="Ann's bid shown")
        fake.on_created = kill_at_the_board  # at the post of the turn Bob's bid begins
        await fake.slash(bob, general, "play", options={"move": "bid 1"})
        await asyncio.to_thread(process.wait, 10)
        assert process.returncode == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
    assert owed(db) >= 1 and len(board_posts(general)) == 2  # Discord has the post; the store owes it
    bot = await fake.start_bot(make_bot(fake, db))
    await fake.wait_for(lambda: not owed(db), what="owed posts after the restart")
    assert len(board_posts(general)) == 2 and doubled(general) == [] and fake.nonce_hits >= 1
    await fake.stop_bot(bot)


async def test_restarts_do_not_resend_hand_dms(fake_discord, tmp_path):
    fake = fake_discord
    users = [fake.user("Ann"), fake.user("Bob"), fake.user("Cid")]
    steady = await play_out(fake, str(tmp_path / "a.db"), users, fake.channel("general"), restart_every=None)
    restarted = await play_out(fake, str(tmp_path / "b.db"), users, fake.channel("games"), restart_every=1)
    steady = {name: [line.replace("game #1", "game #?") for line in dms] for name, dms in steady.items()}
    assert sum(map(len, steady.values())) >= 6
    # The second run's DMs follow the first's in every fake.dms(user) list: compare only its own.
    assert {name: [line.replace("game #1", "game #?") for line in dms[len(steady[name]):]]
            for name, dms in restarted.items()} == steady


async def test_a_long_backlog_arrives_complete_in_several_posts(fake_discord, tmp_path):
    """Thousands of owed lines (a long outage): every line arrives, once and in order, in posts
    within Discord's 2,000 characters; the board post comes last with the newest lines."""
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    await fake.wait_for(lambda: not owed(db), what="opening posts")
    await fake.stop_bot(bot)
    before = len(general.messages)
    lines = [f"line {n:05d}: Ann moved a train from one end of the line to the other" for n in range(3000)]
    secret = [f"secret {n:04d}: you drew a card" for n in range(400)]
    store = await Store.open(db)
    for start in range(0, len(lines), 10):
        await store.add_posts(1, [PendingPost("board", None, {"lines": lines[start:start + 10]})])
    await store.add_posts(1, [PendingPost("dm", 1, {"lines": secret[s:s + 50]}) for s in range(0, 400, 50)])
    await store.close()
    dms_before = len(fake.dms(bob))

    bot = await fake.start_bot(make_bot(fake, db))
    await fake.wait_for(lambda: not owed(db), timeout=30, what="the backlog")
    posts = general.messages[before:]
    assert len(posts) > 3 and all(len(p.text) <= 2000 for p in posts)
    assert posts[-1].attachments and posts[-1].buttons()  # the board post, last
    sent = [m.group(0) for p in posts for m in re.finditer(r"line \d{5}", p.text)]
    assert sent == [line[:10] for line in lines]
    dms = fake.dms(bob)[dms_before:]
    got = [m.group(0) for d in dms for m in re.finditer(r"secret \d{4}", d.text)]
    assert got == [line[:11] for line in secret] and all(len(d.text) <= 2000 for d in dms)
    assert dms[-1].attachments  # the hand image rides on the last DM
    await fake.stop_bot(bot)
