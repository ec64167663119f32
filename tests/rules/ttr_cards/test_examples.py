"""The worked examples E1-E11 of the ttr_cards spec (section 12), exactly."""

from __future__ import annotations

from rules.engine import name_seats
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.cards import COLOURS, KINDS, LOCO, full_set
from rules.ttr_cards.scoring import assign_cards, best_completion, fits
from tests.rules.ttr_cards.helpers import (
    NAMES,
    card_totals,
    check_invariants,
    legal,
    position,
    refuse,
)


def texts(events) -> list[str]:
    return [name_seats(e.text, NAMES) for e in events]


def hand_of(state, seat: int) -> dict[str, int]:
    return {k: v for k, v in state.hands[seat].items() if v}


# ---------------------------------------------------------------------------- E1


def test_e1_setup_and_simultaneous_keep() -> None:
    state = DEFINITION.new_game(3, {}, 11)
    for seat in range(3):
        assert sum(state.hands[seat].values()) == 8 and state.hands[seat][LOCO] >= 1
        assert len(state.pending[seat]) == 6
    assert len(state.display) == 5 and len(state.deck) == 67
    assert card_totals(state) == full_set()
    assert len(state.ticket_deck) == 28
    assert state.to_act() == frozenset({0, 1, 2})
    for seat in range(3):
        assert len(state.legal_moves(seat)) == 63
    refuse(state, 0, "keep none", "keep at least 1 ticket")

    p0, p1, p2 = (sorted(state.pending[s]) for s in range(3))
    state.apply(0, f"keep {p0[0]} {p0[3]}")
    state.apply(1, "keep " + " ".join(map(str, p1)))
    public = state.view(None)
    assert [e["setup"] for e in public["seats"]] == ["done", "done", "choosing"]
    assert all(e["tickets_count"] is None and e["pending_count"] is None for e in public["seats"])
    assert len(public["seats"]) == 3 and public["ticket_deck_count"] == 28
    assert state.to_act() == frozenset({2})
    events = state.apply(2, f"keep {p2[5]}")
    assert len(state.ticket_deck) == 37
    public = state.view(None)
    assert [e["tickets_count"] for e in public["seats"]] == [2, 6, 1]
    assert "Everyone has chosen. Tickets kept: S0 2, S1 6, S2 1." in texts(events)
    assert state.phase == "turn" and state.active == 0 and state.step == "action"
    assert public["seats"][0]["track_count"] == 0
    check_invariants(state)


def test_e1_answer_order_does_not_change_the_outcome() -> None:
    outcomes = []
    for order in ((0, 1, 2), (2, 0, 1)):
        state = DEFINITION.new_game(3, {}, 5)
        choice = {s: f"keep {sorted(state.pending[s])[0]}" for s in range(3)}
        for seat in order:
            state.apply(seat, choice[seat])
        outcomes.append(state.to_json() | {"last_action": None, "moves_applied": 0})
    assert outcomes[0] == outcomes[1]


# ---------------------------------------------------------------------------- E2


def test_e2_drawing() -> None:
    state = position(3, display="red loco blue blue white", deck="green loco yellow black orange red")
    state.apply(0, "take blue")
    assert hand_of(state, 0) == {"blue": 1}
    assert state.display == ["red", "loco", "green", "blue", "white"]
    assert state.deck == ["loco", "yellow", "black", "orange", "red"]
    assert state.step == "second_draw"
    assert legal(state, 0) == ["draw deck", "take blue", "take green", "take red", "take white"]
    refuse(state, 0, "take loco", "a face-up locomotive counts as two cards: take it only as your first card")
    events = state.apply(0, "draw deck")
    assert hand_of(state, 0) == {"blue": 1, "loco": 1}
    assert state.deck == ["yellow", "black", "orange", "red"]
    assert state.active == 1 and state.step == "action"
    # The drawn card is told to the drawer only.
    assert [str(e.text) for e in events if e.seats == frozenset({0})] == ["You drew loco."]
    assert all("loco" not in str(e.text) for e in events if e.seats is None)

    state.apply(1, "take loco")
    assert hand_of(state, 1) == {"loco": 1}
    assert state.display == ["red", "yellow", "green", "blue", "white"]
    assert state.deck == ["black", "orange", "red"]
    assert state.active == 2 and state.step == "action"


# ---------------------------------------------------------------------------- E3


def e3_position():
    return position(
        3,
        active=1,
        yards={0: {"blue": (1, 2)}, 1: {"green": (0, 1)}, 2: {"red": (0, 3)}},
        hands={1: {"blue": 3, "loco": 2, "red": 1, "yellow": 1, "white": 1, "green": 1}},
        display="red red red red red",
        deck="black " * 10,
        ticket_deck=[5],
    )


def test_e3_refused_yard_plays() -> None:
    state = e3_position()
    refuse(state, 1, "yard blue blue blue", "your blue set must be larger than S0's blue row (3 cards)")
    refuse(state, 1, "yard blue loco loco", "your blue set must be larger than S0's blue row (3 cards)")
    refuse(state, 1, "yard red loco loco", "your red set must be larger than S2's red row (3 cards)")
    refuse(state, 1, "yard green loco", "you already have a green row")
    refuse(state, 1, "yard loco loco", "a set needs at least one coloured card")
    refuse(
        state,
        1,
        "yard white yellow loco",
        "play 2+ cards of one colour (locomotives allowed) or 3 cards of 3 different colours",
    )
    refuse(
        state, 1, "yard red white yellow", "red is in another rail yard: a single card cannot beat that row"
    )


def test_e3_legal_moves_and_robbing() -> None:
    state = e3_position()
    assert [m for m in legal(state, 1) if m.startswith("yard")] == sorted(
        [
            "yard blue blue loco loco",
            "yard blue blue blue loco",
            "yard blue blue blue loco loco",
            "yard white loco",
            "yard white loco loco",
            "yard yellow loco",
            "yard yellow loco loco",
        ]
    )
    assert len(legal(state, 1)) == 10
    assert {"draw deck", "take red", "tickets"} <= set(legal(state, 1))

    events = state.apply(1, "yard blue blue blue loco")
    assert {k: v for k, v in state.discard.items() if v} == {"blue": 2, "loco": 1}
    assert state.yards[0] == {}
    assert state.yards[1] == {"green": [0, 1], "blue": [1, 3]}
    assert hand_of(state, 1) == {"loco": 1, "red": 1, "yellow": 1, "white": 1, "green": 1}
    assert "S1 plays blue blue blue loco to the rail yard, robbing S0's blue row (2 blue + 1 loco)." in texts(
        events
    )
    assert state.active == 2
    assert state.yards[2] == {"red": [0, 2]}
    assert sum(state.tracks[2].values()) == 1
    assert state.view(None)["last_action"]["robbed"] == [
        {"seat": 0, "colour": "blue", "locos": 1, "coloured": 2}
    ]


# ---------------------------------------------------------------------------- E4


def run_e4(options: dict | None = None):
    state = position(
        2, active=1, yards={0: {"red": (2, 1), "green": (0, 3)}}, deck="black " * 20, options=options
    )
    for _ in range(3):
        events = state.apply(1, "draw deck") + state.apply(1, "draw deck")
        yield state, texts(events)
        state.apply(0, "draw deck")
        state.apply(0, "draw deck")


def test_e4_step_one_moves_locomotives_first() -> None:
    expected = [
        ({"red": [1, 1], "green": [0, 2]}, {"loco": 1, "green": 1}, 2),
        ({"red": [0, 1], "green": [0, 1]}, {"loco": 2, "green": 2}, 4),
        ({}, {"loco": 2, "green": 3, "red": 1}, 6),
    ]
    for (state, lines), (yard, track, count) in zip(run_e4(), expected, strict=True):
        assert state.active == 0
        assert state.yards[0] == yard
        assert {k: v for k, v in state.tracks[0].items() if v} == track
        for seat in (None, 0, 1):
            entry = state.view(seat)["seats"][0]
            assert entry["track_count"] == count and entry["track"] is None
        assert f"S0 moves 2 cards to the track stack (now {count})." in lines
        assert not any("loco" in line or "green" in line for line in lines)


def test_e4_open_track_stack_shows_the_cards() -> None:
    seen = [
        (state.view(1)["seats"][0]["track"], lines) for state, lines in run_e4({"open_track_stack": True})
    ]
    assert seen[0][0]["loco"] == 1 and seen[0][0]["green"] == 1
    assert "S0 moves 2 cards to the track stack (now 2): green 1, loco 1." in seen[0][1]
    assert {k: v for k, v in seen[2][0].items() if v} == {"loco": 2, "green": 3, "red": 1}


# ---------------------------------------------------------------------------- E5


def test_e5_deck_runs_out_final_round_and_passes() -> None:
    state = position(
        3,
        active=1,
        display="red green blue white black",
        deck="yellow",
        hands={0: {"orange": 1}, 2: {"purple": 2}},
        tickets={0: [1], 1: [2], 2: [3]},
    )
    state.apply(1, "take red")
    assert state.display[0] == "yellow" and state.deck == []
    assert state.final_round == [2, 0, 1] and state.view(None)["final_round"] == [2, 0, 1]
    assert state.active == 2 and state.step == "action"
    refuse(state, 2, "draw deck", "the train deck is empty: play to your rail yard or draw tickets")
    assert legal(state, 2) == ["yard purple purple"]
    events = texts(state.apply(2, "yard purple purple"))
    assert "S0 has no legal move and passes." in events
    assert "S1 has no legal move and passes." in events
    assert state.is_over()
    result = state.result()
    assert {s.seat: s.score for s in result.seats} == {0: -5, 1: -5, 2: -6}
    assert {s.seat: s.rank for s in result.seats} == {0: 1, 1: 1, 2: 3}
    for line in result.seats:
        assert line.breakdown["big_cities"] == 0
        assert sum(line.breakdown.values()) == line.score


# ---------------------------------------------------------------------------- E6


def test_e6_ticket_draw() -> None:
    state = position(2, ticket_deck=[12, 30, 7, 44, 2, 9], deck="black " * 10, display="red " * 5)
    events = state.apply(0, "tickets")
    assert state.pending[0] == [12, 30, 7, 44]
    assert "S0 draws 4 tickets." in [name_seats(e.text, NAMES) for e in events if e.seats is None]
    assert state.view(None)["seats"][0]["pending_count"] == 4
    assert state.view(1)["pending"] == [] and state.view(0)["pending"] == [12, 30, 7, 44]
    assert len(legal(state, 0)) == 16
    refuse(state, 0, "keep 13", "ticket 13 is not among the tickets you drew")
    state.apply(0, "keep 7 44")
    assert state.tickets[0] == [7, 44]
    assert state.ticket_deck == [2, 9, 12, 30]
    assert state.active == 1
    state.apply(1, "tickets")
    assert state.pending[1] == [2, 9, 12, 30]
    state.apply(1, "keep none")
    assert state.ticket_deck == [2, 9, 12, 30]


# ---------------------------------------------------------------------------- E7


def test_e7a_more_tickets_win_the_points_tie() -> None:
    track = {"black": 1, "white": 2, "yellow": 1, "loco": 1}
    assert best_completion([1, 9, 16, 31], track) == [1, 9, 16]
    assert fits([16, 31], track) and fits([9, 31], track) and not fits([1, 9, 16, 31], track)
    assert assign_cards([1, 9, 16], track) == {
        1: {"yellow": 1},
        9: {"black": 1, "white": 1},
        16: {"white": 1, "loco": 1},
    }


def test_e7b_lowest_id_breaks_the_last_tie() -> None:
    assert best_completion([14, 17], {"black": 1, "green": 1}) == [14]
    assert best_completion([17, 14], {"black": 1, "green": 1}) == [14]


def test_e7c_more_big_city_names() -> None:
    assert best_completion([15, 16], {"white": 1, "loco": 1}) == [15]


# ---------------------------------------------------------------------------- E8


def test_e8_intermediate_scoring_and_restart() -> None:
    hands = {
        0: {"orange": 3, "black": 3},
        1: {"orange": 4, "black": 3, "white": 3},
        2: {"yellow": 3},
        3: {"purple": 4, "green": 4},
    }
    tracks = {
        0: {"yellow": 1, "green": 2, "blue": 1, "loco": 1},
        1: {"white": 2, "blue": 2},
        2: {"black": 1, "red": 1, "loco": 1},
        3: {"red": 1, "green": 1, "yellow": 1, "purple": 3},
    }
    yards = {0: {"red": (0, 2)}, 3: {"purple": (1, 1)}}
    display = "red red blue loco white"
    state = position(
        4, active=2, display=display, hands=hands, tracks=tracks, yards=yards,
        tickets={0: [3, 20], 1: [44, 2], 2: [46], 3: [8, 12]}, ticket_deck=[5], final_round=[2],
    )  # fmt: skip
    # The discard pile holds the other 42 cards.
    rest = full_set()
    for kind, count in card_totals(state).items():
        rest[kind] -= count
    assert min(rest.values()) >= 0 and sum(rest.values()) == 42
    state.discard.update(rest)

    state.apply(2, "tickets")
    events = texts(state.apply(2, "keep none"))
    assert card_totals(state) == full_set()
    record = state.scorings[-1]
    assert record["kind"] == "intermediate"
    assert [e["completed"] for e in record["seats"]] == [[3, 20], [44], [], [12]]
    assert state.deck1_points == [17, 20, 0, 10]
    assert state.tickets == [[], [2], [46], [8]]
    assert record["seats"][0]["assignment"] == {
        "3": {"yellow": 1, "green": 1},
        "20": {"green": 1, "blue": 1, "loco": 1},
    }
    assert {k: v for k, v in state.set_aside.items() if v} == {
        "yellow": 2, "green": 2, "blue": 3, "loco": 1, "white": 2, "red": 1
    }  # fmt: skip
    assert sum(state.set_aside.values()) == 11
    assert [sum(h.values()) for h in state.hands] == [10, 14, 7, 12]
    assert len(state.deck) == 37 and state.deck_number == 2
    assert sum(state.discard.values()) == 0
    assert state.active == 3 and state.step == "action" and state.yards == [{}, {}, {}, {}]
    assert state.completed == [[3, 20], [44], [], [12]]
    assert state.display == display.split()
    assert "Deck 2: 37 cards after dealing up to 4 to each seat." in events
    public = state.view(None)
    assert [e["points"] for e in public["seats"]] == [17, 20, 0, 10]
    assert public["deck_number"] == 2 and public["set_aside"]["blue"] == 3


# ---------------------------------------------------------------------------- E9


def e9_end(options: dict | None = None):
    return position(
        3, active=2, final_round=[2], ticket_deck=[5], deck="",
        tickets={0: [1, 9, 16, 31], 1: [13, 21, 44], 2: [3, 8, 46]},
        tracks={
            0: {"black": 1, "white": 2, "yellow": 1, "loco": 1},
            1: {"white": 2, "blue": 3, "red": 1},
            2: {"yellow": 1, "green": 2, "red": 1, "loco": 2},
        },
        display="red red red red red", options=options,
    )  # fmt: skip


def test_e9_final_scoring_with_big_city_ties() -> None:
    state = e9_end()
    state.apply(2, "tickets")
    state.apply(2, "keep none")
    assert state.is_over()
    result = state.result()
    by_seat = {s.seat: s for s in result.seats}
    assert by_seat[0].details["completed_ids"] == [1, 9, 16] and by_seat[0].details["failed_ids"] == [31]
    assert by_seat[1].details["completed_ids"] == [13, 44] and by_seat[1].details["failed_ids"] == [21]
    assert by_seat[2].details["completed_ids"] == [3, 8] and by_seat[2].details["failed_ids"] == [46]
    assert by_seat[0].breakdown == {
        "tickets_deck1": 0,
        "tickets_final": 24,
        "tickets_failed": -14,
        "big_cities": 32,
    }
    assert by_seat[1].breakdown == {
        "tickets_deck1": 0,
        "tickets_final": 30,
        "tickets_failed": -11,
        "big_cities": 23,
    }
    assert by_seat[2].breakdown == {
        "tickets_deck1": 0,
        "tickets_final": 15,
        "tickets_failed": -22,
        "big_cities": 30,
    }
    assert [by_seat[s].score for s in range(3)] == [42, 42, 23]
    assert [by_seat[s].rank for s in range(3)] == [1, 2, 3]
    assert [s.seat for s in result.seats] == [0, 1, 2]
    assert sorted(by_seat[0].details["big_city_cards"]) == ["Chicago", "Los Angeles", "Seattle"]
    assert sorted(by_seat[2].details["big_city_cards"]) == ["Chicago", "Dallas", "Miami"]
    winners = {c["city"]: c["winners"] for c in state.view(None)["big_cities"]}
    assert winners == {
        "New York": [1], "Chicago": [0, 2], "Los Angeles": [0], "Dallas": [2], "Miami": [1, 2], "Seattle": [0]
    }  # fmt: skip
    public = state.view(None)
    assert public["seats"][0]["city_counts"]["Los Angeles"] == 2
    assert public["seats"][1]["revealed_tickets"] == [21]


# ---------------------------------------------------------------------------- E10


def test_e10_choose_mode() -> None:
    state = position(
        2, active=1, final_round=[1], ticket_deck=[30], display="red red red red red",
        tickets={0: [15, 16, 5], 1: [9]},
        tracks={0: {"white": 1, "loco": 1}, 1: {"black": 1, "white": 1}},
        options={"completion": "choose"},
    )  # fmt: skip
    state.apply(1, "tickets")
    state.apply(1, "keep none")
    assert state.phase == "choose"
    assert state.to_act() == frozenset({0})
    assert legal(state, 0) == ["complete 15", "complete 16"]
    assert legal(state, 1) == []
    state.apply(0, "complete 16")
    assert legal(state, 0) == ["done", "undo"]
    # Picks are the picker's secret until everyone is done.
    assert state.view(None).get("picks") is None and state.view(1)["picks"] == [9]
    assert state.view(0)["picks"] == [16]
    refuse(state, 0, "complete 15", "ticket 15 does not fit together with your picks")
    state.apply(0, "undo")
    assert legal(state, 0) == ["complete 15", "complete 16"]
    refuse(state, 0, "done", "another ticket still fits: pick it (completing more never costs you)")
    state.apply(0, "complete 15")
    state.apply(0, "done")
    assert state.is_over()
    result = state.result()
    assert result.score_of(0) == 15 and result.score_of(1) == 29
    by_seat = {s.seat: s for s in result.seats}
    assert by_seat[0].breakdown == {
        "tickets_deck1": 0,
        "tickets_final": 10,
        "tickets_failed": -17,
        "big_cities": 22,
    }
    assert by_seat[1].breakdown == {
        "tickets_deck1": 0,
        "tickets_final": 9,
        "tickets_failed": 0,
        "big_cities": 20,
    }


# ---------------------------------------------------------------------------- E11


def test_e11_stall_guard() -> None:
    state = position(2, deck="black " * 30, ticket_deck=[10, 11, 12, 13, 14], display="red " * 5)
    for turn in range(8):
        seat = turn % 2
        state.apply(seat, "tickets")
        events = texts(state.apply(seat, "keep none"))
        if turn < 7:
            assert state.deck and state.final_round is None
    assert state.ticket_deck == [12, 13, 14, 10, 11]
    assert state.deck == [] and sum(state.closed.values()) == 30
    assert state.view(None)["closed_count"] == 30
    assert state.final_round == [0, 1]
    assert any("the deck is closed (30 cards" in line for line in events)
    assert legal(state, 0) == ["tickets"]
    state.apply(0, "tickets")
    state.apply(0, "keep 10")
    state.apply(1, "tickets")
    state.apply(1, "keep none")
    assert state.is_over()
    result = state.result()
    assert result.score_of(0) == -9 and result.score_of(1) == 0
    assert result.rank_of(1) == 1 and result.rank_of(0) == 2


def test_data_invariants() -> None:
    from rules.ttr_cards.cards import BIG_CITIES, TICKETS

    assert sorted(TICKETS) == list(range(1, 47))
    assert sum(t.card_count for t in TICKETS.values()) == 132
    assert sum(t.points for t in TICKETS.values()) == 581
    sizes = [t.card_count for t in TICKETS.values()]
    assert {k: sizes.count(k) for k in range(1, 6)} == {1: 2, 2: 17, 3: 14, 4: 11, 5: 2}
    per_colour = dict.fromkeys(COLOURS, 0)
    appearances = dict.fromkeys(BIG_CITIES, 0)
    for ticket in TICKETS.values():
        assert all(c in COLOURS and 1 <= n <= 2 for c, n in ticket.cards.items())
        assert ticket.big_cities == tuple(c for c in (ticket.origin, ticket.destination) if c in BIG_CITIES)
        assert ticket.big_cities
        for colour, count in ticket.cards.items():
            per_colour[colour] += count
        for city in ticket.big_cities:
            appearances[city] += 1
    assert per_colour == {"black": 16, "blue": 18, "green": 16, "orange": 16, "purple": 16, "red": 16,
                          "white": 17, "yellow": 17}  # fmt: skip
    assert appearances == {
        "Chicago": 11,
        "New York": 11,
        "Los Angeles": 10,
        "Dallas": 10,
        "Miami": 10,
        "Seattle": 10,
    }
    assert sum(BIG_CITIES[c][0] for c in BIG_CITIES) == 65
    assert set(KINDS) == set(COLOURS) | {LOCO}


def test_opening_events_tell_each_seat_only_its_own_deal() -> None:
    state = DEFINITION.new_game(3, {}, 11)
    events = state._opening_events
    assert [e.seats for e in events] == [None, frozenset({0}), frozenset({1}), frozenset({2})]
    for seat in range(3):
        assert ", ".join(map(str, sorted(state.pending[seat]))) in str(events[seat + 1].text)
    assert "tickets to choose" not in str(events[0].text)
