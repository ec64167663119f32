"""Board images: a game's view (dict) in, PNG bytes out. One module per game, render/<key>.py.

Each game module provides `board(view, names) -> bytes` (the public image, from view(None)),
`board_image(view, names) -> Image` (the same, not yet encoded: for images that only scale it down)
and `hand(view, names) -> bytes` (the private image, from view(seat)). `names` are the seats' display
names in seat order. `lang` (a code of locales.LANGUAGES) draws the labels in that language: the game's
domain over the shared `images` domain (locales/<lang>/LC_MESSAGES/), applied by `kit.text`/`Panel` to every
label they draw.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from PIL import Image

import locales
from render import kit
from rules.words import Msg


def module_for(game_key: str) -> ModuleType:
    return importlib.import_module(f"render.{game_key}")


LANGUAGES = locales.LANGUAGES


def in_language(lang: str | None, game_key: str, function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` drawing its labels in `lang` (a code of locales.LANGUAGES, or a Discord locale; None: the
    language already set around the call, English by default)."""
    if lang is None:
        return function(*args)
    lang = lang if lang in LANGUAGES else locales.language_of(lang)
    with kit.language(lang), kit.game(game_key):
        return function(*args)


def board_png(view: dict[str, Any], names: list[str], lang: str | None = None) -> bytes:
    return in_language(lang, view["game"], module_for(view["game"]).board, view, names)


def board_image(view: dict[str, Any], names: list[str], lang: str | None = None) -> Image.Image:
    """The public board as drawn, before its PNG encoding (about two thirds of a board's cost): for the
    "since your last turn" strip, which only scales it down."""
    return in_language(lang, view["game"], module_for(view["game"]).board_image, view, names)


def hand_png(view: dict[str, Any], names: list[str], lang: str | None = None) -> bytes:
    return in_language(lang, view["game"], module_for(view["game"]).hand, view, names)


def interlude_pngs(previous: dict[str, Any] | None, view: dict[str, Any], names: list[str],
                   lang: str | None = None) -> list[bytes]:
    """Images a move calls for before its new board (a round-end summary, a movement strip...).

    `previous` and `view` are the public views before and after the move. Games without such
    moments define no `interludes` in their module and get none.
    """
    function = getattr(module_for(view["game"]), "interludes", None)
    return in_language(lang, view["game"], function, previous, view, names) if function is not None else []


# Imported before `describe` below is defined: importing the submodule binds `render.describe` to
# the module, and the function definition must come after so that `render.describe(...)` is the call.
from render import describe as _describe_text  # noqa: E402


def describe(view: dict[str, Any], names: list[str], lang: str | None = None) -> str:
    """A short text description of a public board view (alt text, `/board text`) in `lang` (None: English):
    the game's own, else generic. A game's describe may return a message (translated here, its seats named
    after the translation) or text in the current language."""
    try:
        function = getattr(module_for(view["game"]), "describe", None)
    except ImportError:  # a game without a render module (e.g. a test game) still gets the generic text
        function = None

    def text() -> str:
        said = function(view, names) if function is not None else _describe_text.generic(view, names)
        return kit.words(said, names) if isinstance(said, Msg) else kit.tr(said)

    return _describe_text.clip(in_language(lang, view["game"], text))
