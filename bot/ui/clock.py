"""Persistent components of asynchronous play: "since my turn", mute reminders, accept a seat.

Like bot.ui.components, the game id (and the offer) lives in the custom_id, so the buttons work
after a restart and in DMs; callbacks hand over to the ClockCog (`interaction.client.clock`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.ui.components import GameButton


def _cog(interaction: discord.Interaction) -> Any:
    return interaction.client.clock  # type: ignore[attr-defined]


class SinceButton(GameButton, kind="since", label="Since my last turn"):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_since(interaction, self.game_id)


class MuteButton(GameButton, kind="mute", label="Mute reminders for this game"):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_mute(interaction, self.game_id)


class SeatOfferButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=r"jn:seat:(?P<game>\d+):(?P<seat>\d+):(?P<giver>\d+):(?P<taker>\d+)"):
    """Accept a seat offered by `giver` to `taker`; only `taker` may click it."""

    def __init__(self, game_id: int, seat: int, giver: int, taker: int) -> None:
        super().__init__(discord.ui.Button(label="Accept the seat", style=discord.ButtonStyle.success,
                                           custom_id=f"jn:seat:{game_id}:{seat}:{giver}:{taker}"))
        self.game_id, self.seat, self.giver, self.taker = game_id, seat, giver, taker

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> SeatOfferButton:
        return cls(int(match["game"]), int(match["seat"]), int(match["giver"]), int(match["taker"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_accept_seat(interaction, self.game_id, self.seat, self.giver, self.taker)


CLOCK_ITEMS = (SinceButton, MuteButton, SeatOfferButton)
