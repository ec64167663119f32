"""The end-of-game texts: the downloadable report and the revealed details, from a real finished game."""

from __future__ import annotations

from bot.store import GameRow, SeatRow
from bot.tables import TableInfo
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
            assert f"     {category}: {points}" in report
    assert "completed_ids (revealed): " in report and f"Moves ({len(log)}):" in report
    assert all(line in report for line in lines)


def test_revealed_lines_are_short_and_only_when_there_are_details():
    info, _, result = finished("great_western")
    lines = revealed_lines(result, ["Ann", "Bob"])
    assert lines[0] == "**Revealed:**" and len(lines) == 3
    assert all(len(line) <= 180 for line in lines) and lines[1].split(":")[0] in ("Ann", "Bob")
    assert sum(map(len, lines)) < MAX_CONTENT
    assert revealed_lines({"seats": [{"seat": 0, "score": 1, "rank": 1, "breakdown": {}, "details": {}}]},
                          ["Ann"]) == []
