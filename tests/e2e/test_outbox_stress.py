"""The outbox under stress (issue 29): after a Discord 5xx burst, or a SIGKILL between a board post
and its edit, the channel shows every line once, the newest board last, and no older post changes.

What players see then is written down in docs/outages.md; these tests check it."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys

from tests.e2e.test_exactly_once_posts import BOT_PROCESS, doubled, owed
from tests.e2e.test_platform import board_posts, make_bot, started_game, table_snapshot


def shown_lines(post) -> list[str]:
    """The event lines of a board post, in order (its "• " lines)."""
    return [line[2:] for line in post.text.splitlines() if line.startswith("• ")]


def header_move(post) -> int:
    return int(re.search(r"· move (\d+)", post.text).group(1))


def frozen(posts) -> list[tuple[int, str, int]]:
    """What a set of posts shows now: id, text, edits (compared later: none may change)."""
    return [(p.id, p.text, p.edits) for p in posts]


async def play(fake, user, channel, move):
    ix = await fake.slash(user, channel, "play", options={"move": move})
    assert ix.text == f"You played `{move}`.", ix.text


async def test_after_a_5xx_burst_one_post_shows_the_whole_backlog_and_no_older_post_changes(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general = fake.channel("general")
    await started_game(fake, [ann, bob, cid], general, options="rounds=2 span=20")
    await fake.wait_for(lambda: not owed(db), what="opening posts")
    before = frozen(board_posts(general))
    dms_before = {u.name: len(fake.dms(u)) for u in (ann, bob, cid)}

    fake.outage(503)  # Discord fails every post, edit and DM of the bot; the moves go on
    for user, move in [(ann, "bid 1"), (bob, "bid 1"), (cid, "bid 1"),  # round 1's bids: Ann's turn begins
                       (ann, "pass"), (bob, "pass"), (cid, "pass"),  # round 2 begins with its bids
                       (ann, "bid 2")]:  # a decision inside round 2's bids: an edit of that post
        await play(fake, user, general, move)
    await fake.drain()
    assert fake.outage_answers >= 1 and owed(db) >= 7
    answered = fake.outage_answers
    assert frozen(board_posts(general)) == before  # nothing reached the channel

    fake.outage(None)  # Discord is back; Bob bids at once (his move's flush sends the backlog)
    await play(fake, bob, general, "bid 3")
    await fake.wait_for(lambda: not owed(db), timeout=30, what="the backlog after the outage")

    posts = board_posts(general)
    assert frozen(posts[:len(before)]) == before  # no older post was rewritten
    assert len(posts) == len(before) + 1 and doubled(general) == []  # the backlog is one post
    live = posts[-1]
    state = table_snapshot(db)[0]
    assert header_move(live) == state.moves_applied == 8  # the newest board
    # Every line since the opening post, once, in order: the turn the outage hid, then round 2's.
    lines = shown_lines(live)
    assert lines[:4] == ["Ann has bid.", "Bob has bid.", "Cid has bid.", "Bids: Ann 1, Bob 1, Cid 1"]
    assert lines[4:7] == ["Ann passes.", "Bob passes.", "Cid passes."]
    assert lines[7].startswith("Round 1 ends. Numbers: ")
    assert lines[8:] == ["Ann has bid.", "Bob has bid."]
    # It pinged, once when it was made, the players still to bid then (Cid, and Bob if the bot
    # retried before his bid), and nobody else.
    made = live.versions[0] if live.versions else live
    assert cid.id in made.pinged() <= {bob.id, cid.id} and live.edits <= 1
    # Each player got one DM for the backlog at most, none repeating another.
    for user in (ann, bob, cid):
        new = [m.text for m in fake.dms(user)[dms_before[user.name]:]]
        assert len(new) <= 1 and len(set(new)) == len(new), new

    # Another outage, and nobody moves after it: the bot tries again by itself.
    settled = frozen(board_posts(general))
    fake.outage(503)
    await play(fake, cid, general, "bid 1")  # the bids end: Ann's turn begins with a new post
    await fake.wait_for(lambda: fake.outage_answers > answered, what="the post failed")
    fake.outage(None)
    await fake.wait_for(lambda: not owed(db), timeout=30, what="the post after the second outage")
    posts = board_posts(general)
    assert len(posts) == len(before) + 2 and header_move(posts[-1]) == 9 and doubled(general) == []
    assert posts[-1].pinged() == {ann.id} and frozen(posts[:-1]) == settled
    await fake.stop_bot(bot)


async def test_sigkill_between_a_board_post_and_its_edit(fake_discord, tmp_path):
    """A post of round 2 and an edit of it are owed (Discord failed them); a bot process is
    SIGKILLed right after Discord made the post, before its edit; the next bot edits that post,
    not the one before it, and posts nothing twice."""
    fake = fake_discord
    db = str(tmp_path / "j.db")
    script = tmp_path / "bot_process.py"
    script.write_text(BOT_PROCESS)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general = fake.channel("general")

    def bot_process() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, str(script), fake.base_url, db], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    async def connected(process) -> None:
        await fake.wait_for(lambda: process.poll() is not None or any(
            c.identified and not c.ws.closed for c in fake._conns), timeout=30, what="the bot process connected")

    first = bot_process()
    second = None
    try:
        await connected(first)
        await fake.wait_for(lambda: fake.commands(), timeout=30, what="commands synced")
        await started_game(fake, [ann, bob, cid], general, options="rounds=2 span=20")
        for user, move in [(ann, "bid 1"), (bob, "bid 1"), (cid, "bid 1"), (ann, "pass"), (bob, "pass")]:
            await play(fake, user, general, move)
            await fake.wait_for(lambda: not owed(db), what="posts sent")
        before = frozen(board_posts(general))
        fake.outage(503)
        await play(fake, cid, general, "pass")  # round 2 begins: a new post, owed
        await play(fake, ann, general, "bid 2")  # an edit of that post, owed
        await fake.wait_for(lambda: owed(db) >= 2 and fake.outage_answers >= 2, what="both failed")
        first.send_signal(signal.SIGKILL)
        await asyncio.to_thread(first.wait, 10)
        fake.outage(None)

        def kill_at_the_board(message):  # Discord made the post; its edit never comes
            if message.channel_id == general.id and message.attachments:
                os.kill(second.pid, signal.SIGKILL)
                fake.on_created = None

        fake.on_created = kill_at_the_board
        second = bot_process()  # it sends what is owed as it starts, and dies at the post
        await asyncio.to_thread(second.wait, 40)
        assert second.returncode == -signal.SIGKILL
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.kill()
    assert owed(db) >= 1 and len(board_posts(general)) == len(before) + 1
    bot = await fake.start_bot(make_bot(fake, db))
    await fake.wait_for(lambda: not owed(db), timeout=20, what="owed posts after the restart")
    posts = board_posts(general)
    assert frozen(posts[:len(before)]) == before  # the post of Cid's turn still shows Cid's turn
    assert len(posts) == len(before) + 1 and doubled(general) == []
    live = posts[-1]
    assert header_move(live) == 7 and shown_lines(live)[0] == "Cid passes."
    assert shown_lines(live)[1].startswith("Round 1 ends. Numbers: ") and shown_lines(live)[2:] == ["Ann has bid."]
    await fake.stop_bot(bot)
