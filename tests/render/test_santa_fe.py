"""Santa Fe images: valid PNGs for every phase of played games, last tile highlighted, private vs public,
names placed apart, the railroads at each city, Southern Pacific's tiles apart from empty spaces."""

from __future__ import annotations

import io
import json

from PIL import Image, ImageChops

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


def _decode(data: bytes, size: tuple[int, int] | None | str = "board") -> Image.Image:
    """A board is a portrait page of the kit's width; a hand (size=None) any size."""
    image = decode_png(data, size=None if size == "board" else size)
    if size == "board":
        assert image.width == sf_render.WIDTH and image.height > image.width
    return image


def _map_top(view: dict) -> float:
    """Where the map starts on the page: from the box recorded for a city's disc."""
    with kit.recording() as boxes:
        sf_render.board(view, NAMES[: view["num_seats"]])
    denver = next(b for b in boxes if b.text == "city" and abs(b.box[0] - (sf_render._disc("denver")[0] + 2)) < 0.5)
    return denver.box[1] - (sf_render._disc("denver")[1] + 2)


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
    _decode(render.board_png(state.view(None), NAMES[:4]))
    _decode(render.hand_png(state.view(2), NAMES[:4]), size=None)


def test_two_and_five_seats_render() -> None:
    for n in (2, 5):
        state, _ = _play(n, {}, seed=10 + n, stop_at=60)
        _decode(sf_render.board(state.view(None), NAMES[:n]))
        _decode(sf_render.hand(state.view(0), NAMES[:n]), size=None)


def _slot_centre(sid: int, lane: int, index: int, top: float = 0) -> tuple[int, int]:
    p, q = sf_render._slots(sid, lane)[index]
    return int((p[0] + q[0]) / 2), int((p[1] + q[1]) / 2 + top)


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
    x, y = _slot_centre(7, 0, 0 if BOARD.sections[7].a == "kansas-city" else 1, _map_top(state.view(None)))
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


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def test_city_names_overlap_no_name_city_or_row_of_railroads() -> None:
    labels = sf_render._labels()
    boxes = [box for *_, box in labels.values()]
    for i, a in enumerate(boxes):
        assert not any(sf_render._overlaps(a, b) for b in boxes[i + 1:])
        assert not any(sf_render._overlaps(a, sf_render._disc(c)) for c in BOARD.cities)
        assert not any(sf_render._overlaps(a, sf_render._chip_row(c, 3)) for c in BOARD.cities
                       if not BOARD.cities[c].start)
    # the pairs players saw collide
    for one, other in (("las-vegas", "flagstaff"), ("bakersfield", "fresno"), ("hays", "north-platte")):
        assert not sf_render._overlaps(labels[one][2], labels[other][2])


def test_city_names_keep_off_the_spaces_where_tiles_go() -> None:
    # a name is drawn with a halo over the track, so a tile laid under it hides: Tucson's name sat on
    # the Phoenix-Tucson spaces, Omaha's and Wichita's on their own first spaces. Names may still cover
    # track on this crowded map, but no more than 10 spaces' middles (18 before)
    labels = sf_render._labels()
    covered = []
    for sid, section in BOARD.sections.items():
        for lane in range(section.lanes):
            for k, (p, q) in enumerate(sf_render._slots(sid, lane)):
                mx, my = sf_render._mid(p, q)
                covered += [(city, sid, k) for city, (*_, box) in labels.items()
                            if box[0] <= mx <= box[2] and box[1] <= my <= box[3]]
    assert len(covered) <= 10, covered
    assert not {"tucson", "omaha", "kansas-city", "wichita", "milwaukee"} & {city for city, *_ in covered}


def test_each_railroad_reaching_a_city_shows_in_its_colour_under_it() -> None:
    state, _ = _play(4, {}, seed=4)
    view = state.view(None)
    image = _decode(sf_render.board(view, NAMES[:4]))
    top = _map_top(view)
    reach: dict[str, list[str]] = {}
    for rr in sf_render.RAILROADS:
        for city in view["connected"][rr]:
            reach.setdefault(city, []).append(rr)
    shared = [(c, rrs) for c, rrs in reach.items() if len(rrs) >= 2 and not BOARD.cities[c].start]
    assert shared
    for city, rrs in shared:
        row = sf_render._chip_row(city, len(rrs))
        for i, rr in enumerate(rrs):
            x0, y0 = round(row[0] + 1 + i * (sf_render.CHIP + 2)), round(row[1] + top)
            inside = [image.getpixel((x, y)) for x in range(x0 + 3, x0 + 14) for y in range(y0 + 3, y0 + 14)]
            # mostly the railroad's colour; its pattern takes the rest
            assert sum(_near(px, sf_render.RR_COLOURS[rr]) for px in inside) > len(inside) / 2, (city, rr)


def test_southern_pacific_tiles_do_not_look_like_empty_spaces() -> None:
    state = DEFINITION.new_game(3, {}, seed=1)
    while state.phase == "choose":
        seat = min(state.to_act())
        state.apply(seat, state.legal_moves(seat)[0])
    before = state.view(None)
    empty_board = _decode(sf_render.board(before, NAMES[:3]))
    seat = state.current()
    sp = next(m for m in state.legal_moves(seat) if str(m).startswith("lay sp"))
    state.apply(seat, sp)
    view = state.view(None)
    image = _decode(sf_render.board(view, NAMES[:3]))
    lane = next(lane for lane in view["lanes"] if lane["rr"] == "sp")
    laid = sf_render._space_index(lane["section"], lane["from"], 0)
    x, y = _slot_centre(lane["section"], lane["lane"], laid, _map_top(view))
    ex, ey = _slot_centre(lane["section"], lane["lane"], laid, _map_top(before))

    def white_share(picture: Image.Image, cx: int, cy: int) -> float:
        area = [picture.getpixel((cx + dx, cy + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
        return sum(_near(px, (255, 255, 255), 10) for px in area) / len(area)

    # the empty space (a shade of the map, under the railhead's arrow) had no white; the SP tile laid
    # there is white inside a dark border
    assert white_share(empty_board, ex, ey) < 0.1 and white_share(image, x, y) > 0.4
    assert any(sum(image.getpixel((x + dx, y + dy))) < 200 for dx in range(-9, 10) for dy in range(-9, 10))


def test_the_hands_played_line_wraps_instead_of_being_cut() -> None:
    state, _ = _play(3, {}, seed=3)
    view = state.view(0)
    assert len(view["seats"][0]["played"]) >= 5
    with kit.recording() as boxes:
        data = sf_render.hand(view, NAMES[:3])
    width = Image.open(io.BytesIO(data)).width
    drawn = " ".join(b.text for b in boxes)
    for card in view["seats"][0]["played"]:
        assert f"{card['name']} {card['value']}x" in drawn
    assert all(b.box[2] <= width for b in boxes)
