"""The players' cog: slash commands and component handlers turn interactions into service calls; what
a game owes after them (posts, edits, DMs) goes out through bot.delivery.

Commands (decorated methods; `game` is the cog's group): /game new|join|add-ai|leave|cancel|start|
status|log|replay|list, /play, /hand, /board, /rules. The game choices come from the service's
registry by autocomplete, so a test bot can host its own games.

Table options for `/game new` come as ONE text option, `options:`, written `key=value key=value`
(e.g. `vexation=on rounds=3`). Discord cannot offer per-game typed options in one command (every
game has its own set, and a command's options are fixed at sync), so the text is parsed here and
validated by the game definition's typed `Option`s (`definition.resolve_options`), which gives
the player a one-line reason ("rounds must be between 1 and 5"); `/rules game:` lists each
game's options with their kinds and defaults. A new game needs no change here.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import i18n, texts
from bot.cogs import defer_in, mark_answered, reply
from bot.delivery.posting import NO_MENTIONS, image_file
from bot.render_queue import ASKED
from bot.servers import new_game_policy
from bot.tables import STALE_MOVE, ClockSettings, Outcome, Refused, Repeated, TableInfo, Tables
from bot.ui.community import NUMBER_HELP, RECORD_HELP, REPORT_HELP
from bot.ui.components import ai_level_view, lobby_view, picker_view, take_turn_view
from bot.ui.history import no_such_game, not_ended, report_words, show_record
from bot.ui.listing import show_list
from bot.ui.picker import autocomplete, menu
from bot.words import engine_msg
from rules.engine import AI_LEVELS
from rules.words import N_, Msg, Plural, Term

if TYPE_CHECKING:
    from bot.app import JunctionBot
    from bot.delivery.outbox import Delivery
    from bot.render_pool import RenderPool

log = logging.getLogger("bot.games")
T = TypeVar("T")
INVALID_WEBHOOK_TOKEN = 50027  # an interaction token past its 15 minutes
PANEL_EXPIRED = N_("This turn panel expired (Discord lets a panel change for 15 minutes after it opens). "
                 "Press Take turn for a fresh one.")
PANEL_LINES = 4  # lines of what a decision did, shown above the panel's next choice
PANEL_MOVES = 8  # decisions named in the panel's closing line


def _is_moderator(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_messages)


class GamesCog(commands.Cog):
    """Everything players touch. Handlers stay thin: rules live in Tables, texts in bot.texts."""

    def __init__(self, bot: JunctionBot, tables: Tables, delivery: Delivery, renderer: RenderPool) -> None:
        self.bot = bot  # the client: its channels, and how soon a slow answer is deferred
        self.tables = tables
        self.delivery = delivery
        self.renderer = renderer

    # ------------------------------------------------------------------ replies

    async def _within(self, interaction: discord.Interaction, work: Awaitable[T], *, update: bool = False) -> T:
        """Run `work`; if it outlasts `defer_after` seconds (less for an interaction read late: `defer_in`),
        defer so Discord's 3 s window holds."""
        task = asyncio.ensure_future(work)
        try:
            return await asyncio.wait_for(asyncio.shield(task), defer_in(interaction, self.bot.defer_after))
        except TimeoutError:
            if not interaction.response.is_done():
                # Deferred already meanwhile (a wait for the database defers too): fine either way.
                with contextlib.suppress(discord.InteractionResponded):
                    if update:
                        await interaction.response.defer()
                    else:
                        await interaction.response.defer(ephemeral=True, thinking=True)
            return await task

    _reply = staticmethod(reply)

    @staticmethod
    async def _update(interaction: discord.Interaction, text: str | Msg, view: discord.ui.View | None,
                      locale: Any = None, **kwargs: Any) -> None:
        """Replace the message a component sits on (the ephemeral picker, the lobby) with `text`: a message
        (translated here) or text already in the reader's language.

        `locale`: the language of a public message (the lobby: the server's); else the user's.
        `kwargs`: more of the edit (`attachments`)."""
        locale = locale if locale is not None else interaction.locale
        text = texts.clip(i18n.say(locale, text) if isinstance(text, Msg) else text)
        if view is not None:
            i18n.localize_view(view, locale)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view, allowed_mentions=NO_MENTIONS, **kwargs)
        else:
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS, **kwargs)
        mark_answered(interaction)

    async def _update_panel(self, interaction: discord.Interaction, game_id: int, text: str,
                            view: discord.ui.View | None, done: Msg | None = None, **kwargs: Any) -> None:
        """Change the turn panel in place. Once its token has expired (15 minutes after Take turn
        opened it Discord refuses: 401 / 50027, or the message is unknown), answer with a new
        message instead: `done` (what the click did, if anything), that the panel expired and Take
        turn while the turn goes on; only `text` when the panel was to close (the turn is over)."""
        try:
            await self._update(interaction, text, view, **kwargs)
        except discord.HTTPException as error:
            if not isinstance(error, discord.NotFound) and error.code != INVALID_WEBHOOK_TOKEN:
                raise
            log.info("turn panel of game %s expired (%s)", game_id, error)
            if view is None:
                await self._reply(interaction, text)
            else:
                said = [i18n.say(interaction.locale, line) for line in (done, Msg(PANEL_EXPIRED)) if line is not None]
                await self._reply(interaction, "\n".join(said), view=take_turn_view(game_id))

    async def refresh_lobby(self, game_id: int, interaction: discord.Interaction | None = None) -> None:
        """The lobby message as the game is now: edited in place, or as the answer to `interaction`
        (a click on the lobby itself)."""
        if interaction is None:
            await self.delivery.posts.refresh_lobby(game_id)
            return
        text, view, locale = self.delivery.posts.lobby(await self.tables.info(game_id))
        await self._update(interaction, text, view, locale)

    # ------------------------------------------------------------------ shared actions

    async def play_move(self, interaction: discord.Interaction, game_id: int, text: str, token: int | None,
                        picker: bool) -> None:
        try:
            outcome = await self._within(interaction, self.tables.play(game_id, interaction.user.id, text, token=token,
                                                                       interaction_id=interaction.id), update=picker)
        except Repeated:
            # The same interaction again (a retry): its first delivery made the move and answered.
            log.info("interaction %s for game %s repeated: ignored", interaction.id, game_id)
            return
        mine = outcome.applied[0][1]
        if picker:
            # Built within Discord's 3 s (deferred if slower), sent after: only one of them answers.
            text, view, files = await self._within(interaction, self._panel_next(interaction, game_id, outcome),
                                                   update=True)
            await self._update_panel(interaction, game_id, text, view, done=Msg("You played `{move}`.", move=mine),
                                     attachments=files)
        else:
            await self._reply(interaction, Msg("You played `{move}`.", move=mine))
        await self.delivery.flush(outcome.game_id)

    async def _panel_next(self, interaction: discord.Interaction, game_id: int,
                          outcome: Outcome) -> tuple[str, discord.ui.View | None, list[discord.File]]:
        """After a decision made on the turn panel, what the panel becomes: the next decision of the
        same turn (what the decision did, the board as it is now, the menu from the top), or, when
        the turn passed, one line naming the turn's decisions and no components."""
        seat, mine = outcome.applied[0]
        info = await self.tables.info(game_id)
        locale, game = interaction.locale, info.definition.key
        if outcome.status == "running" and seat in outcome.turn_goes_on:
            try:
                _, token, moves, shortcuts = await self.tables.turn_choices(game_id, interaction.user.id)
            except Refused:
                moves = []
            if moves:
                current = menu(moves, shortcuts=shortcuts)
                did = [*outcome.private_lines.get(seat, ()), *outcome.public_lines][-PANEL_LINES:]
                text = "\n".join([i18n.t(locale, "You played `{move}`.", move=mine),
                                   *(f"• {i18n.say(locale, line, info.names, game)}" for line in did),
                                   self._picker_text(info, current, locale)])
                files = await self._panel_board(game_id, interaction.locale)
                return text, picker_view(game_id, token, current, moves, interaction.locale), files
        decisions = await self._turn_decisions(game_id, seat, len(outcome.applied) - 1)
        shown = ", ".join(f"`{m}`" for m in decisions[-PANEL_MOVES:])
        more = "…, " if len(decisions) > PANEL_MOVES else ""
        summary = (i18n.t(locale, "You played `{move}`.", move=mine) if decisions in ([], [mine]) else i18n.t(
            locale, "Your turn in **{title}** (game #{id}) is over: {moves}.",
            title=Term(info.definition.title), id=game_id, moves=more + shown))
        return summary, None, []

    async def _turn_decisions(self, game_id: int, seat: int, after: int) -> list[str]:
        """The seat's decisions of the turn that just passed: its run of moves in the log that ends
        before the last `after` moves (the AI's replies)."""
        moves = await self.tables.store.moves(game_id)
        run = moves[: len(moves) - after] if after else moves
        start = len(run)
        while start and run[start - 1].seat == seat:
            start -= 1
        decisions: list[str] = []
        for move in run[start:]:
            if move.notation == "undo" and decisions:  # an undone decision is not part of the turn
                decisions.pop()
            else:
                decisions.append(move.notation)
        return decisions

    async def _panel_board(self, game_id: int, locale: Any) -> list[discord.File]:
        """The board as it is now, for the turn panel (the render pool draws it: about 40 ms)."""
        try:
            view, names = await self.tables.public_view(game_id)
            alt = await self.renderer.describe(view, names, i18n.lang(locale))
            return [image_file(await self.renderer.board(view, names, i18n.lang(locale), priority=ASKED),
                               "board.png", alt)]
        except Exception:
            log.exception("rendering the board of game %s for a turn panel failed", game_id)
            return []

    async def start_game(self, interaction: discord.Interaction, game_id: int, from_lobby: bool) -> None:
        await self._within(interaction, self.tables.start(game_id, interaction.user.id,
                                                          admin=_is_moderator(interaction)), update=from_lobby)
        if from_lobby:
            await self.refresh_lobby(game_id, interaction)
        else:
            await self._reply(interaction, Msg("The game begins."))
            await self.refresh_lobby(game_id)
        await self.delivery.flush(game_id)

    # ------------------------------------------------------------------ component handlers

    async def on_lobby_button(self, interaction: discord.Interaction, game_id: int, action: str) -> None:
        user = interaction.user
        if action == "start":
            await self.start_game(interaction, game_id, from_lobby=True)
            return
        if action == "join":
            await self.tables.join(game_id, user.id, user.display_name)
        elif action == "leave":
            result = await self.tables.leave(game_id, user.id)
            if isinstance(result, Outcome):
                await self._reply(interaction, Msg("You left; the AI plays your seat."))
                await self.delivery.flush(game_id)
                return
        elif action == "ai":
            # The level is a second, private choice: the lobby stays one row of buttons. Who may not
            # add an AI hears why now, not after choosing a level.
            await self.tables.check_add_ai(game_id, user.id)
            await self._reply(interaction, Msg("Which AI joins game #{id}?", id=game_id), view=ai_level_view(game_id))
            return
        elif action == "cancel":
            await self.tables.cancel(game_id, user.id, admin=_is_moderator(interaction))
        await self.refresh_lobby(game_id, interaction)

    async def on_add_ai(self, interaction: discord.Interaction, game_id: int, level: str) -> None:
        info = await self.tables.add_ai(game_id, interaction.user.id, level)
        await self._update(interaction, Msg("{name} ({level}) takes a seat.", name=info.seats[-1].name,
                                            level=Term(level)), None)
        await self.refresh_lobby(game_id)

    async def on_take_turn(self, interaction: discord.Interaction, game_id: int) -> None:
        _, token, moves, shortcuts = await self.tables.turn_choices(game_id, interaction.user.id)
        info = await self.tables.info(game_id)
        current = menu(moves, shortcuts=shortcuts)
        await self._reply(interaction, self._picker_text(info, current, interaction.locale),
                          view=picker_view(game_id, token, current, moves, interaction.locale))

    @staticmethod
    def _picker_text(info: TableInfo, current, locale: Any) -> str:
        title, game_id = Term(info.definition.title), info.row.id
        if current.pages > 1:
            return i18n.t(locale, "Your move in **{title}** (game #{id}): {n} to choose from. Page {page} of {pages}.",
                          title=title, id=game_id, n=current.total, page=current.page + 1, pages=current.pages)
        return i18n.t(locale, "Your move in **{title}** (game #{id}): {n} to choose from.", title=title, id=game_id,
                      n=current.total)

    async def on_pick(self, interaction: discord.Interaction, game_id: int, token: int, value: str) -> None:
        if value.startswith("m:"):
            await self.play_move(interaction, game_id, value[2:], token, picker=True)
        elif value.startswith("g:"):
            await self.on_picker_page(interaction, game_id, token, value[2:], 0)
        else:
            await self._reply(interaction, Msg(STALE_MOVE))

    async def on_picker_page(self, interaction: discord.Interaction, game_id: int, token: int, prefix: str,
                             page: int) -> None:
        _, current_token, moves, shortcuts = await self.tables.turn_choices(game_id, interaction.user.id)
        info = await self.tables.info(game_id)
        if current_token != token:
            await self._reply(interaction, Msg(STALE_MOVE))
            return
        current = menu(moves, prefix, page, shortcuts=shortcuts)
        await self._update_panel(interaction, game_id, self._picker_text(info, current, interaction.locale),
                                 picker_view(game_id, token, current, moves, interaction.locale))

    async def on_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        _, view, names = await self.tables.private_view(game_id, interaction.user.id)
        info = await self.tables.info(game_id)
        png = await self.renderer.hand(view, names, i18n.lang(interaction.locale))
        await self._reply(interaction, Msg("Your hand in **{title}** (game #{id}).", title=Term(info.definition.title),
                                           id=game_id),
                          file=image_file(png, "hand.png"))

    async def show_board(self, interaction: discord.Interaction, game_id: int, as_text: bool = False) -> None:
        """The public board (image with alt text), or with `as_text` its description in words only."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        view, names = await self.tables.public_view(game_id)
        info = await self.tables.info(game_id)
        locale = interaction.locale
        alt = await self.renderer.describe(view, names, i18n.lang(locale))
        result = None
        if info.row.result:
            result = [f"{info.seats[r['seat']].name}: {r['score']}" for r in info.row.result["seats"]]
        if as_text:
            await self._reply(interaction, texts.clip(texts.board_text(info, [], result, locale) + "\n" + alt))
            return
        png = await self.renderer.board(view, names, i18n.lang(locale), priority=ASKED)
        await self._reply(interaction, texts.board_text(info, [], result, locale),
                          file=image_file(png, "board.png", alt))

    async def post_replay(self, interaction: discord.Interaction, game_id: int) -> None:
        """Post an animated GIF of the game so far, replayed from the stored log (public views only)."""
        from render.replay import replay_views

        await interaction.response.defer(thinking=True)
        try:
            info = await self.tables.info(game_id)
            if info.row.status in ("lobby", "cancelled") and not info.moves:
                raise Refused(N_("This game has no moves to replay."))
            moves = [(m.seat, m.notation) for m in await self.tables.store.moves(game_id)]
            if not moves:
                raise Refused(N_("This game has no moves to replay."))
            views = await asyncio.to_thread(replay_views, info.definition, len(info.seats), info.row.options,
                                            info.row.seed, moves)
            gif = await self.renderer.replay(views, info.names, i18n.lang(interaction.locale))
        except Refused as refused:
            await interaction.followup.send(i18n.say(interaction.locale, refused.reason, refused.names),
                                            allowed_mentions=NO_MENTIONS)
            return
        locale, title = interaction.locale, Term(info.definition.title)
        alt = " ".join([i18n.t(locale, "Replay of {title} game #{id}: {frames} frames over {n} moves.", title=title,
                               id=game_id, frames=len(views), n=len(moves)),
                        await self.renderer.describe(views[-1], info.names, i18n.lang(locale))])
        await interaction.followup.send(
            i18n.t(locale, "**{title}** · game #{id} · replay of {n} moves ({frames} frames)",
                   title=title, id=game_id, n=len(moves), frames=len(views)),
            file=discord.File(io.BytesIO(gif), filename=f"game-{game_id}-replay.gif", description=alt[:1000]),
            allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------------ slash commands

    game = app_commands.Group(name="game", description="Open, join, start and manage a game in this channel",
                              guild_only=True)

    async def _here(self, interaction: discord.Interaction, *, user_fallback: bool = False) -> int:
        """The game a command means: this channel's, else (with `user_fallback`) the user's only game
        (Refused, answered by the error handler, when there is none)."""
        return await self.tables.find_game(interaction.channel_id, interaction.user.id if user_fallback else None)

    async def _game_keys(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The hosted games whose title or key holds what was typed (the registry is the service's, so a
        test can host its own games)."""
        typed = current.strip().lower()
        return [app_commands.Choice(name=d.title, value=key) for key, d in self.tables.games.items()
                if typed in d.title.lower() or typed in key][:25]

    @game.command(name="new", description="Open a lobby for a game in this channel (or a new thread)")
    @app_commands.describe(game="Which game", thread="Play in a new thread of this channel",
                           options="Table options as key=value key=value (see /rules)",
                           seats="Seat order at the start",
                           timer="Hours per turn (0: no timer; default 24 or the server's)",
                           timeout="What happens when a player's time runs out",
                           strikes="Timeouts in a row before the AI takes the seat (default 3)",
                           vacation="Hours each player may pause their clock (default 72)",
                           stand_in="The AI level that plays for a player who times out or leaves",
                           reliability="Only players who finished at least this % of their games may join")
    @app_commands.choices(seats=[app_commands.Choice(name="shuffled", value="shuffle"),
                                 app_commands.Choice(name="join order", value="join")],
                          timeout=[app_commands.Choice(name="the AI plays the turn", value="ai"),
                                   app_commands.Choice(name="skip the turn (where the rules allow)", value="skip"),
                                   app_commands.Choice(name="end the game with the standings", value="end")],
                          stand_in=[app_commands.Choice(name=level, value=level) for level in AI_LEVELS])
    async def new(self, interaction: discord.Interaction, game: str, thread: bool = False, options: str = "",
                  seats: str = "shuffle", timer: app_commands.Range[int, 0, 720] | None = None,
                  timeout: str | None = None, strikes: app_commands.Range[int, 1, 20] | None = None,
                  vacation: app_commands.Range[int, 0, 1440] | None = None, stand_in: str | None = None,
                  reliability: app_commands.Range[int, 1, 100] | None = None) -> None:
        tables = self.tables
        clock = {"turn_hours": timer, "timeout_action": timeout, "max_timeouts": strikes,
                 "vacation_hours": vacation, "stand_in": stand_in}  # unset ones: the server's defaults, else built-in
        try:
            definition = tables.definition(game)
            given = texts.parse_options(options)
            definition.resolve_options(given)
            ClockSettings.resolve(clock)
        except ValueError as error:  # a refusal (Refused) is answered by the error handler
            reason = error.args[0] if error.args else ""
            await self._reply(interaction, reason if isinstance(reason, Msg) else engine_msg(str(reason)))
            return
        if await tables.open_game_at(interaction.channel_id) is not None:
            await self._reply(interaction, Msg("There is already an open game here."))
            return
        await tables.check_reliability(interaction.user.id, reliability)  # before a thread is opened for it
        # Allowed channels, the server's thread rule, the bot's permissions.
        refusal, thread = await new_game_policy(tables, interaction, thread)
        if refusal:
            await self._reply(interaction, refusal)
            return
        channel = interaction.channel
        thread_id = None
        if thread:
            if not isinstance(channel, discord.TextChannel):
                await self._reply(interaction, Msg("Threads can be opened in text channels only."))
                return
            try:
                made = await channel.create_thread(name=f"{definition.title} by {interaction.user.display_name}",
                                                   type=discord.ChannelType.public_thread,
                                                   auto_archive_duration=10080)
            except discord.HTTPException:
                await self._reply(interaction, Msg("I cannot open a thread here; try without thread:true."))
                return
            thread_id = made.id
        info = await tables.create(game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                   thread_id=thread_id, user_id=interaction.user.id,
                                   user_name=interaction.user.display_name, options=given, seat_order=seats,
                                   clock=clock, min_reliability=reliability)
        place = self.bot.get_partial_messageable(info.row.place_id, guild_id=interaction.guild_id)
        locale = self.delivery.places.locale(interaction.guild_id)
        try:
            lobby = await place.send(texts.lobby_text(info, locale),
                                     view=i18n.localize_view(lobby_view(info.row.id), locale),
                                     allowed_mentions=NO_MENTIONS)
        except discord.Forbidden:
            # Never a silent failure: drop the lobby nobody can see and say which permission is missing.
            await tables.cancel(info.row.id, interaction.user.id)
            key = (N_("I cannot post in that thread: I need the **{permissions}** permission.") if thread_id else
                   N_("I cannot post here: I need the **{permissions}** permission in this channel."))
            await self._reply(interaction, Msg(key, permissions=Term(
                N_("Send Messages in Threads") if thread_id else N_("Send Messages"))))
            return
        await tables.set_message(info.row.id, lobby_message_id=lobby.id)
        title = Term(definition.title)
        await self._reply(interaction, Msg("Lobby for {title} opened in {where} (game #{id}).", title=title,
                                           where=f"<#{thread_id}>", id=info.row.id)
                          if thread_id else Msg("Lobby for {title} opened (game #{id}).", title=title, id=info.row.id))

    new.autocomplete("game")(_game_keys)

    async def _lobby_command(self, interaction: discord.Interaction, action: str) -> None:
        """/game join, leave and cancel: the same service calls as the lobby's buttons."""
        game_id = await self._here(interaction)
        user = interaction.user
        if action == "join":
            await self.tables.join(game_id, user.id, user.display_name)
            text = Msg("You joined.")
        elif action == "leave":
            result = await self.tables.leave(game_id, user.id)
            text = Msg("You left; the AI plays your seat.") if isinstance(result, Outcome) else Msg("You left.")
        else:
            await self.tables.cancel(game_id, user.id, admin=_is_moderator(interaction))
            text = Msg("Game cancelled.")
        await self._reply(interaction, text)
        await self.refresh_lobby(game_id)
        await self.delivery.flush(game_id)

    @game.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_command(interaction, "join")

    @game.command(name="add-ai", description="Seat an AI player in this channel's lobby")
    @app_commands.describe(level="How well it plays (default normal)")
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level) for level in AI_LEVELS])
    async def add_ai(self, interaction: discord.Interaction, level: str = "normal") -> None:
        game_id = await self._here(interaction)
        info = await self.tables.add_ai(game_id, interaction.user.id, level)
        await self._reply(interaction, Msg("{name} ({level}) takes a seat.", name=info.seats[-1].name, level=Term(level)))
        await self.refresh_lobby(game_id)

    @game.command(name="leave", description="Leave the lobby, or hand your seat in a running game to the AI")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_command(interaction, "leave")

    @game.command(name="cancel", description="Cancel this channel's game (its creator or a moderator)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._lobby_command(interaction, "cancel")

    @game.command(name="start", description="Start the game in this channel's lobby")
    async def start(self, interaction: discord.Interaction) -> None:
        game_id = await self._here(interaction)
        await self.start_game(interaction, game_id, from_lobby=False)

    @game.command(name="status", description="Players, options and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        info = await self.tables.info(await self._here(interaction))
        await self._reply(interaction, texts.status_text(info, interaction.locale))

    async def _numbered(self, interaction: discord.Interaction, number: int | None) -> int:
        """The game a command names by its number (one of this server's), else this channel's."""
        if number is None:
            return await self._here(interaction)
        row = await self.tables.store.game(number)
        if row is None or row.guild_id != interaction.guild_id:
            raise Refused(no_such_game(interaction.locale, number))
        return number

    @game.command(name="log", description="Every move of this channel's game so far")
    @app_commands.describe(number=NUMBER_HELP)
    async def log_command(self, interaction: discord.Interaction,
                          number: app_commands.Range[int, 1, 999_999_999_999_999] | None = None) -> None:
        game_id = await self._numbered(interaction, number)
        lines = await self.tables.log(game_id, interaction.user.id)
        info = await self.tables.info(game_id)
        locale = interaction.locale
        text = ("\n".join(i18n.say(locale, line, info.names, info.definition.key) for line in lines)
                or i18n.t(locale, "No moves yet."))
        if len(text) <= texts.MAX_CONTENT - 10:
            await self._reply(interaction, f"```\n{text}\n```" if lines else text)
        else:
            await self._reply(interaction, Plural("{n} move:", "{n} moves:", n=len(lines)),
                              file=discord.File(io.BytesIO(text.encode()), filename=f"game-{game_id}-log.txt"))

    @game.command(name="replay", description="Post an animated replay (GIF) of this channel's game")
    @app_commands.describe(number=NUMBER_HELP)
    async def replay(self, interaction: discord.Interaction,
                     number: app_commands.Range[int, 1, 999_999_999_999_999] | None = None) -> None:
        game_id = await self._numbered(interaction, number)
        await self.post_replay(interaction, game_id)

    @game.command(name="report", description=REPORT_HELP)
    @app_commands.describe(number=NUMBER_HELP)
    async def report(self, interaction: discord.Interaction,
                     number: app_commands.Range[int, 1, 999_999_999_999_999] | None = None) -> None:
        game_id = await self._numbered(interaction, number)
        info = await self.tables.info(game_id)
        if info.row.status != "over":
            raise Refused(not_ended(interaction.locale, game_id))
        locale = interaction.locale
        report = texts.final_report(info, info.names, await self.tables.log(game_id), locale=locale)
        await self._reply(interaction, report_words(locale, game_id),
                          file=discord.File(io.BytesIO(report.encode()), filename=f"game-{game_id}-log.txt",
                                            description=i18n.t(locale, "The whole move log and the final standings")))

    @game.command(name="record", description=RECORD_HELP)
    @app_commands.describe(number=NUMBER_HELP)
    async def record(self, interaction: discord.Interaction,
                     number: app_commands.Range[int, 1, 999_999_999_999_999] | None = None) -> None:
        await show_record(interaction, await self._numbered(interaction, number))

    @game.command(name="list", description=_("This server's running games and lobbies, whose turn and since when"))
    async def list_games(self, interaction: discord.Interaction) -> None:
        await show_list(interaction, self.tables, "guild")

    @app_commands.command(name="play", description="Make your move (start typing to see your legal moves)")
    @app_commands.describe(move="Your move, as offered")
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        game_id = await self._here(interaction, user_fallback=True)
        await self.play_move(interaction, game_id, move, None, picker=False)

    @play.autocomplete("move")
    async def play_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            game_id = await self._here(interaction, user_fallback=True)
            _, _, moves = await self.tables.legal_moves(game_id, interaction.user.id)
        except Refused:
            return []
        return [app_commands.Choice(name=m[:100], value=m[:100]) for m in autocomplete(moves, current)]

    @app_commands.command(name="hand", description="See your private hand (only you see the answer)")
    async def hand(self, interaction: discord.Interaction) -> None:
        game_id = await self._here(interaction, user_fallback=True)
        await self.on_hand(interaction, game_id)

    @app_commands.command(name="board", description="See the current board of this channel's game")
    @app_commands.describe(text="Describe the board in words instead of an image (screen readers)")
    async def board(self, interaction: discord.Interaction, text: bool = False) -> None:
        game_id = await self._here(interaction, user_fallback=True)
        await self.show_board(interaction, game_id, as_text=text)

    @app_commands.command(name="rules", description="How a game plays and which table options it has")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        definition = self.tables.definition(game)
        await self._reply(interaction, texts.rules_text(definition, interaction.locale))

    rules.autocomplete("game")(_game_keys)


async def setup(bot: JunctionBot) -> None:
    """Loaded as an extension (`bot.load_extension("bot.cogs.games")`)."""
    await bot.add_cog(GamesCog(bot, bot.tables, bot.delivery, bot.renderer))
