"""Ticket to Ride: The Card Game images: valid PNGs of every phase, size limit, no secret of another seat."""

from __future__ import annotations

import io

from PIL import Image

from render import board_png, hand_png
from render import ttr_cards as render
from rules.engine import RandomAI, ai_move, play_out
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.ai import GreedyAI

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def check_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 500_000
    image = Image.open(io.BytesIO(data))
    image.load()
    assert 1200 <= image.width <= 1600
    return image


def play_and_render(num_seats: int, options: dict, seed: int, greedy: bool = True) -> set[str]:
    """Play a whole game, rendering the table and every seat's hand whenever the phase or step
    changes; returns the (phase, step) pairs seen."""
    state = DEFINITION.new_game(num_seats, options, seed)
    player = GreedyAI() if greedy else RandomAI()
    seen: set[str] = set()
    while True:
        key = f"{state.phase}/{state.step}/{state.deck_number}/{state.final_round is not None}"
        if key not in seen:
            seen.add(key)
            check_png(render.board(state.view(None), NAMES[:num_seats]))
            for seat in range(num_seats):
                check_png(render.hand(state.view(seat), NAMES[:num_seats]))
        if state.is_over():
            return {k.split("/")[0] + "/" + k.split("/")[1] for k in seen}
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, player))


def test_every_phase_of_a_four_player_game_renders() -> None:
    seen = play_and_render(4, {}, 3)
    assert {"keep_setup/None", "turn/action", "turn/second_draw", "turn/keep", "over/None"} <= seen


def test_choose_mode_and_open_stacks_render() -> None:
    for seed in range(6):
        seen = play_and_render(
            2 + seed % 2, {"completion": "choose", "open_track_stack": True}, seed, greedy=False
        )
        if "choose/None" in seen:
            break
    assert "choose/None" in seen


def test_dispatch_through_render_package() -> None:
    state = DEFINITION.new_game(3, {}, 1)
    check_png(board_png(state.view(None), NAMES[:3]))
    check_png(hand_png(state.view(2), NAMES[:3]))


def test_images_hold_no_secret_of_another_seat() -> None:
    """Changing seat 1's hand, tickets and face-down track stack leaves the table image and seat 0's
    hand image byte for byte the same."""
    state = DEFINITION.new_game(3, {}, 8)
    play_out(state, {s: GreedyAI() for s in range(3)}, max_moves=60)
    other = state.copy()
    size = sum(other.hands[1].values())
    other.hands[1] = dict.fromkeys(other.hands[1], 0)
    other.hands[1]["purple"] = size
    other.tickets[1] = [46] * len(other.tickets[1])
    track = sum(other.tracks[1].values())
    other.tracks[1] = dict.fromkeys(other.tracks[1], 0)
    other.tracks[1]["loco"] = track
    assert render.board(state.view(None), NAMES[:3]) == render.board(other.view(None), NAMES[:3])
    assert render.hand(state.view(0), NAMES[:3]) == render.hand(other.view(0), NAMES[:3])
    assert render.hand(state.view(1), NAMES[:3]) != render.hand(other.view(1), NAMES[:3])


def test_intermediate_scoring_interlude_and_description() -> None:
    state = DEFINITION.new_game(4, {}, 3)
    player = GreedyAI()
    previous = state.view(None)
    interludes = []
    while not state.is_over():
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, player))
        view = state.view(None)
        found = render.interludes(previous, view, NAMES)
        if found:
            interludes.append((view, found))
            assert view["deck_number"] == 2
        previous = view
        text = render.describe(view, NAMES)
        assert 10 < len(text) <= 1000 and "Ann" in text
    assert len(interludes) == 1
    check_png(interludes[0][1][0])
