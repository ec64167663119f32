"""The platform end to end: the real bot (create_bot) against the local fake Discord, with the Guess game."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3

from bot.app import create_bot, invite_url
from bot.tables import NOT_SEATED, NOT_YOUR_TURN, STALE_MOVE
from bot.ui import picker as picker_groups
from tests.bot import guess_game


def make_bot(fake, db_path, **settings):
    return create_bot(db_path, games=guess_game.GAMES, board_renderer=guess_game.board,
                      hand_renderer=guess_game.hand, render_workers=settings.pop("render_workers", 0),
                      **fake.bot_kwargs(), **settings)


def db_moves(db_path, game_id=1):
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT n, seat, notation FROM moves WHERE game_id = ? ORDER BY n", (game_id,)).fetchall()


def db_snapshot(db_path, game_id=1):
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT n, state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()


def seats(db_path, game_id=1):
    """user id per seat (None for AI)."""
    with sqlite3.connect(db_path) as db:
        return [r[0] for r in db.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]


def state_of(db_path, game_id=1):
    return guess_game.DEFINITION.from_json(json.loads(db_snapshot(db_path, game_id)[1]))


def table_snapshot(db_path, definition=guess_game.DEFINITION, game_id=1):
    """(state, user id per seat, owed posts, [(seat, notation)...], status) of a stored game, as committed."""
    with sqlite3.connect(db_path) as raw:
        state = raw.execute("SELECT state FROM snapshots WHERE game_id = ?", (game_id,)).fetchone()[0]
        users = [r[0] for r in raw.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]
        owed = raw.execute("SELECT count(*) FROM outbox").fetchone()[0]
        moves = raw.execute("SELECT seat, notation FROM moves WHERE game_id = ? ORDER BY n", (game_id,)).fetchall()
        status = raw.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    return definition.from_json(json.loads(state)), users, owed, moves, status


def board_posts(channel):
    return [m for m in channel.messages if not m.ephemeral and m.attachments and "game #" in m.text]


def board_updates(channel):
    """Board posts made plus their edits: what a player sees change after a decision."""
    return sum(1 + m.edits for m in board_posts(channel))


async def open_table(fake, channel, users, options=None, **new_options):
    ann = users[0]
    opts = {"game": "guess", **new_options}
    if options:
        opts["options"] = options
    ix = await fake.slash(ann, channel, "game new", options=opts)
    assert ix.ephemeral and "Lobby for Guess opened" in ix.text, ix.text
    lobby = next(m for m in reversed(channel.messages) if "Lobby open" in m.text)
    for user in users[1:]:
        ix = await fake.click(user, lobby, label="Join")
        assert ix.response_type == 7
    return fake.message(lobby.id)


async def pick_move(fake, user, picker, move, narrowings=8, locale="en-US"):
    """Narrow the move picker group by group until `move` is offered, then pick it; returns the last
    interaction and how many groups were opened on the way."""
    for opened in range(narrowings + 1):
        values = [o["value"] for o in picker.component(custom_id=picker.custom_ids()[0])["options"]]
        assert len(values) <= 25
        if "m:" + move in values:
            return await fake.select(user, picker, ["m:" + move], locale=locale), opened
        group = next(v for v in values if v.startswith("g:") and picker_groups.under(move, v[2:]))
        await fake.select(user, picker, [group], locale=locale)
        picker = fake.message(picker.id)
    raise AssertionError(f"{move!r} not offered after {narrowings} groups")


async def test_lobby_game_and_picker_through_buttons(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general = fake.channel("general")
    assert {c["name"] for c in fake.commands()} >= {"game", "play", "hand", "board", "rules"}
    lobby = await open_table(fake, general, [ann, bob, cid], options="rounds=2 span=20", seats="join")
    assert "rounds=2" in lobby.text and "span=20" in lobby.text and "Bob" not in lobby.text
    assert f"<@{bob.id}>" in lobby.text
    ix = await fake.click(bob, lobby, label="Start")  # not the creator, but seated: may start
    assert ix.response_type in (7, 6)  # the lobby updated: at once, or deferred first on a busy machine
    await fake.wait_for(lambda: board_posts(general), what="first board")
    await fake.wait_for(lambda: all(fake.dms(u) for u in (ann, bob, cid)), what="welcome DMs")
    assert "Welcome to **Guess**" in fake.dms(ann)[0].text
    assert fake.dms(ann)[0].attachments[0].is_png
    assert "Lobby open" not in fake.message(lobby.id).text and not fake.message(lobby.id).buttons()

    users = {u.id: u for u in (ann, bob, cid)}
    rng = random.Random(5)
    clicks = 0
    while True:
        state = state_of(db)
        if state.is_over():
            break
        seat = min(state.to_act())
        user = users[seats(db)[seat]]
        target = str(rng.choice(state.legal_moves(seat)))
        posts_before = board_updates(general)
        board = board_posts(general)[-1]
        ix = await fake.click(user, board, label="Take turn")
        assert ix.ephemeral and ix.reply.visible_to == user.id
        ix, opened = await pick_move(fake, user, ix.reply, target, narrowings=5)
        clicks += opened
        # The panel names the move; where the same seat decides again it shows the next decision.
        assert ix.text.split("\n")[0] == f"You played `{target}`.", ix.text
        await fake.wait_for(lambda n=posts_before: board_updates(general) > n, what="board post or edit")
    assert clicks > 0  # with 3 seats and span 20 there are 41 guess moves: groups were used
    moves = db_moves(db)
    final = board_posts(general)[-1]
    assert "Game over" in final.text and "1. " in final.text
    # The bids of a round are one simultaneous step: the first bid edits the round's post, the last
    # one ends it (the guessing turn begins with a new post); each guess begins the next turn.
    bids = sum(1 for m in moves if m[2].startswith("bid"))
    assert len(board_posts(general)) == len(moves) + 1 - bids * 2 // 3, [m.text[:60] for m in board_posts(general)]
    edits = sum(m.edits for m in board_posts(general))
    assert edits == bids * 2 // 3
    assert all(p.attachments[0].is_png for p in board_posts(general))
    assert "Take turn" not in [b.get("label") for b in final.buttons()]
    await fake.wait_for(lambda: "Finished" in fake.message(lobby.id).text, what="lobby says finished")
    await fake.stop_bot(bot)


async def test_a_bot_that_fails_to_start_is_closed(fake_discord, tmp_path, monkeypatch):
    """Its database connection too: an aiosqlite connection left open keeps its thread, and the process
    (python -m bot, or the test run) from exiting."""
    import threading

    import pytest

    from bot import app

    monkeypatch.setattr(app, "EXTENSIONS", [*app.EXTENSIONS, "bot.no_such_cog"])
    bot = make_bot(fake_discord, str(tmp_path / "junction.db"))
    before = set(threading.enumerate())
    with pytest.raises(Exception, match="no_such_cog"):
        await fake_discord.start_bot(bot)
    assert bot.is_closed() and bot.store is None
    started = [t for t in threading.enumerate() if t not in before and not t.daemon]
    for thread in started:
        thread.join(timeout=5)  # a closed connection's thread ends on its own, a moment later
    assert not [t for t in started if t.is_alive()]


async def test_invite_url_has_both_scopes_and_few_permissions():
    url = invite_url(1234)
    assert "client_id=1234" in url and "scope=bot+applications.commands" in url
    permissions = int(url.split("permissions=")[1].split("&")[0])
    assert permissions and not permissions & 0x8  # never Administrator


async def started_game(fake, users, channel, options="rounds=2 span=20", **new_options):
    """Open, fill and start a Guess table in join order; returns the first board post."""
    lobby = await open_table(fake, channel, users, options=options, seats="join", **new_options)
    await fake.click(users[0], lobby, label="Start")
    return await fake.wait_for(lambda: (board_posts(channel) or [None])[-1], what="first board")


def store_fingerprint(db):
    with sqlite3.connect(db) as raw:
        return (db_moves(db), db_snapshot(db),
                raw.execute("SELECT count(*) FROM outbox").fetchone()[0],
                raw.execute("SELECT status FROM games").fetchall())


async def finish_bids(fake, users, channel):
    for user in users:
        ix = await fake.slash(user, channel, "play", options={"move": "bid 1"})
        assert ix.ephemeral and ix.text == "You played `bid 1`.", ix.text


async def test_autocomplete_gives_the_callers_legal_moves_filtered(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    games = fake.channel("games")
    await started_game(fake, [ann, bob, cid], games)
    choices = await fake.autocomplete(ann, games, "play", focused="move", value="")
    assert [c["value"] for c in choices] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    await finish_bids(fake, [ann, bob, cid], games)
    state = state_of(db)
    legal = [str(m) for m in state.legal_moves(0)]
    assert len(legal) == 41
    choices = await fake.autocomplete(ann, games, "play", focused="move", value="")
    assert len(choices) == 25 and {c["value"] for c in choices} <= set(legal)
    choices = await fake.autocomplete(ann, games, "play", focused="move", value="GUESS S3 1")
    assert [c["value"] for c in choices] == [m for m in legal if m.startswith("guess s3 1")]
    choices = await fake.autocomplete(bob, games, "play", focused="move", value="")
    assert choices == []  # not Bob's turn: nothing to offer
    choices = await fake.autocomplete(fake.user("Dee"), games, "play", focused="move", value="g")
    assert choices == []


async def test_wrong_user_wrong_turn_malformed_and_stale_change_nothing(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, cid, dee = (fake.user(n) for n in ("Ann", "Bob", "Cid", "Dee"))
    general = fake.channel("general")
    board = await started_game(fake, [ann, bob, cid], general)
    await finish_bids(fake, [ann, bob, cid], general)
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    board = board_posts(general)[-1]
    picker = (await fake.click(ann, board, label="Take turn")).reply
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    before = store_fingerprint(db)
    checks = [
        (await fake.click(dee, board, label="Take turn"), NOT_SEATED),
        (await fake.click(bob, board, label="Take turn"), NOT_YOUR_TURN),
        (await fake.slash(bob, general, "play", options={"move": "pass"}), NOT_YOUR_TURN),
        (await fake.slash(dee, general, "play", options={"move": "pass"}), NOT_SEATED),
        (await fake.slash(ann, general, "play", options={"move": "fly away"}), "I cannot read 'fly away'"),
        (await fake.slash(ann, general, "play", options={"move": "guess s1 2"}), "Ann cannot guess that seat."),
        (await fake.slash(ann, general, "play", options={"move": "bid 2"}), "Bidding is over; guess or pass."),
    ]
    # The stale picker: Ann plays through /play; her old picker's pick must then be refused.
    ix = await fake.slash(ann, general, "play", options={"move": "pass"})
    assert ix.text == "You played `pass`."
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    before = store_fingerprint(db)
    group = next(o["value"] for o in picker.component(custom_id=picker.custom_ids()[0])["options"])
    checks.append((await fake.select(ann, picker, [group]), NOT_YOUR_TURN))
    for ix, reason in checks:
        assert ix.ephemeral and reason in ix.text and "\n" not in ix.text, (ix.text, reason)
    assert store_fingerprint(db) == before


async def test_restart_old_buttons_work_nothing_lost_or_doubled(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1")
    await finish_bids(fake, [ann, bob], general)
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    old_board = board_posts(general)[-1]
    old_picker = (await fake.click(ann, old_board, label="Take turn")).reply
    moves_before = db_moves(db)

    bot = await fake.restart_bot(bot, make_bot(fake, db))
    assert bot.tables.loaded() == frozenset()  # states load on first use
    ix = await fake.select(ann, old_picker, ["m:pass"])  # the pre-restart ephemeral picker
    assert ix.text == "You played `pass`."
    assert not fake.message(old_picker.id).custom_ids()  # the used picker lost its select
    ix = await fake.click(ann, old_board, label="Take turn")
    assert NOT_YOUR_TURN in ix.text
    ix = await fake.click(bob, old_board, label="Take turn")  # the pre-restart board button
    assert ix.ephemeral and "Your move" in ix.text
    ix = await fake.select(bob, ix.reply, ["m:pass"])
    assert ix.text == "You played `pass`."
    assert db_moves(db) == [*moves_before, (2, 0, "pass"), (3, 1, "pass")]
    final = await fake.wait_for(lambda: "Game over" in board_posts(general)[-1].text and board_posts(general)[-1])
    assert final.attachments[0].is_png


async def test_owed_posts_and_ai_turns_are_finished_after_a_crash(fake_discord, tmp_path):
    """A move committed but never posted (crash before posting) is posted by the next run."""
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1")
    await fake.stop_bot(bot)
    # Simulate the crash window: apply through the service directly, without any Discord posting.
    from bot.store import Store
    from bot.tables import Tables

    store = await Store.open(db)
    tables = Tables(store, games=guess_game.GAMES)
    await tables.load()
    await tables.play(1, ann.id, "bid 2")
    await store.close()
    posts = len(board_posts(general))
    await fake.start_bot(make_bot(fake, db))
    # A bid inside the simultaneous step edits the round's post in place (Bob is still to bid).
    post = await fake.wait_for(lambda: "Ann has bid." in board_posts(general)[-1].text and board_posts(general)[-1])
    assert len(board_posts(general)) == posts and post.edits == 1
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")


async def test_two_clicks_at_once_apply_one_move(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    board = await started_game(fake, [ann, bob], general)
    picker = (await fake.click(ann, board, label="Take turn")).reply
    first = await fake.select(ann, picker, ["m:bid 3"], wait=False)
    second = await fake.select(ann, picker, ["m:bid 3"], wait=False)
    await asyncio.gather(first.wait(), second.wait())
    contents = sorted([first.text, second.text])
    assert "You played `bid 3`." in contents
    assert any(reason in c for c in contents for reason in (NOT_YOUR_TURN, STALE_MOVE))
    assert db_moves(db) == [(0, 0, "bid 3")]


async def test_closed_dms_are_told_once_and_hand_works(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    bob.dms_closed = True
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1")
    await finish_bids(fake, [ann, bob], general)
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    notices = [m for m in general.messages if "cannot send you direct messages" in m.text]
    assert len(notices) == 1 and f"<@{bob.id}>" in notices[0].text and "/hand" in notices[0].text
    assert bob.id in fake.dm_failures and not fake.dms(bob)
    # Without secrets: no image, no private line ("You bid 1." went nowhere but Bob's /hand).
    assert not notices[0].attachments and "bid" not in notices[0].text
    ix = await fake.slash(bob, general, "hand")
    assert ix.ephemeral and ix.reply.attachments[0].is_png and "Your hand" in ix.text
    ix = await fake.click(bob, board_posts(general)[-1], label="My hand")
    assert ix.ephemeral and ix.reply.attachments[0].is_png
    ix = await fake.slash(fake.user("Dee"), general, "hand")
    assert NOT_SEATED in ix.text


async def test_thread_ai_seats_status_log_rules_board_leave_and_cancel(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, dee = fake.user("Ann"), fake.user("Bob"), fake.user("Dee")
    general = fake.channel("general")
    ix = await fake.slash(ann, general, "rules", options={"game": "guess"})
    assert ix.ephemeral and "Guess" in ix.text and "`span` (2–30, default 3)" in ix.text
    ix = await fake.slash(ann, general, "game new", options={"game": "guess", "options": "spam=3"})
    assert ix.ephemeral and ix.text == "Guess has no option 'spam'"
    ix = await fake.slash(ann, general, "game new", options={"game": "guess", "options": "rounds"})
    assert "key=value" in ix.text
    ix = await fake.slash(ann, general, "game new", options={"game": "guess", "thread": True,
                                                             "options": "rounds=1", "seats": "join"})
    assert "opened in <#" in ix.text
    thread = fake.threads[-1]
    lobby = next(m for m in thread.messages if "Lobby open" in m.text)
    ix = await fake.click(bob, lobby, label="Add AI")
    assert ix.ephemeral and ix.text == NOT_SEATED
    ix = await fake.click(ann, lobby, label="Add AI")
    assert ix.ephemeral and [b["label"] for b in ix.reply.buttons()] == ["Easy", "Normal", "Hard"]
    ix = await fake.click(ann, ix.reply, label="Normal")
    assert ix.response_type == 7 and ix.text == "AI 1 (normal) takes a seat."
    await fake.wait_for(lambda: "AI 1 (normal)" in fake.message(lobby.id).text, what="lobby edit")
    ix = await fake.click(dee, lobby, label="Cancel")
    assert ix.ephemeral and "Only the player who created" in ix.text
    ix = await fake.slash(bob, thread, "game join")
    assert ix.text == "You joined."
    await fake.wait_for(lambda: f"<@{bob.id}>" in fake.message(lobby.id).text, what="lobby edit")
    ix = await fake.slash(ann, thread, "game status")
    assert "Players: 3 of 2–4" in ix.text
    ix = await fake.slash(ann, thread, "game start")
    assert ix.text == "The game begins."
    await fake.wait_for(lambda: board_posts(thread) and not store_fingerprint(db)[2], what="start posts")
    assert not board_posts(general)  # the game lives in its thread
    await fake.slash(ann, thread, "play", options={"move": "bid 1"})  # the AI bid at the start
    ix = await fake.slash(bob, thread, "game leave")  # Bob hands his seat to the AI
    assert ix.text == "You left; the AI plays your seat."
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="leave posts")
    assert any("Bob left the game; the AI plays their seat." in m.text for m in board_posts(thread))
    ix = await fake.slash(ann, thread, "game log")
    # The AI's bid was secret when made: the log shows its public line, Ann sees her own bid.
    assert "1. AI 1: AI 1 has bid." in ix.text and "Ann: bid 1" in ix.text
    ix = await fake.slash(dee, thread, "board")
    assert ix.ephemeral and ix.reply.attachments[0].is_png and "game #1" in ix.text
    ix = await fake.slash(ann, thread, "game status")
    assert "To act: Ann" in ix.text
    ix = await fake.slash(ann, thread, "game cancel")
    assert ix.text == "Game cancelled."
    assert store_fingerprint(db)[3] == [("cancelled",)]
    await fake.wait_for(lambda: "The game was cancelled." in thread.messages[-1].text, what="cancel post")
    ix = await fake.slash(ann, thread, "play", options={"move": "pass"})
    assert "finished" in ix.text


async def test_killed_mid_move_then_restarted_loses_and_doubles_nothing(fake_discord, tmp_path, log_guard):
    """Kill the bot while a move is in flight (at arrival, or just after the reply), restart, go on."""
    fake = fake_discord
    ann, bob = fake.user("Ann"), fake.user("Bob")
    for kill_after_reply, channel_name in ((False, "general"), (True, "games")):
        db = str(tmp_path / f"kill{int(kill_after_reply)}.db")
        channel = fake.channel(channel_name)
        bot = await fake.start_bot(make_bot(fake, db))
        await started_game(fake, [ann, bob], channel, options="rounds=1")
        await fake.wait_for(lambda db=db: not store_fingerprint(db)[2], what="start posts")
        posts = len(board_posts(channel))
        ix = await fake.slash(ann, channel, "play", options={"move": "bid 2"}, wait=kill_after_reply)
        await fake.stop_bot(bot, drain=False)
        log_guard.take()  # a killed process may log whatever it was doing; the store must not care
        bot = await fake.start_bot(make_bot(fake, db))
        moves = db_moves(db)
        assert moves in ([], [(0, 0, "bid 2")])
        if kill_after_reply:
            assert ix.text == "You played `bid 2`." and moves == [(0, 0, "bid 2")]
        if moves:  # committed: its board post is owed and arrives after the restart, once
            # (an edit of the round's post: Bob is still to bid)
            await fake.wait_for(lambda c=channel, n=posts: any("Ann has bid." in m.text
                                                               for m in board_posts(c)[n - 1:]))
        again = await fake.slash(ann, channel, "play", options={"move": "bid 2"})
        assert again.text == (f"{NOT_YOUR_TURN} Waiting for Bob." if moves else "You played `bid 2`.")
        await fake.slash(bob, channel, "play", options={"move": "bid 1"})
        assert db_moves(db) == [(0, 0, "bid 2"), (1, 1, "bid 1")]
        await fake.wait_for(lambda db=db: not store_fingerprint(db)[2], what="posts after restart")
        # One new post for the turn Bob's bid began (summing up the bids), and the bid edit before it.
        assert len(board_posts(channel)) == posts + 1
        assert sum("Ann has bid." in m.text for m in board_posts(channel)) == 2
        await fake.stop_bot(bot)
