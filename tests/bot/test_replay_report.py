"""The end-of-game texts: the downloadable report and the revealed details, from a real finished game."""

from __future__ import annotations

import pytest

from bot.store import GameRow, SeatRow
from bot.tables import Refused, TableInfo
from bot.texts import MAX_CONTENT, final_report, revealed_lines
from rules.engine import play_out
from rules.registry import GAMES


def finished(key: str, seats: int = 2, seed: int = 4):
    definition = GAMES[key]
    state = definition.new_game(seats, {}, seed)
    log = play_out(state, {s: definition.ai("random") for s in range(seats)})
    result = state.result().to_json()
    row = GameRow(1, key, state.options, seed, "over", "join", 5, 6, None, 7, None, None, frozenset(), result, 0.0, 0.0)
    info = TableInfo(row, definition, [SeatRow(s, 100 + s, None, n) for s, n in enumerate(["Ann", "Bob"][:seats])])
    return info, log, result


def test_report_has_standings_breakdown_details_and_every_move():
    info, log, result = finished("ttr_cards")
    lines = [f"{n}. {['Ann', 'Bob'][seat]}: {text}" for n, (seat, text) in enumerate(log, start=1)]
    report = final_report(info, ["Ann", "Bob"], lines)
    assert report.startswith("Ticket to Ride: The Card Game · game #1")
    for line in result["seats"]:
        for category, points in line["breakdown"].items():
            assert f"     {result['labels'][category]}: {points}" in report  # in words, not the engine's key
    assert "completed ticket numbers (revealed): " in report and f"Moves ({len(log)}):" in report
    assert "tickets_deck1" not in report and "completed_ids" not in report
    assert all(line in report for line in lines)


def test_revealed_lines_are_short_and_only_when_there_are_details():
    info, _, result = finished("great_western")
    lines = revealed_lines(result, ["Ann", "Bob"])
    assert lines[0] == "**At the end:**" and len(lines) == 3  # nothing in Great Western was secret
    assert all(len(line) <= 180 for line in lines) and lines[1].split(":")[0] in ("Ann", "Bob")
    assert sum(map(len, lines)) < MAX_CONTENT
    assert revealed_lines({"seats": [{"seat": 0, "score": 1, "rank": 1, "breakdown": {}, "details": {}}]},
                          ["Ann"]) == []


async def test_board_posts_carry_the_view_before_the_batch_and_hands_show_only_at_the_end(tables):
    """The outbox row of a move holds the public view before it (interlude images survive a restart)."""
    info = await tables.create("guess", guild_id=9, channel_id=50, user_id=1, user_name="Ann",
                               options={"rounds": "1"})
    game_id = info.row.id
    await tables.join(game_id, 2, "Bob")
    await tables.start(game_id, 1)
    await tables.posts_done([p.id for p in await tables.owed_posts(game_id)])
    before, _ = await tables.public_view(game_id)
    with pytest.raises(Refused, match="only when the game is over"):
        await tables.revealed_views(game_id)
    await tables.play(game_id, 1, "bid 1")
    [board] = [p for p in await tables.owed_posts(game_id) if p.kind == "board"]
    assert board.payload["previous_view"] == before and before["moves_applied"] == 0
    await tables.play(game_id, 2, "bid 2")
    after_first = [p for p in await tables.owed_posts(game_id) if p.kind == "board"][-1]
    assert after_first.payload["previous_view"]["moves_applied"] == 1
    while True:
        info = await tables.info(game_id)
        if not info.to_act:
            break
        await tables.play(game_id, info.seats[info.to_act[0]].user_id, "pass")
    views = await tables.revealed_views(game_id)
    assert sorted(views) == [0, 1] and all("secret" in v for v in views.values())


async def test_alt_text_falls_back_to_the_generic_description_when_a_game_describe_fails():
    from bot.render_pool import RenderPool

    pool = RenderPool(workers=0)
    try:
        broken = {"game": "trans_europa", "num_seats": 2, "to_act": [0], "over": False, "moves_applied": 3,
                  "tracks": 5}
        assert await pool.describe(broken, ["Ann", "Bob"]) == "Trans Europa board after 3 moves. To act: Ann."
        good = GAMES["trans_europa"].new_game(2, {}, 1).view(None)
        assert (await pool.describe(good, ["Ann", "Bob"])).startswith("Trans Europa, round 1:")
    finally:
        pool.close()
