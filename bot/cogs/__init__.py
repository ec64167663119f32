"""The discord.py side of Junction: one cog per job (games, clock, admin), and the reply they share."""

from __future__ import annotations

from typing import Any

import discord

from bot import i18n, texts

NO_MENTIONS = discord.AllowedMentions.none()


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
