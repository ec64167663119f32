"""Trans Europa: the worked examples E1-E4 and E7-E14 of the spec, exactly."""

from __future__ import annotations

import json

import pytest

from rules.engine import IllegalMove
from rules.trans_europa import DEFINITION, board
from rules.trans_europa.state import TransEuropaState
from tests.rules.trans_europa.fixtures import E, J, e7, moves, names, position, refused

E12_HANDS = {
    0: "london zurich oslo minsk roma",
    1: "dublin wien stockholm kyiv firenze",
    2: "madrid amsterdam moskva odessa sofia",
}


def new(num_seats: int = 3, seed: int = 5, **options) -> TransEuropaState:
    state = DEFINITION.new_game(num_seats, {"first_player": "seat0", **options}, seed)
    assert isinstance(state, TransEuropaState)
    return state


def needs(state: TransEuropaState) -> list[int]:
    return [state.view(s)["tracks_needed"] for s in range(state.num_seats)]


# --------------------------------------------------------------------------- E1


@pytest.mark.parametrize(("players", "pile", "undealt"), [(2, 5, 3), (3, 5, 2), (4, 7, 3), (5, 7, 2), (6, 7, 1)])
def test_e1_setup_and_deal(players: int, pile: int, undealt: int) -> None:
    for vexation in (False, True):
        state = DEFINITION.new_game(players, {"vexation": vexation}, 11)
        assert all(len(p) == pile for p in state.piles.values())
        if players <= 3:
            in_play = {c for p in state.piles.values() for c in p}
            assert not in_play & set(board.REMOVED_FOR_2_3)
            assert set(board.REMOVED_FOR_2_3) == {"brest", "barcelona", "berlin", "paris", "helsinki", "malmo",
                                                   "riga", "kharkiv", "istanbul", "thessaloniki"}
        dealt = [c for hand in state.hands for c in hand]
        assert len(dealt) == len(set(dealt)) == 5 * players
        for hand in state.hands:
            assert [board.CITY_BY_ID[c].colour for c in hand] == list(board.COLOUR_KEYS)
        for colour, cards in state.piles.items():
            assert len([c for c in cards if c not in dealt]) == undealt, colour
        assert state.scores == [13] * players
        assert state.phase == "markers"
        assert state.to_act() == frozenset({state.start_seat})
        assert state.coloured_left == ([3] * players if vexation else [0] * players)


def test_e1_random_start_seat_varies() -> None:
    starts = {DEFINITION.new_game(4, {}, seed).start_seat for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert {DEFINITION.new_game(4, {"first_player": "seat0"}, seed).start_seat for seed in range(10)} == {0}


# --------------------------------------------------------------------------- E2-E4


def e2() -> TransEuropaState:
    state = new()
    state.hands = [E12_HANDS[s].split() for s in range(3)]
    assert len(state.legal_moves(0)) == 210
    assert all(str(m).startswith("start ") for m in state.legal_moves(0))
    assert str(state.parse_move("start g9")) == "start paris"
    state.apply(0, "start g9")
    assert len(state.legal_moves(1)) == 209
    refused(state, 1, "start paris", "A start marker already stands on Paris.")
    state.apply(1, "start zurich")
    state.apply(2, "start k3")
    return state


def test_e2_marker_phase() -> None:
    state = e2()
    assert state.phase == "building"
    assert state.to_act() == frozenset({0})
    assert state.step == 1
    assert state.black_left == 83
    assert state.view(None)["markers"] == {"0": "paris", "1": "zurich", "2": "k3"}


def e3() -> TransEuropaState:
    state = e2()
    assert moves(state, 0) == ["lay f10 paris", "lay f8 paris", "lay g7 paris", "lay paris g11",
                               "lay paris h10", "lay paris h8"]
    refused(state, 0, "end", "You must lay at least one track.")
    state.apply(0, "lay paris g11")
    assert state.black_left == 82 and state.step == 2
    assert moves(state, 0) == ["end", "lay f10 g11", "lay f10 paris", "lay f12 g11", "lay f8 paris",
                               "lay g11 g13", "lay g11 h10", "lay g11 h12", "lay g7 paris", "lay paris h10",
                               "lay paris h8"]
    state.apply(0, "lay g11 h12")
    return state


def test_e3_first_building_turn() -> None:
    state = e3()
    assert state.black_left == 81
    assert state.to_act() == frozenset({1}) and state.step == 1
    assert state.view(None)["last_tracks"] == [{"a": "paris", "b": "g11", "owner": None},
                                               {"a": "g11", "b": "h12", "owner": None}]


def test_e4_bob_moves_and_double_line() -> None:
    state = e3()
    assert moves(state, 1) == ["lay h12 zurich", "lay h14 zurich", "lay i11 zurich", "lay zurich i15",
                               "lay zurich j12", "lay zurich j14"]
    state.apply(1, "lay zurich j12")
    assert state.black_left == 80
    assert state.to_act() == frozenset({2}) and state.step == 1


def test_e4_joining() -> None:
    state = e3()
    state.apply(1, "lay h12 zurich")
    view = state.view(None)
    assert view["networks"]["0"] == view["networks"]["1"] == sorted(["paris", "g11", "h12", "zurich"])
    legal = moves(state, 1)
    assert len(legal) == 17 and "end" in legal and "lay g7 paris" in legal
    assert all(board.EDGES[m.edge].cost == 1 for m in state.legal_moves(1) if str(m) != "end")
    refused(state, 1, "lay zurich j14", "A double line needs a whole turn; you have already laid a track.")
    assert needs(state) == [23, 26, 28]


# --------------------------------------------------------------------------- E7


def test_e7_position() -> None:
    state = e7()
    assert state.black_left == 47
    assert needs(state) == [2, 8, 1]
    assert state.completed == []
    nets = state.view(None)["networks"]
    assert nets["0"] == nets["1"] and "f10" in nets["0"]
    assert "i25" in nets["2"] and "zurich" not in nets["2"]


def test_e7a_second_track_after_completion() -> None:
    state = e7()
    events = state.apply(0, "lay wien i19")
    assert state.completed == [2]
    texts = [names(e.text) for e in events if e.seats is None]
    assert any("Cid" in t and "London, Wien, Moskva, Odessa, Sofia" in t for t in texts)
    assert [c["id"] for c in state.view(None)["completed"][0]["cities"]] == E_HANDS_CID
    assert state.step == 2 and "end" in moves(state, 0)
    state.apply(0, "lay a17 stockholm")
    last = state.history[-1]
    assert last["penalties"] == {"0": 0, "1": 7, "2": 0}
    assert state.scores == [13, 6, 13]
    assert last["completed"] == [2, 0]
    assert len([t for t in last["tracks"] if t["owner"] is None]) == 83 - 45


E_HANDS_CID = ["london", "wien", "moskva", "odessa", "sofia"]


def test_e7b_end_after_completion() -> None:
    state = e7()
    state.apply(0, "lay wien i19")
    state.apply(0, "end")
    assert state.history[-1]["penalties"] == {"0": 1, "1": 7, "2": 0}
    assert state.scores == [12, 6, 13]


def test_e7c_two_complete_on_one_track() -> None:
    state = e7()
    state.apply(0, "lay a17 stockholm")
    assert state.completed == [] and state.step == 2
    state.apply(0, "lay wien i19")
    assert state.history[-1]["penalties"] == {"0": 0, "1": 7, "2": 0}
    assert state.scores == [13, 6, 13]


def test_e7d_completion_on_bobs_turn() -> None:
    state = e7(active=1)
    state.apply(1, "lay wien i19")
    assert state.completed == [2] and state.step == 2
    state.apply(1, "lay minsk e29")
    assert state.history[-1]["penalties"] == {"0": 1, "1": 6, "2": 0}


def test_e7e_completing_double_line_ends_round() -> None:
    paths = [
        "zurich h12 g11 f10 e9 london d6 e5 plymouth", "zurich i15 wien", "zurich j12 firenze l14 roma",
        "a17 oslo b14 c13 d12 amsterdam f10", "moskva d30 e29 f28 kyiv h28 i29 odessa j28 j26 k25 sofia",
        "i29 i27 i25 i23 budapest", "wien i19",
    ]
    state = e7(paths=paths)
    assert state.black_left == 47
    assert needs(state) == [3, 9, 2]
    assert board.EDGES[E("i19", "budapest")].cost == 2
    state.apply(0, "lay i19 budapest")
    assert state.round == 2
    assert state.history[-1]["penalties"] == {"0": 1, "1": 7, "2": 0}


# --------------------------------------------------------------------------- E8, E9


def test_e8_completion_needs_the_marker() -> None:
    from tests.rules.trans_europa.fixtures import E7_PATHS
    state = position(2, hands={0: "london zurich oslo kyiv roma", 1: "bilbao warszawa glasgow minsk tirana"},
                     markers={0: "madrid", 1: "i25"}, paths=[*E7_PATHS, "wien i19", "a17 stockholm"])
    assert state.black_left == 83 - 38
    assert not state.is_complete(0) and state.completed == []
    assert needs(state) == [6, 16]
    assert moves(state, 0) == ["lay j0 madrid", "lay j2 madrid", "lay madrid k3", "lay madrid l2"]
    # The six single lines of the spec join her marker: with them built, she needs nothing.
    zero, blocked = state.board_for(0)
    extra = frozenset(E(a, b) for a, b in [("madrid", "k3"), ("k3", "k5"), ("k5", "k7"), ("k7", "marseille"),
                                           ("marseille", "k11"), ("k11", "j12")])
    terms = tuple(sorted({J("madrid"), *state.hand_junctions(0)}))
    assert board.steiner_cost(terms, zero | extra, blocked) == 0


def test_e9a_supply_runs_out() -> None:
    state = e7(black_left=1)
    state.apply(0, "lay a17 stockholm")
    assert state.black_left == 83 and state.round == 2  # a new round started
    assert state.history[-1]["penalties"] == {"0": 1, "1": 8, "2": 1}
    assert state.scores == [12, 5, 12]


def test_e9b_supply_out_beats_second_track_exception() -> None:
    state = e7(black_left=1)
    state.apply(0, "lay wien i19")
    assert state.history[-1]["penalties"] == {"0": 1, "1": 7, "2": 0}
    assert state.history[-1]["completed"] == [2]


# --------------------------------------------------------------------------- E10


def test_e10_game_end_shared_rank() -> None:
    state = e7(scores=[4, 6, 4])
    state.apply(0, "lay wien i19")
    state.apply(0, "lay a17 stockholm")
    assert state.scores == [4, -1, 4]
    assert state.is_over() and state.to_act() == frozenset()
    result = state.result()
    assert result is not None
    assert [(r.seat, r.rank, r.score) for r in result.seats] == [(0, 1, 4), (2, 1, 4), (1, 3, -1)]
    for r in result.seats:
        assert sum(r.breakdown.values()) == r.score
    assert result.rank_of(1) == 3
    refused(state, 0, "end", "The game is over.")
    assert state.view(None)["result"]["seats"][0]["rank"] == 1


def test_e10_second_variant_ranks() -> None:
    state = e7(scores=[4, 6, 4])
    state.apply(0, "lay wien i19")
    state.apply(0, "end")
    assert state.scores == [3, -1, 4]
    result = state.result()
    assert result is not None
    assert [(r.seat, r.rank) for r in result.seats] == [(2, 1), (0, 2), (1, 3)]


def test_e10_next_round() -> None:
    state = e7(scores=[4, 8, 4], start_seat=0)
    old_hands = [list(h) for h in state.hands]
    state.apply(0, "lay wien i19")
    state.apply(0, "lay a17 stockholm")
    assert state.scores == [4, 1, 4]
    assert not state.is_over()
    assert state.round == 2 and state.start_seat == 1
    assert state.phase == "markers" and state.to_act() == frozenset({1})
    view = state.view(None)
    assert view["tracks"] == [] and view["markers"] == {} and state.black_left == 83
    assert all(len(h) == 5 for h in state.hands) and state.hands != old_hands
    assert view["last_round"]["round"] == 1 and view["last_round"]["scores_after"] == {"0": 4, "1": 1, "2": 4}


# --------------------------------------------------------------------------- E11


def test_e11_hidden_information() -> None:
    state = e7()
    public = state.view(None)
    assert "hand" not in public and "tracks_needed" not in public and public["completed"] == []
    ann = state.view(0)
    assert [(h["id"], h["connected"]) for h in ann["hand"]] == [
        ("plymouth", True), ("zurich", True), ("stockholm", False), ("kyiv", False), ("roma", True)]
    assert ann["tracks_needed"] == 2
    assert state.view(1)["tracks_needed"] == 8 and state.view(2)["tracks_needed"] == 1
    for seat in range(3):
        view = state.view(seat)
        assert [h["id"] for h in view["hand"]] == state.hands[seat]
        other = {c for s in range(3) if s != seat for c in state.hands[s]} - set(state.hands[seat])
        assert not {c["id"] for entry in view["completed"] for c in entry["cities"]} & other
    state.apply(0, "lay wien i19")
    public = state.view(None)
    assert [entry["seat"] for entry in public["completed"]] == [2]
    assert "hand" not in public
    state.apply(0, "lay a17 stockholm")
    hands = state.history[-1]["hands"]
    assert {s: [c["id"] for c in cards] for s, cards in hands.items()} == {
        "0": ["plymouth", "zurich", "stockholm", "kyiv", "roma"], "1": ["madrid", "amsterdam", "oslo", "minsk", "firenze"],
        "2": E_HANDS_CID}
    # Undealt cards are never shown: only dealt cities appear in any view or event.
    dealt = {c for hand in state.hands for c in hand} | {c for h in hands.values() for c in (x["id"] for x in h)}
    text = json.dumps(state.view(None))
    for city in board.CITIES:
        if city.id not in dealt:
            assert f'"id": "{city.id}"' not in text


def test_e11_hint_off() -> None:
    state = e7(options={"show_tracks_needed": False})
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert "tracks_needed" not in view and '"tracks_needed"' not in json.dumps(view)


def test_e11_view_without_the_hint_needs_no_steiner_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot measures a DM's news by the view without hints: the hint alone costs an exact
    Steiner tree (milliseconds per seat, issue 29), so that view must not compute it."""
    state = e7()
    full = {seat: state.view(seat) for seat in range(3)}

    def no_tree(*args: object, **kwargs: object) -> None:
        raise AssertionError("a Steiner tree was computed")

    monkeypatch.setattr(board, "steiner_tree", no_tree)
    for seat in range(3):
        bare = state.view_without_hints(seat)
        assert bare == {k: v for k, v in full[seat].items() if k != "tracks_needed"}


# --------------------------------------------------------------------------- E12, E13


def e12_start(refill: str = "game") -> TransEuropaState:
    state = position(3, hands=E12_HANDS, markers={0: "paris", 1: "zurich", 2: "k3"},
                     options={"vexation": True, "vexation_refill": refill}, scores=[99, 99, 99])
    assert needs(state) == [26, 26, 31]
    return state


def test_e12_vexation() -> None:
    state = e12_start()
    state.apply(0, "lay paris g11")
    state.apply(0, "lay g11 h12")
    assert needs(state) == [24, 26, 29]
    legal = moves(state, 1)
    lines = ["h12 zurich", "h14 zurich", "i11 zurich", "zurich i15", "zurich j12", "zurich j14"]
    assert legal == sorted([f"lay {x}" for x in lines] + [f"vex {x}" for x in lines])
    # Had the track been black, Ann would need 23 and Cid 28.
    black = state.copy()
    black.apply(1, "lay h12 zurich")
    assert [black.view(0)["tracks_needed"], black.view(2)["tracks_needed"]] == [23, 28]

    state.apply(1, "vex h12 zurich")
    assert state.coloured_left[1] == 2
    nets = state.view(None)["networks"]
    assert nets["0"] == sorted(["paris", "g11", "h12"])
    assert nets["1"] == sorted(["paris", "g11", "h12", "zurich"])
    assert needs(state) == [24, 26, 29]

    legal = moves(state, 1)
    assert len(legal) == 33 and legal[0] == "end"
    assert len([m for m in legal if m.startswith("lay")]) == 16
    assert {m[4:] for m in legal if m.startswith("lay")} == {m[4:] for m in legal if m.startswith("vex")}
    state.apply(1, "vex h12 h14")
    assert state.coloured_left[1] == 1
    assert state.view(None)["coloured_count"]["h12"] == 2
    assert needs(state) == [25, 25, 30]

    state.apply(2, "lay madrid k3")
    state.apply(2, "end")
    assert needs(state) == [25, 25, 29]

    legal = moves(state, 0)
    assert len(legal) == 21
    assert len([m for m in legal if m.startswith("lay")]) == 12
    assert len([m for m in legal if m.startswith("vex")]) == 9
    for line in ("g13 h12", "h10 h12", "h12 i11"):
        assert f"vex {line}" not in legal and f"lay {line}" in legal
    refused(state, 0, "vex h12 i11", "h12 already has 2 coloured tracks.")
    refused(state, 0, "lay zurich i15", "That line does not touch your network.")

    # Round end: Bob keeps his one remaining coloured track under refill "game".
    state.black_left = 1
    state.apply(0, "lay h12 i11")
    assert state.round == 2
    assert state.coloured_left == [3, 1, 3]
    assert state.view(None)["coloured_left"] == {"0": 3, "1": 1, "2": 3}


def test_e12_refill_round() -> None:
    state = e12_start("round")
    state.apply(0, "vex paris g11")
    state.apply(0, "end")
    assert state.coloured_left == [2, 3, 3]
    state.black_left = 1
    state.apply(1, "lay h12 zurich")
    assert state.round == 2 and state.coloured_left == [3, 3, 3]


def test_e13_no_blockade() -> None:
    state = position(3, hands={0: "madrid amsterdam oslo minsk roma", 1: "dublin wien stockholm kyiv firenze",
                               2: "london zurich moskva odessa sofia"},
                     markers={0: "paris", 1: "j2", 2: "k3"},
                     coloured=[(1, "j0 j2"), (1, "j2 madrid"), (1, "i1 j0"), (2, "madrid k3"), (2, "k3 l2")],
                     coloured_left=[3, 0, 1], active=2, options={"vexation": True})
    assert state.view(None)["coloured_count"] == {"i1": 1, "j0": 2, "j2": 2, "madrid": 2, "k3": 2, "l2": 1}
    assert state.penalty(0) == 29
    assert board.steiner_cost(tuple(sorted({J("paris"), *state.hand_junctions(0)}))) == 28
    refused(state, 2, "vex l2 l4", "That coloured track would cut Madrid off from Ann's start marker.")
    legal = moves(state, 2)
    assert "vex l2 l4" not in legal and "lay l2 l4" in legal


# --------------------------------------------------------------------------- E14


def test_e14_notation() -> None:
    state = e12_start()
    for text in ("lay g11 paris", "LAY g9  g11", "lay paris g11"):
        assert str(state.parse_move(text)) == "lay paris g11"
    with pytest.raises(IllegalMove) as info:
        state.parse_move("lay paris h12")
    assert str(info.value.reason) == "paris and h12 are not neighbours."
    with pytest.raises(IllegalMove) as info:
        state.parse_move("lay paris a1")
    assert str(info.value.reason) == "Unknown junction 'a1'."
    plain = e7()
    with pytest.raises(IllegalMove) as info:
        plain.parse_move("vex h12 zurich")
    assert str(info.value.reason) == "The coloured-track variant is not in use."
    refused(plain, 0, "vex h12 zurich", "The coloured-track variant is not in use.")
    for example in (e7(), e7(active=1), e12_start(), e2(), e3()):
        for seat in range(3):
            for m in example.legal_moves(seat):
                assert str(example.parse_move(str(m))) == str(m)


def test_views_and_json_do_not_alias_the_state() -> None:
    """What was handed out before a round-ending move does not change under the holder's feet."""
    state = e7(scores=[40, 40, 40])
    state.apply(0, "lay wien i19")
    handed = [state.view(None), state.view(1), state.to_json()]
    frozen = [json.dumps(x, sort_keys=True) for x in handed]
    state.apply(0, "end")
    assert state.round == 2 and len(state.history) == 1
    assert [json.dumps(x, sort_keys=True) for x in handed] == frozen
