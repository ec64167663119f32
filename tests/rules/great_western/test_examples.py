"""The worked examples of the Great Western Railway spec (section 14), exactly."""

from __future__ import annotations

import pytest

from rules.engine import IllegalMove, ai_move, name_seats, play_out
from rules.great_western import DEFINITION
from rules.great_western.ai import GreedyAI
from rules.great_western.board import CITIES, TRAINS, build_key, build_order
from rules.great_western.scoring import final_result
from tests.rules.great_western.fixtures import (
    NAMES,
    build_position,
    check_conservation,
    fresh,
    legal_texts,
    named,
    options_of,
    snapshot,
)

ANN, BOB, CID, DEE = 0, 1, 2, 3
EXAMPLE_2_DICE = {1: [5, 5, 1], 2: [6, 2, 3], 3: [4, 4, 4]}


# ---------------------------------------------------------------- 1. setup


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_1_setup(seats: int) -> None:
    state = DEFINITION.new_game(seats, {}, seed=7)
    view = state.view(None)
    for seat in view["seats"]:
        assert seat["cities"] == ["london"]
        assert (seat["available"], seat["unavailable"], seat["gold"], seat["off_board"]) == (10, 14, 0, 24)
        assert seat["city_count"] == 1 and seat["next_income"] == 2
    assert [t["in_play"] for t in view["trains"]] == [t <= seats for t in range(1, 5)]
    assert view["phase"] == "auction" and view["round"] == 1
    assert state.to_act() == frozenset({state.start_player})
    assert all(len(t["dice"]) == 3 for t in view["trains"] if t["in_play"])
    check_conservation(state)


def test_1_start_player_is_drawn_from_the_seed() -> None:
    starts = {DEFINITION.new_game(4, {}, seed).start_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert DEFINITION.new_game(3, {}, 5).start_player == DEFINITION.new_game(3, {}, 5).start_player


# ---------------------------------------------------------------- 2. loading and build order


def test_2_loading_and_build_order() -> None:
    state = fresh(3, EXAMPLE_2_DICE)
    t1, t2, t3 = (state.view(None)["trains"][i] for i in range(3))
    assert state.loads[0] == [2, 0, 0, 0, 0] and (t1["passengers"], t1["freight"]) == (2, 0)
    assert t1["key"] == [0, 0]
    assert (t2["passengers"], t2["freight"], t2["key"]) == (2, 1, [0, 1, 4])
    assert (t3["passengers"], t3["freight"], t3["key"]) == (3, 0, [4, 4, 4])
    assert state.order == [1, 2, 3]
    assert state.black_supply() == 4
    assert all(c["colour"] == "black" for t in (t1, t2, t3) for c in t["cars"])


def test_2_seed_variants() -> None:
    state = fresh(3, {1: [6, 6, 6], 2: [1, 1, 1], 3: [4, 4, 5]})
    assert state.loads[0] == [0, 0, 3, 0, 0]
    assert state.keys[0] == [2, 2, 2]
    assert state.loads[2] == [0, 0, 1, 0, 2]
    assert state.keys[2] == [2, 4, 4]


def test_2_loading_event_text() -> None:
    state = fresh(3, EXAMPLE_2_DICE)
    events = named(state._load({1: [5, 5, 1], 2: [1, 1, 1], 3: [6, 2, 3]}))
    assert events[0] == "Round 1 — t1 rolls 5 5 1: car 5 (P) ×2."
    assert events[1] == "t2 rolls 1 1 1: nothing."
    assert events[3] == "Build order: t1, t3, t2."


# ---------------------------------------------------------------- 3. build-order ties


def test_3_build_order_ties() -> None:
    def keys(dice: dict[int, list[int]]) -> dict[int, list[int]]:
        out = {}
        for train, rolled in dice.items():
            loads = [0] * 5
            for die in rolled:
                if die > 1:
                    loads[TRAINS[train - 1].position_of(die)] += 1
            out[train] = build_key(TRAINS[train - 1], loads)
        return out

    assert keys({1: [5, 1, 1], 2: [2, 6, 1]}) == {1: [0], 2: [0, 1]}
    assert build_order(keys({1: [5, 1, 1], 2: [2, 6, 1]})) == [2, 1]
    assert build_order(keys({1: [3, 1, 1], 2: [6, 1, 1]})) == [1, 2]
    assert build_order(keys({1: [1, 1, 1], 2: [1, 1, 1], 3: [2, 1, 1], 4: [1, 1, 1]})) == [3, 1, 2, 4]
    # The same through the engine's loading.
    assert fresh(4, {1: [1, 1, 1], 2: [1, 1, 1], 3: [2, 1, 1], 4: [1, 1, 1]}).order == [3, 1, 2, 4]
    assert fresh(2, {1: [5, 1, 1], 2: [2, 6, 1]}).order == [2, 1]


# ---------------------------------------------------------------- 4. auction


def auction_example_4():
    state = fresh(3, EXAMPLE_2_DICE)
    state.apply(ANN, "bid t3 2")
    assert state.available[ANN] == 8
    events = named(state.apply(BOB, "bid t3 3"))
    assert events == ["Bob bids 3 on t3; Ann's 2 cubes return."]
    assert state.available[BOB] == 7 and state.available[ANN] == 10 and not state.holds_bid(ANN)
    assert state.to_act() == frozenset({CID})
    state.apply(CID, "bid t1 1")
    assert state.available[CID] == 9
    assert state.to_act() == frozenset({ANN})
    legal = legal_texts(state, ANN)
    expected = (
        [f"bid t1 {m}" for m in range(2, 11)]
        + [f"bid t2 {m}" for m in range(1, 11)]
        + [f"bid t3 {m}" for m in range(4, 11)]
    )
    assert len(legal) == 26 and legal == sorted(expected)  # the contract sorts by notation
    state.apply(ANN, "bid t3 4")
    assert state.available[ANN] == 6 and state.available[BOB] == 10
    assert state.to_act() == frozenset({BOB})
    before = snapshot(state)
    with pytest.raises(IllegalMove) as refused:
        state.apply(BOB, "bid t3 4")
    assert str(refused.value.reason) == "Train 3 already has a bid of 4; bid at least 5."
    assert snapshot(state) == before
    events = named(state.apply(BOB, "bid t2 1"))
    assert events[:2] == ["Bob bids 1 on t2.", "Auction: t1 Cid 1, t2 Bob 1, t3 Ann 4."]
    return state


def test_4_auction_and_resolution() -> None:
    state = auction_example_4()
    assert state.phase == "build"
    assert state.available[BOB] == 9
    assert state.unavailable[ANN] == 15 and state.passengers(3) == 3 and state.freight(3) == 0
    assert state.load_colour[2] == ANN
    assert state.unavailable[BOB] == 12 and (state.passengers(2), state.freight(2)) == (2, 1)
    assert state.unavailable[CID] == 13 and (state.passengers(1), state.freight(1)) == (2, 0)
    assert state.black_supply() == 12
    # Ann 1 London + 1 marker + 6 available + 15 unavailable + 3 on t3 = 26.
    assert 1 + 1 + state.available[ANN] + state.unavailable[ANN] + state.seat_cubes_on_train(ANN) == 26
    check_conservation(state)


def test_4_two_seat_outbid() -> None:
    state = fresh(2, {1: [5, 5, 1], 2: [6, 2, 3]})
    state.apply(ANN, "bid t1 1")
    state.apply(BOB, "bid t1 2")
    assert state.to_act() == frozenset({ANN})
    legal = legal_texts(state, ANN)
    assert len(legal) == 18
    assert legal == sorted([f"bid t1 {m}" for m in range(3, 11)] + [f"bid t2 {m}" for m in range(1, 11)])


# ---------------------------------------------------------------- 5. first builds


def test_5_first_builds_and_start_player() -> None:
    state = auction_example_4()
    # Cid (t1) builds first.
    assert state.to_act() == frozenset({CID})
    assert legal_texts(state, CID) == ["connect basingstoke", "connect oxford", "connect reading", "done"]
    assert options_of(state) == {"basingstoke": 3, "oxford": 3, "reading": 2}
    events = named(state.apply(CID, "connect oxford"))
    assert (
        events[0] == "Cid connects Oxford from London: links 3, fees 0, people 2 (2 passengers, 3 available)."
    )
    assert events[1] == "Cid cannot afford any city (done)."
    assert state.available[CID] == 6 and state.unavailable[CID] == 17 and state.owners["oxford"] == CID
    # Bob (t2, P2 F1, avail 9).
    assert state.to_act() == frozenset({BOB})
    assert options_of(state) == {"basingstoke": 3, "cheltenham": 7, "reading": 2, "swindon": 6}
    state.apply(BOB, "connect reading")
    assert (state.passengers(2), state.freight(2), state.available[BOB], state.unavailable[BOB]) == (
        1,
        0,
        8,
        14,
    )
    assert options_of(state) == {"basingstoke": 2, "cheltenham": 6, "newbury": 1}
    assert legal_texts(state, BOB) == [
        "connect basingstoke",
        "connect cheltenham",
        "connect newbury",
        "done",
    ]
    unaffordable = {u["city"]: u["reason"] for u in state.view(None)["unaffordable"]}
    assert name_seats(unaffordable["swindon"]) == "Swindon needs 2 passengers; your train carries 1."
    events = named(state.apply(BOB, "connect newbury"))
    assert events[1] == "Bob cannot afford any city (done)."
    assert (state.passengers(2), state.available[BOB], state.unavailable[BOB]) == (0, 7, 15)
    # Ann (t3, P3, avail 6).
    assert state.to_act() == frozenset({ANN})
    assert options_of(state) == {
        "basingstoke": 3,
        "cheltenham": 7,
        "salisbury": 7,
        "swindon": 6,
        "winchester": 7,
    }
    winchester = next(o for o in state.view(None)["connect_options"] if o["city"] == "winchester")
    assert winchester["route"] == ["london", "reading", "newbury", "winchester"]
    assert (winchester["links"], winchester["fees"]) == (5, 2)
    state.apply(ANN, "connect basingstoke")
    assert (state.passengers(3), state.available[ANN], state.unavailable[ANN]) == (2, 3, 18)
    assert legal_texts(state, ANN) == ["connect winchester", "done"]
    assert options_of(state) == {"winchester": 2}
    events = named(state.apply(ANN, "connect winchester"))
    assert state.available[ANN] == 5 and state.unavailable[ANN] == 17  # after leftover and income
    assert "Ann cannot afford any city (done); 1 cube from t3 returns to available." in events
    assert "Income: Ann +3, Bob +3, Cid +2." in events
    assert (state.available[BOB], state.unavailable[BOB]) == (10, 12)
    assert (state.available[CID], state.unavailable[CID]) == (8, 15)
    assert state.start_player == ANN and state.round == 2
    assert state.phase == "auction" and state.to_act() == frozenset({ANN})
    assert "Ann moved the last train (t3) and starts round 2." in events
    check_conservation(state)


def test_5_salisbury_would_cost_two_with_one_payable() -> None:
    state = auction_example_4()
    state.apply(CID, "connect oxford")
    state.apply(BOB, "connect reading")
    state.apply(BOB, "connect newbury")
    state.apply(ANN, "connect basingstoke")
    state.apply(ANN, "connect winchester")
    # The round ended; rebuild Ann's moment just before the automatic done to read the reason.
    position = build_position(
        3,
        dict(state.owners),
        [(ANN, 1, 0)],
        {ANN: (1, 20)},
    )
    route = position.routes(ANN)["salisbury"]
    assert route.cost == 2
    assert str(position.connect_problem(ANN, "salisbury", route)) == (
        "Salisbury's route costs 2; you can pay at most 1 (freight 0, available 1, spare passengers 0)."
    )


# ---------------------------------------------------------------- 6. the seed's example


def southampton_position(builder: int, avail: int):
    """Red (Ann) owns Reading, Blue (Bob) Newbury and Winchester; the other seat builds next."""
    owners = {"reading": ANN, "newbury": BOB, "winchester": BOB}
    return build_position(2, owners, [(builder, 3, 0), (1 - builder, 1, 0)], {builder: (avail, 10)})


def test_6_blue_reaches_southampton_for_one() -> None:
    state = southampton_position(BOB, 5)  # Blue = Bob
    events = named(state.apply(BOB, "connect southampton"))
    assert events[0] == (
        "Bob connects Southampton from Winchester: links 1, fees 0, people 3 (3 passengers, 1 available)."
    )
    assert events[1] == "Bob cannot afford any city (done)."
    assert (state.passengers(1), state.available[BOB], state.unavailable[BOB]) == (0, 4, 13)
    assert len(state.cities_of(BOB)) + 1 == 4
    assert state.to_act() == frozenset({ANN})


def test_6_red_pays_links_and_fees_to_its_own_stock() -> None:
    state = southampton_position(ANN, 6)  # Red = Ann
    bob_before = (state.available[BOB], state.unavailable[BOB])
    route = state.routes(ANN)["southampton"]
    assert route.path == ("reading", "newbury", "winchester", "southampton")
    assert (route.links, route.fees) == (4, 2)
    state.apply(ANN, "connect southampton")
    assert (state.available[ANN], state.unavailable[ANN]) == (0, 18)
    assert state.owners["southampton"] == ANN
    assert (state.available[BOB], state.unavailable[BOB]) == bob_before


def test_6_red_with_five_available_is_refused() -> None:
    state = southampton_position(ANN, 5)
    before = snapshot(state)
    assert "connect southampton" not in legal_texts(state, ANN)
    with pytest.raises(IllegalMove) as refused:
        state.apply(ANN, "connect southampton")
    assert str(refused.value.reason) == (
        "Southampton's route costs 6; you can pay at most 5 (freight 0, available 5, spare passengers 0)."
    )
    assert snapshot(state) == before


# ---------------------------------------------------------------- 7. passing through, spare passengers


def passing_position():
    # Bob builds after Ann and can afford a city, so the round does not end under our eyes.
    return build_position(2, {"reading": BOB}, [(ANN, 3, 0), (BOB, 1, 0)], {ANN: (2, 10)})


def test_7_legal_moves_and_costs() -> None:
    state = passing_position()
    assert legal_texts(state, ANN) == ["connect basingstoke", "connect newbury", "connect oxford", "done"]
    assert options_of(state) == {"basingstoke": 3, "newbury": 4, "oxford": 3}


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (
            "connect swindon",
            "Swindon's route costs 6; you can pay at most 3 (freight 0, available 2, spare passengers 1).",
        ),
        ("connect winchester", "No route to Winchester: every way there passes through an empty city."),
    ],
)
def test_7_refusals(move: str, reason: str) -> None:
    state = passing_position()
    before = snapshot(state)
    with pytest.raises(IllegalMove) as refused:
        state.apply(ANN, move)
    assert str(refused.value.reason) == reason
    assert snapshot(state) == before


def test_7_fee_goes_to_own_stock() -> None:
    state = passing_position()
    bob_before = (state.available[BOB], state.unavailable[BOB])
    events = named(state.apply(ANN, "connect newbury"))
    assert events[0] == (
        "Ann connects Newbury from London via Reading: links 3, fees 1, people 1 (3 passengers, 2 available)."
    )
    assert (state.passengers(1), state.available[ANN], state.unavailable[ANN]) == (0, 0, 14)
    assert (state.available[BOB], state.unavailable[BOB]) == bob_before
    assert state.to_act() == frozenset({BOB})


# ---------------------------------------------------------------- 8. reloading shortage


def shortage_state(bid: int):
    state = fresh(2, {1: [1, 1, 1], 2: [2, 6, 3]})
    for city in ("cardiff", "swansea", "newport", "bristol"):
        state.owners[city] = BOB
    state.available[BOB], state.unavailable[BOB] = 20, 0
    check_conservation(state)
    state.apply(ANN, "bid t1 1")
    events = named(state.apply(BOB, f"bid t2 {bid}"))
    return state, events


def test_8_reloading_shortage() -> None:
    state, events = shortage_state(1)
    assert state.loads[1] == [0, 1, 0, 0, 0]  # only car 6 (front-most passenger) reloaded
    assert (state.passengers(2), state.freight(2)) == (1, 0)
    assert state.keys[1] == [0, 1, 4] and state.order == [2, 1]
    assert "Bob's 2 unreplaced black cubes are lost." in events
    assert state.black_supply() == 12 and state.unavailable[BOB] == 0
    check_conservation(state)


def test_8_enough_stock_replaces_all() -> None:
    state, events = shortage_state(3)
    assert (state.passengers(2), state.freight(2)) == (2, 1)
    assert not any("lost" in e for e in events)
    check_conservation(state)


# ---------------------------------------------------------------- 9. income shortage


def test_9_income_shortage() -> None:
    cid_cities = ["cardiff", "swansea", "newport", "bristol", "bath", "taunton"]
    state = build_position(
        3, {c: CID for c in cid_cities}, [(ANN, 1, 0), (BOB, 0, 0), (CID, 0, 0)], {CID: (15, 3)}
    )
    state.build_pos = 2  # Cid's empty train is the last to build
    events = named(state.apply(CID, "done"))
    assert state.available[CID] == 18 and state.unavailable[CID] == 0
    assert "Income lost for lack of unavailable cubes: Cid 1." in events
    assert any(e.startswith("Income: ") and "Cid +3" in e for e in events)


# ---------------------------------------------------------------- 10. building nothing


def test_10_building_nothing() -> None:
    state = build_position(2, {}, [(BOB, 2, 1), (ANN, 2, 0)], {BOB: (5, 10)})
    assert len(state.legal_moves(BOB)) > 1
    events = named(state.apply(BOB, "done"))
    assert events[0] == "Bob is done; 3 cubes from t1 return to available."
    assert state.available[BOB] == 8 and state.loads[0] == [0] * 5
    assert state.to_act() == frozenset({ANN})


# ---------------------------------------------------------------- 11. end and tie-break

ANN_11 = ["plymouth", "exeter", "taunton", "oxford", "reading", "newbury", "basingstoke"]
BOB_11 = ["cardiff", "swansea", "newport", "hereford", "worcester", "gloucester", "cheltenham"]
CID_11 = ["swindon", "winchester", "southampton", "salisbury", "bath", "bristol", "weymouth"]


def end_position():
    owners = {c: ANN for c in ANN_11} | {c: BOB for c in BOB_11} | {c: CID for c in CID_11}
    assert set(CITIES) - set(owners) == {"london", "penzance"}
    return build_position(
        3, owners, [(ANN, 2, 1), (BOB, 2, 0), (CID, 1, 0)], {ANN: (3, 11), BOB: (5, 10), CID: (4, 12)}
    )


def test_11_end_and_tie_break() -> None:
    state = end_position()
    check_conservation(state)
    pay = next(o for o in state.view(None)["connect_options"] if o["city"] == "penzance")
    assert (pay["route"], pay["route_cost"], pay["people"]) == (["plymouth", "penzance"], 4, 2)
    assert pay["pay"] == {"passengers": 2, "freight": 1, "available": 3}
    events = named(state.apply(ANN, "connect penzance"))
    assert state.is_over() and state.to_act() == frozenset()
    assert "Every city is connected: the game ends at once (no income)." in events
    assert (state.available[BOB], state.available[CID]) == (7, 5)  # loaded trains back, no income
    assert (state.available[ANN], state.unavailable[ANN]) == (0, 16)
    check_conservation(state)
    result = state.result()
    assert result is not None and result.ended_by == "all cities connected"
    by_seat = {s.seat: s for s in result.seats}
    assert by_seat[ANN].score == 7 + 5 + 4 + 3 + 3 + 1 + 1 + 1 == 25
    assert by_seat[BOB].score == 6 + 5 + 3 + 3 + 3 + 3 + 2 == 25
    assert by_seat[CID].score == 2 + 2 + 5 + 2 + 3 + 5 + 4 == 23
    assert by_seat[ANN].details["cubes_off_board"] == 16 and by_seat[ANN].details["city_count"] == 8
    assert by_seat[BOB].details["cubes_off_board"] == 17
    assert [s.seat for s in result.seats] == [BOB, ANN, CID]
    assert [s.rank for s in result.seats] == [1, 2, 3]
    for seat in result.seats:
        assert sum(seat.breakdown.values()) == seat.score
    final = events[-1]
    assert final == (
        "Final: 1st Bob 25 gold (17 cubes off the board), 2nd Ann 25 gold (16 cubes off the board), "
        "3rd Cid 23 gold (17 cubes off the board)."
    )


def test_11_shared_first_place() -> None:
    cid = ["oxford", "exeter", "southampton", "winchester", "bath", "bristol", "taunton"]
    assert sum(CITIES[c].gold for c in cid) == 25
    owners = {c: BOB for c in BOB_11} | {c: CID for c in cid} | {"reading": ANN}
    result = final_result(3, owners, [10, 10, 10], [13, 7, 7], "all cities connected")
    ranks = {s.seat: s.rank for s in result.seats}
    assert ranks == {BOB: 1, CID: 1, ANN: 3}


# ---------------------------------------------------------------- 12. round limit


def play_rounds(state, last_round: int) -> None:
    players = {s: GreedyAI() for s in range(state.num_seats)}
    while not state.is_over() and state.round <= last_round:
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, players[seat]))


def test_12_round_limit() -> None:
    seed = next(
        s
        for s in range(200)
        if (lambda st: (play_rounds(st, 3), "weymouth" not in st.owners and not st.is_over())[1])(
            DEFINITION.new_game(3, {"round_limit": 0}, s)
        )
    )
    limited = DEFINITION.new_game(3, {"round_limit": 3}, seed)
    play_out(limited, {s: GreedyAI() for s in range(3)})
    assert limited.is_over() and limited.round == 3 and limited.ended_by == "round limit"
    assert "weymouth" not in limited.owners
    result = limited.result()
    assert result is not None
    for line in result.seats:
        assert line.score == limited.gold_of(line.seat) == sum(line.breakdown.values())
    unlimited = DEFINITION.new_game(3, {"round_limit": 0}, seed)
    play_rounds(unlimited, 3)
    assert unlimited.round == 4 and unlimited.phase == "auction" and not unlimited.is_over()
    assert unlimited.owners == limited.owners


def test_names_are_seat_tokens() -> None:
    state = fresh(3, EXAMPLE_2_DICE)
    events = state.apply(ANN, "bid t3 2")
    assert str(events[0].text) == "{s0} bids 2 on t3."
    assert name_seats(events[0].text, NAMES) == "Ann bids 2 on t3."
