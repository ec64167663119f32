"""/profile, /leaderboard, /history and a finished game's record through the real discord.py client and the
fake Discord: whole games update both players' profiles and the leaderboard once; at 10,000 rated players
every answer stays within Discord's limits and pages with persistent buttons, also after a restart."""

from __future__ import annotations

import random
import sqlite3

from bot.store.stats import MIN_RATED_GAMES, PAGE_SIZE
from tests.e2e.test_platform import board_posts, make_bot, started_game, table_snapshot


def final_posts(channel) -> list:
    return [m for m in board_posts(channel) if "Game over" in m.text]


async def finish(fake, db, channel, game_id, users_by_id) -> None:
    """Play game `game_id` to its end by /play (the last legal move each time), its final post out."""
    while True:
        state, users, owed, moves, status = table_snapshot(db, game_id=game_id)
        if status == "over":
            break
        seat = min(state.to_act())
        move = str(state.legal_moves(seat)[-1])
        ix = await fake.slash(users_by_id[users[seat]], channel, "play", options={"move": move})
        assert ix.text == f"You played `{move}`.", ix.text
        done = len(moves)
        await fake.wait_for(lambda done=done: len(table_snapshot(db, game_id=game_id)[3]) > done, what=move)
    await fake.wait_for(lambda: final_posts(channel) and not table_snapshot(db, game_id=game_id)[2], what="final post")


def rated(db) -> list[tuple]:
    with sqlite3.connect(db) as raw:
        return sorted(raw.execute("SELECT scope, user_id, games FROM ratings").fetchall())


async def test_whole_games_update_both_profiles_and_the_leaderboard(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "community.db")
    await fake.start_bot(make_bot(fake, db))
    ann, bob = fake.user("Ann"), fake.user("Bob")
    users = {ann.id: ann, bob.id: bob}
    general = fake.channel("general")
    ix = await fake.slash(ann, general, "profile")
    assert ix.ephemeral and "No games played here yet." in ix.text
    ix = await fake.slash(ann, general, "profile", locale="ja")
    assert "このサーバーで遊んだゲームはまだありません。" in ix.text
    ix = await fake.slash(ann, general, "leaderboard", options={"game": "guess"})
    assert ix.ephemeral and "You are not on this leaderboard yet: you have 0 of the 3" in ix.text

    channels = [fake.channel(name) for name in ("games", "random", "general")][:MIN_RATED_GAMES]
    for number, channel in enumerate(channels, start=1):
        await started_game(fake, [ann, bob], channel, options="rounds=1 span=3")
        await finish(fake, db, channel, number, users)
        # Each game updates both players once in each scope.
        assert [g for _, _, g in rated(db)] == [number] * 4
        for user in (ann, bob):
            ix = await fake.slash(user, general, "profile")
            assert f"{number} played · {number} finished" in ix.text, ix.text
        if number == 1:
            [final] = final_posts(channel)
            ix = await fake.click(bob, final, label="Game record")
            assert ix.ephemeral and "game #1" in ix.text and ix.text.count("rating ") == 2, ix.text
            assert "/game replay number:1" in ix.text and f"/{final.channel_id}/{final.id})" in ix.text
            ix = await fake.slash(ann, general, "leaderboard", options={"game": "guess"})
            assert "you have 1 of the 3 rated games" in ix.text

    ix = await fake.slash(ann, general, "leaderboard", options={"game": "guess"})
    rows = [line for line in ix.text.splitlines() if line.startswith(("1.", "2.", "=1.", "**→**"))]
    assert len(rows) == 2 and any(f"<@{ann.id}>" in r for r in rows) and any(f"<@{bob.id}>" in r for r in rows)
    assert "2 players with at least 3 rated games" in ix.text and ix.ephemeral
    # A profile with its chart: the image's alt text says the trend in words.
    ix = await fake.slash(bob, general, "profile", options={"member": ann, "versus": bob})
    [chart] = ix.reply.attachments
    assert chart.filename == "rating-history.png" and chart.is_png
    assert "over 3 rated games" in chart.description and chart.description.startswith("Rating history on this server")
    assert "Head-to-head against" in ix.text and "3 games" in ix.text
    ix = await fake.slash(bob, general, "profile", options={"member": ann}, locale="ja")
    assert "このサーバーでのレーティングの推移:" in ix.reply.attachments[0].description and "最近の結果" in ix.text
    assert ix.text.count("• [#") == 3  # the recent results, each linked to its final post
    # History: the server's finished games, newest first; a member's; posted for everyone.
    ix = await fake.slash(ann, general, "history")
    assert [line.split("]")[0] for line in ix.text.splitlines() if line.startswith("• ")] == [
        "• [#3 Guess", "• [#2 Guess", "• [#1 Guess"]
    ix = await fake.slash(bob, general, "history", options={"member": ann, "post": True})
    assert not ix.ephemeral and "place " in ix.text
    # The log and the report of any finished game by its number, from another channel.
    ix = await fake.slash(bob, general, "game log", options={"number": 2})
    assert ix.ephemeral and ix.text.count(": ") == len(table_snapshot(db, game_id=2)[3])
    ix = await fake.slash(bob, general, "game report", options={"number": 1})
    assert ix.reply.attachments[0].filename == "game-1-log.txt"
    assert b"Final standings" in ix.reply.attachments[0].data
    ix = await fake.slash(bob, general, "game report", options={"number": 99})
    assert ix.text == "There is no game #99 on this server."


def seed_players(db: str, guild_id: int, count: int, viewer: int) -> None:
    """`count` rated players of Guess on the server (ties included), the viewer among the last."""
    rng = random.Random(7)
    rows = []
    for n in range(count):
        user = viewer if n == count - 3 else 10_000 + n
        mu = 25 + rng.choice([-4, -2, 0, 2, 4]) + (0 if n % 50 else 0.0)
        rows.append((f"guild:{guild_id}", "guess", user, mu if user != viewer else 10.0, 3.0,
                     MIN_RATED_GAMES + n % 7, 0, 0.0))
    with sqlite3.connect(db) as raw:
        raw.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)


async def test_ten_thousand_players_page_within_discords_limits(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "many.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, cid = fake.user("Ann"), fake.user("Cid")
    general = fake.channel("general")
    seed_players(db, general.guild_id, 10_000, ann.id)
    ix = await fake.slash(ann, general, "leaderboard", options={"game": "guess"})
    text = ix.text
    # The first page, and the viewer's own row under it (Ann is far down).
    assert len(text) <= 2000 and "Page 1 of 1000 · 10000 players" in text
    assert f"Your place: **→** 10000. <@{ann.id}>" in text
    # Ties: the players who show the same number share a rank, marked =.
    ranks = [line.split(".")[0] for line in text.splitlines()[2:] if line[:1] in "=0123456789"]
    assert any(r.startswith("=") for r in ranks)
    # Cid, not on the board, opens page 1 and turns it; their answer stays theirs.
    ix = await fake.slash(cid, general, "leaderboard", options={"game": "guess"})
    assert "Page 1 of 1000" in ix.text and "You are not on this leaderboard yet" in ix.text
    assert len([line for line in ix.text.splitlines() if line[:1] in "=0123456789"]) == PAGE_SIZE
    nxt = await fake.click(cid, ix.reply, label="Next ▶")
    assert "Page 2 of 1000" in nxt.text and len(nxt.text) <= 2000
    # Posted for everyone: a click answers the clicker with their own page, the post stays as it was.
    posted = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "post": True})
    assert not posted.ephemeral and len(posted.text) <= 2000
    mine = await fake.click(ann, posted.reply, label="My place")
    assert mine.ephemeral and "**→**" in mine.text and "Page 1 of" not in mine.text
    assert "Page 1 of 1000" in fake.message(posted.reply.id).text
    # The buttons survive a restart: the custom_id carries the title, scope and page.
    await fake.stop_bot(bot)
    await fake.start_bot(make_bot(fake, db))
    again = await fake.click(cid, nxt.reply, label="Next ▶")
    assert "Page 3 of 1000" in again.text
    # A profile of a player with a long history stays one message.
    ix = await fake.slash(ann, general, "profile")
    assert len(ix.text) <= 2000


def season_of(db: str) -> int:
    with sqlite3.connect(db) as raw:
        return raw.execute("SELECT id FROM seasons WHERE status = 'running'").fetchone()[0]


async def test_a_seasons_leaderboard_of_ten_thousand_players_pages_also_in_japanese(fake_discord, tmp_path):
    """`/leaderboard season:` (the running season, or its number) ranks the season's own scope with the server
    leaderboard's pages, ties, own row, minimum and post; its buttons carry the season, so paging survives a
    restart; `/season standings` is the same view; once in Japanese."""
    fake = fake_discord
    db = str(tmp_path / "season_board.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, cid = fake.user("Ann"), fake.user("Cid")  # Ann has Manage Server
    general, results = fake.channel("general"), fake.channel("games")
    ix = await fake.slash(ann, general, "leaderboard", options={"game": "guess", "season": "current"})
    assert ix.ephemeral and ix.text == "No season is running on this server."
    await fake.slash(ann, general, "admin season start", options={"weeks": 4, "channel": results})
    season_id = season_of(db)
    seed_players(db, general.guild_id, 10_000, ann.id)
    with sqlite3.connect(db) as raw:  # the same players in the season's own scope, Ann first there
        raw.execute("UPDATE ratings SET scope = ? WHERE scope = ?", (f"season:{season_id}", f"guild:{general.guild_id}"))
        raw.execute("UPDATE ratings SET mu = 40 WHERE user_id = ?", (ann.id,))
    ix = await fake.slash(ann, general, "leaderboard", options={"game": "guess"})
    assert "Nobody has 3 rated games of this title here yet." in ix.text  # the server's board is another scope
    board = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "season": "current"})
    text = board.text
    assert board.ephemeral and len(text) <= 2000
    assert text.startswith("**Guess** · season 1 of this server · ends <t:")
    assert "Page 1 of 1000 · 10000 players with at least 3 rated games" in text
    assert f"\n1. <@{ann.id}>" in text and "You are not on this leaderboard yet" in text
    ranks = [line.split(".")[0] for line in text.splitlines()[2:] if line[:1] in "=0123456789"]
    assert len(ranks) == PAGE_SIZE and any(r.startswith("=") for r in ranks)  # ties share a rank
    assert all(f":s{season_id}:" in c["custom_id"] for row in board.reply.components for c in row["components"])
    assert max(len(c["custom_id"]) for row in board.reply.components for c in row["components"]) <= 100
    nxt = await fake.click(cid, board.reply, label="Next ▶")
    assert "Page 2 of 1000" in nxt.text and nxt.text.startswith("**Guess** · season 1")
    # The season by its number is the same board; /season standings is the same view.
    by_number = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "season": "1"})
    assert by_number.text == text
    standings = await fake.slash(cid, general, "season standings", options={"game": "guess"})
    assert standings.text == text
    # Refusals in one line: no such season here; a season is this server's.
    ix = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "season": "7"})
    assert ix.text == "There is no season 7 on this server."
    ix = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "season": "1", "scope": "global"})
    assert ix.text == "A season's leaderboard is this server's: leave out scope:all servers."
    choices = await fake.autocomplete(cid, general, "leaderboard", "season", "", options={"game": "guess"})
    assert [(c["name"], c["value"]) for c in choices] == [("the running season", "current"), ("season 1", "1")]
    # Posted for everyone: a click answers the clicker with their own page, the post stays.
    posted = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "season": "current", "post": True})
    assert not posted.ephemeral and len(posted.text) <= 2000
    mine = await fake.click(ann, posted.reply, label="My place")
    assert mine.ephemeral and f"**→** 1. <@{ann.id}>" in mine.text
    # After a restart the buttons still page the season.
    await fake.stop_bot(bot)
    await fake.start_bot(make_bot(fake, db))
    again = await fake.click(cid, nxt.reply, label="Next ▶")
    assert "Page 3 of 1000" in again.text and again.text.startswith("**Guess** · season 1")
    # In Japanese, paged.
    ja = await fake.slash(cid, general, "leaderboard", options={"game": "guess", "season": "current"}, locale="ja")
    assert ja.text.startswith("**Guess** · このサーバーのシーズン 1 · 終了 <t:") and len(ja.text) <= 2000
    assert "1/1000 ページ · レーティング対象ゲーム 3 回以上のプレイヤー 10000 人" in ja.text
    turned = await fake.click(cid, ja.reply, label="次へ ▶", locale="ja")
    assert "2/1000 ページ" in turned.text and "このサーバーのシーズン 1" in turned.text
    # Ann's profile says her reliability (a newcomer: no game finished or left yet).
    ix = await fake.slash(ann, general, "profile")
    assert "Reliability **100%** on all servers: 0 finished · 0 left to the AI · 0 timeouts" in ix.text
