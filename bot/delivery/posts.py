"""Board posts in a game's channel: a new post or an edit of the live one, the lobby message, news of
the clock (a changed deadline), and the game's thread kept open while the game runs."""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n, texts
from bot.delivery.posting import (
    BACKLOG_CHUNK,
    NO_MENTIONS,
    Places,
    board_post,
    image_file,
    mentioning,
    split_backlog,
)
from bot.render_queue import BOARD
from bot.tables import TableInfo, Tables, result_msgs
from bot.ui.components import TURN_TEXT_ID, lobby_view
from bot.words import Stored
from rules.words import Msg, Term

if TYPE_CHECKING:
    from bot.app import JunctionBot

log = logging.getLogger("bot.games")
BOARD_EDIT_LIMIT = 3600.0  # Discord caps edits of messages older than an hour: post anew instead


def _walk(components: list[Any]) -> list[Any]:
    """A message's components at every depth (containers, action rows, sections), in order."""
    out = []
    for component in components:
        out += [component, *_walk(getattr(component, "children", []))]
    return out


class BoardPosts:
    """Sends and edits a game's public posts (it never decides what is owed: bot.delivery.outbox does)."""

    def __init__(self, bot: JunctionBot, tables: Tables, places: Places) -> None:
        self.bot = bot
        self.tables = tables
        self.places = places
        self.last_edit: dict[int, float] = {}  # game -> monotonic time of its last board edit

    async def edit_board(self, info: TableInfo, lines: list[Stored], previous: dict[str, Any] | None,
                          through: int, done: Sequence[int] = (), sent: Callable[[], None] | None = None) -> bool:
        """Update the current board post in place (no ping) to show `lines`, the owed rows up to
        `through` included; False when it must be posted anew (no post yet, deleted, or the moves
        ended a round: a round end keeps its own post). Once Discord took it, the owed rows `done`
        leave the outbox in the same write that stores what the post shows; `sent` is called just
        before that write."""
        message_id = info.row.board_message_id
        if message_id is None:
            return False
        locale = self.places.locale(info.row.guild_id)
        lang = i18n.lang(locale)
        files: list[discord.File] = []
        try:
            view, names = await self.tables.public_view(info.row.id)
            png, alt, interludes = await self.bot.renderer.post_images(view, names, lang, previous)
            if interludes:
                return False
            files.append(image_file(png, "board.png", alt))
        except Exception:
            log.exception("rendering the board of game %s failed", info.row.id)
        story, turn = texts.board_parts(info, lines, None, locale)
        view = board_post(info, locale, texts.clip(story), turn, files)
        channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
        try:
            # content=None: a post made before the layout (classic, with content) must drop it to
            # become a layout post; the layout view keeps the components v2 flag set.
            await channel.get_partial_message(message_id).edit(
                content=None, attachments=files, allowed_mentions=NO_MENTIONS, view=view)
        except discord.NotFound:
            log.info("board post of game %s is gone; posting anew", info.row.id)
            return False
        finally:
            self.last_edit[info.row.id] = time.monotonic()
        if sent is not None:
            sent()
        own = (info.row.board_words or {}).get("own")  # the lines it had when posted (see recap_marked)
        words = {"lines": lines, "through": through, **({"own": own} if own is not None else {})}
        await self.tables.board_shown(info.row.id, list(done), board_words=words)
        return True

    async def post_board(self, info: TableInfo, lines: list[Stored], result: list[Stored] | None,
                          previous: dict[str, Any] | None = None, nonce: str | None = None,
                          ping_seats: list[int] | None = None, through: int | None = None,
                          done: Sequence[int] = (), sent: Callable[[], None] | None = None,
                          own: int | None = None) -> bool:
        """The board post of a batch; its earlier lines first in posts of their own if they do not fit.
        `through`: the last owed row it shows (None: no row, e.g. news of the clock); `done`: the
        owed rows it shows, marked done in the write that stores the post's id (`sent` is called
        just before that write); `own`: how many of `lines` come before the decisions of the turn
        it begins (None: all; see recap_marked).

        `nonce` (from the batch, stable across restarts) makes every message of the post idempotent:
        Discord returns the message it already made for a nonce instead of posting it twice."""
        channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
        files: list[discord.File] = []
        interludes: list[discord.File] = []
        over = info.row.status != "running"
        locale = self.places.locale(info.row.guild_id)
        lang = i18n.lang(locale)
        if info.row.status in ("running", "over"):
            view, names = await self.tables.public_view(info.row.id)
            try:
                png, alt, drawn = await self.bot.renderer.post_images(view, names, lang, previous)
                files.append(image_file(png, "board.png", alt))
                summary = (i18n.t(locale, "What the last move ended (e.g. a round).") + " " + alt)[:1000]
                interludes = [image_file(image, f"interlude-{i + 1}.png", summary) for i, image in enumerate(drawn)]
            except Exception:
                log.exception("rendering the board of game %s failed", info.row.id)
            if info.row.status == "over":
                files += await self._end_of_game_files(info, names, locale)
        if result is not None and info.row.result:  # the standings as stored with the game, then the rest
            seats = info.row.result["seats"]
            words = {key: info.row.result[key] for key in ("labels", "label_msgs") if info.row.result.get(key)}
            result = [*result_msgs({"seats": seats, **words}), *result[len(seats):]]
        # A long backlog (many moves owed at once) goes out in several posts, oldest lines first,
        # never cut: the board post keeps the newest lines that fit beside its header and standings.
        # Measured in the reader's language, the names in; the post's words are kept as stored (messages).
        stored = lines
        said = [i18n.say(locale, line, info.names, info.definition.key) for line in stored]
        *earlier, lines = split_backlog(said, BACKLOG_CHUNK,
                                        texts.MAX_CONTENT - len(texts.board_text(info, [], result, locale)) - 300)
        shown_lines = stored[len(stored) - min(len(lines), len(stored)):] if lines else []
        story, turn = texts.board_parts(info, lines, result, locale)
        if info.row.status == "over" and result is not None:
            # The hidden details the engine's result reveals, in the post itself when they fit.
            revealed = texts.revealed_lines(info.row.result, info.names, locale=locale, game=info.definition.key)
            if revealed and len(story) + len("\n".join(revealed)) + 1 <= texts.MAX_CONTENT:
                story, turn = texts.board_parts(info, lines, [*result, *revealed], locale)
        story = texts.clip(story)
        # Only the seats whose turn it is are pinged, whatever a player's name looks like.
        # `ping_seats`: the seats whose turn begins with this post (None: every seat to act).
        ping_seats = list(info.to_act) if ping_seats is None else [s for s in ping_seats if s in info.to_act]
        pings = mentioning(*(info.seats[s].user_id for s in ping_seats)) if not over else NO_MENTIONS

        def part(key: str) -> dict[str, Any]:
            return {"nonce": f"{nonce}.{key}"} if nonce else {}

        try:
            for index, chunk in enumerate(earlier):
                head = i18n.t(locale, "**{title}** · game #{id} · earlier moves ({part}/{parts})",
                              title=Term(info.definition.title), id=info.row.id, part=index + 1, parts=len(earlier))
                await channel.send(texts.clip("\n".join([head, *(f"• {line}" for line in chunk)])),
                                   allowed_mentions=NO_MENTIONS, **part(f"e{index}"))
            if interludes:
                await channel.send(files=interludes[:10], allowed_mentions=NO_MENTIONS, **part("i"))
            # A layout post (components v2): the board in a gallery inside a container in the
            # colour of the seat to act; mentions in its text ping as content would.
            message = await channel.send(view=board_post(info, locale, story, turn, files),
                                         allowed_mentions=pings, files=files, **part("b"))
        except discord.Forbidden as error:
            # Missing Attach Files (or a thread the bot may not post in): say so in words, never silently.
            log.warning("board post of game %s refused (%s); posting it without files", info.row.id, error)
            try:
                message = await channel.send(
                    view=board_post(info, locale, texts.clip(story + "\n" + i18n.t(locale, texts.MISSING_ATTACH),
                                                             texts.MAX_LAYOUT_TEXT - len(turn)), turn, []),
                    allowed_mentions=pings, **part("t"))
            except discord.HTTPException as again:
                log.warning("board post of game %s failed (%s); it stays owed", info.row.id, again)
                return False
        except discord.HTTPException as error:
            log.warning("board post of game %s failed (%s); it stays owed", info.row.id, error)
            return False
        if sent is not None:
            sent()
        # What the post shows, for the edits that follow it (those of rows after `through`).
        shown = through if through is not None else (info.row.board_words or {}).get("through", 0)
        own = max(0, (len(stored) if own is None else own) - (len(stored) - len(shown_lines)))
        await self.tables.board_shown(info.row.id, list(done), board_message_id=message.id,
                                      board_words={"lines": shown_lines, "through": shown, "own": own})
        return True

    async def _end_of_game_files(self, info: TableInfo, names: list[str], locale: Any) -> list[discord.File]:
        """At the end, everything hidden is shown: each seat's hand image, and the whole log as text."""
        files: list[discord.File] = []
        try:
            for seat, view in (await self.tables.revealed_views(info.row.id)).items():
                png = await self.bot.renderer.hand(view, names, i18n.lang(locale), priority=BOARD)
                files.append(image_file(png, f"hand-{seat + 1}.png",
                                  i18n.t(locale, "{name}'s hand at the end of the game", name=names[seat])))
        except Exception:
            log.exception("rendering the revealed hands of game %s failed", info.row.id)
        report = texts.final_report(info, names, await self.tables.log(info.row.id), locale=locale)
        files.append(discord.File(io.BytesIO(report.encode()), filename=f"game-{info.row.id}-log.txt",
                                  description=i18n.t(locale, "The whole move log and the final standings")))
        return files[-9:] if len(files) > 9 else files  # Discord allows 10 files; the board is one

    async def post_news(self, info: TableInfo, line: Msg) -> None:
        """A new board post that says `line` (a paused clock, a changed deadline) and pings nobody."""
        await self.post_board(info, [line.to_json()], None)

    def lobby(self, info: TableInfo) -> tuple[str, discord.ui.View | None, Any]:
        """The lobby message of a game as it is now: its text (in the server's language), its buttons
        (none once the game started or ended) and that language."""
        locale = self.places.locale(info.row.guild_id)
        view = lobby_view(info.row.id, rematch=info.rematch is not None) if info.row.status == "lobby" else None
        return texts.lobby_text(info, locale), view, locale

    async def refresh_lobby(self, game_id: int) -> None:
        """Edit the game's lobby message to show the game as it is now."""
        info = await self.tables.info(game_id)
        text, view, _ = self.lobby(info)
        if info.row.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
        try:
            await channel.get_partial_message(info.row.lobby_message_id).edit(
                content=text, view=view, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("lobby message of game %s not updated (%s)", game_id, error)

    async def update_board(self, game_id: int, line: Msg) -> None:
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
                locale = self.places.locale(row.guild_id)
                fresh = texts.board_parts(info, [], None, locale)[1]
                story = [c.content for c in _walk(message.components)
                         if isinstance(c, discord.TextDisplay) and c.id != TURN_TEXT_ID]
                if story:  # a layout post: keep what happened and the board, renew whose turn it is
                    view = board_post(info, locale, story[0], fresh, message.attachments)
                    await message.edit(view=view, allowed_mentions=NO_MENTIONS)
                    return
                kept = re.sub(r"^⏰ .*\n?", "", message.content, flags=re.MULTILINE)  # a classic post
                content = re.sub(r"^\*\*To act:\*\*.*$", lambda _: fresh, kept, flags=re.MULTILINE)
                await message.edit(content=content, allowed_mentions=NO_MENTIONS)
                return
            except discord.HTTPException as error:
                log.info("board of game %s not edited (%s); posting anew", game_id, error)
        await self.post_news(info, line)

    async def reopen_thread(self, thread_id: int) -> None:
        """A running game's thread was archived (inactivity): open it again while the game runs."""
        game_id = await self.tables.open_game_at(thread_id)
        if game_id is None or (await self.tables.info(game_id)).row.status != "running":
            return
        try:
            thread = await self.bot.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread) and not thread.locked:
                await thread.edit(archived=False, auto_archive_duration=10080)
        except discord.HTTPException as error:
            log.warning("thread of game %s stays archived (%s)", game_id, error)
