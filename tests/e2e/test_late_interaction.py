"""Discord wants the first answer to an interaction within 3 s of sending it. A bot that reads one late (a
burst: bench/outbox_backlog.py) defers it sooner, by its id's time (bot.cogs.defer_in), not a fixed second
after reading it."""

from __future__ import annotations

import asyncio
import datetime as dt
from types import SimpleNamespace

import discord
import pytest

from bot.cogs import DEFER_BY, defer_in
from bot.service.turn import Turns
from tests.e2e.test_platform import db_moves, make_bot, started_game


def sent(seconds_ago: float) -> SimpleNamespace:
    return SimpleNamespace(created_at=discord.utils.utcnow() - dt.timedelta(seconds=seconds_ago))


def test_an_interaction_read_late_is_deferred_sooner():
    assert defer_in(sent(0.05), 1.0) == 1.0  # read at once: a second of work before the defer, as always
    assert defer_in(sent(1.0), 1.0) == pytest.approx(DEFER_BY - 1.0, abs=0.05)
    assert defer_in(sent(2.0), 1.0) == 0.0  # at once
    # A clock off by seconds (an id from the future, or older than Discord's window): as if read at once.
    assert defer_in(sent(-5.0), 1.0) == 1.0
    assert defer_in(sent(60.0), 1.0) == 1.0


async def test_the_fakes_clocked_ids_carry_when_they_were_made(fake_discord):
    fake = fake_discord
    assert discord.utils.snowflake_time(fake.next_id()).year == 2026  # deterministic: a fixed time
    fake.clocked_ids = True
    now = discord.utils.utcnow()
    assert abs((discord.utils.snowflake_time(fake.next_id()) - now).total_seconds()) < 0.1
    assert abs((now - discord.utils.snowflake_time(fake.next_id(ago=2.0))).total_seconds() - 2.0) < 0.1
    ids = [fake.next_id() for _ in range(50)]
    assert ids == sorted(ids) and len(set(ids)) == 50


async def slow_moves(monkeypatch, seconds: float) -> None:
    """Every move takes `seconds` more (a slow database), without blocking the loop."""
    real = Turns.play

    async def slow(self, *args, **kwargs):
        await asyncio.sleep(seconds)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(Turns, "play", slow)


@pytest.mark.parametrize("age", [0.0, 2.0])
async def test_a_slow_move_read_late_is_deferred_within_discords_window(fake_discord, tmp_path, monkeypatch, age):
    fake = fake_discord
    fake.clocked_ids = True
    fake.interaction_window = 3.0  # Discord's: a later first answer gets 404 Unknown interaction
    db = str(tmp_path / "junction.db")
    await fake.start_bot(make_bot(fake, db))
    general = fake.channel("general")
    ann, bob = fake.user("Ann"), fake.user("Bob")
    await started_game(fake, [ann, bob], general)
    await slow_moves(monkeypatch, 1.3)
    fake.interaction_age = age  # the bot reads the interaction `age` seconds after Discord sent it
    ix = await fake.slash(ann, general, "play", options={"move": "bid 1"}, timeout=15)
    assert ix.response_type == 5  # deferred ("thinking"), then answered
    assert ix.responded_at - ix.sent_at < 3.0
    assert ix.text == "You played `bid 1`.", ix.text
    assert db_moves(db) == [(0, 0, "bid 1")]
    assert fake.refusals == [] and fake.errors == []
