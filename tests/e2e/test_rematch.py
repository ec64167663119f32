"""Rematch and lobby hygiene end to end: the real discord.py client against the fake Discord.

A whole game, then Rematch on its final post: one lobby however many clicks, the invited players pinged
once, one click each to confirm (after a restart too), the game starts by itself. An idle lobby closes
itself with one line after a week of the injected clock. A lobby's minimum reliability refuses in one line.
"""

from __future__ import annotations

import sqlite3

from tests.bot.test_deadlines import Clock
from tests.e2e.test_async_play import make_bot as make_clocked_bot
from tests.e2e.test_async_play import tick
from tests.e2e.test_end_of_game import play_one, snapshot
from tests.e2e.test_platform import board_posts, make_bot, open_table, started_game, store_fingerprint
from tests.e2e.test_ratings import final_posts

DAY_HOURS = 24


def games(db: str) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT id, status, options, creator_id FROM games ORDER BY id").fetchall()


def seat_users(db: str, game_id: int) -> list[int | None]:
    with sqlite3.connect(db) as raw:
        return [r[0] for r in raw.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))]


def lobby_of(channel, game_id: int):
    return next(m for m in channel.messages if f"game #{game_id} · " in m.text and not m.attachments)


async def test_rematch_from_the_final_post_one_lobby_one_click_each_and_it_starts(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "rematch.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general = fake.channel("general")
    await started_game(fake, [ann, bob, cid], general, options="rounds=1 span=3")
    users = {u.id: u for u in (ann, bob, cid)}
    while not snapshot(db)[0].is_over():
        await play_one(fake, db, general, users)
    final = await fake.wait_for(lambda: (final_posts(general) or [None])[-1], what="final post")
    assert [b["label"] for b in final.buttons()] == ["My hand", "Game record", "Rematch"]

    ix = await fake.click(ann, final, label="Rematch")
    assert ix.ephemeral and ix.text == "Rematch of game #1 opened: game #2.", ix.text
    again = [await fake.click(user, final, label="Rematch") for user in (ann, bob)]  # a double click, another player
    assert [a.text for a in again] == ["Game #1 has had its rematch already: game #2."] * 2
    assert [g[0] for g in games(db)] == [1, 2] and games(db)[1][1:] == ("lobby", games(db)[0][2], ann.id)
    lobby = lobby_of(general, 2)
    assert "Rematch of game #1." in lobby.text and "rounds=1" in lobby.text and "span=3" in lobby.text
    assert lobby.pinged() == {bob.id, cid.id}  # those asked, once, in the lobby post
    assert [b["label"] for b in lobby.buttons()] == ["Confirm", "Decline", "Join", "Leave", "Add AI", "Start",
                                                     "Cancel"]
    ix = await fake.click(bob, lobby, label="Confirm")
    assert ix.response_type in (7, 6) and seat_users(db, 2) == [ann.id, bob.id]
    assert f"Waiting for: <@{cid.id}>" in fake.message(lobby.id).text
    ix = await fake.click(bob, fake.message(lobby.id), label="Start")  # only the creator starts without Cid
    assert ix.ephemeral and ix.text.startswith("Waiting for Cid to answer; only the player who opened"), ix.text

    # The buttons work after a restart (persistent DynamicItems).
    await fake.stop_bot(bot)
    bot = await fake.start_bot(make_bot(fake, db))
    ix = await fake.click(bob, fake.message(final.id), label="Rematch")
    assert ix.text == "Game #1 has had its rematch already: game #2."
    ix = await fake.click(cid, fake.message(lobby.id), label="Confirm")  # the last one: the game starts
    await fake.wait_for(lambda: games(db)[1][1] == "running", what="rematch started")
    await fake.wait_for(lambda: [p for p in board_posts(general) if "game #2" in p.text], what="first board of #2")
    assert sorted(seat_users(db, 2)) == sorted([ann.id, bob.id, cid.id])
    assert "Started" in fake.message(lobby.id).text and not fake.message(lobby.id).buttons()
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    assert len(games(db)) == 2


async def test_a_decline_and_an_outsider_in_the_open_seat(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "decline.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, dee = fake.user("Ann"), fake.user("Bob"), fake.user("Dee")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=3")
    while not snapshot(db)[0].is_over():
        await play_one(fake, db, general, {ann.id: ann, bob.id: bob})
    final = await fake.wait_for(lambda: (final_posts(general) or [None])[-1], what="final post")
    await fake.click(ann, final, label="Rematch")
    lobby = lobby_of(general, 2)
    ix = await fake.click(dee, lobby, label="Confirm")
    assert ix.ephemeral and ix.text == "Only the players of game #1 were asked; take a seat with Join."
    ix = await fake.click(dee, lobby, label="Confirm", locale="ja")  # the refusal in the reader's language
    assert ix.text == "声がかかったのはゲーム #1 のプレイヤーだけです。「参加」で席に着いてください。"
    await fake.click(bob, lobby, label="Decline")
    assert "Declined: Bob" in fake.message(lobby.id).text
    assert "1 seat of the last game is open to anyone" in fake.message(lobby.id).text
    await fake.click(dee, fake.message(lobby.id), label="Join")
    await fake.click(ann, fake.message(lobby.id), label="Start")
    await fake.wait_for(lambda: games(db)[1][1] == "running", what="started by its creator")
    assert seat_users(db, 2) == [ann.id, dee.id]


async def test_an_idle_lobby_closes_itself_after_a_week_with_one_line(fake_discord, tmp_path):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "idle.db")
    bot = await fake.start_bot(make_clocked_bot(fake, db, clock))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    lobby = await open_table(fake, general, [ann, bob], options="rounds=1")
    posts_before = len(general.messages)
    assert await tick(bot, clock, 7 * DAY_HOURS - 1) == []
    await bot.scheduler.run_due()
    assert games(db)[0][1] == "lobby"
    # A restart keeps the lobby's time (the store knows it).
    await fake.stop_bot(bot)
    bot = await fake.start_bot(make_clocked_bot(fake, db, clock))
    assert await tick(bot, clock, 1) == [1]
    await fake.wait_for(lambda: games(db)[0][1] == "cancelled" and not store_fingerprint(db)[2], what="closed")
    new = general.messages[posts_before:]
    assert len(new) == 1 and new[0].text == "The lobby of Guess (game #1) closed after 7 days without activity."
    assert not new[0].pinged() and not new[0].buttons()
    await fake.wait_for(lambda: not fake.message(lobby.id).buttons(), what="lobby without buttons")
    assert "Cancelled" in fake.message(lobby.id).text
    assert await tick(bot, clock, 7 * DAY_HOURS) == [] and len(general.messages) == posts_before + 1


async def test_a_minimum_reliability_refuses_in_one_line(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "reliable.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    general, other = fake.channel("general"), fake.channel("games")
    await started_game(fake, [ann, cid], general, options="rounds=1 span=3")
    ix = await fake.slash(cid, general, "game leave")  # Cid concedes: one game left to the AI
    assert "the AI plays your seat" in ix.text
    ix = await fake.slash(ann, other, "game new", options={"game": "guess", "reliability": 90})
    assert "Lobby for Guess opened" in ix.text
    lobby = next(m for m in other.messages if "Lobby open" in m.text)
    assert "reliability of at least 90%" in lobby.text
    ix = await fake.click(cid, lobby, label="Join")
    assert ix.ephemeral and ix.text == ("This table asks for a reliability of at least 90%; yours is 0%"
                                        " (0 finished, 1 left to the AI).")
    ix = await fake.click(bob, lobby, label="Join")
    assert ix.response_type == 7 and f"<@{bob.id}>" in fake.message(lobby.id).text
