"""Setting up a game of Great Western Railway (section 3): cubes, start player, round-1 loading."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import public, seat_token
from rules.great_western.state import GreatWesternState


def new_game(num_seats: int, options: Mapping[str, Any], seed: int) -> GreatWesternState:
    """Each seat: 1 cube on London, 1 income marker, 10 available, 14 unavailable; dice for round 1."""
    state = GreatWesternState(num_seats, options, seed)
    state.start_player = state.rng.randrange(num_seats)  # D20
    state._opening_events = [public(f"{seat_token(state.start_player)} is the start player."), *state._load()]
    return state
