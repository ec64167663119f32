"""Board posts before DMs (issue 29): while board posts are being made, a game's DMs wait; the DMs
owed to one player meanwhile go out as one, and each shows the game as it was when it was owed,
not as it is when it is sent. The render line is held by hand (no timing involved)."""

from __future__ import annotations

import sqlite3

from bot.app import create_bot
from bot.render_queue import BOARD
from tests.bot import guess_game
from tests.e2e.test_exactly_once_posts import doubled, owed
from tests.e2e.test_outbox_stress import header_move, play
from tests.e2e.test_platform import board_posts, started_game


def hand_at(view, names) -> bytes:
    """A 'hand image' that says which position it shows (top level: the render pool calls it)."""
    return f"hand at move {view['moves_applied']}".encode()


def make_bot(fake, db):
    return create_bot(db, games=guess_game.GAMES, board_renderer=guess_game.board, hand_renderer=hand_at,
                      render_workers=0, **fake.bot_kwargs())


def owed_kinds(db) -> list[tuple[str, int | None]]:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT kind, seat FROM outbox ORDER BY id").fetchall()


def hand_shown(dm) -> str:
    return next(a.data for a in dm.attachments if a.filename == "hand.png").decode()


async def _started(fake, tmp_path, rounds: int):
    """A bot, a two-player Guess game started and its opening sent: (bot, db, ann, bob, channel,
    each player's DM count so far)."""
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options=f"rounds={rounds} span=20")
    await fake.wait_for(lambda: not owed(db), what="opening posts and welcome DMs")
    return bot, db, ann, bob, general, {u.name: len(fake.dms(u)) for u in (ann, bob)}


async def _dms_after(fake, db, users, before):
    """Once everything owed is sent: each user's DMs since `before`."""
    await fake.wait_for(lambda: not owed(db), what="the DMs")
    await fake.drain()
    return [fake.dms(u)[before[u.name]:] for u in users]


async def test_dms_wait_for_the_board_posts_and_show_what_was_owed(fake_discord, tmp_path):
    fake = fake_discord
    bot, db, ann, bob, general, dms_before = await _started(fake, tmp_path, rounds=1)
    with bot.renderer.queue.ahead(BOARD):  # as if board posts of other games were being made
        await play(fake, ann, general, "bid 1")  # an edit: Bob still bids
        await play(fake, bob, general, "bid 1")  # move 2: Ann's turn begins (a DM owed to Ann)
        await play(fake, ann, general, "pass")  # move 3: Bob's turn begins (a DM owed to Bob)
        # The board posts go out; the DMs stay owed while board posts are being made.
        await fake.wait_for(lambda: header_move(board_posts(general)[-1]) == 3 and all(
            kind == "dm" for kind, _ in owed_kinds(db)), what="the board posts, the DMs held back")
        assert sorted(owed_kinds(db)) == [("dm", 0), ("dm", 1)]
        assert {u.name: len(fake.dms(u)) for u in (ann, bob)} == dms_before
    ann_dm, bob_dm = await _dms_after(fake, db, (ann, bob), dms_before)
    assert len(ann_dm) == 1 and len(bob_dm) == 1
    # Each DM shows the game when it was owed: Ann's as her turn began (move 2, before her pass),
    # Bob's as his began (move 3); sent after move 3, the old code drew both at move 3.
    assert hand_shown(ann_dm[0]) == "hand at move 2"
    assert hand_shown(bob_dm[0]) == "hand at move 3"
    # "Since your last turn" to then: Ann's shows Bob's bid (not her own pass, made later).
    assert "Since your last turn" in ann_dm[0].text and "Bob" in ann_dm[0].text.split("Since your last turn")[1]
    assert "Since your last turn" in bob_dm[0].text
    assert doubled(general) == []
    await fake.stop_bot(bot)


async def test_dms_owed_to_one_player_while_they_wait_go_out_as_one(fake_discord, tmp_path):
    fake = fake_discord
    bot, db, ann, bob, general, dms_before = await _started(fake, tmp_path, rounds=2)
    with bot.renderer.queue.ahead(BOARD):
        for user, move in [(ann, "bid 1"), (bob, "bid 1"),  # Ann's turn begins (move 2)
                           (ann, "pass"),  # Bob's turn begins (move 3)
                           (bob, "pass")]:  # round 2 deals (move 4): Ann's turn begins again, Bob's goes on
            await play(fake, user, general, move)
        await fake.wait_for(lambda: header_move(board_posts(general)[-1]) == 4 and all(
            kind == "dm" for kind, _ in owed_kinds(db)), what="the board posts, the DMs held back")
        assert sorted(owed_kinds(db)) == [("dm", 0), ("dm", 0), ("dm", 1)]  # Ann twice, Bob once
    ann_dm, bob_dm = await _dms_after(fake, db, (ann, bob), dms_before)
    # One DM each: Ann's two owed DMs as one, with the newest hand (round 2's number) and her news
    # once; Bob's as his turn began.
    assert len(ann_dm) == 1 and len(bob_dm) == 1
    assert hand_shown(ann_dm[0]) == "hand at move 4" and hand_shown(bob_dm[0]) == "hand at move 3"
    assert ann_dm[0].text.count("You bid 1.") == 1 and bob_dm[0].text.count("You bid 1.") == 1
    await fake.stop_bot(bot)
