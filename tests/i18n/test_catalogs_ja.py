"""Every Japanese catalog (each game's engine texts and image labels, the shared image words, the bot's
own texts) keeps the placeholders of its English: a dropped one loses a value, a new one makes format fail."""

from __future__ import annotations

import pytest

import locales
from locales import catalogs
from rules.registry import GAME_KEYS
from tests.i18n.support import placeholder_problems


@pytest.mark.parametrize("game_key", GAME_KEYS)
def test_the_game_catalogs_keep_every_placeholder(game_key: str) -> None:
    # Its texts live in its .po only, checked as every catalog is (no placeholder the English lacks; a
    # translation may leave one out, as gettext allows).
    assert locales.entries("ja", game_key)
    assert [p for p in catalogs.problems(["ja"]) if p.startswith(f"ja/{game_key}:")] == []


def test_the_shared_image_words_keep_every_placeholder() -> None:
    assert placeholder_problems(locales.entries("ja", "images")) == []


def test_the_bots_own_texts_keep_every_placeholder() -> None:
    # As every catalog is checked (a plural's translation may use {n} where the English singular does not).
    assert [p for p in catalogs.problems(["ja"]) if p.startswith("ja/bot:")] == []
