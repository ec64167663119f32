"""Off the Rails images: valid PNGs in every phase of played games, size limits, paths, private vs public,
and what a player reads on a square: a cart's load apart from the loose gems, counts, track, scores."""

from __future__ import annotations

from PIL import Image, ImageChops

import render
from render import kit
from render import off_the_rails as otr_render
from rules.engine import RandomAI, ai_move
from rules.off_the_rails import DEFINITION
from rules.off_the_rails.ai import GreedyAI
from rules.off_the_rails.state import OffTheRailsState
from tests.render.layout_check import findings
from tests.render.png import decode_png
from tests.rules.off_the_rails.test_examples import blank, lay, place_cart

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def _decode(data: bytes) -> Image.Image:
    image = decode_png(data)
    assert image.width == otr_render.WIDTH  # phone first: a portrait page of the kit's width
    return image


def _drawn(view: dict, names: list[str]) -> tuple[list[kit.TextBox], float]:
    """What the public image draws, and the y of the board's top edge on the page (from its "a" label)."""
    with kit.recording() as boxes:
        otr_render.board(view, names)
    column_a = next(b for b in boxes if b.text == "a" and b.kind == "map")
    return boxes, (column_a.box[1] + column_a.box[3]) / 2 - otr_render.MARGIN / 2


def _in_square(box: kit.Box, square: str, top: float) -> bool:
    x0, y0 = otr_render._origin(square)
    return x0 <= box[0] and box[2] <= x0 + otr_render.CELL and y0 + top <= box[1] and box[3] <= y0 + top + otr_render.CELL


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
    _, top = _drawn(state.view(None), NAMES[:2])
    x0, y0 = otr_render._origin("c8")
    centre = (x0 + otr_render.CELL // 2, round(top) + y0 + otr_render.CELL // 2)
    assert after.getpixel(centre) == kit.HIGHLIGHT
    assert before.getpixel(centre) != kit.HIGHLIGHT
    assert ImageChops.difference(before, after).getbbox() is not None


def _loaded_cart_on_gems() -> OffTheRailsState:
    """Red's white cart on d3 carrying ruby, ruby, gold, over loose gems of every kind but diamond."""
    state = blank()
    for sq in ("c3", "d3", "e3"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "d3", "w", "e", 3, "ruby", "ruby", "gold")
    state.gems["d3"] = {"rock": 2, "ruby": 1, "emerald": 3, "gold": 1}
    state.gems["k5"] = {"rock": 2, "ruby": 1, "emerald": 3, "gold": 1, "diamond": 2}
    return state


def test_a_carts_load_and_the_loose_gems_under_it_read_apart() -> None:
    boxes, top = _drawn(_loaded_cart_on_gems().view(None), NAMES[:2])
    here = [b for b in boxes if _in_square(b.box, "d3", top)]
    token = next(b for b in here if b.text == kit.seat_symbol(0) and b.box[2] - b.box[0] >= otr_render.TOKEN)
    gems = [b for b in here if b.kind == "symbol" and b is not token]
    load = [b for b in gems if b.box[2] - b.box[0] == otr_render.TRAY_GEM]
    loose = [b for b in gems if b not in load]
    # the load: one icon per gem carried (ruby, ruby, gold) in a row; the loose gems: one per kind
    assert sorted(b.text for b in load) == ["diamond", "diamond", "star"]
    assert sorted(b.text for b in loose) == ["circle", "diamond", "hexagon", "star"]
    assert len({round(b.box[1]) for b in load}) == 1
    # the loose counts show, and nothing sits under the cart's token
    assert {b.text for b in here if b.kind == "map"} >= {"2", "3"}
    for b in gems + [b for b in here if b.kind == "map"]:
        assert min(b.box[2], token.box[2]) <= max(b.box[0], token.box[0]) or \
            min(b.box[3], token.box[3]) <= max(b.box[1], token.box[1]), b


def test_five_kinds_of_gems_stay_inside_their_square() -> None:
    boxes, top = _drawn(_loaded_cart_on_gems().view(None), NAMES[:2])
    x0, y0 = otr_render._origin("k5")
    near = [b for b in boxes if x0 - otr_render.CELL < b.box[0] < x0 + 2 * otr_render.CELL
            and y0 + top - otr_render.CELL < b.box[1] < y0 + top + 2 * otr_render.CELL and b.kind == "symbol"]
    assert sorted(b.text for b in near) == ["circle", "diamond", "hexagon", "star", "triangle"]
    assert all(_in_square(b.box, "k5", top) for b in near)
    # with their counts (rock 2, emerald 3, diamond 2) in the square too
    counts = [b.text for b in boxes if b.kind == "map" and _in_square(b.box, "k5", top)]
    assert sorted(counts) == ["2", "2", "3", "3"]  # one "3": the mine square's printed number


def test_the_track_under_a_cart_stays_visible() -> None:
    state = _loaded_cart_on_gems()
    image = _decode(otr_render.board(state.view(None), NAMES[:2]))
    _, top = _drawn(state.view(None), NAMES[:2])
    x0, y0 = otr_render._origin("d3")
    # the ew track between the token and the east edge (the front arrow is at the edge itself)
    x = x0 + otr_render.CELL // 2 + otr_render.TOKEN // 2 + 9
    pixel = image.getpixel((x, round(top) + y0 + otr_render.CELL // 2))
    assert all(abs(a - b) <= 8 for a, b in zip(pixel, otr_render.TRACK, strict=True))  # 256-colour palette


def test_the_score_says_where_the_ruby_majority_and_dirty_goblins_points_come_from() -> None:
    state = blank(face_up=("dirty-goblins", "diamonds", "red-leader"))
    state.stockpiles[0].update(ruby=3, rock=1)
    state.stockpiles[1].update(ruby=1, rock=2)
    view = state.view(None)
    boxes, _ = _drawn(view, NAMES[:2])
    said = " ".join(b.text for b in boxes if b.kind == "panel")
    assert view["players"][0]["breakdown"]["ruby_majority"] == 5
    assert "most rubies +5" in said and "Dirty Goblins (most rocks) +4" in said
    assert "Most rubies: +5 to each player with the most" in said


def test_the_turn_card_shows_each_player_in_their_clan_colour() -> None:
    state = _loaded_cart_on_gems()
    view = state.view(None)
    image = _decode(otr_render.board(view, NAMES[:2]))
    boxes, top = _drawn(view, NAMES[:2])
    for seat, clan in enumerate(view["colours"]):
        token = next(b for b in boxes if b.kind == "symbol" and b.text == kit.seat_symbol(seat) and b.box[3] < top)
        # a little left of the token's centre: its fill, beside the clan letter
        x, y = (token.box[0] + token.box[2]) / 2 - (token.box[2] - token.box[0]) * 0.3, (token.box[1] + token.box[3]) / 2
        pixel = image.getpixel((round(x), round(y)))
        assert all(abs(a - b) <= 12 for a, b in zip(pixel, otr_render.CLAN[clan], strict=True)), (seat, clan)


def test_five_kinds_of_loose_gems_under_a_cart_stay_in_its_square_apart() -> None:
    # on a straight track with the front east: the bands beside the token are track or front, so the
    # gems once went in a row along the bottom (past the square) or a column too dense to read
    for load in ((), ("ruby", "gold")):
        state = blank()
        for sq in ("c3", "d3", "e3"):
            lay(state, sq, "ew")
        place_cart(state, 0, "white", "d3", "w", "e", 3, *load)
        state.gems["d3"] = {"rock": 2, "ruby": 2, "emerald": 3, "gold": 2, "diamond": 2}
        with kit.recording() as boxes:
            data = otr_render.board(state.view(None), NAMES[:2])
        _, top = _drawn(state.view(None), NAMES[:2])
        x0, y0 = otr_render._origin("d3")
        near = [b for b in boxes if b.kind in ("symbol", "map") and x0 - 40 < b.box[0] < x0 + 120
                and y0 + top - 10 < b.box[1] < y0 + top + otr_render.CELL - 5]
        assert sorted(b.text for b in near if b.kind == "map") == ["2", "2", "2", "2", "3", "3"], load  # and the speed
        assert all(_in_square(b.box, "d3", top) for b in near), load
        assert findings(boxes, decode_png(data).size) == [], load
