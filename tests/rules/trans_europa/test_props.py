"""Trans Europa property tests (hypothesis): move walks, notation, and the exact penalty's laws."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import IllegalMove
from rules.trans_europa import DEFINITION, board
from rules.trans_europa.moves import Lay, Start, parse
from rules.trans_europa.state import TransEuropaState

junctions = st.integers(0, len(board.JUNCTIONS) - 1)
lines = st.integers(0, len(board.EDGES) - 1)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    vexation=st.booleans(),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60),
    junk=st.text(max_size=12),
)
def test_walk_keeps_the_contract(players: int, seed: int, vexation: bool, picks: list[int], junk: str) -> None:
    state = DEFINITION.new_game(players, {"vexation": vexation, "start_score": 5}, seed)
    assert isinstance(state, TransEuropaState)
    for pick in picks:
        if state.is_over():
            break
        (seat,) = state.to_act()
        legal = state.legal_moves(seat)
        assert legal and [str(m) for m in legal] == sorted({str(m) for m in legal})
        # Any other seat has nothing to do, and anything it sends is refused without a trace.
        other = (seat + 1) % players
        assert state.legal_moves(other) == []
        before = json.dumps(state.to_json())
        for text in (junk, str(legal[0])):
            try:
                state.apply(other, text)
            except IllegalMove:
                pass
            else:
                raise AssertionError("a move out of turn was accepted")
            assert json.dumps(state.to_json()) == before
        # A text that parses but is not legal now is refused without a trace.
        try:
            move = state.parse_move(junk)
        except IllegalMove:
            move = None
        if move is not None and move not in legal:
            try:
                state.apply(seat, move)
            except IllegalMove:
                assert json.dumps(state.to_json()) == before
            else:
                raise AssertionError(f"illegal {move} accepted")
        state.apply(seat, legal[pick % len(legal)])
        assert state.black_left + sum(1 for o in state.tracks.values() if o is None) == 83
    assert TransEuropaState.from_json(json.loads(json.dumps(state.to_json()))) == state


@settings(max_examples=100, deadline=None)
@given(line=lines, swap=st.booleans(), coords=st.booleans(), upper=st.booleans(), spaces=st.integers(1, 3))
def test_notation_is_lenient_and_canonical(line: int, swap: bool, coords: bool, upper: bool, spaces: int) -> None:
    edge = board.EDGES[line]
    ends = [edge.b, edge.a] if swap else [edge.a, edge.b]
    names = [board.JUNCTIONS[v].id if coords else board.token(v) for v in ends]
    text = (" " * spaces).join(["lay", *names])
    move = parse(text.upper() if upper else text)
    assert move == Lay(line) and str(move) == str(Lay(line))
    a, b = str(move).split()[1:]
    ja, jb = board.junction_of(a), board.junction_of(b)
    assert ja is not None and jb is not None
    assert (board.JUNCTIONS[ja].row, board.JUNCTIONS[ja].col) < (board.JUNCTIONS[jb].row, board.JUNCTIONS[jb].col)


@settings(max_examples=50, deadline=None)
@given(v=junctions)
def test_start_notation_round_trips(v: int) -> None:
    assert parse(str(Start(v))) == Start(v)
    assert parse("start " + board.JUNCTIONS[v].id) == Start(v)


@settings(max_examples=25, deadline=None)
@given(
    terms=st.lists(junctions, min_size=2, max_size=6, unique=True),
    built=st.sets(lines, max_size=40),
    extra=lines,
)
def test_penalty_laws(terms: list[int], built: set[int], extra: int) -> None:
    zero = frozenset(built)
    cost = board.steiner_cost(tuple(sorted(terms)), zero)
    # Order of the terminals does not matter; the tree has exactly the reported weight.
    assert board.steiner_cost(tuple(sorted(terms, reverse=True)), zero) == cost
    weight, tree = board.steiner_tree(tuple(sorted(terms)), zero)
    assert weight == cost == sum(0 if e in zero else board.EDGES[e].cost for e in tree)
    # Lower bound: the farthest terminal from the first; upper bound: a star of shortest paths.
    dist = board._distances_from(terms[0], zero, frozenset())
    assert max(dist[t] for t in terms) <= cost <= sum(dist[t] for t in terms)
    # Building a line never costs more and saves at most that line's cost.
    cheaper = board.steiner_cost(tuple(sorted(terms)), zero | {extra})
    assert cost - board.EDGES[extra].cost <= cheaper <= cost
    # Blocking a line never helps.
    if extra not in zero:
        assert board.steiner_cost(tuple(sorted(terms)), zero, frozenset({extra})) >= cost
    # The tree's lines (with the built ones) really join every terminal.
    joined = {terms[0]}
    todo = [terms[0]]
    usable = set(tree) | zero
    while todo:
        v = todo.pop()
        for u, e in board.ADJACENCY[v]:
            if e in usable and u not in joined:
                joined.add(u)
                todo.append(u)
    assert set(terms) <= joined
