"""The discord.py side of Junction: slash commands and the handlers behind every button."""

from __future__ import annotations

from typing import Any

from discord import app_commands
from discord.ext import commands


class CommandCog(commands.Cog):
    """A cog whose slash commands (`commands_built`, made at init) join the bot's tree on load."""

    bot: Any
    commands_built: list[app_commands.Command | app_commands.Group]

    async def cog_load(self) -> None:
        for command in self.commands_built:
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        for command in self.commands_built:
            self.bot.tree.remove_command(command.name)
