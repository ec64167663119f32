"""The rematch cog: the Rematch button of a final post opens the lobby and posts it; Confirm and Decline answer it.

What a rematch is and who may do what lives in the service (bot.service.rematch); this cog turns the
clicks into its calls and the lobby into a post (refusals are answered by the components' error handler).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import i18n
from bot.cogs import mark_answered, reply
from bot.delivery.posting import NO_MENTIONS, mentioning
from bot.tables import Tables

if TYPE_CHECKING:
    from bot.app import JunctionBot
    from bot.delivery.outbox import Delivery

log = logging.getLogger("bot.rematch")


def _is_moderator(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_messages)


class RematchCog(commands.Cog):
    """Rematch, Confirm, Decline."""

    def __init__(self, bot: JunctionBot, tables: Tables, delivery: Delivery) -> None:
        self.bot = bot
        self.tables = tables
        self.delivery = delivery

    async def on_rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """Open the finished game's rematch lobby and post it in the game's place; the invited players
        are mentioned once, in that post (their answer is awaited)."""
        user = interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await self.tables.rematch(game_id, user.id, user.display_name)
        text, view, _ = self.delivery.posts.lobby(info)
        place = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
        try:
            lobby = await place.send(text, view=view, allowed_mentions=mentioning(*(i.user_id for i in info.invites)))
        except discord.HTTPException as error:
            log.warning("rematch lobby %s of game %s not posted (%s); it is cancelled", info.row.id, game_id, error)
            await self.tables.cancel(info.row.id, user.id)
            await reply(interaction, i18n.t(interaction.locale, "I cannot post the rematch here; it was not opened."))
            return
        await self.tables.set_message(info.row.id, lobby_message_id=lobby.id)
        await reply(interaction, i18n.t(interaction.locale, "Rematch of game #{old} opened: game #{new}.",
                                        old=game_id, new=info.row.id))

    async def on_answer(self, interaction: discord.Interaction, game_id: int, yes: bool) -> None:
        """An invited player's Confirm or Decline; the lobby message shows it, and the game starts when
        the last one confirmed and every seat is taken."""
        user = interaction.user
        info, ready = await self.tables.answer_rematch(game_id, user.id, user.display_name, yes)
        if ready:
            await interaction.response.defer()  # the deal takes longer than an edit
            await self.tables.start(game_id, user.id, admin=_is_moderator(interaction))
            info = await self.tables.info(game_id)
        text, view, _ = self.delivery.posts.lobby(info)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS)
        mark_answered(interaction)
        if ready:
            await self.delivery.flush(game_id)


async def setup(bot: JunctionBot) -> None:
    """Loaded as an extension (`bot.load_extension("bot.cogs.rematch")`)."""
    await bot.add_cog(RematchCog(bot, bot.tables, bot.delivery))
