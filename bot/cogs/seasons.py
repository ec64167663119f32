"""Server seasons: `/admin season start|stop` (admins), `/season standings` (the running season's leaderboard:
the same view as `/leaderboard season:current`, bot/ui/leaderboard.py), and each season's end posted once.

A season runs for some weeks; its games are rated from the base rating in a scope of their own
(bot/store/seasons.py). Its end is a due time on a scheduler of its own (bot.scheduler, the bot's
injectable clock: tests move it): one process closes the season and opens the next (the store's
conditional write), and its top three per game go to the season's results channel once: the post is
claimed under a lease, sent under a nonce that stays the same after a crash, and marked sent. On a
shared database every process looks every few seconds for ends and owed results that other processes
set up or left behind.

`/admin season` is a subcommand group added to the admin cog's `/admin` group when this cog loads (cogs
never import one another; the admin check is the admin cog's, asked through the bot).
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

import locales
from bot import i18n, texts
from bot.cogs import reply
from bot.db import DatabaseUnavailable
from bot.delivery.posting import NO_MENTIONS, stamp
from bot.scheduler import Scheduler
from bot.store import Store, StoreError
from bot.store.seasons import (
    MAX_WEEKS,
    Season,
    claim_results,
    due_seasons,
    end_season,
    release_results,
    results_owed,
    results_sent,
    running_season,
    season,
    start_season,
    stop_season,
    top_three,
)
from bot.store.stats import Standing
from bot.ui.leaderboard import Board, show_board

if TYPE_CHECKING:
    from bot.app import JunctionBot

log = logging.getLogger("bot.seasons")
RESULTS_LEASE = 60.0  # seconds a process holds a season's results post before another may take it over


def podium_line(locale: Any, standing: Standing) -> str:
    """One place of a podium: rank, player (a mention, which pings nobody here), rating."""
    values = {"rank": standing.rank, "player": f"<@{standing.user_id}>", "rating": standing.display,
              "games": standing.games}
    return i18n.tn(locale, "{rank}. {player} · {rating} ({games} game)", "{rank}. {player} · {rating} ({games} games)",
                   n=standing.games, **values)


class SeasonAdmin(app_commands.Group):
    """`/admin season start|stop`, added to the admin cog's group (each command checks the admin right)."""

    def __init__(self, cog: SeasonsCog) -> None:
        super().__init__(name="season", description=_("Run this server's seasons"))
        self.cog = cog

    @app_commands.command(name="start", description=_("Start seasons of some weeks; results go to a channel"))
    @app_commands.describe(weeks=_("How many weeks each season lasts"),
                           channel=_("Where the top three are posted when a season ends"))
    async def start(self, interaction: discord.Interaction, weeks: app_commands.Range[int, 1, MAX_WEEKS],
                    channel: discord.TextChannel) -> None:
        await self.cog.start_command(interaction, weeks, channel)

    @app_commands.command(name="stop", description=_("Stop this server's seasons (no results are posted)"))
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.cog.stop_command(interaction)


class SeasonsCog(commands.Cog):
    """Seasons: the commands, the scheduler of their ends, and the results post."""

    def __init__(self, bot: JunctionBot) -> None:
        self.bot = bot
        # The same clock as the turn timers, and as short a nap (tests shorten it to see a moved clock).
        self.scheduler = Scheduler(self.season_due, bot.now, max_sleep=bot.scheduler.max_sleep)
        self.owner = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"  # this process, for the results lease
        self._poll: asyncio.Task | None = None
        self._started = False
        self._admin_group = SeasonAdmin(self)

    @property
    def store(self) -> Store:
        return self.bot.store  # type: ignore[return-value]  # open while the cog is loaded

    async def cog_load(self) -> None:
        admin = self.bot.tree.get_command("admin")
        if isinstance(admin, app_commands.Group):
            admin.add_command(self._admin_group)
        for season_id, due in (await due_seasons(self.store)).items():  # season ends survive restarts
            self.scheduler.schedule(season_id, due)

    async def cog_unload(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            await asyncio.wait({self._poll}, timeout=5)
            self._poll = None
        await self.scheduler.stop()
        admin = self.bot.tree.get_command("admin")
        if isinstance(admin, app_commands.Group):
            admin.remove_command("season")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if self._started:  # a reconnect: running already
            return
        self._started = True
        self.scheduler.start()
        try:
            await self.post_owed()  # results a crash left unsent
        except DatabaseUnavailable as error:  # the next look (or start) sends them
            log.warning("seasons: the database is out of reach (%s); owed results wait", error)
        if self.store.shared:
            self._poll = asyncio.create_task(self._watch(), name="junction-seasons")

    async def _watch(self) -> None:
        """A shared database: season ends other processes set up, results a dead process left owed."""
        while True:
            await asyncio.sleep(self.bot.shared_poll)
            try:
                # Every running season (one per server at most): each process fires its end, one closes it.
                for season_id, due in (await due_seasons(self.store)).items():
                    known = self.scheduler.due(season_id)
                    if known is None or due < known:
                        self.scheduler.schedule(season_id, due)
                await self.post_owed()
            except DatabaseUnavailable as error:
                log.warning("seasons: the database is out of reach (%s); trying again", error)
            except Exception:
                log.exception("seasons: the look at due seasons failed; trying again")

    # ------------------------------------------------------------------ a season's end

    async def season_due(self, season_id: int) -> None:
        """The scheduler says the season's time is up: close it (once), open the next, post the results."""
        ended = await end_season(self.store, season_id)
        if ended is not None:
            old, following = ended
            log.info("season %s (server %s, #%s) ended", old.id, old.guild_id, old.number)
            self.scheduler.schedule(following.id, following.ends_at)
        else:
            current = await season(self.store, season_id)
            if current is not None and current.status == "running":  # not due yet (a moved clock)
                self.scheduler.schedule(season_id, current.ends_at)
                return
        await self.post_results(season_id)

    async def post_owed(self) -> None:
        for season_id in await results_owed(self.store):
            await self.post_results(season_id)

    async def post_results(self, season_id: int) -> bool:
        """Post the ended season's top three in its channel, once; False if another process has it, or
        it is sent already, or Discord failed (it stays owed)."""
        if not await claim_results(self.store, season_id, self.owner, RESULTS_LEASE):
            return False
        ended = await season(self.store, season_id)
        try:
            text = await self.results_text(ended)
            channel = self.bot.get_partial_messageable(ended.channel_id, guild_id=ended.guild_id)
            # The nonce is the same for every try of this season: Discord answers a retry after a crash
            # (the post made, not yet marked) with the first message instead of a second one.
            message = await channel.send(text, allowed_mentions=NO_MENTIONS, nonce=f"s{ended.id}.{int(ended.ends_at)}"[:25])
        except discord.HTTPException as error:
            log.warning("season %s: results not posted (%s); they stay owed", season_id, error)
            await release_results(self.store, season_id, self.owner)
            return False
        await results_sent(self.store, season_id, message.id)
        return True

    async def results_text(self, ended: Season) -> str:
        locale = self.bot.places.locale(ended.guild_id)
        podiums = await top_three(self.store, ended.id)
        games = self.bot.tables.games
        lines = [i18n.t(locale, "**Season {number} is over** ({start} to {end}).", number=ended.number,
                        start=stamp(ended.starts_at, "D"), end=stamp(ended.ends_at, "D"))]
        if not podiums:
            lines.append(i18n.t(locale, "Nobody finished a rated game in it."))
        for key, podium in podiums.items():
            title = games[key].title if key in games else key
            lines.append(f"**{locales.gettext(i18n.lang(locale), title, key)}**")
            lines += [podium_line(locale, standing) for standing in podium]
        following = await running_season(self.store, ended.guild_id)
        if following is not None:
            lines.append(i18n.t(locale, "Season {number} has begun; it ends {end}.", number=following.number,
                                end=stamp(following.ends_at, "D")))
        return texts.clip("\n".join(lines))

    # ------------------------------------------------------------------ commands

    async def _allowed(self, interaction: discord.Interaction) -> bool:
        admin = self.bot.get_cog("AdminCog")
        return admin is not None and await admin.admin_allowed(interaction)  # type: ignore[attr-defined]

    async def start_command(self, interaction: discord.Interaction, weeks: int, channel: discord.TextChannel) -> None:
        if not await self._allowed(interaction):
            return
        locale = interaction.locale
        try:
            started = await start_season(self.store, interaction.guild_id, weeks, channel.id)
        except StoreError:
            await reply(interaction, i18n.t(locale, "A season is running on this server already; stop it first."))
            return
        self.scheduler.schedule(started.id, started.ends_at)
        values = {"number": started.number, "weeks": weeks, "end": stamp(started.ends_at, "f"),
                  "channel": f"<#{channel.id}>"}
        await reply(interaction, i18n.tn(
            locale, "Season {number} has begun: {weeks} week, until {end}. Its top three will be posted in {channel}.",
            "Season {number} has begun: {weeks} weeks, until {end}. Its top three will be posted in {channel}.",
            n=weeks, **values))

    async def stop_command(self, interaction: discord.Interaction) -> None:
        if not await self._allowed(interaction):
            return
        stopped = await stop_season(self.store, interaction.guild_id)
        if stopped is not None:
            self.scheduler.schedule(stopped.id, None)
        await reply(interaction, i18n.t(interaction.locale, "No season is running on this server.") if stopped is None
                    else i18n.t(interaction.locale, "Season {number} stopped; no results are posted and no season"
                                " follows.", number=stopped.number))

    season_group = app_commands.Group(name="season", description=_("This server's season"), guild_only=True)

    @season_group.command(name="standings", description=_("The running season's standings for a game"))
    @app_commands.describe(game=_("Which game"))
    async def standings(self, interaction: discord.Interaction, game: str) -> None:
        """The running season's leaderboard: one view (and code path) for every ranked list."""
        current = await running_season(self.store, interaction.guild_id)
        if current is None:
            await reply(interaction, i18n.t(interaction.locale, "No season is running on this server."))
            return
        await show_board(interaction, game, Board("season", current))

    @standings.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        return [app_commands.Choice(name=d.title, value=key) for key, d in self.bot.tables.games.items()
                if typed in d.title.lower() or typed in key][:25]


async def setup(bot: JunctionBot) -> None:
    """Loaded as an extension (`bot.load_extension("bot.cogs.seasons")`), after the admin cog."""
    await bot.add_cog(SeasonsCog(bot))

