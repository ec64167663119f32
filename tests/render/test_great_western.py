"""Great Western Railway images: valid PNGs for every phase of played games, highlight, owners, hand,
each train's totals and dice, names clear of the links."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from render import great_western as gw_render
from render import kit
from rules.engine import ai_move
from rules.great_western import DEFINITION
from rules.great_western.ai import GreedyAI, RandomGWAI
from rules.great_western.board import LINKS, NEIGHBOURS
from tests.render.png import decode_png

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def decode(data: bytes, size: tuple[int, int] | None | str = "board") -> Image.Image:
    """A board is a portrait page of the kit's width; a hand (size=None) any size."""
    image = decode_png(data, size=None if size == "board" else size)
    if size == "board":
        assert image.width == gw_render.WIDTH and image.height > image.width
    return image


def drawn(view: dict, names: list[str]) -> tuple[list[kit.TextBox], float]:
    """What the board draws, and where its map starts on the page (from Penzance's recorded disc)."""
    with kit.recording() as boxes:
        gw_render.board(view, names)
    x, y = gw_render._at("penzance")
    disc = next(b for b in boxes if b.text == "city" and abs(b.box[0] - (x - gw_render.CITY_R)) < 0.5)
    return boxes, disc.box[1] - (y - gw_render.CITY_R)


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 24) -> bool:
    return all(abs(p - c) <= tolerance for p, c in zip(pixel, colour, strict=False))


def played_views(seats: int, seed: int) -> dict[str, dict]:
    """Public views at the moments a player meets: auction, build, forced done, connection, end."""
    state = DEFINITION.new_game(seats, {}, seed)
    players = {s: GreedyAI() if s % 2 == 0 else RandomGWAI() for s in range(seats)}
    moments: dict[str, dict] = {"start": state.view(None)}
    while not state.is_over():
        seat = min(state.to_act())
        move = ai_move(state, seat, players[seat])
        state.apply(seat, move)
        view = json.loads(json.dumps(state.view(None)))  # as the bot stores it
        if state.phase == "auction" and view["last"] and view["last"]["move"].startswith("bid"):
            moments.setdefault("auction", view)
        if state.phase == "build" and str(move).startswith("connect"):
            moments.setdefault("build_after_connect", view)
            moments.setdefault("builder_hand", json.loads(json.dumps(state.view(state.builder()))))
            moments.setdefault(
                "someone_else_hand", json.loads(json.dumps(state.view((state.builder() + 1) % seats)))
            )
        if state.round == 5:
            moments.setdefault("middle", view)
    moments["end"] = json.loads(json.dumps(state.view(None)))
    return moments


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_phase_renders(seats: int) -> None:
    views = played_views(seats, 20 + seats)
    assert {"start", "auction", "build_after_connect", "middle", "end"} <= set(views)
    images = {}
    for moment in ("start", "auction", "build_after_connect", "middle", "end"):
        images[moment] = decode(gw_render.board(views[moment], NAMES[:seats]))
    assert images["start"].tobytes() != images["end"].tobytes()
    decode(gw_render.hand(views["builder_hand"], NAMES[:seats]), size=None)
    decode(gw_render.hand(views["someone_else_hand"], NAMES[:seats]), size=None)


def test_last_connection_is_highlighted_and_owned_cities_show_the_owner() -> None:
    views = played_views(3, 5)
    view = views["build_after_connect"]
    image = decode(gw_render.board(view, NAMES[:3]))
    _, top = drawn(view, NAMES[:3])
    route = view["last"]["route"]
    (ax, ay), (bx, by) = gw_render._at(route[-2]), gw_render._at(route[-1])
    # A third of the way along the last link (away from the cost square in the middle).
    x, y = ax + (bx - ax) * 0.3, ay + (by - ay) * 0.3 + top
    assert near(image.getpixel((round(x), round(y))), kit.HIGHLIGHT)
    owner = view["owners"][route[-1]]
    # The owner's symbol fills the city around the gold disc: its colour shows within the city's radius.
    cx, cy = round(bx), round(by + top)
    around = [image.getpixel((cx + dx, cy + dy)) for dx in range(-18, 19, 2) for dy in range(-18, 19, 2)]
    assert sum(near(pixel, kit.seat_colour(owner)) for pixel in around) >= 10


def test_hand_lists_the_builder_options_only() -> None:
    views = played_views(3, 8)
    builder = decode(gw_render.hand(views["builder_hand"], NAMES[:3]), size=None)
    other = decode(gw_render.hand(views["someone_else_hand"], NAMES[:3]), size=None)
    assert builder.size[1] >= other.size[1]
    assert builder.tobytes() != other.tobytes()


def test_names_longer_than_the_row_still_render() -> None:
    views = played_views(4, 2)
    names = ["A very long player name indeed", "Bob", "Cid", "Zoë-Éléonore the Magnificent"]
    decode(gw_render.board(views["middle"], names))
    decode(gw_render.board(views["end"], names))


def test_a_player_whose_train_has_built_is_not_told_to_wait_for_their_build_turn() -> None:
    state = DEFINITION.new_game(3, {}, 4)
    players = {s: GreedyAI() for s in range(3)}
    while not (state.phase == "build" and any(t["built"] for t in state.view(None)["trains"])):
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, players[seat]))
    view = state.view(None)
    done = next(t for t in view["trains"] if t["built"])
    waiting = [t for t in view["trains"] if t["in_play"] and not t["built"] and not t["building"]]
    for train, expected in [(done, "has built this round"), *((t, "Wait for your build turn") for t in waiting)]:
        seat = train["owner"]
        with kit.recording() as boxes:
            gw_render.hand(json.loads(json.dumps(state.view(seat))), NAMES[:3])
        said = " ".join(b.text for b in boxes)
        assert expected in said
        if expected != "Wait for your build turn":
            assert "Wait for your build turn" not in said


def test_each_train_shows_its_passenger_and_freight_totals_and_big_dice() -> None:
    views = played_views(3, 5)
    view = views["auction"]
    boxes, _ = drawn(view, NAMES[:3])
    said = [b.text for b in boxes]
    for train in view["trains"]:
        if train["in_play"]:
            assert f"P {train['passengers']} / F {train['freight']}" in said
    dice = [b for b in boxes if b.kind == "glyph" and b.size >= 20 and b.box[0] >= gw_render.DICE_X]
    assert len(dice) == 3 * 3  # three dice per train in play, drawn at 20 px in 30 px boxes
    assert gw_render.DIE >= 28


def test_gloucester_and_every_name_stay_off_the_links_that_leave_their_city() -> None:
    labels = gw_render._labels()
    for city, (_, _, halo) in labels.items():
        box = (halo[0] + 2, halo[1] + 2, halo[2] - 2, halo[3] - 2)  # the ink, with a px of its halo
        x, y = gw_render._at(city)
        for other, _cost in NEIGHBOURS[city]:
            ox, oy = gw_render._at(other)
            # points along the link from the city's edge outwards
            for t in range(8, 60):
                px, py = x + (ox - x) * t / 100, y + (oy - y) * t / 100
                assert not (box[0] <= px <= box[2] and box[1] <= py <= box[3]), (city, other)
    boxes = [box for *_, box in labels.values()]
    assert not any(gw_render._overlaps(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert LINKS and "gloucester" in labels
