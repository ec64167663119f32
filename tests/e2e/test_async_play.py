"""Play across days end to end: the real bot against the fake Discord, with a clock the tests move.

Never a real wait: tests move the injected clock, then run the scheduler's due work
(`bot.scheduler.run_due()`, which waits for the scheduler loop if it is already at it).
"""

from __future__ import annotations

from bot.app import create_bot
from tests.bot import guess_game
from tests.bot.test_deadlines import GAMES, HOUR, T0, Clock
from tests.e2e.test_platform import board_posts, db_moves, seats, started_game, store_fingerprint


def make_bot(fake, db_path, clock):
    return create_bot(db_path, games=GAMES, board_renderer=guess_game.board, hand_renderer=guess_game.hand,
                      render_workers=0, now=clock, **fake.bot_kwargs())


async def tick(bot, clock, hours):
    """Move the clock, then let the scheduler do (and post) everything due by then; return the games
    fired (by this call or by the scheduler loop, which may get there first)."""
    before = len(bot.scheduler.fired)
    clock.advance(hours)
    await bot.scheduler.run_due()
    return [game for _, game in bot.scheduler.fired[before:]]


async def start_table(fake, channel, users, *, options="rounds=1", **new):
    return await started_game(fake, users, channel, options=options, **new)


def reminders(fake, user):
    return [m for m in fake.dms(user) if m.text.startswith("⏰")]


def mentions(channel, user):
    return [m for m in channel.messages if m.text.startswith(f"<@{user.id}>, it is your turn")]


async def test_deadline_reminders_with_a_working_dm_button_then_the_ai_plays(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general = fake.channel("general")
    board = await start_table(fake, general, [ann, bob, cid], timer=24)
    assert f"⏰ Time runs out <t:{int(T0 + 24 * HOUR)}:R>." in board.text
    await fake.slash(ann, general, "play", options={"move": "bid 1"})
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="posts")

    assert await tick(bot, clock, 11.9) == []
    assert await tick(bot, clock, 0.1) == [1]  # half time
    for user in (bob, cid):
        [dm] = reminders(fake, user)
        assert f"<t:{int(T0 + 24 * HOUR)}:R>" in dm.text and "game #1" in dm.text
        assert [b["label"] for b in dm.buttons()] == ["Take turn", "Mute reminders for this game"]
        assert len(mentions(general, user)) == 1
    assert not reminders(fake, ann)  # she has played

    # Bob opens his move picker right in the DM and plays there.
    ix = await fake.click(bob, reminders(fake, bob)[0], label="Take turn")
    assert ix.ephemeral and "Your move" in ix.text
    ix = await fake.select(bob, ix.reply, ["m:bid 2"])
    assert ix.text == "You played `bid 2`."

    assert await tick(bot, clock, 11) == [1]  # an hour before: only Cid still owes a move
    assert len(reminders(fake, cid)) == 2 and len(reminders(fake, bob)) == 1
    assert len(mentions(general, cid)) == 1  # one channel mention per turn
    posts = len(board_posts(general))
    assert await tick(bot, clock, 1) == [1]  # the deadline
    told = board_posts(general)[posts]
    assert "Time ran out for Cid: the AI played for them." in told.text
    assert [(s, n[:3]) for _, s, n in db_moves(db)][:3] == [(0, "bid"), (1, "bid"), (2, "bid")]
    assert [t for t, game in bot.scheduler.fired if game == 1] == [T0 + 12 * HOUR, T0 + 23 * HOUR, T0 + 24 * HOUR]
    # The guessing turn that follows runs on a fresh 24 h clock.
    assert f"<t:{int(clock() + 24 * HOUR)}:R>" in board_posts(general)[-1].text
    await fake.stop_bot(bot)


async def test_restart_with_deadlines_pending_and_past_loses_and_doubles_nothing(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general, games = fake.channel("general"), fake.channel("games")
    await start_table(fake, general, [ann, bob], timer=2)  # game 1: times out while the bot is down
    await start_table(fake, games, [ann, bob], timer=30)  # game 2: its reminder is still ahead
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="posts")
    await fake.stop_bot(bot)

    clock.advance(3)
    bot = await fake.start_bot(make_bot(fake, db, clock))
    told = await fake.wait_for(lambda: [m for m in general.messages if "Time ran out" in m.text],
                               what="the missed deadline handled at start")
    assert await bot.scheduler.run_due() == []
    assert len(db_moves(db, 1)) == 2 and not db_moves(db, 2)
    assert bot.scheduler.due(2) == T0 + 15 * HOUR
    assert not reminders(fake, ann)  # the missed reminder of a turn already over is not sent late
    await fake.stop_bot(bot)

    bot = await fake.start_bot(make_bot(fake, db, clock))  # once more: nothing fires again
    assert await bot.scheduler.run_due() == []
    await fake.drain()
    assert [m for m in general.messages if "Time ran out" in m.text] == told
    assert len(db_moves(db, 1)) == 2
    assert 2 in await tick(bot, clock, 12)  # game 2's half time, after two restarts
    assert len([m for m in reminders(fake, ann) if "game #2" in m.text]) == 1
    assert len(mentions(games, ann)) == 1
    await fake.stop_bot(bot)


async def test_quiet_hours_hold_reminders_and_extend_the_deadline(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()  # T0 is 08:00 UTC, 17:00 in Tokyo
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    ix = await fake.slash(bob, general, "clock quiet", options={"timezone": "Asia/Tokyo", "start": "18:30",
                                                                "end": "21:30"})
    assert ix.ephemeral and "Quiet hours 18:30–21:30 (Asia/Tokyo)" in ix.text
    ix = await fake.slash(bob, general, "clock quiet", options={"timezone": "Moon/Base", "start": "1", "end": "2"})
    assert "Unknown time zone" in ix.text
    board = await start_table(fake, general, [ann, bob], timer=4)
    # Ann's deadline 21:00 Tokyo time; Bob's falls in his quiet hours and moves to 21:30.
    assert f"Ann <t:{int(T0 + 4 * HOUR)}:R>, Bob <t:{int(T0 + 4.5 * HOUR)}:R>" in board.text
    await tick(bot, clock, 2)
    await tick(bot, clock, 1)
    assert len(reminders(fake, ann)) == 2 and not reminders(fake, bob)  # Bob's fall in quiet hours
    await tick(bot, clock, 1)
    assert [s for _, s, _ in db_moves(db)] == [0]  # Ann timed out; Bob still has half an hour
    await tick(bot, clock, 0.5)
    assert sorted(s for _, s, _ in db_moves(db)) == [0, 1]
    await fake.stop_bot(bot)


async def test_vacation_pauses_the_clock_and_the_board_shows_it(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    board = await start_table(fake, general, [ann, bob], timer=24, vacation=10)
    ix = await fake.slash(ann, general, "clock pause", options={"hours": 12})
    assert "at most 10 more hours" in ix.text
    ix = await fake.slash(ann, general, "clock pause", options={"hours": 6})
    assert ix.ephemeral and f"<t:{int(T0 + 6 * HOUR)}:f>" in ix.text
    # The board is under an hour old: edited in place with the new deadlines.
    edited = await fake.wait_for(lambda: fake.message(board.id).edits and fake.message(board.id))
    assert f"Ann <t:{int(T0 + 30 * HOUR)}:R>, Bob <t:{int(T0 + 24 * HOUR)}:R>" in edited.text
    ix = await fake.slash(ann, general, "clock status")
    assert "paused until" in ix.text and "Vacation used: 6 of 10 h" in ix.text
    ix = await fake.slash(bob, general, "game status")
    assert f"To act: Ann (time runs out <t:{int(T0 + 30 * HOUR)}:R>), Bob (time runs out" in ix.text
    await tick(bot, clock, 2)
    posts = len(board_posts(general))
    ix = await fake.slash(ann, general, "clock resume")  # back after 2 of 6 hours: 4 come back
    assert "Your clock runs again; 4.0 unused hours are back." in ix.text
    # The board is now two hours old: not edited again, a new board post tells the change.
    post = await fake.wait_for(lambda: len(board_posts(general)) > posts and board_posts(general)[-1])
    assert "Ann is back; their clock runs again." in post.text
    assert f"Ann <t:{int(T0 + 26 * HOUR)}:R>" in post.text and fake.message(board.id).edits == 1
    await tick(bot, clock, 10)  # T0 + 12 h: Bob's half time; Ann's (T0 + 13 h) is still ahead
    assert reminders(fake, bob) and not reminders(fake, ann)
    await tick(bot, clock, 12)  # T0 + 24 h: Bob times out, Ann does not
    assert [s for _, s, _ in db_moves(db)] == [1]
    await fake.stop_bot(bot)


async def test_hand_over_keeps_the_secrets_with_the_holder(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob, dee = fake.user("Ann"), fake.user("Bob"), fake.user("Dee")
    general = fake.channel("general")
    await start_table(fake, general, [ann, bob], timer=24)
    await fake.wait_for(lambda: fake.dms(ann) and fake.dms(bob), what="welcome DMs")
    ix = await fake.slash(ann, general, "seat give", options={"member": bob})
    assert "already holds a seat" in ix.text
    ix = await fake.slash(ann, general, "seat give", options={"member": dee})
    offer = ix.reply
    assert not ix.ephemeral and dee.mention in offer.text
    ix = await fake.click(bob, offer, label="Accept the seat")
    assert ix.ephemeral and "offered to someone else" in ix.text
    ann_dms = len(fake.dms(ann))
    ix = await fake.click(dee, offer, label="Accept the seat")
    assert ix.response_type == 7 and "took over" in fake.message(offer.id).text
    await fake.wait_for(lambda: fake.dms(dee), what="the new holder's DM")
    welcome = fake.dms(dee)[0]
    assert "Welcome to **Guess**" in welcome.text and welcome.attachments[0].is_png
    assert seats(db)[0] == dee.id
    ix = await fake.slash(ann, general, "hand")
    assert "not playing" in ix.text
    ix = await fake.slash(dee, general, "play", options={"move": "bid 2"})
    assert ix.text == "You played `bid 2`."
    await fake.slash(bob, general, "play", options={"move": "bid 0"})
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="posts")
    assert len(fake.dms(ann)) == ann_dms  # nothing more reaches the old holder
    assert not fake.message(offer.id).buttons()  # an offer is good once
    await fake.stop_bot(bot)


async def test_seat_to_ai_back_mute_and_since_my_last_turn(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob, cid, dee = (fake.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    general = fake.channel("general")
    await start_table(fake, general, [ann, bob, cid], options="rounds=2", timer=24)
    ix = await fake.slash(cid, general, "seat ai")
    assert "The AI plays your seat now" in ix.text
    await fake.wait_for(lambda: any("Cid hands their seat to the AI" in m.text for m in board_posts(general)))
    for user in (ann, bob):
        await fake.slash(user, general, "play", options={"move": "bid 1"})
    await fake.slash(ann, general, "play", options={"move": "pass"})
    ix = await fake.slash(cid, general, "seat back")
    assert ix.text == "Your seat is yours again."
    # Bob's turn came after Ann moved: his DM tells what happened since his last move, with a strip.
    since_dm = await fake.wait_for(lambda: next((m for m in fake.dms(bob) if "Since your last turn" in m.text),
                                                None), what="since DM")
    assert "› Ann: `pass` — Ann passes." in since_dm.text
    assert [a.filename for a in since_dm.attachments] == ["hand.png", "since.png"]
    assert all(a.is_png for a in since_dm.attachments)
    board = board_posts(general)[-1]
    ix = await fake.click(cid, board, label="Since my last turn")
    assert ix.ephemeral and "Since your last turn" in ix.text and "Ann: `pass`" in ix.text
    ix = await fake.click(dee, board, label="Since my last turn")
    assert "not playing" in ix.text
    # Mute from the reminder DM: no reminder after that.
    await tick(bot, clock, 12)
    [dm] = reminders(fake, bob)
    ix = await fake.click(bob, dm, label="Mute reminders")
    assert "muted" in ix.text
    await tick(bot, clock, 11)
    assert len(reminders(fake, bob)) == 1
    await fake.stop_bot(bot)


async def test_thread_is_kept_open_while_the_game_runs(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db, clock))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    ix = await fake.slash(ann, fake.channel("general"), "game new",
                          options={"game": "guess", "thread": True, "seats": "join"})
    thread = fake.threads[-1]
    lobby = next(m for m in thread.messages if "Lobby open" in m.text)
    await fake.click(bob, lobby, label="Join")
    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: board_posts(thread), what="board")
    assert ix.ephemeral and "opened in <#" in ix.text
    await fake.archive_thread(thread)
    await fake.wait_for(lambda: not thread.archived, what="thread unarchived")
    assert ("PATCH", f"/api/v10/channels/{thread.id}") in fake.requests or any(
        method == "PATCH" and str(thread.id) in path for method, path in fake.requests)
    ix = await fake.slash(ann, thread, "play", options={"move": "bid 1"})  # play goes on in the thread
    assert ix.text == "You played `bid 1`."
