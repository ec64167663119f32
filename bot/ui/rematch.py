"""The rematch's persistent buttons: Rematch on a finished game's final post, Confirm and Decline on the rematch lobby.

DynamicItems like every Junction component (bot.ui.base): registered once, they work after a restart for
every game. Callbacks hand over to the rematch cog (`get_cog("RematchCog")`) after `refused`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.cogs import answering_failures
from bot.ui.base import ChoiceButton, GameButton, refused
from rules.words import N_

if TYPE_CHECKING:
    from bot.cogs.rematch import RematchCog

ANSWERS = {"yes": (N_("Confirm"), discord.ButtonStyle.success), "no": (N_("Decline"), discord.ButtonStyle.secondary)}


def _cog(interaction: discord.Interaction) -> RematchCog:
    return interaction.client.get_cog("RematchCog")  # type: ignore[return-value]


class RematchButton(GameButton, kind="rematch", label=N_("Rematch"), style=discord.ButtonStyle.success):
    """On the final post: open a lobby with the same title, options and players."""

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_rematch(interaction, self.game_id)


class RematchAnswer(ChoiceButton, kind="again", choices=ANSWERS):
    """An invited player's one click on the rematch lobby: Confirm (take the seat) or Decline."""

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_answer(interaction, self.game_id, self.choice == "yes")


REMATCH_ITEMS = (RematchButton, RematchAnswer)
