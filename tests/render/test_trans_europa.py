"""Trans Europa images: valid PNGs for every phase of played games, private vs public, 2..6 seats, vexation."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from render import kit
from render import trans_europa as te_render
from rules.engine import play_out
from rules.trans_europa import DEFINITION
from rules.trans_europa import board as te_board
from tests.render import te_fixtures as fx
from tests.render.layout_check import findings, recorded
from tests.render.png import decode_png

NAMES = ["Ann", "Bob", "Cid", "Dora", "Emil", "Fatima-Zahra"]


def _decode(data: bytes) -> Image.Image:
    image = decode_png(data)
    assert image.width == te_render.WIDTH == 1200 and image.height > te_render.MAP_HEIGHT  # portrait: card, map, panel
    return image


def _map(composed: tuple[Image.Image, int]) -> Image.Image:
    """The map part of a composed page, in the map's own coordinates."""
    image, top = composed
    return image.crop((0, top, te_render.WIDTH, top + te_render.MAP_HEIGHT))


def _board_map(view: dict[str, Any], names: list[str], private: bool = False) -> Image.Image:
    return _map(te_render._compose(view, names, private))


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 16) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def _differs(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether a region clearly changed: palette quantization may shift colours a few steps, never 60."""
    diff = ImageChops.difference(a.crop(box), b.crop(box)).convert("L")
    return sum(diff.point(lambda v: 255 if v > 60 else 0).histogram()[255:]) > 20


def _xy(token: str) -> tuple[float, float]:
    j = te_board.JUNCTIONS[te_board.junction_of(token)]
    return j.px, j.py


# --------------------------------------------------------------------------- hand-made views (section 12 fields)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("vexation", [False, True])
def test_fixture_views_render_for_every_seat_count(seats: int, vexation: bool) -> None:
    names = NAMES[:seats]
    public = _decode(te_render.board(fx.view(seats, vexation=vexation), names))
    private = _decode(te_render.hand(fx.view(seats, seat=0, vexation=vexation), names))
    assert public.tobytes() != private.tobytes()
    _decode(te_render.round_end(fx.round_end_view(seats), names))
    _decode(te_render.board(fx.view(seats, phase="markers"), names))


def test_newest_track_is_highlighted_and_black_tracks_are_black() -> None:
    image = _board_map(fx.view(3), NAMES[:3])
    (ax, ay), (bx, by) = _xy("h16"), _xy("wien")  # the fixture's newest track
    mx, my = ax + (bx - ax) * 0.3, ay + (by - ay) * 0.3  # Bob's marker beside Wien keeps off the track
    assert _near(image.getpixel((mx, my)), te_render.BLACK_TRACK, 30)
    # the yellow band runs beside the bar: step 7 px across the line, then its dark edge at 12 px
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    nx, ny = -(by - ay) / length, (bx - ax) / length
    assert _near(image.getpixel((mx + 7 * nx, my + 7 * ny)), kit.NEWEST)
    assert _near(image.getpixel((mx + 11.5 * nx, my + 11.5 * ny)), kit.INK, 60)
    # an older black track has no band
    (cx, cy), (dx, dy) = _xy("g7"), _xy("paris")
    assert not _near(image.getpixel(((cx + dx) / 2, (cy + dy) / 2 + 7)), kit.NEWEST, 40)
    assert _near(image.getpixel(((cx + dx) / 2, (cy + dy) / 2)), te_render.BLACK_TRACK, 30)


def test_coloured_track_is_drawn_in_its_owner_colour() -> None:
    image = _board_map(fx.view(3, vexation=True), NAMES[:3])
    (ax, ay), (bx, by) = _xy("h18"), _xy("i19")  # Cid's coloured track
    samples = [
        image.getpixel((ax + (bx - ax) * t, ay + (by - ay) * t)) for t in (0.2, 0.25, 0.3, 0.7, 0.75, 0.8)
    ]
    assert any(_near(p, kit.seat_colour(2), 24) for p in samples)


def test_private_image_marks_own_cities_and_lists_them() -> None:
    public = _board_map(fx.view(3), NAMES[:3])
    private = _board_map(fx.view(3, seat=0), NAMES[:3], private=True)
    for city in fx.HANDS[0]:
        x, y = _xy(city)
        box = (int(x - 24), int(y - 24), int(x + 24), int(y + 24))
        assert _differs(public, private, box), city
    boxes, _ = recorded(lambda: te_render.hand(fx.view(3, seat=0), NAMES[:3]))
    panel_texts = {b.text for b in boxes if b.kind == "panel"}
    assert "Ann's cities:" in panel_texts
    assert {te_board.CITY_BY_ID[c].name for c in fx.HANDS[0]} <= panel_texts


def test_render_dispatch_finds_the_trans_europa_module() -> None:
    view = fx.view(3, seat=1)
    _decode(render.board_png(fx.view(3), NAMES[:3]))
    _decode(render.hand_png(view, NAMES[:3]))


def test_round_end_needs_a_finished_round() -> None:
    with pytest.raises(ValueError):
        te_render.round_end(fx.view(3), NAMES[:3])


def test_missing_names_fall_back_to_seat_numbers() -> None:
    _decode(te_render.board(fx.view(4), ["Ann"]))


# --------------------------------------------------------------------------- real played games


def _phase_kind(view: dict[str, Any]) -> tuple[Any, ...]:
    return (view["phase"], view["step"], bool(view["completed"]), bool(view["tracks"]))


def _played_snapshots(
    seats: int, options: dict[str, Any], seed: int
) -> list[tuple[str, dict[str, Any], Any]]:
    """(label, public view, state copy) at the first move of every phase kind and right after each round."""
    state = DEFINITION.new_game(seats, options, seed=seed)
    snapshots: list[tuple[str, dict[str, Any], Any]] = [("start", state.view(None), state.copy())]
    seen = {_phase_kind(snapshots[0][1])}
    rounds = 0

    def record(_seat: int, _move: Any, _events: Any) -> None:
        nonlocal rounds
        view = state.view(None)
        if len(view["history"]) > rounds:
            rounds = len(view["history"])
            snapshots.append((f"after round {rounds}", view, state.copy()))
        elif _phase_kind(view) not in seen:
            seen.add(_phase_kind(view))
            snapshots.append((f"{view['phase']} step {view['step']}", view, state.copy()))

    play_out(state, {s: DEFINITION.ai("greedy") for s in range(seats)}, on_move=record)
    assert state.is_over()
    snapshots.append(("game over", state.view(None), state.copy()))
    return snapshots


GAMES = [
    (2, {"start_score": 8}, 11),
    (3, {"vexation": True}, 12),
    (4, {"start_score": 8}, 13),
    (5, {"vexation": True, "vexation_refill": "round", "start_score": 8}, 14),
    (6, {"vexation": True, "start_score": 6, "show_tracks_needed": False}, 15),
]


@pytest.mark.parametrize(("seats", "options", "seed"), GAMES)
def test_every_phase_of_a_played_game_renders(seats: int, options: dict[str, Any], seed: int) -> None:
    names = NAMES[:seats]
    snapshots = _played_snapshots(seats, options, seed)
    labels = [label for label, _, _ in snapshots]
    assert "start" in labels and "game over" in labels and "after round 1" in labels
    assert any(label.startswith("building step 2") for label in labels)
    for label, public_view, state in snapshots:
        public = _decode(te_render.board(public_view, names))
        for seat in {0, seats - 1}:
            private = _decode(te_render.hand(state.view(seat), names))
            assert private.tobytes() != public.tobytes(), (label, seat)
        if public_view["last_round"] is not None:
            _decode(te_render.round_end(public_view, names))


def test_private_image_shows_own_cities_only() -> None:
    """At the start of a round the private image differs from the public one at its own cities, nowhere else on the map."""
    state = DEFINITION.new_game(4, {}, seed=21)
    names = NAMES[:4]
    public = _board_map(state.view(None), names)
    for seat in range(4):
        view = state.view(seat)
        private = _board_map(view, names, private=True)
        own = {entry["id"] for entry in view["hand"]}
        for city in te_board.CITIES:
            x, y = _xy(city.id)
            box = (int(x - 16), int(y - 16), int(x + 16), int(y + 16))
            assert _differs(public, private, box) == (city.id in own), (seat, city.id)


def test_round_end_image_flags_every_hand() -> None:
    snapshots = _played_snapshots(3, {"start_score": 6}, 31)
    label, view, _ = next(s for s in snapshots if s[0] == "after round 1")
    image = _map(te_render._compose_round_end(view, NAMES[:3]))
    plain = _board_map(view, NAMES[:3])
    for seat, cities in view["last_round"]["hands"].items():
        for entry in cities:
            junction = te_board.junction_of(entry["id"])
            laid = frozenset(u for t in view["last_round"]["tracks"] for a, b in [(te_board.junction_of(t["a"]),
                             te_board.junction_of(t["b"]))] for u in (a, b) if junction in (a, b) and u != junction)
            fx_, fy = te_render._city_spots(junction, laid)[1]
            flag = (int(fx_ - 8), int(fy - 8), int(fx_ + 8), int(fy + 8))  # inside the token on the pole
            colours = [
                image.getpixel((fx_, fy)) for fx_ in range(flag[0], flag[2]) for fy in range(flag[1], flag[3])
            ]
            assert any(_near(c, kit.seat_colour(int(seat)), 20) for c in colours), (label, seat, entry["id"])
    assert image.tobytes() != plain.tobytes()


def test_crowded_panel_still_fits() -> None:
    """Six long names, everyone connected, coloured tracks, a 25-point track and the private box."""
    view = fx.view(6, seat=5, vexation=True)
    cities = [{"id": c} for c in ("thessaloniki", "st-petersburg", "barcelona", "amsterdam", "bucuresti")]
    view["completed"] = [{"seat": s, "cities": cities} for s in range(6)]
    view["options"]["start_score"] = 25
    view["scores"] = {str(s): 25 - 6 * s for s in range(6)}
    names = ["Fatima-Zahra the Magnificent"] * 6
    boxes, size = recorded(lambda: te_render.hand(view, names))
    assert findings(boxes, size) == []
    _decode(te_render.hand(view, names))


def _lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour: distances in it follow what eyes see."""
    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


def test_newest_track_colour_is_far_from_every_seat_colour() -> None:
    """A new track in a seat's colour must not read as "newest" (the old magenta was close to pink)."""
    old_magenta_to_pink = _delta_e(kit.HIGHLIGHT, kit.seat_colour(3))
    assert old_magenta_to_pink < 45
    assert min(_delta_e(kit.NEWEST, kit.seat_colour(seat)) for seat in range(6)) > 45


def test_seats_of_close_colours_differ_by_pattern_and_number_too() -> None:
    close = [(a, b) for a in range(6) for b in range(a + 1, 6) if _delta_e(kit.seat_colour(a), kit.seat_colour(b)) < 45]
    assert (0, 5) in close and (1, 4) in close  # blue / sky blue, orange / vermillion
    for a, b in close:
        assert kit.seat_pattern(a) != kit.seat_pattern(b), (a, b)
    # coloured tracks of seats 0 and 5 side by side look different even in grey
    image = kit.new_canvas(200, 60, kit.WHITE)
    draw = ImageDraw.Draw(image)
    for seat, y in ((0, 15), (5, 45)):
        kit.patterned_bar(draw, (10, y), (190, y), 12, kit.seat_colour(seat), kit.seat_pattern(seat))
    grey = image.convert("L")
    top, bottom = grey.crop((10, 10, 190, 20)), grey.crop((10, 40, 190, 50))
    assert ImageChops.difference(top, bottom).getbbox() is not None
    assert abs(sum(top.histogram()[:128]) - sum(bottom.histogram()[:128])) > 100
