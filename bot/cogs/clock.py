"""Asynchronous play on Discord: the clock and seat commands, "since your last turn", mute, seat offers.

Commands: /clock status|pause|resume|reminders|quiet, /seat ai|back|give.
The rules of time live in bot.tables (Tables.fire_due and friends); what they owe (reminders,
board news) and the game's thread kept open go out through bot.delivery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, texts
from bot.cogs import reply
from bot.delivery.posting import NO_MENTIONS, mentioning, stamp
from bot.render_queue import ASKED
from bot.tables import NOT_SEATED, Refused, Tables, safe_name
from bot.ui.async_play import SeatOfferButton
from rules.words import N_, Msg, Term

if TYPE_CHECKING:
    from bot.app import JunctionBot
    from bot.delivery.outbox import Delivery


# What /clock dms answers for each choice.
DM_CHOICE_WORDS = {
    "all": N_("You get every DM: the welcome with your hand, one when your turn begins (your hand, your private "
              "news, what happened since your last turn), one at the end, and reminders."),
    "turn": N_("You get a DM only when your turn begins (your hand, your private news, what happened since your "
               "last turn), and reminders. `/hand` and **My hand** are always there."),
    "off": N_("You get no DMs (only a short welcome when a game starts). `/hand` and **My hand** show your hand; "
              "reminders mention you in the game's channel."),
}


class ClockCog(commands.Cog):
    """Turn clocks and seats: commands and buttons; what they owe goes out through the delivery."""

    def __init__(self, tables: Tables, delivery: Delivery) -> None:
        self.tables = tables
        self.delivery = delivery

    # ------------------------------------------------------------------ threads

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A running game's thread was archived (inactivity): open it again while the game runs."""
        if payload.data.get("thread_metadata", {}).get("archived"):
            await self.delivery.posts.reopen_thread(payload.thread_id)

    # ------------------------------------------------------------------ buttons

    async def on_since(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        info = await self.tables.info(game_id)
        if info.seat_of(interaction.user.id) is None:
            raise Refused(NOT_SEATED)
        lines, strip = await self.delivery.dms.since_parts(info, interaction.user.id, interaction.locale,
                                                           priority=ASKED)
        if not lines:
            await reply(interaction, Msg("Nothing happened since your last turn."))
            return
        head = i18n.t(interaction.locale, "**{title}** · game #{id}", title=Term(info.definition.title), id=game_id)
        text = texts.clip("\n".join([head, *lines]))
        kwargs: dict[str, Any] = {"file": strip} if strip is not None else {}
        await reply(interaction, text, **kwargs)

    async def on_mute(self, interaction: discord.Interaction, game_id: int) -> None:
        await self.tables.set_muted(game_id, interaction.user.id, True)
        await reply(
            interaction, Msg("Reminders for game #{id} are muted. `/clock reminders on:true` turns them on again.",
                             id=game_id))

    async def on_accept_seat(self, interaction: discord.Interaction, game_id: int, offer_id: int) -> None:
        _, giver = await self.tables.accept_seat_offer(game_id, offer_id, interaction.user.id,
                                                       interaction.user.display_name)
        await interaction.response.edit_message(
            content=i18n.t(interaction.locale, "<@{taker}> took over <@{giver}>'s seat in game #{id}.",
                           taker=interaction.user.id, giver=giver, id=game_id), view=None,
            allowed_mentions=NO_MENTIONS)
        await self.delivery.flush(game_id)

    # ------------------------------------------------------------------ commands

    clock = app_commands.Group(name="clock", description="Turn timer: deadlines, vacation, reminders, quiet hours")
    seat = app_commands.Group(name="seat", description="Hand your seat to the AI or to another member",
                              guild_only=True)

    async def _here(self, interaction: discord.Interaction) -> int:
        return await self.tables.find_game(interaction.channel_id, interaction.user.id)

    @clock.command(name="status", description="This game's timer and your deadline, pause and reminders")
    async def status(self, interaction: discord.Interaction) -> None:
        tables = self.tables
        info = await tables.info(await self._here(interaction))
        row = info.row
        if not row.turn_hours:
            await reply(interaction, Msg("Game #{id} has no turn timer.", id=row.id))
            return
        locale = interaction.locale
        action = {"ai": Msg("the AI plays the turn"),
                  "skip": Msg("the turn is skipped where the rules allow it (else the AI plays it)"),
                  "end": Msg("the game ends with the current standings")}[row.timeout_action]
        lines = [i18n.t(locale, "Game #{id}: {hours} h per turn; on timeout {action}; after {n} timeouts in a row the "
                                "AI takes the seat; vacation up to {vacation} h per player.", id=row.id,
                        hours=row.turn_hours, action=action, n=row.max_timeouts, vacation=row.vacation_hours)]
        lines += [i18n.t(locale, "{name}: time runs out {when}", name=info.seats[s].name, when=stamp(d))
                  for s, d in sorted(info.deadlines.items())]
        seat = info.seat_of(interaction.user.id)
        if seat is not None:
            prefs = (await tables.store.seat_prefs(row.id)).get(seat)
            if prefs is not None:
                if prefs.vacation_until and prefs.vacation_until > tables.now():
                    lines.append(i18n.t(locale, "Your clock is paused until {when}.",
                                        when=stamp(prefs.vacation_until, "f")))
                used = (N_("Vacation used: {used} of {total} h. Reminders are muted.") if prefs.muted
                        else N_("Vacation used: {used} of {total} h."))
                lines.append(i18n.t(locale, used, used=f"{prefs.vacation_used:g}", total=row.vacation_hours))
        await reply(interaction, texts.clip("\n".join(lines)))

    @clock.command(name="pause", description="Vacation: pause your clock in this game for some hours")
    @app_commands.describe(hours="How many hours (the table sets the total allowed)")
    async def pause(self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 1440]) -> None:
        game_id = await self._here(interaction)
        until = await self.tables.pause_clock(game_id, interaction.user.id, hours)
        await reply(interaction, Msg("Your clock in game #{id} is paused until {until} ({when}); no reminders until "
                                     "then. `/clock resume` ends it early.", id=game_id, until=stamp(until, "f"),
                                     when=stamp(until)))
        await self.delivery.posts.update_board(game_id, Msg("{who} paused their clock until {until}.",
                                                            who=safe_name(interaction.user.display_name),
                                                            until=stamp(until, "f")))

    @clock.command(name="resume", description="End your vacation early (the unused hours come back)")
    async def resume(self, interaction: discord.Interaction) -> None:
        game_id = await self._here(interaction)
        back = await self.tables.resume_clock(game_id, interaction.user.id)
        await reply(interaction, Msg("Your clock runs again; {hours} unused hours are back.", hours=f"{back:.1f}"))
        await self.delivery.posts.update_board(game_id, Msg("{who} is back; their clock runs again.",
                                                            who=safe_name(interaction.user.display_name)))

    @clock.command(name="reminders", description="Turn your turn reminders for this game on or off")
    @app_commands.describe(on="True: remind me when my time runs short; False: no reminders in this game")
    async def reminders(self, interaction: discord.Interaction, on: bool) -> None:
        game_id = await self._here(interaction)
        await self.tables.set_muted(game_id, interaction.user.id, not on)
        await reply(interaction, Msg("Reminders for game #{id} are on.", id=game_id) if on
                    else Msg("Reminders for game #{id} are muted.", id=game_id))

    @clock.command(name="quiet", description="Quiet hours in your time zone: no reminders, no deadline inside")
    @app_commands.describe(timezone="e.g. Europe/Paris, Asia/Tokyo or +09:00", start="From (HH or HH:MM)",
                           end="Until (HH or HH:MM); the same as start turns quiet hours off")
    async def quiet(self, interaction: discord.Interaction, timezone: str, start: str, end: str) -> None:
        prefs = await self.tables.set_quiet_hours(interaction.user.id, timezone, start, end)
        if prefs.quiet_start == prefs.quiet_end:
            await reply(interaction, Msg("Quiet hours are off (time zone {tz}).", tz=prefs.tz))
            return
        await reply(interaction, Msg("Quiet hours {start}–{end} ({tz}) in all your games: no reminders then, and a "
                                     "deadline that would fall inside them moves to their end.", start=start, end=end,
                                     tz=prefs.tz))

    @clock.command(name="dms", description="Which direct messages you get in all your games")
    @app_commands.describe(send="all (default), only when your turn begins, or none")
    @app_commands.choices(send=[
        app_commands.Choice(name="all: welcome, your turn, the end of a game", value="all"),
        app_commands.Choice(name="only when my turn begins", value="turn"),
        app_commands.Choice(name="none (I use /hand and My hand)", value="off")])
    async def dms(self, interaction: discord.Interaction, send: str) -> None:
        await self.tables.set_dms(interaction.user.id, send)
        await reply(interaction, Msg(DM_CHOICE_WORDS[send]))

    async def _seat_command(self, interaction: discord.Interaction, action: str) -> None:
        game_id = await self._here(interaction)
        if action == "ai":
            await self.tables.seat_to_ai(game_id, interaction.user.id)
            text = Msg("The AI plays your seat now; `/seat back` takes it back.")
        else:
            await self.tables.seat_back(game_id, interaction.user.id)
            text = Msg("Your seat is yours again.")
        await reply(interaction, text)
        await self.delivery.flush(game_id)

    @seat.command(name="ai", description="Let the AI play your seat for now (take it back with /seat back)")
    async def seat_ai(self, interaction: discord.Interaction) -> None:
        await self._seat_command(interaction, "ai")

    @seat.command(name="back", description="Take back your seat from the AI")
    async def seat_back(self, interaction: discord.Interaction) -> None:
        await self._seat_command(interaction, "back")

    @seat.command(name="give", description="Offer your seat, with its hand, to another member")
    @app_commands.describe(member="Who takes your seat (they accept with a button)")
    async def seat_give(self, interaction: discord.Interaction, member: discord.Member) -> None:
        game_id = await self.tables.find_game(interaction.channel_id)
        offer = await self.tables.offer_seat(game_id, interaction.user.id, member.id, member.bot)
        view = discord.ui.View(timeout=None)
        view.add_item(SeatOfferButton(game_id, offer))
        locale = self.delivery.places.locale(interaction.guild_id)  # a public message: the channel's language
        await interaction.response.send_message(
            i18n.t(locale, "{member}, {user} offers you their seat in game #{id} (with their hand). Accept with the "
                           "button.", member=member.mention, user=interaction.user.mention, id=game_id),
            view=i18n.localize_view(view, locale), allowed_mentions=mentioning(member.id))


async def setup(bot: JunctionBot) -> None:
    """Loaded as an extension (`bot.load_extension("bot.cogs.clock")`)."""
    await bot.add_cog(ClockCog(bot.tables, bot.delivery))
