"""Santa Fe's static board: cities, sections, terrain and railroads, read once from data/."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_DATA = Path(__file__).with_name("data") / "santa_fe_board.json"

RAILROADS: tuple[str, ...] = ("sf", "sp", "gn", "up", "kp")


@dataclass(frozen=True)
class City:
    id: str
    name: str
    value: int
    x: int
    y: int
    start: bool
    cards: int
    label: str


@dataclass(frozen=True)
class Section:
    id: int
    a: str
    b: str
    spaces: int
    double: bool
    terrain: tuple[str, ...]  # listed from end a to end b

    @property
    def lanes(self) -> int:
        return 2 if self.double else 1

    def other(self, city: str) -> str:
        return self.b if city == self.a else self.a

    def terrain_from(self, city: str, index: int) -> str:
        """Terrain of the index-th space counted from `city` (0 = the space next to it)."""
        return self.terrain[index] if city == self.a else self.terrain[self.spaces - 1 - index]


@dataclass(frozen=True)
class Railroad:
    key: str
    name: str
    colour: str
    hex: str
    tiles: int
    start_city: str
    bonus_city: str


class Board:
    """The map and the component counts of the data file."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.raw = data
        self.cities: dict[str, City] = {c["id"]: City(**c) for c in data["cities"]}
        self.sections: dict[int, Section] = {
            s["id"]: Section(s["id"], s["a"], s["b"], s["spaces"], s["double"], tuple(s["terrain"]))
            for s in data["sections"]
        }
        self.railroads: dict[str, Railroad] = {r["key"]: Railroad(**r) for r in data["railroads"]}
        assert tuple(self.railroads) == RAILROADS
        self.at_city: dict[str, list[int]] = {c: [] for c in self.cities}
        self.between: dict[frozenset[str], int] = {}
        for section in self.sections.values():
            self.at_city[section.a].append(section.id)
            self.at_city[section.b].append(section.id)
            self.between[frozenset((section.a, section.b))] = section.id
        copies = data["city_cards"]["copies_by_value"]
        # The city deck: every valued city, as many copies as its value allows.
        self.city_cards: list[str] = [
            c.id for c in self.cities.values() if not c.start for _ in range(int(copies[str(c.value)]))
        ]
        self.dt_by_players: dict[int, int] = {
            int(k): v for k, v in data["double_turn_cards"]["in_play_by_players"].items()
        }
        self.dt_in_box: int = data["double_turn_cards"]["in_box"]
        self.branch_per_railroad: int = data["branch_cards_per_railroad"]
        self.engineers: int = data["engineer_cards"]
        self.terrain_cost: dict[str, int] = data["terrain_cost"]
        self.terrain_cost_engineer: dict[str, int] = data["terrain_cost_with_engineer"]
        self.bonus_first: int = data["bonus"]["first_connection"]
        self.bonus_railroad: int = data["bonus"]["railroad_bonus_city"]
        self.bonus_multiplier: int = data["bonus"]["double_turn_multiplier"]

    def section_name(self, section_id: int) -> str:
        section = self.sections[section_id]
        return f"{self.cities[section.a].name}–{self.cities[section.b].name}"

    def name(self, city: str) -> str:
        return self.cities[city].name


BOARD = Board(json.loads(_DATA.read_text(encoding="utf-8")))
