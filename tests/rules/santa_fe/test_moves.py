"""Santa Fe: refused moves and their reasons, lenient notation, simultaneity, forced moves, properties."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import IllegalMove, RandomAI, ai_move, play_out
from rules.santa_fe import DEFINITION
from rules.santa_fe.ai import GreedyAI
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.moves import Exchange, Lay, Pass, Play
from rules.santa_fe.state import SantaFeState
from tests.rules.santa_fe.test_examples import (
    ANN,
    BOB,
    CID,
    at_lay,
    fresh,
    public_texts,
    reason,
    texts,
    track,
)


def test_data_invariants() -> None:
    cities = BOARD.cities.values()
    assert len(BOARD.cities) == 42 and sum(c.start for c in cities) == 4
    assert len(BOARD.city_cards) == 66
    assert sorted(BOARD.sections) == list(range(1, 71))
    assert sum(s.double for s in BOARD.sections.values()) == 11
    assert sum(s.spaces for s in BOARD.sections.values()) == 195
    assert sum(r.tiles for r in BOARD.railroads.values()) == 128
    assert {rr: (r.start_city, r.bonus_city) for rr, r in BOARD.railroads.items()} == {
        "sf": ("chicago", "houston"),
        "sp": ("new-orleans", "los-angeles"),
        "gn": ("milwaukee", "seattle"),
        "up": ("chicago", "salt-lake-city"),
        "kp": ("kansas-city", "denver"),
    }


# --------------------------------------------------------------------------- refusals


def test_refusals_in_choose_step() -> None:
    state = fresh(
        hands={ANN: ["denver", "fresno", "omaha", "seattle"], BOB: ["reno", "yuma", "boise", "tucson"]}
    )
    state.branch[BOB] = "kp"
    state.dt[ANN] = 0
    assert reason(state, ANN, "play helena") == "You have no Helena card."
    assert reason(state, ANN, "play double") == "You have no double-turn card."
    assert reason(state, ANN, "play denver branch kp") == "You hold no KP branch card."
    assert reason(state, BOB, "play reno") == "You must play your branch card this round."
    assert set(texts(state, BOB)) == {
        "play boise branch kp",
        "play double branch kp",
        "play reno branch kp",
        "play tucson branch kp",
        "play yuma branch kp",
    }
    assert reason(state, ANN, "lay sf 1 omaha") == "That move is not allowed now (step: choose cards)."
    assert reason(state, ANN, "draw city") == "That move is not allowed now (step: choose cards)."
    state.apply(ANN, "play denver")
    assert reason(state, ANN, "play fresno") == "It is not your turn."


def test_refusals_when_laying() -> None:
    state = fresh()
    track(state, "sf", 1, ["chicago", "kansas-city", "wichita"], last=1)
    at_lay(state, ANN)
    assert reason(state, ANN, "lay sf 1 hays") == "SF line 1 must continue toward Wichita."
    assert reason(state, ANN, "lay up 2 omaha") == "UP has no line 2."
    assert reason(state, ANN, "lay up 1 denver") == "There is no section from Chicago to Denver."
    assert (
        reason(state, ANN, "branch sf kansas-city hays") == "You have not played a SF branch card this round."
    )
    assert (
        reason(state, ANN, "pass")
        == "You must lay a tile while you can; passing is only allowed in the advanced game."
    )
    state.round_branch[ANN] = "sf"
    assert reason(state, ANN, "branch sf denver hays") == "SF is not connected to Denver."
    state.supply["up"] = 0
    assert reason(state, ANN, "lay up 1 omaha") == "UP has no tiles left."
    assert reason(state, BOB, "lay kp 1 omaha") == "It is not your turn."


def test_three_lines_at_most() -> None:
    state = fresh()
    track(state, "up", 1, ["chicago", "omaha"])
    state.lines["up"] += [{"at": "chicago"}, {"at": "omaha"}]
    at_lay(state, ANN)
    state.round_branch[ANN] = "up"
    assert reason(state, ANN, "branch up omaha north-platte") == "UP already has 3 lines."


def test_refusals_in_exchange_and_draw() -> None:
    state = fresh(hands={ANN: ["fresno", "helena"]})
    state.phase = "exchange"
    state.round_dt[ANN] = True
    state.deck = state.deck[:1]
    assert reason(state, ANN, "exchange denver") == "You have no Denver card to exchange."
    assert reason(state, ANN, "exchange fresno helena") == "The deck holds only 1 card."
    assert texts(state, ANN) == ["exchange fresno", "exchange helena", "exchange none"]
    state = fresh()
    state.phase, state.turn = "draw", 0
    state.cities[ANN] = state.cities[ANN][:2]
    state.money[ANN] = 0
    state.deck = []
    assert reason(state, ANN, "draw city") == "The deck is empty."
    assert reason(state, ANN, "draw branch gn") == "You need $1 for a branch card; you have $0."
    assert reason(state, ANN, "draw engineer") == "Engineers are only used in the advanced game."
    state.dt_pile = 0
    assert reason(state, ANN, "draw double") == "The double-turn pile is empty."


def test_refusals_when_buying() -> None:
    state = fresh(tile_buying=True)
    state.phase, state.turn = "buy", 0
    state.supply["kp"] = 0
    assert reason(state, ANN, "buy tile kp") == "KP has no tiles left."
    state.money[ANN] = 0
    assert reason(state, ANN, "buy tile sf") == "You need $1 to buy a tile; you have $0."


def test_unreadable_moves() -> None:
    state = fresh()
    for text in ("", "fly to denver", "play", "lay zz 1 omaha", "play atlantis", "draw"):
        with pytest.raises(IllegalMove):
            state.apply(ANN, text)


# --------------------------------------------------------------------------- notation


def test_lenient_notation() -> None:
    state = fresh()
    track(state, "sf", 1, ["chicago", "kansas-city", "wichita"], last=1)
    assert str(state.parse_move("Lay SF 1 Wichita")) == "lay sf 1 wichita"
    assert str(state.parse_move("lay sf wich")) == "lay sf 1 wichita"  # line and name shortened
    assert str(state.parse_move("play Salt Lake City")) == "play salt-lake-city"
    assert str(state.parse_move("play dt branch KP")) == "play double branch kp"
    assert str(state.parse_move("exchange helena fresno fresno")) == "exchange fresno fresno helena"
    assert str(state.parse_move("draw dt")) == "draw double"
    assert str(state.parse_move("branch up omaha north platte")) == "branch up omaha north-platte"
    assert str(state.parse_move("buy  tile  sp")) == "buy tile sp"


def test_ambiguous_city_prefix_names_the_options() -> None:
    state = fresh()
    with pytest.raises(IllegalMove) as caught:
        state.parse_move("play santa")
    assert str(caught.value.reason) == "Which city: santa-barbara or santa-fe?"


def test_line_must_be_named_when_two_lines_fit() -> None:
    state = fresh()
    state.lines["sf"].append({"at": "chicago"})
    with pytest.raises(IllegalMove) as caught:
        state.parse_move("lay sf omaha")
    assert str(caught.value.reason) == "Say which SF line: lay sf 1 omaha or lay sf 2 omaha."


# --------------------------------------------------------------------------- simultaneous choice


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 5), data=st.data())
def test_reveal_does_not_depend_on_arrival_order(seed: int, n: int, data: st.DataObject) -> None:
    state = DEFINITION.new_game(n, {}, seed)
    picks = {s: data.draw(st.sampled_from(state.legal_moves(s))) for s in sorted(state.to_act())}
    outcomes = []
    for order in itertools.islice(itertools.permutations(sorted(picks)), 6):
        copy = state.copy()
        for seat in order:
            copy.apply(seat, picks[seat])
        data_ = copy.to_json()
        data_.pop("log")
        outcomes.append(data_)
    assert all(o == outcomes[0] for o in outcomes)


def test_choices_hidden_until_reveal() -> None:
    state = fresh(
        hands={
            ANN: ["denver", "fresno", "omaha", "seattle"],
            BOB: ["reno", "yuma", "boise", "tucson"],
            CID: ["fargo", "hays", "dallas", "spokane"],
        }
    )
    events = state.apply(BOB, "play double")
    assert public_texts(events, ANN) == ["Bob has chosen."]
    assert state.view(None)["seats"][BOB]["hand_dt"] == 1  # counts do not move before the reveal
    assert "double" not in json.dumps(state.view(ANN)["seats"][BOB])
    state.apply(ANN, "play seattle")
    events = state.apply(CID, "play fargo")
    assert (
        "Round 2 reveal: Ann plays Seattle; Bob plays a double-turn card; Cid plays Fargo."
        in public_texts(events)
    )
    assert state.view(None)["seats"][BOB]["play"] == {
        "city": None,
        "double": True,
        "branch": None,
        "branch_used": False,
    }


def test_lone_branch_card_is_lost() -> None:
    """D8: a seat with only a branch card plays nothing and the card leaves the game."""
    state = fresh()
    state.cities[CID] = []
    state.dt[CID] = 0
    state.branch[CID] = "gn"
    assert CID not in state.to_act()
    state.apply(ANN, state.legal_moves(ANN)[0])
    events = state.apply(BOB, state.legal_moves(BOB)[0])
    assert state.branch[CID] is None and state.branch_removed == 1
    assert any("Cid plays nothing (branch card GN discarded)" in t for t in public_texts(events))


# --------------------------------------------------------------------------- forced moves and the end


def test_forced_exchange_when_deck_empty() -> None:
    state = fresh(hands={ANN: ["el-paso", "fresno", "helena", "seattle"]})
    state.apply(ANN, "play double")
    state.apply(BOB, state.legal_moves(BOB)[0])
    state.apply(CID, state.legal_moves(CID)[0])
    state.deck = []
    while state.phase == "lay1":
        events = state.apply(state.current(), state.legal_moves(state.current())[0])
    assert "Ann exchanges no cards. (automatic)" in public_texts(events)
    assert state.phase == "lay2"


def test_last_tile_ends_game() -> None:
    state = fresh()
    state.supply = {"sf": 1, "sp": 0, "gn": 0, "up": 0, "kp": 0}
    at_lay(state, ANN)
    events = state.apply(ANN, "lay sf 1 omaha")
    assert state.is_over() and state.ended_by == "E1"
    assert "Game over: The last track tile has been laid." in public_texts(events)
    assert state.legal_moves(ANN) == [] and state.to_act() == frozenset()
    with pytest.raises(IllegalMove):
        state.apply(BOB, "lay sf 1 omaha")


def test_timeout_moves() -> None:
    state = fresh(advanced=True)
    at_lay(state, ANN)
    assert state.timeout_move(ANN) == Pass()
    state = fresh()
    assert state.timeout_move(ANN) is None  # a card must be chosen
    state.phase = "exchange"
    state.round_dt[ANN] = True
    assert state.timeout_move(ANN) == Exchange(())


def test_draw_city_is_private() -> None:
    state = fresh()
    state.phase, state.turn = "draw", 0
    state.cities[ANN] = state.cities[ANN][:3]
    top = state.deck[0]
    events = state.apply(ANN, "draw city")
    assert public_texts(events, BOB)[0] == "Ann draws a city card."
    assert not any(BOARD.name(top) in t for t in public_texts(events, BOB))
    assert f"You drew {BOARD.name(top)}." in public_texts(events, ANN)


def test_first_connection_only_for_valued_cities() -> None:
    """D13: reaching a start city pays nothing."""
    state = fresh()
    track(state, "kp", 1, ["kansas-city", "chicago"], last=3)
    at_lay(state, ANN)
    money = state.money[ANN]
    state.apply(ANN, "lay kp 1 chicago")
    assert state.money[ANN] == money and "chicago" in state.connected["kp"]


# --------------------------------------------------------------------------- properties


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    n=st.integers(2, 5),
    advanced=st.booleans(),
    buying=st.booleans(),
    steps=st.integers(1, 120),
)
def test_random_play_refuses_without_trace(
    seed: int, n: int, advanced: bool, buying: bool, steps: int
) -> None:
    state = DEFINITION.new_game(n, {"advanced": advanced, "tile_buying": buying}, seed)
    assert isinstance(state, SantaFeState)
    rng = random.Random(seed)
    junk = [
        "pass",
        "play double",
        "draw engineer",
        "lay sf 1 omaha",
        "branch kp kansas-city omaha",
        "exchange none",
        "buy tile sf",
        "draw branch gn",
        "play denver",
    ]
    for _ in range(steps):
        if state.is_over():
            break
        seat = rng.choice(sorted(state.to_act()))
        legal = {str(m) for m in state.legal_moves(seat)}
        for text in junk:
            target = rng.randrange(n)
            if target in state.to_act() and text in {str(m) for m in state.legal_moves(target)}:
                continue
            before = state.to_json()
            with pytest.raises(IllegalMove) as caught:
                state.apply(target, text)
            assert str(caught.value.reason) and "\n" not in str(caught.value.reason)
            assert state.to_json() == before
        move = ai_move(state, seat, RandomAI())
        assert str(move) in legal
        state.apply(seat, move)
        assert state.money == [m for m in state.money if m >= 0]


def test_greedy_beats_random() -> None:
    wins = 0
    games = 24
    for index in range(games):
        n = 2 + index % 4
        options = [{}, {"advanced": True}, {"tile_buying": True}][index % 3]
        greedy_seat = index % n
        state = DEFINITION.new_game(n, options, 70_000 + index)
        play_out(state, {s: GreedyAI() if s == greedy_seat else RandomAI() for s in range(n)})
        result = state.result()
        assert result is not None
        wins += result.rank_of(greedy_seat) == 1
    assert wins >= games * 0.75


def test_lay_move_notation_round_trip() -> None:
    state = fresh()
    for rr in RAILROADS:
        move = Lay(rr, 1, BOARD.railroads[rr].bonus_city)
        assert state.parse_move(str(move)) == move
    assert state.parse_move("play omaha branch up") == Play("omaha", "up")
