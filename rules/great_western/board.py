"""The stand-in board of Great Western Railway: cities, links, trains, income track, and routes."""

from __future__ import annotations

import heapq
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_FILE = Path(__file__).with_name("data") / "great_western_board.json"
LONDON = "london"
# A missing element of a build key sorts behind every real car position (0..4).
MISSING_POSITION = 99


@dataclass(frozen=True)
class City:
    id: str
    name: str
    people: int
    gold: int
    x: int
    y: int
    label: str


@dataclass(frozen=True)
class Car:
    number: int
    kind: str  # "passenger" or "freight"

    @property
    def passenger(self) -> bool:
        return self.kind == "passenger"

    @property
    def letter(self) -> str:
        return "P" if self.passenger else "F"


@dataclass(frozen=True)
class Train:
    id: int
    cars: tuple[Car, ...]

    def position_of(self, number: int) -> int:
        """The car position (0 = right behind the engine) of the car with this die number."""
        for position, car in enumerate(self.cars):
            if car.number == number:
                return position
        raise ValueError(f"train {self.id} has no car {number}")


@dataclass(frozen=True)
class Link:
    id: int
    a: str
    b: str
    cost: int


def _load() -> dict[str, Any]:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


RAW: dict[str, Any] = _load()
CITIES: dict[str, City] = {c["id"]: City(**c) for c in RAW["cities"]}
CITY_IDS: tuple[str, ...] = tuple(sorted(CITIES))
CONNECTABLE: tuple[str, ...] = tuple(c for c in CITY_IDS if c != LONDON)
LINKS: tuple[Link, ...] = tuple(Link(**link) for link in RAW["links"])
TRAINS: tuple[Train, ...] = tuple(
    Train(t["id"], tuple(Car(c["number"], c["kind"]) for c in t["cars"])) for t in RAW["trains"]
)
INCOME: dict[int, int] = {row["cities"]: row["income"] for row in RAW["income_track"]}
CUBES_PER_PLAYER: int = RAW["cubes_per_player"]
AVAILABLE_AT_START: int = RAW["available_at_start"]
UNAVAILABLE_AT_START: int = RAW["unavailable_at_start"]
BLACK_CUBES: int = RAW["black_cubes"]
DICE_PER_TRAIN: int = RAW["dice_per_train"]
FREE_AREAS: dict[str, dict[str, int]] = {a["use"]: a for a in RAW["free_areas"]}
CANVAS: dict[str, int] = RAW["canvas"]

NEIGHBOURS: dict[str, tuple[tuple[str, int], ...]] = {
    city: tuple(
        sorted(
            [(link.b, link.cost) for link in LINKS if link.a == city]
            + [(link.a, link.cost) for link in LINKS if link.b == city]
        )
    )
    for city in CITIES
}


def income_for(cities: int) -> int:
    """Income for a city count (London included)."""
    return INCOME[min(max(cities, 1), max(INCOME))]


def build_key(train: Train, loads: list[int]) -> list[int]:
    """Sorted car positions of the cubes on a train (a car with k cubes gives its position k times)."""
    return sorted(position for position, count in enumerate(loads) for _ in range(count))


def build_order(keys: Mapping[int, list[int]]) -> list[int]:
    """Train ids in build order: keys compared element by element, missing = farthest back, then id."""

    def sort_key(train_id: int) -> tuple[tuple[int, ...], int]:
        key = list(keys[train_id]) + [MISSING_POSITION] * DICE_PER_TRAIN
        return tuple(key[:DICE_PER_TRAIN]), train_id

    return sorted(keys, key=sort_key)


@dataclass(frozen=True)
class Route:
    """The cheapest way for a seat to reach an empty city."""

    city: str
    path: tuple[str, ...]  # from an owned city (London included) to `city`
    links: int  # sum of link costs
    fees: int  # 1 per intermediate city the seat does not own

    @property
    def cost(self) -> int:
        return self.links + self.fees


def routes_for(seat: int, owners: Mapping[str, int]) -> dict[str, Route]:
    """Cheapest route to every reachable empty city (Dijkstra from all the seat's cities).

    Only occupied cities may be passed through; each one the seat does not own costs a fee of 1.
    Ties go to fewer links, then the smaller list of city ids, so the route shown is stable.
    """
    # Labels: (cost, link count, path, links sum, fees); cost first, then the display tie-breaks.
    heap: list[tuple[int, int, tuple[str, ...], int, int]] = []
    for city in CITY_IDS:
        if city == LONDON or owners.get(city) == seat:
            heap.append((0, 0, (city,), 0, 0))
    heapq.heapify(heap)
    settled: set[str] = set()
    best: dict[str, Route] = {}
    best_label: dict[str, tuple[int, int, tuple[str, ...]]] = {}
    while heap:
        cost, count, path, links, fees = heapq.heappop(heap)
        here = path[-1]
        if here in settled:
            continue
        settled.add(here)
        for there, link_cost in NEIGHBOURS[here]:
            if there in settled or there in path:
                continue
            new_path = path + (there,)
            if there == LONDON or there in owners:
                # An occupied city can be passed through; a foreign one costs its fee on the way on.
                fee = 0 if there == LONDON or owners[there] == seat else 1
                heapq.heappush(
                    heap, (cost + link_cost + fee, count + 1, new_path, links + link_cost, fees + fee)
                )
            else:
                label = (cost + link_cost, count + 1, new_path)
                if there not in best_label or label < best_label[there]:
                    best_label[there] = label
                    best[there] = Route(there, new_path, links + link_cost, fees)
    return best
