"""Persistent components of asynchronous play: "since my turn", mute reminders, accept a seat.

Like bot.ui.components, the game id (and the offer's id) lives in the custom_id (grammar: bot.ui.base),
so the buttons work after a restart and in DMs; callbacks hand over to the clock cog
(`get_cog("ClockCog")`).
The offer itself (seat, giver, taker, expiry) is stored server side: an id proves nothing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord

from bot.cogs import answering_failures
from bot.ui.base import GAME, GameButton, refused
from rules.words import N_

if TYPE_CHECKING:
    from bot.cogs.clock import ClockCog


def _cog(interaction: discord.Interaction) -> ClockCog:
    return interaction.client.get_cog("ClockCog")  # type: ignore[return-value]


class SinceButton(GameButton, kind="since", label=N_("Since my last turn")):
    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_since(interaction, self.game_id)


class MuteButton(GameButton, kind="mute", label=N_("Mute reminders for this game")):
    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_mute(interaction, self.game_id)


class SeatOfferButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"jn:offer:{GAME}:(?P<offer>\d{{1,15}})"):
    """Accept a stored seat offer (bot.tables.Tables.offer_seat); only its taker may, once."""

    def __init__(self, game_id: int, offer_id: int) -> None:
        super().__init__(discord.ui.Button(label=N_("Accept the seat"), style=discord.ButtonStyle.success,
                                           custom_id=f"jn:offer:{game_id}:{offer_id}"))
        self.game_id, self.offer_id = game_id, offer_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> SeatOfferButton:
        return cls(int(match["game"]), int(match["offer"]))

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_accept_seat(interaction, self.game_id, self.offer_id)


ASYNC_PLAY_ITEMS = (SinceButton, MuteButton, SeatOfferButton)
