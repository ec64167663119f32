"""Japanese and English: the catalog (English source text -> Japanese), `t`, `localize` and the command Translator.

The English text in the code is the key. `t(locale, key, **kw)` formats one entry for a user's
Discord locale; `localize(locale, text)` translates text the bot already composed in English
(replies, lobby and board texts), line by line: an exact entry, else an entry with `{name}`
placeholders read as a pattern (`You played `{move}`.` matches `You played `lay a1 b2`.`), else
the line stays as it is (`rules.engine.Catalog`). Engines write English; each game's Japanese
lives beside its code (`rules/<key>/ja.py`: events, refusals, options; `JA` in `render/<key>.py`:
image labels and alt text) and is merged here, so event lines in posts and DMs are translated with
the rest. Move notations stay as they are in every language: they are what `/play` reads.
Command, option and choice descriptions reach Discord through `Translator` (set on the tree in
`JunctionBot.setup_hook`); command and option *names* stay English so that `/game new` is the
same command for everyone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

import discord
from discord import app_commands

import locales
from bot.tables import CURRENT_GAME
from rules.engine import Catalog
from rules.registry import GAME_KEYS, GAMES

V = TypeVar("V", bound=discord.ui.view.BaseView)

# --------------------------------------------------------------------------- lookup

# Kept for the tests and code written against the old module: the bot's Japanese entries and the
# Japanese /rules summaries, now read from locales/ja/LC_MESSAGES/*.po.
JA: dict[str, str] = locales.entries("ja", "bot")
RULES_JA: dict[str, str] = {key: locales.entries("ja", key)[d.summary] for key, d in GAMES.items()
                            if d.summary in locales.entries("ja", key)}


def is_japanese(locale: Any) -> bool:
    """True for Discord's `ja` locale (a discord.Locale, its value, or None)."""
    return lang(locale) == "ja"


def lang(locale: Any) -> str:
    """The language Junction speaks for this locale (locales.LANGUAGES; English when it has none)."""
    return locales.language_of(locale)


def t(locale: Any, key: str, **kw: Any) -> str:
    """The catalog entry `key` (English source) for this locale, formatted with kw."""
    template = locales.gettext(lang(locale), key, CURRENT_GAME.get())
    return template.format(**kw) if kw else template


def game_catalog(key: str, language: str = "ja") -> dict[str, str]:
    """One game's texts in `language`: its domain's catalog (locales/<language>/LC_MESSAGES/<key>.po)."""
    return locales.entries(language, key)


@lru_cache(maxsize=64)
def catalog(game: str | None = None, language: str = "ja") -> Catalog:
    """The bot's catalog for texts about `game` in `language`: the bot's own entries over that game's, plus
    every game's title. Without a game (a list of games, say): every game's entries. Scoped, because two
    games may say the same English in different words (a card "play" is not a railroad's)."""
    every = {key: game_catalog(key, language) for key in GAME_KEYS}
    titles = {d.title: every[k][d.title] for k, d in GAMES.items() if d.title in every[k]}
    games = every[game] if game in every else {k: v for c in every.values() for k, v in c.items()}
    shared = {domain: locales.entries(language, domain) for domain in locales.SHARED_DOMAINS}
    return Catalog(shared["images"] | games | titles | shared["community"] | shared["bot"])


def warm() -> None:
    """Build every catalog now (the bot does it in a thread at start)."""
    for language in locales.LANGUAGES[1:]:
        for key in (*GAME_KEYS, None):
            catalog(key, language)


def localize(locale: Any, text: str, game: str | None = None) -> str:
    """Text the bot composed in English, in the reader's language (unknown lines stay as they are).

    `game`: the game the text is about; by default the one the current task works on (set by the
    service, bot.tables.CURRENT_GAME). A message (rules.words.Msg) is taken as its English."""
    if text is not None and not isinstance(text, str):
        text = str(text)
    language = lang(locale)
    if language == locales.SOURCE or not text:
        return text.replace(Catalog.JOIN, " ")
    return catalog(game or CURRENT_GAME.get(), language).text(text).replace(Catalog.JOIN, " ")


def localize_view(view: V, locale: Any) -> V:
    """The view's button labels and select texts in the reader's language (move notations stay);
    a layout view's items at any depth (text displays are localized where they are composed)."""
    if lang(locale) == locales.SOURCE:
        return view
    for child in view.walk_children():
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = localize(locale, item.label)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = localize(locale, item.placeholder)
            for option in item.options:
                if option.description:
                    option.description = localize(locale, option.description)
    return view


def rules_text(locale: Any, definition: Any, english: str) -> str:
    """`/rules` in the reader's language: the game's summary from its domain, the rest localized."""
    language = lang(locale)
    if language == locales.SOURCE:
        return english
    summary = locales.gettext(language, definition.summary, definition.key) if definition.summary else None
    if summary and summary != definition.summary and definition.summary in english:
        english = english.replace(definition.summary, "\u0000")
        return localize(locale, english).replace("\u0000", summary)[:2000]
    return localize(locale, english)


# --------------------------------------------------------------------------- commands


class Translator(app_commands.Translator):
    """Japanese descriptions and choice names for the command tree (names stay as they are)."""

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
        return catalog(None, language).entries.get(string.message)
