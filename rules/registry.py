"""The games Junction hosts: key -> GameDefinition."""

from __future__ import annotations

import importlib

from rules.engine import GameDefinition

# Each game package exposes DEFINITION in rules/<key>/__init__.py. Listed in menu order.
GAME_KEYS: tuple[str, ...] = ("ttr_cards", "great_western", "trans_europa", "off_the_rails", "santa_fe")


def _load() -> dict[str, GameDefinition]:
    games = {}
    for key in GAME_KEYS:
        definition = importlib.import_module(f"rules.{key}").DEFINITION
        assert definition.key == key
        games[key] = definition
    return games


GAMES: dict[str, GameDefinition] = _load()


def get(key: str) -> GameDefinition:
    try:
        return GAMES[key]
    except KeyError:
        raise KeyError(f"Unknown game {key!r}; known: {', '.join(GAMES)}") from None
