"""Each game's Japanese tests translate as the bot does for that game: with its catalog only."""

from __future__ import annotations

import pytest

from bot.tables import CURRENT_GAME
from rules.registry import GAME_KEYS


@pytest.fixture(autouse=True)
def translate_as_the_bot_does_for_this_game(request):
    name = request.module.__name__.rsplit(".", 1)[-1]  # test_<key>_ja
    key = name.removeprefix("test_").removesuffix("_ja")
    token = CURRENT_GAME.set(key if key in GAME_KEYS else None)
    yield
    CURRENT_GAME.reset(token)
