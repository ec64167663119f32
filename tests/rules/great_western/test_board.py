"""Great Western Railway board data: the invariants of spec section 10.3."""

from __future__ import annotations

import math
from collections import Counter

from rules.great_western.board import (
    AVAILABLE_AT_START,
    BLACK_CUBES,
    CITIES,
    CUBES_PER_PLAYER,
    DICE_PER_TRAIN,
    FREE_AREAS,
    INCOME,
    LINKS,
    LONDON,
    NEIGHBOURS,
    TRAINS,
    UNAVAILABLE_AT_START,
    routes_for,
)


def test_cities() -> None:
    assert len(CITIES) == 23
    assert CITIES[LONDON].people == 0 and CITIES[LONDON].gold == 0
    others = [c for c in CITIES.values() if c.id != LONDON]
    assert Counter(c.people for c in others) == {1: 10, 2: 9, 3: 3}
    assert {c.id for c in others if c.people == 3} == {"southampton", "bristol", "cardiff"}
    assert sum(c.people for c in others) == 37
    assert all(1 <= c.gold <= 7 for c in others) and sum(c.gold for c in others) == 73


def test_links() -> None:
    assert [link.id for link in LINKS] == list(range(1, 40))
    pairs = [frozenset((link.a, link.b)) for link in LINKS]
    assert len(set(pairs)) == 39
    assert all(link.a in CITIES and link.b in CITIES and link.a != link.b for link in LINKS)
    assert all(1 <= link.cost <= 4 for link in LINKS) and sum(link.cost for link in LINKS) == 87
    seen, todo = {LONDON}, [LONDON]
    while todo:
        for there, _ in NEIGHBOURS[todo.pop()]:
            if there not in seen:
                seen.add(there)
                todo.append(there)
    assert seen == set(CITIES)
    assert {c for c in CITIES if len(NEIGHBOURS[c]) < 2} == {"swansea", "penzance"}


def test_seed_example_costs() -> None:
    cost = {frozenset((link.a, link.b)): link.cost for link in LINKS}
    assert cost[frozenset(("reading", "newbury"))] == 1
    assert cost[frozenset(("newbury", "winchester"))] == 2
    assert cost[frozenset(("winchester", "southampton"))] == 1
    assert CITIES["southampton"].people == 3
    red, blue, third = 0, 1, 2
    owners = {"reading": red, "newbury": blue, "winchester": blue}
    assert routes_for(blue, owners)["southampton"].cost == 1
    assert routes_for(red, owners)["southampton"].cost == 6
    everything = {c: third for c in CITIES if c not in owners and c not in (LONDON, "southampton")}
    assert routes_for(red, owners | everything)["southampton"].cost == 6


def test_trains_income_and_constants() -> None:
    assert len(TRAINS) == 4
    for train in TRAINS:
        assert sorted(car.number for car in train.cars) == [2, 3, 4, 5, 6]
    assert [sum(car.passenger for car in t.cars) for t in TRAINS] == [4, 4, 3, 2]
    values = [INCOME[n] for n in range(1, 24)]
    assert values == sorted(values) and min(values) >= 1
    assert CUBES_PER_PLAYER == 1 + 1 + AVAILABLE_AT_START + UNAVAILABLE_AT_START == 26
    assert BLACK_CUBES == DICE_PER_TRAIN * len(TRAINS) == 12


def test_empty_board_from_london() -> None:
    routes = routes_for(0, {})
    assert {c: r.cost for c, r in routes.items()} == {"reading": 2, "oxford": 3, "basingstoke": 3}


def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _cross(a, b, c, d) -> bool:
    def orient(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def test_geometry() -> None:
    xy = {c.id: (c.x, c.y) for c in CITIES.values()}
    ids = list(xy)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            assert math.dist(xy[a], xy[b]) >= 70, (a, b)
    for i, one in enumerate(LINKS):
        for other in LINKS[i + 1 :]:
            if {one.a, one.b} & {other.a, other.b}:
                continue
            assert not _cross(xy[one.a], xy[one.b], xy[other.a], xy[other.b]), (one.id, other.id)
        for city in ids:
            if city in (one.a, one.b):
                continue
            assert _segment_distance(*xy[city], *xy[one.a], *xy[one.b]) >= 30, (one.id, city)
    for area in FREE_AREAS.values():
        x0, y0, x1, y1 = area["x"], area["y"], area["x"] + area["w"], area["y"] + area["h"]
        for x, y in xy.values():
            assert not (x0 <= x <= x1 and y0 <= y <= y1)
        for link in LINKS:
            (ax, ay), (bx, by) = xy[link.a], xy[link.b]
            for step in range(101):
                t = step / 100
                x, y = ax + t * (bx - ax), ay + t * (by - ay)
                assert not (x0 <= x <= x1 and y0 <= y <= y1), (link.id, area["use"])
