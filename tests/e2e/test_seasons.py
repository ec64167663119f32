"""Seasons end to end: an admin starts them with `/admin season start`, a rated game counts in the season,
`/season standings` (the season's leaderboard) counts it, and when the injected clock passes the end the top three are posted once in
the results channel (a restart posts nothing again; a crash before the post is marked sent posts it once).
Then the same across two shard processes on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3

from tests.bot.test_deadlines import T0, Clock
from tests.e2e.fake_discord import FakeDiscord, shard_of
from tests.e2e.test_async_play import make_bot, tick
from tests.e2e.test_end_of_game import play_one, snapshot
from tests.e2e.test_platform import started_game
from tests.e2e.test_shards import GUILD_ID, SHARDS, Process, _rows, set_clock, stop_all
from tests.pg_server import fresh_database

WEEK_HOURS = 7 * 24


def seasons(db: str) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT number, status, results_message_id IS NOT NULL FROM seasons ORDER BY id").fetchall()


def results(channel) -> list:
    return [m for m in channel.messages if "is over" in m.text and "Season" in m.text]


async def finished_game(fake, db, channel, users) -> None:
    await started_game(fake, users, channel, options="rounds=1 span=3")
    while not snapshot(db)[0].is_over():
        await play_one(fake, db, channel, {u.id: u for u in users})


async def test_a_season_is_started_by_an_admin_ranked_and_its_end_posted_once(fake_discord, tmp_path, monkeypatch,
                                                                              log_guard):
    fake, clock = fake_discord, Clock()
    db = str(tmp_path / "season.db")
    bot = await fake.start_bot(make_bot(fake, db, clock))
    ann, bob = fake.user("Ann"), fake.user("Bob")  # Ann has Manage Server
    general, results_channel = fake.channel("general"), fake.channel("games")
    ix = await fake.slash(bob, general, "admin season start", options={"weeks": 1, "channel": results_channel})
    assert ix.ephemeral and "Manage Server" in ix.text and seasons(db) == []
    ix = await fake.slash(ann, general, "admin season start", options={"weeks": 1, "channel": results_channel})
    assert ix.text.startswith("Season 1 has begun: 1 week, until") and f"<#{results_channel.id}>" in ix.text
    ix = await fake.slash(ann, general, "admin season start", options={"weeks": 2, "channel": results_channel})
    assert ix.text == "A season is running on this server already; stop it first."
    await finished_game(fake, db, general, [ann, bob])
    await fake.wait_for(lambda: snapshot(db)[2] == 0, what="final post")
    ix = await fake.slash(bob, general, "season standings", options={"game": "guess"})
    assert ix.ephemeral and ix.text.startswith("**Guess** · season 1 of this server · ends <t:")
    assert "You are not on this leaderboard yet: you have 1 of the 3 rated games it needs." in ix.text
    same = await fake.slash(bob, general, "leaderboard", options={"game": "guess", "season": "current"})
    assert same.text == ix.text  # one view for a ranked list

    # A crash after the post is made but before it is marked sent: the restart posts it again under the
    # same nonce, which Discord answers with the first message.
    # Patch the name where the loaded cog looks it up: discord.py executes an extension's module afresh
    # at each load (and drops it from sys.modules at each unload), so `import bot.cogs.seasons` may give
    # another module object than the one this bot's cog runs in.
    cog_globals = bot.get_cog("SeasonsCog").post_results.__func__.__globals__
    real = cog_globals["results_sent"]

    kills: list[int] = []

    async def killed(store, season_id, message_id):
        kills.append(message_id)
        raise RuntimeError("killed after the post")

    monkeypatch.setitem(cog_globals, "results_sent", killed)
    before = len(results_channel.messages)
    assert await tick(bot, clock, WEEK_HOURS) == []  # the games' scheduler has nothing due
    await bot.get_cog("SeasonsCog").scheduler.run_due()  # the seasons' scheduler: the end, the post, the kill
    # The cog's own scheduler task may have taken the due end first (a loaded machine): wait for the kill. The
    # kill itself, not its log line, is what is waited for: in the whole suite the log record did not always
    # reach the guard in time.
    await fake.wait_for(lambda: kills, what="the results post made, then the process killed")
    log_guard.take()  # the logged failure of the killed step
    assert len(results_channel.messages) == before + 1
    monkeypatch.setitem(cog_globals, "results_sent", real)
    await fake.stop_bot(bot, drain=False)
    clock.advance(1)  # the dead process's lease runs out
    bot = await fake.start_bot(make_bot(fake, db, clock))
    await fake.wait_for(lambda: seasons(db)[0] == (1, "over", True), what="results marked sent")
    [post] = results(results_channel)
    assert fake.nonce_hits >= 1 and not post.pinged()
    assert post.text.startswith("**Season 1 is over** (<t:")
    assert "**Guess**" in post.text and (f"1. <@{ann.id}>" in post.text or f"1. <@{bob.id}>" in post.text)
    assert "Season 2 has begun; it ends <t:" in post.text
    assert seasons(db) == [(1, "over", True), (2, "running", False)]
    await fake.stop_bot(bot)
    await fake.start_bot(make_bot(fake, db, clock))
    await fake.drain()
    assert len(results(results_channel)) == 1


async def test_two_processes_post_a_seasons_end_once(pg_server, tmp_path):
    """Two shard processes on one PostgreSQL: the admin's command reaches one, both watch the clock; the
    season ends once and its top three are posted once."""
    assert shard_of(GUILD_ID, SHARDS) == 1
    fake = FakeDiscord(guild_id=GUILD_ID, shard_count=SHARDS)
    await fake.start()
    db = await fresh_database(pg_server, "junction_e2e_seasons")
    clock_file = tmp_path / "clock"
    set_clock(clock_file, T0)
    processes = {s: Process(fake, db, clock_file, s, tmp_path / f"shard{s}.log") for s in range(SHARDS)}
    try:
        await fake.wait_for(lambda: fake.shards_connected() == {0, 1} and fake.commands(), timeout=60,
                            what="both processes on the gateway")
        ann = fake.user("Ann")
        general, results_channel = fake.channel("general"), fake.channel("games")
        ix = await fake.slash(ann, general, "admin season start", options={"weeks": 1, "channel": results_channel},
                              timeout=20)
        assert ix.shards == [1] and ix.text.startswith("Season 1 has begun"), ix.text
        await asyncio.sleep(1.0)  # the other process has seen the season too: both fire its end
        set_clock(clock_file, T0 + WEEK_HOURS * 3600.0 + 60)
        await fake.wait_for(lambda: results(results_channel), timeout=30, what="the season's results")
        await asyncio.sleep(2.0)  # both processes had time to post it too
        assert len(results(results_channel)) == 1, [m.text for m in results_channel.messages]
        assert "Nobody finished a rated game in it." in results(results_channel)[0].text
        rows = await _rows(db, "SELECT number, status, results_message_id IS NOT NULL FROM seasons ORDER BY id")
        assert rows == [(1, "over", True), (2, "running", False)]
        for process in processes.values():
            assert not process.errors(), process.log.read_text()[-3000:]
    finally:
        stop_all(processes.values())
        await fake.stop()
    assert not fake.errors, fake.errors
