"""A player's name is never translated (issue 25): players named like catalog words ("Deck" is 山札 and
"Nachziehstapel", "Score" 得点, "Easy" 弱い...) play a whole game of Trans Europa in a Japanese server, half of
them speaking German: posts, DMs, the end report and `/game log` in Japanese and German show each name, the log
exactly as often as the English one does."""

from __future__ import annotations

import re

import pytest

import locales
from bot.app import create_bot
from rules.engine import ai_move
from rules.registry import GAMES
from tests.e2e.test_platform import table_snapshot

NAMES = ("Deck", "Round", "Score", "Easy", "Players", "Black")
KEY = "trans_europa"


def count(name: str, text: str) -> int:
    return len(re.findall(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", text))


async def play(fake, tmp_path, locale: str, key: str = KEY, names: tuple[str, ...] = NAMES, options: str = "start_score=5",
               speak: dict[str, str] | None = None, by_admin: bool = False):
    """A whole game (short: `options`) with human players named `names`, in a server whose language is `locale`,
    each player's commands (and so their DMs) in `speak[name]` (default `locale`); returns (channel, users, db).
    `by_admin`: the server's Discord locale stays English and an admin chooses `locale` with /admin settings."""
    speak = speak or {}
    definition = GAMES[key]
    db = str(tmp_path / f"{locale}.db")
    channel = fake.channel("general")
    if not by_admin:
        fake.guild_locale = locale
    await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    if by_admin:
        await fake.slash(fake.user("Ann"), channel, "admin settings", options={"language": locale}, locale=locale)
    users = [fake.add_user(name) for name in names]
    by_id = {u.id: u for u in users}
    await fake.slash(users[0], channel, "game new", options={"game": key, "seats": "join", "options": options},
                     locale=locale)
    for user in users[1:]:
        await fake.slash(user, channel, "game join", locale=speak.get(user.name, locale))
    await fake.slash(users[0], channel, "game start", locale=locale)
    await fake.wait_for(lambda: table_snapshot(db, definition)[4] == "running" and table_snapshot(db, definition)[2] == 0,
                        what="first board and welcome DMs")
    greedy = definition.ai("greedy" if "greedy" in definition.ais else next(iter(definition.ais)))
    while True:
        state, seats, _, moves, status = table_snapshot(db, definition)
        if status != "running":
            break
        seat = min(state.to_act())
        move = str(ai_move(state, seat, greedy))
        user = by_id[seats[seat]]
        ix = await fake.slash(user, channel, "play", options={"move": move}, locale=speak.get(user.name, locale))
        assert f"`{move}`" in ix.text and "You played" not in ix.text, ix.text
        before = len(moves)
        await fake.wait_for(lambda n=before: len(table_snapshot(db, definition)[3]) > n
                            and table_snapshot(db, definition)[2] == 0, what=f"posts after {move}")
    return channel, users, db


@pytest.fixture
def german():
    """Junction speaks German in the test: its bot and image words are complete before LINGUAS lists it."""
    if "de" not in locales.LANGUAGES:
        locales.install("de", locales.words("de"))
        yield
        locales.uninstall("de")
    else:
        yield


async def test_names_like_catalog_words_stay_verbatim_in_posts_dms_and_logs(fake_discord, tmp_path, german):
    """One game in a Japanese server; three of the players speak German (their DMs are German)."""
    fake = fake_discord
    speak = {name: "de" for name in NAMES[::2]}
    channel, users, _ = await play(fake, tmp_path, "ja", speak=speak)

    async def log(locale: str) -> str:
        reply = (await fake.slash(users[0], channel, "game log", locale=locale)).reply
        return reply.attachments[0].data.decode() if reply.attachments else reply.text

    english = await log("en-US")
    posts = "\n".join(m.all_text() for m in channel.messages if not m.ephemeral)
    report = next(a.data.decode() for m in channel.messages for a in m.all_attachments() if a.filename.endswith(".txt"))
    assert "places the start marker" not in posts  # the posts are in Japanese
    for locale, words in (("ja", ("山札", "ラウンド", "得点", "弱い", "プレイヤー")), ("de", ("Nachziehstapel", "Leicht"))):
        translated = await log(locale)
        assert "places the start marker" not in translated  # the log is in the reader's language
        readers = [user for user in users if speak.get(user.name, "ja") == locale]
        dms = "\n".join(m.all_text() for user in readers for m in fake.dms(user))
        assert dms and "Welcome to" not in dms  # their DMs are in their language
        for name in NAMES:
            assert count(name, translated) == count(name, english) > 0, (locale, name, translated[:400])
        for other in set(users) - set(readers):  # the other players' moves, in "since your last turn"
            assert count(other.name, dms) > 0, (locale, other.name)
        # The catalog's words for these names never stand where a name stood.
        assert not any(word in translated for word in words), translated[:400]
    every_dm = "\n".join(m.all_text() for user in users for m in fake.dms(user))
    for name in NAMES:
        assert count(name, posts) > 0 and count(name, report) > 0 and count(name, every_dm) > 0, name
