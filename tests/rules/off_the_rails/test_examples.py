"""Off the Rails: the worked examples of spec section 13, exactly, plus the position-building helpers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.engine import IllegalMove, name_seats
from rules.off_the_rails import DEFINITION, board
from rules.off_the_rails.state import OffTheRailsState

NAMES = ["Ann", "Bob", "Cid", "Dee"]


# --------------------------------------------------------------------------- helpers (used by the other test files)


def blank(
    num_seats: int = 2, deck: list[str] | None = None, face_up: tuple[str, ...] = (), **options: Any
) -> OffTheRailsState:
    """A fresh game with an empty board (setup gems back in the bag), the given deck and missions."""
    state = DEFINITION.new_game(num_seats, options, seed=7)
    assert isinstance(state, OffTheRailsState)
    for gems in state.gems.values():
        for kind, n in gems.items():
            state.bag[kind] += n
    state.gems = {}
    deck = ["green-7", "green-6"] if deck is None else list(deck)
    every = set(state.deck) | set(state.chasm_deck) | set(state.unused_cards) | set(state.setup_cards)
    state.deck = deck
    state.setup_cards = []
    state.unused_cards = sorted(every - set(deck) - set(state.chasm_deck))
    state.chasm_deck = [c for c in state.chasm_deck if c not in deck]
    state.face_up = list(face_up)
    state.missions_out = sorted(set(board.MISSION_IDS) - set(face_up))
    return state


def gems(*kinds: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for kind in kinds:
        out[kind] = out.get(kind, 0) + 1
    return {k: out[k] for k in board.GEM_KINDS if k in out}


def put_gems(state: OffTheRailsState, square: str, *kinds: str) -> None:
    for kind in kinds:
        state.bag[kind] -= 1
    state._put_gems(square, gems(*kinds))


def place_cart(
    state: OffTheRailsState,
    seat: int,
    name: str,
    square: str,
    back: str | None,
    front: str,
    speed: int,
    *load: str,
) -> None:
    cart = state.carts[seat][name]
    cart.where, cart.square, cart.back, cart.front, cart.speed = "board", square, back, front, speed
    for kind in load:
        state.bag[kind] -= 1
    cart.load = gems(*load)


def lay(state: OffTheRailsState, square: str, edges: str) -> None:
    state.tiles[square] = edges
    state.tile_supply[board.TILE_TYPE_OF[edges]] -= 1


def cart_of(state: OffTheRailsState, seat: int, name: str = "white") -> tuple:
    c = state.carts[seat][name]
    return (c.where, c.square, c.back, c.front, c.speed, c.load)


def legal(state: OffTheRailsState, seat: int) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]


def texts(events: list, seat: int | None = None) -> list[str]:
    return [name_seats(e.text, NAMES) for e in events if e.visible_to(seat)]


def refused(state: OffTheRailsState, seat: int, text: str) -> str:
    """Apply `text`, expect a refusal, check nothing changed; return the reason with names."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        state.apply(seat, text)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return name_seats(err.value.reason, NAMES)


# --------------------------------------------------------------------------- E1


def test_e1_setup_two_players_defaults() -> None:
    state = DEFINITION.new_game(2, {}, seed=3)
    assert len(state.deck) == 17
    colour = lambda card: board.CARDS[card]["colour"]  # noqa: E731
    for start in (0, 4, 13):
        assert sorted(colour(c) for c in state.deck[start : start + 4]) == sorted(board.COLOURS)
    layer = state.deck[8:13]
    assert board.COLLAPSE in layer
    assert sorted(colour(c) for c in layer if c != board.COLLAPSE) == sorted(board.COLOURS)
    assert len(state.setup_cards) == 4 and sorted(colour(c) for c in state.setup_cards) == sorted(
        board.COLOURS
    )
    on_board = 0
    for card in state.setup_cards:
        square = board.CARDS[card]["square"]
        count = board.gem_total(state.gems[square])
        assert count == max(2, board.CARDS[card]["gems"])
        assert 2 <= count <= 3
        on_board += count
    assert sum(state.bag.values()) == 66 - on_board
    assert len(state.chasm_deck) == 4 and sorted(colour(c) for c in state.chasm_deck) == sorted(board.COLOURS)
    assert len(state.face_up) == 3
    assert all(state.reserve_count(s) == 2 for s in range(2))
    assert state.tile_supply == {"straight": 50, "curve": 50, "t": 24, "cross": 12}
    assert state.to_act() == frozenset({0})
    view = state.view(None)
    assert view["deck_count"] == 17 and view["chasm_deck_count"] == 4
    assert "deck" not in view and "chasm_deck" not in view


@pytest.mark.parametrize("players,length", [(1, 13), (3, 21), (4, 25)])
def test_e1_deck_sizes_by_players(players: int, length: int) -> None:
    state = DEFINITION.new_game(players, {}, seed=5)
    assert len(state.deck) == length
    below = len(state.deck) - 1 - state.deck.index(board.COLLAPSE)
    assert 4 <= below <= 8


# --------------------------------------------------------------------------- E2


def test_e2_tiles_and_undo() -> None:
    state = blank()
    state.apply(0, "lay e2 ns")
    assert state.tiles["e2"] == "ns" and state.tile_supply["straight"] == 49
    assert refused(state, 0, "upgrade e2 new") == "a T must keep the existing track ns"
    assert refused(state, 0, "upgrade e2 nesw") == "only a T can be upgraded to a cross"
    state.apply(0, "upgrade e2 nes")
    assert state.tiles["e2"] == "nes" and state.tile_supply["straight"] == 50 and state.tile_supply["t"] == 23
    assert refused(state, 0, "lay e5 ns") == "e5 is a mine centre"
    assert refused(state, 0, "lay e1 ns") == "e1 is a start square"
    state.apply(0, "lay d4 ew")
    assert state.actions_used == 3
    state.apply(0, "undo")
    assert "d4" not in state.tiles and state.tile_supply["straight"] == 50 and state.actions_used == 2
    assert state.tiles["e2"] == "nes"


# --------------------------------------------------------------------------- E3


def test_e3_pass_and_stop_pickups() -> None:
    state = blank()
    for sq, e in (("e2", "ns"), ("e3", "ns"), ("e4", "ne"), ("f4", "ew")):
        lay(state, sq, e)
    put_gems(state, "e3", "ruby", "gold")
    put_gems(state, "e4", "rock", "emerald", "emerald")
    state.apply(0, "cart white e1")
    state.apply(0, "end")
    assert state.phase == "take" and legal(state, 0) == ["take gold", "take ruby"]
    assert state.view(None)["carts"][0]["choosing"] is True
    state.apply(0, "take gold")
    white = state.carts[0]["white"]
    assert (white.where, white.square, white.back, white.front, white.speed) == ("board", "e4", "n", "e", 3)
    assert white.load == gems("rock", "emerald", "gold")
    assert state.gems["e3"] == gems("ruby") and state.gems["e4"] == gems("emerald")
    assert state.view(None)["last_paths"][0]["path"] == ["e1", "e2", "e3", "e4"]


# --------------------------------------------------------------------------- E4


def test_e4_derail() -> None:
    state = blank()
    for sq in ("b8", "c8", "d8"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "b8", "w", "e", 4, "ruby", "ruby", "gold")
    bag = dict(state.bag)
    events = state.apply(0, "end")
    assert state.carts[0]["white"].where == "reserve"
    deposited = state.gems["d10"]  # the deposit phase after the move drew green-7's gem from the bag
    assert state.bag["ruby"] + deposited.get("ruby", 0) == bag["ruby"] + 2
    assert state.bag["gold"] + deposited.get("gold", 0) == bag["gold"] + 1
    assert state.stockpiles[0] == board.gem_dict()
    assert any("derails" in t for t in texts(events))
    assert state.view(None)["last_paths"][0] == {
        "seat": 0,
        "cart": "white",
        "path": ["b8", "c8", "d8"],
        "outcome": "derailed",
        "target": "e8",
    }


# --------------------------------------------------------------------------- E5


def _e5(players: int) -> OffTheRailsState:
    state = blank(players, face_up=("gold-hills", "diamonds", "enemy-lines", "spice-of-life", "head-to-head"))
    lay(state, "l5", "ew")
    lay(state, "m5", "ew")
    place_cart(state, 0, "white", "l5", "w", "e", 3, "gold", "gold", "diamond")
    state.apply(0, "end")
    return state


def test_e5_delivery_and_mission_choice() -> None:
    state = _e5(4)
    assert state.stockpiles[0] == {"rock": 0, "ruby": 0, "emerald": 0, "gold": 2, "diamond": 1}
    assert state.carts[0]["white"].where == "reserve"
    assert legal(state, 0) == ["claim diamonds", "claim enemy-lines", "claim gold-hills"]
    state.apply(0, "claim enemy-lines")
    assert state.claimed[0] == ["enemy-lines"]
    assert len(state.face_up) == 4 and "enemy-lines" not in state.face_up
    assert state.view(None)["last_paths"][0]["path"] == ["l5", "m5", "n5"]
    two = _e5(2)
    assert legal(two, 0) == ["claim diamonds", "claim gold-hills"]


# --------------------------------------------------------------------------- E6


def test_e6_head_on_empty_victim() -> None:
    state = blank(face_up=("bumper-carts", "head-to-head", "red-leader"))
    for sq in ("d3", "e3", "f3", "g3"):
        lay(state, sq, "ew")
    put_gems(state, "e3", "emerald")
    place_cart(state, 0, "white", "d3", "w", "e", 3)
    place_cart(state, 1, "white", "g3", "e", "w", 2)
    events = state.apply(0, "end")
    white = state.carts[0]["white"]
    assert (white.square, white.back, white.front, white.load) == ("f3", "e", "w", gems("emerald"))
    assert state.carts[1]["white"].where == "reserve"
    assert any("head-on" in t for t in texts(events))
    assert legal(state, 0) == ["claim bumper-carts", "claim head-to-head"]


# --------------------------------------------------------------------------- E7


def test_e7_rear_collision_split_and_pick() -> None:
    state = blank(face_up=("jewel-heist", "head-to-head", "spice-of-life"))
    for sq in ("d3", "e3", "f3", "g3"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "d3", "w", "e", 4)
    place_cart(state, 1, "white", "f3", "w", "e", 2, "ruby", "ruby", "gold")
    events = state.apply(0, "end")
    assert any("(rear)" in t for t in texts(events))
    white = state.carts[0]["white"]
    assert (white.square, white.back, white.front) == ("e3", "e", "w")
    assert state.to_act() == frozenset({1})
    assert legal(state, 1) == ["split ruby gold", "split ruby ruby"]
    events = state.apply(1, "split ruby gold")
    red_sees = texts(events, 0)
    assert any("left 2 | right 1" in t for t in red_sees)
    assert not any("gold" in t for t in red_sees)
    assert any("ruby, gold" in t for t in texts(events, 1))
    red_view = state.view(0)
    assert red_view["pending"]["left_size"] == 2 and "left" not in red_view["pending"]
    assert "left" not in state.view(None)["pending"]
    assert state.view(1)["pending"]["left"] == ["ruby", "gold"]
    assert state.to_act() == frozenset({0})
    state.apply(0, "pick left")
    assert state.gems["f3"] == gems("ruby", "gold")
    blue = state.carts[1]["white"]
    assert (blue.back, blue.front, blue.load) == ("w", "e", gems("ruby"))
    assert state.claimed[0] == ["jewel-heist"]


# --------------------------------------------------------------------------- E8


def test_e8_junction_then_side_collision() -> None:
    state = blank(face_up=("bumper-carts",))
    for sq, e in (("c6", "ew"), ("d6", "ew"), ("e6", "esw"), ("e7", "ns")):
        lay(state, sq, e)
    place_cart(state, 0, "white", "c6", "w", "e", 2)
    place_cart(state, 1, "black", "e7", "s", "n", 1, "ruby")
    state.apply(0, "end")
    assert legal(state, 0) == ["go e", "go s"]
    state.apply(0, "go e")
    white = state.carts[0]["white"]
    assert (white.square, white.back, white.front) == ("e6", "w", "e")
    assert state.active == 1
    events = state.apply(1, "end")
    assert any("(side)" in t for t in texts(events))
    black = state.carts[1]["black"]
    assert (black.square, black.back, black.front, black.load) == ("e7", "n", "s", gems("ruby"))
    assert state.carts[0]["white"].where == "reserve"
    assert state.claimed[1] == ["bumper-carts"]


def test_e8_bumper_carts_not_face_up_is_not_taken() -> None:
    state = blank()
    for sq, e in (("e6", "esw"), ("e7", "ns")):
        lay(state, sq, e)
    place_cart(state, 0, "white", "e6", "w", "e", 1)
    state.active = 1
    place_cart(state, 1, "black", "e7", "s", "n", 1, "ruby")
    state.apply(1, "end")
    assert state.claimed == [[], []] and state.carts[0]["white"].where == "reserve"


# --------------------------------------------------------------------------- E9


def _e9(with_cart: bool) -> OffTheRailsState:
    state = blank(deck=["red-2", "collapse", "yellow-5", "blue-3", "green-1"])
    state.unused_cards = sorted(
        set(state.unused_cards + state.chasm_deck) - {"red-7", "yellow-7", "blue-6", "green-4"}
    )
    state.chasm_deck = ["red-7", "yellow-7", "blue-6", "green-4"]
    for sq, e in (("l12", "es"), ("m12", "sw"), ("m13", "nw"), ("l13", "ne")):
        lay(state, sq, e)
    if with_cart:
        place_cart(state, 1, "white", "l12", "s", "e", 4)
    return state


def test_e9_collapse_and_chasm() -> None:
    state = _e9(True)
    state.apply(0, "end")
    assert board.gem_total(state.gems["f4"]) == 2
    state.apply(1, "end")
    assert cart_of(state, 1)[:4] == ("board", "l12", "s", "e")
    assert state.stage == "collapse" and state.collapse_holder == 1
    assert board.gem_total(state.gems["j6"]) == 3
    state.apply(0, "end")
    assert board.gem_total(state.gems["k10"]) == 1
    state.apply(1, "end")
    assert state.stage == "chasm"
    assert state.rifts == {"d5": "red", "i5": "yellow", "i11": "blue", "f11": "green"}
    assert not state.is_over()
    state.rift_supply = {"red": 1, "yellow": 0, "blue": 0, "green": 0}
    state.apply(0, "end")
    assert legal(state, 0) == ["rift c5", "rift d4", "rift d6"]
    state.apply(0, "rift c5")
    assert state.is_over()
    assert state.carts[1]["white"].where == "lost"
    result = state.result()
    assert result is not None
    assert result.score_of(0) == 6 and result.score_of(1) == 3


def test_e9_variant_no_carts_ends_when_the_chasm_opens() -> None:
    state = _e9(False)
    for seat in (0, 1, 0):
        state.apply(seat, "end")
    assert not state.is_over()
    state.apply(1, "end")
    assert state.stage == "chasm" and state.is_over() and state.turn == 4


# --------------------------------------------------------------------------- E10


def test_e10_falling_and_destruction() -> None:
    state = blank()
    state.stage = "chasm"
    state.rifts = {"g7": "red"}
    state.rift_supply = {"red": 5, "yellow": 0, "blue": 0, "green": 0}
    for sq in ("e7", "f7", "h7"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "e7", "w", "e", 3, "gold")
    place_cart(state, 1, "white", "h7", "w", "e", 1)
    removed = state.removed_gems["gold"]
    state.apply(0, "end")
    assert state.carts[0]["white"].where == "lost" and state.removed_gems["gold"] == removed + 1
    assert state.view(None)["players"][0]["lost"] == 1
    assert legal(state, 0) == ["rift f7", "rift g6", "rift g8", "rift h7"]
    state.apply(0, "rift h7")
    assert "h7" not in state.tiles and state.tiles_destroyed["straight"] == 1
    assert state.carts[1]["white"].where == "lost"
    assert state.is_over()
    result = state.result()
    assert result is not None and result.score_of(0) == 3 and result.score_of(1) == 3


# --------------------------------------------------------------------------- E11


def test_e11_final_scoring() -> None:
    state = blank(3, face_up=("dirty-goblins",))
    stock = {
        0: {"rock": 2, "ruby": 5, "emerald": 2, "gold": 1, "diamond": 1},
        1: {"rock": 0, "ruby": 5, "emerald": 4, "gold": 2, "diamond": 0},
        2: {"rock": 3, "ruby": 2, "emerald": 1, "gold": 3, "diamond": 2},
    }
    for seat, s in stock.items():
        state.stockpiles[seat] = dict(s)
    state.claimed = [["diamonds"], ["green-fingers"], ["jewel-heist"]]
    state.carts[1]["black"].where = "lost"
    state.phase = "over"
    result = state.result()
    assert result is not None
    assert [result.score_of(s) for s in range(3)] == [31, 31, 35]
    assert [result.rank_of(s) for s in range(3)] == [3, 2, 1]
    for line in result.seats:
        assert sum(line.breakdown.values()) == line.score
    red = next(r for r in result.seats if r.seat == 0).breakdown
    assert red["ruby_majority"] == 5 and red["missions"] == 4 and red["carts"] == 6
    blue = next(r for r in result.seats if r.seat == 2).breakdown
    assert blue["missions"] + blue["dirty_goblins"] == 8
