"""An AI's decision depends only on its seat's view: twins that differ in secrets get the same move.

Shared harness for every game: a game joins by adding a twin builder to TWINS (a state that differs
from the given one only in what `seat` cannot see: other seats' hidden cards, deck orders, the RNG)
and a few positions to POSITIONS. Each twin is built here by hand, independently of the engine's
`determinize`, so the test also checks that `determinize` resamples everything it must.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from rules import registry
from rules.engine import GameState, ai_move, play_out
from rules.search import SearchAI
from rules.trans_europa import board as te_board
from rules.trans_europa.state import TransEuropaState
from rules.ttr_cards.state import TTRCardsState

Twin = Callable[[GameState, int, random.Random], GameState]


def _reseeded(state: GameState, rng: random.Random) -> GameState:
    twin = state.copy()
    twin.rng = random.Random(rng.getrandbits(64))
    return twin


def ttr_twin(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Another seat swaps a hand card with the deck, swaps a ticket with the ticket deck; decks reversed."""
    twin = _reseeded(state, rng)
    assert isinstance(twin, TTRCardsState)
    others = [s for s in range(twin.num_seats) if s != seat]
    for other in others:
        held = sorted(k for k, n in twin.hands[other].items() if n)
        for index, card in enumerate(twin.deck):
            swap = next((k for k in held if k != card), None)
            if swap is not None:
                twin.hands[other][swap] -= 1
                twin.hands[other][card] += 1
                twin.deck[index] = swap
                break
        final_reveal = twin.phase == "over" or (twin.phase == "choose" and twin.scoring_kind == "final")
        if twin.ticket_deck and not final_reveal:
            for pile in (twin.tickets[other], twin.pending[other]):
                if pile and not twin.picks[other]:
                    pile[0], twin.ticket_deck[-1] = twin.ticket_deck[-1], pile[0]
                    if pile is twin.tickets[other]:
                        pile.sort()
                    if twin.setup_choice[other] is not None and pile is twin.pending[other]:
                        twin.setup_choice[other] = sorted(twin.pending[other][:1])
                    break
    twin.deck.reverse()
    twin.ticket_deck.reverse()
    return twin


def te_twin(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Each unrevealed other hand trades one city for an unseen one of the same colour."""
    twin = _reseeded(state, rng)
    assert isinstance(twin, TransEuropaState)
    in_hands = {c for hand in twin.hands for c in hand}
    for other in range(twin.num_seats):
        if other == seat or other in twin.completed:
            continue
        for slot, colour in enumerate(te_board.COLOUR_KEYS):
            for city in sorted(twin.piles[colour]):
                if city in in_hands:
                    continue
                old = twin.hands[other][slot]
                twin.hands[other][slot] = city
                twin._cache = {}
                if twin.is_complete(other):
                    twin.hands[other][slot] = old
                    twin._cache = {}
                    continue
                in_hands.add(city)
                break
            else:
                continue
            break
    return twin


TWINS: dict[str, Twin] = {"ttr_cards": ttr_twin, "trans_europa": te_twin}

# (players, seed, greedy moves played before the position): early, middle and late positions.
POSITIONS: dict[str, list[tuple[int, int, int]]] = {
    "ttr_cards": [(2, 11, 0), (3, 12, 40), (4, 15, 130)],
    "trans_europa": [(2, 21, 1), (3, 22, 30), (4, 200, 60)],
}


def _position(key: str, players: int, seed: int, moves: int) -> GameState:
    definition = registry.get(key)
    state = definition.new_game(players, {}, seed)
    play_out(state, {s: definition.ai("normal") for s in range(players)}, max_moves=moves)
    assert not state.is_over()
    return state


CASES = [(key, *position) for key in TWINS for position in POSITIONS[key]]


@pytest.mark.parametrize(("key", "players", "seed", "moves"), CASES)
def test_twin_positions_give_the_same_choice(key: str, players: int, seed: int, moves: int) -> None:
    definition = registry.get(key)
    state = _position(key, players, seed, moves)
    seat = min(state.to_act())
    twin = TWINS[key](state, seat, random.Random(seed))
    assert twin.view(seat) == state.view(seat), "a twin must look the same from the seat"
    assert twin.to_json() != state.to_json(), "a twin must differ in a secret"
    greedy = definition.ai("normal")
    assert ai_move(twin, seat, greedy) == ai_move(state, seat, greedy)
    # The search at a small budget (the test stays fast); the code path is the hard level's.
    hard = definition.ai("hard")
    assert isinstance(hard, SearchAI)
    small = SearchAI(
        type(greedy),
        replace(hard.budget, rollouts=8, candidates=3),
        hard.evaluate,
        hard.score_scale,
        hard.switch_margin,
        stop=hard.stop,
        switch_z=hard.switch_z,
    )
    assert ai_move(twin, seat, small) == ai_move(state, seat, small)


@pytest.mark.parametrize(("key", "players", "seed", "moves"), CASES)
def test_determinize_keeps_the_view_and_ignores_secrets(key: str, players: int, seed: int, moves: int) -> None:
    state = _position(key, players, seed, moves)
    for seat in range(players):
        world = state.determinize(seat, random.Random(7))
        assert world.view(seat) == state.view(seat)
        assert world.to_json() != state.to_json()  # at least the RNG is new
        twin = TWINS[key](state, seat, random.Random(seed + seat))
        # Same rng, same knowledge: the same world, whatever the secrets were.
        assert twin.determinize(seat, random.Random(7)).to_json() == world.to_json()
        world.legal_moves(min(world.to_act()))  # a playable state


def test_hard_level_at_full_budget_ignores_secrets() -> None:
    state = _position("ttr_cards", 2, 31, 60)
    seat = min(state.to_act())
    hard = registry.get("ttr_cards").ai("hard")
    twin = ttr_twin(state, seat, random.Random(1))
    assert ai_move(twin, seat, hard) == ai_move(state, seat, hard)
