"""The outbox sender: claims the posts, edits and DMs a game owes (bot.store's outbox) and sends them,
in order, exactly once, retrying what Discord failed."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.db import DatabaseUnavailable
from bot.delivery.dms import DirectMessages
from bot.delivery.posting import Places, post_nonce, recap, recap_marked, said_first
from bot.delivery.posts import BoardPosts
from bot.render_queue import BOARD, DM
from bot.store import OutboxRow
from bot.tables import Tables

if TYPE_CHECKING:
    from bot.app import JunctionBot

log = logging.getLogger("bot.games")
# Games whose owed posts are drawn and sent at once: enough to keep the render workers and Discord
# busy while each post waits on the event loop, Discord and the drawing. Under a burst of moves a
# post spends a second or more in those waits for 20 ms of drawing: with 4 slots the workers stood
# idle until the burst was over (issue 29). Many more would claim posts before the moves still
# coming could join them, and outrun Discord's 50 requests a second.
SEND_SLOTS = 16
# Seconds before the next try of a game's posts that Discord failed, after 1, 2, 3... failures in a row.
RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)


class _Slot:
    """A send slot held from the claim until Discord took the flush's last post: `give` lets the
    next game in line start while this one writes down what it sent (that write waits its turn
    behind the moves' commits; the slot need not)."""

    def __init__(self, slots: asyncio.Semaphore) -> None:
        self._slots = slots
        self._held = False

    async def __aenter__(self) -> _Slot:
        await self._slots.acquire()
        self._held = True
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.give()

    def give(self) -> None:
        if self._held:
            self._held = False
            self._slots.release()


class Delivery:
    """Outbox -> Discord for every game: `flush(game_id)` after a commit; `posts` and `dms` send."""

    def __init__(self, bot: JunctionBot, tables: Tables, places: Places) -> None:
        self.bot = bot
        self.tables = tables
        self.places = places
        self.posts = BoardPosts(bot, tables, places)
        self.dms = DirectMessages(bot, tables, places)
        self._flush_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._flushing: set[asyncio.Future] = set()
        self._failures: dict[int, int] = {}  # game -> flushes in a row that left posts owed
        self._waiting: dict[int, asyncio.Future] = {}  # game -> its flush that has not claimed yet
        # Games sending at once; the others wait in line, oldest first (see _flush).
        self._send_slots = asyncio.Semaphore(SEND_SLOTS)
        self._claim_locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._holds: dict[int, int] = {}  # game -> its senders holding the claim now (see _claim)
        self._dm_senders: dict[int, asyncio.Future] = {}  # game -> its DM sender (see _dm_sender)
        self._dms_again: set[int] = set()  # games whose DM sender must look again before it ends

    async def drain(self, timeout: float = 10.0) -> None:
        """Wait (bounded) for posts being sent, so a shutdown does not cut a flush in half."""
        if self._flushing:
            await asyncio.wait(set(self._flushing), timeout=timeout)

    async def flush(self, game_id: int) -> None:
        """Send every post the store says this game owes (tracked, so close() can wait for it).

        A flush asked for while an earlier one of the same game still waits for its turn joins that
        one: it claims the game's owed posts only when its turn comes, so it sends these too, in the
        same post (a backlog collapses per game, issue 29). The game's DMs follow on their own (see
        _send_dms); this returns once they are sent too."""
        waiting = self._waiting.get(game_id)
        if waiting is not None and not waiting.done():
            await asyncio.shield(waiting)
        else:
            task = asyncio.ensure_future(self._flush(game_id))
            self._waiting[game_id] = task
            self._track(task)
            await task
        dms = self._dm_senders.get(game_id)
        if dms is not None and not dms.done():
            await asyncio.shield(dms)

    def _track(self, task: asyncio.Future) -> None:
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def _flush(self, game_id: int) -> None:
        """Claim the game's owed posts (one process sends them) and send its board posts and reminders;
        its DMs are handed on to _send_dms.

        Games take turns through `_send_slots` (first come, first served): under load the game
        that has waited longest is sent first, and every game waiting meanwhile gathers its moves
        into one post instead of one post per move. From now until its board posts are made, the
        render worker draws no DM images (they may wait, and merge): the channel waits for these."""
        with self.bot.renderer.queue.ahead(BOARD):
            owed, sent = await self._flush_boards(game_id)
        if owed:
            if any(p.kind == "dm" for p in owed):
                self._send_dms(game_id)
            self._failed(game_id, sent)

    async def _flush_boards(self, game_id: int) -> tuple[list[OutboxRow] | None, bool]:
        """The board posts and reminders of _flush: (the rows claimed, None if another process holds
        them; whether every board post was sent)."""
        async with self._flush_locks[game_id]:
            # At most about one board edit per second per game: decisions made during the pause
            # are claimed with this flush and reach Discord as one edit.
            pause = self.posts.last_edit.get(game_id, 0.0) + self.bot.edit_interval - time.monotonic()
            if pause > 0:
                await asyncio.sleep(pause)
            owed: list[OutboxRow] | None = None
            try:
                async with _Slot(self._send_slots) as slot:
                    if self._waiting.get(game_id) is asyncio.current_task():
                        del self._waiting[game_id]  # from here on, a new flush is needed for newer posts
                    owed = await self._claim(game_id)
                    if owed is None:
                        # Another process is sending this game's posts; what it read may predate our
                        # commit: look again once it is likely done.
                        self._flush_later(game_id)
                        return None, True
                    if not owed:
                        return owed, True
                    sent = await self._send_boards(game_id, owed, slot.give)
                reminders = [p for p in owed if p.kind == "remind"]
                if reminders:  # turn reminders (no drawing: they need not wait for the DMs' turn)
                    await self.dms.send_reminders(await self.tables.info(game_id), reminders)
            finally:
                if owed is not None:
                    await self._let_go(game_id)
        return owed, sent

    def _failed(self, game_id: int, sent: bool) -> None:
        """Discord failed some posts (an outage): try again later, waiting longer each time, so the
        posts arrive soon after it is back even if nobody in the game moves meanwhile."""
        failures = 0 if sent else self._failures.get(game_id, 0) + 1
        self._failures.pop(game_id, None)
        if failures:
            self._failures[game_id] = failures
            self._flush_later(game_id, RETRY_DELAYS[min(failures, len(RETRY_DELAYS)) - 1])

    async def _claim(self, game_id: int) -> list[OutboxRow] | None:
        """The game's owed posts, claimed for this process (None: another one holds them). The board
        flush and the DM sender of a game may hold the claim at once: it is let go by the last."""
        async with self._claim_locks[game_id]:
            owed = await self.tables.claim_posts(game_id)
            if owed is not None:
                self._holds[game_id] = self._holds.get(game_id, 0) + 1
            return owed

    async def _let_go(self, game_id: int) -> None:
        async with self._claim_locks[game_id]:
            self._holds[game_id] -= 1
            if not self._holds[game_id]:
                del self._holds[game_id]
                await self.tables.release_posts(game_id)

    def _send_dms(self, game_id: int) -> None:
        """Start the game's DM sender, or tell the running one to look again when it is done."""
        sender = self._dm_senders.get(game_id)
        if sender is not None and not sender.done():
            self._dms_again.add(game_id)
            return
        sender = asyncio.ensure_future(self._dm_sender(game_id))
        self._dm_senders[game_id] = sender
        self._track(sender)

    async def _dm_sender(self, game_id: int) -> None:
        """A game's owed DMs, apart from its board posts (issue 29): they wait for their turn in the
        render line behind every board post (bot.render_queue; at most its `aging` seconds), and
        only then are read, so the DMs owed to one player meanwhile merge into one, drawn once. The
        board flush of the game goes on meanwhile: it sends no DM rows, this sends nothing else."""
        try:
            while True:
                self._dms_again.discard(game_id)
                await self.bot.renderer.queue.turn(DM)
                owed = await self._claim(game_id)
                if owed is None:
                    self._flush_later(game_id)  # another process sends them
                    return
                try:
                    sent = await self._send_private(game_id, owed)
                finally:
                    await self._let_go(game_id)
                if not sent:
                    self._failed(game_id, sent)
                    return
                if game_id not in self._dms_again:
                    return
        except DatabaseUnavailable as error:  # the DMs stay owed: the shared upkeep sends them later
            log.warning("owed DMs of game %s: the database is out of reach (%s)", game_id, error)
        except Exception:
            log.exception("owed DMs of game %s failed", game_id)
        finally:
            if self._dm_senders.get(game_id) is asyncio.current_task():
                del self._dm_senders[game_id]

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

    async def _send_boards(self, game_id: int, owed: list[OutboxRow], sent_all: Callable[[], None]) -> bool:
        """The board posts owed, marking each done once sent; False if some stay owed (Discord
        failed them). `sent_all` is called once Discord took the last (before its bookkeeping write).

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
            last = index == len(batches) - 1
            if not await self._send_board_batch(game_id, batch, rows, sent_all if last else None):
                sent = False
                break  # later batches wait, so the channel reads in order
        if boards and (await self.tables.info(game_id)).row.status in ("over", "cancelled"):
            await self.posts.refresh_lobby(game_id)  # the lobby message says how it ended
        return sent

    async def _send_private(self, game_id: int, owed: list[OutboxRow]) -> bool:
        """The DMs owed (not reminders: _flush sends those), marking each done once sent; False if
        some stay owed."""
        info = await self.tables.info(game_id)
        sent = True
        by_seat: dict[int, list] = defaultdict(list)
        for post in owed:
            if post.kind == "dm" and post.seat is not None:
                by_seat[post.seat].append(post)
        for seat, seat_posts in sorted(by_seat.items()):
            resent: str | None = None  # the hand the DM sent again just now showed (its digest)
            for batch, posts in self._batches(seat_posts):
                lines = [line for p in posts for line in p.payload.get("lines", [])]
                welcome = any(p.payload.get("welcome") for p in posts)
                since = any(p.payload.get("since") for p in posts)
                in_words = all(p.payload.get("dms") == "off" for p in posts)
                # What the DM shows: the game when its newest row was owed (None: rows owed before
                # rows said so show it as it is now).
                at = max((p.payload["at"] for p in posts if "at" in p.payload), default=None)
                digest = next((p.payload["digest"] for p in reversed(posts) if "digest" in p.payload), None)
                if resent is not None and not (lines or welcome or since) and (at is None or digest == resent):
                    # The DM sent again just now showed this very hand: this one would repeat it
                    # word for word.
                    await self.tables.posts_done([p.id for p in posts])
                    continue
                batch = await self._claimed(batch, posts)
                if not await self.dms.hand(info, seat, lines, welcome, since=since, nonce=post_nonce("d", batch, info),
                                           in_words=in_words, at=at):
                    sent = False
                    break
                resent = digest or ""
                await self.tables.posts_done([p.id for p in posts])
        return sent

    async def _send_board_batch(self, game_id: int, batch: int | None, rows: list[OutboxRow],
                                sent: Callable[[], None] | None = None) -> bool:
        """The board rows of one outbox batch as ONE post, or as one edit of the game's live post;
        True once sent and the rows marked done (in the write that stores the live post).

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
        done = [r.id for r in rows]
        pings: list[int] | None
        if first_post is None:
            # The live post keeps what it shows (maybe a backlog of several posts) and adds what
            # each edit says first; rows it already shows (an edit made, then a crash before the
            # outbox heard of it) add nothing.
            shown = info.row.board_words
            lines = list(rows[-1].payload.get("lines", []))
            seen = 0  # the lines the live post shows already (the first of `lines`)
            if shown is not None and info.row.board_message_id is not None:
                rest = [r for r in rows if r.id > shown.get("through", 0)]
                if not rest:
                    await self.tables.posts_done(done)
                    return True
                lines = list(shown.get("lines", []))
                seen = len(lines)
                for row in rest:
                    lines += said_first(row, lines)
            try:
                if await self.posts.edit_board(info, lines, previous, through=rows[-1].id, done=done, sent=sent):
                    return True
            except discord.HTTPException as error:
                log.warning("board edit of game %s failed (%s); it stays owed", game_id, error)
                return False
            # The post is gone (or a round ended): post anew what the edit would have shown, what
            # the live post showed marked as a recap, still pinging nobody.
            lines = [*(recap(line) for line in lines[:seen]), *lines[seen:]]
            own = shown.get("own") if seen else None  # as the live post had it: the rest is this turn's
            pings = []
        else:
            posted = rows[first_post:]
            # The turn before it, as far as the live post's edits showed it, is a recap.
            lines = recap_marked(list(posted[0].payload.get("lines", [])), posted[0].payload.get("fresh"),
                                 info.row.board_words if info.row.board_message_id is not None else None)
            own = len(lines)  # the lines up to the last new turn's (those after it, its decisions)
            for row in posted[1:]:
                lines += said_first(row, lines)
                if not row.payload.get("edit"):
                    own = len(lines)
            starts = [r for r in posted if not r.payload.get("edit")]
            # Whose turn any of these posts began (the deal and other rows without `ping`: everyone
            # to act); BoardPosts.post_board keeps those still to act.
            pings = (None if any("ping" not in r.payload for r in starts)
                     else sorted({s for r in starts for s in r.payload["ping"]}))
        nonce = post_nonce("b", await self._claimed(batch, rows), info)
        return await self.posts.post_board(info, lines, result, previous, nonce=nonce, ping_seats=pings,
                                           through=rows[-1].id, done=done, sent=sent, own=own)


    async def resume_all(self, retries: int = 0) -> None:
        """After a (re)start (the service has loaded its index of open games): AI turns the running
        games owe, then every post still owed.

        A database outage meanwhile (longer than the reads' own retries) is a warning, and the whole
        is tried again later (RETRY_DELAYS, then every minute) until it is done: nothing else would
        play an AI turn owed from before the start (issue 29). Done twice is harmless: a game that
        owes nothing is left alone."""
        if not await self._resume_all():
            self._resume_later(retries)

    async def _resume_all(self) -> bool:
        """resume_all's one try: False if the database was out of reach for some of it."""
        done = True
        try:
            games = await self.tables.owing_ai()
        except DatabaseUnavailable as error:
            log.warning("resuming the games: the database is out of reach (%s)", error)
            return False
        for game_id in games:
            try:
                await self.tables.resume(game_id)
            except DatabaseUnavailable as error:
                log.warning("AI turns owed by game %s: the database is out of reach (%s)", game_id, error)
                done = False
            except Exception:
                log.exception("resuming game %s failed", game_id)
        try:
            owing = sorted({p.game_id for p in await self.tables.owed_posts()})
        except DatabaseUnavailable as error:
            log.warning("resuming the owed posts: the database is out of reach (%s)", error)
            return False
        for game_id in owing:
            try:
                await self.flush(game_id)
            except DatabaseUnavailable as error:
                log.warning("owed posts of game %s: the database is out of reach (%s)", game_id, error)
                done = False
            except Exception:
                log.exception("owed posts of game %s failed", game_id)
        return done

    def _resume_later(self, retries: int) -> None:
        delay = RETRY_DELAYS[min(retries, len(RETRY_DELAYS) - 1)]
        log.warning("resuming the games again in %s s", delay)

        def again() -> None:
            if not self.bot.is_closed():
                self._track(asyncio.ensure_future(self.resume_all(retries + 1)))

        asyncio.get_running_loop().call_later(delay, again)
