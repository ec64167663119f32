"""Santa Fe: seeded AI games over every player count and option, checking the invariants of game.md."""

from __future__ import annotations

import json
import os
import random
from collections import Counter

import pytest

from rules.engine import Move, RandomAI, ai_move, replay
from rules.santa_fe import DEFINITION
from rules.santa_fe.ai import GreedyAI
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.state import SantaFeState

GAMES = int(os.environ.get("JUNCTION_FUZZ_GAMES", "1000"))
OPTION_SETS = [
    {},
    {"advanced": True},
    {"tile_buying": True},
    {"advanced": True, "tile_buying": True},
]
ALL_CARDS = Counter(BOARD.city_cards)


def check_components(state: SantaFeState, full: bool = True) -> None:
    """Every tile, card, engineer and dollar is accounted for (full: also card identities, the board)."""
    laid = dict.fromkeys(RAILROADS, 0)
    for lanes in state.lanes.values():
        for lane in lanes:
            if lane is not None:
                laid[lane[0]] += lane[3]
    for rr in RAILROADS:
        held = sum(b[rr] for b in state.bought)
        assert state.supply[rr] + laid[rr] + held == BOARD.railroads[rr].tiles, rr
        assert state.supply[rr] >= 0
    cards = len(state.deck) + sum(
        len(state.cities[s]) + len(state.played[s]) + len(state.discarded[s]) for s in range(state.num_seats)
    )
    assert cards == len(BOARD.city_cards)
    assert sum(state.dt) + state.dt_pile + state.dt_in_play + state.dt_box == BOARD.dt_in_box
    in_play = sum(1 for s in range(state.num_seats) if state.round_branch[s] and not state.branch_used[s])
    held = sum(1 for b in state.branch if b)
    assert sum(state.branch_piles.values()) + held + in_play + state.branch_removed == 10
    if state.advanced:
        assert state.engineers_left + sum(state.engineer) == BOARD.engineers
    else:
        assert state.engineers_left == 0 and not any(state.engineer)
    start = 5 if state.advanced else 2
    for seat in range(state.num_seats):
        assert state.money[seat] >= 0
        assert state.money[seat] == start + sum(state.ledger[seat].values())
        assert state.hand_size(seat) <= 5
    if not full:
        return
    cards = Counter(state.deck)
    for seat in range(state.num_seats):
        cards.update(state.cities[seat])
        cards.update(state.played[seat])
        cards.update(state.discarded[seat])
    assert cards == ALL_CARDS
    # Connected cities are exactly the start city plus the far ends of complete lanes.
    for rr in RAILROADS:
        ends = {BOARD.railroads[rr].start_city}
        for sid, lanes in state.lanes.items():
            for lane in lanes:
                if lane is not None and lane[0] == rr and lane[3] == BOARD.sections[sid].spaces:
                    ends.add(BOARD.sections[sid].other(lane[2]))
        assert ends == set(state.connected[rr])
        assert len(state.lines[rr]) <= 3
    for lanes in state.lanes.values():
        owners = [lane[0] for lane in lanes if lane is not None]
        assert len(owners) == len(set(owners))  # a railroad holds at most one lane of a section


def disguised(state: SantaFeState, seat: int, rng: random.Random) -> SantaFeState:
    """The same game with `seat`'s secrets (hand, pending choice, exchanges, deck order) changed."""
    other = state.copy()
    assert isinstance(other, SantaFeState)
    pool = other.cities[seat] + other.deck
    rng.shuffle(pool)
    size = len(other.cities[seat])
    other.cities[seat] = sorted(pool[:size])
    other.deck = pool[size:]
    if other.choice[seat] is not None:
        plays = other.plays(seat)
        other.choice[seat] = str(rng.choice(plays)) if plays else None
    if other.engineer_choice[seat] is not None and other.phase == "engineer":
        other.engineer_choice[seat] = not other.engineer_choice[seat]
    other.exchange_history[seat] = [{"round": 0, "out": ["reno"], "in": ["yuma"]}]
    other.discarded[seat] = sorted(rng.choice(BOARD.city_cards) for _ in other.discarded[seat])
    return other


def check_secrets(state: SantaFeState, rng: random.Random, seats: list[int] | None = None) -> None:
    """No view but a seat's own changes when that seat's secrets change."""
    for seat in range(state.num_seats) if seats is None else seats:
        other = disguised(state, seat, rng)
        for viewer in [None, *range(state.num_seats)]:
            if viewer == seat:
                continue
            assert state.view(viewer) == other.view(viewer), (seat, viewer)
    public = json.dumps(state.view(None))
    assert '"hand"' not in public and "pending" not in public


def check_round_trip(state: SantaFeState) -> None:
    data = state.to_json()
    again = SantaFeState.from_json(json.loads(json.dumps(data)))
    assert again == state and again.to_json() == data
    assert again.legal_moves(0) == state.legal_moves(0)


def check_notation(state: SantaFeState, legal: list[Move]) -> None:
    assert legal == sorted(set(legal))
    for move in legal:
        assert state.parse_move(str(move)) == move


def play_game(index: int, every: int) -> None:
    n = 2 + index % 4
    options = OPTION_SETS[(index // 4) % 4]
    seed = 1000 + index
    state = DEFINITION.new_game(n, options, seed)
    assert isinstance(state, SantaFeState)
    # Every other game has one greedy seat (rotating); the rest play at random.
    players = {s: (GreedyAI() if index % 2 == 0 and s == (index // 2) % n else RandomAI()) for s in range(n)}
    rng = random.Random(index)
    log: list[tuple[int, str]] = []
    check_components(state)
    for step in range(3000):
        waiting = sorted(state.to_act())
        if not waiting:
            break
        seat = rng.choice(waiting)  # simultaneous steps: any arrival order
        move = ai_move(state, seat, players[seat])  # raises if the seat has no legal move
        state.apply(seat, move)
        log.append((seat, str(move)))
        check_components(state, full=step % every == 0)
        if step % every == 0:
            check_notation(state, state.legal_moves(min(state.to_act(), default=0)))
            check_round_trip(state)
            # The big run disguises one seat per check; the every-move run disguises them all.
            check_secrets(state, rng, None if every == 1 else [rng.randrange(n)])
    assert state.is_over(), "game did not end"
    result = state.result()
    assert result is not None
    for line in result.seats:
        assert sum(line.breakdown.values()) == line.score
    assert sorted(line.seat for line in result.seats) == list(range(n))
    assert replay(DEFINITION, n, options, seed, log) == state


@pytest.mark.slow
def test_many_seeded_games() -> None:
    for index in range(GAMES):
        play_game(index, every=29)


def test_full_checks_every_move() -> None:
    # Five games covering 2..5 seats and every option set (see play_game's index mapping).
    for index in (3, 6, 9, 12, 15):
        play_game(50_000 + index, every=1)
