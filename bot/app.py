"""Builds the Junction bot: `create_bot(db_path, **settings)` is the one way a bot is made."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

import discord
from discord.ext import commands

from bot import i18n
from bot.ai_pool import AIPool, workers_from_env
from bot.cogs import answer_failure, begin_interaction
from bot.db import DatabaseUnavailable
from bot.delivery.outbox import Delivery
from bot.delivery.posting import Places
from bot.render_pool import Renderer, RenderPool
from bot.scheduler import Scheduler
from bot.service.words_upgrade import upgrade_words
from bot.store import Store
from bot.tables import Tables
from bot.ui.async_play import ASYNC_PLAY_ITEMS
from bot.ui.base import INVALID_BUTTON, PREFIX, RESTARTING, reads
from bot.ui.components import DYNAMIC_ITEMS
from bot.ui.history import HISTORY_ITEMS
from bot.ui.leaderboard import BOARD_ITEMS
from bot.ui.listing import LIST_ITEMS
from bot.ui.rematch import REMATCH_ITEMS
from rules.engine import GameDefinition

log = logging.getLogger("bot.app")

# On a shared database (PostgreSQL), how often a process looks for clock events and owed posts that
# other processes wrote (or left behind when they died).
SHARED_POLL = 5.0
RATING_SWEEP_WINDOW = 24 * 3600.0  # the shared upkeep looks for unrated games ended this recently
# The cogs, loaded as discord.py extensions: players (games), asynchronous play (clock), admins, profiles,
# leaderboards and histories (community), rematches, seasons (after the admin cog: it adds `/admin season`
# to the admin group).
EXTENSIONS = ("bot.cogs.games", "bot.cogs.clock", "bot.cogs.admin", "bot.cogs.community", "bot.cogs.rematch",
              "bot.cogs.seasons")

# Only what the bot does: read and post in channels and threads it plays in, open a thread per
# game, attach board images. Mentions of players need no permission; DMs need none.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    attach_files=True,
)
SCOPES = ("bot", "applications.commands")
# Names of the tasks discord.py 2.7 runs interaction handlers in (app_commands/tree.py, ui/view.py,
# ui/modal.py): a graceful shutdown lets these finish before it closes the connection and the store.
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-",
                 "discord-ui-modal-dispatch-")


def invite_url(application_id: int | str) -> str:
    """The OAuth2 URL that adds the bot to a server with the least permissions it uses."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


class JunctionTree(discord.app_commands.CommandTree):
    """The command tree; once the bot is shutting down, new commands are refused in one line. Its
    error handler answers, once and in the reader's language (`answer_failure`), a command the
    service refused (`Refused`: its one-line reason) or one that met the database out of reach."""

    async def on_error(self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError, /) -> None:
        if not await answer_failure(interaction, getattr(error, "original", error)):
            await super().on_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        begin_interaction(interaction)  # answer_failure then tells whether the command changed anything
        if not getattr(self.client, "closing", False):
            return True
        if interaction.type is discord.InteractionType.application_command:
            # If the connection is already going away, Discord tells the user the command failed.
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.send_message(i18n.t(interaction.locale, RESTARTING), ephemeral=True)
        return False


class JunctionBot(commands.Bot):
    """A commands.Bot that owns the store, the game-host service and the render pool."""

    def __init__(
        self,
        db_path: str,
        *,
        games: Mapping[str, GameDefinition] | None,
        board_renderer: Renderer | None,
        hand_renderer: Renderer | None,
        render_workers: int,
        dev_guild: int | None,
        ai_workers: int = 0,
        defer_after: float,
        now: Callable[[], float] | None = None,
        **bot_kwargs: Any,
    ) -> None:
        # Junction never joins voice: discord.py's warnings about missing voice libraries would only
        # bury the line an operator needs at start.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        bot_kwargs.setdefault("intents", discord.Intents.none() | discord.Intents(guilds=True))
        bot_kwargs.setdefault("command_prefix", commands.when_mentioned)
        bot_kwargs.setdefault("help_command", None)
        bot_kwargs.setdefault("tree_cls", JunctionTree)
        super().__init__(**bot_kwargs)
        self.db_path = db_path
        self.games = games
        self.dev_guild = dev_guild
        self.defer_after = defer_after
        # Seconds between two edits of one game's board post (Discord's per-channel rate limit);
        # tests that play whole games lower it.
        self.edit_interval = 1.0
        self.renderer = RenderPool(board_renderer, hand_renderer, render_workers)
        self.ai_pool = AIPool(ai_workers)
        self.store: Store | None = None
        self.tables: Tables = None  # type: ignore[assignment]  # set in setup_hook
        self.delivery: Delivery = None  # type: ignore[assignment]  # the outbox sender; set in setup_hook
        self.places = Places(self)  # the language of each server's public posts
        # Each user's Discord locale as of their last interaction (memory only): DMs the bot starts
        # have no interaction to read it from. Unknown users get English.
        self.user_locales: dict[int, str] = {}
        self.now: Callable[[], float] = now or time.time
        self.scheduler = Scheduler(self._clock_due, self.now)
        # Seconds between two looks at a shared database, for the cogs that look too (bot.cogs.seasons):
        # a cog module is loaded afresh as an extension, so tests shorten this, not a constant of it.
        self.shared_poll = SHARED_POLL
        self._resumed = False
        self._upkeep: asyncio.Task | None = None
        self._rating_sweep: asyncio.Task | None = None
        self.closing = False  # set by close(): interactions that arrive from then on are refused

    async def login(self, token: str) -> None:
        # The database before Discord: a second instance, or a corrupt, locked or newer database,
        # ends the start at once with one line (StoreOpenError), before any connection is made.
        if self.store is None:
            self.store = await Store.open(self.db_path)
        await super().login(token)

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await Store.open(self.db_path)
        await upgrade_words(self.store)  # lines stored before messages become messages (migration 14), once
        self.tables = Tables(self.store, games=self.games, now=self.now, ai_pool=self.ai_pool)
        await self.tables.load()  # the index only; states load on first use
        self.tables.on_clocks = self.scheduler.schedule
        for game_id, due in (await self.tables.due_times()).items():  # deadlines survive restarts
            self.scheduler.schedule(game_id, due)
        self.delivery = Delivery(self, self.tables, self.places)
        for extension in EXTENSIONS:  # each cog module's setup() hands its cog what it needs
            await self.load_extension(extension)
        # Descriptions for commands, options and choices in every language (bot/i18n.py), sent with the sync.
        await self.tree.set_translator(i18n.Translator())
        # One registration per component kind re-attaches every game's buttons after a restart.
        self.add_dynamic_items(*DYNAMIC_ITEMS, *ASYNC_PLAY_ITEMS, *LIST_ITEMS, *BOARD_ITEMS, *HISTORY_ITEMS,
                               *REMATCH_ITEMS)
        if self.dev_guild:
            guild = discord.Object(self.dev_guild)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        await self.renderer.warm_up()
        if self.games is None:  # only the registry's games search in the AI pool: start its worker now
            self._ai_warm = asyncio.create_task(self._warm_ai_pool())
        # Read the translation catalogs off the loop so no first translated post waits.
        self._catalogs_warm = asyncio.create_task(asyncio.to_thread(i18n.warm))

    async def _warm_ai_pool(self) -> None:
        try:
            await self.ai_pool.warm_up()
        except Exception:  # the first hard decision will start the worker instead
            log.warning("the AI worker did not start ahead of time", exc_info=True)

    async def on_ready(self) -> None:
        if self.application_id:
            log.info("ready as %s; invite: %s", self.user, invite_url(self.application_id))
        if not self._resumed:
            self._resumed = True
            # Finish what the last run owed: AI turns and posts committed but not sent (an outage
            # meanwhile: tried again later, see resume_all).
            try:
                await self.delivery.resume_all()
            except Exception:  # a bug: logged; the clocks and the upkeep below must start all the same
                log.exception("resuming the games after the start failed")
            # Then the clocks: a deadline that passed while the bot was down is handled now.
            self.scheduler.start()
            if self.store is not None and self.store.shared:
                self._upkeep = asyncio.create_task(self._shared_upkeep(), name="junction-shared-upkeep")
            self._rating_sweep = asyncio.create_task(self._rate_pending(), name="junction-rating-sweep")

    async def _rate_pending(self) -> None:
        """Rating updates a crash left undone, and at the first start after the upgrade the games
        finished before ratings existed (the backfill), in the order they ended."""
        try:
            applied = await self.tables.rate_pending()
            if applied:
                log.info("ratings: applied %s finished games that were pending", applied)
        except Exception:
            log.exception("ratings: the sweep of pending games failed; the next start tries again")

    async def _shared_upkeep(self) -> None:
        """Other processes write the same database: schedule the clock events they set up and send
        the posts a dead one left owed (its flush lease ran out). The game lock and the post claim
        make sure each is handled by one process, whichever gets there first."""
        while True:
            await asyncio.sleep(SHARED_POLL)
            try:
                now = self.now()
                due_soon = {**await self.store.next_due_by_game(before=now + SHARED_POLL),
                            **await self.tables.lobby_due_times(before=now + SHARED_POLL)}  # idle lobbies too
                for game_id, due in due_soon.items():
                    known = self.scheduler.due(game_id)
                    if known is None or due < known:
                        self.scheduler.schedule(game_id, due)
                for game_id in await self.tables.games_owing_posts(older_than=now - SHARED_POLL):
                    await self.delivery.flush(game_id)
                # A game another process ended but did not rate (it died in between).
                await self.tables.rate_pending(ended_since=now - RATING_SWEEP_WINDOW)
            except DatabaseUnavailable as error:  # an outage, not a bug: no traceback
                log.warning("shared upkeep: the database is out of reach (%s); trying again in %s s", error, SHARED_POLL)
            except Exception:
                log.exception("shared upkeep failed; trying again in %s s", SHARED_POLL)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A `jn:` component id that no registered item reads (forged, out of bounds, or a button of
        an older release) would leave the click unanswered: answer it in one line instead."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not custom_id.startswith(PREFIX) or reads((*DYNAMIC_ITEMS, *ASYNC_PLAY_ITEMS, *LIST_ITEMS, *BOARD_ITEMS,
                                                      *HISTORY_ITEMS, *REMATCH_ITEMS), custom_id):
            return
        log.info("refused component id %r from user %s", custom_id[:100], interaction.user.id)
        try:
            await interaction.response.send_message(i18n.t(interaction.locale, INVALID_BUTTON), ephemeral=True)
        except discord.HTTPException as error:
            log.warning("could not answer an invalid component id (%s)", error)

    async def _clock_due(self, game_id: int) -> None:
        """The scheduler says this game's clock has something due: do it, then post what it owes."""
        if await self.tables.fire_due(game_id) is not None:
            await self.delivery.flush(game_id)

    async def finish_interactions(self, timeout: float = 10.0) -> None:
        """Wait (bounded) for the interaction handlers running now: a move in flight is committed
        and answered before the connection and the store close under it."""
        me = asyncio.current_task()
        running = {task for task in asyncio.all_tasks()
                   if task is not me and not task.done() and task.get_name().startswith(HANDLER_TASKS)}
        if running:
            log.info("waiting for %d interaction(s) in flight before closing", len(running))
            await asyncio.wait(running, timeout=timeout)

    async def close(self) -> None:
        for task in (self._upkeep, self._rating_sweep):  # a cut sweep rolls back; the next start resumes it
            if task is not None:
                task.cancel()
                await asyncio.wait({task}, timeout=5)
        self._upkeep = self._rating_sweep = None
        self.closing = True
        await self.scheduler.stop()
        await self.finish_interactions()
        ai_warming = getattr(self, "_ai_warm", None)
        if ai_warming is not None:
            ai_warming.cancel()
        warming = getattr(self, "_catalogs_warm", None)
        if warming is not None:
            await warming  # a thread cannot be cancelled; it is done in well under a second
        if self.delivery is not None:
            await self.delivery.drain()
        try:
            await super().close()
        finally:
            self.renderer.close()
            self.ai_pool.close()
            if self.store is not None:
                await self.store.close()
                self.store = None


class ShardedJunctionBot(JunctionBot, commands.AutoShardedBot):
    """The same bot serving several shards in one process (discord.py's AutoShardedBot): one
    gateway connection per shard id it was given, of `shard_count` in all."""


def default_render_workers(cores: int | None = None) -> int:
    """One render process per core beside the bot's own, at least 2, at most 4. At least 2 even on a
    2-core machine: under a burst of moves the bot's event loop is busy first, with the moves, and
    the drawing of their board posts comes after, while the loop is idle; one worker then draws
    every game's post in turn (bench/outbox_backlog.py, 200 games x 4 moves: move -> post p95
    8.8 s with 1 worker, 6.4-6.7 s with 2). A worker holds about 70 MB (every game's static map)."""
    cores = cores if cores is not None else (os.cpu_count() or 2)
    return max(2, min(4, cores - 1))


def create_bot(
    db_path: str,
    *,
    games: Mapping[str, GameDefinition] | None = None,
    board_renderer: Renderer | None = None,
    hand_renderer: Renderer | None = None,
    render_workers: int | None = None,
    ai_workers: int | None = None,
    dev_guild: int | str | None = None,
    defer_after: float = 1.0,
    now: Callable[[], float] | None = None,
    shard_ids: list[int] | None = None,
    shard_count: int | None = None,
    **bot_kwargs: Any,
) -> JunctionBot:
    """Build the bot. `games`/renderers default to the registry and `render`; the rest goes to Bot.

    render_workers: render processes; default one per spare core, at least 2, at most 4 (default_render_workers).
    ai_workers: AI processes (the hard level, and the policies when they have room: bot.ai_pool); default
        JUNCTION_AI_WORKERS, else 1; 0: every AI in a thread.
    dev_guild: sync commands to that guild only (instant in development) instead of globally.
    defer_after: seconds of work after which an interaction is deferred (Discord allows 3 from when it sent
        the interaction; under a burst the bot reads it late, so the margin is wide, and one read late is
        deferred sooner: bot.cogs.defer_in, bench/outbox_backlog.py, docs/benchmarks-outbox.md).
    now: the clock of turn timers (epoch seconds; default time.time); tests pass one they move.
    shard_ids, shard_count: serve these shards of that many (several processes on one PostgreSQL
    each serve a part); without them the bot is one unsharded connection, as before.
    """
    cls: type[JunctionBot] = JunctionBot
    if shard_ids is not None or shard_count is not None:
        cls = ShardedJunctionBot
        bot_kwargs.update(shard_ids=shard_ids, shard_count=shard_count)
    return cls(
        db_path,
        games=games,
        board_renderer=board_renderer,
        hand_renderer=hand_renderer,
        render_workers=render_workers if render_workers is not None else default_render_workers(),
        ai_workers=ai_workers if ai_workers is not None else workers_from_env(),
        dev_guild=int(dev_guild) if dev_guild else None,
        defer_after=defer_after,
        now=now,
        **bot_kwargs,
    )
