"""Trans Europa greedy AI: its marker is a cheapest junction, its tracks lie on a minimum tree."""

from __future__ import annotations

from rules.engine import ai_move
from rules.trans_europa import DEFINITION, board
from rules.trans_europa.ai import GreedyAI
from rules.trans_europa.moves import End, Lay, Start, Vex
from tests.rules.trans_europa_fixtures import e7


def test_greedy_marker_is_a_cheapest_free_junction() -> None:
    for seed in range(4):
        state = DEFINITION.new_game(3, {}, seed)
        while state.phase == "markers":
            (seat,) = state.to_act()
            move = ai_move(state, seat, GreedyAI())
            assert isinstance(move, Start)
            cities = tuple(board.CITY_BY_ID[c].junction for c in state.hands[seat])
            costs = board.marker_costs(cities)
            free = [v for v in range(len(board.JUNCTIONS)) if v not in state.markers]
            assert costs[move.junction] == min(costs[v] for v in free)
            state.apply(seat, move)


def test_greedy_tracks_lower_its_penalty_by_their_cost() -> None:
    for seed in range(3):
        state = DEFINITION.new_game(4, {"vexation": seed == 1}, seed)
        greedy = GreedyAI()
        for _ in range(60):
            if state.is_over():
                break
            (seat,) = state.to_act()
            before = state.penalty(seat)
            move = ai_move(state, seat, greedy)
            if isinstance(move, Lay | Vex):
                cost = board.EDGES[move.edge].cost
                round_before = state.round
                state.apply(seat, move)
                if state.round == round_before:
                    assert state.penalty(seat) == before - cost
            else:
                assert isinstance(move, Start | End)
                state.apply(seat, move)


def test_greedy_completes_e7_in_one_turn() -> None:
    state = e7()
    first = ai_move(state, 0, GreedyAI())
    assert str(first) in ("lay wien i19", "lay a17 stockholm")
    state.apply(0, first)
    second = ai_move(state, 0, GreedyAI())
    assert {str(first), str(second)} == {"lay wien i19", "lay a17 stockholm"}
