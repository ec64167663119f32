"""The bot's words: `t` and `say` translate the message first and fill in the values after (a name is never
translated), /rules from the game's domain, the Translator for every language, view labels."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

import locales
from bot import command_words, i18n, texts
from bot.ui.components import lobby_view, picker_view
from bot.ui.picker import menu
from bot.words import engine_line, lines_json
from rules.registry import GAMES
from rules.words import Items, Msg, Plural, Seat, Term

# Every language with a catalog of the bot's words (German before LINGUAS lists it too).
CATALOG_LANGUAGES = sorted(path.parent.parent.name for path in locales.ROOT.glob("*/LC_MESSAGES/bot.po"))

# Players named like catalog words (issue 25): they must come out exactly as they are.
NAMES = ["Deck", "Round", "Score", "Easy", "Players", "Black"]


def test_t_formats_for_japanese_and_falls_back_to_english():
    assert i18n.t("ja", "You played `{move}`.", move="lay a b") == "`lay a b` を指しました。"
    assert i18n.t(discord.Locale.japanese, "You joined.") == "参加しました。"
    assert i18n.t("en-US", "You played `{move}`.", move="x") == "You played `x`."
    assert i18n.t(None, "No such entry {n}", n=1) == "No such entry 1"
    assert i18n.t("ja", "No such entry {n}", n=1) == "No such entry 1"


def test_values_are_filled_in_after_the_translation_and_never_translated():
    # "Easy" is a catalog word (弱い) and "Score" one too (得点): as a value they stay as they are.
    assert i18n.t("ja", "{name} ({level}) takes a seat.", name="Easy", level=Term("easy")) == "Easy（弱い）が席に着きました。"
    line = Msg("{who} takes their seat back from the AI.", who="Score")
    assert i18n.say("ja", line).startswith("Score")
    seats = Msg("{title} begins. Seats: {seats}.", title=Term("Trans Europa"),
                seats=Items([Seat(i) for i in range(6)], "comma"))
    japanese = i18n.say("ja", seats, NAMES, "trans_europa")
    assert all(name in japanese for name in NAMES) and "山札" not in japanese and "得点" not in japanese
    assert i18n.say("en", seats, NAMES, "trans_europa") == (
        "Trans Europa begins. Seats: Deck, Round, Score, Easy, Players, Black.")


def test_an_engine_line_stored_before_messages_shows_with_its_names_and_no_pattern():
    # A row an older version stored: an engine's English with seat tokens. Shown as its English with the names
    # filled in; translated only when that exact text is a message id of the catalogs, never by a pattern.
    line = engine_line("{s0} places the start marker on paris.")
    assert i18n.say("ja", line, NAMES, "trans_europa") == "Deck places the start marker on paris."
    assert i18n.say("en", line, NAMES, "trans_europa") == "Deck places the start marker on paris."
    assert i18n.say("ja", engine_line("Game over."), NAMES, "trans_europa") == "ゲーム終了。"
    assert i18n.say("ja", Msg("{a}", a=engine_line("{s1} passes.")), NAMES) == "Round passes."


def test_stored_lines_round_trip_and_old_english_rows_still_show():
    lines = lines_json([Msg("You played `{move}`.", move="pass"), Plural("{n} move", "{n} moves", n=3)])
    assert [i18n.say("ja", line) for line in lines] == ["`pass` を指しました。", "3 手"]
    # A row stored before messages: English with the names in it, shown as it was.
    assert i18n.say("ja", "Deck passes.") == "Deck passes."


def test_plurals_follow_the_language():
    one, many = (Plural("**Since your last turn** ({n} move):", "**Since your last turn** ({n} moves):", n=n)
                 for n in (1, 4))
    assert i18n.say("en", one) == "**Since your last turn** (1 move):"
    assert i18n.say("en", many) == "**Since your last turn** (4 moves):"
    assert i18n.say("ja", one) == "**前回の手番から**（1 手）："
    assert i18n.say("ja", many) == "**前回の手番から**（4 手）："


def test_rules_come_from_the_games_domain_in_every_language():
    for key, definition in GAMES.items():
        english = texts.rules_text(definition, "en-GB")
        assert english == texts.rules_text(definition)
        assert definition.summary in english
        japanese = texts.rules_text(definition, "ja")
        summary = locales.gettext("ja", definition.summary, key)
        assert summary != definition.summary and summary in japanese, key
        assert japanese.startswith(f"**{locales.gettext('ja', definition.title, key)}**"), key


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


async def test_every_command_text_reaches_every_language():
    """Each description and choice name of the command tree is in bot.pot (the provider) and translated in
    every language Junction speaks, within Discord's 100 characters; /clock reminders' `on` included."""
    translator = i18n.Translator()
    ids = command_words.message_ids()
    assert "True: remind me when my time runs short; False: no reminders in this game" in ids
    context = _Context(app_commands.TranslationContextLocation.parameter_description)
    for language in CATALOG_LANGUAGES:
        for text in ids:
            if text in {d.title for d in GAMES.values()}:
                continue
            entry = locales.words(language).find(text, locales.domains_for(None))  # the catalog's translation
            assert entry and len(entry) <= 100, (language, text)
            if language in locales.LANGUAGES:  # Discord gets the languages Junction speaks (LINGUAS)
                translated = await translator.translate(app_commands.locale_str(text), discord.Locale(language),
                                                        context)
                assert translated == (entry if entry != text else None), (language, text)  # the same word: none


def test_the_language_setting_offers_every_language():
    from bot.cogs.admin import LANGUAGES

    assert [code for code in LANGUAGES if code != "auto"] == list(locales.LANGUAGES)


def test_turn_reminders_follow_the_readers_language():
    dm = i18n.t("ja", "⏰ Your turn in **{title}** (game #{id} in {place}): time runs out {when} ({at}).",
                title=Term("Santa Fe"), id=3, place="<#123>", when="<t:99:R>", at="<t:99:f>")
    assert dm == "⏰ **サンタフェ**（<#123> のゲーム #3）であなたの手番です。残り時間: <t:99:R>（<t:99:f> まで）。" or (
        dm.startswith("⏰ **") and "<#123>" in dm and "Your turn" not in dm)
    mention = i18n.t("ja", "{user}, it is your turn in game #{id}: time runs out {when}.", user="<@55>", id=3,
                     when="<t:99:R>")
    assert mention == "<@55> さん、ゲーム #3 であなたの手番です。残り時間: <t:99:R>。"


def test_view_labels_are_translated_but_moves_never():
    view = i18n.localize_view(lobby_view(1), "ja")
    assert "Join" not in [child.item.label for child in view.children]
    panel = i18n.localize_view(picker_view(1, 0, menu(["pass", "Score 3"]), ["pass"], "ja"), "ja")
    select = panel.children[0].item
    assert sorted(option.label for option in select.options) == ["Score 3", "pass"]  # notation as typed
    assert select.placeholder != "Choose a move"


def test_a_list_inside_a_line_keeps_its_separator_in_every_language():
    """bot.words rebuilds a line's lists to say the engine lines inside them; a list's own separator (a Santa Fe
    reveal: "a; b; c") must survive, or English posts read "a, b and c" where the engine wrote "a; b; c"."""
    from bot import words
    from rules.engine import name_seats
    from rules.words import N_, Items, Msg, Seat

    msg = Msg("Round {n} reveal: {plays}.", n=1, plays=Items([Msg("{who} plays {city}", who=Seat(0), city="Omaha"),
                                                              Msg("{who} plays {city}", who=Seat(1), city="Denver")],
                                                             sep=N_("; ")))
    names = ["Ann", "Bob"]
    assert words.say(msg, "en", names, "santa_fe") == name_seats(str(msg), names) == \
        "Round 1 reveal: Ann plays Omaha; Bob plays Denver."
    assert words.say(Msg.from_json(msg.to_json()), "en", names, "santa_fe") == name_seats(str(msg), names)


def test_a_result_category_with_a_number_reads_in_the_readers_language():
    """The end report and the demo name breakdown categories by the engine's label messages: "round 2" is the
    message "round {round}" (the report read "round 1 -2" in Japanese); a plain word is an exact id."""
    from bot.texts import label, words_in
    from rules.trans_europa.scoring import final_result

    result = final_result([3, -1], [{"round": 2, "scores_before": {"0": 5, "1": 5}, "penalties": {"0": 2, "1": 6}}],
                          2).to_json()
    assert words_in("ja", "trans_europa")(label(result, "round 2")) == "第 2 ラウンド"
    assert words_in("ja", "trans_europa")(label(result, "start score")) == "開始時の得点"
    assert words_in("de", "trans_europa")(label(result, "round 2")) == "Runde 2"
    assert words_in("en", "trans_europa")(label(result, "round 2")) == "round 2"
    assert words_in("ja", "trans_europa", NAMES)(label(result, result["ended_by"])) == "第 2 ラウンド終了時：Round -1 点。"
    # A result stored before labels were messages: the word is an exact id; "round 2" is left as it is.
    old = {"labels": {}, "seats": []}
    assert words_in("ja", "trans_europa")(label(old, "start score")) == "開始時の得点"
    assert words_in("ja", "trans_europa")(label(old, "round 2")) == "round 2"
