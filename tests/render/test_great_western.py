"""Great Western Railway images: valid PNGs for every phase of played games, highlight, owners, hand."""

from __future__ import annotations

import json
from functools import partial

import pytest

from render import great_western as gw_render
from render import kit
from rules.engine import ai_move
from rules.great_western import DEFINITION
from rules.great_western.ai import GreedyAI, RandomGWAI
from rules.great_western.board import CITIES
from tests.render.png import decode_png

NAMES = ["Ann", "Bob", "Cid", "Dee"]
decode = partial(decode_png, size=(gw_render.WIDTH, gw_render.HEIGHT))  # a hand: size=None


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
    route = view["last"]["route"]
    a, b = CITIES[route[-2]], CITIES[route[-1]]
    # A quarter of the way along the last link (away from the cost square in the middle).
    x, y = a.x + (b.x - a.x) * 0.3, a.y + (b.y - a.y) * 0.3
    assert near(image.getpixel((round(x), round(y))), kit.HIGHLIGHT)
    owner = view["owners"][route[-1]]
    # The owner's symbol fills the city around the gold disc (left of the centre, inside the symbol).
    city = CITIES[route[-1]]
    probe = (city.x - 17, city.y + 6 if kit.seat_symbol(owner) == "triangle" else city.y)
    assert near(image.getpixel(probe), kit.seat_colour(owner))


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
