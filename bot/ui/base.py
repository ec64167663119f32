"""The custom_id grammar of every Junction component and the base of its buttons: ids, bounds, checks.

Every persistent component is a discord.py DynamicItem whose custom_id reads `jn:<kind>:<fields>`;
its template (a regular expression) reads the fields back after a restart. A custom_id is untrusted
input (a modified client can send any): templates bound every number's digits, and each callback
first checks that the game may be played from where the click comes (`refused`). A `jn:` id no
template reads gets a one-line answer (JunctionBot.on_interaction, through `is_ours`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar, Self

import discord

from bot.cogs import reply
from rules.words import N_, Msg

PREFIX = "jn:"  # every custom_id Junction makes starts with it
MAX_CUSTOM_ID = 100  # Discord's limit
# Digits a number in a custom_id may have: game and offer ids (SQLite rowids), picker tokens, pages.
GAME = r"(?P<game>\d{1,15})"
NUMBER = r"\d{1,9}"
INVALID_BUTTON = N_("This button is not valid (anymore). Use the newest post of the game.")
NOT_HERE = N_("That game is not played here.")
RESTARTING = N_("Junction is restarting: nothing was done. Try again in a minute.")


def reads(items: Iterable[type[discord.ui.DynamicItem]], custom_id: str) -> bool:
    """Whether one of these component kinds reads `custom_id` (else it is forged, out of bounds or old)."""
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items)


async def refused(interaction: discord.Interaction, game_id: int) -> bool:
    """True, after a one-line ephemeral answer, when this click may not act on the game: it must
    come from the game's server, or in a DM from a member seated in it."""
    if getattr(interaction.client, "closing", False):
        await reply(interaction, Msg(RESTARTING))
        return True
    store = interaction.client.tables.store  # type: ignore[attr-defined]
    row = await store.game(game_id)
    if row is None:
        reason = INVALID_BUTTON
    elif interaction.guild_id is not None:
        reason = None if row.guild_id == interaction.guild_id else NOT_HERE
    else:
        seated = any(seat.user_id == interaction.user.id for seat in await store.seats(game_id))
        reason = None if seated else NOT_HERE
    if reason is not None:
        await reply(interaction, Msg(reason))
    return reason is not None


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{PREFIX}game-button:{GAME}"):
    """A button that carries only its game id (`jn:<kind>:<game>`). A subclass names its kind, label
    and style in its class line, and says in `callback` which handler it calls; the custom_id and the
    template that reads it back come from the same `kind`, so they cannot drift apart."""

    kind: ClassVar[str]
    label: ClassVar[str]
    style: ClassVar[discord.ButtonStyle]

    def __init_subclass__(cls, *, kind: str, label: str,
                          style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init_subclass__(template=rf"{PREFIX}{kind}:{GAME}")
        cls.kind, cls.label, cls.style = kind, label, style

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=self.label, style=self.style,
                                           custom_id=f"{PREFIX}{self.kind}:{game_id}"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> Self:
        return cls(int(match["game"]))


class ChoiceButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"{PREFIX}choice-button:(?P<choice>\w+):{GAME}"):
    """One of a few buttons of a game that differ by a choice word (`jn:<kind>:<choice>:<game>`), such as the
    lobby's Join / Leave / Start. A subclass names its kind and its choices (word -> label and style) in its
    class line; the custom_id and the template that reads it back come from the same names."""

    kind: ClassVar[str]
    choices: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]]

    def __init_subclass__(cls, *, kind: str, choices: dict[str, tuple[str, discord.ButtonStyle]]) -> None:
        super().__init_subclass__(template=rf"{PREFIX}{kind}:(?P<choice>{'|'.join(choices)}):{GAME}")
        cls.kind, cls.choices = kind, choices

    def __init__(self, choice: str, game_id: int) -> None:
        label, style = self.choices[choice]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}{self.kind}:{choice}:{game_id}"))
        self.choice, self.game_id = choice, game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> Self:
        return cls(match["choice"], int(match["game"]))
