"""Test helpers for Trans Europa: build positions directly (spec section 14's fixture)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from rules.engine import GameState, IllegalMove, name_seats
from rules.trans_europa import DEFINITION, board
from rules.trans_europa.state import TransEuropaState

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def names(text: str) -> str:
    return name_seats(text, NAMES)


def refused(state: GameState, seat: int, text: str, reason: str) -> None:
    """`text` is refused with exactly `reason` (seats named) and the state is unchanged."""
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalMove) as info:
        state.apply(seat, text)
    assert names(info.value.reason) == reason
    assert json.dumps(state.to_json()) == before


def J(token: str) -> int:
    v = board.junction_of(token)
    assert v is not None, token
    return v


def E(a: str, b: str) -> int:
    e = board.edge_between(J(a), J(b))
    assert e is not None, (a, b)
    return e


def path_edges(path: str) -> list[int]:
    """'a b c' -> the lines a-b, b-c."""
    stops = path.split()
    return [E(x, y) for x, y in zip(stops, stops[1:], strict=False)]


def position(
    num_seats: int = 3,
    *,
    hands: Mapping[int, str],
    markers: Mapping[int, str],
    paths: Iterable[str] = (),
    coloured: Iterable[tuple[int, str]] = (),
    start_seat: int = 0,
    active: int = 0,
    step: int = 1,
    black_left: int | None = None,
    scores: Iterable[int] | None = None,
    coloured_left: Iterable[int] | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
) -> TransEuropaState:
    """A building-phase position with hands, markers, tracks (black paths, coloured (seat, path))."""
    state = DEFINITION.new_game(num_seats, {"first_player": "seat0", **(options or {})}, seed)
    assert isinstance(state, TransEuropaState)
    state.hands = [hands[s].split() for s in range(num_seats)]
    state.markers = [J(markers[s]) for s in range(num_seats)]
    state.tracks = {}
    for path in paths:
        for e in path_edges(path):
            assert e not in state.tracks
            state.tracks[e] = None
    for seat, path in coloured:
        for e in path_edges(path):
            assert e not in state.tracks
            state.tracks[e] = seat
    black = sum(1 for o in state.tracks.values() if o is None)
    state.black_left = 83 - black if black_left is None else black_left
    state.start_seat = start_seat
    state.active_seat = active
    state.step = step
    state.phase = "building"
    if scores is not None:
        state.scores = list(scores)
    if coloured_left is not None:
        state.coloured_left = list(coloured_left)
    state.last_tracks = []
    state._cache = {}
    state.completed = [s for s in range(num_seats) if state.is_complete(s)]
    return state


def moves(state: TransEuropaState, seat: int) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]


E7_PATHS = [
    "zurich h12 g11 f10 e9 london d6 e5 plymouth",
    "zurich i15 wien",
    "zurich j12 firenze l14 roma",
    "a17 oslo b14 c13 d12 amsterdam f10",
    "moskva d30 e29 f28 kyiv h28 i29 odessa j28 j26 k25 sofia",
    "i29 i27 i25 i23 budapest i19",
]
E7_HANDS = {
    0: "plymouth zurich stockholm kyiv roma",
    1: "madrid amsterdam oslo minsk firenze",
    2: "london wien moskva odessa sofia",
}
E7_MARKERS = {0: "zurich", 1: "a17", 2: "i25"}


def e7(**kwargs: Any) -> TransEuropaState:
    """Spec E7's position (Ann to act, step 1, supply 47) with overrides."""
    args: dict[str, Any] = {"hands": E7_HANDS, "markers": E7_MARKERS, "paths": E7_PATHS}
    args.update(kwargs)
    return position(3, **args)
