"""Seeded AI games of ttr_cards over every player count and option, checking the invariants throughout.

JUNCTION_FUZZ_GAMES sets the number of games of the big run (default 1,000, the required count).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from rules.engine import RandomAI, play_out, replay
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.ai import GreedyAI
from rules.ttr_cards.cards import COLOURS, KINDS, TICKET_IDS
from rules.ttr_cards.state import TTRCardsState
from tests.rules.ttr_cards.helpers import check_invariants, check_views

GAMES = int(os.environ.get("JUNCTION_FUZZ_GAMES", "1000"))
FULL_CHECK_GAMES = min(GAMES, 30)


def table(game: int) -> tuple[int, dict, dict]:
    """Player count, options and players of seeded game number `game` (covers every combination)."""
    n = 2 + game % 3
    options = {
        "open_track_stack": bool((game // 3) % 2),
        "completion": ("auto", "choose")[(game // 6) % 2],
    }
    mix = (game // 12) % 4
    players = {}
    for seat in range(n):
        if mix == 0:
            players[seat] = RandomAI()
        elif mix == 1:
            players[seat] = GreedyAI()
        else:
            players[seat] = GreedyAI() if (seat + game) % 2 else RandomAI()
    return n, options, players


def check_round_trip(state: TTRCardsState) -> None:
    data = json.loads(json.dumps(state.to_json()))
    again = TTRCardsState.from_json(data)
    assert again == state
    assert again.rng.random() == state.copy().rng.random()


def check_notation(state: TTRCardsState) -> None:
    for seat in state.to_act():
        moves = state.legal_moves(seat)
        texts = [str(m) for m in moves]
        assert texts == sorted(texts) and len(set(texts)) == len(texts)
        for move in moves:
            assert str(state.parse_move(str(move))) == str(move)


def check_secrets_do_not_show(state: TTRCardsState, rng: random.Random) -> None:
    """Change one seat's secrets (hand, tickets, pending, face-down track, deck orders): the public
    view and every other seat's view must not change."""
    seat = rng.randrange(state.num_seats)
    before = {viewer: state.view(viewer) for viewer in [None, *range(state.num_seats)] if viewer != seat}
    other = state.copy()
    other.rng.random()
    other.rng.shuffle(other.deck)
    other.rng.shuffle(other.ticket_deck)
    hand_size = sum(other.hands[seat].values())
    other.hands[seat] = dict.fromkeys(KINDS, 0)
    for _ in range(hand_size):
        other.hands[seat][rng.choice(KINDS)] += 1
    final_reveal = state.phase == "over" or (state.phase == "choose" and state.scoring_kind == "final")
    if not final_reveal:
        other.tickets[seat] = rng.sample(TICKET_IDS, len(other.tickets[seat]))
    other.pending[seat] = rng.sample(TICKET_IDS, len(other.pending[seat]))
    if state.setup_choice[seat] is not None and state.phase == "keep_setup":
        other.setup_choice[seat] = other.pending[seat][: rng.randint(1, len(other.pending[seat]))]
    if not (state.options["open_track_stack"] or state.phase in ("choose", "over")):
        size = sum(other.tracks[seat].values())
        other.tracks[seat] = dict.fromkeys(KINDS, 0)
        for _ in range(size):
            other.tracks[seat][rng.choice(COLOURS)] += 1
    if state.phase == "choose":
        other.picks[seat] = []
    for viewer, view in before.items():
        assert other.view(viewer) == view, f"seat {seat}'s secret shows in the view of {viewer}"


def play_checked(game: int, full: bool) -> TTRCardsState:
    n, options, players = table(game)
    seed = 50_000 + game
    state = DEFINITION.new_game(n, options, seed)
    check_rng = random.Random(seed)
    moves = [0]

    def on_move(seat, move, events) -> None:
        moves[0] += 1
        check_invariants(state)
        for event in events:
            assert event.seats is None or len(event.seats) == 1
        if full or moves[0] % 12 == 0:
            check_round_trip(state)
            check_views(state)
            check_notation(state)
            check_secrets_do_not_show(state, check_rng)

    check_invariants(state)
    # A loose bound on the game's length (spec section 9), in moves (a turn is at most 2).
    log = play_out(state, players, max_moves=2 * (4 * n * (96 + 48 + 46 + 1) + n) * 2 + 40, on_move=on_move)
    assert state.is_over(), "the game did not end"
    result = state.result()
    assert result is not None
    for line in result.seats:
        assert sum(line.breakdown.values()) == line.score
        assert set(line.breakdown) == {"tickets_deck1", "tickets_final", "tickets_failed", "big_cities"}
        assert line.breakdown["tickets_failed"] <= 0
    ranks = sorted(s.rank for s in result.seats)
    assert ranks[0] == 1
    assert replay(DEFINITION, n, options, seed, log) == state
    return state


def test_fuzz_full_checks_every_move() -> None:
    for game in range(FULL_CHECK_GAMES):
        play_checked(game, full=True)


@pytest.mark.slow
def test_fuzz_many_games() -> None:
    seen = set()
    deck_two = 0
    for game in range(GAMES):
        state = play_checked(game, full=False)
        n, options, _ = table(game)
        seen.add((n, options["open_track_stack"], options["completion"]))
        deck_two += state.deck_number == 2
    if GAMES >= 24:
        assert len(seen) == 12
        assert deck_two > 0
