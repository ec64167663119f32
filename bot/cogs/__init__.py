"""The discord.py side of Junction: one cog per job (games, clock, admin), and the reply they share."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot import i18n, texts
from bot.db import DatabaseUnavailable
from bot.tables import DB_DOWN, SAVE_UNKNOWN

NO_MENTIONS = discord.AllowedMentions.none()
# Discord's answer to a second response to one interaction (a duplicate delivery answered already).
ALREADY_ACKNOWLEDGED = 40060

log = logging.getLogger("bot.cogs")


async def reply(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """An ephemeral answer in the user's language, clipped to one message, whether or not the
    interaction was deferred; it pings nobody unless `allowed_mentions` says otherwise."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    text = texts.clip(i18n.localize(interaction.locale, text))
    if kwargs.get("view") is not None:
        i18n.localize_view(kwargs["view"], interaction.locale)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def answer_failure(interaction: discord.Interaction, error: BaseException) -> bool:
    """Answer, in one line, an interaction whose handler failed in a way the user should hear about,
    or stay quiet where nothing is wrong; True if `error` was such a failure (else the caller lets
    it be logged as a bug).

    The database out of reach: "nothing was changed" when that is known, else that it cannot tell
    yet. A second delivery of an interaction that was answered already: nothing to say, no error.
    """
    if isinstance(error, DatabaseUnavailable):
        log.warning("interaction %s: the database is out of reach (%s)", interaction.id, error)
        with contextlib.suppress(discord.HTTPException):
            await reply(interaction, DB_DOWN if error.committed is False else SAVE_UNKNOWN)
        return True
    if isinstance(error, discord.InteractionResponded) or (
            isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED):
        log.info("interaction %s was answered already (a repeated delivery): %s", interaction.id, error)
        return True
    return False


def answering_failures(callback: Any) -> Any:
    """For a component's callback: the failures `answer_failure` knows are answered, not only logged
    (discord.py only logs what a dynamic item's callback raises)."""

    async def guarded(self: Any, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except Exception as error:
            if not await answer_failure(interaction, error):
                raise

    guarded.__name__, guarded.__doc__ = callback.__name__, callback.__doc__
    return guarded
