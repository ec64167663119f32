"""Ratings through the real discord.py client and the fake Discord: a whole game updates both players'
ratings once, and a crash between the game's end and its final post loses and doubles nothing."""

from __future__ import annotations

import sqlite3

from bot import rating_store
from tests.bot import guess_game
from tests.e2e.test_end_of_game import play_one, snapshot
from tests.e2e.test_platform import board_posts, make_bot, started_game, store_fingerprint


def ratings(db: str) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return sorted(raw.execute("SELECT scope, game_key, user_id, mu, sigma, games FROM ratings").fetchall())


def ledger(db: str) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return sorted(raw.execute("SELECT game_id, scope, rated FROM rated_games").fetchall())


def final_posts(channel) -> list:
    return [m for m in board_posts(channel) if "Game over" in m.text]


async def test_a_whole_game_updates_both_players_ratings_once(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "rated.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=3")
    await fake.wait_for(lambda: snapshot(db)[2] == 0, what="first posts")
    assert ratings(db) == []
    while not snapshot(db)[0].is_over():
        await play_one(fake, db, general, {ann.id: ann, bob.id: bob})
    await fake.wait_for(lambda: final_posts(general), what="final post")
    guild = f"guild:{general.guild_id}"
    assert ledger(db) == [(1, "global", 1), (1, guild, 1)]
    rows = ratings(db)
    assert [(r[0], r[2], r[5]) for r in rows] == sorted((s, u, 1) for s in ("global", guild) for u in (ann.id, bob.id))
    result = snapshot(db)[0].result()
    first, second = (ann.id, bob.id) if result.rank_of(0) <= result.rank_of(1) else (bob.id, ann.id)
    mu = {(r[0], r[2]): r[3] for r in rows}
    assert mu[("global", first)] >= mu[("global", second)]
    if result.rank_of(0) != result.rank_of(1):
        assert mu[("global", first)] > 25 > mu[("global", second)]
    # A restart (whose start sweeps pending games) changes nothing.
    await fake.stop_bot(bot)
    await fake.start_bot(make_bot(fake, db))
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    assert ratings(db) == rows and ledger(db) == [(1, "global", 1), (1, guild, 1)]


async def test_a_crash_between_the_end_and_the_final_post_rates_and_posts_once(fake_discord, tmp_path, monkeypatch,
                                                                              log_guard):
    fake = fake_discord
    db = str(tmp_path / "crash.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=3")
    await fake.stop_bot(bot)
    # The last moves commit through the service, and the process dies before the update and the posts.
    from bot.store import Store
    from bot.tables import Tables

    async def killed(store, game_id):
        raise RuntimeError("killed after the end's commit")

    monkeypatch.setattr(rating_store, "apply_game", killed)
    store = await Store.open(db)
    tables = Tables(store, games=guess_game.GAMES)
    await tables.load()
    users = {0: ann.id, 1: bob.id}
    while (await tables.info(1)).row.status == "running":
        info = await tables.info(1)
        user = users[info.to_act[0]]
        _, token, legal = await tables.legal_moves(1, user)
        await tables.play(1, user, legal[-1], token=token)
    await store.close()
    monkeypatch.undo()
    [logged] = log_guard.take()
    assert "rating update of game 1 failed" in logged.getMessage()
    assert ledger(db) == [] and store_fingerprint(db)[2] > 0 and not final_posts(general)

    bot = await fake.start_bot(make_bot(fake, db))
    await fake.wait_for(lambda: final_posts(general) and not store_fingerprint(db)[2], what="final post")
    await fake.wait_for(lambda: len(ledger(db)) == 2, what="ratings caught up")
    rows = ratings(db)
    assert [(r[0], r[2], r[5]) for r in rows] == sorted(
        (s, u, 1) for s in ("global", f"guild:{general.guild_id}") for u in (ann.id, bob.id))
    assert len(final_posts(general)) == 1
    await fake.stop_bot(bot)
    await fake.start_bot(make_bot(fake, db))
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="outbox drained")
    assert ratings(db) == rows and len(final_posts(general)) == 1
