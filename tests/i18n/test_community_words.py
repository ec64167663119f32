"""The community texts (/profile, /leaderboard, /history, a game's record) in Japanese and German: every message
id of the `community` domain has a translation in both, with the same placeholders, and t() finds them."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import locales
from bot.i18n import t
from locales import catalogs


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_the_community_template_is_what_the_code_says():
    with open(locales.pot_path("community"), "rb") as handle:
        stored = {m.id for m in read_po(handle) if m.id}
    assert stored == {m.id for m in catalogs.extract("community") if m.id}
    assert "**Profile of {member}** on this server" in stored and len(stored) > 40


@pytest.mark.parametrize("lang", ["ja", "de"])
def test_every_community_text_is_translated_with_its_placeholders(lang):
    with open(locales.pot_path("community"), "rb") as handle:
        ids = [m.id for m in read_po(handle) if m.id]
    words = locales.words(lang)
    for msgid in ids:
        if isinstance(msgid, tuple):  # a plural: every form of the language, with the placeholders of both
            forms = [words.ngettext(*msgid, n, ("community",)) for n in (1, 2, 5, 21)]
            assert all(form not in msgid for form in forms), msgid
            assert all(placeholders(form) <= placeholders(msgid[1]) for form in forms), msgid
            continue
        translated = words.gettext(msgid, ("community",))
        assert translated != msgid or not re.search("[A-Za-z]{3}", re.sub(r"\{\w+\}|`[^`]*`", "", msgid)), msgid
        assert placeholders(translated) == placeholders(msgid), msgid


def test_t_speaks_japanese_and_german():
    assert t("ja", "No games played here yet.") == "このサーバーで遊んだゲームはまだありません。"
    assert t("ja", "place {rank} of {seats}", rank=2, seats=4) == "4 人中 2 位"
    german = locales.words("de").gettext("place {rank} of {seats}", ("community",))
    assert german.format(rank=2, seats=4) == "Platz 2 von 4"
