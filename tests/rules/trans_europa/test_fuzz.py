"""Trans Europa: seeded AI games (random and greedy, 2-6 seats, all options) checking invariants,
plus E15 (determinism and persistence)."""

from __future__ import annotations

import json
import os
import re

import pytest

from rules.engine import RandomAI, ai_move, ai_rng, replay
from rules.trans_europa import DEFINITION, board
from rules.trans_europa.ai import GreedyAI
from rules.trans_europa.state import TransEuropaState

GAMES = int(os.environ.get("JUNCTION_FUZZ_GAMES", "1000"))
FULL_CHECK_EVERY = int(os.environ.get("JUNCTION_TE_CHECK_EVERY", "40"))
PUBLIC_KEYS = {
    "game",
    "seat",
    "num_seats",
    "to_act",
    "over",
    "moves_applied",
    "round",
    "start_seat",
    "phase",
    "active_seat",
    "step",
    "markers",
    "tracks",
    "last_tracks",
    "black_left",
    "coloured_left",
    "coloured_count",
    "networks",
    "completed",
    "scores",
    "history",
    "last_round",
    "options",
    "result",
}
CITY_ENTRY = re.compile(r'"id": "([a-z-]+)"')
RANDOM, GREEDY = RandomAI(), GreedyAI()


def game_options(i: int) -> dict:
    return {
        "vexation": i % 3 != 0,
        "vexation_refill": "round" if i % 4 == 1 else "game",
        "show_tracks_needed": i % 5 != 2,
        "first_player": "seat0" if i % 7 == 3 else "random",
        # Short games for speed; every 25th game keeps the full 13 points for several rounds.
        "start_score": 13 if i % 25 == 7 else 5,
    }


def check_cheap(state: TransEuropaState) -> None:
    """Conservation and structure, after every move."""
    n = state.num_seats
    assert state.black_left + sum(1 for o in state.tracks.values() if o is None) == 83
    assert 0 <= state.black_left <= 83
    for seat in range(n):
        on_board = sum(1 for o in state.tracks.values() if o == seat)
        if not state.vexation:
            assert on_board == 0 and state.coloured_left[seat] == 0
        elif state.options["vexation_refill"] == "round":
            assert state.coloured_left[seat] + on_board == 3
        else:
            # At game end the last round's tracks are both on the board and in the history.
            finished = state.history[:-1] if state.phase == "game_over" else state.history
            used = sum(1 for h in finished for t in h["tracks"] if t["owner"] == seat)
            assert state.coloured_left[seat] + on_board + used == 3
    counts = state.coloured_count()
    assert all(c <= 2 for c in counts.values())
    dealt = [c for hand in state.hands for c in hand]
    assert len(dealt) == len(set(dealt)) == 5 * n
    for hand in state.hands:
        assert [board.CITY_BY_ID[c].colour for c in hand] == list(board.COLOUR_KEYS)
        assert all(c in state.piles[board.CITY_BY_ID[c].colour] for c in hand)
    markers = [m for m in state.markers if m is not None]
    assert len(markers) == len(set(markers))
    if state.phase == "building":
        assert None not in state.markers
    assert len(state.to_act()) == (0 if state.phase == "game_over" else 1)
    assert len(state.history) == state.round - (0 if state.phase == "game_over" else 1)


def check_full(state: TransEuropaState, viewers: list[int | None] | None = None) -> None:
    """JSON round trip, views (of `viewers`, default all) hide unrevealed hands, legal moves parse back."""
    data = state.to_json()
    text = json.dumps(data)
    assert json.loads(text) == data
    again = TransEuropaState.from_json(json.loads(text))
    assert again == state and json.dumps(again.to_json()) == text
    n = state.num_seats
    revealed = set(state.completed) if state.phase != "game_over" else set(range(n))
    for viewer in [None, *range(n)] if viewers is None else viewers:
        view = state.view(viewer)
        keys = set(view)
        expected = set(PUBLIC_KEYS)
        if viewer is not None:
            expected.add("hand")
            if state.options["show_tracks_needed"]:
                expected.add("tracks_needed")
            assert [h["id"] for h in view["hand"]] == state.hands[viewer]
        assert keys == expected
        dumped = json.dumps(view)
        assert json.loads(dumped) == view
        if viewer is None or not state.options["show_tracks_needed"]:
            assert '"tracks_needed"' not in dumped
        if viewer is None:
            assert '"hand"' not in dumped and '"connected"' not in dumped
        # City cards appear only as {"id": ...} entries: in the current view part, only revealed
        # hands and the viewer's own; the history holds finished rounds only (all revealed then).
        current = {k: v for k, v in view.items() if k not in ("history", "last_round", "result")}
        shown = set(CITY_ENTRY.findall(json.dumps(current)))
        allowed = {c for s in revealed for c in state.hands[s]}
        if viewer is not None:
            allowed |= set(state.hands[viewer])
        assert shown <= allowed
        assert {e["seat"] for e in view["completed"]} == (
            set(state.completed) if state.phase != "game_over" else set(state.completed)
        )
    for seat in state.to_act():
        legal = state.legal_moves(seat)
        texts = [str(m) for m in legal]
        assert texts == sorted(set(texts))
        for m in legal:
            assert str(state.parse_move(str(m))) == str(m)


def play(i: int, full_every: int) -> tuple[TransEuropaState, list[tuple[int, str]]]:
    n = 2 + i % 5
    options = game_options(i)
    state = DEFINITION.new_game(n, options, 1000 + i)
    assert isinstance(state, TransEuropaState)
    greedy = {(i // 5) % n} if i % 8 == 0 else set()
    log: list[tuple[int, str]] = []
    check_cheap(state)
    check_full(state)
    rounds_seen = state.round
    while not state.is_over():
        (seat,) = state.to_act()
        if seat in greedy:
            move = ai_move(state, seat, GREEDY)
        else:  # the random player ignores its view, so skip building it
            move = RANDOM.choose({}, state.legal_moves(seat), ai_rng(state.seed, seat, state.moves_applied))
        events = state.apply(seat, move)
        log.append((seat, str(move)))
        for event in events:
            assert event.seats is None or len(event.seats) == 1
        check_cheap(state)
        if state.round != rounds_seen or state.is_over():
            check_round_end(state.history[-1])
            rounds_seen = state.round
            # All views at game end (penalties cached from the scoring); after a new deal, the
            # public view and one seat's, as below.
            check_full(state, None if state.is_over() or full_every == 1 else [None, len(log) % n])
        elif len(log) % full_every == 0:
            # Every seat's view costs an exact penalty: check the public view and one seat in turn.
            check_full(state, None if full_every == 1 else [None, (len(log) // full_every) % n])
        assert len(log) < 5000
    return state, log


def check_round_end(entry: dict) -> None:
    """Completed seats need 0 tracks, the others at least 1: recomputed from the stored round."""
    n = len(entry["hands"])
    tracks = [
        (board.edge_between(board.junction_of(t["a"]), board.junction_of(t["b"])), t["owner"])
        for t in entry["tracks"]
    ]
    for seat in range(n):
        zero = frozenset(e for e, o in tracks if o in (None, seat))
        blocked = frozenset(e for e, o in tracks if o is not None and o != seat)
        terms = {board.junction_of(entry["markers"][str(seat)])}
        terms |= {board.JUNCTION_INDEX[c["junction"]] for c in entry["hands"][str(seat)]}
        # The engine's solver (its exactness is tested in test_trans_europa_board); rebuilt from the
        # stored round, this checks that completion, penalties and the stored board agree.
        need = board.steiner_tree(tuple(sorted(terms)), zero, blocked)[0]
        assert need < board.INF
        if seat in entry["completed"]:
            assert need == 0 and entry["penalties"][str(seat)] == 0
        else:
            assert need >= 1 and entry["penalties"][str(seat)] == need
        before, after = entry["scores_before"][str(seat)], entry["scores_after"][str(seat)]
        assert after == before - entry["penalties"][str(seat)]


def check_end(state: TransEuropaState, log: list[tuple[int, str]]) -> None:
    assert state.is_over() and min(state.scores) <= 0
    result = state.result()
    assert result is not None
    for r in result.seats:
        assert sum(r.breakdown.values()) == r.score == state.scores[r.seat]
        assert r.rank == 1 + sum(1 for s in state.scores if s > r.score)
    again = replay(DEFINITION, state.num_seats, state.options, state.seed, log)
    assert again == state


def test_fuzz_games() -> None:
    """GAMES seeded games; the expensive checks every FULL_CHECK_EVERY moves and at round ends."""
    for i in range(GAMES):
        state, log = play(i, FULL_CHECK_EVERY if i >= 5 else 1)
        check_end(state, log)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_e15_determinism_and_full_random_game(players: int) -> None:
    vexation = players % 2 == 0
    options = {"vexation": vexation}
    state = DEFINITION.new_game(players, options, 77)
    log = []
    while not state.is_over():
        (seat,) = state.to_act()
        move = RANDOM.choose({}, state.legal_moves(seat), ai_rng(state.seed, seat, state.moves_applied))
        state.apply(seat, move)
        log.append((seat, str(move)))
    assert min(state.scores) <= 0
    for entry in state.history:
        check_round_end(entry)
    again = replay(DEFINITION, players, options, 77, log)
    assert again == state and again.to_json() == state.to_json()
    copy = TransEuropaState.from_json(json.loads(json.dumps(state.to_json())))
    assert copy == state and copy.rng.getstate() == state.rng.getstate()
    assert copy.history == state.history and copy.coloured_left == state.coloured_left
    # The same seed and moves from a mid-game snapshot continue identically.
    half = replay(DEFINITION, players, options, 77, log[: len(log) // 2])
    resumed = TransEuropaState.from_json(json.loads(json.dumps(half.to_json())))
    for seat, text in log[len(log) // 2 :]:
        resumed.apply(seat, text)
    assert resumed == state
