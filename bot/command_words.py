"""The command tree's words for the catalogs: every description and choice name of the slash commands, read
from the cog classes, for `python -m locales extract` (locales.catalogs.PROVIDERS). Discord gets them in each
language through bot.i18n.Translator."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

from discord.ext import commands

import bot.cogs
import locales


def _text(value: Any) -> str | None:
    text = getattr(value, "message", value)
    return text if isinstance(text, str) and text and text != "…" else None


def _command_texts(command: Any) -> Iterator[str]:
    found = _text(getattr(command, "description", None))
    if found:
        yield found
    for parameter in getattr(command, "parameters", ()):
        if _text(parameter.description):
            yield _text(parameter.description)
        for choice in parameter.choices:
            if _text(choice.name):
                yield _text(choice.name)
    for child in getattr(command, "commands", ()):
        yield from _command_texts(child)


def message_ids() -> list[str]:
    """Every description and choice name of the command tree (the cogs in bot/cogs, read from their classes):
    the ids `python -m locales extract` adds to bot.pot (locales.catalogs.PROVIDERS)."""
    found: dict[str, None] = {}
    for module_info in pkgutil.iter_modules(bot.cogs.__path__):
        module = importlib.import_module(f"bot.cogs.{module_info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == module.__name__:
                for command in value.__cog_app_commands__:
                    found.update(dict.fromkeys(_command_texts(command)))
    # Every language that has catalogs, by name (the /admin settings language: choices of those in LINGUAS):
    # listed whether or not LINGUAS names it yet, so adding a language does not change the template.
    found.update(dict.fromkeys(locales.english_name(path.parent.name)
                               for path in sorted(locales.ROOT.glob("*/LC_MESSAGES"))))
    found.update(dict.fromkeys([locales.english_name(locales.SOURCE)]))
    return list(found)
