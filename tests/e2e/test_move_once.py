"""Issue 12, findings 1-2 through Discord: a move that fails inside the bot gets a clear reply and
changes nothing; the same /play delivered twice (a gateway or client retry) applies once."""

from __future__ import annotations

import pytest

from bot.tables import MOVE_FAILED
from tests.bot.guess_game import GuessState
from tests.e2e.test_platform import db_moves, make_bot, started_game


async def test_a_move_that_fails_inside_the_bot_is_answered_and_changes_nothing(fake_discord, log_guard,
                                                                                 tmp_path, monkeypatch):
    fake = fake_discord
    db = str(tmp_path / "junction.db")
    await fake.start_bot(make_bot(fake, db))
    general = fake.channel("general")
    ann, bob = fake.user("Ann"), fake.user("Bob")
    await started_game(fake, [ann, bob], general)
    real_apply = GuessState._apply

    def broken(state, seat, move):
        real_apply(state, seat, move)  # half way: the state has changed when it raises
        raise RuntimeError("engine bug")

    monkeypatch.setattr(GuessState, "_apply", broken)
    ix = await fake.slash(ann, general, "play", options={"move": "bid 1"})
    assert ix.ephemeral and ix.text == MOVE_FAILED
    assert [r.getMessage() for r in log_guard.take()] == [
        "game 1: the move 'bid 1' failed; the game reloads from the store"]
    assert db_moves(db) == []
    monkeypatch.setattr(GuessState, "_apply", real_apply)
    ix = await fake.slash(ann, general, "play", options={"move": "bid 1"})
    assert ix.text == "You played `bid 1`."
    assert db_moves(db) == [(0, 0, "bid 1")]


@pytest.mark.parametrize("when", ["at once", "when the move is legal again"])
async def test_the_same_play_delivered_twice_applies_once(fake_discord, tmp_path, when):
    fake = fake_discord
    db = str(tmp_path / "junction.db")
    await fake.start_bot(make_bot(fake, db))
    general = fake.channel("general")
    ann, bob = fake.user("Ann"), fake.user("Bob")
    await started_game(fake, [ann, bob], general)
    first = await fake.slash(ann, general, "play", options={"move": "bid 1"})
    assert first.text == "You played `bid 1`."
    if when != "at once":  # round 1 ends; in round 2 Ann may bid 1 again
        for user, move in ((bob, "bid 2"), (ann, "pass"), (bob, "pass")):
            await fake.slash(user, general, "play", options={"move": move})
    await fake.drain()  # the board posts of those moves are out
    moves = db_moves(db)
    answers, followups = len(general.all_messages), list(first.followups)  # one if the answer was deferred
    await fake.dispatch("INTERACTION_CREATE", first.payload)  # Discord delivers it again
    await fake.drain()
    assert db_moves(db) == moves
    # Quietly: no "not your turn" and no second reply (the interaction was answered already).
    assert len(general.all_messages) == answers and first.followups == followups
