"""Greedy Trans Europa AI (spec section 13): builds along one of its own minimum Steiner trees."""

from __future__ import annotations

import random
from typing import Any

from rules.engine import AIPlayer, Move
from rules.trans_europa import board
from rules.trans_europa.moves import End, Lay, Start, Vex


def _edge(track: dict[str, Any]) -> int:
    a, b = board.junction_of(track["a"]), board.junction_of(track["b"])
    assert a is not None and b is not None
    edge = board.edge_between(a, b)
    assert edge is not None
    return edge


def seat_board(view: dict[str, Any], seat: int) -> tuple[frozenset[int], frozenset[int]]:
    """(lines costing 0, lines blocked) for `seat`, read from the public part of a view."""
    zero, blocked = set(), set()
    for track in view["tracks"]:
        (zero if track["owner"] in (None, seat) else blocked).add(_edge(track))
    return frozenset(zero), frozenset(blocked)


class GreedyAI(AIPlayer):
    """Marker where its five cities are cheapest to join; then lays lines of a minimum tree."""

    name = "greedy"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        seat = view["seat"]
        zero, blocked = seat_board(view, seat)
        cities = [board.junction_of(h["junction"]) for h in view["hand"]]
        starts = [m for m in legal if isinstance(m, Start)]
        if starts:
            costs = board.marker_costs(tuple(c for c in cities if c is not None), zero, blocked)
            best = min(costs[m.junction] for m in starts)
            return rng.choice([m for m in starts if costs[m.junction] == best])
        lays = {m.edge: m for m in legal if isinstance(m, Lay)}
        vexes = {m.edge: m for m in legal if isinstance(m, Vex)}
        marker = board.junction_of(view["markers"][str(seat)])
        terminals = tuple(sorted({marker, *cities}))
        _weight, tree = board.steiner_tree(terminals, zero, blocked)
        options = [e for e in tree if e not in zero and (e in lays or e in vexes)]
        if view["step"] == 1:
            singles = [e for e in options if board.EDGES[e].cost == 1]
            options = singles or options
        if not options:
            end = End()
            return end if end in legal else rng.choice(legal)
        edge = rng.choice(sorted(options))
        if edge in vexes:
            line = board.EDGES[edge]
            others = set()
            for other, junctions in view["networks"].items():
                if other != str(seat):
                    others.update(board.junction_of(j) for j in junctions)
            if edge not in lays or line.a in others or line.b in others:
                return vexes[edge]
        return lays[edge]
