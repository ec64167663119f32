"""Message texts and option parsing: what players read, with no secret and within Discord's limits."""

from __future__ import annotations

import pytest

from bot import texts
from bot.store import SeatRow
from bot.tables import Refused, TableInfo
from tests.bot.guess_game import DEFINITION
from tests.bot.test_tables import ANN, BOB, lobby


def test_parse_options_reads_key_value_pairs():
    assert texts.parse_options("rounds=3  Open_Bids=on, pace=fast") == {"rounds": "3", "open_bids": "on",
                                                                       "pace": "fast"}
    assert texts.parse_options("") == {}
    with pytest.raises(ValueError, match="key=value"):
        texts.parse_options("rounds")
    with pytest.raises(ValueError):
        texts.parse_options("=3")


async def test_board_text_mentions_who_acts_and_stays_under_2000_chars(tables):
    game_id = await lobby(tables, users=(ANN, BOB), seat_order="join")
    await tables.start(game_id, ANN)
    info = await tables.info(game_id)
    text = texts.board_text(info, ["Ann has bid."] * 500, None)
    assert len(text) <= texts.MAX_CONTENT
    assert text.startswith("**Guess** · game #") and text.endswith(f"<@{ANN}>, <@{BOB}>")
    over = texts.board_text(info, ["x"], ["1. Ann: 3"])
    assert "**Game over.**" in over and "To act" not in over


def test_rules_text_lists_every_option_with_kind_and_default():
    text = texts.rules_text(DEFINITION)
    for line in ("`rounds` (1–5, default 2)", "`open_bids` (on/off, default off)", "`pace` (calm/fast, default calm)"):
        assert line in text


def test_lobby_text_shows_ai_kind_and_options():
    info = TableInfo(row=None, definition=DEFINITION, seats=[SeatRow(0, 5, None, "Ann"), SeatRow(1, None, "random", "AI 1")])
    info.row = type("Row", (), {"id": 3, "status": "lobby", "seat_order": "shuffle", "creator_id": 5,
                                "options": {"rounds": 4}})()
    text = texts.lobby_text(info)
    assert "1. <@5>" in text and "2. AI 1 (easy)" in text and "rounds=4 span=3" in text


async def test_find_game_prefers_the_place_then_the_callers_running_game(tables):
    game_id = await lobby(tables, users=(ANN, BOB), channel=70)
    assert await tables.find_game(70) == game_id
    with pytest.raises(Refused, match="no game here"):
        await tables.find_game(71, ANN)  # a lobby is not a running game
    await tables.start(game_id, ANN)
    assert await tables.find_game(71, ANN) == game_id  # e.g. /hand in a DM
    with pytest.raises(Refused):
        await tables.find_game(71)


async def test_a_table_of_only_ai_does_not_start(tables):
    game_id = await lobby(tables, users=(ANN,))
    await tables.add_ai(game_id, ANN)
    await tables.add_ai(game_id, ANN)
    await tables.leave(game_id, ANN)
    with pytest.raises(Refused, match="At least one player"):
        await tables.start(game_id, ANN)
