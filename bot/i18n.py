"""The reader's language at the edge: messages translated where a post, reply or DM is sent, and the command
tree's descriptions for Discord.

Every text the bot shows is a message (`rules.words.Msg`) or a `t(locale, "English {param}", **params)` call
at the point it is composed: the English is the gettext message id, looked up in locales/<lang>/LC_MESSAGES
(the current game's domain first, then `images`, `bot`, `community`), then filled with its parameters. A
player's name, a mention, a number or move notation is a plain parameter and never translated; a seat stays a
seat (`Seat`) until `say` names it, after the translation. Move notations stay as they are in every language:
they are what `/play` reads.

Command, option and choice descriptions reach Discord through `Translator` (set on the tree in
`JunctionBot.setup_hook`) in every language of `locales.LANGUAGES`; bot.command_words lists them from the
command tree for `python -m locales extract` (locales.catalogs.PROVIDERS). Command and option *names* stay English so
that `/game new` is the same command for everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

import locales
from bot import words
from bot.tables import CURRENT_GAME

V = TypeVar("V", bound=discord.ui.view.BaseView)

lang = words.lang
t = words.t
tn = words.tn
title = words.title


def say(locale: Any, line: Any, names: Sequence[str] | None = None, game: str | None = None) -> str:
    """A message (or a stored line: its JSON, or English from before messages) in the reader's language,
    its seats named by `names` after the translation. `game`: by default the current task's (CURRENT_GAME)."""
    return words.say(line, lang(locale), names, game or CURRENT_GAME.get())


def warm() -> None:
    """Read every language's catalogs now (the bot does it in a thread at start, so no first post waits)."""
    for language in locales.LANGUAGES:
        locales.words(language)


def localize_view(view: V, locale: Any) -> V:
    """The view's button labels and select placeholders in the reader's language (each a message id: an
    `N_("label")`), a layout view's items at any depth. A select's options are moves (notation, never
    translated) or composed in the reader's language where the view is built (bot.ui.components.picker_view);
    text displays are composed in the reader's language already."""
    language = lang(locale)
    if language == locales.SOURCE:
        return view

    def word(text: str) -> str:
        return locales.gettext(language, text, CURRENT_GAME.get())

    for child in view.walk_children():
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = word(item.label)
        elif isinstance(item, discord.ui.Select) and item.placeholder:
            item.placeholder = word(item.placeholder)
    return view


# --------------------------------------------------------------------------- commands


class Translator(app_commands.Translator):
    """Descriptions and choice names of the command tree in every language Junction speaks (names stay)."""

    _LOCATIONS = frozenset({
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    })

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = lang(locale)
        if language == locales.SOURCE or context.location not in self._LOCATIONS:
            return None
        text = locales.gettext(language, string.message)
        return text if text != string.message else None
