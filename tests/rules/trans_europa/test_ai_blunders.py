"""Trans Europa greedy AI: the blunders of issue 15 stay fixed (positions from seeded games)."""

from __future__ import annotations

from rules import registry
from rules.engine import ai_move, replay
from rules.trans_europa import board
from rules.trans_europa.moves import End, Vex
from rules.trans_europa.scoring import penalty
from rules.trans_europa.state import TransEuropaState

DEFINITION = registry.get("trans_europa")

# 4 players, seed 200: main's greedy moves before issue 15 up to decision 31, where seat 1 ended its
# turn in step 2 because its tree went on with a double line, though single lines shortened its path.
SEED_200_MOVES = (
    "0:start g23;1:start j22;2:start e7;3:start j18;0:lay warszawa g23;0:lay g23 g25;1:lay budapest j22;"
    "1:lay j22 k23;2:lay d6 e7;2:lay d6 e5;3:lay i19 j18;3:lay j16 j18;0:lay g25 h26;0:lay f20 warszawa;"
    "1:lay h22 budapest;1:lay k23 k25;2:lay plymouth e5;2:lay c7 d6;3:lay j14 j16;3:lay j14 firenze;"
    "0:lay f18 f20;0:lay berlin f18;1:lay k25 bucuresti;1:lay g23 h22;2:lay b8 c7;2:lay glasgow b8;"
    "3:lay k11 firenze;3:lay marseille k11;0:lay h26 h28;0:lay h28 h30;1:lay e15 berlin"
)


def test_step_two_lays_a_single_line_that_shortens_the_path() -> None:
    moves = [(int(seat), text) for seat, text in (entry.split(":") for entry in SEED_200_MOVES.split(";"))]
    state = replay(DEFINITION, 4, {}, 200, moves)
    assert isinstance(state, TransEuropaState) and state.active_seat == 1 and state.step == 2
    before = state.penalty(1)
    move = ai_move(state, 1, DEFINITION.ai("normal"))
    assert move != End()
    state.apply(1, move)
    assert state.penalty(1) == before - 1


def _greedy_game(seed: int) -> tuple[int, int, int]:
    """(step-2 ends while a single line would have shortened the path, coloured tracks laid in round 1,
    coloured tracks in all) of one 4-player vexation game with greedy players."""
    state = DEFINITION.new_game(4, {"vexation": True}, seed)
    assert isinstance(state, TransEuropaState)
    greedy = DEFINITION.ai("normal")
    wasted_ends = first_round = coloured = 0
    while not state.is_over():
        seat = min(state.to_act())
        move = ai_move(state, seat, greedy)
        if move == End():
            base = state.penalty(seat)
            hand, marker = state.hand_junctions(seat), state.markers[seat]
            singles = [e for e in state._candidates(seat) if board.EDGES[e].cost == 1]
            wasted_ends += any(penalty(hand, marker, {**state.tracks, e: None}, seat) < base for e in singles)
        if isinstance(move, Vex):
            coloured += 1
            first_round += state.round == 1
        state.apply(seat, move)
    return wasted_ends, first_round, coloured


def test_greedy_never_ends_early_and_keeps_coloured_tracks_for_later_rounds() -> None:
    wasted_ends, first_round, coloured = _greedy_game(1001)
    assert wasted_ends == 0
    # Main's greedy laid 95 of its 96 coloured tracks in round 1 (8 games); now they last the game.
    assert coloured > 0 and first_round <= coloured // 2
