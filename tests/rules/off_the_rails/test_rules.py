"""Off the Rails: refused moves with the spec's reasons (state unchanged), notation, and property tests."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import IllegalMove
from rules.off_the_rails import DEFINITION, board
from rules.off_the_rails.moves import parse
from rules.off_the_rails.state import OffTheRailsState, auto_split, split_options
from tests.rules.off_the_rails.test_examples import blank, lay, place_cart, put_gems, refused


def test_action_refusals() -> None:
    state = blank()
    lay(state, "d4", "ns")
    assert refused(state, 0, "lay d4 ew") == "d4 already has track"
    assert refused(state, 0, "upgrade d4 nesw") == "only a T can be upgraded to a cross"
    assert refused(state, 0, "lay c3 nes").startswith("lay takes a straight or a curve")
    assert refused(state, 0, "upgrade c3 nes") == "c3 has no track to upgrade"
    state.tile_supply["curve"] = 0
    assert refused(state, 0, "lay c3 sw") == "no curve tiles left"
    lay(state, "f6", "ew")
    place_cart(state, 1, "white", "f6", "w", "e", 2)
    assert refused(state, 0, "upgrade f6 new") == "a cart is on f6"
    state.apply(0, "cart white e1")
    assert refused(state, 0, "cart white h1") == "white is not in your reserve"
    assert refused(state, 0, "cart black n2") == "n2 is not one of your (red) start squares"
    assert refused(state, 0, "cart black e1") == "a cart is on e1"
    for _ in range(3):
        state.apply(0, "speed white up")
    assert refused(state, 0, "speed white up") == "4 actions used"
    state.apply(0, "undo")
    state.apply(0, "undo")
    assert refused(state, 0, "speed black up") == "black is not on the board"
    state.apply(0, "speed white up")
    assert state.carts[0]["white"].speed == 5
    for _ in range(3):
        state.apply(0, "undo")
    assert state.carts[0]["white"].where == "reserve" and state.actions_used == 0
    assert refused(state, 0, "undo") == "there is no action to undo this turn"
    cart = state.carts[0]["white"]
    cart.where, cart.square, cart.front, cart.speed = "board", "e1", "s", 6
    assert refused(state, 0, "speed white up") == "speed is already 6"
    assert refused(state, 1, "end") == "It is not your turn."
    assert refused(state, 0, "go n").startswith("it is the action phase")
    assert refused(state, 0, "lay z9 ns") == "z9 is not a square (a1 to n14)"


def test_decision_refusals() -> None:
    state = blank(face_up=("jewel-heist", "head-to-head", "spice-of-life"))
    for sq, e in (("d3", "ew"), ("e3", "esw"), ("f3", "ew"), ("g3", "ew")):
        lay(state, sq, e)
    put_gems(state, "e3", "ruby", "gold")
    place_cart(state, 0, "white", "d3", "w", "e", 2)
    state.apply(0, "end")
    assert state.phase == "take"
    assert refused(state, 0, "take emerald") == "no emerald on e3"
    assert refused(state, 0, "lay a2 ns").startswith("the action phase is over")
    assert refused(state, 0, "go e").startswith("the pending decision is")
    state.apply(0, "take gold")
    assert state.phase == "go"
    assert refused(state, 0, "go w") == "the cart came in by w"
    assert refused(state, 0, "go n") == "the track on e3 has no exit n"
    state.apply(0, "go e")
    assert state.carts[0]["white"].front == "e"


def test_split_and_claim_refusals() -> None:
    state = blank(face_up=("jewel-heist", "head-to-head", "spice-of-life"))
    for sq in ("d3", "e3", "f3", "g3"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "e3", "w", "e", 1)
    place_cart(state, 1, "white", "f3", "e", "w", 1, "ruby", "ruby", "gold")
    state.apply(0, "end")  # head-on: Blue splits
    assert refused(state, 1, "split gold") == "the left hand must be 2 gems from the cart (2 ruby, 1 gold)"
    assert refused(state, 1, "split diamond diamond").startswith("the left hand must be 2 gems")
    assert refused(state, 0, "split ruby ruby") == "It is not your turn."
    state.apply(1, "split ruby ruby")
    state.apply(0, "pick right")
    assert state.gems["f3"] == {"gold": 1}
    # head-to-head and jewel-heist both achieved: a choice
    assert [str(m) for m in state.legal_moves(0)] == ["claim head-to-head", "claim jewel-heist"]
    assert refused(state, 0, "claim spice-of-life") == "spice-of-life was not achieved this turn"
    state.apply(0, "claim jewel-heist")
    assert state.claimed[0] == ["jewel-heist"]


def test_rift_refusal() -> None:
    state = blank()
    state.stage = "chasm"
    state.rifts = {"c6": "red", "c9": "blue"}
    state.rift_supply = {"red": 1, "yellow": 0, "blue": 0, "green": 0}
    place_cart(state, 1, "white", "m14", None, "n", 3)
    state.apply(0, "end")
    assert state.phase == "rift"
    assert refused(state, 0, "rift c8") == "c8 is not next to a red rift"
    state.apply(0, "rift c7")
    assert state.rifts["c7"] == "red"


def test_one_claim_per_turn_and_spice_of_life() -> None:
    state = blank(face_up=("diamonds", "spice-of-life"))
    state.stockpiles[0] = {"rock": 1, "ruby": 1, "emerald": 1, "gold": 1, "diamond": 0}
    lay(state, "l5", "ew")
    lay(state, "m5", "ew")
    place_cart(state, 0, "white", "l5", "w", "e", 2, "diamond")
    state.apply(0, "end")
    # diamonds is claimed at the delivery; Spice of Life would be fulfilled too, but one claim per turn
    assert state.claimed[0] == ["diamonds"] and "spice-of-life" in state.face_up
    state.apply(1, "end")
    state.apply(0, "end")  # the next turn's movement end: Spice of Life now
    assert state.claimed[0] == ["diamonds", "spice-of-life"]


def test_bumper_carts_option() -> None:
    state = blank(bumper_carts=True)
    for sq in ("d3", "e3", "f3", "g3"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "e3", "w", "e", 2)
    place_cart(state, 1, "white", "f3", "w", "e", 1, "ruby", "gold")
    state.apply(0, "end")
    blue = state.carts[1]["white"]
    assert (blue.where, blue.load) == ("board", {"ruby": 1, "gold": 1})
    assert state.carts[0]["white"].front == "w"
    missions = DEFINITION.new_game(3, {"bumper_carts": True}, 2)
    assert "jewel-heist" not in missions.face_up and "bumper-carts" not in missions.face_up


def test_auto_split_option_and_timeout() -> None:
    state = blank(auto_split=True)
    for sq in ("d3", "e3", "f3", "g3"):
        lay(state, sq, "ew")
    place_cart(state, 0, "white", "e3", "w", "e", 2)
    place_cart(state, 1, "white", "f3", "w", "e", 1, "ruby", "gold", "diamond", "rock")
    state.apply(0, "end")
    assert state.phase == "pick" and state.to_act() == frozenset({0})
    state.apply(0, "pick left")  # left = diamond, emerald... by value: diamond, ruby
    assert state.gems["f3"] == {"ruby": 1, "diamond": 1}
    assert state.carts[1]["white"].load == {"rock": 1, "gold": 1}
    assert blank().timeout_move(0) is not None and str(blank().timeout_move(0)) == "end"


def test_rift_die_option() -> None:
    state = blank(rift_die=True)
    state.stage = "chasm"
    state.rifts = {"d5": "red"}
    state.rift_supply = {"red": 2, "yellow": 0, "blue": 0, "green": 0}
    place_cart(state, 1, "white", "m14", None, "n", 3)
    state.apply(0, "end")
    assert state.phase == "action" and state.active == 1
    (new,) = set(state.rifts) - {"d5"}
    assert board.MINE_SQUARE_LABEL[new][0] == "red"


def test_no_missions_option_and_solo() -> None:
    assert DEFINITION.new_game(2, {"missions": False}, 1).face_up == []
    solo = DEFINITION.new_game(1, {}, 1)
    assert len(solo.face_up) == 2
    assert not {"enemy-lines", "jewel-heist", "bumper-carts", "head-to-head", "dirty-goblins"} & set(
        solo.face_up
    )
    assert len(solo.deck) == 13
    with pytest.raises(ValueError):
        DEFINITION.resolve_options({"game_length": "15"})


def test_upgrade_returns_tile_and_undo_restores() -> None:
    state = blank()
    lay(state, "c3", "ne")
    state.apply(0, "upgrade c3 nes")
    state.apply(0, "upgrade c3 nesw")
    assert state.tile_supply == {"straight": 50, "curve": 50, "t": 24, "cross": 11}
    state.apply(0, "undo")
    state.apply(0, "undo")
    assert state.tiles["c3"] == "ne" and state.tile_supply == {
        "straight": 50,
        "curve": 49,
        "t": 24,
        "cross": 12,
    }


# --------------------------------------------------------------------------- properties

EDGE_SETS = st.sampled_from(board.LAYABLE + board.UPGRADES)


@given(EDGE_SETS, st.randoms(use_true_random=False), st.sampled_from(board.TRACK_SQUARES))
@settings(deadline=None, max_examples=60)
def test_notation_is_lenient_and_canonical(edges: str, rnd, square: str) -> None:
    letters = list(edges)
    rnd.shuffle(letters)
    verb = "lay" if edges in board.LAYABLE else "upgrade"
    text = f"  {verb.upper()}   {square.upper()} {''.join(letters).upper()} "
    assert str(parse(text)) == f"{verb} {square} {edges}"


def test_parse_aliases() -> None:
    assert str(parse("Go North")) == "go n"
    assert str(parse("cart W e1")) == "cart white e1"
    assert str(parse("speed b +")) == "speed black up"
    assert str(parse("pick R")) == "pick right"
    assert str(parse("take Rubies")) == "take ruby"
    assert str(parse("split gold ruby")) == "split ruby gold"
    for bad in ("", "fly e2", "lay e2", "lay e2 nx", "go up", "claim nothing", "rift z1", "speed white fast"):
        with pytest.raises(IllegalMove):
            parse(bad)


GEM_LOADS = st.lists(st.sampled_from(board.GEM_KINDS), min_size=2, max_size=5)


@given(GEM_LOADS)
@settings(deadline=None, max_examples=80)
def test_split_options_are_the_distinct_left_hands(gems: list[str]) -> None:
    load = dict(Counter(gems))
    options = split_options(load)
    size = (len(gems) + 1) // 2
    assert len(options) == len(set(options)) <= 10
    for hand in options:
        assert len(hand) == size and not Counter(hand) - Counter(gems)
        assert list(hand) == sorted(hand, key=board.GEM_KINDS.index)
    assert tuple(auto_split(load)) in options


@given(
    st.integers(min_value=0, max_value=10_000), st.lists(st.integers(min_value=0, max_value=5000), max_size=4)
)
@settings(deadline=None, max_examples=40)
def test_undo_restores_the_action_phase(seed: int, picks: list[int]) -> None:
    state = DEFINITION.new_game(2 + seed % 3, {}, seed)
    assert isinstance(state, OffTheRailsState)
    snapshots = []
    for pick in picks:
        legal = [m for m in state.legal_moves(0) if str(m) not in ("end", "undo")]
        if not legal:
            break
        snapshots.append(
            json.dumps([state.tiles, state.tile_supply, [c.to_json() for c in state.carts[0].values()]])
        )
        state.apply(0, legal[pick % len(legal)])
    while snapshots:
        state.apply(0, "undo")
        now = json.dumps([state.tiles, state.tile_supply, [c.to_json() for c in state.carts[0].values()]])
        assert now == snapshots.pop()
    assert state.actions_used == 0


def test_shortcuts_are_legal_lays_ahead_of_ones_carts_and_speed_changes():
    """What the turn panel offers in one click: only legal moves, and only in the action phase."""
    import random

    rng = random.Random(4)
    for seed in range(3):
        state = DEFINITION.new_game(2, {"game_length": 13}, seed)
        for _ in range(400):
            if state.is_over():
                break
            seat = min(state.to_act())
            legal = [str(m) for m in state.legal_moves(seat)]
            shortcuts = [str(m) for m in state.shortcuts(seat)]
            assert set(shortcuts) <= set(legal) and len(shortcuts) == len(set(shortcuts))
            assert all(m.split()[0] in ("lay", "speed", "upgrade", "cart") for m in shortcuts)
            if state.phase != "action":
                assert shortcuts == []
            carts = {c.square for c in state.carts[seat].values() if c.where == "board"}
            for move in shortcuts:
                if move.startswith("lay"):  # an empty square next to the seat's cart or to track
                    square = move.split()[1]
                    near = {board.NEIGHBOUR[(square, e)] for e in board.EDGES}
                    assert square not in state.tiles and near & (carts | set(state.tiles)), move
            state.apply(seat, rng.choice(legal))
