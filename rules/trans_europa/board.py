"""The Trans Europa board (junctions, lines, cities) and the exact tracks-still-needed solver.

Loaded once at import from `data/trans_europa_board.json`. Junctions are numbered 0..209 in board
order (by row, then column); lines are numbered in the JSON's order. The renderer uses
`JUNCTIONS`, `EDGES`, `CITIES`, `COLOURS` and `token`; the engine and the AI use the index API
(`steiner_cost`, `steiner_tree`, `marker_costs`); `tracks_needed` is the public coordinate API.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from operator import add
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).parent / "data" / "trans_europa_board.json"
INF = 10**6


@dataclass(frozen=True)
class Junction:
    """A grid point. `id` is `<row letter><col>`; `city` is a city id or None."""

    index: int
    id: str
    row: int
    col: int
    ax: tuple[int, int]
    px: float
    py: float
    city: str | None


@dataclass(frozen=True)
class Edge:
    """A line between junctions a and b (indices, a before b in board order); cost 1 or 2."""

    index: int
    a: int
    b: int
    cost: int


@dataclass(frozen=True)
class City:
    id: str
    name: str
    name_en: str
    colour: str
    tag: str
    junction: int  # junction index
    removed_2_3_players: bool


def _load() -> dict[str, Any]:
    with DATA_PATH.open(encoding="utf-8") as handle:
        return json.load(handle)


RAW: dict[str, Any] = _load()
CANVAS: dict[str, Any] = RAW["canvas"]
ROW_LETTERS: str = RAW["row_letters"]
COMPONENTS: dict[str, int] = RAW["components"]
COLOURS: tuple[dict[str, str], ...] = tuple(RAW["colours"])
COLOUR_KEYS: tuple[str, ...] = tuple(c["key"] for c in COLOURS)

JUNCTIONS: tuple[Junction, ...] = tuple(
    Junction(i, j["id"], j["row"], j["col"], (j["ax"][0], j["ax"][1]), j["px"], j["py"], j.get("city"))
    for i, j in enumerate(RAW["junctions"])
)
JUNCTION_INDEX: dict[str, int] = {j.id: j.index for j in JUNCTIONS}
AX_INDEX: dict[tuple[int, int], int] = {j.ax: j.index for j in JUNCTIONS}

EDGES: tuple[Edge, ...] = tuple(
    Edge(i, JUNCTION_INDEX[e["a"]], JUNCTION_INDEX[e["b"]], e["cost"]) for i, e in enumerate(RAW["edges"])
)
EDGE_INDEX: dict[tuple[int, int], int] = {}
for _e in EDGES:
    EDGE_INDEX[(_e.a, _e.b)] = _e.index
    EDGE_INDEX[(_e.b, _e.a)] = _e.index
# ADJACENCY[v] = ((neighbour, edge index), ...)
ADJACENCY: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((e.b if e.a == v else e.a, e.index) for e in EDGES if v in (e.a, e.b)) for v in range(len(JUNCTIONS))
)

CITIES: tuple[City, ...] = tuple(
    City(c["id"], c["name"], c["name_en"], c["colour"], c["tag"], JUNCTION_INDEX[c["junction"]],
         c["removed_2_3_players"])
    for c in RAW["cities"]
)
CITY_BY_ID: dict[str, City] = {c.id: c for c in CITIES}
CITY_AT: dict[int, City] = {c.junction: c for c in CITIES}
CITY_JUNCTIONS: tuple[int, ...] = tuple(c.junction for c in CITIES)
REMOVED_FOR_2_3: tuple[str, ...] = tuple(RAW["removed_for_2_3_players"])

# Notation token -> junction index: city ids and coordinate ids both read (lenient parsing).
_TOKENS: dict[str, int] = {**JUNCTION_INDEX, **{c.id: c.junction for c in CITIES}}


def token(v: int) -> str:
    """The notation of junction v: its city id if it is a city, else `<row letter><col>`."""
    city = JUNCTIONS[v].city
    return city if city is not None else JUNCTIONS[v].id


def display(v: int) -> str:
    """How texts name junction v: the printed city name, else the coordinate id."""
    city = CITY_AT.get(v)
    return city.name if city is not None else JUNCTIONS[v].id


def junction_of(text: str) -> int | None:
    """Junction index for a notation token (city id or coordinate id, any case), else None."""
    return _TOKENS.get(text.strip().lower())


def edge_between(a: int, b: int) -> int | None:
    return EDGE_INDEX.get((a, b))


def edge_tokens(e: int) -> tuple[str, str]:
    edge = EDGES[e]
    return token(edge.a), token(edge.b)


# "a b" per line, in canonical order: move notation is built and hashed very often.
LINE_NOTATION: tuple[str, ...] = tuple(" ".join(edge_tokens(e.index)) for e in EDGES)


# --------------------------------------------------------------------------- Steiner solver

_SPLITS: dict[int, list[list[tuple[int, int]]]] = {}


def _splits(m: int) -> list[list[tuple[int, int]]]:
    """For m terminals: per mask, its splits (A, B) into two non-empty parts, each pair once."""
    if m not in _SPLITS:
        table: list[list[tuple[int, int]]] = [[] for _ in range(1 << m)]
        for mask in range(1, 1 << m):
            low = mask & -mask
            sub = (mask - 1) & mask
            while sub:
                if sub & low:  # count {A, B} once: A holds the mask's lowest terminal
                    table[mask].append((sub, mask ^ sub))
                sub = (sub - 1) & mask
        _SPLITS[m] = table
    return _SPLITS[m]


@lru_cache(maxsize=512)
def _weighted_adjacency(zero: frozenset[int], blocked: frozenset[int]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """adj[v] = ((u, weight), ...): built lines weigh 0, blocked lines are left out."""
    return tuple(
        tuple((u, 0 if e in zero else EDGES[e].cost) for u, e in ADJACENCY[v] if e not in blocked)
        for v in range(len(JUNCTIONS))
    )


def _dijkstra(adj: tuple, dist: list[int], pred: list[int] | None = None) -> list[int]:
    """Multi-source Dijkstra from the given start distances (mutated and returned).

    Weights are 0, 1 or 2 and distances small integers, so a bucket queue (one list per
    distance) replaces the heap: several times faster here than heapq.
    """
    finite = [d for d in dist if d < INF]
    if not finite:
        return dist
    base = min(finite)
    top = max(finite) - base  # the last bucket that may hold a junction
    buckets: list[list[int]] = [[] for _ in range(top + 3)]
    for v, d in enumerate(dist):
        if d < INF:
            buckets[d - base].append(v)
    i = 0
    while i <= top:
        d = base + i
        grew = False
        for v in buckets[i]:  # a for loop also visits what 0-weight lines append meanwhile
            if dist[v] != d:
                continue
            for u, w in adj[v]:
                nd = d + w
                if nd < dist[u]:
                    dist[u] = nd
                    if pred is not None:
                        pred[u] = v
                    buckets[nd - base].append(u)
                    grew = True
        if grew and top < i + 2:
            top = i + 2
        i += 1
        if len(buckets) < i + 3:
            buckets.append([])
    return dist


def _merged(rows: list[list[int]], splits: list[tuple[int, int]]) -> list[int]:
    """Per junction, the least weight of two subtrees (one per split part) meeting there."""
    best: list[int] | None = None
    for a, b in splits:
        joined = list(map(add, rows[a], rows[b]))
        best = joined if best is None else list(map(min, best, joined))
    assert best is not None
    return best


def distances_from(source: int, zero: frozenset[int] = frozenset(),
                   blocked: frozenset[int] = frozenset()) -> tuple[int, ...]:
    """Least tracks from `source` to every junction (zero lines free, blocked ones unusable)."""
    return _distances_from(source, zero, blocked)


@lru_cache(maxsize=4096)
def _distances_from(source: int, zero: frozenset[int], blocked: frozenset[int]) -> tuple[int, ...]:
    dist = [INF] * len(JUNCTIONS)
    dist[source] = 0
    return tuple(_dijkstra(_weighted_adjacency(zero, blocked), dist))


def _dw_rows(terminals: tuple[int, ...], zero: frozenset[int], blocked: frozenset[int],
             root: int | None = None) -> list[list[int]]:
    """Dreyfus–Wagner: rows[M][v] = least weight of a tree holding v and the terminals of mask M.

    With `root`, the full mask's row is only valid at `root` (the penalty needs nothing else):
    on an undirected graph its last Dijkstra is min over v of C[v] + dist(root, v).
    """
    adj = _weighted_adjacency(zero, blocked)
    m = len(terminals)
    rows: list[list[int]] = [[]] * (1 << m)
    for i, t in enumerate(terminals):
        rows[1 << i] = list(_distances_from(t, zero, blocked))
    splits = _splits(m)
    for mask in range(1, 1 << m):
        if mask & (mask - 1) == 0:
            continue
        best = _merged(rows, splits[mask])
        if root is not None and mask == (1 << m) - 1:
            best = [min(map(add, best, _distances_from(root, zero, blocked)))] * len(best)
            rows[mask] = best
        else:
            rows[mask] = _dijkstra(adj, best)
    return rows


def _collapse(terminals: tuple[int, ...], zero: frozenset[int], blocked: frozenset[int]) -> tuple[int, ...]:
    """One junction per group of terminals already joined by built lines (weight 0).

    Exact: a tree joining one terminal of each group, plus the built lines, joins them all at the
    same weight, and any tree joining all terminals joins the representatives. Mid-round most
    terminals already share a network, so this often leaves two or three terminals instead of six.
    """
    rep: dict[int, int] = {}
    for t in terminals:
        if t in rep:
            continue
        group, todo = {t}, [t]
        while todo:
            v = todo.pop()
            for u, e in ADJACENCY[v]:
                if u not in group and e in zero and e not in blocked:
                    group.add(u)
                    todo.append(u)
        low = min(group)
        for v in group:
            rep[v] = low
    return tuple(sorted({rep[t] for t in terminals}))


@lru_cache(maxsize=8192)
def steiner_cost(terminals: tuple[int, ...], zero: frozenset[int] = frozenset(),
                 blocked: frozenset[int] = frozenset()) -> int:
    """Exact minimum Steiner tree weight joining the terminal junctions (indices).

    Lines in `zero` weigh 0, lines in `blocked` are unusable, others weigh their cost. INF if
    the terminals cannot be joined. Root trick: the tree for {t0} + rest is rows[rest][t0].
    """
    unique = _collapse(terminals, zero, blocked)
    if len(unique) <= 1:
        return 0
    if unique != terminals:
        return steiner_cost(unique, zero, blocked)
    root, rest = unique[0], unique[1:]
    return min(INF, _dw_rows(rest, zero, blocked, root)[-1][root])


def shortening_lines(terminals: tuple[int, ...], zero: frozenset[int], blocked: frozenset[int],
                     lines: list[int]) -> list[int]:
    """The `lines` whose building (weight 0) would lower the exact Steiner weight of the terminals.

    Exact and cheap, from one Dreyfus–Wagner table over every terminal: a least tree that uses line
    a–b splits at it into a tree holding a and some terminals S and one holding b and the rest, so its
    weight is the least rows[S][a] + rows[rest][b] over the splits of the terminals (a tree with every
    terminal on one side weighs at least as much as before, as does a tree without the line). The
    same as comparing `steiner_cost(terminals, zero | {line}, blocked)` line by line.
    """
    unique = _collapse(terminals, zero, blocked)
    if len(unique) <= 1:
        return []
    rows = _dw_rows(unique, zero, blocked)
    full = (1 << len(unique)) - 1
    weight = rows[full][unique[0]]
    if weight >= INF:
        return []
    found = []
    for e in lines:
        if e in zero or e in blocked:
            continue
        a, b = EDGES[e].a, EDGES[e].b
        if any(rows[s][a] + rows[full ^ s][b] < weight for s in range(1, full)):
            found.append(e)
    return found


def marker_costs(cities: tuple[int, ...], zero: frozenset[int] = frozenset(),
                 blocked: frozenset[int] = frozenset()) -> list[int]:
    """For every junction v, the tracks needed with a marker on v (the AI's marker choice)."""
    unique = tuple(sorted(set(cities)))
    return list(_dw_rows(unique, zero, blocked)[-1])


def _shortest_path(adj: tuple, dist: list[int], source: int, v: int) -> list[int]:
    """Lines of a shortest path from v to `source`, given distances from `source`.

    A search over tight lines (dist[u] + w == dist[x]); the visited set stops it from circling
    through built lines that weigh 0.
    """
    back = {v: -1}
    todo = [v]
    while source not in back:
        x = todo.pop()
        for u, w in adj[x]:
            if u not in back and dist[u] + w == dist[x]:
                back[u] = x
                todo.append(u)
    lines = []
    x = source
    while back[x] != -1:
        lines.append(EDGE_INDEX[(x, back[x])])
        x = back[x]
    return lines


@lru_cache(maxsize=1024)
def steiner_tree(terminals: tuple[int, ...], zero: frozenset[int] = frozenset(),
                 blocked: frozenset[int] = frozenset()) -> tuple[int, tuple[int, ...]]:
    """One minimum Steiner tree: (weight, its lines). Terminals already joined by built lines count
    as one, so the lines (with the built ones) join all terminals; zero-weight lines may be in it."""
    unique = _collapse(terminals, zero, blocked)
    if len(unique) <= 1:
        return 0, ()
    if unique != terminals:
        return steiner_tree(unique, zero, blocked)
    adj = _weighted_adjacency(zero, blocked)
    n = len(JUNCTIONS)
    root, rest = unique[0], unique[1:]
    m = len(rest)
    rows: list[list[int]] = [[]] * (1 << m)
    preds: list[list[int]] = [[]] * (1 << m)
    splits = _splits(m)
    for mask in range(1, 1 << m):
        if mask & (mask - 1) == 0:  # shared with the penalty cache; paths found when needed
            rows[mask] = list(_distances_from(rest[mask.bit_length() - 1], zero, blocked))
            continue
        best = _merged(rows, splits[mask])
        pred = [-1] * n
        rows[mask] = _dijkstra(adj, best, pred)
        preds[mask] = pred
    full = (1 << m) - 1
    weight = rows[full][root]
    if weight >= INF:
        return INF, ()
    lines: set[int] = set()
    stack = [(full, root)]
    while stack:
        mask, v = stack.pop()
        if mask & (mask - 1) == 0:
            lines.update(_shortest_path(adj, rows[mask], rest[mask.bit_length() - 1], v))
            continue
        p = preds[mask][v]
        if p != -1:  # reached along a line from p
            lines.add(EDGE_INDEX[(v, p)])
            stack.append((mask, p))
        else:  # v is where the tree splits: find a split that gives its value
            a = next(a for a, b in splits[mask] if rows[a][v] + rows[b][v] == rows[mask][v])
            stack.append((a, v))
            stack.append((mask ^ a, v))
    return weight, tuple(sorted(lines))


def tracks_needed(terminals, built=(), blocked=()) -> int:
    """Exact tracks still needed to join `terminals` (axial (x, y) junctions).

    `built` and `blocked` are lines given as pairs of axial junctions: built lines cost 0,
    blocked lines may not be used. Returns `INF` if the terminals cannot be joined; raises
    KeyError for a junction or line not on the board. Results are cached per (terminals, board).
    """

    def line(pair) -> int:
        a, b = (AX_INDEX[tuple(p)] for p in pair)
        return EDGE_INDEX[(a, b)]

    terms = tuple(sorted({AX_INDEX[tuple(t)] for t in terminals}))
    return steiner_cost(terms, frozenset(map(line, built)), frozenset(map(line, blocked)))
