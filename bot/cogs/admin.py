"""Server admin commands (/admin settings|end|kick|stats) and /mygames; the listings themselves live in
bot.ui.listing, the rules for /game new in bot.servers.

Who is an admin: a member with Manage Server in the channel, or one holding the role an admin chose
(`/admin settings admin_role:`). The commands are visible to everyone (a role-based admin could not
see them otherwise); each checks the permission itself and says clearly when it is missing.

Guild settings (JSON in the store's `guild_settings`): `game_channels` (channel ids; empty: any),
`turn_hours` and `timeout_action` (defaults for new tables, read by the clock code through
`ClockSettings.resolve`), `threads` ("always" | "never" | "choice"), `admin_role` (role id or None),
`language` (a code of locales.LANGUAGES; unset: the server's Discord locale) for the bot's public posts,
`lobby_days` (days without activity after which a lobby closes itself; 0: never; unset: 7).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import locales
from bot import community, i18n
from bot.cogs import reply
from bot.servers import guild_settings
from bot.service.hygiene import MAX_LOBBY_DAYS
from bot.service.hygiene import lobby_days as lobby_days_of
from bot.tables import Outcome, Refused, TableInfo, Tables
from bot.ui.listing import show_list
from rules.words import N_

if TYPE_CHECKING:
    from bot.app import JunctionBot
    from bot.delivery.outbox import Delivery

MAX_TURN_HOURS = 24 * 30
THREAD_MODES = {"always": N_("always in a thread"), "never": N_("never in a thread"),
                "choice": N_("the player chooses")}
TIMEOUT_NAMES = {"ai": N_("the AI plays the turn"), "skip": N_("the turn is skipped"), "end": N_("the game ends")}
# Every language Junction speaks (locales/LINGUAS), by its English name, and the server's own.
LANGUAGES = {**{code: locales.english_name(code) for code in locales.LANGUAGES},
             "auto": N_("the server's Discord language")}


class AdminCog(commands.Cog):
    """Admin commands and /mygames; the game rules themselves stay in Tables."""

    def __init__(self, tables: Tables, delivery: Delivery, user_locales: dict[int, str]) -> None:
        self.tables = tables
        self.delivery = delivery
        self.user_locales = user_locales
        # Servers' chosen language for public posts (settings["language"]), kept in memory because
        # every board post asks; loaded at start, updated by /admin settings.
        self.languages = delivery.places.languages

    async def cog_load(self) -> None:
        self.languages.clear()
        self.languages.update({guild: settings["language"] for guild, settings
                               in (await self.tables.store.all_guild_settings()).items() if settings.get("language")})

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # DMs the bot starts later (hands, reminders) use the language of the user's last interaction.
        self.user_locales[interaction.user.id] = str(interaction.locale)

    # ------------------------------------------------------------------ helpers

    _reply = staticmethod(reply)

    async def admin_allowed(self, interaction: discord.Interaction) -> bool:
        """True if the caller may use admin commands here; otherwise they are told why."""
        refused = await self.refusal(interaction)
        if refused:
            await self._reply(interaction, refused)
        return refused is None

    async def _admin_game(self, interaction: discord.Interaction, game_id: int) -> TableInfo | None:
        """Game #id of this server for an admin command, or None after telling the caller why not."""
        if not await self.admin_allowed(interaction):
            return None
        return await self.server_game(interaction, game_id)

    async def server_game(self, interaction: discord.Interaction, game_id: int) -> TableInfo | None:
        """Game #id of this server, or None after saying there is none."""
        info = await self._guild_game(interaction, game_id)
        if info is None:
            await self._reply(interaction, i18n.t(interaction.locale, "There is no game #{id} on this server.",
                                                  id=game_id))
        return info

    async def settings(self, guild_id: int | None) -> dict[str, Any]:
        return await guild_settings(self.tables, guild_id)

    async def refusal(self, interaction: discord.Interaction) -> str | None:
        """None if the caller may use admin commands here, else the reason in their language."""
        locale = interaction.locale
        if interaction.guild_id is None:
            return i18n.t(locale, "Admin commands work in a server only.")
        perms = interaction.permissions
        if perms.manage_guild or perms.administrator:
            return None
        role_id = (await self.settings(interaction.guild_id)).get("admin_role")
        user = interaction.user
        if role_id and isinstance(user, discord.Member) and any(r.id == role_id for r in user.roles):
            return None
        if role_id:
            return i18n.t(locale, "You need the **Manage Server** permission (or the admin role {role}) to use this "
                                  "command.", role=f"<@&{role_id}>")
        return i18n.t(locale, "You need the **Manage Server** permission to use this command.")

    async def _guild_game(self, interaction: discord.Interaction, game_id: int) -> TableInfo | None:
        try:
            info = await self.tables.info(game_id)
        except Refused:
            return None
        return info if info.row.guild_id == interaction.guild_id else None

    # ------------------------------------------------------------------ commands

    admin = app_commands.Group(name="admin", description=_("Server admin controls for Junction games"),
                               guild_only=True)

    @admin.command(name="settings", description=_("Show or change this server's game settings"))
    @app_commands.describe(
        channels=_("Channels where games may be started (mention them; 'any' allows every channel)"),
        timer_hours=_("Default turn timer in hours for new games (0 = off)"),
        timeout=_("Default action when a turn times out"),
        threads=_("Whether new games open their own thread"),
        admin_role=_("A role whose members may use the admin commands"),
        clear_role=_("Remove the admin role (only Manage Server then)"),
        language=_("Language of the bot's posts in channels (replies follow each user's Discord language)"),
        lobby_days=_("Days without activity after which a lobby closes itself (0 = never; default 7)"))
    @app_commands.choices(
        timeout=[app_commands.Choice(name=_(v), value=k) for k, v in TIMEOUT_NAMES.items()],
        threads=[app_commands.Choice(name=_(v), value=k) for k, v in THREAD_MODES.items()],
        language=[app_commands.Choice(name=_(v), value=k) for k, v in LANGUAGES.items()])
    async def settings_command(self, interaction: discord.Interaction, channels: str | None = None,
                               timer_hours: int | None = None, timeout: str | None = None,
                               threads: str | None = None, admin_role: discord.Role | None = None,
                               clear_role: bool = False, language: str | None = None,
                               lobby_days: app_commands.Range[int, 0, MAX_LOBBY_DAYS] | None = None) -> None:
        if not await self.admin_allowed(interaction):
            return
        locale = interaction.locale
        current = await self.settings(interaction.guild_id)
        changed = dict(current)
        if channels is not None:
            ids = [int(c) for c in re.findall(r"<#(\d+)>", channels)]
            if channels.strip().lower() == "any":
                ids = []
            elif not ids:
                await self._reply(interaction, i18n.t(locale, "Write channels as mentions (#channel), or 'any'."))
                return
            changed["game_channels"] = list(dict.fromkeys(ids))
        if timer_hours is not None:
            if not 0 <= timer_hours <= MAX_TURN_HOURS:
                await self._reply(interaction, i18n.t(locale, "The turn timer goes from 0 (off) to {max} hours.",
                                                      max=MAX_TURN_HOURS))
                return
            changed["turn_hours"] = timer_hours
        if timeout is not None:
            changed["timeout_action"] = timeout
        if threads is not None:
            changed["threads"] = threads
        if admin_role is not None:
            changed["admin_role"] = admin_role.id
        if clear_role:
            changed.pop("admin_role", None)
        if language == "auto":
            changed.pop("language", None)
        elif language is not None:
            changed["language"] = language
        if lobby_days is not None:
            changed["lobby_days"] = lobby_days
        lines = []
        if changed != current:
            await self.tables.store.set_guild_settings(interaction.guild_id, changed)
            if changed.get("language"):
                self.languages[interaction.guild_id] = changed["language"]
            else:
                self.languages.pop(interaction.guild_id, None)
            lines.append(i18n.t(locale, "Settings saved."))
            if changed.get("lobby_days") != current.get("lobby_days") and self.tables.on_clocks is not None:
                for game_id, due in (await self.tables.lobby_due_times()).items():  # the open lobbies' new times
                    self.tables.on_clocks(game_id, due)
        lines += self.settings_lines(locale, changed)
        await self._reply(interaction, "\n".join(lines))

    @admin.command(name="end", description=_("End a game of this server now"))
    @app_commands.describe(game=_("The game number (#id; start typing to see this server's games)"))
    async def end(self, interaction: discord.Interaction, game: int) -> None:
        info = await self._admin_game(interaction, game)
        if info is None:
            return
        locale = interaction.locale
        if info.row.status not in ("lobby", "running"):
            await self._reply(interaction, i18n.t(locale, "Game #{id} is already finished.", id=game))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.tables.end_by_admin(game)
        await self._reply(interaction, i18n.t(locale, "Game #{id} ended.", id=game))
        await self.delivery.flush(game)
        await self.delivery.posts.refresh_lobby(game)

    @admin.command(name="kick", description=_("Remove a player from a game: the AI takes their seat"))
    @app_commands.describe(user=_("The player to remove"),
                           game=_("The game number (#id; start typing to see this server's games)"))
    async def kick(self, interaction: discord.Interaction, user: discord.User, game: int) -> None:
        info = await self._admin_game(interaction, game)
        if info is None:
            return
        locale = interaction.locale
        if info.seat_of(user.id) is None:
            await self._reply(interaction, i18n.t(locale, "{name} is not playing in game #{id}.",
                                                  name=user.display_name, id=game))
            return
        result = await self.tables.leave(game, user.id)
        if isinstance(result, Outcome):
            text = N_("{name} was removed from game #{id}; the AI plays their seat.")
        else:
            text = N_("{name} was removed from the lobby of game #{id}.")
        await self._reply(interaction, i18n.t(locale, text, name=user.display_name, id=game))
        await self.delivery.posts.refresh_lobby(game)
        await self.delivery.flush(game)

    @end.autocomplete("game")
    @kick.autocomplete("game")
    async def _game_choices(self, interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[int]]:
        """This server's lobbies and running games whose label holds what was typed."""
        if interaction.guild_id is None:
            return []
        rows = await self.tables.store.games_in_guild(interaction.guild_id, "lobby", "running", limit=25)
        choices = []
        for row in rows:
            title = self.tables.games[row.game_key].title if row.game_key in self.tables.games else row.game_key
            label = f"#{row.id} {title} ({row.status})"
            if current.strip().lstrip("#") in label:
                choices.append(app_commands.Choice(name=label[:100], value=row.id))
        return choices

    @admin.command(name="stats", description=_("Games, moves and players on this server"))
    async def stats(self, interaction: discord.Interaction) -> None:
        if not await self.admin_allowed(interaction):
            return
        locale = interaction.locale
        data = await self.tables.store.guild_stats(interaction.guild_id)
        counts = data["by_status"]
        by_game = ", ".join(f"{self.tables.games[k].title if k in self.tables.games else k} {n}"
                            for k, n in data["by_game"].items()) or "-"
        lines = [i18n.t(locale, "**Junction on this server**"),
                 i18n.t(locale, "Games: {total} · running {running} · lobbies {lobby} · finished {over} · "
                                "cancelled {cancelled}", total=sum(counts.values()),
                        **{k: counts.get(k, 0) for k in ("running", "lobby", "over", "cancelled")}),
                 i18n.t(locale, "Moves played: {moves} · players: {players}", moves=data["moves"],
                        players=data["players"]),
                 i18n.t(locale, "By game: {games}", games=by_game)]
        await self._reply(interaction, "\n".join(lines))

    @app_commands.command(name="mygames", description=_("Your games on every server, and whose turn it is"))
    async def mygames(self, interaction: discord.Interaction) -> None:
        await show_list(interaction, self.tables, "mine")

    def settings_lines(self, locale: Any, settings: dict[str, Any]) -> list[str]:
        channels = settings.get("game_channels") or []
        hours = settings.get("turn_hours")
        action = settings.get("timeout_action")
        role = settings.get("admin_role")
        lines = [i18n.t(locale, "**Junction settings for this server**"),
                 i18n.t(locale, "Games may start in: {channels}",
                        channels=", ".join(f"<#{c}>" for c in channels) or i18n.t(locale, "any channel"))]
        if hours is None:
            lines.append(i18n.t(locale, "Default turn timer: not set (24 h)"))
        elif hours == 0:
            lines.append(i18n.t(locale, "Default turn timer: off"))
        else:
            lines.append(i18n.t(locale, "Default turn timer: {hours} h", hours=hours))
        lines.append(i18n.t(locale, "On timeout: {action}", action=i18n.t(locale, TIMEOUT_NAMES[action]))
                     if action in TIMEOUT_NAMES else i18n.t(locale, "On timeout: not set (the AI plays)"))
        lines.append(i18n.t(locale, "Threads: {mode}", mode=i18n.t(locale, THREAD_MODES[settings.get("threads",
                                                                                                      "choice")])))
        lines.append(i18n.t(locale, "Admin role: {role}", role=f"<@&{role}>") if role
                     else i18n.t(locale, "Admin role: none (Manage Server only)"))
        lines.append(i18n.t(locale, "Language of posts: {language}",
                            language=i18n.t(locale, LANGUAGES[settings.get("language", "auto")])))
        lines.append(community.lobby_days_line(locale, lobby_days_of(settings)))
        return lines


async def setup(bot: JunctionBot) -> None:
    """Loaded as an extension (`bot.load_extension("bot.cogs.admin")`)."""
    await bot.add_cog(AdminCog(bot.tables, bot.delivery, bot.user_locales))
