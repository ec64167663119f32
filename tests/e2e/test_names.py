"""A player's name is never translated (issue 25): players named like catalog words ("Deck" is 山札 and
"Nachziehstapel", "Score" 得点, "Easy" 弱い...) play a whole game of Trans Europa in a Japanese and in a
German server, and every post, DM and `/game log` shows each name exactly as often as the English log does."""

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


async def play(fake, tmp_path, locale: str):
    """A whole (short: start_score=5) game with six human players named NAMES, every command in `locale`, in a server whose
    language is `locale`; returns (channel, users, db)."""
    definition = GAMES[KEY]
    fake.guild_locale = locale
    db = str(tmp_path / f"{locale}.db")
    await fake.start_bot(create_bot(db, render_workers=1, **fake.bot_kwargs()))
    users = [fake.add_user(name) for name in NAMES]
    by_id = {u.id: u for u in users}
    channel = fake.channel("general")
    await fake.slash(users[0], channel, "game new", options={"game": KEY, "seats": "join", "options": "start_score=5"}, locale=locale)
    for user in users[1:]:
        await fake.slash(user, channel, "game join", locale=locale)
    await fake.slash(users[0], channel, "game start", locale=locale)
    await fake.wait_for(lambda: table_snapshot(db, definition)[4] == "running" and table_snapshot(db, definition)[2] == 0,
                        what="first board and welcome DMs")
    greedy = definition.ai("greedy")
    while True:
        state, seats, _, moves, status = table_snapshot(db, definition)
        if status != "running":
            break
        seat = min(state.to_act())
        move = str(ai_move(state, seat, greedy))
        ix = await fake.slash(by_id[seats[seat]], channel, "play", options={"move": move}, locale=locale)
        assert f"`{move}`" in ix.text and "You played" not in ix.text, ix.text
        before = len(moves)
        await fake.wait_for(lambda n=before: len(table_snapshot(db, definition)[3]) > n
                            and table_snapshot(db, definition)[2] == 0, what=f"posts after {move}")
    return channel, users, db


@pytest.fixture
def speaking(request):
    """Junction speaks `locale` in the test: German is complete for the bot before LINGUAS lists it."""
    locale = request.param
    if locale not in locales.LANGUAGES:
        locales.install(locale, locales.words(locale))
        request.addfinalizer(lambda: locales.uninstall(locale))
    return locale


@pytest.mark.parametrize("speaking", ["ja", "de"], indirect=True)
async def test_names_like_catalog_words_stay_verbatim_in_posts_dms_and_logs(fake_discord, tmp_path, speaking):
    fake, locale = fake_discord, speaking
    channel, users, _ = await play(fake, tmp_path, locale)
    english = (await fake.slash(users[0], channel, "game log")).reply
    translated = (await fake.slash(users[0], channel, "game log", locale=locale)).reply
    english_log = english.attachments[0].data.decode() if english.attachments else english.text
    translated_log = translated.attachments[0].data.decode() if translated.attachments else translated.text
    assert "places the start marker" not in translated_log  # the log is in the reader's language
    posts = "\n".join(m.all_text() for m in channel.messages if not m.ephemeral)
    dms = "\n".join(m.all_text() for user in users for m in fake.dms(user))
    report = next(a.data.decode() for m in channel.messages for a in m.all_attachments() if a.filename.endswith(".txt"))
    for name in NAMES:
        assert count(name, translated_log) == count(name, english_log) > 0, (name, translated_log[:400])
        assert count(name, posts) > 0 and count(name, dms) > 0 and count(name, report) > 0, name
    # The catalog's words for these names never stand where a name stood.
    words = {"ja": ("山札", "ラウンド", "得点", "弱い", "プレイヤー"), "de": ("Nachziehstapel", "Leicht")}[locale]
    assert not any(word in translated_log for word in words), translated_log[:400]
