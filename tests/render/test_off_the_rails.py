"""Off the Rails images: valid PNGs in every phase of played games, size limits, paths, private vs public."""

from __future__ import annotations

from functools import partial

from PIL import ImageChops

import render
from render import kit
from render import off_the_rails as otr_render
from rules.engine import RandomAI, ai_move
from rules.off_the_rails import DEFINITION
from rules.off_the_rails.ai import GreedyAI
from rules.off_the_rails.state import OffTheRailsState
from tests.render.png import decode_png
from tests.rules.test_off_the_rails_examples import blank, lay, place_cart

NAMES = ["Ann", "Bob", "Cid", "Dee"]
_decode = partial(decode_png, size=(otr_render.WIDTH, otr_render.HEIGHT))


def test_every_phase_of_played_games_renders() -> None:
    seen: set[str] = set()
    for seed, n in ((3, 4), (5, 2), (8, 3)):
        state = DEFINITION.new_game(n, {}, seed)
        players = {s: GreedyAI() if s % 2 == 0 else RandomAI() for s in range(n)}
        while not state.is_over():
            if state.phase not in seen:
                seen.add(state.phase)
                _decode(otr_render.board(state.view(None), NAMES[:n]))
                seat = min(state.to_act())
                _decode(otr_render.hand(state.view(seat), NAMES[:n]))
            seat = min(state.to_act())
            state.apply(seat, ai_move(state, seat, players[seat]))
        _decode(render.board_png(state.view(None), NAMES[:n]))
    assert {"action", "go", "rift"} <= seen


def _e7(split: str) -> OffTheRailsState:
    """Spec E7: Red hits Blue's loaded cart from behind; Blue has split, Red must pick."""
    state = blank(face_up=("jewel-heist", "head-to-head", "spice-of-life"))
    for sq in ("d3", "e3", "f3", "g3"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "d3", "w", "e", 4)
    place_cart(state, 1, "white", "f3", "w", "e", 2, "ruby", "ruby", "gold")
    state.apply(0, "end")
    state.apply(1, split)
    return state


def test_split_hands_only_in_the_owners_image() -> None:
    one, other = _e7("split ruby gold"), _e7("split ruby ruby")
    # the public board and the picker's private image do not show which gems are in which hand
    assert otr_render.board(one.view(None), NAMES[:2]) == otr_render.board(other.view(None), NAMES[:2])
    assert otr_render.hand(one.view(0), NAMES[:2]) == otr_render.hand(other.view(0), NAMES[:2])
    # the owner's image does
    assert otr_render.hand(one.view(1), NAMES[:2]) != otr_render.hand(other.view(1), NAMES[:2])
    # and the public image is the same as the one drawn from a seat's view
    assert otr_render.board(one.view(0), NAMES[:2]) == otr_render.board(one.view(None), NAMES[:2])


def test_last_run_path_is_drawn_in_highlight() -> None:
    state = blank()
    for sq in ("b8", "c8", "d8"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "b8", "w", "e", 4)
    before = _decode(otr_render.board(state.view(None), NAMES[:2]))
    state.apply(0, "end")  # c8, d8, then derails at e8
    after = _decode(otr_render.board(state.view(None), NAMES[:2]))
    x0, y0 = otr_render._origin("c8")
    centre = (x0 + otr_render.CELL // 2, y0 + otr_render.CELL // 2)
    assert after.getpixel(centre) == kit.HIGHLIGHT
    assert before.getpixel(centre) != kit.HIGHLIGHT
    assert ImageChops.difference(before, after).getbbox() is not None
