"""Trans Europa board data (spec 10.3), the exact penalty (E5, E6, reference histogram) and an
independent exact solver to check `tracks_needed` on random positions of the real board."""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from operator import add

import pytest

from rules.trans_europa import board

BIG = 10**9


def ax(token: str) -> tuple[int, int]:
    v = board.junction_of(token)
    assert v is not None
    return board.JUNCTIONS[v].ax


def ax_path(path: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    stops = path.split()
    return [(ax(a), ax(b)) for a, b in zip(stops, stops[1:], strict=False)]


# --------------------------------------------------------------------------- 10.3 invariants


def test_junctions() -> None:
    ids = [j.id for j in board.JUNCTIONS]
    assert len(ids) == 210 == len(set(ids))
    assert all((j.row + j.col) % 2 == 1 for j in board.JUNCTIONS)
    ranges = {"a": (5, 29), "b": (4, 30), "c": (3, 31), "d": (2, 32), "e": (1, 33), "f": (2, 32), "g": (1, 33),
              "h": (2, 32), "i": (1, 33), "j": (0, 32), "k": (1, 31), "l": (2, 30), "m": (5, 29), "n": (14, 28)}
    counts = [13, 14, 15, 16, 17, 16, 17, 16, 17, 17, 16, 15, 13, 8]
    for row, letter in enumerate(board.ROW_LETTERS):
        cols = [j.col for j in board.JUNCTIONS if j.row == row]
        low, high = ranges[letter]
        assert cols == list(range(low, high + 1, 2))
        assert len(cols) == counts[row]
        assert all(j.id == f"{letter}{j.col}" for j in board.JUNCTIONS if j.row == row)
    assert [(j.row, j.col) for j in board.JUNCTIONS] == sorted((j.row, j.col) for j in board.JUNCTIONS)
    for j in board.JUNCTIONS:
        x, y = j.ax
        assert (j.row, j.col) == (y, 2 * x - y + 5)
        assert j.px == 40 + 34 * j.col and abs(j.py - (60 + 58.89 * j.row)) < 0.051  # stored to 0.1 px


def test_lines() -> None:
    assert len(board.EDGES) == 577
    at = {(j.row, j.col): j.index for j in board.JUNCTIONS}
    pairs = Counter()
    for e in board.EDGES:
        a, b = board.JUNCTIONS[e.a], board.JUNCTIONS[e.b]
        assert (b.row - a.row, abs(b.col - a.col)) in ((0, 2), (1, 1)) or (a.row == b.row and b.col - a.col == 2)
        assert (a.row, a.col) < (b.row, b.col)
        pairs[(e.a, e.b)] += 1
    neighbour_pairs = set()
    for j in board.JUNCTIONS:
        for dr, dc in ((0, 2), (1, -1), (1, 1)):
            other = at.get((j.row + dr, j.col + dc))
            if other is not None:
                neighbour_pairs.add((j.index, other))
    assert set(pairs) == neighbour_pairs and set(pairs.values()) == {1}
    costs = Counter(e.cost for e in board.EDGES)
    assert costs == {1: 424, 2: 153}
    assert sum(e.cost for e in board.EDGES) == 730
    degrees = Counter(len(adj) for adj in board.ADJACENCY)
    assert degrees == {3: 12, 4: 32, 5: 6, 6: 160}


def pieces(single_only: bool) -> list[set[str]]:
    seen: set[int] = set()
    out = []
    for start in range(len(board.JUNCTIONS)):
        if start in seen:
            continue
        piece, todo = {start}, [start]
        while todo:
            v = todo.pop()
            for u, e in board.ADJACENCY[v]:
                if u not in piece and (not single_only or board.EDGES[e].cost == 1):
                    piece.add(u)
                    todo.append(u)
        seen |= piece
        out.append({board.JUNCTIONS[v].id for v in piece})
    return out


def test_connectivity() -> None:
    assert len(pieces(False)) == 1
    single = sorted(pieces(True), key=len, reverse=True)
    assert [len(p) for p in single] == [191, 8, 7, 4]
    assert {board.JUNCTIONS[c.junction].id for c in board.CITIES} <= single[0]
    assert single[1:] == [{"l8", "l10", "l12", "m7", "m9", "m11", "m13", "n14"},
                          {"a21", "b20", "b22", "c19", "c21", "d18", "d20"}, {"g1", "g3", "h2", "h4"}]


def test_cities() -> None:
    assert len(board.CITIES) == 35 == len({c.junction for c in board.CITIES})
    assert Counter(c.colour for c in board.CITIES) == dict.fromkeys(board.COLOUR_KEYS, 7)
    removed = [c for c in board.CITIES if c.removed_2_3_players]
    assert sorted(c.id for c in removed) == sorted(board.REMOVED_FOR_2_3)
    assert Counter(c.colour for c in removed) == dict.fromkeys(board.COLOUR_KEYS, 2)
    four = {"madrid", "glasgow", "oslo", "stockholm", "helsinki", "st-petersburg", "moskva", "thessaloniki"}
    for city in board.CITIES:
        lines = len(board.ADJACENCY[city.junction])
        assert lines == (4 if city.id in four else 5 if city.id in ("brest", "kharkiv") else 6), city.id
        assert board.JUNCTIONS[city.junction].city == city.id
        assert board.token(city.junction) == city.id


# --------------------------------------------------------------------------- E5, E6


E5 = [
    (None, "london zurich stockholm roma kyiv", 24),
    ("zurich", "london zurich stockholm roma kyiv", 24),
    ("paris", "london zurich stockholm roma kyiv", 27),
    ("a5", "london zurich stockholm roma kyiv", 28),
    ("k3", "london zurich stockholm roma kyiv", 29),
    ("n28", "london zurich stockholm roma kyiv", 31),
    ("paris", "london zurich oslo minsk roma", 26),
    ("zurich", "dublin wien stockholm kyiv firenze", 26),
    ("k3", "madrid amsterdam moskva odessa sofia", 31),
    ("k17", "brest warszawa malmo odessa sofia", 28),
    ("g27", "madrid amsterdam helsinki odessa roma", 33),
]


@pytest.mark.parametrize(("marker", "hand", "penalty"), E5)
def test_e5_empty_board(marker: str | None, hand: str, penalty: int) -> None:
    terminals = [ax(c) for c in hand.split()] + ([ax(marker)] if marker else [])
    assert board.tracks_needed(terminals) == penalty
    weight, tree = board.steiner_tree(tuple(board.AX_INDEX[t] for t in terminals))
    assert weight == penalty == sum(board.EDGES[e].cost for e in tree)
    assert independent_cost(tuple(board.AX_INDEX[t] for t in terminals), frozenset(), frozenset()) == penalty


def test_e6_built_tracks_cost_nothing() -> None:
    terminals = [ax(c) for c in ["paris", "london", "zurich", "stockholm", "roma", "kyiv"]]
    west, east = ax_path("paris h10 i11 zurich"), ax_path("kyiv g27 g25 g23")
    assert board.tracks_needed(terminals) == 27
    assert board.tracks_needed(terminals, built=west) == 24
    assert board.tracks_needed(terminals, built=east) == 24
    assert board.tracks_needed(terminals, built=west + east) == 21
    # A blocked line is never used: blocking Paris entirely makes the hand impossible.
    paris_lines = [(ax("paris"), board.JUNCTIONS[u].ax) for u, _ in board.ADJACENCY[board.junction_of("paris")]]
    assert board.tracks_needed(terminals, blocked=paris_lines) >= board.INF


# --------------------------------------------------------------------------- reference data


def hand_penalty(hand: tuple[str, ...]) -> int:
    return board.steiner_cost(tuple(sorted(board.CITY_BY_ID[c].junction for c in hand)))


def test_reference_extremes_and_marker_rule() -> None:
    assert hand_penalty(("madrid", "amsterdam", "helsinki", "kharkiv", "thessaloniki")) == 35
    assert hand_penalty(("london", "berlin", "malmo", "bucuresti", "sofia")) == 17
    rng = random.Random(3)
    by_colour = [[c.id for c in board.CITIES if c.colour == k] for k in board.COLOUR_KEYS]
    for _ in range(12):
        hand = tuple(rng.choice(pile) for pile in by_colour)
        cost = hand_penalty(hand)
        assert 17 <= cost <= 35
        row = board.marker_costs(tuple(board.CITY_BY_ID[c].junction for c in hand))
        assert min(row) == cost
        assert all(row[board.CITY_BY_ID[c].junction] == cost for c in hand)
        # The marker row agrees with the solver with the marker as a sixth terminal.
        for v in rng.sample(range(210), 3):
            terms = tuple(sorted({v, *(board.CITY_BY_ID[c].junction for c in hand)}))
            assert board.steiner_cost(terms) == row[v]


def test_reference_histogram_2_3_player_deck() -> None:
    """All 3,125 hands of the 2-3 player deck (about 10 s); the spec's exact histogram."""
    piles = [[c.id for c in board.CITIES if c.colour == k and not c.removed_2_3_players] for k in board.COLOUR_KEYS]
    histogram = Counter(hand_penalty(hand) for hand in itertools.product(*piles))
    assert dict(histogram) == {18: 2, 19: 6, 20: 31, 21: 121, 22: 210, 23: 287, 24: 446, 25: 514, 26: 480,
                               27: 409, 28: 315, 29: 164, 30: 95, 31: 36, 32: 8, 33: 1}
    assert round(sum(k * n for k, n in histogram.items()) / 3125, 3) == 25.421


@pytest.mark.skipif(not os.environ.get("JUNCTION_TE_FULL_DECK"), reason="about 20 s; set JUNCTION_TE_FULL_DECK=1")
def test_reference_histogram_full_deck() -> None:
    """All 16,807 hands of the full deck: the spec's exact histogram (opt-in, too slow for CI)."""
    piles = [[c.id for c in board.CITIES if c.colour == k] for k in board.COLOUR_KEYS]
    histogram = Counter(hand_penalty(hand) for hand in itertools.product(*piles))
    assert dict(histogram) == {17: 2, 18: 21, 19: 89, 20: 206, 21: 497, 22: 847, 23: 1276, 24: 1853, 25: 2272,
                               26: 2517, 27: 2389, 28: 1989, 29: 1355, 30: 861, 31: 400, 32: 174, 33: 49, 34: 9,
                               35: 1}
    assert round(sum(k * n for k, n in histogram.items()) / 16807, 3) == 25.977


# --------------------------------------------------------------------------- independent solver


def all_pairs(zero: frozenset[int], blocked: frozenset[int]) -> list[list[int]]:
    """Floyd–Warshall on the real board (no code shared with the engine's solver)."""
    n = len(board.JUNCTIONS)
    dist = [[BIG] * n for _ in range(n)]
    for v in range(n):
        dist[v][v] = 0
    for e in board.EDGES:
        if e.index in blocked:
            continue
        w = 0 if e.index in zero else e.cost
        dist[e.a][e.b] = min(dist[e.a][e.b], w)
        dist[e.b][e.a] = min(dist[e.b][e.a], w)
    for k in range(n):
        row_k = dist[k]
        for i in range(n):
            dik = dist[i][k]
            if dik < BIG:
                dist[i] = list(map(min, dist[i], [dik + x for x in row_k]))
    return dist


_PAIRS: dict[tuple[frozenset[int], frozenset[int]], list[list[int]]] = {}


def independent_cost(terminals: tuple[int, ...], zero: frozenset[int], blocked: frozenset[int]) -> int:
    """Classic Dreyfus–Wagner on the metric closure, top-down over all subsets holding t0 too.

    S(M, v) = cheapest tree with terminals M and junction v; S({t}, v) = d(t, v);
    S(M, v) = min over u of d(v, u) + min over splits A|B of M of S(A, u) + S(B, u).
    """
    key = (zero, blocked)
    if key not in _PAIRS:
        _PAIRS[key] = all_pairs(zero, blocked)
    dist = _PAIRS[key]
    terms = sorted(set(terminals))
    if len(terms) == 1:
        return 0
    memo: dict[frozenset[int], list[int]] = {}

    def table(group: frozenset[int]) -> list[int]:
        if group not in memo:
            if len(group) == 1:
                (t,) = group
                memo[group] = list(dist[t])
            else:
                members = sorted(group)
                join = [BIG] * len(dist)
                for r in range(1, len(members)):
                    for part in itertools.combinations(members, r):
                        a = frozenset(part)
                        join = list(map(min, join, map(add, table(a), table(group - a))))
                memo[group] = [min(map(add, dist[v], join)) for v in range(len(dist))]
        return memo[group]

    return min(table(frozenset(terms))[terms[0]], BIG)


def three_terminal_cost(terms: tuple[int, int, int], zero: frozenset[int], blocked: frozenset[int]) -> int:
    """Exact for three terminals: the tree is three shortest paths meeting at one junction."""
    dist = _PAIRS[(zero, blocked)]
    a, b, c = terms
    return min(dist[a][u] + dist[b][u] + dist[c][u] for u in range(len(dist)))


RANDOM_BOARDS = int(os.environ.get("JUNCTION_TE_SOLVER_BOARDS", "6"))


@pytest.mark.parametrize("board_seed", range(RANDOM_BOARDS))
def test_tracks_needed_matches_independent_solver(board_seed: int) -> None:
    rng = random.Random(board_seed)
    lines = list(range(len(board.EDGES)))
    rng.shuffle(lines)
    built = frozenset(lines[: 10 * board_seed])  # seed 0: the empty board
    blocked = frozenset(lines[10 * board_seed: 10 * board_seed + 3 * board_seed])
    cities = [c.junction for c in board.CITIES]
    for _ in range(6):
        hand = rng.sample(cities, 5) + [rng.randrange(210)]
        expected = independent_cost(tuple(hand), built, blocked)
        got = board.tracks_needed(
            [board.JUNCTIONS[v].ax for v in hand],
            built=[(board.JUNCTIONS[board.EDGES[e].a].ax, board.JUNCTIONS[board.EDGES[e].b].ax) for e in built],
            blocked=[(board.JUNCTIONS[board.EDGES[e].a].ax, board.JUNCTIONS[board.EDGES[e].b].ax)
                     for e in blocked],
        )
        assert min(got, BIG) == min(expected, BIG) if expected < BIG else got >= board.INF
        trio = tuple(rng.sample(cities, 3))
        assert board.steiner_cost(tuple(sorted(trio)), built, blocked) == three_terminal_cost(trio, built, blocked)


@pytest.mark.parametrize("board_seed", range(4))
def test_shortening_lines_match_the_line_by_line_definition(board_seed: int) -> None:
    """The one-table shortcut finds exactly the lines whose building lowers the Steiner weight, as
    solving again with each line built does; built lines joining terminals and blocked lines included."""
    rng = random.Random(100 + board_seed)
    lines = list(range(len(board.EDGES)))
    rng.shuffle(lines)
    built = frozenset(lines[: 15 * board_seed])
    blocked = frozenset(lines[15 * board_seed: 15 * board_seed + 4 * board_seed])
    cities = [c.junction for c in board.CITIES]
    for _ in range(3):
        terminals = tuple(sorted(set(rng.sample(cities, 5) + [rng.randrange(len(board.JUNCTIONS))])))
        weight, tree = board.steiner_tree(terminals, built, blocked)
        free = sorted(set(range(len(board.EDGES))) - built - blocked)
        candidates = sorted({*rng.sample(free, 80), *tree} - built)  # the tree's own lines always shorten
        expected = [e for e in candidates if board.steiner_cost(terminals, built | {e}, blocked) < weight]
        assert board.shortening_lines(terminals, built, blocked, candidates) == expected
        if weight < board.INF:
            assert expected  # with tracks still to lay, some line always helps
