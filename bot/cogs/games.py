"""The players' cog: slash commands and component handlers turn interactions into service calls, and
what the service says a game owes becomes channel posts, edits and DMs.

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
import time
from collections import defaultdict
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot import i18n, texts
from bot.cogs import NO_MENTIONS, mark_answered, reply
from bot.db import DatabaseUnavailable
from bot.store import OutboxRow
from bot.tables import STALE_MOVE, ClockSettings, Outcome, Refused, Repeated, TableInfo, Tables, result_lines
from bot.ui.components import ai_level_view, board_layout, lobby_view, picker_view, take_turn_view
from bot.ui.picker import autocomplete, menu
from render.kit import seat_colour
from rules.engine import AI_LEVELS

if TYPE_CHECKING:
    from bot.app import JunctionBot

log = logging.getLogger("bot.games")
T = TypeVar("T")
DM_CLOSED = 50007
INVALID_WEBHOOK_TOKEN = 50027  # an interaction token past its 15 minutes
PANEL_EXPIRED = ("This turn panel expired (Discord lets a panel change for 15 minutes after it opens). "
                 "Press Take turn for a fresh one.")
PANEL_LINES = 4  # lines of what a decision did, shown above the panel's next choice
PANEL_MOVES = 8  # decisions named in the panel's closing line
DMS_CLOSED = ("{user}, I cannot send you direct messages, so your hand in game #{id} cannot reach you by DM. Allow "
              "direct messages from server members (server menu → Privacy Settings), or use `/hand` here whenever "
              "you want to see it.")


# Lines of one earlier-moves post when a backlog does not fit the board post (room left for the
# header and for a translation that runs longer than the English).
BACKLOG_CHUNK = 1700
# Games whose owed posts are drawn and sent at once: enough to keep the render workers and
# Discord busy; more would only claim posts early, before the moves still coming could join them.
SEND_SLOTS = 4
# Seconds before the next try of a game's posts that Discord failed, after 1, 2, 3... failures in a row.
RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


def mentioning(*user_ids: int | None) -> discord.AllowedMentions:
    """Pings for exactly these users: a name like `<@id>` or `@everyone` in a post pings nobody."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in dict.fromkeys(user_ids) if u is not None])


def split_backlog(lines: list[str], budget: int, last_budget: int) -> list[list[str]]:
    """Lines in order, grouped into posts: the last group (the board post) within `last_budget`
    characters, each earlier one within `budget`. Nothing is dropped: a line longer than a post is
    cut into pieces. Always at least one group (maybe empty)."""
    def size(group: list[str]) -> int:
        return sum(len(line) + 3 for line in group)  # "• " and the newline

    pieces = [line[i:i + budget - 3] for line in lines for i in range(0, max(len(line), 1), budget - 3)]
    last: list[str] = []
    while pieces and size([pieces[-1], *last]) <= last_budget:
        last.insert(0, pieces.pop())
    groups: list[list[str]] = []
    for piece in pieces:
        if groups and size([*groups[-1], piece]) <= budget:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return [*groups, last]


def said_first(row: OutboxRow, before: list[str]) -> list[str]:
    """The lines of an owed board row that follow `before` (what the posts before it said): its
    `fresh` last lines (the rest sums up the turn before it); rows that only add their own lines
    (the deal, a cancel) say all of theirs; rows owed before `fresh` existed, what does not repeat
    the end of `before`."""
    lines = list(row.payload.get("lines", []))
    if "fresh" in row.payload:
        return lines[len(lines) - row.payload["fresh"]:] if row.payload["fresh"] else []
    if not row.payload.get("edit") and "ping" not in row.payload:
        return lines
    overlap = max((k for k in range(min(len(lines), len(before)) + 1) if before[len(before) - k:] == lines[:k]),
                  default=0)
    return lines[overlap:]


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, digit = divmod(number, 36)
        out = digits[digit] + out
        if not number:
            return out


def post_nonce(kind: str, batch: int, info: TableInfo) -> str:
    """The nonce stem of an outbox batch: stable across restarts, and salted with the game's creation
    time so a fresh database (whose row ids start again at 1) never reuses a recent nonce. Parts add
    at most 5 characters; Discord allows 25."""
    salt = int(info.row.created_at * 1000) % 36**6
    return f"j{kind}{_base36(batch)}.{_base36(salt)}"


def _is_moderator(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.manage_messages)


def accent_colour(info: TableInfo) -> int | None:
    """The board post's accent: the colour of the one seat to act (the winner's once the game is
    over), as its pieces have on the board; none while several seats choose at once."""
    if info.row.status == "over" and info.row.result and info.row.result.get("seats"):
        standings = info.row.result["seats"]
        first = min(line.get("rank", 1) for line in standings)
        seats = [line["seat"] for line in standings if line.get("rank", 1) == first]  # a shared win: no colour
    else:
        seats = list(info.to_act) if info.row.status == "running" else []
    if len(seats) != 1:
        return None
    red, green, blue = seat_colour(seats[0])
    return red << 16 | green << 8 | blue


def board_post(info: TableInfo, locale: Any, story: str, turn: str,
               files: list[discord.File] | list[discord.Attachment]) -> discord.ui.LayoutView:
    """The board post's layout around these (already localized) texts; images among `files` (new
    uploads, or the post's attachments when it keeps them) are shown in its gallery with their alt
    text, other files (the end-of-game log) as downloads."""
    images = [(f.filename, f.description or "") for f in files if f.filename.endswith(".png")]
    others = [f.filename for f in files if not f.filename.endswith(".png")]
    return i18n.localize_view(board_layout(info.row.id, info.row.status != "running", story=story, turn=turn,
                                           accent=accent_colour(info), images=images, files=others), locale)


def _png(data: bytes, name: str, description: str | None = None) -> discord.File:
    """An image attachment; `description` is its alt text for screen readers."""
    return discord.File(io.BytesIO(data), filename=name, description=description)


class GamesCog(commands.Cog):
    """Everything players touch. Handlers stay thin: rules live in Tables, texts in bot.texts."""

    def __init__(self, bot: JunctionBot) -> None:
        self.bot = bot
        self.tables: Tables = bot.tables
        self._flush_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._flushing: set[asyncio.Future] = set()
        self._last_edit: dict[int, float] = {}  # game -> monotonic time of its last board edit
        self._failures: dict[int, int] = {}  # game -> flushes in a row that left posts owed
        self._waiting: dict[int, asyncio.Future] = {}  # game -> its flush that has not claimed yet
        # Games sending at once; the others wait in line, oldest first (see _flush).
        self._send_slots = asyncio.Semaphore(SEND_SLOTS)

    # ------------------------------------------------------------------ replies

    async def _within(self, interaction: discord.Interaction, work: Awaitable[T], *, update: bool = False) -> T:
        """Run `work`; if it outlasts `defer_after` seconds, defer so Discord's 3 s window holds."""
        task = asyncio.ensure_future(work)
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.bot.defer_after)
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
    async def _update(interaction: discord.Interaction, text: str, view: discord.ui.View | None,
                      locale: Any = None, **kwargs: Any) -> None:
        """Replace the message a component sits on (the ephemeral picker, the lobby).

        `locale`: the language of a public message (the lobby: the server's); else the user's.
        `kwargs`: more of the edit (`attachments`)."""
        locale = locale if locale is not None else interaction.locale
        text = texts.clip(i18n.localize(locale, text))
        if view is not None:
            i18n.localize_view(view, locale)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view, allowed_mentions=NO_MENTIONS, **kwargs)
        else:
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS, **kwargs)
        mark_answered(interaction)

    async def _update_panel(self, interaction: discord.Interaction, game_id: int, text: str,
                            view: discord.ui.View | None, done: str = "", **kwargs: Any) -> None:
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
                await self._reply(interaction, "\n".join(filter(None, [done, PANEL_EXPIRED])),
                                  view=take_turn_view(game_id))

    # ------------------------------------------------------------------ posting owed work

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait (bounded) for posts being sent, so a shutdown does not cut a flush in half."""
        if self._flushing:
            await asyncio.wait(set(self._flushing), timeout=timeout)

    async def flush(self, game_id: int) -> None:
        """Send every post the store says this game owes (tracked, so close() can wait for it).

        A flush asked for while an earlier one of the same game still waits for its turn joins that
        one: it claims the game's owed posts only when its turn comes, so it sends these too, in the
        same post (a backlog collapses per game, issue 29)."""
        waiting = self._waiting.get(game_id)
        if waiting is not None and not waiting.done():
            await asyncio.shield(waiting)
            return
        task = asyncio.ensure_future(self._flush(game_id))
        self._waiting[game_id] = task
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)
        await task

    async def _flush(self, game_id: int) -> None:
        """Claim the game's owed posts (one process sends them) and send them.

        Games take turns through `_send_slots` (first come, first served): under load the game
        that has waited longest is sent first, and every game waiting meanwhile gathers its moves
        into one post instead of one post per move."""
        async with self._flush_locks[game_id]:
            # At most about one board edit per second per game: decisions made during the pause
            # are claimed with this flush and reach Discord as one edit.
            pause = self._last_edit.get(game_id, 0.0) + self.bot.edit_interval - time.monotonic()
            if pause > 0:
                await asyncio.sleep(pause)
            owed: list[OutboxRow] | None = None
            try:
                async with self._send_slots:
                    if self._waiting.get(game_id) is asyncio.current_task():
                        del self._waiting[game_id]  # from here on, a new flush is needed for newer posts
                    owed = await self.tables.claim_posts(game_id)
                    if owed is None:
                        # Another process is sending this game's posts; what it read may predate our
                        # commit: look again once it is likely done.
                        self._flush_later(game_id)
                        return
                    if not owed:
                        return
                    sent = await self._send_boards(game_id, owed)
                # The DMs after the slot: the next game's board post need not wait for this one's
                # hands to be drawn (the claim is still ours, so no other process sends them).
                sent = await self._send_private(game_id, owed) and sent
            finally:
                if owed:
                    await self.tables.release_posts(game_id)
        # Discord failed some (an outage): try again later, waiting longer each time, so the posts
        # arrive soon after it is back even if nobody in the game moves meanwhile.
        failures = 0 if sent else self._failures.get(game_id, 0) + 1
        self._failures.pop(game_id, None)
        if failures:
            self._failures[game_id] = failures
            self._flush_later(game_id, RETRY_DELAYS[min(failures, len(RETRY_DELAYS)) - 1])

    def _flush_later(self, game_id: int, delay: float = 1.0) -> None:
        async def flush_again() -> None:
            try:
                await self.flush(game_id)
            except DatabaseUnavailable as error:  # the posts stay owed: the shared upkeep sends them later
                log.warning("owed posts of game %s: the database is out of reach (%s)", game_id, error)

        def again() -> None:
            if not self.bot.is_closed():
                asyncio.ensure_future(flush_again())

        asyncio.get_running_loop().call_later(delay, again)

    @staticmethod
    def _batches(rows: list[OutboxRow]) -> list[tuple[int | None, list[OutboxRow]]]:
        """Owed rows grouped into posts: a batch an earlier attempt began (maybe cut off by a crash
        after Discord took it) is sent again as it was, under the same nonces, so Discord answers
        with the first message; the rows nobody tried yet form one new batch (None: its number is
        claimed just before it is sent, so while an earlier batch keeps failing, the rows owed
        meanwhile wait together instead of each making a post of its own)."""
        started: defaultdict[int, list[OutboxRow]] = defaultdict(list)
        fresh = []
        for row in rows:
            (started[row.batch] if row.batch is not None else fresh).append(row)
        batches: list[tuple[int | None, list[OutboxRow]]] = [*sorted(started.items())]
        if fresh:
            batches.append((None, fresh))
        return batches

    async def _claimed(self, batch: int | None, rows: list[OutboxRow]) -> int:
        """The batch number of rows about to be sent (numbered now if nobody tried them yet)."""
        return batch if batch is not None else await self.tables.store.claim_batch([r.id for r in rows])

    async def _send_boards(self, game_id: int, owed: list[OutboxRow]) -> bool:
        """The board posts owed, marking each done once sent; False if some stay owed (Discord
        failed them).

        Every step reads the game as stored at that moment: a post made earlier in this flush has
        moved the game's live post on, and an edit must land on that one, never an older post."""
        boards = [p for p in owed if p.kind == "board"]
        batches = self._batches(boards)
        sent = True
        for index, (batch, rows) in enumerate(batches):
            later = [r for _, more in batches[index + 1:] for r in more]
            if all(r.payload.get("edit") for r in rows) and any(not r.payload.get("edit") for r in later):
                # A new post follows, and its summary holds these lines: the edit is not worth sending.
                await self.tables.posts_done([p.id for p in rows])
                continue
            if not await self._send_board_batch(game_id, batch, rows):
                sent = False
                break  # later batches wait, so the channel reads in order
            await self.tables.posts_done([p.id for p in rows])
        if boards and (await self.tables.info(game_id)).row.status in ("over", "cancelled"):
            await self.refresh_lobby(game_id)  # the lobby message says how it ended
        return sent

    async def _send_private(self, game_id: int, owed: list[OutboxRow]) -> bool:
        """The DMs and reminders owed, marking each done once sent; False if some stay owed."""
        info = await self.tables.info(game_id)
        sent = True
        by_seat: dict[int, list] = defaultdict(list)
        for post in owed:
            if post.kind == "dm" and post.seat is not None:
                by_seat[post.seat].append(post)
        for seat, seat_posts in sorted(by_seat.items()):
            resent = False
            for batch, posts in self._batches(seat_posts):
                lines = [line for p in posts for line in p.payload.get("lines", [])]
                welcome = any(p.payload.get("welcome") for p in posts)
                since = any(p.payload.get("since") for p in posts)
                in_words = all(p.payload.get("dms") == "off" for p in posts)
                if resent and not (lines or welcome or since):
                    # The DM sent again just now showed the hand as it is now: this one would
                    # repeat it word for word.
                    await self.tables.posts_done([p.id for p in posts])
                    continue
                batch = await self._claimed(batch, posts)
                if not await self._dm_view(info, seat, lines, welcome, since=since, nonce=post_nonce("d", batch, info),
                                           in_words=in_words):
                    sent = False
                    break
                resent = True
                await self.tables.posts_done([p.id for p in posts])
        reminders = [p for p in owed if p.kind == "remind"]
        if reminders and self.bot.clock is not None:  # turn reminders (bot/cogs/clock.py)
            await self.bot.clock.send_reminders(info, reminders)
        return sent

    async def _send_board_batch(self, game_id: int, batch: int | None, rows: list[OutboxRow]) -> bool:
        """The board rows of one outbox batch as ONE post, or as one edit of the game's live post.

        A row marked `edit` (a decision inside a turn, a simultaneous choice) updates the post that
        row follows; any other row starts a new post. When several are owed (a busy bot, an outage,
        a restart), they become one post with the newest board and every line since the last post
        the channel shows: the first new post's words (which sum up the turn before it, whose
        edits were never shown or are superseded) and then what each later row says for the first
        time. Only edits: one edit with the last row's words. Rendered once, from the game as it
        is now, so no older board ever follows a newer one. Edits are idempotent and a new post
        keeps its batch's nonce, so a retry after a crash neither loses nor doubles a post."""
        first_post = next((i for i, r in enumerate(rows) if not r.payload.get("edit")), None)
        result = next((p.payload["result"] for p in reversed(rows) if "result" in p.payload), None)
        # The view before the first move of the batch: interlude images compare it with now.
        previous = next((p.payload["previous_view"] for p in rows if "previous_view" in p.payload), None)
        info = await self.tables.info(game_id)  # the live post as stored now
        pings: list[int] | None
        if first_post is None:
            # The live post keeps what it shows (maybe a backlog of several posts) and adds what
            # each edit says first; rows it already shows (an edit made, then a crash before the
            # outbox heard of it) add nothing.
            shown = info.row.board_words
            lines = list(rows[-1].payload.get("lines", []))
            if shown is not None and info.row.board_message_id is not None:
                rest = [r for r in rows if r.id > shown.get("through", 0)]
                if not rest:
                    return True
                lines = list(shown.get("lines", []))
                for row in rest:
                    lines += said_first(row, lines)
            try:
                if await self._edit_board(info, lines, previous, through=rows[-1].id):
                    return True
            except discord.HTTPException as error:
                log.warning("board edit of game %s failed (%s); it stays owed", game_id, error)
                return False
            lines = list(rows[-1].payload.get("lines", []))
            pings = []  # the post is gone (or a round ended): post anew, still pinging nobody
        else:
            posted = rows[first_post:]
            lines = list(posted[0].payload.get("lines", []))
            for row in posted[1:]:
                lines += said_first(row, lines)
            starts = [r for r in posted if not r.payload.get("edit")]
            # Whose turn any of these posts began (the deal and other rows without `ping`: everyone
            # to act); _post_board keeps those still to act.
            pings = (None if any("ping" not in r.payload for r in starts)
                     else sorted({s for r in starts for s in r.payload["ping"]}))
        nonce = post_nonce("b", await self._claimed(batch, rows), info)
        return await self._post_board(info, lines, result, previous, nonce=nonce, ping_seats=pings,
                                      through=rows[-1].id)

    async def _edit_board(self, info: TableInfo, lines: list[str], previous: dict[str, Any] | None,
                          through: int) -> bool:
        """Update the current board post in place (no ping) to show `lines`, the owed rows up to
        `through` included; False when it must be posted anew (no post yet, deleted, or the moves
        ended a round: a round end keeps its own post)."""
        message_id = info.row.board_message_id
        if message_id is None:
            return False
        locale = self.place_locale(info.row.guild_id)
        lang = i18n.lang(locale)
        files: list[discord.File] = []
        try:
            view, names = await self.tables.public_view(info.row.id)
            if previous is not None and await self.bot.renderer.interludes(previous, view, names, lang):
                return False
            alt = i18n.localize(locale, await self.bot.renderer.describe(view, names))
            files.append(_png(await self.bot.renderer.board(view, names, lang), "board.png", alt))
        except Exception:
            log.exception("rendering the board of game %s failed", info.row.id)
        story, turn = texts.board_parts(info, lines, None)
        view = board_post(info, locale, texts.clip(i18n.localize(locale, story)), i18n.localize(locale, turn), files)
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
            self._last_edit[info.row.id] = time.monotonic()
        await self.tables.set_message(info.row.id, board_words={"lines": lines, "through": through})
        return True

    async def _post_board(self, info: TableInfo, lines: list[str], result: list[str] | None,
                          previous: dict[str, Any] | None = None, nonce: str | None = None,
                          ping_seats: list[int] | None = None, through: int | None = None) -> bool:
        """The board post of a batch; its earlier lines first in posts of their own if they do not fit.
        `through`: the last owed row it shows (None: no row, e.g. news of the clock).

        `nonce` (from the batch, stable across restarts) makes every message of the post idempotent:
        Discord returns the message it already made for a nonce instead of posting it twice."""
        channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
        files: list[discord.File] = []
        interludes: list[discord.File] = []
        over = info.row.status != "running"
        locale = self.place_locale(info.row.guild_id)
        lang = i18n.lang(locale)
        if info.row.status in ("running", "over"):
            view, names = await self.tables.public_view(info.row.id)
            try:
                alt = i18n.localize(locale, await self.bot.renderer.describe(view, names))
                files.append(_png(await self.bot.renderer.board(view, names, lang), "board.png", alt))
                if previous is not None:
                    summary = (i18n.t(locale, "What the last move ended (e.g. a round).") + " " + alt)[:1000]
                    interludes = [_png(png, f"interlude-{i + 1}.png", summary) for i, png
                                  in enumerate(await self.bot.renderer.interludes(previous, view, names, lang))]
            except Exception:
                log.exception("rendering the board of game %s failed", info.row.id)
            if info.row.status == "over":
                files += await self._end_of_game_files(info, names, locale)
        def word(english: str) -> str:  # a breakdown category or detail name, in the post's language
            return i18n.localize(locale, english)

        if result is not None and info.row.result:  # the standings again, their categories translated
            seats = info.row.result["seats"]
            labels = info.row.result.get("labels") or {}
            result = result_lines({"seats": seats, "labels": labels}, info.names, word) + result[len(seats):]
        # A long backlog (many moves owed at once) goes out in several posts, oldest lines first,
        # never cut: the board post keeps the newest lines that fit beside its header and standings.
        *earlier, lines = split_backlog(lines, BACKLOG_CHUNK,
                                        texts.MAX_CONTENT - len(texts.board_text(info, [], result)) - 300)
        story, turn = texts.board_parts(info, lines, result)
        if info.row.status == "over" and result is not None:
            # The hidden details the engine's result reveals, in the post itself when they fit.
            revealed = texts.revealed_lines(info.row.result, info.names, word=word)
            if revealed and len(story) + len("\n".join(revealed)) + 1 <= texts.MAX_CONTENT:
                story, turn = texts.board_parts(info, lines, result + revealed)
        story, turn = texts.clip(i18n.localize(locale, story)), i18n.localize(locale, turn)
        # Only the seats whose turn it is are pinged, whatever a player's name looks like.
        # `ping_seats`: the seats whose turn begins with this post (None: every seat to act).
        ping_seats = list(info.to_act) if ping_seats is None else [s for s in ping_seats if s in info.to_act]
        pings = mentioning(*(info.seats[s].user_id for s in ping_seats)) if not over else NO_MENTIONS

        def part(key: str) -> dict[str, Any]:
            return {"nonce": f"{nonce}.{key}"} if nonce else {}

        try:
            for index, chunk in enumerate(earlier):
                head = i18n.t(None, "**{title}** · game #{id} · earlier moves ({part}/{parts})",
                              title=info.definition.title, id=info.row.id, part=index + 1, parts=len(earlier))
                await channel.send(texts.clip(i18n.localize(locale, "\n".join([head, *(f"• {line}" for line in chunk)]))),
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
                    view=board_post(info, locale, texts.clip(story + "\n" + i18n.localize(locale, texts.MISSING_ATTACH),
                                                             texts.MAX_LAYOUT_TEXT - len(turn)), turn, []),
                    allowed_mentions=pings, **part("t"))
            except discord.HTTPException as again:
                log.warning("board post of game %s failed (%s); it stays owed", info.row.id, again)
                return False
        except discord.HTTPException as error:
            log.warning("board post of game %s failed (%s); it stays owed", info.row.id, error)
            return False
        # What the post shows, for the edits that follow it (those of rows after `through`).
        shown = through if through is not None else (info.row.board_words or {}).get("through", 0)
        await self.tables.set_message(info.row.id, board_message_id=message.id,
                                      board_words={"lines": lines, "through": shown})
        return True

    async def _end_of_game_files(self, info: TableInfo, names: list[str], locale: Any) -> list[discord.File]:
        """At the end, everything hidden is shown: each seat's hand image, and the whole log as text."""
        files: list[discord.File] = []
        try:
            for seat, view in (await self.tables.revealed_views(info.row.id)).items():
                png = await self.bot.renderer.hand(view, names, i18n.lang(locale))
                files.append(_png(png, f"hand-{seat + 1}.png",
                                  i18n.t(locale, "{name}'s hand at the end of the game", name=names[seat])))
        except Exception:
            log.exception("rendering the revealed hands of game %s failed", info.row.id)
        report = i18n.localize(locale, texts.final_report(info, names, await self.tables.log(info.row.id),
                                                           word=lambda english: i18n.localize(locale, english)))
        files.append(discord.File(io.BytesIO(report.encode()), filename=f"game-{info.row.id}-log.txt",
                                  description=i18n.t(locale, "The whole move log and the final standings")))
        return files[-9:] if len(files) > 9 else files  # Discord allows 10 files; the board is one

    async def _dm_view(self, info: TableInfo, seat: int, lines: list[str], welcome: bool,
                       since: bool = False, nonce: str | None = None, in_words: bool = False) -> bool:
        """DM a player their private view. Closed DMs: tell the channel once, without secrets.

        Private lines that do not fit one DM come first in DMs of their own; `nonce` as in _post_board.
        `in_words`: the welcome of a player who chose no DMs, with no hand: where to find it."""
        user_id = info.seats[seat].user_id
        if user_id is None:
            return True
        title, game_id = info.definition.title, info.row.id
        if in_words:
            head = (f"Welcome to **{title}** (game #{game_id} in <#{info.row.place_id}>). You chose no DMs: "
                    "`/hand` or **My hand** under the board shows your hand; `/clock dms` changes this.")
        elif welcome:
            head = (f"Welcome to **{title}** (game #{game_id} in <#{info.row.place_id}>). Your private hand comes "
                    "here when your turn begins; `/hand` shows it too.")
        else:
            head = f"**{title}** · game #{game_id} · your hand"
        locale = self.bot.user_locales.get(user_id)  # the language of their last command
        kwargs: dict[str, Any] = {}
        if not in_words:
            try:
                _, view, names = await self.tables.private_view(game_id, user_id)
                kwargs["file"] = _png(await self.bot.renderer.hand(view, names, i18n.lang(locale)), "hand.png")
            except Refused:
                return True
            except Exception:
                log.exception("rendering the hand of game %s seat %s failed", game_id, seat)
        since_lines: list[str] = []
        if since and self.bot.clock is not None:  # "since your last turn": the moves and a strip image
            since_lines, strip = await self.bot.clock.since_parts(info, user_id, locale)
            kwargs["files"] = [f for f in (kwargs.pop("file", None), strip) if f is not None]
        *earlier, lines = split_backlog(lines, BACKLOG_CHUNK,
                                        texts.MAX_CONTENT - len(head) - len("\n".join(since_lines)) - 300)
        text = texts.clip(i18n.localize(locale, "\n".join([head, *(f"• {line}" for line in lines), *since_lines])))
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            for index, chunk in enumerate(earlier):
                await dm.send(texts.clip(i18n.localize(locale, "\n".join([head, *(f"• {line}" for line in chunk)]))),
                              allowed_mentions=NO_MENTIONS, **({"nonce": f"{nonce}.e{index}"} if nonce else {}))
            await dm.send(text, allowed_mentions=NO_MENTIONS, **({"nonce": f"{nonce}.h"} if nonce else {}), **kwargs)
        except discord.Forbidden as error:
            if error.code == DM_CLOSED and await self.tables.note_dm_closed(game_id, user_id):
                channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
                await channel.send(
                    i18n.t(self.place_locale(info.row.guild_id), DMS_CLOSED, user=f"<@{user_id}>", id=game_id),
                    allowed_mentions=mentioning(user_id))
            return True  # owed no longer: /hand serves this player
        except discord.HTTPException as error:
            log.warning("DM to seat %s of game %s failed (%s); it stays owed", seat, game_id, error)
            return False
        return True

    async def post_news(self, info: TableInfo, line: str) -> None:
        """A new board post that says `line` (a paused clock, a changed deadline) and pings nobody."""
        await self._post_board(info, [line], None)

    def place_locale(self, guild_id: int | None) -> Any:
        """The language of public posts: the one an admin chose, else the server's Discord locale."""
        chosen = self.bot.admin.post_language(guild_id) if self.bot.admin is not None else None
        if chosen:
            return chosen
        guild = self.bot.get_guild(guild_id) if guild_id else None
        return guild.preferred_locale if guild is not None else None

    async def refresh_lobby(self, game_id: int, interaction: discord.Interaction | None = None) -> None:
        info = await self.tables.info(game_id)
        view = lobby_view(game_id) if info.row.status == "lobby" else None
        locale = self.place_locale(info.row.guild_id)
        text = i18n.localize(locale, texts.lobby_text(info))
        if interaction is not None:
            await self._update(interaction, text, view, locale)
            return
        if info.row.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(info.row.place_id, guild_id=info.row.guild_id)
        try:
            await channel.get_partial_message(info.row.lobby_message_id).edit(
                content=text, view=view, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException as error:
            log.warning("lobby message of game %s not updated (%s)", game_id, error)

    async def resume_all(self) -> None:
        """After a (re)start: AI turns the running games owe, then every post still owed."""
        for game_id in await self.tables.load():
            try:
                await self.tables.resume(game_id)
            except Exception:
                log.exception("resuming game %s failed", game_id)
        for game_id in sorted({p.game_id for p in await self.tables.owed_posts()}):
            try:
                await self.flush(game_id)
            except Exception:
                log.exception("owed posts of game %s failed", game_id)

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
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        mine = outcome.applied[0][1]
        if picker:
            # Built within Discord's 3 s (deferred if slower), sent after: only one of them answers.
            text, view, files = await self._within(interaction, self._panel_next(interaction, game_id, outcome),
                                                   update=True)
            await self._update_panel(interaction, game_id, text, view, done=f"You played `{mine}`.",
                                     attachments=files)
        else:
            await self._reply(interaction, f"You played `{mine}`.")
        await self.flush(outcome.game_id)

    async def _panel_next(self, interaction: discord.Interaction, game_id: int,
                          outcome: Outcome) -> tuple[str, discord.ui.View | None, list[discord.File]]:
        """After a decision made on the turn panel, what the panel becomes: the next decision of the
        same turn (what the decision did, the board as it is now, the menu from the top), or, when
        the turn passed, one line naming the turn's decisions and no components."""
        seat, mine = outcome.applied[0]
        info = await self.tables.info(game_id)
        if outcome.status == "running" and seat in outcome.turn_goes_on:
            try:
                _, token, moves, shortcuts = await self.tables.turn_choices(game_id, interaction.user.id)
            except Refused:
                moves = []
            if moves:
                current = menu(moves, shortcuts=shortcuts)
                did = [*outcome.private_lines.get(seat, ()), *outcome.public_lines][-PANEL_LINES:]
                text = "\n".join([f"You played `{mine}`.", *(f"• {line}" for line in did),
                                   self._picker_text(info, current)])
                files = await self._panel_board(game_id, interaction.locale)
                return text, picker_view(game_id, token, current, moves), files
        decisions = await self._turn_decisions(game_id, seat, len(outcome.applied) - 1)
        shown = ", ".join(f"`{m}`" for m in decisions[-PANEL_MOVES:])
        more = "…, " if len(decisions) > PANEL_MOVES else ""
        summary = (f"You played `{mine}`." if decisions in ([], [mine]) else i18n.t(
            None, "Your turn in **{title}** (game #{id}) is over: {moves}.",
            title=info.definition.title, id=game_id, moves=more + shown))
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
            alt = i18n.localize(locale, await self.bot.renderer.describe(view, names))
            return [_png(await self.bot.renderer.board(view, names, i18n.lang(locale)), "board.png", alt)]
        except Exception:
            log.exception("rendering the board of game %s for a turn panel failed", game_id)
            return []

    async def start_game(self, interaction: discord.Interaction, game_id: int, from_lobby: bool) -> None:
        try:
            await self._within(interaction, self.tables.start(game_id, interaction.user.id,
                                                              admin=_is_moderator(interaction)), update=from_lobby)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        if from_lobby:
            await self.refresh_lobby(game_id, interaction)
        else:
            await self._reply(interaction, "The game begins.")
            await self.refresh_lobby(game_id)
        await self.flush(game_id)

    # ------------------------------------------------------------------ component handlers

    async def on_lobby_button(self, interaction: discord.Interaction, game_id: int, action: str) -> None:
        user = interaction.user
        if action == "start":
            await self.start_game(interaction, game_id, from_lobby=True)
            return
        try:
            if action == "join":
                await self.tables.join(game_id, user.id, user.display_name)
            elif action == "leave":
                result = await self.tables.leave(game_id, user.id)
                if isinstance(result, Outcome):
                    await self._reply(interaction, "You left; the AI plays your seat.")
                    await self.flush(game_id)
                    return
            elif action == "ai":
                # The level is a second, private choice: the lobby stays one row of buttons. Who may not
                # add an AI hears why now, not after choosing a level.
                await self.tables.check_add_ai(game_id, user.id)
                await self._reply(interaction, f"Which AI joins game #{game_id}?", view=ai_level_view(game_id))
                return
            elif action == "cancel":
                await self.tables.cancel(game_id, user.id, admin=_is_moderator(interaction))
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        await self.refresh_lobby(game_id, interaction)

    async def on_add_ai(self, interaction: discord.Interaction, game_id: int, level: str) -> None:
        try:
            info = await self.tables.add_ai(game_id, interaction.user.id, level)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        await self._update(interaction, f"{info.seats[-1].name} ({level}) takes a seat.", None)
        await self.refresh_lobby(game_id)

    async def on_take_turn(self, interaction: discord.Interaction, game_id: int) -> None:
        try:
            _, token, moves, shortcuts = await self.tables.turn_choices(game_id, interaction.user.id)
            info = await self.tables.info(game_id)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        current = menu(moves, shortcuts=shortcuts)
        await self._reply(interaction, self._picker_text(info, current), view=picker_view(game_id, token, current, moves))

    @staticmethod
    def _picker_text(info: TableInfo, current) -> str:
        text = f"Your move in **{info.definition.title}** (game #{info.row.id}): {current.total} to choose from."
        if current.pages > 1:
            text += f" Page {current.page + 1} of {current.pages}."
        return text

    async def on_pick(self, interaction: discord.Interaction, game_id: int, token: int, value: str) -> None:
        if value.startswith("m:"):
            await self.play_move(interaction, game_id, value[2:], token, picker=True)
        elif value.startswith("g:"):
            await self.on_picker_page(interaction, game_id, token, value[2:], 0)
        else:
            await self._reply(interaction, STALE_MOVE)

    async def on_picker_page(self, interaction: discord.Interaction, game_id: int, token: int, prefix: str,
                             page: int) -> None:
        try:
            _, current_token, moves, shortcuts = await self.tables.turn_choices(game_id, interaction.user.id)
            info = await self.tables.info(game_id)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        if current_token != token:
            await self._reply(interaction, STALE_MOVE)
            return
        current = menu(moves, prefix, page, shortcuts=shortcuts)
        await self._update_panel(interaction, game_id, self._picker_text(info, current),
                                 picker_view(game_id, token, current, moves))

    async def on_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            _, view, names = await self.tables.private_view(game_id, interaction.user.id)
            info = await self.tables.info(game_id)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        png = await self.bot.renderer.hand(view, names, i18n.lang(interaction.locale))
        await self._reply(interaction, f"Your hand in **{info.definition.title}** (game #{game_id}).",
                          file=_png(png, "hand.png"))

    async def show_board(self, interaction: discord.Interaction, game_id: int, as_text: bool = False) -> None:
        """The public board (image with alt text), or with `as_text` its description in words only."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            view, names = await self.tables.public_view(game_id)
            info = await self.tables.info(game_id)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        alt = i18n.localize(interaction.locale, await self.bot.renderer.describe(view, names))
        result = None
        if info.row.result:
            result = [f"{info.seats[r['seat']].name}: {r['score']}" for r in info.row.result["seats"]]
        if as_text:
            await self._reply(interaction, texts.clip(texts.board_text(info, [], result) + "\n" + alt))
            return
        png = await self.bot.renderer.board(view, names, i18n.lang(interaction.locale))
        await self._reply(interaction, texts.board_text(info, [], result), file=_png(png, "board.png", alt))

    async def post_replay(self, interaction: discord.Interaction, game_id: int) -> None:
        """Post an animated GIF of the game so far, replayed from the stored log (public views only)."""
        from render.replay import replay_views

        await interaction.response.defer(thinking=True)
        try:
            info = await self.tables.info(game_id)
            if info.row.status in ("lobby", "cancelled") and not info.moves:
                raise Refused("This game has no moves to replay.")
            moves = [(m.seat, m.notation) for m in await self.tables.store.moves(game_id)]
            if not moves:
                raise Refused("This game has no moves to replay.")
            views = await asyncio.to_thread(replay_views, info.definition, len(info.seats), info.row.options,
                                            info.row.seed, moves)
            gif = await self.bot.renderer.replay(views, info.names, i18n.lang(interaction.locale))
        except Refused as refused:
            await interaction.followup.send(i18n.localize(interaction.locale, refused.reason),
                                            allowed_mentions=NO_MENTIONS)
            return
        alt = i18n.localize(interaction.locale, (
            f"Replay of {info.definition.title} game #{game_id}: {len(views)} frames over {len(moves)} moves.\n"
            + await self.bot.renderer.describe(views[-1], info.names))).replace("\n", " ")
        await interaction.followup.send(
            i18n.t(interaction.locale, "**{title}** · game #{id} · replay of {n} moves ({frames} frames)",
                   title=info.definition.title, id=game_id, n=len(moves), frames=len(views)),
            file=discord.File(io.BytesIO(gif), filename=f"game-{game_id}-replay.gif", description=alt[:1000]),
            allowed_mentions=NO_MENTIONS)

    # ------------------------------------------------------------------ slash commands

    game = app_commands.Group(name="game", description="Open, join, start and manage a game in this channel",
                              guild_only=True)

    async def _here(self, interaction: discord.Interaction, *, user_fallback: bool = False) -> int:
        """The game a command means: this channel's, else (with `user_fallback`) the user's only game."""
        return await self.tables.find_game(interaction.channel_id, interaction.user.id if user_fallback else None)

    async def _game_or_reply(self, interaction: discord.Interaction, *, user_fallback: bool = False) -> int | None:
        """The game a command means, or None after telling the user why there is none."""
        try:
            return await self._here(interaction, user_fallback=user_fallback)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return None

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
                           stand_in="The AI level that plays for a player who times out or leaves")
    @app_commands.choices(seats=[app_commands.Choice(name="shuffled", value="shuffle"),
                                 app_commands.Choice(name="join order", value="join")],
                          timeout=[app_commands.Choice(name="the AI plays the turn", value="ai"),
                                   app_commands.Choice(name="skip the turn (where the rules allow)", value="skip"),
                                   app_commands.Choice(name="end the game with the standings", value="end")],
                          stand_in=[app_commands.Choice(name=level, value=level) for level in AI_LEVELS])
    async def new(self, interaction: discord.Interaction, game: str, thread: bool = False, options: str = "",
                  seats: str = "shuffle", timer: app_commands.Range[int, 0, 720] | None = None,
                  timeout: str | None = None, strikes: app_commands.Range[int, 1, 20] | None = None,
                  vacation: app_commands.Range[int, 0, 1440] | None = None, stand_in: str | None = None) -> None:
        tables = self.tables
        clock = {"turn_hours": timer, "timeout_action": timeout, "max_timeouts": strikes,
                 "vacation_hours": vacation, "stand_in": stand_in}  # unset ones: the server's defaults, else built-in
        try:
            definition = tables.definition(game)
            given = texts.parse_options(options)
            definition.resolve_options(given)
            ClockSettings.resolve(clock)
        except (Refused, ValueError) as error:
            await self._reply(interaction, getattr(error, "reason", str(error)))
            return
        if await tables.open_game_at(interaction.channel_id) is not None:
            await self._reply(interaction, "There is already an open game here.")
            return
        if self.bot.admin is not None:  # allowed channels, the server's thread rule, the bot's permissions
            refusal, thread = await self.bot.admin.new_game_policy(interaction, thread)
            if refusal:
                await self._reply(interaction, refusal)
                return
        channel = interaction.channel
        thread_id = None
        if thread:
            if not isinstance(channel, discord.TextChannel):
                await self._reply(interaction, "Threads can be opened in text channels only.")
                return
            try:
                made = await channel.create_thread(name=f"{definition.title} by {interaction.user.display_name}",
                                                   type=discord.ChannelType.public_thread,
                                                   auto_archive_duration=10080)
            except discord.HTTPException:
                await self._reply(interaction, "I cannot open a thread here; try without thread:true.")
                return
            thread_id = made.id
        try:
            info = await tables.create(game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                       thread_id=thread_id, user_id=interaction.user.id,
                                       user_name=interaction.user.display_name, options=given, seat_order=seats,
                                       clock=clock)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        place = self.bot.get_partial_messageable(info.row.place_id, guild_id=interaction.guild_id)
        locale = self.place_locale(interaction.guild_id)
        try:
            lobby = await place.send(i18n.localize(locale, texts.lobby_text(info)),
                                     view=i18n.localize_view(lobby_view(info.row.id), locale),
                                     allowed_mentions=NO_MENTIONS)
        except discord.Forbidden:
            # Never a silent failure: drop the lobby nobody can see and say which permission is missing.
            await tables.cancel(info.row.id, interaction.user.id)
            key = ("I cannot post in that thread: I need the **{permissions}** permission." if thread_id else
                   "I cannot post here: I need the **{permissions}** permission in this channel.")
            await self._reply(interaction, i18n.t(interaction.locale, key, permissions=(
                "Send Messages in Threads" if thread_id else "Send Messages")))
            return
        await tables.set_message(info.row.id, lobby_message_id=lobby.id)
        await self._reply(interaction, f"Lobby for {definition.title} opened in <#{thread_id}> (game #{info.row.id})."
                          if thread_id else f"Lobby for {definition.title} opened (game #{info.row.id}).")

    new.autocomplete("game")(_game_keys)

    async def _lobby_command(self, interaction: discord.Interaction, action: str) -> None:
        """/game join, leave and cancel: the same service calls as the lobby's buttons."""
        try:
            game_id = await self._here(interaction)
            user = interaction.user
            if action == "join":
                await self.tables.join(game_id, user.id, user.display_name)
                text = "You joined."
            elif action == "leave":
                result = await self.tables.leave(game_id, user.id)
                text = "You left; the AI plays your seat." if isinstance(result, Outcome) else "You left."
            else:
                await self.tables.cancel(game_id, user.id, admin=_is_moderator(interaction))
                text = "Game cancelled."
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        await self._reply(interaction, text)
        await self.refresh_lobby(game_id)
        await self.flush(game_id)

    @game.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_command(interaction, "join")

    @game.command(name="add-ai", description="Seat an AI player in this channel's lobby")
    @app_commands.describe(level="How well it plays (default normal)")
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level) for level in AI_LEVELS])
    async def add_ai(self, interaction: discord.Interaction, level: str = "normal") -> None:
        try:
            game_id = await self._here(interaction)
            info = await self.tables.add_ai(game_id, interaction.user.id, level)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        await self._reply(interaction, f"{info.seats[-1].name} ({level}) takes a seat.")
        await self.refresh_lobby(game_id)

    @game.command(name="leave", description="Leave the lobby, or hand your seat in a running game to the AI")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_command(interaction, "leave")

    @game.command(name="cancel", description="Cancel this channel's game (its creator or a moderator)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self._lobby_command(interaction, "cancel")

    @game.command(name="start", description="Start the game in this channel's lobby")
    async def start(self, interaction: discord.Interaction) -> None:
        game_id = await self._game_or_reply(interaction)
        if game_id is not None:
            await self.start_game(interaction, game_id, from_lobby=False)

    @game.command(name="status", description="Players, options and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        try:
            info = await self.tables.info(await self._here(interaction))
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        await self._reply(interaction, texts.status_text(info))

    @game.command(name="log", description="Every move of this channel's game so far")
    async def log_command(self, interaction: discord.Interaction) -> None:
        try:
            game_id = await self._here(interaction)
            lines = await self.tables.log(game_id, interaction.user.id)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        text = i18n.localize(interaction.locale, "\n".join(lines)) or "No moves yet."
        if len(text) <= texts.MAX_CONTENT - 10:
            await self._reply(interaction, f"```\n{text}\n```" if lines else text)
        else:
            await self._reply(interaction, f"{len(lines)} {'move' if len(lines) == 1 else 'moves'}:",
                              file=discord.File(io.BytesIO(text.encode()), filename=f"game-{game_id}-log.txt"))

    @game.command(name="replay", description="Post an animated replay (GIF) of this channel's game")
    async def replay(self, interaction: discord.Interaction) -> None:
        game_id = await self._game_or_reply(interaction)
        if game_id is not None:
            await self.post_replay(interaction, game_id)

    @game.command(name="list", description=_("This server's running games and lobbies, whose turn and since when"))
    async def list_games(self, interaction: discord.Interaction) -> None:
        await self.bot.admin.show_list(interaction, "guild")

    @app_commands.command(name="play", description="Make your move (start typing to see your legal moves)")
    @app_commands.describe(move="Your move, as offered")
    async def play(self, interaction: discord.Interaction, move: str) -> None:
        game_id = await self._game_or_reply(interaction, user_fallback=True)
        if game_id is not None:
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
        game_id = await self._game_or_reply(interaction, user_fallback=True)
        if game_id is not None:
            await self.on_hand(interaction, game_id)

    @app_commands.command(name="board", description="See the current board of this channel's game")
    @app_commands.describe(text="Describe the board in words instead of an image (screen readers)")
    async def board(self, interaction: discord.Interaction, text: bool = False) -> None:
        game_id = await self._game_or_reply(interaction, user_fallback=True)
        if game_id is not None:
            await self.show_board(interaction, game_id, as_text=text)

    @app_commands.command(name="rules", description="How a game plays and which table options it has")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        try:
            definition = self.tables.definition(game)
        except Refused as refused:
            await self._reply(interaction, refused.reason)
            return
        await self._reply(interaction, i18n.rules_text(interaction.locale, definition, texts.rules_text(definition)))

    rules.autocomplete("game")(_game_keys)
