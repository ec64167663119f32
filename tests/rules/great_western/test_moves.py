"""Great Western Railway: notation, refusals with the spec's reasons, and property tests."""

from __future__ import annotations

import heapq

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import IllegalMove, Move, name_seats, play_out
from rules.great_western import DEFINITION
from rules.great_western.ai import GreedyAI
from rules.great_western.board import CITIES, CITY_IDS, CONNECTABLE, LINKS, LONDON, NEIGHBOURS, routes_for
from rules.great_western.moves import DONE, Bid, Connect, parse
from tests.rules.great_western.fixtures import (
    NAMES,
    build_position,
    check_conservation,
    fresh,
    snapshot,
)

ANN, BOB, CID = 0, 1, 2
DICE = {1: [5, 5, 1], 2: [6, 2, 3], 3: [4, 4, 4]}


def refused(state, seat: int, text: str | Move) -> str:
    before = snapshot(state)
    with pytest.raises(IllegalMove) as error:
        state.apply(seat, text)
    assert snapshot(state) == before, "a refused move changed the state"
    return name_seats(error.value.reason, NAMES)


# ---------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("bid t2 3", Bid(2, 3)),
        ("  BID  T2   3 ", Bid(2, 3)),
        ("b 2 3", Bid(2, 3)),
        ("t1 10", Bid(1, 10)),
        ("bid t1 0", Bid(1, 0)),
        ("connect southampton", Connect("southampton")),
        ("Connect Southampton", Connect("southampton")),
        ("c south", Connect("southampton")),
        ("oxford", Connect("oxford")),
        ("c bath", Connect("bath")),
        ("bath", Connect("bath")),
        ("done", DONE),
        ("pass", DONE),
        ("D", DONE),
    ],
)
def test_parse_is_lenient(text: str, move) -> None:
    assert parse(text) == move
    assert str(parse(str(move))) == str(move)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Empty move: try `bid t1 2`, `connect reading` or `done`."),
        ("bid t5 2", "There is no train 5: the trains are t1 to t4."),
        ("bid", "A bid reads `bid t<train> <cubes>`, e.g. `bid t2 3`."),
        ("connect sw", "'sw' could be Swansea, Swindon: type more letters."),
        ("connect atlantis", "There is no city called 'atlantis'."),
        ("fly to the moon", "Cannot read 'fly to the moon': try `bid t1 2`, `connect reading` or `done`."),
    ],
)
def test_unreadable_moves(text: str, reason: str) -> None:
    with pytest.raises(IllegalMove) as error:
        parse(text)
    assert str(error.value.reason) == reason


def test_every_city_id_and_name_parses() -> None:
    for city in CITY_IDS:
        assert parse(f"connect {city}") == Connect(city)
        assert parse(CITIES[city].name) == Connect(city)


# ---------------------------------------------------------------- refusals in the auction


def test_auction_refusals() -> None:
    state = fresh(3, DICE)
    assert refused(state, BOB, "bid t1 1") == "It is Ann's turn to bid."
    assert refused(state, BOB, "connect oxford") == "It is Ann's turn to bid."
    assert refused(state, ANN, "bid t4 1") == "Train 4 is not in play with 3 players."
    assert refused(state, ANN, "bid t1 0") == "A bid must be at least 1 cube."
    assert refused(state, ANN, "bid t1 -2") == "A bid must be at least 1 cube."
    # The bidder is asked for a bid: there is no pass in the auction (5.2), and no build yet.
    no_pass = "The auction is on and there is no pass: bid on a train (`bid t<train> <cubes>`)."
    assert refused(state, ANN, "connect oxford") == no_pass
    assert refused(state, ANN, "done") == no_pass
    assert refused(state, ANN, "pass") == no_pass
    state.available[ANN], state.unavailable[ANN] = 6, 18
    assert refused(state, ANN, "bid t1 7") == "You have only 6 available cubes."
    state.apply(ANN, "bid t3 4")
    assert refused(state, BOB, "bid t3 4") == "Train 3 already has a bid of 4; bid at least 5."
    assert refused(state, BOB, "bid t3 2") == "Train 3 already has a bid of 4; bid at least 5."
    check_conservation(state)


def test_hand_built_connection_to_an_unknown_city_is_refused() -> None:
    owners = {"southampton": CID, "reading": BOB}
    state = build_position(3, owners, [(ANN, 2, 0), (BOB, 1, 0), (CID, 1, 0)], {ANN: (2, 12)})
    assert refused(state, ANN, Connect("atlantis")) == "There is no city called 'atlantis'."
    assert refused(state, ANN, Connect("")) == "There is no city called ''."


def test_two_players_refuse_train_three() -> None:
    state = fresh(2, {1: [1, 1, 1], 2: [1, 1, 1]})
    assert refused(state, ANN, "bid t3 1") == "Train 3 is not in play with 2 players."


# ---------------------------------------------------------------- refusals in the build


def test_build_refusals() -> None:
    owners = {"southampton": CID, "reading": BOB}
    state = build_position(3, owners, [(ANN, 2, 0), (BOB, 1, 0), (CID, 1, 0)], {ANN: (2, 12)})
    assert refused(state, BOB, "connect oxford") == "It is not your turn to build."
    assert refused(state, BOB, "done") == "It is not your turn to build."
    assert refused(state, BOB, "bid t1 1") == "Bidding is over this round; it is Ann's turn to build."
    assert refused(state, ANN, "bid t1 1") == "Bidding is over this round; it is Ann's turn to build."
    assert refused(state, ANN, "connect southampton") == "Southampton already has a cube."
    assert refused(state, ANN, "connect reading") == "Reading already has a cube."
    assert refused(state, ANN, "connect london") == "London cannot be connected."
    assert refused(state, ANN, "connect penzance") == (
        "No route to Penzance: every way there passes through an empty city."
    )
    state.owners["newbury"] = ANN
    state.owners["winchester"] = ANN
    del state.owners["southampton"]
    assert (
        refused(state, ANN, "connect southampton") == "Southampton needs 3 passengers; your train carries 2."
    )
    state.owners = {}
    assert refused(state, ANN, "connect oxford") == (
        "Oxford's route costs 3; you can pay at most 2 (freight 0, available 2, spare passengers 0)."
    )
    assert refused(state, ANN, "connect swindon") == (
        "No route to Swindon: every way there passes through an empty city."
    )


def test_refusal_after_the_game_is_over() -> None:
    state = DEFINITION.new_game(2, {"round_limit": 1}, 3)
    play_out(state, {0: GreedyAI(), 1: GreedyAI()})
    assert state.ended_by == "round limit"
    assert state.is_over()
    assert refused(state, 0, "done") == "The game is over."


# ---------------------------------------------------------------- properties


def brute_force_cost(seat: int, owners: dict[str, int], target: str) -> int | None:
    """Cheapest route cost over every simple path, by plain search (small graph)."""
    best: int | None = None
    starts = [c for c in CITY_IDS if c == LONDON or owners.get(c) == seat]
    heap = [(0, s, (s,)) for s in starts]
    seen: dict[tuple[str, frozenset], int] = {}
    while heap:
        cost, here, path = heapq.heappop(heap)
        if here == target:
            best = cost if best is None else min(best, cost)
            continue
        if here != path[0] and here not in owners and here != LONDON:
            continue  # an empty city ends every path
        state_key = (here, frozenset(path))
        if seen.get(state_key, 1 << 30) <= cost:
            continue
        seen[state_key] = cost
        for there, link in NEIGHBOURS[here]:
            if there in path:
                continue
            if there != target and there not in owners and there != LONDON:
                continue
            fee = 0 if there in (target, LONDON) or owners.get(there) == seat else 1
            heapq.heappush(heap, (cost + link + fee, there, path + (there,)))
    return best


owners_strategy = st.dictionaries(st.sampled_from(CONNECTABLE), st.integers(0, 3), max_size=22)


@settings(deadline=None, max_examples=150)
@given(owners=owners_strategy, seat=st.integers(0, 3))
def test_routes_are_cheapest_and_valid(owners: dict[str, int], seat: int) -> None:
    routes = routes_for(seat, owners)
    cost_of = {frozenset((link.a, link.b)): link.cost for link in LINKS}
    for city in CONNECTABLE:
        if city in owners:
            assert city not in routes
            continue
        expected = brute_force_cost(seat, owners, city)
        route = routes.get(city)
        assert (route.cost if route else None) == expected
        if route is None:
            continue
        path = route.path
        assert path[0] == LONDON or owners.get(path[0]) == seat
        assert path[-1] == city
        assert all(c in owners or c == LONDON for c in path[1:-1])
        assert route.links == sum(cost_of[frozenset(pair)] for pair in zip(path, path[1:], strict=False))
        assert route.fees == sum(1 for c in path[1:-1] if c != LONDON and owners[c] != seat)


ALL_MOVES = (
    [f"bid t{t} {m}" for t in range(1, 5) for m in range(-1, 26)]
    + [f"connect {c}" for c in CITY_IDS]
    + ["done"]
)


@settings(deadline=None, max_examples=40)
@given(
    seats=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    choices=st.lists(st.integers(0, 10_000), max_size=60),
)
def test_legal_moves_are_exactly_the_accepted_moves(seats: int, seed: int, choices: list[int]) -> None:
    state = DEFINITION.new_game(seats, {}, seed)
    for choice in choices:
        if state.is_over():
            break
        seat = min(state.to_act())
        legal = {str(m) for m in state.legal_moves(seat)}
        assert legal, "a running game always has a legal move"
        # Probe a few moves outside the legal list: each must be refused without a trace.
        for probe in (ALL_MOVES[(choice + k * 37) % len(ALL_MOVES)] for k in range(3)):
            if probe in legal:
                continue
            before = snapshot(state)
            with pytest.raises(IllegalMove):
                state.apply(seat, probe)
            assert snapshot(state) == before
        moves = state.legal_moves(seat)
        move = moves[choice % len(moves)]
        assert parse(str(move)) == move
        state.apply(seat, str(move))
        check_conservation(state)


@settings(deadline=None, max_examples=60)
@given(
    owners=owners_strategy,
    p=st.integers(0, 3),
    f=st.integers(0, 3),
    avail=st.integers(0, 12),
)
def test_payment_matches_the_affordability_rule(owners: dict[str, int], p: int, f: int, avail: int) -> None:
    owners = {c: s % 2 for c, s in owners.items()}
    state = build_position(2, owners, [(ANN, p, f), (BOB, 0, 0)], {ANN: (avail, 5)})
    legal = {str(m) for m in state.legal_moves(ANN)}
    for city, route in state.routes(ANN).items():
        people = CITIES[city].people
        affordable = people <= p and route.cost <= f + avail + p - people
        assert (f"connect {city}" in legal) == affordable
        if affordable:
            pay = state.payment(ANN, city, route)
            assert sum(pay.values()) == people + route.cost
            assert pay["passengers"] <= p and pay["freight"] <= f and pay["available"] <= avail
            # Freight is spent before available cubes, and spare passengers last (D14).
            assert pay["freight"] == min(f, route.cost)


# ---------------------------------------------------------------- forced moves and timeouts


def test_a_single_legal_bid_is_made_automatically() -> None:
    state = fresh(2, {1: [5, 1, 1], 2: [6, 1, 1]})
    state.available[BOB], state.unavailable[BOB] = 1, 23
    events = [name_seats(e.text, NAMES) for e in state.apply(ANN, "bid t1 1")]
    assert "Bob has one legal bid: 1 on t2." in events
    assert state.phase == "build" and state.owner == [ANN, BOB]
    assert state.moves_applied == 1  # the forced bid is not a decision
    check_conservation(state)


def test_zero_available_guard_takes_the_first_free_train_for_nothing() -> None:
    state = fresh(3, DICE)
    state.apply(ANN, "bid t1 3")
    state.available[BOB], state.unavailable[BOB] = 0, 24  # cannot happen in play (D27)
    assert [str(m) for m in state.legal_moves(BOB)] == ["bid t2 0"]
    assert refused(state, BOB, "bid t3 0") == "You have no available cubes: take bid t2 0."
    state.apply(BOB, "bid t2 0")
    assert state.bids[1] == [BOB, 0] and state.to_act() == frozenset({CID})
    check_conservation(state)


def test_timeout_skips_a_build_but_not_a_bid() -> None:
    state = fresh(3, DICE)
    assert state.timeout_move(ANN) is None
    position = build_position(2, {}, [(BOB, 2, 1), (ANN, 2, 0)], {BOB: (5, 10)})
    assert position.timeout_move(BOB) == DONE
    assert position.timeout_move(ANN) is None
