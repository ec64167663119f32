"""Blunders of issue 27 stay fixed at both AI levels: positions rebuilt from the move logs of seeded games
played by main's normal AI before the fix (the logs stay valid whatever the AI plays later)."""

from __future__ import annotations

import pytest

from rules import registry
from rules.engine import GameState, ai_move, replay
from rules.santa_fe.moves import Pass
from rules.santa_fe.state import SantaFeState
from rules.trans_europa.state import TransEuropaState
from rules.ttr_cards.cards import TICKETS
from rules.ttr_cards.moves import Complete
from rules.ttr_cards.scoring import best_completion
from rules.ttr_cards.state import TTRCardsState

LEVELS = ("normal", "hard")

TTR_SEED_3_MOVES = (
    "0:keep 15 30 37 46;1:keep 12 13 19 44;0:take loco;1:yard blue blue loco loco;0:take red;0:take red;"
    "1:take white;1:take orange;0:yard red red red loco loco;1:take loco;0:take black;0:take black;"
    "1:draw deck;1:draw deck;0:yard black black black;1:draw deck;1:draw deck;0:take green;0:take orange;"
    "1:draw deck;1:draw deck;0:take green;0:take green;1:take white;1:take red;0:yard green green green;"
    "1:yard white white white loco;0:take loco;1:take blue;1:take orange;0:take red;0:take purple;"
    "1:yard blue blue blue;0:take purple;0:take purple;1:tickets;1:keep 39;0:take white;0:draw deck;"
    "1:draw deck;1:draw deck;0:draw deck;0:draw deck;1:yard red red red;0:draw deck;0:draw deck;1:draw deck;"
    "1:draw deck;0:yard orange orange loco loco;1:yard orange orange orange orange orange;0:draw deck;"
    "0:draw deck;1:tickets;1:keep 6 27;0:draw deck;0:draw deck;1:take green;1:take green;"
    "0:yard red red red loco;1:yard green green green;0:tickets;0:keep 42;1:take white;1:take white;"
    "0:yard purple purple purple purple purple purple;1:take loco;0:draw deck;0:draw deck;1:draw deck;"
    "1:draw deck;0:yard white white loco loco;1:tickets;1:keep 23;0:tickets;0:keep 7 26;"
    "1:yard purple purple purple loco;0:take green;0:draw deck;1:yard white white white;0:take yellow;"
    "0:take blue;1:tickets;1:keep 40;0:take red;0:take yellow;1:take yellow;1:draw deck;0:take loco;"
    "1:draw deck;1:draw deck;0:take green;0:take orange;1:yard yellow yellow yellow loco;"
    "0:yard green green green loco;1:take loco;0:yard yellow yellow yellow yellow;1:draw deck;1:draw deck;"
    "0:draw deck;0:draw deck;1:take black;1:take black;0:yard orange loco;1:yard orange loco loco;"
    "0:take white;0:draw deck;1:take yellow;1:take black;0:yard blue red white;1:take yellow;"
    "0:yard blue blue blue blue;1:yard yellow yellow"
)

TE_SEED_5_MOVES = (
    "1:start h22;0:start j4;1:lay h22 i23;1:lay g21 h22;0:lay bilbao j4;0:lay j4 k5;1:lay i23 j24;"
    "1:lay j24 k25;0:lay k5 k7;0:lay k7 marseille;1:lay k25 bucuresti;1:lay j28 bucuresti;"
    "0:lay marseille k11;0:lay k11 firenze;1:lay f20 g21;1:lay j28 odessa;0:lay j14 firenze;0:lay j14 j16;"
    "1:lay e19 f20;1:lay e17 e19;0:lay wien j16;1:lay e17 berlin;1:lay berlin g15;0:lay h16 wien;"
    "0:lay g15 h16;1:lay k3 k5;1:lay madrid k3;0:lay i31 odessa;0:lay h30 i31;1:lay k25 sofia;0:lay e15 e17;"
    "0:lay d14 e15;1:lay d14 d16;1:lay malmo d16;0:lay c13 d14;0:lay b12 c13;1:lay b18 malmo;"
    "1:lay stockholm b18;0:lay a11 b12;0:lay kyiv h30;1:lay zurich j14;0:start i7;1:start malmo;0:lay i7 i9;"
    "0:lay i9 i11;1:lay malmo d16;1:lay b18 malmo;0:lay i9 j8;0:lay i11 zurich;1:lay stockholm b18;"
    "1:lay d14 d16;0:lay zurich i15;0:lay i15 wien;1:lay d14 e15;1:lay e15 berlin;0:lay wien i19;"
    "0:lay j8 marseille;1:lay berlin g17;1:lay g17 g19;0:lay h6 i7;0:lay g5 h6;1:lay g19 g21;1:lay g21 g23;"
    "0:lay h16 i15;0:lay f4 g5;1:lay g23 g25;1:lay g25 h26;0:lay g17 h16;0:lay f26 g25;1:lay marseille k11;"
    "1:lay k11 firenze;0:lay minsk f26;0:lay d28 minsk;1:lay h26 i27;1:lay firenze l14;0:lay c29 d28;"
    "0:lay b28 c29;1:lay l14 roma;1:lay k7 marseille"
)

SF_SEED_32_MOVES = (
    "0:decline engineer;1:decline engineer;0:play albuquerque;1:play grand-junction;0:lay gn 1 minneapolis;"
    "1:lay kp 1 hays;0:lay sf 1 kansas-city;1:lay up 1 omaha;0:draw engineer;1:draw engineer;0:play double;"
    "1:play double;1:lay kp 1 hays;1:lay kp 1 hays;0:lay kp 1 denver;0:lay kp 1 denver;"
    "0:exchange boise los-angeles portland;1:exchange boise fresno;1:lay kp 1 denver;1:lay kp 1 denver;"
    "0:lay kp 1 cheyenne;0:lay sp 1 dallas;1:draw double;0:draw double;0:play double;1:play double;"
    "0:lay sp 1 dallas;0:lay sf 1 kansas-city;1:lay gn 1 minneapolis;1:lay gn 1 minneapolis;"
    "0:exchange las-vegas;1:exchange seattle;0:lay sp 1 dallas;0:lay sp 1 dallas;1:lay up 1 omaha;"
    "1:lay sf 1 kansas-city;0:draw double;1:draw double;0:play salt-lake-city;1:play double;1:lay up 1 omaha;"
    "1:lay up 1 omaha;0:lay sp 1 amarillo;1:exchange none;1:lay sp 1 amarillo;1:lay sp 1 amarillo;"
    "0:lay sp 1 albuquerque;1:draw double;0:draw city;0:play billings;1:play grand-junction;"
    "0:lay up 1 north-platte;1:lay sf 1 kansas-city;0:lay sf 1 omaha;1:lay sf 1 omaha;0:draw city;"
    "1:draw city;0:play double;1:play santa-fe;1:pass;0:lay sp 1 albuquerque;0:lay sp 1 albuquerque;"
    "0:exchange bakersfield san-diego san-francisco;1:lay sp 1 santa-fe;0:lay gn 1 fargo;0:lay gn 1 fargo;"
    "1:draw city;0:draw double;0:play billings;1:play amarillo;0:lay sf 1 north-platte;"
    "1:lay kp 1 salt-lake-city;0:lay kp 1 salt-lake-city;1:pass;0:draw city;1:draw city;0:play double;"
    "1:play double;1:lay up 1 north-platte;1:lay up 1 north-platte;0:lay gn 1 bismarck;0:lay gn 1 bismarck;"
    "0:exchange san-diego seattle spokane;1:exchange santa-barbara;1:lay up 1 denver;1:lay up 1 denver;"
    "0:lay up 1 denver;0:lay up 1 cheyenne;1:draw double;0:draw double;0:play denver;1:play bismarck;"
    "0:lay gn 1 billings;1:lay up 1 north-platte;0:lay gn 1 billings;1:lay up 1 north-platte;0:draw city;"
    "1:draw city;0:play cheyenne;1:play double;1:lay up 1 north-platte;1:lay sf 1 north-platte;"
    "0:lay sf 1 north-platte;1:exchange bakersfield yuma"
)


def _moves(log: str) -> list[tuple[int, str]]:
    return [(int(seat), text) for seat, text in (entry.split(":", 1) for entry in log.split(";"))]


def _turn(state: GameState, seat: int, level: str) -> list[str]:
    """Let `level` play `seat` as long as it is that seat's decision (one turn, or one choice phase)."""
    player = registry.get(state.key).ai(level)
    played = []
    while seat in state.to_act() and not state.is_over():
        move = ai_move(state, seat, player)
        played.append(str(move))
        state.apply(seat, move)
    return played


# Ticket to Ride, 2 players, seed 3, `completion=choose`: at final scoring seat 0 holds tickets 7, 15, 26,
# 30, 37, 42 and 46. Main's normal picked the most valuable ticket first (46, 22 points) and ended with
# 81 points of completed tickets where its track stack completes 90.
@pytest.mark.parametrize("level", LEVELS)
def test_ttr_choose_completes_the_best_set_the_track_stack_allows(level: str) -> None:
    state = replay(registry.get("ttr_cards"), 2, {"completion": "choose"}, 3, _moves(TTR_SEED_3_MOVES))
    assert isinstance(state, TTRCardsState) and state.phase == "choose" and state.to_act() == {0}
    best = best_completion(state.tickets[0], state.tracks[0])
    assert sum(TICKETS[t].points for t in best) == 90
    _turn(state, 0, level)
    completed = state.scorings[-1]["seats"][0]["completed"] if state.is_over() else sorted(state.picks[0])
    assert sum(TICKETS[t].points for t in completed) == 90


def test_ttr_choose_takes_over_from_a_pick_outside_the_best_set() -> None:
    """A seat the AI takes over (timeout) after its player picked ticket 30, outside the best set."""
    state = replay(registry.get("ttr_cards"), 2, {"completion": "choose"}, 3, _moves(TTR_SEED_3_MOVES))
    assert isinstance(state, TTRCardsState)
    state.apply(0, Complete(30))
    assert 30 not in best_completion(state.tickets[0], state.tracks[0])
    played = _turn(state, 0, "normal")
    assert played[0] == "undo"
    completed = state.scorings[-1]["seats"][0]["completed"] if state.is_over() else sorted(state.picks[0])
    assert sum(TICKETS[t].points for t in completed) == 90


# Trans Europa, 2 players, seed 5: seat 0 begins a turn 2 tracks short of a double line that shortens its
# path by 2. Main's normal and hard laid the single line st-petersburg–b28 and ended the turn 1 nearer,
# as no other single line shortened its path after it.
@pytest.mark.parametrize("level", LEVELS)
def test_te_lays_the_double_line_rather_than_one_single_line(level: str) -> None:
    state = replay(registry.get("trans_europa"), 2, {}, 5, _moves(TE_SEED_5_MOVES))
    assert isinstance(state, TransEuropaState) and state.active_seat == 0 and state.step == 1
    before = state.penalty(0)
    played = _turn(state, 0, level)
    assert state.penalty(0) == before - 2, played


# Santa Fe advanced, 2 players, seed 32: seat 1 played a double-turn card; a free tile on GN line 1 walks up
# to Billings, and its second placement finishes the lane for the doubled bonus ($4). Main's normal passed.
@pytest.mark.parametrize("level", LEVELS)
def test_sf_double_turn_walks_up_to_a_bonus_and_takes_it(level: str) -> None:
    state = replay(registry.get("santa_fe"), 2, {"advanced": True}, 32, _moves(SF_SEED_32_MOVES))
    assert isinstance(state, SantaFeState) and state.to_act() == {1} and state.placements_left == 2
    money = state.money[1]
    played = _turn(state, 1, level)
    assert str(Pass()) not in played[:2]
    assert state.money[1] >= money + 4, played
