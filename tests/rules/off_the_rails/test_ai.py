"""Off the Rails AI: the blunders of issue 15 (missed chasm delivery, own-cart rams, rift parking, split habits)."""

from __future__ import annotations

import heapq
import random
import re

import pytest

from rules.engine import ai_move, play_out
from rules.off_the_rails import DEFINITION, board
from rules.off_the_rails.ai import (
    _TABLES,
    BOLD,
    CLOSE_DECK,
    ENDGAME_DECK,
    INF,
    SCORE_SCALE,
    Board,
    GreedyAI,
    HardAI,
    Planner,
    endgame,
    estimate,
    hard_ai,
    next_turn,
    next_turn_while_mining,
)
from rules.off_the_rails.state import OffTheRailsState, split_options
from rules.search import SearchAI, SearchBudget

# 3 players, seed 7, the previous greedy AI in every seat, up to Bob's action phase in turn 26.
SEED_7_TO_TURN_26 = (
    "0 cart white e1;0 lay e2 ns;0 lay e3 ns;0 lay e4 nw;0 end;1 cart white n5;1 lay m5 es;"
    "1 lay m6 nw;1 lay l6 ew;1 end;2 cart white g14;2 lay g13 ns;2 lay g12 ns;2 lay g11 sw;2 end;"
    "0 lay d4 es;0 lay d5 ns;0 upgrade d5 nsw;0 speed white down;0 end;0 go s;1 lay k6 ne;"
    "1 speed white down;1 speed white down;1 cart black n5;1 end;1 run white;2 lay f11 ne;"
    "2 lay f10 ns;2 lay f9 es;2 cart black g14;2 end;2 run white;2 take gold;0 lay d6 ne;"
    "0 speed white down;0 cart black e1;0 upgrade e4 new;0 end;0 run white;0 go e;1 lay k5 ns;"
    "1 speed black down;1 speed black down;1 end;1 run white;2 lay g9 ew;2 lay h9 ew;"
    "2 speed white down;2 end;2 run white;2 take gold;2 take gold;0 lay f4 sw;0 lay f5 ns;"
    "0 lay e6 ew;0 speed black down;0 end;0 run white;0 take emerald;0 take diamond;1 lay k4 sw;"
    "1 upgrade k4 esw;1 end;1 run white;1 go e;2 lay i9 ew;2 upgrade i9 esw;2 speed white down;"
    "2 speed black down;2 end;2 run white;2 take gold;2 go s;0 lay f6 nw;0 end;0 run white;"
    "0 split rock ruby;0 pick left;1 lay l4 ew;1 lay m4 sw;1 end;1 run white;1 go w;2 lay i10 ns;"
    "2 lay i11 nw;2 speed white up;2 end;2 run white;2 take gold;2 go s;0 speed black up;"
    "0 speed black up;0 speed black up;0 end;0 run white;0 go n;1 lay j4 ew;1 upgrade m5 nes;"
    "1 speed white up;1 speed white up;1 end;1 run white;1 go e;2 lay h11 ew;2 upgrade g11 esw;"
    "2 end;2 run white;2 go s;0 upgrade d6 nes;0 lay d7 nw;0 end;0 go s;0 rift c4;1 lay i4 es;"
    "1 lay i5 ns;1 speed black up;1 end;1 take emerald;1 take emerald;1 rift d5;2 speed white up;"
    "2 speed black up;2 speed black up;2 end;2 run white;2 go s;2 rift c11;0 lay c7 ew;"
    "0 lay b7 ew;0 end;0 rift b11;1 lay i6 ne;1 lay j6 ew;1 end;1 rift k4;2 end;2 rift a11;"
    "0 speed white up;0 speed white up;0 end;0 rift a12"
)


def _replay(players: int, seed: int, log: str) -> OffTheRailsState:
    state = DEFINITION.new_game(players, {}, seed)
    assert isinstance(state, OffTheRailsState)
    for entry in log.split(";"):
        seat, text = entry.split(" ", 1)
        state.apply(int(seat), text)
    return state


def test_takes_the_delivery_the_open_chasm_still_allows() -> None:
    state = _replay(3, 7, SEED_7_TO_TURN_26)
    assert state.turn == 26 and state.stage == "chasm" and state.to_act() == {1}
    bob = GreedyAI()
    before = sum(state.stockpiles[1].values())
    # The old AI ended at once and derailed with 5 gems; upgrading k6 and speeding up to 5 delivers at n5.
    first = ai_move(state, 1, bob)
    assert str(first) != "end"
    while state.to_act() == {1} and state.turn == 26:
        state.apply(1, ai_move(state, 1, bob))
    assert sum(state.stockpiles[1].values()) == before + 5


def _all_greedy_events(players: int, seed: int) -> list[str]:
    state = DEFINITION.new_game(players, {}, seed)
    lines: list[str] = []
    play_out(
        state,
        {s: GreedyAI() for s in range(players)},
        on_move=lambda _s, _m, events: lines.extend(str(e.text) for e in events if e.seats is None),
    )
    assert state.is_over()
    return lines


def test_rarely_rams_its_own_carts() -> None:
    """The old AI ran into its own cart in 70 of 109 collisions over 60 games; now about 1 in 4."""
    own = collisions = 0
    for players, seed in ((2, 3), (2, 5), (3, 21), (4, 1)):
        for line in _all_greedy_events(players, seed):
            hit = re.match(r"(.*)'s \w+ cart hits (.*)'s \w+ cart on", line)
            if hit:
                collisions += 1
                own += hit.group(1) == hit.group(2)
    assert own <= max(2, collisions // 3), (own, collisions)


def _first_decision(phase: str) -> OffTheRailsState:
    for seed in range(40):
        state = DEFINITION.new_game(2, {}, seed)
        assert isinstance(state, OffTheRailsState)
        ais = {s: GreedyAI() for s in range(2)}
        while state.to_act():
            seat = min(state.to_act())
            if state.phase == phase:
                return state
            state.apply(seat, ai_move(state, seat, ais[seat]))
    raise AssertionError(f"no {phase} decision in 40 games")


def test_picks_both_hands_and_splits_evenly() -> None:
    state = _first_decision("pick")
    seat = min(state.to_act())
    view, legal = state.view(seat), state.legal_moves(seat)
    picks = {str(GreedyAI().choose(view, legal, random.Random(n))) for n in range(20)}
    assert picks == {"pick left", "pick right"}

    state = _first_decision("split")
    seat = min(state.to_act())
    view, legal = state.view(seat), state.legal_moves(seat)
    hit = state.carts[state.flow["collision"]["hit_seat"]][state.flow["collision"]["hit_cart"]]
    total = board.gem_value(dict(hit.load))

    def imbalance(text: str) -> int:
        return abs(2 * sum(board.GEM_POINTS[g] for g in text.split()[1:]) - total)

    chosen = GreedyAI().choose(view, legal, random.Random(1))
    assert imbalance(str(chosen)) == min(imbalance(str(m)) for m in legal)


def test_a_cart_next_to_a_rift_whose_colour_can_land_there_is_at_risk() -> None:
    state = _replay(3, 7, SEED_7_TO_TURN_26)
    planner = Planner(state.view(1), 1)
    # k5 holds a yellow rift and yellow tokens are left: k6 is exposed, a square far from rifts is not.
    assert state.rifts.get("k5") == "yellow" and state.rift_supply["yellow"] > 0
    assert planner.rift_risk("k6") > 0.5
    far = next(
        sq
        for sq in board.SQUARES
        if sq not in state.rifts
        and all(
            board.NEIGHBOUR[(n, e)] not in state.rifts
            for n in [sq, *(board.NEIGHBOUR[(sq, d)] for d in board.EDGES)]
            if n is not None
            for e in board.EDGES
        )
    )
    assert planner.rift_risk(far) == 0.0


def _twin(state: OffTheRailsState, rng: random.Random) -> OffTheRailsState:
    """The same game for every seat: the next deposit card swaps with a face-down card of its colour
    (in the chasm deck or out of the game), and a new RNG."""
    twin = OffTheRailsState.from_json(state.to_json())
    twin.rng = random.Random(rng.getrandbits(64))
    index = next(i for i, c in enumerate(twin.deck) if c != board.COLLAPSE)
    colour = board.CARDS[twin.deck[index]]["colour"]
    for pile in (twin.unused_cards, twin.chasm_deck):
        spare = next((i for i, c in enumerate(pile) if board.CARDS[c]["colour"] == colour), None)
        if spare is not None:
            twin.deck[index], pile[spare] = pile[spare], twin.deck[index]
            break
    twin.unused_cards.sort()
    return twin


def _position(players: int, seed: int, moves: int) -> OffTheRailsState:
    state = DEFINITION.new_game(players, {}, seed)
    assert isinstance(state, OffTheRailsState)
    play_out(state, {s: GreedyAI() for s in range(players)}, max_moves=moves)
    assert not state.is_over()
    return state


POSITIONS = [(2, 11, 0), (3, 12, 40), (4, 13, 90)]


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_determinize_keeps_the_view_and_ignores_secrets(players: int, seed: int, moves: int) -> None:
    state = _position(players, seed, moves)
    for seat in range(players):
        world = state.determinize(seat, random.Random(7))
        assert world.view(seat) == state.view(seat)
        assert len(world.deck) == len(state.deck) and world.to_json() != state.to_json()
        twin = _twin(state, random.Random(seed + seat))
        assert twin.view(seat) == state.view(seat) and twin.to_json() != state.to_json()
        assert twin.determinize(seat, random.Random(7)).to_json() == world.to_json()


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_twin_positions_give_the_same_choice(players: int, seed: int, moves: int) -> None:
    state = _position(players, seed, moves)
    seat = min(state.to_act())
    twin = _twin(state, random.Random(seed))
    assert ai_move(twin, seat, GreedyAI()) == ai_move(state, seat, GreedyAI())
    small = SearchAI(GreedyAI, SearchBudget(rollouts=4, candidates=2, horizon=6), estimate, SCORE_SCALE)
    assert ai_move(twin, seat, small) == ai_move(state, seat, small)


def test_a_split_hand_stays_secret_from_the_picker() -> None:
    state = _first_decision("pick")
    picker = min(state.to_act())
    collision = state.flow["collision"]
    worlds = {tuple(state.determinize(picker, random.Random(n)).flow["collision"]["left"]) for n in range(20)}
    hit = state.carts[collision["hit_seat"]][collision["hit_cart"]]
    if collision["hit_seat"] != picker and len(split_options(hit.load)) > 1:
        assert len(worlds) > 1
    else:
        assert worlds == {tuple(collision["left"])}


def test_cached_tables_are_the_tables_of_that_board() -> None:
    state = _position(3, 12, 40)
    view = state.view(0)
    cached = Board(view, 0)
    _TABLES.clear()
    fresh = Board(view, 0)
    assert fresh.home == cached.home and fresh.mine == cached.mine
    # Another seat's view of the same board shares the tables.
    assert Board(state.view(1), 1).home is fresh.home


def _tables_by_entry(b: Board) -> tuple[dict[tuple[str, str], float], dict[tuple[str, str], float]]:
    """The cost-to-go tables as first written: Dijkstra over (square, facing) pairs relaxing `entry`."""
    entries = {(t, v): b.entry(t, v, "home") for t in board.SQUARES for v in board.EDGES}
    tables = []
    for goal in ("home", "gems"):
        gems = b.gems if goal == "gems" else None
        cost: dict[tuple[str, str], float] = {}
        best: dict[tuple[str, str], float] = {}
        heap: list[tuple[float, str, str]] = []
        for square in board.SQUARES:
            for f in board.EDGES:
                target = board.NEIGHBOUR[(square, f)]
                if target is None:
                    continue
                c, _exits, home = entries[(target, board.OPPOSITE[f])]
                reached = home if gems is None else target in gems and target not in board.START
                if reached and c < INF:
                    heap.append((c, square, f))
                    best[(square, f)] = c
        heapq.heapify(heap)
        while heap:
            c, square, f = heapq.heappop(heap)
            if (square, f) in cost:
                continue
            cost[(square, f)] = c
            for via in board.EDGES:
                pred = board.NEIGHBOUR[(square, via)]
                if via == f or pred is None or (pred, board.OPPOSITE[via]) in cost:
                    continue
                step, exits, home = entries[(square, via)]
                if step >= INF or f not in exits or (home if gems is None else square in gems):
                    continue
                if c + step < best.get((pred, board.OPPOSITE[via]), INF):
                    best[(pred, board.OPPOSITE[via])] = c + step
                    heapq.heappush(heap, (c + step, pred, board.OPPOSITE[via]))
        tables.append(cost)
    return tables[0], tables[1]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 5)])
def test_tables_are_those_of_the_plain_search_to_the_last_bit(players: int, seed: int) -> None:
    # The numbered search with cached square edges must give the same floats (moves depend on ties).
    state = DEFINITION.new_game(players, {}, seed)
    greedy = GreedyAI()
    checked = 0
    for number in range(10_000):
        acting = state.to_act()
        if not acting:
            break
        actor = min(acting)
        if number % 5 == 0:
            _TABLES.clear()
            b = Board(state.view(actor), actor)
            home, mine = _tables_by_entry(b)
            assert b.home == home and b.mine == mine
            assert [repr(v) for v in b.home.values()] == [repr(v) for v in home.values()]
            checked += 1
        state.apply(actor, ai_move(state, actor, greedy))
    assert checked > 15


def _first_late_action(players: int, seed: int) -> OffTheRailsState:
    """The first action phase, with a choice, after the collapse card came out (greedy players)."""
    state = DEFINITION.new_game(players, {}, seed)
    assert isinstance(state, OffTheRailsState)
    greedy = {s: GreedyAI() for s in range(players)}
    while not (state.stage != "mining" and state.phase == "action" and state.actions_used == 0):
        play_out(state, greedy, max_moves=1)
        assert not state.is_over()
    return state


def test_hard_level_rolls_out_to_the_next_turn_while_mining_and_to_the_end_later() -> None:
    hard = hard_ai()
    assert isinstance(hard, HardAI) and hard.stop is next_turn_while_mining
    early = _position(2, 11, 0)
    later = early.copy()
    play_out(later, {0: GreedyAI(), 1: GreedyAI()}, max_moves=40)
    assert next_turn_while_mining(early, later) == next_turn(early, later)
    late = _first_late_action(2, 11)
    world = late.copy()
    while world.to_act():
        assert not next_turn_while_mining(late, world)
        play_out(world, {0: GreedyAI(), 1: GreedyAI()}, max_moves=1)


def test_hard_level_budget_by_stage_and_table_size() -> None:
    hard = hard_ai()
    assert isinstance(hard, HardAI)
    early, late = _position(2, 11, 0), _first_late_action(2, 11)
    mining, late_two = hard.budget_for(early), hard.budget_for(late)
    assert late_two.horizon == 400
    # Rollouts to the end judge by the outcome itself: a smaller paired gain is enough to switch.
    assert mining.candidates == 1 and early.stage == "mining"
    assert late_two.rollouts == 20 and late_two.switch_z == 0.75
    four = _position(4, 11, 0)
    late_four = hard.budget_for(_first_late_action(4, 11))
    assert late_four.rollouts == 12 and late_four.switch_z == 0.75
    # With 3 or more seats the mining stage plays the greedy move (its searches' switches lost).
    assert hard.budget_for(four).candidates == 1
    seat = min(four.to_act())
    legal = four.legal_moves(seat)
    bold = GreedyAI(BOLD).decide(four, seat, legal, random.Random(1))
    assert hard.decide(four, seat, legal, random.Random(1)) == bold


def test_with_four_seats_rollouts_play_to_the_end_from_the_decks_last_three_layers() -> None:
    for players in (2, 4):
        state = DEFINITION.new_game(players, {}, 3)
        assert isinstance(state, OffTheRailsState)
        greedy = GreedyAI()
        while state.stage == "mining" and len(state.deck) > ENDGAME_DECK:
            actor = min(state.to_act())
            state.apply(actor, ai_move(state, actor, greedy))
        assert state.stage == "mining" and len(state.deck) == ENDGAME_DECK == 13
        # 2 seats: still to the next turn, judged by estimate; 4 seats: to the end, at the late budget.
        assert endgame(state) == (players == 4)
        world = state.copy()
        while world.to_act() and not next_turn(state, world):
            actor = min(world.to_act())
            world.apply(actor, ai_move(world, actor, greedy))
        assert next_turn(state, world) and next_turn_while_mining(state, world) == (players == 2)
        hard = hard_ai()
        assert (hard.budget_for(state).horizon == 400) == (players == 4)
        assert (hard.budget_for(state).candidates == 1) == (players == 2)
        if players == 4:
            # The first of those layers gets fewer rollouts (they are the longest), the last two the late budget.
            assert (hard.budget_for(state).rollouts, hard.budget_for(state).candidates) == (8, 2)
            while len(state.deck) > CLOSE_DECK:
                actor = min(state.to_act())
                state.apply(actor, ai_move(state, actor, greedy))
            assert state.stage == "mining"
            assert (hard.budget_for(state).rollouts, hard.budget_for(state).candidates) == (12, 3)


def test_hard_level_late_in_the_game_ignores_secrets() -> None:
    state = _first_late_action(2, 11)
    seat = min(state.to_act())
    # What nobody sees this late: the order of the bag's draws (the engine RNG).
    twin = OffTheRailsState.from_json(state.to_json())
    twin.rng = random.Random(5)
    assert twin.view(seat) == state.view(seat) and twin.to_json() != state.to_json()
    full = hard_ai()
    assert isinstance(full, HardAI)
    small = HardAI(
        SearchBudget(rollouts=4, candidates=2, horizon=80),
        SearchBudget(rollouts=4, candidates=2, horizon=400),
        evaluate=full.evaluate,
        score_scale=full.score_scale,
        stop=full.stop,
        switch_z=full.switch_z,
    )
    assert ai_move(twin, seat, small) == ai_move(state, seat, small)


def test_hard_level_plays_its_own_seat_bold_while_mining() -> None:
    """Where the bold style's move differs from the normal one, the hard level plays the bold one."""
    state = DEFINITION.new_game(2, {}, 5)
    assert isinstance(state, OffTheRailsState)
    normal, hard = GreedyAI(), hard_ai()
    differing = 0
    while state.stage == "mining" and differing < 3:
        actor = min(state.to_act())
        legal = state.legal_moves(actor)
        if len(legal) > 1:
            bold = GreedyAI(BOLD).decide(state, actor, legal, random.Random(0))
            if bold != normal.decide(state, actor, legal, random.Random(0)):
                assert hard.decide(state, actor, legal, random.Random(0)) == bold
                differing += 1
        state.apply(actor, ai_move(state, actor, normal))
    assert differing == 3


def test_bold_style_fills_a_cart_before_heading_home() -> None:
    """A cart with three gems and room: the normal style only counts the way home, the bold one also
    the deposits still in reach; with one gem both count them alike."""
    state = _position(2, 11, 40)
    cart = next(c for c in state.carts_on_board())
    view = state.view(cart.seat)
    normal, bold = Planner(view, cart.seat), Planner(view, cart.seat, BOLD)
    assert bold.board.togo(bold.board.mine, cart.square, cart.front) < INF
    three, one = {"ruby": 3}, {"ruby": 1}
    assert bold.potential(cart.square, cart.front, three) > normal.potential(cart.square, cart.front, three)
    assert bold.potential(cart.square, cart.front, one) == normal.potential(cart.square, cart.front, one)
