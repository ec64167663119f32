"""Asynchronous play on Discord: clock events, reminders, "since your last turn", seats, vacation, threads.

Commands: /clock status|pause|resume|reminders|quiet, /seat ai|back|give.
The rules of time live in bot.tables (Tables.fire_due and friends); this cog turns them into
DMs, channel posts and buttons, and keeps a game's thread open while the game runs.
"""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, texts
from bot.cogs import reply
from bot.cogs.games import NO_MENTIONS, board_post, mentioning, post_nonce
from bot.store import OutboxRow
from bot.tables import NOT_SEATED, Refused, TableInfo, Tables, safe_name
from bot.ui.clock import MuteButton, SeatOfferButton
from bot.ui.components import TURN_TEXT_ID, TurnButton
from render import replay

if TYPE_CHECKING:
    from bot.app import JunctionBot

log = logging.getLogger("bot.clock")
BOARD_EDIT_LIMIT = 3600.0  # Discord caps edits of messages older than an hour: post anew instead


def _walk(components: list[Any]) -> list[Any]:
    """A message's components at every depth (containers, action rows, sections), in order."""
    out = []
    for component in components:
        out += [component, *_walk(getattr(component, "children", []))]
    return out


def stamp(at: float, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone (R: "in 3 hours")."""
    return f"<t:{int(at)}:{style}>"


class ClockCog(commands.Cog):
    """Turn clocks and seats; sends what the service's clock events owe."""

    def __init__(self, bot: JunctionBot) -> None:
        self.bot = bot
        self.tables: Tables = bot.tables

    @property
    def games(self) -> Any:
        return self.bot.junction

    # ------------------------------------------------------------------ clock events

    async def on_due(self, game_id: int) -> None:
        """The scheduler says this game's clock has something due: do it, then post what it owes."""
        outcome = await self.tables.fire_due(game_id)
        if outcome is not None:
            await self.games.flush(game_id)

    async def send_reminders(self, info: TableInfo, posts: list[OutboxRow]) -> None:
        """A DM with a button that opens the move picker right there, and one mention in the channel."""
        done = []
        for post in posts:
            seat = post.seat
            if seat is None or seat >= len(info.seats) or info.seats[seat].user_id is None \
                    or info.row.status != "running" or seat not in info.to_act:
                done.append(post.id)  # the seat acted or changed hands since: nothing to remind
                continue
            user_id = info.seats[seat].user_id
            deadline = post.payload["deadline"]
            title, game_id = info.definition.title, info.row.id
            nonce = post_nonce("r", post.id, info)  # a reminder re-sent after a crash is not doubled
            # No DM for a player who chose none (/clock dms off): the channel mention only.
            if post.payload.get("dm", True):
                view = discord.ui.View(timeout=None)
                view.add_item(TurnButton(game_id))
                view.add_item(MuteButton(game_id))
                try:
                    dm = await self.bot.create_dm(discord.Object(user_id))
                    text = (f"⏰ Your turn in **{title}** (game #{game_id} in <#{info.row.place_id}>): "
                            f"time runs out {stamp(deadline)} ({stamp(deadline, 'f')}).")
                    locale = self.bot.user_locales.get(user_id)
                    await dm.send(i18n.localize(locale, text), view=i18n.localize_view(view, locale),
                                  allowed_mentions=NO_MENTIONS, nonce=f"{nonce}.d")
                except discord.Forbidden:
                    pass  # closed DMs: the channel mention below still reaches them
                except discord.HTTPException as error:
                    log.warning("reminder DM of game %s seat %s failed (%s); it stays owed", game_id, seat, error)
                    continue
            if post.payload.get("channel"):
                channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
                try:
                    text = f"<@{user_id}>, it is your turn in game #{game_id}: time runs out {stamp(deadline)}."
                    await channel.send(i18n.localize(self.games.place_locale(info.row.guild_id), text),
                                       allowed_mentions=mentioning(user_id), nonce=f"{nonce}.c")
                except discord.HTTPException as error:
                    log.warning("reminder mention of game %s failed (%s)", game_id, error)
            done.append(post.id)
        await self.tables.posts_done(done)

    async def since_parts(self, info: TableInfo, user_id: int, locale: Any = None) -> tuple[list[str], discord.File | None]:
        """'Since your last turn': the moves in words and a strip of small boards from then to now, in the
        reader's language (the heading stays English: the caller localizes the whole message)."""
        try:
            report = await self.tables.since_last_turn(info.row.id, user_id, max_lines=12)
        except Refused:
            return [], None
        if not report.lines:
            return [], None
        # Each move in the reader's language before it is shortened: a cut line no longer matches its entry.
        lines = [f"**Since your last turn** ({report.moves} {'move' if report.moves == 1 else 'moves'}):",
                 *(f"› {texts.clip(i18n.localize(locale, line), 150)}" for line in report.lines)]
        try:
            boards = [await self.bot.renderer.board(view, list(report.names), i18n.lang(locale))
                      for view in report.views]
            data = await self.bot.renderer.call(replay.strip, boards) if len(boards) > 1 else boards[0]
            alt = i18n.t(locale, "The board before and after the last move, left to right" if report.moves == 1
                         else "The board before and after the last {n} moves, left to right", n=report.moves)
            return lines, discord.File(io.BytesIO(data), filename="since.png", description=alt)
        except Exception:
            log.exception("rendering the since-your-turn strip of game %s failed", info.row.id)
            return lines, None

    # ------------------------------------------------------------------ board refresh and threads

    async def update_board(self, game_id: int, line: str) -> None:
        """Show a changed deadline: edit the board post while it is under an hour old, else post anew."""
        info = await self.tables.info(game_id)
        if info.row.status != "running":
            return
        row = info.row
        young = row.board_posted_at is not None and self.tables.now() - row.board_posted_at < BOARD_EDIT_LIMIT
        if row.board_message_id is not None and young:
            channel = self.bot.get_partial_messageable(row.place_id, guild_id=row.guild_id)
            try:
                message = await channel.fetch_message(row.board_message_id)
                fresh = texts.board_parts(info, [], None)[1]
                story = [c.content for c in _walk(message.components)
                         if isinstance(c, discord.TextDisplay) and c.id != TURN_TEXT_ID]
                if story:  # a layout post: keep what happened and the board, renew whose turn it is
                    locale = self.games.place_locale(row.guild_id)
                    view = board_post(info, locale, story[0], i18n.localize(locale, fresh), message.attachments)
                    await message.edit(view=view, allowed_mentions=NO_MENTIONS)
                    return
                kept = re.sub(r"^⏰ .*\n?", "", message.content, flags=re.MULTILINE)  # a classic post
                content = re.sub(r"^\*\*To act:\*\*.*$", lambda _: fresh, kept, flags=re.MULTILINE)
                await message.edit(content=content, allowed_mentions=NO_MENTIONS)
                return
            except discord.HTTPException as error:
                log.info("board of game %s not edited (%s); posting anew", game_id, error)
        await self.games.post_news(info, line)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A running game's thread was archived (inactivity): open it again while the game runs."""
        archived = payload.data.get("thread_metadata", {}).get("archived")
        game_id = await self.tables.open_game_at(payload.thread_id) if archived else None
        if not archived or game_id is None or (await self.tables.info(game_id)).row.status != "running":
            return
        try:
            thread = await self.bot.fetch_channel(payload.thread_id)
            if isinstance(thread, discord.Thread) and not thread.locked:
                await thread.edit(archived=False, auto_archive_duration=10080)
        except discord.HTTPException as error:
            log.warning("thread of game %s stays archived (%s)", game_id, error)

    # ------------------------------------------------------------------ buttons

    async def on_since(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await self.tables.info(game_id)
            if info.seat_of(interaction.user.id) is None:
                raise Refused(NOT_SEATED)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        lines, strip = await self.since_parts(info, interaction.user.id, interaction.locale)
        if not lines:
            await reply(interaction, "Nothing happened since your last turn.")
            return
        text = texts.clip("\n".join([f"**{info.definition.title}** · game #{game_id}", *lines]))
        kwargs: dict[str, Any] = {"file": strip} if strip is not None else {}
        await reply(interaction, text, **kwargs)

    async def on_mute(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            await self.tables.set_muted(game_id, interaction.user.id, True)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await reply(
            interaction, f"Reminders for game #{game_id} are muted. `/clock reminders on:true` turns them on again.")

    async def on_accept_seat(self, interaction: discord.Interaction, game_id: int, offer_id: int) -> None:
        try:
            _, giver = await self.tables.accept_seat_offer(game_id, offer_id, interaction.user.id,
                                                           interaction.user.display_name)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await interaction.response.edit_message(
            content=i18n.t(interaction.locale, "<@{taker}> took over <@{giver}>'s seat in game #{id}.",
                           taker=interaction.user.id, giver=giver, id=game_id), view=None,
            allowed_mentions=NO_MENTIONS)
        await self.games.flush(game_id)

    # ------------------------------------------------------------------ commands

    clock = app_commands.Group(name="clock", description="Turn timer: deadlines, vacation, reminders, quiet hours")
    seat = app_commands.Group(name="seat", description="Hand your seat to the AI or to another member",
                              guild_only=True)

    async def _here(self, interaction: discord.Interaction) -> int:
        return await self.tables.find_game(interaction.channel_id, interaction.user.id)

    @clock.command(name="status", description="This game's timer and your deadline, pause and reminders")
    async def status(self, interaction: discord.Interaction) -> None:
        tables = self.tables
        try:
            info = await tables.info(await self._here(interaction))
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        row = info.row
        if not row.turn_hours:
            await reply(interaction, f"Game #{row.id} has no turn timer.")
            return
        action = {"ai": "the AI plays the turn", "skip": "the turn is skipped where the rules allow it "
                  "(else the AI plays it)", "end": "the game ends with the current standings"}[row.timeout_action]
        lines = [f"Game #{row.id}: {row.turn_hours} h per turn; on timeout {action}; after "
                 f"{row.max_timeouts} timeouts in a row the AI takes the seat; vacation up to "
                 f"{row.vacation_hours} h per player."]
        lines += [f"{info.seats[s].name}: time runs out {stamp(d)}" for s, d in sorted(info.deadlines.items())]
        seat = info.seat_of(interaction.user.id)
        if seat is not None:
            prefs = (await tables.store.seat_prefs(row.id)).get(seat)
            if prefs is not None:
                if prefs.vacation_until and prefs.vacation_until > tables.now():
                    lines.append(f"Your clock is paused until {stamp(prefs.vacation_until, 'f')}.")
                lines.append(f"Vacation used: {prefs.vacation_used:g} of {row.vacation_hours} h."
                             + (" Reminders are muted." if prefs.muted else ""))
        await reply(interaction, texts.clip("\n".join(lines)))

    @clock.command(name="pause", description="Vacation: pause your clock in this game for some hours")
    @app_commands.describe(hours="How many hours (the table sets the total allowed)")
    async def pause(self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 1440]) -> None:
        try:
            game_id = await self._here(interaction)
            until = await self.tables.pause_clock(game_id, interaction.user.id, hours)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await reply(interaction, f"Your clock in game #{game_id} is paused until {stamp(until, 'f')} "
                                 f"({stamp(until)}); no reminders until then. `/clock resume` ends it early.")
        await self.update_board(game_id, f"{safe_name(interaction.user.display_name)} paused their clock until "
                                         f"{stamp(until, 'f')}.")

    @clock.command(name="resume", description="End your vacation early (the unused hours come back)")
    async def resume(self, interaction: discord.Interaction) -> None:
        try:
            game_id = await self._here(interaction)
            back = await self.tables.resume_clock(game_id, interaction.user.id)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await reply(interaction, f"Your clock runs again; {back:.1f} unused hours are back.")
        await self.update_board(game_id, f"{safe_name(interaction.user.display_name)} is back; their clock runs again.")

    @clock.command(name="reminders", description="Turn your turn reminders for this game on or off")
    async def reminders(self, interaction: discord.Interaction, on: bool) -> None:
        try:
            game_id = await self._here(interaction)
            await self.tables.set_muted(game_id, interaction.user.id, not on)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await reply(interaction, f"Reminders for game #{game_id} are on." if on
                    else f"Reminders for game #{game_id} are muted.")

    @clock.command(name="quiet", description="Quiet hours in your time zone: no reminders, no deadline inside")
    @app_commands.describe(timezone="e.g. Europe/Paris, Asia/Tokyo or +09:00", start="From (HH or HH:MM)",
                           end="Until (HH or HH:MM); the same as start turns quiet hours off")
    async def quiet(self, interaction: discord.Interaction, timezone: str, start: str, end: str) -> None:
        try:
            prefs = await self.tables.set_quiet_hours(interaction.user.id, timezone, start, end)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        if prefs.quiet_start == prefs.quiet_end:
            await reply(interaction, f"Quiet hours are off (time zone {prefs.tz}).")
            return
        await reply(interaction, f"Quiet hours {start}–{end} ({prefs.tz}) in all your games: no reminders "
                                 "then, and a deadline that would fall inside them moves to their end.")

    @clock.command(name="dms", description="Which direct messages you get in all your games")
    @app_commands.describe(send="all (default), only when your turn begins, or none")
    @app_commands.choices(send=[
        app_commands.Choice(name="all: welcome, your turn, the end of a game", value="all"),
        app_commands.Choice(name="only when my turn begins", value="turn"),
        app_commands.Choice(name="none (I use /hand and My hand)", value="off")])
    async def dms(self, interaction: discord.Interaction, send: str) -> None:
        try:
            await self.tables.set_dms(interaction.user.id, send)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await reply(interaction, {
            "all": "You get every DM: the welcome with your hand, one when your turn begins (your hand, "
                   "your private news, what happened since your last turn), one at the end, and reminders.",
            "turn": "You get a DM only when your turn begins (your hand, your private news, what happened "
                    "since your last turn), and reminders. `/hand` and **My hand** are always there.",
            "off": "You get no DMs (only a short welcome when a game starts). `/hand` and **My hand** show "
                   "your hand; reminders mention you in the game's channel.",
        }[send])

    async def _seat_command(self, interaction: discord.Interaction, action: str) -> None:
        try:
            game_id = await self._here(interaction)
            if action == "ai":
                await self.tables.seat_to_ai(game_id, interaction.user.id)
                text = "The AI plays your seat now; `/seat back` takes it back."
            else:
                await self.tables.seat_back(game_id, interaction.user.id)
                text = "Your seat is yours again."
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        await reply(interaction, text)
        await self.games.flush(game_id)

    @seat.command(name="ai", description="Let the AI play your seat for now (take it back with /seat back)")
    async def seat_ai(self, interaction: discord.Interaction) -> None:
        await self._seat_command(interaction, "ai")

    @seat.command(name="back", description="Take back your seat from the AI")
    async def seat_back(self, interaction: discord.Interaction) -> None:
        await self._seat_command(interaction, "back")

    @seat.command(name="give", description="Offer your seat, with its hand, to another member")
    @app_commands.describe(member="Who takes your seat (they accept with a button)")
    async def seat_give(self, interaction: discord.Interaction, member: discord.Member) -> None:
        try:
            game_id = await self.tables.find_game(interaction.channel_id)
            offer = await self.tables.offer_seat(game_id, interaction.user.id, member.id, member.bot)
        except Refused as refused:
            await reply(interaction, refused.reason)
            return
        view = discord.ui.View(timeout=None)
        view.add_item(SeatOfferButton(game_id, offer))
        locale = self.games.place_locale(interaction.guild_id)  # a public message: the channel's language
        await interaction.response.send_message(
            i18n.localize(locale, f"{member.mention}, {interaction.user.mention} offers you their seat in game "
                                  f"#{game_id} (with their hand). Accept with the button."),
            view=i18n.localize_view(view, locale), allowed_mentions=mentioning(member.id))
