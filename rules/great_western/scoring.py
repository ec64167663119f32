"""Final scoring of Great Western Railway: gold of owned cities, tie-break on cubes off the board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.engine import Result, SeatResult, rank_by
from rules.great_western.board import CITIES
from rules.words import N_


def final_result(
    num_seats: int,
    owners: Mapping[str, int],
    available: Sequence[int],
    unavailable: Sequence[int],
    ended_by: str,
) -> Result:
    """Most gold wins; ties go to most cubes off the board (= fewer cities); then the rank is shared."""
    lines = []
    keys = {}
    for seat in range(num_seats):
        cities = sorted((c for c, s in owners.items() if s == seat), key=lambda c: (-CITIES[c].gold, c))
        gold = sum(CITIES[c].gold for c in cities)
        off_board = available[seat] + unavailable[seat]
        keys[seat] = (gold, off_board)
        lines.append((seat, cities, gold, off_board))
    ranks = rank_by(keys)
    seats = [
        SeatResult(
            seat=seat,
            score=gold,
            breakdown={N_("city gold"): gold},
            rank=ranks[seat],
            details={
                "cities": [[c, CITIES[c].gold] for c in cities],
                "city_count": len(cities),
                "cubes_off_board": off_board,
            },
        )
        for seat, cities, gold, off_board in lines
    ]
    seats.sort(key=lambda s: (s.rank, s.seat))
    # Gold, cities and cubes were on the board for all to see: nothing here was secret.
    return Result(tuple(seats), ended_by, labels=RESULT_LABELS, details_secret=False)


# The result's keys in the player's words (the bot shows these, translated in this game's domain).
RESULT_LABELS: dict[str, str] = {
    "cities": N_("cities (gold)"),
    "city_count": N_("cities connected"),
    "cubes_off_board": N_("cubes off the board"),
    "all cities connected": N_("The game ended: every city is connected."),
    "round limit": N_("The game ended at the round limit."),
}
