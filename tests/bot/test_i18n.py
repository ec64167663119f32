"""The Japanese catalog: formatting, localizing composed English text, rules summaries, the Translator."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

from bot import i18n
from bot.tables import NOT_SEATED, NOT_YOUR_TURN, STALE_MOVE
from rules.registry import GAMES

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_every_entry_keeps_its_placeholders_and_is_japanese():
    for english, japanese in i18n.JA.items():
        assert sorted(PLACEHOLDER.findall(english)) == sorted(PLACEHOLDER.findall(japanese)), english
        assert re.search(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]", japanese), english  # kana, kanji, full-width marks


def test_t_formats_for_japanese_and_falls_back_to_english():
    assert i18n.t("ja", "You played `{move}`.", move="lay a b") == "`lay a b` を指しました。"
    assert i18n.t(discord.Locale.japanese, "You joined.") == "参加しました。"
    assert i18n.t("en-US", "You played `{move}`.", move="x") == "You played `x`."
    assert i18n.t(None, "No such entry {n}", n=1) == "No such entry 1"
    assert i18n.t("ja", "No such entry {n}", n=1) == "No such entry 1"


def test_localize_reads_composed_english_line_by_line():
    for text in (NOT_YOUR_TURN, NOT_SEATED, STALE_MOVE):
        assert i18n.localize("ja", text) == i18n.JA[text]
    assert i18n.localize("ja", "Lobby for Guess opened in <#5> (game #3).") == "<#5> で Guess の募集を始めました（ゲーム #3）。"
    assert i18n.localize("ja", "Lobby for Guess opened (game #3).") == "Guess の募集を始めました（ゲーム #3）。"
    board = "**Guess** · game #1 · move 4\n• Ann guesses Bob: 3.\n**To act:** <@1>"
    assert i18n.localize("ja", board) == "**Guess** · ゲーム #1 · 4 手目\n• Ann guesses Bob: 3.\n**手番：** <@1>"
    assert i18n.localize("en-US", board) == board
    assert i18n.localize("ja", "head\n• The game was cancelled.") == "head\n• ゲームは中止されました。"
    # A value that is itself a catalog word is translated too.
    assert i18n.localize("ja", "Threads: the player chooses") == "スレッド：プレイヤーが選ぶ"


def test_rules_summaries_exist_in_japanese_for_every_game():
    assert set(i18n.RULES_JA) == set(GAMES)
    for key, definition in GAMES.items():
        english = f"**{definition.title}** (2–5 players)\n{definition.summary}"
        japanese = i18n.rules_text("ja", definition, english)
        assert i18n.RULES_JA[key] in japanese and definition.summary not in japanese
        assert japanese.startswith(f"**{i18n.t('ja', definition.title)}**（2〜5 人）")
        assert i18n.rules_text("en-GB", definition, english) == english


class _Context:
    def __init__(self, location):
        self.location = location


@pytest.mark.parametrize("location, expected", [
    (app_commands.TranslationContextLocation.command_description, "自分の手札を見ます（あなただけに表示）"),
    (app_commands.TranslationContextLocation.command_name, None),
    (app_commands.TranslationContextLocation.parameter_name, None),
])
async def test_translator_gives_japanese_descriptions_never_names(location, expected):
    translator = i18n.Translator()
    text = app_commands.locale_str("See your private hand (only you see the answer)")
    assert await translator.translate(text, discord.Locale.japanese, _Context(location)) == expected
    assert await translator.translate(text, discord.Locale.french, _Context(location)) is None


def test_turn_reminders_follow_the_readers_language():
    dm = "⏰ Your turn in **Santa Fe** (game #3 in <#123>): time runs out <t:99:R> (<t:99:f>)."
    assert i18n.localize("ja", dm) == "⏰ **Santa Fe**（<#123> のゲーム #3）であなたの手番です。残り時間: <t:99:R>（<t:99:f> まで）。"
    mention = "<@55>, it is your turn in game #3: time runs out <t:99:R>."
    assert i18n.localize("ja", mention) == "<@55> さん、ゲーム #3 であなたの手番です。残り時間: <t:99:R>。"
    assert i18n.localize("en-US", mention) == mention
    assert i18n.localize("ja", "**Since your last turn** (1 move):") == "**前回の手番から**（1 手）："
