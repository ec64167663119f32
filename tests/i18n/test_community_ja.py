"""The texts of rematches, lobby hygiene and seasons (the `community` domain) come out in Japanese and German:
every message id the code says has a translation in both that keeps its placeholders, and the bot's calls
(t, localize of a stored line, a refusal's message, button labels, command descriptions) give them."""

from __future__ import annotations

import discord
import pytest

import locales
from bot import i18n
from bot.service.hygiene import closing_line
from bot.service.rematch import ALREADY
from bot.tables import Refused
from locales import catalogs
from rules.words import Msg


def community_problems(lang: str) -> list[str]:
    return [p for p in catalogs.problems([lang]) if p.startswith((f"{lang}/community", "templates/community"))]


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_every_community_text_is_translated_with_its_placeholders(lang):
    assert community_problems(lang) == []
    template = {m.id for m in catalogs.extract("community") if m.id}
    assert len(template) > 30  # the code's ids were found (a wrong source list would find none)


def test_japanese_through_the_bots_calls():
    assert i18n.t("ja", "Rematch of game #{old}.", old=3) == "ゲーム #3 の再戦です。"
    assert i18n.t(discord.Locale.japanese, "Waiting for: {players}", players="<@1>") == "返事待ち：<@1>"
    # A line the outbox keeps in English is translated when it is posted.
    # The line an idle lobby leaves is stored as a message and translated when it is posted.
    assert locales.say(Msg.from_json(closing_line("Guess", 4, 7).to_json()), "ja") == \
        "Guess の募集（ゲーム #4）は 7 日間動きがなかったため終了しました。"
    refused = Refused(Msg(ALREADY, old=1, new=2))
    assert str(refused.reason) == "Game #1 has had its rematch already: game #2."
    assert locales.say(refused.reason, "ja") == "ゲーム #1 の再戦はすでに開かれています：ゲーム #2。"
    assert i18n.t("ja", "Rematch") == "再戦" and i18n.t("ja", "Decline") == "辞退"
    assert locales.gettext("ja", "The running season's standings for a game") == "進行中のシーズンのゲーム別順位"


def test_german_catalog_reads_the_same_ids():
    german = locales.words("de")
    assert german.gettext("Rematch of game #{old}.").format(old=3) == "Revanche für Spiel #3."
    assert german.gettext("Confirm") == "Zusagen"
    # A count picks its form by the language's own plural rule (the catalog's Plural-Forms), not by English's.
    one, other = "Idle lobbies close after {days} day without activity", "Idle lobbies close after {days} days without activity"
    assert i18n.tn("de", one, other, n=7, days=7) == "Inaktive Lobbys schließen nach 7 Tagen ohne Aktivität"
    assert i18n.tn("de", one, other, n=1, days=1) == "Inaktive Lobbys schließen nach 1 Tag ohne Aktivität"
    assert i18n.tn("ja", one, other, n=7, days=7) == "動きのない募集は 7 日で自動終了"
