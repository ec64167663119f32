"""A Trans Europa round end posts its round-end image (interlude) right before the new board post."""

from __future__ import annotations

from bot.app import create_bot
from rules.engine import ai_move
from rules.registry import GAMES
from tests.e2e.test_platform import table_snapshot

TE = GAMES["trans_europa"]


def snapshot(db):
    """The Trans Europa game #1 as committed, and how many posts are still owed."""
    state, _, owed, _, _ = table_snapshot(db, TE)
    return state, owed


async def test_round_end_image_precedes_the_board_post(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "te.db")
    bot = await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    ann, games = fake.user("Ann"), fake.channel("games")
    await fake.slash(ann, games, "game new", options={"game": "trans_europa", "seats": "join"})
    lobby = next(m for m in games.messages if "Lobby open" in m.text)
    for _ in range(2):  # Add AI asks for a level
        await fake.click(ann, (await fake.click(ann, lobby, label="Add AI")).reply, label="Normal")
    await fake.click(ann, lobby, label="Start")
    await fake.wait_for(lambda: snapshot(db)[1] == 0 and any("game #1 · move" in m.text for m in games.messages))
    greedy = TE.ai("greedy")
    for _ in range(80):
        state, _ = snapshot(db)
        if state.history:
            break
        assert not any(a.filename.startswith("interlude") for m in games.messages for a in m.attachments)
        move = str(ai_move(state, 0, greedy))
        count = len(games.messages)
        ix = await fake.slash(ann, games, "play", options={"move": move})
        assert ix.text == f"You played `{move}`."
        await fake.wait_for(lambda n=count: snapshot(db)[1] == 0 and len(games.messages) > n, what=move)
        if snapshot(db)[0].history:  # this move ended the round: the next posts must show it
            await fake.wait_for(lambda n=count: any("game #1 · move" in m.text for m in games.messages[n:]),
                                what="board after the round end")
    state, _ = snapshot(db)
    assert state.history, "the round did not end"
    posted = [m for m in games.messages if not m.ephemeral]
    at = next(i for i, m in enumerate(posted) if any(a.filename.startswith("interlude") for a in m.attachments))
    interlude, board = posted[at], posted[at + 1]
    assert interlude.attachments[0].is_png and interlude.attachments[0].description.startswith("What the last move ended (e.g. a round). Trans Europa")
    assert "game #1 · move" in board.text and board.attachments[0].filename == "board.png"
    # Exactly one interlude so far: the round ended once.
    assert sum(a.filename.startswith("interlude") for m in posted for a in m.attachments) == 1
    await fake.stop_bot(bot)
