"""Board posts as Discord's layout components (Components V2), read as a player reads them."""

from __future__ import annotations

from render.kit import seat_colour
from tests.e2e.test_end_of_game import play_one, snapshot
from tests.e2e.test_platform import board_posts, make_bot, open_table


def rgb(seat: int) -> int:
    red, green, blue = seat_colour(seat)
    return red << 16 | green << 8 | blue


def container(post) -> dict:
    [box] = post.components  # everything sits in one container
    assert box["type"] == 17
    return box


async def test_board_posts_are_layouts_in_the_colour_of_the_seat_to_act(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "layout.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await open_table(fake, general, [ann, bob], options="rounds=1 span=3", seats="join")
    await fake.slash(ann, general, "game start")
    await fake.wait_for(lambda: board_posts(general) and snapshot(db)[2] == 0, what="first board")
    users_by_id = {ann.id: ann, bob.id: bob}
    seen = 0
    while not snapshot(db)[0].is_over():
        state, users, *_ = snapshot(db)
        acting = sorted(state.to_act())
        post = board_posts(general)[-1]
        box = container(post)
        # Read top to bottom: what happened, the board, whose turn it is and until when, the buttons.
        kinds = [c["type"] for c in box["components"]]
        assert kinds == [10, 12, 10, 1], kinds
        story, gallery, turn, row = box["components"]
        assert story["content"].startswith("**Guess** · game #1 · move ")
        assert "⏰ Time runs out <t:" in turn["content"]
        assert turn["content"].splitlines()[-1].startswith("**To act:** ")
        assert all(f"<@{users[seat]}>" in turn["content"].splitlines()[-1] for seat in acting)
        # The colour the seat to act has on the board; none while several seats choose at once.
        assert box.get("accent_color") == (rgb(acting[0]) if len(acting) == 1 else None)
        [item] = gallery["items"]
        board = post.attachments[0]
        assert item["media"]["url"] == "attachment://board.png" and board.filename == "board.png"
        assert item["description"] == board.description and "Guess board after" in item["description"]
        assert post.shown_attachments == post.attachments  # nothing uploaded that a reader cannot see
        assert [b["label"] for b in row["components"]] == ["Take turn", "My hand", "Since my last turn"]
        assert post.is_v2 and post.content == ""
        if not post.edits:  # a new post pings the seats whose turn begins, nobody else
            assert post.pinged() and post.pinged() <= {users[seat] for seat in acting}
        assert all(v.text and "**To act:**" in v.text for v in post.versions)  # edits stayed layouts
        seen += 1
        await play_one(fake, db, general, users_by_id)
    assert seen >= 2 and any(post.edits for post in board_posts(general))  # in-place edits were read too
    final = board_posts(general)[-1]
    box = container(final)
    kinds = [c["type"] for c in box["components"]]
    # The standings, the board and every hand in one gallery, the log as a file, My hand and Game record (its history entry).
    assert kinds == [10, 12, 13, 1], kinds
    assert "**Game over.**" in box["components"][0]["content"]
    assert [i["media"]["url"] for i in box["components"][1]["items"]] == [
        "attachment://board.png", "attachment://hand-1.png", "attachment://hand-2.png"]
    assert box["components"][2]["file"]["url"] == "attachment://game-1-log.txt"
    assert final.shown_attachments == final.attachments and len(final.attachments) == 4
    assert [b["label"] for b in final.buttons()] == ["My hand", "Game record", "Rematch"]
    first = [line.seat for line in snapshot(db)[0].result().seats if line.rank == 1]
    assert box.get("accent_color") == (rgb(first[0]) if len(first) == 1 else None)  # the winner's colour
    assert final.pinged() == set()
