"""Setting up a game of Great Western Railway (section 3): cubes, start player, round-1 loading."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import public
from rules.great_western.state import GreatWesternState
from rules.words import Msg, Seat


def new_game(num_seats: int, options: Mapping[str, Any], seed: int) -> GreatWesternState:
    """Each seat: 1 cube on London, 1 income marker, 10 available, 14 unavailable; dice for round 1."""
    state = GreatWesternState(num_seats, options, seed)
    state.start_player = state.rng.randrange(num_seats)  # D20
    state._opening_events = [public(Msg("{who} is the start player.", who=Seat(state.start_player))), *state._load()]
    return state
