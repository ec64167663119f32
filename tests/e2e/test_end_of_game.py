"""End of game, replay, alt text and spectators, through the fake Discord with the Guess game."""

from __future__ import annotations

import io

from PIL import Image

from tests.bot import guess_game
from tests.e2e.test_platform import board_posts, make_bot, open_table, table_snapshot

snapshot = table_snapshot  # (state, users, owed posts, moves, status) of the Guess game #1


async def play_one(fake, db, channel, users_by_id, pick=lambda moves: moves[-1]):
    """The seat to act plays `pick(legal moves)` by /play; wait until its posts are out."""
    state, users, _, moves, _ = snapshot(db)
    seat = min(state.to_act())
    move = str(pick(state.legal_moves(seat)))
    ix = await fake.slash(users_by_id[users[seat]], channel, "play", options={"move": move})
    assert ix.text == f"You played `{move}`.", ix.text
    before = len(moves)
    await fake.wait_for(lambda: len(snapshot(db)[3]) > before and snapshot(db)[2] == 0, what=move)


async def test_final_post_reveals_hands_with_log_file_and_replay_gif(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "end.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await open_table(fake, general, [ann, bob], options="rounds=2 span=3", seats="join")
    await fake.slash(ann, general, "game start")
    await fake.wait_for(lambda: board_posts(general) and snapshot(db)[2] == 0, what="first board")
    users_by_id = {ann.id: ann, bob.id: bob}
    while not snapshot(db)[0].is_over():
        # No hand is shown in the channel while the game runs.
        assert not any(a.filename.startswith("hand-") for m in general.messages for a in m.attachments)
        await play_one(fake, db, general, users_by_id)
    state, users, _, moves, _ = snapshot(db)
    final = board_posts(general)[-1]
    assert "Game over" in final.text and "1. " in final.text and "points" in final.text
    files = {a.filename: a for a in final.attachments}
    assert set(files) == {"board.png", "hand-1.png", "hand-2.png", "game-1-log.txt"}
    assert final.attachments[0].filename == "board.png" and files["board.png"].is_png
    # Each seat's final hand, as its own hand image (the renderer draws "<name> holds <n>").
    for seat in range(2):
        expected = guess_game.hand(state.view(seat), ["Ann", "Bob"])
        assert files[f"hand-{seat + 1}.png"].data == expected
    # Alt text on every image.
    assert "Guess board after" in files["board.png"].description and "game is over" in files["board.png"].description
    assert "Ann's hand" in files["hand-1.png"].description
    report = files["game-1-log.txt"].data.decode()
    assert "Final standings:" in report and "points:" in report
    assert f"Moves ({len(moves)}):" in report
    for n, (seat, notation) in enumerate(moves, start=1):
        assert f"{n}. {['Ann', 'Bob'][seat]}: {notation}" in report

    ix = await fake.slash(bob, general, "game replay")
    assert not ix.ephemeral and "replay of" in ix.text
    gif = ix.reply.attachments[0]
    assert gif.filename == "game-1-replay.gif" and gif.data.startswith(b"GIF8") and "Replay of Guess" in gif.description
    image = Image.open(io.BytesIO(gif.data))
    # A short game: every state is drawn, the deal included (Pillow merges identical frames).
    assert f"({len(moves) + 1} frames)" in ix.text and 1 < image.n_frames <= len(moves) + 1
    assert image.width <= 480


async def test_spectator_sees_board_log_and_status_but_no_secret(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "spec.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob, dee = fake.user("Ann"), fake.user("Bob"), fake.user("Dee")
    general = fake.channel("general")
    await open_table(fake, general, [ann, bob], options="rounds=1 span=30", seats="join")
    await fake.slash(ann, general, "game start")
    await fake.wait_for(lambda: board_posts(general) and snapshot(db)[2] == 0, what="first board")
    users_by_id = {ann.id: ann, bob.id: bob}
    await play_one(fake, db, general, users_by_id, pick=lambda moves: moves[2])  # Ann bids 2, secretly
    state = snapshot(db)[0]
    assert state.phase == "bid" and state.bids[0] == 2

    answers = [await fake.slash(dee, general, "board"), await fake.slash(dee, general, "board", options={"text": True}),
               await fake.slash(dee, general, "game log"), await fake.slash(dee, general, "game status")]
    assert answers[0].reply.attachments[0].is_png and answers[0].reply.attachments[0].description
    assert "Guess board after 1 moves" in answers[1].text
    assert "1. Ann: Ann has bid." in answers[2].text and "bid 2" not in answers[2].text
    assert "To act: Bob" in answers[3].text
    # Ann sees her own bid in the log; nobody else does.
    assert "1. Ann: bid 2" in (await fake.slash(ann, general, "game log")).text
    assert "bid 2" not in (await fake.slash(bob, general, "game log")).text

    hands = {guess_game.hand(state.view(s), ["Ann", "Bob"]) for s in range(2)}
    for message in fake.seen_by(dee):
        assert "holds" not in message.all_text() and "You bid" not in message.all_text()
        assert "bid 2" not in message.all_text()
        assert not any(a.data in hands or a.filename.startswith("hand-") for a in message.all_attachments())
        assert str(state.secrets[0]) not in (a.description for a in message.all_attachments())
