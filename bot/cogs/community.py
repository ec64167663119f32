"""The community cog: /profile, /leaderboard and /history. Answers are private unless `post` is set; pages
and their buttons are bot.ui.community's, the profile's text and chart bot.ui.profile's, and the figures
bot.store.stats's (docs/community.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import NO_MENTIONS, reply
from bot.i18n import t
from bot.ui.community import LABELS, NUMBER_HELP, RECORD_HELP, REPORT_HELP
from bot.ui.history import show_history
from bot.ui.leaderboard import chosen_board, season_choices, show_board
from bot.ui.profile import profile_answer

if TYPE_CHECKING:
    from bot.app import JunctionBot
    from bot.tables import Tables


class CommunityCog(commands.Cog):
    """Profiles, leaderboards and histories: reads only, never a change to a game."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def _game_keys(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=d.title, value=key) for key, d in self.tables.games.items()
                if typed in d.title.lower() or typed in key][:25]

    @app_commands.command(name="profile", description="A member's ratings, results and rating history on this server")
    @app_commands.describe(member="Whose profile (default: yours)", game="Only this game",
                           versus="Head-to-head against this member", post="Post it in the channel for everyone")
    @app_commands.guild_only()
    async def profile(self, interaction: discord.Interaction, member: discord.Member | None = None,
                      game: str | None = None, versus: discord.Member | None = None, post: bool = False) -> None:
        if game is not None and game not in self.tables.games:
            await reply(interaction, t(interaction.locale, "There is no game called {game} here.", game=game))
            return
        await interaction.response.defer(ephemeral=not post, thinking=True)
        locale = interaction.guild_locale if post and interaction.guild_locale else interaction.locale
        text, files = await profile_answer(interaction, member or interaction.user, game, versus, locale)
        await interaction.followup.send(text, files=files, ephemeral=not post, allowed_mentions=NO_MENTIONS)

    profile.autocomplete("game")(_game_keys)

    @app_commands.command(name="leaderboard", description="The best players of a game, on this server or all servers")
    @app_commands.describe(game="Which game", scope="This server (default) or all servers",
                           season="A season of this server: current, or its number",
                           post="Post it in the channel for everyone")
    @app_commands.choices(scope=[app_commands.Choice(name="this server", value="server"),
                                 app_commands.Choice(name="all servers", value="global")])
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          scope: Literal["server", "global"] = "server", season: str | None = None,
                          post: bool = False) -> None:
        board = await chosen_board(interaction, scope, season)
        if board is not None:
            await show_board(interaction, game, board, post=post)

    leaderboard.autocomplete("game")(_game_keys)

    @leaderboard.autocomplete("season")
    async def _seasons(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=value) for name, value in await season_choices(interaction, current)]

    @app_commands.command(name="history", description="Finished games on this server, the latest first")
    @app_commands.describe(member="Only this member's games", game="Only this game",
                           post="Post it in the channel for everyone")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, member: discord.Member | None = None,
                      game: str | None = None, post: bool = False) -> None:
        await show_history(interaction, member.id if member else None, game, post=post)

    history.autocomplete("game")(_game_keys)


def message_ids() -> list[str]:
    """The texts no t() call spells out, for `python -m locales extract` (the `community` domain): this cog's
    command, option and choice descriptions, the /game options about history, and the buttons' labels."""
    texts: list[str] = [NUMBER_HELP, REPORT_HELP, RECORD_HELP, *LABELS]
    for command in (CommunityCog.profile, CommunityCog.leaderboard, CommunityCog.history):
        texts.append(command.description)
        for parameter in command.parameters:
            texts.append(parameter.description)
            texts += [choice.name for choice in parameter.choices]
    return list(dict.fromkeys(texts))


async def setup(bot: JunctionBot) -> None:
    """Loaded as an extension (`bot.load_extension("bot.cogs.community")`)."""
    await bot.add_cog(CommunityCog(bot.tables))
