"""Great Western Railway: seeded AI games over all player counts and options, with invariants."""

from __future__ import annotations

import json
import os
import re

import pytest

from rules.engine import RandomAI, ai_rng, replay
from rules.great_western import DEFINITION
from rules.great_western.ai import GreedyAI, RandomGWAI
from rules.great_western.moves import parse
from tests.rules.great_western.fixtures import check_conservation, check_round_trip, check_views

GAMES = int(os.environ.get("JUNCTION_FUZZ_GAMES", "1000"))
# The first games check everything after every move; the rest check the costly parts every Nth move.
FULL_CHECK_GAMES = min(GAMES, 40)
EVERY = 9
ROUND_LIMITS = (40, 0, 1, 2, 3, 6, 10)
SEAT_TOKEN = re.compile(r"\{s(\d+)\}")


def players_for(game: int, seats: int) -> dict:
    kinds = (RandomGWAI, GreedyAI, RandomAI)
    return {seat: kinds[(game + seat * (game % 3 + 1)) % 3]() for seat in range(seats)}


def play_checked(game: int) -> tuple[int, int, str]:
    seats = 2 + game % 3
    options = {"round_limit": ROUND_LIMITS[(game // 3) % len(ROUND_LIMITS)]}
    state = DEFINITION.new_game(seats, options, seed=10_000 + game)
    players = players_for(game, seats)
    log: list[tuple[int, str]] = []
    full = game < FULL_CHECK_GAMES
    check_conservation(state)
    while not state.is_over():
        (seat,) = state.to_act()
        legal = state.legal_moves(seat)
        assert legal, "a running game always has a legal move"
        move = players[seat].choose(state.view(seat), legal, ai_rng(state.seed, seat, state.moves_applied))
        events = state.apply(seat, move)
        log.append((seat, str(move)))
        check_conservation(state)
        for event in events:
            assert event.seats is None  # nothing is secret in this game
            assert all(int(n) < seats for n in SEAT_TOKEN.findall(str(event.text)))
        if full or len(log) % EVERY == 0:
            check_round_trip(state)
            check_views(state)
            upcoming = state.legal_moves(min(state.to_act())) if not state.is_over() else []
            notations = [str(m) for m in upcoming]
            assert notations == sorted(set(notations)), "legal moves are unique and sorted by notation"
            for candidate in upcoming:
                assert parse(str(candidate)) == candidate
        assert len(log) < 5_000, "the game does not end"
    limit = options["round_limit"]
    if limit:
        assert state.round <= limit
    assert state.ended_by in ("all cities connected", "round limit")
    if state.ended_by == "all cities connected":
        assert len(state.owners) == 22
    assert all(sum(load) == 0 for load in state.loads), "no cube stays on a train at the end"
    check_round_trip(state)
    check_views(state)
    result = state.result()
    assert result is not None
    assert json.loads(json.dumps(result.to_json())) == result.to_json()
    for line in result.seats:
        assert sum(line.breakdown.values()) == line.score == state.gold_of(line.seat)
        assert line.details["cubes_off_board"] == 24 - len(state.cities_of(line.seat))
    keys = {s.seat: (s.score, s.details["cubes_off_board"]) for s in result.seats}
    for a in result.seats:
        better = sum(1 for b in result.seats if keys[b.seat] > keys[a.seat])
        assert a.rank == better + 1
    again = replay(DEFINITION, seats, options, 10_000 + game, log)
    assert again == state
    return seats, options["round_limit"], state.ended_by


@pytest.mark.slow
def test_seeded_ai_games() -> None:
    played = [play_checked(game) for game in range(GAMES)]
    if 3 * len(ROUND_LIMITS) <= GAMES:
        # Every player count met every round-limit option, and both endings happened.
        assert {(seats, limit) for seats, limit, _ in played} == {
            (seats, limit) for seats in (2, 3, 4) for limit in ROUND_LIMITS
        }
        assert {ended for _, _, ended in played} == {"all cities connected", "round limit"}


def test_greedy_games_end_by_connecting_every_city() -> None:
    for seed in range(12):
        seats = 2 + seed % 3
        state = DEFINITION.new_game(seats, {}, seed)
        players = {s: GreedyAI() for s in range(seats)}
        while not state.is_over():
            (seat,) = state.to_act()
            legal = state.legal_moves(seat)
            state.apply(
                seat, players[seat].choose(state.view(seat), legal, ai_rng(seed, seat, state.moves_applied))
            )
        assert state.ended_by == "all cities connected" and state.round < 25
