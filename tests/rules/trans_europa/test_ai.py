"""Trans Europa greedy AI: its marker is a cheapest junction, its tracks lie on a minimum tree."""

from __future__ import annotations

import random

from rules.engine import ai_move
from rules.trans_europa import DEFINITION, board
from rules.trans_europa.ai import GreedyAI, ThriftyAI, hard_ai, next_turn, others_interest, race_losses
from rules.trans_europa.moves import End, Lay, Start, Vex
from rules.trans_europa.scoring import seat_lines
from rules.trans_europa.setup import piles_for
from rules.trans_europa.state import TransEuropaState
from tests.rules.trans_europa.fixtures import e7


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


def _building_position(players: int, seed: int, decisions: int) -> TransEuropaState:
    """A seeded greedy game `decisions` moves in, still in round 1's building turns."""
    state = DEFINITION.new_game(players, {}, seed)
    greedy = GreedyAI()
    for _ in range(decisions):
        (seat,) = state.to_act()
        state.apply(seat, ai_move(state, seat, greedy))
    assert isinstance(state, TransEuropaState) and state.phase == "building" and state.round == 1
    return state


def test_race_losses_follow_the_turn_order(monkeypatch) -> None:
    state = _building_position(3, 5, 9)
    state.active_seat, state.step = 0, 1
    monkeypatch.setattr(state, "penalty", {0: 5, 1: 3, 2: 8}.__getitem__)
    # At 2 tracks a turn, Bob (3) is done in his 2nd turn, the 5th turn from now. By then Ann has had 2
    # turns (5 - 4 = 1 left) and Cleo 1 (8 - 2 = 6 left).
    assert race_losses(state) == [1.0, 0.0, 6.0]
    # In step 2 Ann has 1 track left this turn: she too needs 3 turns (1 + 2 + 2), Bob still ends first.
    state.step = 2
    assert race_losses(state) == [2.0, 0.0, 6.0]
    state.step = 1
    monkeypatch.setattr(state, "penalty", {0: 4, 1: 3, 2: 8}.__getitem__)
    # Ann (4) and Bob (3) both need 2 turns; Ann's comes first and ends the round before Bob's.
    assert race_losses(state) == [0.0, 1.0, 6.0]


def test_race_losses_of_a_completed_round_are_the_penalties() -> None:
    state = _building_position(2, 3, 6)
    state.completed = [0]
    assert race_losses(state) == [0.0, float(state.penalty(1))]


def test_rank_puts_the_greedy_lines_first_and_cheapest_markers_first() -> None:
    state = DEFINITION.new_game(2, {}, 8)
    (seat,) = state.to_act()
    legal = state.legal_moves(seat)
    ranked = GreedyAI().rank(state.view(seat), legal, random.Random(0))
    assert sorted(ranked, key=str) == legal
    cities = tuple(board.CITY_BY_ID[c].junction for c in state.hands[seat])
    costs = board.marker_costs(cities)
    assert [costs[m.junction] for m in ranked] == sorted(costs[m.junction] for m in ranked)
    state = _building_position(2, 8, 7)
    (seat,) = state.to_act()
    legal = state.legal_moves(seat)
    view = state.view(seat)
    ranked = GreedyAI().rank(view, legal, random.Random(0))
    assert sorted(ranked, key=str) == legal
    before = state.penalty(seat)
    cheaper = [m for m in legal if isinstance(m, Lay) and _penalty_after(state, seat, m) < before]
    assert cheaper and set(ranked[: len(cheaper)]) == set(cheaper)
    # greedy's own choice is one of the lines ranked first
    assert GreedyAI().choose(view, legal, random.Random(1)) in cheaper


def _penalty_after(state: TransEuropaState, seat: int, move: Lay) -> int:
    world = state.copy()
    assert isinstance(world, TransEuropaState)
    world.tracks = {**world.tracks, move.edge: None}
    world._cache = {}
    return world.penalty(seat)


def test_hard_rollouts_stop_at_the_seats_next_turn() -> None:
    state = _building_position(3, 4, 8)
    (seat,) = state.to_act()
    world = state.copy()
    seen = []
    while not next_turn(state, world):
        (actor,) = world.to_act()
        seen.append(actor)
        world.apply(actor, ai_move(world, actor, GreedyAI()))
    assert world.active_seat == seat and world.step == 1 and world.round == state.round
    assert set(seen) == {0, 1, 2}


def test_hard_budget_shrinks_with_the_rivals_a_rollout_plays() -> None:
    budget = hard_ai().budget
    assert [budget.rollouts_for(n) for n in (2, 3, 4, 6)] == [32, 21, 16, 10]
    for players, total in ((2, 32), (4, 16)):
        state = _building_position(players, 6, 2 * players)
        hard = hard_ai()
        hard.trace = []
        seat = min(state.to_act())
        ai_move(state, seat, hard)
        ((_candidates, _means, counts, _choice),) = hard.trace
        # sequential halving: every candidate gets an equal share of each round's rollouts
        assert total - len(counts) * 3 <= sum(counts.values()) <= total


def test_others_interest_counts_the_unseen_cities_a_line_leads_to() -> None:
    """In a 2-player game one rival is left: a line's interest is the chance that, for at least one
    colour, the rival's city of that colour (any city this seat has not seen) is reached through it."""
    state = _building_position(2, 3, 6)
    (seat,) = state.to_act()
    other = 1 - seat
    view = state.view(seat)
    zero, blocked = seat_lines(state.tracks, other)
    lines = sorted(set(range(len(board.EDGES))) - set(state.tracks))
    interest = others_interest(view, seat, lines)
    seen = set(state.hands[seat])
    piles = [[board.CITY_BY_ID[c].junction for c in pile if c not in seen]
             for _, pile in sorted(piles_for(2).items())]
    marker = state.markers[other]
    assert marker is not None
    home = board.distances_from(marker, zero, blocked)
    for e in rng_sample(lines, 60):
        untouched = 1.0
        for pile in piles:
            # a line is on a shortest way to v when making it free shortens that way by its cost
            on_way = sum(1 for v in pile
                         if board.distances_from(marker, zero | {e}, blocked)[v] == home[v] - board.EDGES[e].cost)
            untouched *= 1 - on_way / len(pile)
        assert abs(interest[e] - (1 - untouched)) < 1e-9, e
    assert any(v > 0 for v in interest.values()) and any(v == 0 for v in interest.values())
    # nobody else is building once the rival's network is complete and shown
    state.completed = [other]
    assert set(others_interest(state.view(seat), seat, lines).values()) == {0.0}


def rng_sample(items: list[int], k: int) -> list[int]:
    return random.Random(5).sample(items, min(k, len(items)))


def test_thrifty_builds_first_the_lines_no_one_else_wants() -> None:
    """Where greedy picks any line of its tree, the hard level's own policy picks one the others are
    least likely to build for it; both pick among the same useful lines."""
    differing = 0
    for seed in range(6):
        state = DEFINITION.new_game(3, {}, seed)
        greedy = GreedyAI()
        for _ in range(40):
            if state.is_over():
                break
            (seat,) = state.to_act()
            legal = state.legal_moves(seat)
            view = state.view(seat)
            pick = ThriftyAI().choose(view, legal, random.Random(seed))
            options = {m.edge for m in legal if isinstance(m, Lay | Vex)
                       and any(GreedyAI().choose(view, legal, random.Random(r)) == m for r in range(12))}
            if isinstance(pick, Lay | Vex) and len(options) > 1:
                interest = others_interest(view, seat, sorted(options))
                assert pick.edge in options
                assert interest[pick.edge] == min(interest.values())
                differing += len(set(interest.values())) > 1
            state.apply(seat, ai_move(state, seat, greedy))
    assert differing >= 3  # positions where the choice mattered were met
