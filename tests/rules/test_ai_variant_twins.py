"""The twin-state test of test_ai_twins.py in the variants issue 27 touched: the same move at both levels
whatever the secrets (Ticket to Ride `completion=choose` and open track stacks, Trans Europa vexation,
Santa Fe advanced and tile buying)."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

import pytest

from rules import registry
from rules.engine import GameState, ai_move, play_out
from rules.santa_fe.state import SantaFeState
from rules.search import SearchAI
from tests.rules.test_ai_twins import Twin, te_twin, ttr_twin


def sf_twin(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Each other seat swaps a hand card it has not chosen to play with a different deck card; deck reversed."""
    twin = state.copy()
    twin.rng = random.Random(rng.getrandbits(64))
    assert isinstance(twin, SantaFeState)
    for other in range(twin.num_seats):
        if other == seat:
            continue
        chosen = twin.choice[other] or ""
        for index, card in enumerate(twin.cities[other]):
            if card in chosen:
                continue
            swap = next((i for i, c in enumerate(twin.deck) if c != card and c not in twin.cities[other]), None)
            if swap is not None:
                twin.cities[other][index], twin.deck[swap] = twin.deck[swap], card
                twin.cities[other].sort()
                break
    twin.deck.reverse()
    return twin


TWINS: dict[str, Twin] = {"ttr_cards": ttr_twin, "trans_europa": te_twin, "santa_fe": sf_twin}

# (game, options, players, seed, normal moves played before the position)
CASES: list[tuple[str, dict[str, Any], int, int, int]] = [
    ("ttr_cards", {"completion": "choose"}, 4, 15, 95),
    ("ttr_cards", {"completion": "choose", "open_track_stack": True}, 3, 12, 60),
    ("trans_europa", {"vexation": True}, 3, 22, 30),
    ("trans_europa", {"vexation": True, "vexation_refill": "round"}, 4, 200, 60),
    ("santa_fe", {"advanced": True}, 2, 32, 104),
    ("santa_fe", {"advanced": True}, 4, 30, 80),
    ("santa_fe", {"advanced": True, "tile_buying": True}, 3, 7, 60),
]


def _small(hard: SearchAI) -> SearchAI:
    """The hard level's own code path (its lead, stops, budget rules) at a budget a test can afford."""
    small = copy.copy(hard)
    small.budget = replace(hard.budget, rollouts=8, candidates=3)
    return small


@pytest.mark.parametrize(("key", "options", "players", "seed", "moves"), CASES)
def test_variant_twins_give_the_same_choice(key: str, options: dict[str, Any], players: int, seed: int,
                                             moves: int) -> None:
    definition = registry.get(key)
    state = definition.new_game(players, options, seed)
    play_out(state, {s: definition.ai("normal") for s in range(players)}, max_moves=moves)
    assert not state.is_over()
    seat = min(state.to_act())
    twin = TWINS[key](state, seat, random.Random(seed))
    assert twin.view(seat) == state.view(seat), "a twin must look the same from the seat"
    assert twin.to_json() != state.to_json(), "a twin must differ in a secret"
    assert ai_move(twin, seat, definition.ai("normal")) == ai_move(state, seat, definition.ai("normal"))
    hard = definition.ai("hard")
    assert isinstance(hard, SearchAI)
    assert ai_move(twin, seat, _small(hard)) == ai_move(state, seat, _small(hard))
    # The worlds the search samples are the same too: only what the seat knows goes into them.
    world = state.determinize(seat, random.Random(7))
    assert twin.determinize(seat, random.Random(7)).to_json() == world.to_json()
