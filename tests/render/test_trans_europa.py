"""Trans Europa images: valid PNGs for every phase of played games, private vs public, 2..6 seats, vexation."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

import render
from render import kit
from render import trans_europa as te_render
from rules.engine import play_out
from rules.trans_europa import DEFINITION
from rules.trans_europa import board as te_board
from tests.render import te_fixtures as fx
from tests.render.png import decode_png

NAMES = ["Ann", "Bob", "Cid", "Dora", "Emil", "Fatima-Zahra"]


def _decode(data: bytes) -> Image.Image:
    assert (te_render.WIDTH, te_render.HEIGHT) == (1600, 1000)
    return decode_png(data, (te_render.WIDTH, te_render.HEIGHT))


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
    image = _decode(te_render.board(fx.view(3), NAMES[:3]))
    (ax, ay), (bx, by) = _xy("h16"), _xy("wien")  # the fixture's newest track
    mx, my = ax + (bx - ax) * 0.3, ay + (by - ay) * 0.3  # away from Bob's marker beside Wien
    assert _near(image.getpixel((mx, my)), te_render.BLACK_TRACK, 30)
    # the halo runs beside the bar: step 7 px across the line
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    nx, ny = -(by - ay) / length, (bx - ax) / length
    assert _near(image.getpixel((mx + 7 * nx, my + 7 * ny)), kit.HIGHLIGHT)
    # an older black track has no halo
    (cx, cy), (dx, dy) = _xy("g7"), _xy("paris")
    assert not _near(image.getpixel(((cx + dx) / 2, (cy + dy) / 2 + 7)), kit.HIGHLIGHT)
    assert _near(image.getpixel(((cx + dx) / 2, (cy + dy) / 2)), te_render.BLACK_TRACK, 30)


def test_coloured_track_is_drawn_in_its_owner_colour() -> None:
    image = _decode(te_render.board(fx.view(3, vexation=True), NAMES[:3]))
    (ax, ay), (bx, by) = _xy("h18"), _xy("i19")  # Cid's coloured track
    samples = [
        image.getpixel((ax + (bx - ax) * t, ay + (by - ay) * t)) for t in (0.2, 0.25, 0.3, 0.7, 0.75, 0.8)
    ]
    assert any(_near(p, kit.seat_colour(2), 24) for p in samples)


def test_private_image_marks_own_cities_and_lists_them() -> None:
    public = _decode(te_render.board(fx.view(3), NAMES[:3]))
    private = _decode(te_render.hand(fx.view(3, seat=0), NAMES[:3]))
    for city in fx.HANDS[0]:
        x, y = _xy(city)
        box = (int(x - 24), int(y - 24), int(x + 24), int(y + 24))
        assert _differs(public, private, box), city
    assert _differs(public, private, (0, te_render.STRIP_TOP + 30, te_render.MAP_RIGHT, te_render.HEIGHT))


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
    public = _decode(te_render.board(state.view(None), names))
    for seat in range(4):
        view = state.view(seat)
        private = _decode(te_render.hand(view, names))
        own = {entry["id"] for entry in view["hand"]}
        for city in te_board.CITIES:
            x, y = _xy(city.id)
            box = (int(x - 16), int(y - 16), int(x + 16), int(y + 16))
            assert _differs(public, private, box) == (city.id in own), (seat, city.id)


def test_round_end_image_flags_every_hand() -> None:
    snapshots = _played_snapshots(3, {"start_score": 6}, 31)
    label, view, _ = next(s for s in snapshots if s[0] == "after round 1")
    image = _decode(te_render.round_end(view, NAMES[:3]))
    plain = _decode(te_render.board(view, NAMES[:3]))
    for seat, cities in view["last_round"]["hands"].items():
        for entry in cities:
            x, y = _xy(entry["id"])
            flag = (int(x + 12), int(y - 34), int(x + 32), int(y - 20))  # inside the flag cloth
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
    panel = te_render._panel(kit.new_canvas(te_render.WIDTH, te_render.HEIGHT), view, names, private_for=5)
    assert panel.room() >= 0
    _decode(te_render.hand(view, names))
