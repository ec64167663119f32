"""Santa Fe: every worked example of the spec (section 13), exactly, plus the position helpers."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.engine import IllegalMove, name_seats
from rules.santa_fe import DEFINITION
from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.moves import Branch, Lay
from rules.santa_fe.state import SantaFeState

ANN, BOB, CID = 0, 1, 2
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


# --------------------------------------------------------------------------- position helpers


def fresh(
    n: int = 3, round_: int = 2, hands: dict[int, list[str]] | None = None, **options: bool
) -> SantaFeState:
    """A game in step 5.1 of `round_` with Ann first; given city hands (the deck keeps the rest)."""
    state = DEFINITION.new_game(n, options, seed=7)
    assert isinstance(state, SantaFeState)
    state.phase = "choose"
    state.round = round_
    state.first = ANN
    state.engineer_choice = [False] * n
    if hands:
        pool = Counter(BOARD.city_cards)
        for seat, cities in hands.items():
            state.cities[seat] = sorted(cities)
        for seat in range(n):
            pool.subtract(state.cities[seat])
        assert min(pool.values()) >= 0
        state.deck = sorted(pool.elements())
    return state


def at_lay(state: SantaFeState, seat: int, phase: str = "lay1", dt: bool = False) -> SantaFeState:
    """Put the game in a lay pass with `seat` to place (Ann first)."""
    state.phase = phase
    state.first = ANN
    state.turn = (seat - state.first) % state.num_seats
    state.round_dt[seat] = dt
    state.placements_left = 2 if dt else 1
    state.pass_laid = False
    return state


def track(state: SantaFeState, rr: str, line: int, cities: list[str], last: int | None = None) -> None:
    """Build `rr` line `line` along `cities` (each section completed; `last` tiles on the final one).

    Uses the engine's own tile placement, without seats, money or turn order.
    """
    for start, end in zip(cities, cities[1:], strict=False):
        sid = BOARD.between[frozenset((start, end))]
        count = BOARD.sections[sid].spaces if end != cities[-1] or last is None else last
        for _ in range(count):
            state.put_tile(rr, Lay(rr, line, end))
            state.supply[rr] -= 1


def branch_track(state: SantaFeState, rr: str, start: str, end: str, tiles: int) -> None:
    """Start a new line of rr at `start` toward `end` and lay `tiles` tiles on it."""
    state.put_tile(rr, Branch(rr, start, end))
    state.supply[rr] -= 1
    number = len(state.lines[rr])
    for _ in range(tiles - 1):
        state.put_tile(rr, Lay(rr, number, end))
        state.supply[rr] -= 1


def texts(state: SantaFeState, seat: int) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]


def reason(state: SantaFeState, seat: int, move: str) -> str:
    """Apply a move that must be refused; check the state is unchanged; return the named reason."""
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        state.apply(seat, move)
    assert state.to_json() == before
    return name_seats(caught.value.reason, NAMES)


def public_texts(events: list, seat: int | None = None) -> list[str]:
    return [name_seats(e.text, NAMES) for e in events if e.visible_to(seat)]


# --------------------------------------------------------------------------- 1. setup counts


def test_example_1_setup_counts_basic() -> None:
    state = DEFINITION.new_game(3, {}, seed=1)
    for seat in range(3):
        assert state.money[seat] == 2
        assert len(state.cities[seat]) == 4 and state.dt[seat] == 1 and state.branch[seat] is None
    assert len(state.deck) == 54
    assert state.dt_pile == 2
    assert state.branch_piles == dict.fromkeys(RAILROADS, 2)
    assert state.engineers_left == 0 and not any(state.engineer)
    assert state.view(None)["engineers_left"] == 0


def test_example_1_setup_advanced_engineers() -> None:
    state = DEFINITION.new_game(4, {"advanced": True}, seed=1)
    assert state.money == [5, 5, 5, 5]
    assert state.dt_pile == 3
    assert state.phase == "engineer" and state.to_act() == frozenset(range(4))
    events = (
        state.apply(ANN, "buy engineer")
        + state.apply(CID, "buy engineer")
        + state.apply(BOB, "decline engineer")
    )
    # Hidden until the last answer: nothing was paid yet.
    assert state.money == [5, 5, 5, 5] and state.engineers_left == 5
    assert "buy engineer" not in json.dumps(state.view(BOB)) and "buy engineer" not in json.dumps(
        state.view(None)
    )
    events = state.apply(3, "decline engineer")
    assert state.money == [1, 5, 1, 5]
    assert state.engineers_left == 3
    assert state.engineer == [True, False, True, False]
    assert state.hand_limit == [5, 5, 5, 5]
    assert "Engineers bought by: Ann, Cid." in public_texts(events)
    assert state.phase == "choose" and state.round == 1


def test_setup_deck_sizes_per_player_count() -> None:
    for n, deck, pile in ((2, 58, 1), (3, 54, 2), (4, 50, 3), (5, 46, 4)):
        state = DEFINITION.new_game(n, {}, seed=n)
        assert len(state.deck) == deck and state.dt_pile == pile
        assert state.dt_box == 9 - (2 * n - 1)


# --------------------------------------------------------------------------- 2. round 1 play


def test_example_2_round_one_play() -> None:
    state = fresh(
        round_=1,
        hands={
            ANN: ["denver", "fresno", "omaha", "seattle"],
            BOB: ["reno", "tucson", "yuma", "boise"],
            CID: ["fargo", "hays", "dallas", "spokane"],
        },
    )
    assert texts(state, ANN) == ["play denver", "play fresno", "play omaha", "play seattle"]
    assert reason(state, ANN, "play double") == "In round 1 you must play a city card."
    events = state.apply(ANN, "play omaha")
    assert public_texts(events) == ["Ann has chosen."]
    public = state.view(None)
    assert public["seats"][ANN]["chosen"] is True
    assert public["seats"][ANN]["hand_cities"] == 4 and public["seats"][ANN]["played"] == []
    for seat in (None, BOB, CID):
        assert "omaha" not in json.dumps(state.view(seat)).replace("omaha-", "")
    assert state.view(ANN)["pending"] == "play omaha"
    assert state.to_act() == frozenset((BOB, CID))


# --------------------------------------------------------------------------- 3. first placements


def test_example_3_first_placements() -> None:
    state = at_lay(fresh(), ANN)
    assert texts(state, ANN) == sorted(
        [f"lay {rr} 1 {c}" for rr in ("sf", "up") for c in ("kansas-city", "minneapolis", "omaha")]
        + ["lay gn 1 minneapolis"]
        + [f"lay kp 1 {c}" for c in ("chicago", "dallas", "hays", "omaha", "wichita")]
        + ["lay sp 1 dallas", "lay sp 1 houston"]
    )
    assert len(texts(state, ANN)) == 14
    money = list(state.money)
    state.apply(ANN, "lay up 1 omaha")
    assert state.lanes[2] == [["up", 1, "chicago", 1], None]
    assert state.supply["up"] == 23
    assert state.money == money
    legal = texts(state, BOB)
    assert len(legal) == 12
    assert [m for m in legal if m.startswith("lay up")] == ["lay up 1 omaha"]
    assert "lay sf 1 omaha" in legal


# --------------------------------------------------------------------------- 4. other end blocked


def test_example_4_other_end_blocked() -> None:
    state = fresh()
    track(state, "kp", 1, ["kansas-city", "dallas"], last=1)
    track(state, "sp", 1, ["new-orleans", "dallas"])
    at_lay(state, ANN)
    assert [m for m in texts(state, ANN) if m.startswith("lay sp")] == [
        "lay sp 1 amarillo",
        "lay sp 1 houston",
        "lay sp 1 san-antonio",
        "lay sp 1 wichita",
    ]
    assert reason(state, ANN, "lay sp 1 kansas-city") == "Kansas City–Dallas is already being built by KP."


# --------------------------------------------------------------------------- 5. double section


def test_example_5_double_section() -> None:
    state = fresh()
    track(state, "up", 1, ["chicago", "omaha"])
    track(state, "kp", 1, ["kansas-city", "omaha"])
    at_lay(state, CID)
    state.round_branch[CID] = "up"
    assert reason(state, CID, "branch up chicago omaha") == "UP already has track on Chicago–Omaha."
    legal = texts(state, CID)
    assert "branch up chicago kansas-city" in legal
    assert "lay kp 1 chicago" in legal
    state.apply(CID, "lay kp 1 chicago")
    assert state.lanes[2][1] == ["kp", 1, "omaha", 1]
    at_lay(state, ANN)
    assert reason(state, ANN, "lay sf 1 omaha") == "Both lanes of Chicago–Omaha are taken."


# --------------------------------------------------------------------------- 6. the seed's Houston example


def houston_position(dt: bool, sp_first: bool) -> SantaFeState:
    state = fresh()
    track(state, "sf", 1, ["chicago", "kansas-city", "dallas"])
    branch_track(state, "sf", "dallas", "houston", 1)
    if sp_first:
        track(state, "sp", 1, ["new-orleans", "houston"])
    return at_lay(state, BOB, dt=dt)


@pytest.mark.parametrize(
    ("dt", "sp_first", "gain"), [(False, False, 6), (True, False, 12), (False, True, 4), (True, True, 8)]
)
def test_example_6_houston_bonus(dt: bool, sp_first: bool, gain: int) -> None:
    state = houston_position(dt, sp_first)
    assert state.railroads_at("houston") == (["sp"] if sp_first else [])
    before = state.money[BOB]
    state.apply(BOB, "lay sf 2 houston")
    assert state.money[BOB] - before == gain
    assert "houston" in state.connected["sf"]
    assert state.lines["sf"][1] == {"at": "houston"}
    seat = BOB if dt else CID  # with a DT Bob makes a second placement
    assert state.current() == seat
    legal = [m for m in texts(state, seat) if m.startswith("lay sf 2")]
    expected = ["lay sf 2 san-antonio"] + ([] if sp_first else ["lay sf 2 new-orleans"])
    assert sorted(legal) == sorted(expected)
    assert "lay sf 2 dallas" not in legal


# --------------------------------------------------------------------------- 7. branch


def test_example_7_branch() -> None:
    state = fresh(hands={ANN: ["denver", "fresno", "helena", "seattle"]})
    track(state, "up", 1, ["chicago", "omaha"])
    track(state, "sf", 1, ["chicago", "kansas-city", "wichita", "amarillo", "albuquerque"])
    assert state.supply["sf"] == 19
    state.branch[ANN] = "sf"
    state.branch_piles["sf"] = 1
    state.apply(ANN, "play denver branch sf")
    for seat in (BOB, CID):
        state.apply(seat, state.legal_moves(seat)[0])
    assert state.phase == "lay1" and state.current() == ANN
    sf_moves = [m for m in texts(state, ANN) if " sf " in f" {m} "]
    expected = ["lay sf 1 el-paso", "lay sf 1 flagstaff", "lay sf 1 santa-fe"] + [
        f"branch sf {a} {b}"
        for a, bs in (
            ("chicago", ["minneapolis", "omaha"]),
            ("kansas-city", ["dallas", "hays", "omaha"]),
            ("wichita", ["dallas", "hays"]),
            ("amarillo", ["dallas", "denver", "santa-fe"]),
            ("albuquerque", ["el-paso", "flagstaff", "santa-fe"]),
        )
        for b in bs
    ]
    assert sorted(sf_moves) == sorted(expected) and len(sf_moves) == 16
    removed = state.branch_removed
    state.apply(ANN, "branch sf wichita dallas")
    assert state.lines["sf"][1] == {"sec": 14, "lane": 0}
    assert state.lanes[14][0] == ["sf", 2, "wichita", 1]
    assert state.supply["sf"] == 18
    assert state.branch_used[ANN] and state.branch_removed == removed + 1
    assert "lay sf 2 dallas" in texts(state, state.current())


# --------------------------------------------------------------------------- 8. double turn


def test_example_8_double_turn() -> None:
    state = fresh(
        hands={
            ANN: ["el-paso", "fresno", "helena", "seattle"],
            BOB: ["reno", "tucson", "yuma", "boise"],
            CID: ["fargo", "hays", "dallas", "spokane"],
        }
    )
    state.apply(ANN, "play double")
    state.apply(BOB, "play reno")
    events = state.apply(CID, "play hays")
    assert "Round 2 reveal: Ann plays a double-turn card; Bob plays Reno; Cid plays Hays." in public_texts(
        events
    )
    assert state.current() == ANN and state.placements_left == 2
    state.apply(ANN, "lay kp 1 omaha")
    assert state.current() == ANN
    before = state.money[ANN]
    state.apply(ANN, "lay kp 1 omaha")
    assert state.money[ANN] - before == 4
    assert state.current() == BOB
    state.apply(BOB, "lay sf 1 omaha")
    state.apply(CID, "lay sf 1 omaha")
    assert state.phase == "exchange" and state.to_act() == frozenset((ANN,))
    deck = len(state.deck)
    top = state.deck[:2]
    events = state.apply(ANN, "exchange fresno helena")
    assert len(state.deck) == deck - 2
    assert state.cities[ANN] == sorted(["el-paso", "seattle", *top])
    assert "Ann exchanged 2 cards." in public_texts(events)
    for seen in public_texts(events, BOB):
        assert "Fresno" not in seen and BOARD.name(top[0]) not in seen.replace("Ann exchanged", "")
    assert state.view(None)["seats"][ANN]["exchanged"] == 2
    assert state.view(ANN)["exchange_history"] == [{"round": 2, "out": ["fresno", "helena"], "in": top}]
    # Pass 2: Ann twice, then Bob, then Cid.
    assert state.phase == "lay2"
    order = []
    while state.phase == "lay2":
        seat = state.current()
        order.append(seat)
        state.apply(seat, state.legal_moves(seat)[0])
    assert order == [ANN, ANN, BOB, CID]
    assert state.phase == "draw" and state.current() == ANN
    assert state.dt_pile == 3  # 2 + Ann's played DT
    assert state.hand_size(ANN) == 4
    assert "draw double" in texts(state, ANN)
    state.apply(ANN, "draw double")
    assert state.current() == BOB  # one draw filled Ann's hand


# --------------------------------------------------------------------------- 9. draw step


def test_example_9_draw_step() -> None:
    state = fresh()
    state.phase, state.turn = "draw", 1
    state.cities[BOB] = ["omaha", "reno", "yuma"][:2]
    state.dt[BOB] = 1
    state.branch[BOB] = None
    state.money[BOB] = 1
    assert state.hand_size(BOB) == 3
    assert texts(state, BOB) == sorted(
        ["draw city", "draw double"] + [f"draw branch {rr}" for rr in RAILROADS]
    )
    state.apply(BOB, "draw branch sp")
    assert state.money[BOB] == 0 and state.branch[BOB] == "sp"
    assert texts(state, BOB) == ["draw city", "draw double"]
    assert reason(state, BOB, "draw branch gn") == "You already hold a branch card."


def test_example_9_draw_engineer() -> None:
    state = fresh(advanced=True)
    state.phase, state.turn = "draw", 2
    state.cities[CID] = state.cities[CID][:3]
    assert state.hand_size(CID) == 4
    money = state.money[CID]
    assert "draw engineer" in texts(state, CID)
    state.apply(CID, "draw engineer")
    assert state.money[CID] == money and state.engineer[CID] and state.hand_limit[CID] == 4
    assert state.current() != CID  # Cid's draw step ended


def only_paid_draws(state: SantaFeState, seat: int) -> None:
    """Empty deck and double-turn pile: a seat below its hand limit could only buy branch cards."""
    state.phase, state.turn = "draw", (seat - state.first) % state.num_seats
    state.deck, state.dt_pile = [], 0
    state.cities[seat] = state.cities[seat][:2]
    state.dt[seat], state.branch[seat], state.money[seat] = 0, None, 3


def test_d11_draw_none_when_only_branch_cards_are_left() -> None:
    state = fresh()
    only_paid_draws(state, CID)
    only_paid_draws(state, BOB)
    assert texts(state, BOB) == sorted([f"draw branch {rr}" for rr in RAILROADS] + ["draw none"])
    hand = list(state.cities[BOB])
    events = state.apply(BOB, "draw none")
    assert "Bob stops drawing this round." in [name_seats(e.text, NAMES) for e in events]
    assert state.cities[BOB] == hand and state.branch[BOB] is None and state.money[BOB] == 3
    assert state.current() == CID  # Bob's draw step ended below his hand limit


def test_d11_a_single_branch_pile_is_never_bought_automatically() -> None:
    state = fresh()
    only_paid_draws(state, BOB)
    only_paid_draws(state, ANN)
    state.branch_piles = dict.fromkeys(RAILROADS, 0) | {"gn": 1}
    state.apply(ANN, "draw none")  # the engine moves on to Bob, whose only draw costs money
    assert state.current() == BOB
    assert texts(state, BOB) == ["draw branch gn", "draw none"]  # a decision, not a forced buy
    assert state.money[BOB] == 3 and state.branch_piles["gn"] == 1 and state.branch[BOB] is None
    assert str(state.timeout_move(BOB)) == "draw none"
    state.apply(BOB, "draw branch gn")
    assert state.branch[BOB] == "gn" and state.money[BOB] == 2


def test_d11_draw_none_is_refused_while_a_free_draw_is_possible() -> None:
    state = fresh()
    state.phase, state.turn = "draw", 1
    state.cities[BOB] = state.cities[BOB][:2]
    assert "draw city" in texts(state, BOB) and "draw none" not in texts(state, BOB)
    assert reason(state, BOB, "draw none") == (
        "You may stop drawing only when a branch card is the only draw left."
    )


# --------------------------------------------------------------------------- 10. game end E2


def e2_position(cid_branch: bool) -> SantaFeState:
    state = fresh(hands={CID: ["reno", "tucson", "yuma", "boise"]})
    track(state, "up", 1, ["chicago", "omaha"])
    branch_track(state, "sf", "chicago", "omaha", 4)
    track(state, "sf", 1, ["chicago", "kansas-city"])
    track(state, "kp", 1, ["kansas-city", "chicago"])
    track(state, "gn", 1, ["milwaukee", "minneapolis", "chicago"], last=3)
    state.supply = {"sf": 0, "sp": 0, "gn": 19, "up": 0, "kp": 0}
    if cid_branch:
        state.round_branch[CID] = "gn"
    state.round_city = ["omaha", "helena", "reno"]
    return at_lay(state, BOB, phase="lay2")


def test_example_10_cannot_place_ends_game() -> None:
    state = e2_position(cid_branch=False)
    assert texts(state, BOB) == ["lay gn 1 chicago"]
    events = state.apply(BOB, "lay gn 1 chicago")
    assert state.supply["gn"] == 18 and state.lines["gn"] == [{"at": "chicago"}]
    assert state.is_over() and state.ended_by == "E2"
    assert "Game over: Cid cannot lay any track." in public_texts(events)
    assert state.result() is not None
    assert state.branch_piles["gn"] == 2


def test_example_10_variant_branch_goes_on() -> None:
    state = e2_position(cid_branch=True)
    state.apply(BOB, "lay gn 1 chicago")
    assert not state.is_over()
    assert state.to_act() == frozenset((CID,))
    assert "branch gn minneapolis fargo" in texts(state, CID)


# --------------------------------------------------------------------------- 11. advanced costs and E3


def test_example_11_advanced_costs_and_pass() -> None:
    state = fresh(n=2, advanced=True)
    state.money = [0, 3]
    state.engineer = [False, True]
    state.engineers_left = 4
    track(state, "up", 1, ["chicago", "omaha"], last=1)
    track(state, "kp", 1, ["kansas-city", "hays", "denver"])
    # Every other section at Denver is finished by SF (no tiles left), so KP can only go west.
    for other in ("north-platte", "cheyenne", "santa-fe", "amarillo"):
        sid = BOARD.between[frozenset(("denver", other))]
        state.lanes[sid] = [["sf", 1, other, BOARD.sections[sid].spaces]] * BOARD.sections[sid].lanes
    state.supply.update(sf=0, sp=0, gn=0)
    at_lay(state, ANN)
    possible = sorted(str(m) for m, _ in state.possible_placements(ANN))
    assert possible == ["lay kp 1 grand-junction", "lay up 1 omaha"]
    assert texts(state, ANN) == ["pass"]
    events: list = []
    state._advance(events)  # the engine's forced-move step (D17), as after the previous move
    assert public_texts(events) == ["Ann passes. (automatic)"]
    assert state.current() == BOB
    costs = dict((str(m), c) for m, c in state.possible_placements(BOB))
    assert costs == {"lay up 1 omaha": 0, "lay kp 1 grand-junction": 1}
    assert texts(state, BOB) == ["lay kp 1 grand-junction", "lay up 1 omaha", "pass"]
    state.apply(BOB, "pass")
    assert state.is_over() and state.ended_by == "E3"
    sid = BOARD.between[frozenset(("denver", "grand-junction"))]
    assert state.space_cost(ANN, sid, "denver", 2) == 2
    assert state.space_cost(BOB, sid, "denver", 2) == 0


def test_example_11_cost_refused_with_reason() -> None:
    state = fresh(n=2, advanced=True)
    state.money = [0, 3]
    track(state, "up", 1, ["chicago", "omaha"], last=1)
    at_lay(state, ANN)
    assert reason(state, ANN, "lay up 1 omaha") == "You need $1 for this space; you have $0."


# --------------------------------------------------------------------------- 12. scoring and tie-break


def test_example_12_scoring_and_tiebreak() -> None:
    state = fresh(n=2)
    reach = {
        "los-angeles": ["sp", "sf"],
        "denver": ["kp", "up", "sf"],
        "helena": ["gn", "up"],
        "omaha": ["up", "kp"],
        "seattle": ["gn"],
        "phoenix": ["sp"],
    }
    for rr in RAILROADS:
        state.connected[rr] = [BOARD.railroads[rr].start_city] + [c for c, rrs in reach.items() if rr in rrs]
    state.money = [9, 22]
    state.played = [
        ["los-angeles", "los-angeles", "denver", "wichita"],
        ["seattle", "phoenix", "helena", "omaha"],
    ]
    state.phase = "over"
    result = state.result()
    assert result is not None
    assert result.score_of(ANN) == 49 and result.score_of(BOB) == 49
    ann = next(s for s in result.seats if s.seat == ANN)
    assert ann.breakdown == {"money": 9, "2x Los Angeles (7x2)": 28, "Denver (4x3)": 12, "Wichita (2x0)": 0}
    bob = next(s for s in result.seats if s.seat == BOB)
    assert bob.breakdown == {
        "money": 22,
        "Seattle (7x1)": 7,
        "Phoenix (6x1)": 6,
        "Helena (5x2)": 10,
        "Omaha (2x2)": 4,
    }
    assert result.rank_of(ANN) == 1 and result.rank_of(BOB) == 2
    assert result.seats[0].seat == ANN


def test_shared_rank_when_fully_tied() -> None:
    state = fresh(n=2)
    state.money = [5, 5]
    state.played = [["seattle"], ["portland"]]
    state.phase = "over"
    result = state.result()
    assert result is not None and result.rank_of(ANN) == result.rank_of(BOB) == 1


# --------------------------------------------------------------------------- 13. tile buying


def test_example_13_tile_buying() -> None:
    state = fresh(tile_buying=True)
    state.phase, state.turn = "buy", 0
    assert "buy tile sf" in texts(state, ANN) and "buy nothing" in texts(state, ANN)
    state.apply(ANN, "buy tile sf")
    assert state.money[ANN] == 1 and state.supply["sf"] == 31 and state.bought[ANN]["sf"] == 1
    assert state.view(None)["seats"][ANN]["bought"]["sf"] == 1
    # While any colour is in the supply the bought tile is not laid: supply tiles are used.
    at_lay(state, ANN)
    before = state.bought[ANN]["sf"]
    state.apply(ANN, "lay sf 1 omaha")
    assert state.bought[ANN]["sf"] == before and state.supply["sf"] == 30
    # Bought-tile phase: all supplies empty.
    state = fresh(tile_buying=True)
    state.supply = dict.fromkeys(RAILROADS, 0)
    state.bought[ANN]["sf"] = 1
    state.bought[CID]["kp"] = 1
    at_lay(state, ANN)
    assert state.bought_phase()
    assert "pass" in texts(state, ANN) and "lay sf 1 omaha" in texts(state, ANN)
    assert not any(m.startswith("lay kp") for m in texts(state, ANN))
    events = state.apply(ANN, "lay sf 1 omaha")
    assert state.bought[ANN]["sf"] == 0
    assert "Bob passes. (automatic)" in public_texts(events)
    assert state.current() == CID
    events = state.apply(CID, "lay kp 1 omaha")
    # No bought tile is left anywhere: the game ends.
    assert state.is_over() and state.ended_by == "E1"


def test_example_13_nobody_lays_in_bought_phase_ends() -> None:
    state = fresh(tile_buying=True)
    state.supply = dict.fromkeys(RAILROADS, 0)
    state.bought[ANN]["sf"] = 1
    at_lay(state, ANN)
    state.apply(ANN, "pass")
    assert state.is_over() and state.ended_by == "E3"


def test_example_13_bought_tile_wasted_by_e2() -> None:
    state = e2_position(cid_branch=False)
    state.options["tile_buying"] = True
    state.bought[CID]["sf"] = 1
    state.apply(BOB, "lay gn 1 chicago")
    assert state.is_over() and state.ended_by == "E2"
    assert state.bought[CID]["sf"] == 1
