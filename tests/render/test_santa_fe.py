"""Santa Fe images: valid PNGs for every phase of played games, last tile highlighted, private vs public."""

from __future__ import annotations

import json
from functools import partial

from PIL import ImageChops

import render
from render import kit
from render import santa_fe as sf_render
from rules.engine import RandomAI, ai_move
from rules.santa_fe import DEFINITION
from rules.santa_fe.ai import GreedyAI
from rules.santa_fe.board import BOARD
from rules.santa_fe.state import SantaFeState
from tests.render.png import decode_png

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
_decode = partial(decode_png, size=(1600, 1000))  # a hand: size=None


def _play(n: int, options: dict, seed: int, stop_at: int | None = None) -> tuple[SantaFeState, set[str]]:
    """Play a seeded game, rendering the board once in each phase; returns the state and phases seen."""
    state = DEFINITION.new_game(n, options, seed)
    assert isinstance(state, SantaFeState)
    players = {s: GreedyAI() if s % 2 else RandomAI() for s in range(n)}
    seen: set[str] = set()
    steps = 0
    while not state.is_over() and (stop_at is None or steps < stop_at):
        if state.phase not in seen:
            seen.add(state.phase)
            _decode(sf_render.board(state.view(None), NAMES[:n]))
            seat = min(state.to_act())
            _decode(sf_render.hand(state.view(seat), NAMES[:n]), size=None)
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, players[seat]))
        steps += 1
    return state, seen


def test_every_phase_renders_basic_and_advanced() -> None:
    _, seen = _play(3, {"advanced": True, "tile_buying": True}, seed=3)
    assert {"engineer", "choose", "lay1", "lay2", "draw", "buy"} <= seen
    state, seen = _play(4, {}, seed=4)
    assert {"choose", "lay1", "lay2", "draw"} <= seen
    assert state.is_over()
    image = _decode(render.board_png(state.view(None), NAMES[:4]))
    assert image.size == (1600, 1000)
    _decode(render.hand_png(state.view(2), NAMES[:4]), size=None)


def test_two_and_five_seats_render() -> None:
    for n in (2, 5):
        state, _ = _play(n, {}, seed=10 + n, stop_at=60)
        _decode(sf_render.board(state.view(None), NAMES[:n]))
        _decode(sf_render.hand(state.view(0), NAMES[:n]), size=None)


def _slot_centre(sid: int, lane: int, index: int) -> tuple[int, int]:
    p, q = sf_render._slots(sid, lane)[index]
    return int((p[0] + q[0]) / 2), int((p[1] + q[1]) / 2)


def test_laid_tile_shows_in_railroad_colour_and_is_highlighted() -> None:
    state = DEFINITION.new_game(3, {}, seed=1)
    before = _decode(sf_render.board(state.view(None), NAMES[:3]))
    # Play the round's choices, then the first placement: KP toward Wichita (double section 7).
    while state.phase == "choose":
        seat = min(state.to_act())
        state.apply(seat, state.legal_moves(seat)[0])
    seat = state.current()
    state.apply(seat, "lay kp 1 wichita")
    after = _decode(sf_render.board(state.view(None), NAMES[:3]))
    x, y = _slot_centre(7, 0, 0 if BOARD.sections[7].a == "kansas-city" else 1)
    kp = sf_render.RR_COLOURS["kp"]
    assert all(abs(a - b) < 40 for a, b in zip(after.getpixel((x, y)), kp, strict=True))
    assert not all(abs(a - b) < 40 for a, b in zip(before.getpixel((x, y)), kp, strict=True))
    # The magenta highlight frames the new tile.
    near = [after.getpixel((x + dx, y + dy)) for dx in range(-14, 15) for dy in range(-14, 15)]
    assert any(all(abs(a - b) < 40 for a, b in zip(px, kit.HIGHLIGHT, strict=True)) for px in near)


def test_hand_shows_own_cards_only() -> None:
    state = DEFINITION.new_game(3, {}, seed=2)
    mine = state.view(0)
    assert "hand" not in state.view(None) and "hand" in mine
    a = _decode(sf_render.hand(mine, NAMES[:3]), size=None)
    # The same seat's image with different cards in hand differs; another seat's public data is the same.
    other = state.copy()
    assert isinstance(other, SantaFeState)
    other.cities[0], other.deck[:4] = other.deck[:4], other.cities[0]
    other.cities[0] = sorted(other.cities[0])
    b = _decode(sf_render.hand(other.view(0), NAMES[:3]), size=None)
    assert ImageChops.difference(a, b).getbbox() is not None
    # The public board does not change when only a hand changes.
    assert sf_render.board(state.view(None), NAMES[:3]) == sf_render.board(other.view(None), NAMES[:3])
    assert json.dumps(state.view(None)) == json.dumps(other.view(None))


def test_pending_choice_only_in_own_image_data() -> None:
    state = DEFINITION.new_game(3, {}, seed=5)
    seat = min(state.to_act())
    move = state.legal_moves(seat)[0]
    state.apply(seat, move)
    assert state.view(seat)["pending"] == str(move)
    for viewer in [None, *[s for s in range(3) if s != seat]]:
        assert str(move) not in json.dumps(state.view(viewer))
        _decode(sf_render.board(state.view(None), NAMES[:3]))
