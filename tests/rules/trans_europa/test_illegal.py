"""Trans Europa: illegal moves are refused with the spec's reason and leave the state unchanged."""

from __future__ import annotations

from rules.trans_europa import DEFINITION
from tests.rules.trans_europa.fixtures import e7, names, position, refused


def test_marker_phase_refusals() -> None:
    state = DEFINITION.new_game(3, {"first_player": "seat0"}, 2)
    refused(state, 1, "start paris", "It is not your turn.")
    refused(state, 0, "lay paris g11", "Place your start marker first.")
    refused(state, 0, "end", "Place your start marker first.")
    refused(state, 0, "start a1", "Unknown junction 'a1'.")
    refused(state, 0, "start", "Unknown move 'start'; use start <junction>, lay <junction> <junction>, "
                               "vex <junction> <junction> or end.")
    refused(state, 0, "fly paris", "Unknown move 'fly paris'; use start <junction>, lay <junction> <junction>, "
                                   "vex <junction> <junction> or end.")
    state.apply(0, "start g13")
    refused(state, 1, "START  G13", "A start marker already stands on g13.")


def test_building_refusals() -> None:
    state = e7()
    refused(state, 1, "lay wien i19", "It is not your turn.")
    refused(state, 0, "start a5", "All start markers are placed; lay a track.")
    refused(state, 0, "end", "You must lay at least one track.")
    refused(state, 0, "pass", "You must lay at least one track.")
    refused(state, 0, "lay zurich i15", "Zürich–i15 already has a track.")
    refused(state, 0, "lay h12 g11", "g11–h12 already has a track.")
    refused(state, 0, "lay madrid k3", "That line does not touch your network.")
    refused(state, 0, "lay paris wien", "paris and wien are not neighbours.")
    refused(state, 0, "lay zurich zurich", "zurich and zurich are not neighbours.")
    refused(state, 0, "lay xx9 paris", "Unknown junction 'xx9'.")
    refused(state, 0, "vex wien i19", "The coloured-track variant is not in use.")
    state.apply(0, "lay a17 stockholm")
    refused(state, 0, "lay zurich j14", "A double line needs a whole turn; you have already laid a track.")
    state.apply(0, "lay i11 zurich")
    # A third track: the turn has passed to Bob.
    refused(state, 0, "lay wien i19", "It is not your turn.")
    assert state.to_act() == frozenset({1})


def test_supply_and_coloured_refusals() -> None:
    empty = e7(black_left=0)
    refused(empty, 0, "lay wien i19", "No black tracks are left.")
    vex = e7(options={"vexation": True}, coloured_left=[0, 3, 3])
    refused(vex, 0, "vex wien i19", "You have no coloured tracks left.")
    assert "vex wien i19" not in [str(m) for m in vex.legal_moves(0)]
    assert "lay wien i19" in [str(m) for m in vex.legal_moves(0)]


def test_game_over_refusal() -> None:
    state = e7(scores=[1, 1, 1])
    state.apply(0, "lay wien i19")
    state.apply(0, "end")
    assert state.is_over()
    refused(state, 0, "lay a17 stockholm", "The game is over.")
    assert state.legal_moves(0) == []


def test_forced_end_when_no_single_line_is_left() -> None:
    """D22: after a first single track with no single line left to lay, `end` is applied itself.

    The pocket {g1, g3, h2, h4} leaves only by double lines; all its single lines but one are built.
    """
    state = position(2, hands={0: "madrid amsterdam oslo minsk roma", 1: "london zurich stockholm kyiv sofia"},
                     markers={0: "g1", 1: "paris"}, paths=["g1 g3 h2 g1", "h2 h4"])
    assert [str(m) for m in state.legal_moves(0)] == sorted([
        "lay brest g1", "lay brest g3", "lay f4 g3", "lay g3 g5", "lay g3 h4", "lay g5 h4", "lay h2 i1",
        "lay h2 bilbao", "lay h4 h6", "lay h4 bilbao", "lay h4 i5"])
    moves_before = state.moves_applied
    events = state.apply(0, "lay g3 h4")
    assert [names(e.text) for e in events][-1] == "Ann cannot lay a second track; the turn ends."
    assert state.to_act() == frozenset({1}) and state.step == 1
    assert state.moves_applied == moves_before + 1
    assert state.black_left == 83 - 5


def test_forced_single_legal_move() -> None:
    """D22: a seat whose only legal move is one track gets it laid automatically, then plays step 2."""
    state = position(2, hands={0: "london amsterdam oslo minsk roma", 1: "dublin zurich stockholm kyiv sofia"},
                     markers={0: "madrid", 1: "paris"}, coloured=[(1, "j0 madrid j2"), (1, "madrid k3")],
                     coloured_left=[0, 0], active=1, step=2, options={"vexation": True})
    events = state.apply(1, "end")
    assert [names(e.text) for e in events][:2] == [
        "Ann has only one legal move: lay madrid l2.", "Ann lays a track Madrid–l2; 82 black tracks left."]
    assert state.to_act() == frozenset({0}) and state.step == 2
    assert [str(m) for m in state.legal_moves(0)] == ["end", "lay k3 l2", "lay l2 l4"]


def test_timeout_skips_only_the_second_track() -> None:
    state = e7()
    assert state.timeout_move(0) is None and state.timeout_move(1) is None
    state.apply(0, "lay a17 stockholm")
    assert str(state.timeout_move(0)) == "end"
    state.apply(0, state.timeout_move(0))
    assert state.to_act() == frozenset({1})
    assert DEFINITION.new_game(2, {}, 1).timeout_move(0) is None
