"""Great Western AI: bids follow the build order and stop short of one-cube bidding wars (issue 15)."""

from __future__ import annotations

import random

import pytest

from rules.engine import ai_move, play_out
from rules.great_western import DEFINITION
from rules.great_western.ai import SCORE_SCALE, GreedyAI, _train_load, greedy_plan
from rules.great_western.moves import Bid
from rules.search import SearchAI, SearchBudget

# 3 players, seed 1, the previous greedy AI in every seat: t3 builds before t2, and Ann's t3 bid
# takes Oxford, the city the old AI then bid 4 cubes on t2 for.
SEED_1_AUCTION = [
    (0, "bid t3 1"),
    (1, "bid t2 1"),
    (2, "bid t3 2"),
    (0, "bid t2 2"),
    (1, "bid t3 3"),
    (2, "bid t2 3"),
    (0, "bid t3 4"),
]


def test_does_not_bid_for_a_city_an_earlier_train_will_take() -> None:
    state = DEFINITION.new_game(3, {}, 1)
    for seat, text in SEED_1_AUCTION:
        state.apply(seat, text)
    assert state.to_act() == {1}
    view = state.view(1)
    move = ai_move(state, 1, GreedyAI())
    assert isinstance(move, Bid) and move.train != 2
    # Whatever it bids on, the first city of its plan is not one an earlier train's bidder takes.
    trains = {t["id"]: t for t in view["trains"]}
    mine = trains[move.train]
    owners = {c: int(s) for c, s in view["owners"].items()}
    p, f = _train_load(mine)
    plan = greedy_plan(owners, 1, p, f, view["seats"][1]["available"] - move.amount)
    for other in trains.values():
        if other["in_play"] and other["bid"] and other["build_rank"] < mine["build_rank"]:
            rival = other["bid"]["seat"]
            op, of = _train_load(other)
            taken = greedy_plan(owners, rival, op, of, view["seats"][rival]["available"])
            assert not plan or plan[0] not in taken


def test_no_long_bidding_wars_between_greedy_seats() -> None:
    """The old AI outbid by one cube again and again, up to 12-13 cubes for a single train."""
    highest = 0
    for players in (2, 3, 4):
        for seed in range(6):
            state = DEFINITION.new_game(players, {}, seed)
            log = play_out(state, {s: GreedyAI() for s in range(players)})
            bids = [int(text.split()[2]) for _, text in log if text.startswith("bid")]
            highest = max(highest, *bids)
    assert highest <= 9


@pytest.mark.parametrize(("players", "seed", "moves"), [(2, 11, 0), (3, 12, 30), (4, 13, 80)])
def test_only_the_dice_are_resampled(players: int, seed: int, moves: int) -> None:
    """Nothing is secret but the future dice: a twin with another RNG gets the same world and moves."""
    state = DEFINITION.new_game(players, {}, seed)
    play_out(state, {s: GreedyAI() for s in range(players)}, max_moves=moves)
    assert not state.is_over()
    seat = min(state.to_act())
    twin = state.copy()
    twin.rng = random.Random(seed)
    assert twin.to_json() != state.to_json() and twin.view(seat) == state.view(seat)
    world = state.determinize(seat, random.Random(7))
    assert world.view(seat) == state.view(seat) and world.to_json() != state.to_json()
    assert twin.determinize(seat, random.Random(7)).to_json() == world.to_json()
    small = SearchAI(GreedyAI, SearchBudget(rollouts=6, candidates=3), score_scale=SCORE_SCALE)
    assert ai_move(twin, seat, small) == ai_move(state, seat, small)
