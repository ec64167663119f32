"""A hard AI seat through the fake Discord: chosen in the lobby, named with its level, searching in a worker to the end."""

from __future__ import annotations

import sqlite3

from bot.app import create_bot
from rules.engine import ai_move
from rules.registry import GAMES
from tests.e2e.test_platform import table_snapshot

GW = GAMES["great_western"]


async def test_a_lobby_adds_a_hard_ai_that_plays_the_game_to_the_end(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "gw.db")
    # One AI worker process, as in production (the hard level searches there, not in the bot).
    bot = await fake.start_bot(create_bot(db, render_workers=0, ai_workers=1, **fake.bot_kwargs()))
    ann, games = fake.user("Ann"), fake.channel("games")
    # Three rounds keep the game short; the hard AI still makes every kind of decision (bids, connections).
    ix = await fake.slash(ann, games, "game new", options={"game": "great_western", "seats": "join",
                                                            "options": "round_limit=3", "stand_in": "hard"})
    assert "Lobby for Great Western" in ix.text, ix.text
    lobby = next(m for m in games.messages if "Lobby open" in m.text)

    choice = await fake.click(ann, lobby, label="Add AI")
    assert choice.ephemeral and [b["label"] for b in choice.reply.buttons()] == ["Easy", "Normal", "Hard"]
    ix = await fake.click(ann, choice.reply, label="Hard")
    assert ix.text == "AI 1 (hard) takes a seat."
    await fake.wait_for(lambda: "2. AI 1 (hard)" in fake.message(lobby.id).text, what="lobby shows the level")
    assert "on timeout the AI (hard) plays" in fake.message(lobby.id).text
    assert "AI 1 (hard)" in (await fake.slash(ann, games, "game status")).text
    # The same by command, and away again with the lobby's seat count.
    ix = await fake.slash(ann, games, "game add-ai", options={"level": "easy"})
    assert ix.ephemeral and ix.text == "AI 2 (easy) takes a seat."
    await fake.wait_for(lambda: "3. AI 2 (easy)" in fake.message(lobby.id).text, what="lobby shows AI 2")
    ix = await fake.slash(fake.user("Bob"), games, "game add-ai")
    assert ix.ephemeral and ix.text == "You are not playing in this game."

    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: table_snapshot(db, GW)[4] == "running" and table_snapshot(db, GW)[2] == 0,
                        what="start posts")
    normal = GW.ai("normal")
    for _ in range(60):
        state, _, _, moves, status = table_snapshot(db, GW)
        if status != "running":
            break
        assert state.to_act() == {0}  # the hard seat never leaves the table waiting
        move = str(ai_move(state, 0, normal))
        assert (await fake.slash(ann, games, "play", options={"move": move})).text == f"You played `{move}`."
        played = len(moves)
        await fake.wait_for(lambda n=played: len(table_snapshot(db, GW)[3]) > n and table_snapshot(db, GW)[2] == 0,
                            what=f"after {move}")
    state, users, _, moves, status = table_snapshot(db, GW)
    assert status == "over" and state.is_over()
    assert any("Game over" in m.text for m in games.messages if not m.ephemeral)

    # Every move of an AI seat is its own level's, as ai_move computes it in this process.
    with sqlite3.connect(db) as raw:
        levels = [r[0] for r in raw.execute("SELECT ai_kind FROM seats WHERE game_id = 1 ORDER BY seat")]
    assert levels == [None, "hard", "easy"]
    replayed = GW.new_game(3, state.options, state.seed)
    ai_moves = {"hard": 0, "easy": 0}
    for seat, notation in moves:
        if levels[seat] is not None:
            assert notation == str(ai_move(replayed, seat, GW.ai(levels[seat]))), f"move {replayed.moves_applied}"
            ai_moves[levels[seat]] += 1
        replayed.apply(seat, replayed.parse_move(notation))
    assert min(ai_moves.values()) >= 3 and replayed == state
    await fake.stop_bot(bot)
