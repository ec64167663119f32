"""Direct messages of a game: a player's private hand and news, "since your last turn", turn reminders."""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n, texts
from bot.delivery.posting import (
    BACKLOG_CHUNK,
    NO_MENTIONS,
    Places,
    image_file,
    mentioning,
    post_nonce,
    split_backlog,
    stamp,
)
from bot.render_queue import DM
from bot.store import OutboxRow
from bot.tables import Refused, TableInfo, Tables
from bot.ui.async_play import MuteButton
from bot.ui.components import TurnButton
from bot.words import Stored
from rules.words import N_, Plural, Term

if TYPE_CHECKING:
    from bot.app import JunctionBot

log = logging.getLogger("bot.games")
DM_CLOSED = 50007
DMS_CLOSED = N_("{user}, I cannot send you direct messages, so your hand in game #{id} cannot reach you by DM. Allow "
              "direct messages from server members (server menu → Privacy Settings), or use `/hand` here whenever "
              "you want to see it.")


class DirectMessages:
    """Sends what a game owes its players in private, each in the language of their last command."""

    def __init__(self, bot: JunctionBot, tables: Tables, places: Places) -> None:
        self.bot = bot
        self.tables = tables
        self.places = places

    async def hand(self, info: TableInfo, seat: int, lines: list[Stored], welcome: bool,
                   since: bool = False, nonce: str | None = None, in_words: bool = False,
                   at: int | None = None) -> bool:
        """DM a player their private view as it was after the game's first `at` moves (None: now),
        when the DM was owed. Closed DMs: tell the channel once, without secrets.

        Private lines that do not fit one DM come first in DMs of their own; `nonce` as in
        BoardPosts.post_board.
        `in_words`: the welcome of a player who chose no DMs, with no hand: where to find it."""
        user_id = info.seats[seat].user_id
        if user_id is None:
            return True
        title, game_id, game = Term(info.definition.title), info.row.id, info.definition.key
        locale = self.reader_locale(user_id, info.row.guild_id)
        place = f"<#{info.row.place_id}>"
        if in_words:
            head = i18n.t(locale, "Welcome to **{title}** (game #{id} in {place}). You chose no DMs: `/hand` or "
                                  "**My hand** under the board shows your hand; `/clock dms` changes this.",
                          title=title, id=game_id, place=place)
        elif welcome:
            head = i18n.t(locale, "Welcome to **{title}** (game #{id} in {place}). Your private hand comes here when "
                                  "your turn begins; `/hand` shows it too.", title=title, id=game_id, place=place)
        else:
            head = i18n.t(locale, "**{title}** · game #{id} · your hand", title=title, id=game_id)
        kwargs: dict[str, Any] = {}
        if not in_words:
            try:
                _, view, names = await self.tables.private_view(game_id, user_id, at=at)
                kwargs["file"] = image_file(await self.bot.renderer.hand(view, names, i18n.lang(locale), priority=DM),
                                             "hand.png")
            except Refused:
                return True
            except Exception:
                log.exception("rendering the hand of game %s seat %s failed", game_id, seat)
        since_lines: list[str] = []
        if since:  # "since your last turn": the moves and a strip image
            since_lines, strip = await self.since_parts(info, user_id, locale, at=at)
            kwargs["files"] = [f for f in (kwargs.pop("file", None), strip) if f is not None]
        said = [i18n.say(locale, line, info.names, game) for line in lines]  # the names go in after the words
        *earlier, said = split_backlog(said, BACKLOG_CHUNK,
                                       texts.MAX_CONTENT - len(head) - len("\n".join(since_lines)) - 300)
        text = texts.clip("\n".join([head, *(f"• {line}" for line in said), *since_lines]))
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            for index, chunk in enumerate(earlier):
                await dm.send(texts.clip("\n".join([head, *(f"• {line}" for line in chunk)])),
                              allowed_mentions=NO_MENTIONS, **({"nonce": f"{nonce}.e{index}"} if nonce else {}))
            await dm.send(text, allowed_mentions=NO_MENTIONS, **({"nonce": f"{nonce}.h"} if nonce else {}), **kwargs)
        except discord.Forbidden as error:
            if error.code == DM_CLOSED and await self.tables.note_dm_closed(game_id, user_id):
                channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
                await channel.send(
                    i18n.t(self.places.locale(info.row.guild_id), DMS_CLOSED, user=f"<@{user_id}>", id=game_id),
                    allowed_mentions=mentioning(user_id))
            return True  # owed no longer: /hand serves this player
        except discord.HTTPException as error:
            log.warning("DM to seat %s of game %s failed (%s); it stays owed", seat, game_id, error)
            return False
        return True

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
            title, game_id = Term(info.definition.title), info.row.id
            nonce = post_nonce("r", post.id, info)  # a reminder re-sent after a crash is not doubled
            # No DM for a player who chose none (/clock dms off): the channel mention only.
            if post.payload.get("dm", True):
                view = discord.ui.View(timeout=None)
                view.add_item(TurnButton(game_id))
                view.add_item(MuteButton(game_id))
                try:
                    dm = await self.bot.create_dm(discord.Object(user_id))
                    locale = self.reader_locale(user_id, info.row.guild_id)
                    text = i18n.t(locale, "⏰ Your turn in **{title}** (game #{id} in {place}): time runs out {when} "
                                          "({at}).", title=title, id=game_id, place=f"<#{info.row.place_id}>",
                                  when=stamp(deadline), at=stamp(deadline, "f"))
                    await dm.send(text, view=i18n.localize_view(view, locale),
                                  allowed_mentions=NO_MENTIONS, nonce=f"{nonce}.d")
                except discord.Forbidden:
                    pass  # closed DMs: the channel mention below still reaches them
                except discord.HTTPException as error:
                    log.warning("reminder DM of game %s seat %s failed (%s); it stays owed", game_id, seat, error)
                    continue
            if post.payload.get("channel"):
                channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
                try:
                    text = i18n.t(self.places.locale(info.row.guild_id), "{user}, it is your turn in game #{id}: time "
                                  "runs out {when}.", user=f"<@{user_id}>", id=game_id, when=stamp(deadline))
                    await channel.send(text,
                                       allowed_mentions=mentioning(user_id), nonce=f"{nonce}.c")
                except discord.HTTPException as error:
                    log.warning("reminder mention of game %s failed (%s)", game_id, error)
            done.append(post.id)
        await self.tables.posts_done(done)

    def reader_locale(self, user_id: int, guild_id: int | None) -> Any:
        """The language of a DM: the player's own (from their last command), else, when the bot has not heard
        from them since it started, the language of the game's server rather than English."""
        return self.bot.user_locales.get(user_id) or self.places.locale(guild_id)

    async def since_parts(self, info: TableInfo, user_id: int, locale: Any = None,
                          at: int | None = None, priority: int = DM) -> tuple[list[str], discord.File | None]:
        """'Since your last turn': the moves in words and a strip of small boards from then to now (to
        the game's first `at` moves), in the reader's language. `priority`: in the render line
        (bot.render_queue)."""
        try:
            report = await self.tables.since_last_turn(info.row.id, user_id, max_lines=12, at=at)
        except Refused:
            return [], None
        if not report.lines:
            return [], None
        game = info.definition.key
        lines = [i18n.say(locale, Plural("**Since your last turn** ({n} move):", "**Since your last turn** ({n} moves):",
                                         n=report.moves)),
                 *(f"› {texts.clip(i18n.say(locale, line, report.names, game), 150)}" for line in report.lines)]
        try:
            lang, names = i18n.lang(locale), list(report.names)
            data = (await self.bot.renderer.strip(report.views, names, lang, priority=priority) if len(report.views) > 1
                    else await self.bot.renderer.board(report.views[0], names, lang, priority=priority))
            alt = i18n.say(locale, Plural("The board before and after the last move, left to right",
                                          "The board before and after the last {n} moves, left to right",
                                          n=report.moves))
            return lines, discord.File(io.BytesIO(data), filename="since.png", description=alt)
        except Exception:
            log.exception("rendering the since-your-turn strip of game %s failed", info.row.id)
            return lines, None
