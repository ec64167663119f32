"""A whole 3-player Trans Europa game through the fake Discord, with buttons and /play.

Each human's move is the engine's greedy AI choice for that seat, sent as a player would: every
other move by the "Take turn" picker (narrowing groups down to the move), the rest by `/play`.
"""

from __future__ import annotations

import re

from bot.app import create_bot
from rules.engine import ai_move, name_seats
from rules.registry import GAMES
from tests.e2e.test_platform import pick_move, table_snapshot

TE = GAMES["trans_europa"]


def snapshot(db):
    """(state, users, owed posts, moves, status) of the Trans Europa game #1."""
    return table_snapshot(db, TE)


def bullets(text: str) -> list[str]:
    return [line[2:] for line in text.splitlines() if line.startswith("• ")]


async def test_three_players_play_trans_europa_to_the_end(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "te.db")
    await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    ann, bob, cid = fake.user("Ann"), fake.user("Bob"), fake.user("Cid")
    users_by_id = {u.id: u for u in (ann, bob, cid)}
    games = fake.channel("games")

    ix = await fake.slash(ann, games, "game new", options={"game": "trans_europa", "options": "start_score=5"})
    assert "Lobby for Trans Europa opened" in ix.text
    lobby = next(m for m in games.messages if "Lobby open" in m.text)
    assert "start_score=5" in lobby.text
    assert (await fake.slash(bob, games, "game join")).text == "You joined."
    await fake.click(cid, lobby, label="Join")
    ix = await fake.slash(ann, games, "game start")
    assert ix.text == "The game begins."

    def boards():
        return [m for m in games.messages if not m.ephemeral and "game #1 · move" in m.text]

    await fake.wait_for(lambda: snapshot(db)[2] == 0 and boards(), what="first board and welcome DMs")
    greedy = TE.ai("greedy")
    turn = 0
    while True:
        state, users, _, moves, status = snapshot(db)
        if status != "running":
            break
        seat = min(state.to_act())
        user = users_by_id[users[seat]]
        move = str(ai_move(state, seat, greedy))
        posted = sum(1 + m.edits for m in boards())  # a second track edits the turn's post
        if turn % 2:
            choices = await fake.autocomplete(user, games, "play", focused="move", value=move)
            assert move in [c["value"] for c in choices]
            ix = await fake.slash(user, games, "play", options={"move": move})
        else:
            ix = await fake.click(user, boards()[-1], label="Take turn")
            ix, _ = await pick_move(fake, user, ix.reply, move, narrowings=7)
        # /play, or the turn panel: the move, or the turn's decisions when the panel closes.
        assert ix.text.split("\n")[0] == f"You played `{move}`." or (
            ix.text.startswith("Your turn in **Trans Europa**") and ix.text.endswith(f"`{move}`.")), ix.text
        await fake.wait_for(lambda n=posted: sum(1 + m.edits for m in boards()) > n and snapshot(db)[2] == 0,
                            what=f"post of {move}")
        turn += 1

    state, users, _, moves, status = snapshot(db)
    assert status == "over" and state.is_over() and turn == len(moves)
    final = boards()[-1]
    assert "Game over" in final.text
    assert all(m.attachments and m.attachments[0].is_png for m in boards())

    # Replay the log: which lines were public and which private to whom, and check every post.
    names = ["Ann", "Bob", "Cid"]
    names = [next(u.name for u in (ann, bob, cid) if u.id == users[s]) for s in range(3)]
    replayed = TE.new_game(3, state.options, state.seed)
    public_lines, private_lines = set(), {s: set() for s in range(3)}
    dealt = replayed.opening_events()
    assert any(e.seats is None for e in dealt) and all(any(e.seats == {s} for e in dealt) for s in range(3))
    for seat, notation in [(None, None), *moves]:
        for event in dealt if seat is None else replayed.apply(seat, notation):
            text = name_seats(event.text, names)
            if event.seats is None:
                public_lines.add(text)
            else:
                for s in event.seats:
                    private_lines[s].add(text)
    assert replayed == state
    platform = re.compile(r"Trans Europa begins\. Seats: .*")
    for post in boards():
        for line in bullets(post.text):
            line = line.removeprefix("(recap) ")  # a line an earlier post showed, marked as said again
            assert line in public_lines or platform.fullmatch(line), line
    for seat, user_id in enumerate(users):
        dms = fake.dms(users_by_id[user_id])
        assert dms and "Welcome to **Trans Europa**" in dms[0].text
        assert all(dm.attachments and dm.attachments[0].is_png for dm in dms)
        for dm in dms:
            for line in bullets(dm.text):
                assert line in public_lines or line in private_lines[seat], (names[seat], line)
        # Each round's cities reached their owner by DM, and nobody else's DMs.
        for other in range(3):
            for line in private_lines[other]:
                assert any(line in dm.text for dm in dms) == (other == seat)


async def test_one_player_against_two_ai_seats(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "te.db")
    await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    ann = fake.user("Ann")
    games = fake.channel("games")
    await fake.slash(ann, games, "game new", options={"game": "trans_europa", "seats": "join"})
    lobby = next(m for m in games.messages if "Lobby open" in m.text)
    for _ in range(2):  # Add AI asks for a level
        await fake.click(ann, (await fake.click(ann, lobby, label="Add AI")).reply, label="Normal")
    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: snapshot(db)[4] == "running" and snapshot(db)[2] == 0
                        and any("game #1 · move" in m.text for m in games.messages), what="start posts")
    greedy = TE.ai("greedy")
    for _ in range(6):
        state, _, _, moves, _ = snapshot(db)
        assert state.to_act() == {0}  # the AI seats never leave the table waiting
        move = str(ai_move(state, 0, greedy))
        assert (await fake.slash(ann, games, "play", options={"move": move})).text == f"You played `{move}`."
        before = len(moves)
        await fake.wait_for(lambda n=before: len(snapshot(db)[3]) > n and snapshot(db)[2] == 0)
    _, _, _, moves, _ = snapshot(db)
    assert {seat for seat, _ in moves} == {0, 1, 2}
    posts = [m for m in games.messages if "game #1 · move" in m.text]
    assert any("AI 1" in m.text for m in posts) and any("AI 2" in m.text for m in posts)
    assert posts[-1].text.endswith(f"<@{ann.id}>")
