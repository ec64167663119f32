"""The rematch's persistent buttons: Rematch on a finished game's final post, Confirm and Decline on the rematch lobby.

DynamicItems like every Junction component (bot.ui.base): registered once, they work after a restart for
every game. Callbacks hand over to the rematch cog (`get_cog("RematchCog")`) after `refused`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.cogs import answering_failures
from bot.ui.base import GAME, GameButton, refused
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


class RematchAnswer(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"jn:again:(?P<answer>{'|'.join(ANSWERS)}):{GAME}"):
    """An invited player's one click on the rematch lobby: Confirm (take the seat) or Decline."""

    def __init__(self, answer: str, game_id: int) -> None:
        label, style = ANSWERS[answer]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"jn:again:{answer}:{game_id}"))
        self.answer, self.game_id = answer, game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> RematchAnswer:
        return cls(match["answer"], int(match["game"]))

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_answer(interaction, self.game_id, self.answer == "yes")


REMATCH_ITEMS = (RematchButton, RematchAnswer)
