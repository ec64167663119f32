"""The posts a database from before messages still owed (tests/bot/data/words_before_messages.sql, written by
bc8fe81 and never sent) go out after the upgrade in the server's language: the bot starts on that database in a
German or Japanese server, the words upgrade rewrites the stored lines at start (bot/service/words_upgrade.py),
and the owed board posts of the five games arrive without an English sentence, each player's name as it is."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from bot.app import create_bot
from tests.bot.test_words_upgrade import old_database
from tests.e2e.fake_discord import FakeChannel
from tests.e2e.test_german_games import english_words

NAMES = ("Deck", "Score", "Round")
OLD_USERS = {101: "Deck", 102: "Score", 103: "Round"}  # as tests/bot/words_before_messages.py seated them


def move_into(db: str, fake, language: str) -> dict[int, tuple[str, FakeChannel]]:
    """The old database's games, players and server moved onto the fake's ids; the server speaks `language`.
    Returns each game's (title key, channel)."""
    users = {old: fake.add_user(name) for old, name in OLD_USERS.items()}
    conn = sqlite3.connect(db)
    games = conn.execute("SELECT id, game_key FROM games ORDER BY id").fetchall()
    places = {}
    for i, (game_id, key) in enumerate(games):
        channel = FakeChannel(fake.next_id(), f"old-{key}", 0, guild_id=fake.guild_id, position=10 + i)
        fake.channels[channel.id] = channel
        conn.execute("UPDATE games SET guild_id = ?, channel_id = ? WHERE id = ?", (fake.guild_id, channel.id, game_id))
        places[game_id] = (key, channel)
    for old, user in users.items():
        for table, column in (("seats", "user_id"), ("games", "creator_id"), ("seat_prefs", "away_user_id")):
            conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (user.id, old))
    conn.execute("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)",
                 (fake.guild_id, json.dumps({"language": language})))
    conn.commit()
    conn.close()
    return places


@pytest.mark.parametrize("language", ["de", "ja"])
async def test_posts_owed_before_messages_go_out_in_the_servers_language(fake_discord, tmp_path, language):
    fake = fake_discord
    db = old_database(tmp_path / "old.db")
    places = move_into(db, fake, language)
    owed = {r[0] for r in sqlite3.connect(db).execute("SELECT DISTINCT game_id FROM outbox WHERE kind = 'board'")}
    assert owed == set(places)
    await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    await fake.wait_for(lambda: sqlite3.connect(db).execute("SELECT count(*) FROM outbox WHERE kind = 'board'")
                        .fetchone()[0] == 0, what="the owed posts", timeout=60)
    seen = set()
    for key, channel in places.values():
        posts = [m for m in channel.messages if not m.ephemeral]
        assert posts, key
        text = "\n".join(m.all_text() for m in posts)
        notation = re.findall(r"`[^`]*`", text)
        for line in text.splitlines():
            assert not english_words(line, key, (*NAMES, *notation)), (language, key, line)
        if language == "ja":
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text), key
        seen |= {name for name in NAMES if re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", text)}
    assert seen == set(NAMES)
    # The owed DMs too: the bot has not heard from these players since it started (no command, so no Discord
    # locale of theirs), so their DMs speak the language of the game's server, not English.
    await fake.wait_for(lambda: sqlite3.connect(db).execute("SELECT count(*) FROM outbox").fetchone()[0] == 0,
                        what="the owed DMs", timeout=60)
    dms = [m for user in fake.users.values() if user.name in NAMES for m in fake.dms(user)]
    assert dms
    for message in dms:
        text = message.all_text()
        key = places[int(re.search(r"(?<!<)#(\d+)", text)[1])][0]  # every DM names its game
        for line in text.splitlines():
            assert not english_words(line, key, (*NAMES, *re.findall(r"`[^`]*`", line))), (language, key, line)
