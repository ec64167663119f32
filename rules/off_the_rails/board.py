"""Off the Rails board geometry and component data, read once from data/off_the_rails_board.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "off_the_rails_board.json").read_text(encoding="utf-8")
)

WIDTH: int = DATA["grid"]["width"]
HEIGHT: int = DATA["grid"]["height"]
COLUMNS: str = DATA["grid"]["columns"]
EDGES: tuple[str, ...] = ("n", "e", "s", "w")
OFFSETS: dict[str, tuple[int, int]] = {e: tuple(v) for e, v in DATA["edge_offsets"].items()}  # type: ignore[misc]
OPPOSITE: dict[str, str] = {"n": "s", "s": "n", "e": "w", "w": "e"}
COLOURS: tuple[str, ...] = tuple(DATA["colours_clockwise"])
SEAT_COLOURS: dict[int, tuple[str, ...]] = {int(k): tuple(v) for k, v in DATA["seat_colours"].items()}

GEM_KINDS: tuple[str, ...] = tuple(g["kind"] for g in DATA["gems"])
GEM_COUNTS: dict[str, int] = {g["kind"]: g["count"] for g in DATA["gems"]}
GEM_POINTS: dict[str, int] = {g["kind"]: g["points"] for g in DATA["gems"]}
TOTAL_GEMS: int = sum(GEM_COUNTS.values())

CART_NAMES: tuple[str, ...] = tuple(DATA["carts"]["per_player"])
START_SPEED: int = DATA["carts"]["start_speed"]
MIN_SPEED: int = DATA["carts"]["min_speed"]
MAX_SPEED: int = DATA["carts"]["max_speed"]
CAPACITY: int = DATA["carts"]["capacity"]

TILE_TYPES: tuple[str, ...] = ("straight", "curve", "t", "cross")
TILE_SUPPLY: dict[str, int] = {t: DATA["tiles"][t]["supply"] for t in TILE_TYPES}
TILE_TYPE_OF: dict[str, str] = {
    edges: kind for kind in TILE_TYPES for edges in DATA["tiles"][kind]["edge_sets"]
}
LAYABLE: tuple[str, ...] = tuple(e for t in ("straight", "curve") for e in DATA["tiles"][t]["edge_sets"])
UPGRADES: tuple[str, ...] = tuple(e for t in ("t", "cross") for e in DATA["tiles"][t]["edge_sets"])

RIFTS_PER_COLOUR: int = DATA["rift_tokens"]["per_colour"]
RIFT_SUPPLY_PER_COLOUR: int = DATA["rift_tokens"]["supply_per_colour"]

MISSIONS: dict[str, dict[str, Any]] = {m["id"]: m for m in DATA["missions"]}
MISSION_IDS: tuple[str, ...] = tuple(MISSIONS)
MISSION_POINTS: int = DATA["mission_points"]
RUBY_BONUS: int = DATA["ruby_majority_bonus"]
CART_POINTS: int = DATA["cart_in_hand_points"]
DEFAULT_LENGTH: dict[int, int] = {int(k): v for k, v in DATA["game_length"]["default_by_players"].items()}
LENGTH_CHOICES: tuple[int, ...] = tuple(DATA["game_length"]["choices"])
COLLAPSE: str = DATA["collapse_card"]["id"]
SETUP_MIN_GEMS: int = DATA["setup_deposit_minimum_gems"]


def name(x: int, y: int) -> str:
    return f"{COLUMNS[x]}{y + 1}"


def xy(square: str) -> tuple[int, int]:
    return COLUMNS.index(square[0]), int(square[1:]) - 1


SQUARES: tuple[str, ...] = tuple(name(x, y) for y in range(HEIGHT) for x in range(WIDTH))
SQUARE_SET: frozenset[str] = frozenset(SQUARES)

# neighbour across each edge, None off the board
NEIGHBOUR: dict[tuple[str, str], str | None] = {}
for _sq in SQUARES:
    _x, _y = xy(_sq)
    for _e, (_dx, _dy) in OFFSETS.items():
        _nx, _ny = _x + _dx, _y + _dy
        NEIGHBOUR[(_sq, _e)] = name(_nx, _ny) if 0 <= _nx < WIDTH and 0 <= _ny < HEIGHT else None

CENTRES: dict[str, str] = {m["centre"]: m["colour"] for m in DATA["mines"]}  # square -> colour
MINE_SQUARE: dict[tuple[str, int], str] = {
    (m["colour"], s["number"]): s["square"] for m in DATA["mines"] for s in m["squares"]
}
MINE_SQUARE_LABEL: dict[str, tuple[str, int]] = {sq: key for key, sq in MINE_SQUARE.items()}
START: dict[str, tuple[str, str]] = {s["square"]: (s["colour"], s["inward"]) for s in DATA["start_squares"]}
START_OF_COLOUR: dict[str, tuple[str, ...]] = {
    c: tuple(sorted((s for s, v in START.items() if v[0] == c), key=lambda q: (xy(q)[1], xy(q)[0])))
    for c in COLOURS
}
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["deposit_cards"]}
CARDS_OF_COLOUR: dict[str, tuple[str, ...]] = {
    c: tuple(card["id"] for card in DATA["deposit_cards"] if card["colour"] == c) for c in COLOURS
}
ALL_CARDS: frozenset[str] = frozenset(CARDS) | {COLLAPSE}

# squares that may ever carry a tile
TRACK_SQUARES: tuple[str, ...] = tuple(s for s in SQUARES if s not in CENTRES and s not in START)


def sort_edges(edges: str) -> str:
    """Edge letters in canonical n e s w order (e.g. "sn" -> "ns")."""
    return "".join(e for e in EDGES if e in edges)


def colours_for(num_seats: int) -> tuple[str, ...]:
    return SEAT_COLOURS[num_seats]


def gem_dict() -> dict[str, int]:
    return {k: 0 for k in GEM_KINDS}


def gem_total(gems: dict[str, int]) -> int:
    return sum(gems.values())


def gem_list(gems: dict[str, int]) -> list[str]:
    """A multiset of gems as a list in canonical kind order."""
    return [k for k in GEM_KINDS for _ in range(gems.get(k, 0))]


def gem_value(gems: dict[str, int]) -> int:
    return sum(GEM_POINTS[k] * n for k, n in gems.items())
