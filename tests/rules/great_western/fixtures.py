"""Helpers for the Great Western Railway tests: positions from the spec, names, invariant checks."""

from __future__ import annotations

import json
from typing import Any

from rules.engine import Event, name_seats
from rules.great_western import DEFINITION
from rules.great_western.board import BLACK_CUBES, CUBES_PER_PLAYER, TRAINS
from rules.great_western.state import GreatWesternState

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def named(events: list[Event]) -> list[str]:
    return [name_seats(e.text, NAMES) for e in events]


def fresh(
    num_seats: int, dice: dict[int, list[int]], start: int = 0, round_limit: int = 40
) -> GreatWesternState:
    """A new game whose round-1 dice are `dice` and whose start player is `start`."""
    state = GreatWesternState(num_seats, DEFINITION.resolve_options({"round_limit": round_limit}), 0)
    state.start_player = start
    state._load(dice)
    return state


def loads_for(train: int, passengers: int, freight: int) -> list[int]:
    """Cube counts per car giving P/F, one cube per car from the front."""
    loads = [0] * 5
    for position, car in enumerate(TRAINS[train - 1].cars):
        if car.passenger and passengers:
            loads[position] += 1
            passengers -= 1
        elif not car.passenger and freight:
            loads[position] += 1
            freight -= 1
    # Cars of one kind may run out: stack the rest on the last car of that kind.
    for position in reversed(range(5)):
        car = TRAINS[train - 1].cars[position]
        if car.passenger and passengers:
            loads[position] += passengers
            passengers = 0
        if not car.passenger and freight:
            loads[position] += freight
            freight = 0
    return loads


def build_position(
    num_seats: int,
    owners: dict[str, int],
    trains: list[tuple[int, int, int]],
    cubes: dict[int, tuple[int, int]],
) -> GreatWesternState:
    """A build step: `trains` = (seat, P, F) in build order on t1, t2...; `cubes` seat -> (avail, unav)."""
    state = GreatWesternState(num_seats, DEFINITION.resolve_options({}), 0)
    state.owners = dict(owners)
    state.phase = "build"
    for index, (seat, p, f) in enumerate(trains):
        state.owner[index] = seat
        state.paid[index] = 1
        state.load_colour[index] = seat
        state.loads[index] = loads_for(index + 1, p, f)
        state.dice[index] = [1, 1, 1]
    state.order = [t + 1 for t in range(len(trains))]
    state.build_pos = 0
    for seat, (avail, unav) in cubes.items():
        state.available[seat] = avail
        state.unavailable[seat] = unav
    return state


def seat_total(state: GreatWesternState, seat: int) -> int:
    """2 (London cube and income marker) + cities + available + unavailable + train + bid box."""
    return (
        2
        + len(state.cities_of(seat))
        + state.available[seat]
        + state.unavailable[seat]
        + state.seat_cubes_on_train(seat)
        + state.seat_bid(seat)
    )


def check_conservation(state: GreatWesternState) -> None:
    for seat in range(state.num_seats):
        assert seat_total(state, seat) == CUBES_PER_PLAYER, (seat, state.to_json())
        assert state.available[seat] >= 0 and state.unavailable[seat] >= 0
    assert 0 <= state.black_on_trains() <= BLACK_CUBES
    assert state.black_supply() + state.black_on_trains() == BLACK_CUBES
    if state.phase == "build":
        assert all(b is None for b in state.bids), "bid boxes are empty during the build"
    for loads in state.loads:
        assert all(n >= 0 for n in loads)


def check_round_trip(state: GreatWesternState) -> None:
    data = state.to_json()
    again = GreatWesternState.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    assert again == state


def check_views(state: GreatWesternState) -> None:
    """Nothing is secret: every seat's view is the public view plus `you`; no RNG anywhere."""
    public_view = state.view(None)
    text = json.dumps(public_view)
    assert "rng" not in public_view and '"rng"' not in text
    for seat in range(state.num_seats):
        mine = state.view(seat)
        assert json.loads(json.dumps(mine)) == mine
        assert mine["you"] == seat
        rest = {k: v for k, v in mine.items() if k not in ("you", "seat")}
        assert rest == {k: v for k, v in public_view.items() if k != "seat"}


def options_of(state: GreatWesternState) -> dict[str, int]:
    return {o["city"]: o["route_cost"] for o in state.view(None)["connect_options"]}


def legal_texts(state: GreatWesternState, seat: int) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]


def snapshot(state: GreatWesternState) -> dict[str, Any]:
    return json.loads(json.dumps(state.to_json()))
