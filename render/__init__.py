"""Board images: a game's view (dict) in, PNG bytes out. One module per game, render/<key>.py.

Each game module provides `board(view, names) -> bytes` (the public image, from view(None)) and
`hand(view, names) -> bytes` (the private image, from view(seat)). `names` are the seats' display
names in seat order.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


def module_for(game_key: str) -> ModuleType:
    return importlib.import_module(f"render.{game_key}")


def board_png(view: dict[str, Any], names: list[str]) -> bytes:
    return module_for(view["game"]).board(view, names)


def hand_png(view: dict[str, Any], names: list[str]) -> bytes:
    return module_for(view["game"]).hand(view, names)


def interlude_pngs(previous: dict[str, Any] | None, view: dict[str, Any], names: list[str]) -> list[bytes]:
    """Images a move calls for before its new board (a round-end summary, a movement strip...).

    `previous` and `view` are the public views before and after the move. Games without such
    moments define no `interludes` in their module and get none.
    """
    function = getattr(module_for(view["game"]), "interludes", None)
    return function(previous, view, names) if function is not None else []


# Imported before `describe` below is defined: importing the submodule binds `render.describe` to
# the module, and the function definition must come after so that `render.describe(...)` is the call.
from render import describe as _describe_text  # noqa: E402


def describe(view: dict[str, Any], names: list[str]) -> str:
    """A short text description of a public board view (alt text): the game's own, else generic."""
    try:
        function = getattr(module_for(view["game"]), "describe", None)
    except ImportError:  # a game without a render module (e.g. a test game) still gets the generic text
        function = None
    text = function(view, names) if function is not None else _describe_text.generic(view, names)
    return _describe_text.clip(text)
