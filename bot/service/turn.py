"""A turn: a player's move, the AI moves it owes (ONE AI loop, for moves and timeouts alike), and the batch's one commit."""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import rating_store
from bot.ai_pool import level_of
from bot.db import DatabaseUnavailable
from bot.service.clocks import dms_of, synced_clocks
from bot.service.live import LiveGames
from bot.service.owed import batch_lines, board_owed, dms_owed, result_msgs, secret_parts, turn_begins
from bot.service.types import (
    DB_DOWN,
    MOVE_FAILED,
    MOVE_UNKNOWN,
    NOT_SEATED,
    STALE_MOVE,
    LiveGame,
    Outcome,
    Refused,
    Repeated,
    not_your_turn,
)
from bot.store import PendingPost, RepeatedInteraction, SeatPrefs
from bot.words import engine_msg, lines_json
from rules.engine import Event, GameDefinition, GameState, IllegalMove, Move, ai_move
from rules.words import Msg

log = logging.getLogger("bot.tables")  # the service's log keeps its name (operators filter by it)

# Runaway guard for AI loops (an engine bug must not hang the bot).
_MAX_AI_MOVES_PER_CALL = 20_000


async def _apply(state: GameState, seat: int, move: Move | str) -> tuple[GameState, list[Event]]:
    """One engine move off the event loop: applied in a thread to a copy, which the caller makes the
    live state. Most moves take well under a millisecond, but a Ticket to Ride scoring picks the best
    ticket set exactly and can take seconds with a huge hand (bench/ttr_completion.py); in a thread the
    loop keeps answering every game meanwhile (its stalls stay within the GIL's switch interval), and
    readers outside the game's lock (autocomplete, /board) see the state before the move, never half
    of it. IllegalMove leaves `state` untouched, as the engine promises."""

    def work() -> tuple[GameState, list[Event]]:
        after = copy.deepcopy(state)
        return after, after.apply(seat, move)

    return await asyncio.to_thread(work)


@dataclass
class Batch:
    """The moves one service call applies before its single commit: a player's, timeouts', the AI's."""

    applied: list[tuple[int, str]] = field(default_factory=list)  # (seat, notation) in order
    events: list[Event] = field(default_factory=list)
    # Seats that stopped being awaited at some point of this batch: their next decision is a new
    # turn with a new clock. The others' turn goes on, decision after decision, on the same clock.
    paused: set[int] = field(default_factory=set)


class Turns(LiveGames):
    """Moves and what follows them: every batch ends in `_conclude` (AI seats play, then one commit)."""

    async def play(self, game_id: int, user_id: int, text: str, *, token: int | None = None,
                   interaction_id: int | None = None) -> Outcome:
        """Apply the caller's move (then any AI turns) and commit it; Refused with a reason otherwise.

        `token` is the seat's decision count when a picker was built: if the seat has decided since,
        the click is stale (this is what makes a double click apply once).
        `interaction_id`: the Discord interaction behind the move, stored with it; the same id again
        (a retry) raises Repeated and applies nothing. An unexpected error anywhere in the batch
        leaves the game as stored and raises Refused(MOVE_FAILED) (the traceback is logged).
        """
        for attempt in range(2):
            try:
                return await self._play(game_id, user_id, text, token, interaction_id)
            except Refused:
                raise
            except RepeatedInteraction:
                raise Repeated() from None
            except DatabaseUnavailable as lost:
                played = await self._after_lost_connection(game_id, text, interaction_id, lost)
                if played is not None:
                    return played
                # Nothing was written. A connection lost mid-move (a blip: a terminated backend, a
                # restart) is worth one more try, which reloads the game; not an outage the
                # database calls already waited out.
                if lost.waited or attempt:
                    raise Refused(DB_DOWN) from None
            except Exception:
                log.exception("game %s: the move %r failed; the game reloads from the store", game_id, text)
                raise Refused(MOVE_FAILED) from None
        raise AssertionError("unreachable")

    async def _after_lost_connection(self, game_id: int, text: str, interaction_id: int | None,
                                     lost: DatabaseUnavailable) -> Outcome | None:
        """The database connection failed during a move: the answer is what the store holds. Before
        the commit, nothing was written (None); during it, the stored interaction id tells whether
        the move was played (its Outcome, to answer it as played) or not (None); while the
        database cannot be asked, the player is told just that (Refused MOVE_UNKNOWN)."""
        log.warning("game %s: the move %r met a lost database connection (%s)", game_id, text, lost)
        if lost.committed is False or interaction_id is None:
            return None
        try:
            played = await self.store.played_move(game_id, interaction_id)
        except DatabaseUnavailable:
            raise Refused(MOVE_UNKNOWN) from None
        if played is None:
            return None
        seat, notation = played
        try:
            status = (await self._row(game_id)).status
        except DatabaseUnavailable:
            status = "running"  # the panel closes; the game's posts tell the rest
        return Outcome(game_id, applied=((seat, notation),), status=status)

    async def _play(self, game_id: int, user_id: int, text: str, token: int | None,
                    interaction_id: int | None) -> Outcome:
        async with self.lock(game_id, interaction_id) as held:
            # Before the turn checks: a retry of a move already made must not read "not your turn".
            if held.played:
                raise Repeated()
            live = await self._running(game_id, locked=True)
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refused(NOT_SEATED)
            state = live.state
            if seat not in state.to_act():
                raise not_your_turn(live)
            if token is not None and token != live.seat_moves[seat]:
                raise Refused(STALE_MOVE)
            was_to_act = state.to_act()
            previous_view = state.view(None)  # for the images a move calls for (round-end summary)
            try:
                move = state.parse_move(text)
                live.state, events = await _apply(state, seat, move)
            except IllegalMove as error:
                raise Refused(engine_msg(error.reason), live.names) from None
            live.seat_moves[seat] += 1
            prefs = live.prefs.get(seat)
            reset = [replace(prefs, timeouts=0)] if prefs is not None and prefs.timeouts else []
            for p in reset:  # a move of their own ends a player's run of timeouts
                live.prefs[seat] = p
            return await self._conclude(live, Batch([(seat, str(move))], list(events)),
                                        was_to_act=was_to_act, previous_view=previous_view, prefs=reset,
                                        interaction_id=interaction_id)

    async def resume(self, game_id: int) -> Outcome | None:
        """After a restart: let AI seats take the turns they owe (None if nothing was owed)."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            if not any(live.seats[s].is_ai for s in live.state.to_act()):
                return None
            return await self._conclude(live, Batch())

    async def _play_seats(self, live: LiveGame, batch: Batch, next_seat: Callable[[GameState], int | None],
                          decide: Callable[[GameState, int], Awaitable[Move | str]], limit: int) -> None:
        """THE AI loop, for AI seats and timed-out seats alike: while `next_seat` names a seat, it
        `decide`s that seat's move, which is applied and joins the batch (at most `limit` moves)."""
        for _ in range(limit):
            seat = next_seat(live.state)
            if seat is None:
                return
            move = await decide(live.state, seat)
            live.state, moved = await _apply(live.state, seat, move)
            batch.events += moved
            batch.applied.append((seat, str(move)))
            live.seat_moves[seat] += 1
            batch.paused |= set(range(len(live.seats))) - live.state.to_act()

    async def _conclude(
        self,
        live: LiveGame,
        batch: Batch,
        *,
        extra_lines: list[Msg] | None = None,
        was_to_act: frozenset[int] | None = None,
        previous_view: dict[str, Any] | None = None,
        seats_changed: bool = False,
        prefs: list[SeatPrefs] = (),
        dm_seats: tuple[int, ...] = (),
        starting: list[PendingPost] = (),
        interaction_id: int | None = None,
        opening: bool = False,
    ) -> Outcome:
        """Play AI seats until a human must act or the game ends, then commit everything at once.

        `previous_view` is the public view before the first move of the batch (taken here when the
        batch starts with AI moves); it rides in the board post so interlude images survive a restart.
        `batch.paused`: seats that were not awaited at some point of the moves already applied (a
        timed-out seat counts as one: its turn was played for it), so they start a new clock when next awaited.
        `dm_seats`: seats taken back or over, owed a welcome DM; `starting`: posts of a start that
        commit with this batch.
        """
        state = live.state
        if previous_view is None and not batch.applied:
            previous_view = state.view(None)
        was_to_act = was_to_act if was_to_act is not None else state.to_act()
        first_n = state.moves_applied - len(batch.applied)
        batch.paused |= set(range(len(live.seats))) - state.to_act()
        await self._play_seats(live, batch, lambda now: min((s for s in now.to_act() if live.seats[s].is_ai),
                                                            default=None),
                               lambda now, seat: self._think(live.definition, now, seat, live.seats[seat].ai_kind),
                               _MAX_AI_MOVES_PER_CALL)
        state, paused = live.state, batch.paused
        public_lines, private_lines = batch_lines(batch.events, extra_lines or ())
        humans = [s.seat for s in live.seats if not s.is_ai]
        after = secret_parts(state, humans)
        new_turn = turn_begins(state.to_act(), was_to_act, paused, opening)
        dms = dms_owed(humans=humans, choices={s: dms_of(live, s) for s in humans}, news=live.dm_news,
                       private_lines=private_lines, new_turn=new_turn, movers=[s for s, _ in batch.applied],
                       secrets_after=after, sent=live.dm_sent, over=state.is_over(), welcome=dm_seats,
                       at=state.moves_applied)
        live.dm_news, live.dm_sent = dms.news, dms.sent
        result = state.result()
        status = "over" if state.is_over() else "running"
        board = board_owed(summary=live.post_summary, lines=live.post_lines, public_lines=public_lines,
                           moved=bool(batch.applied), extra_lines=bool(extra_lines), opening=opening,
                           over=state.is_over(), new_turn=new_turn, previous_view=previous_view,
                           result=None if result is None else lines_json(result_msgs(result)))
        live.post_summary, live.post_lines = board.summary, board.lines
        posts = [*([] if board.board is None else [PendingPost("board", None, board.board)]), *dms.posts]
        clocks = synced_clocks(live, self.now(), turn_goes_on=set(state.to_act()) - paused)
        await self._commit(
            live, first_n, batch.applied, [*starting, *posts],
            status=status, result=None if result is None else result.to_json(),
            # Clocks as stored already (a decision inside a turn, a game without a timer) are
            # not written again: the copy matches the store under the game's lock.
            clocks=None if clocks == live.stored_clocks else list(clocks.values()),
            seats=live.seats if seats_changed else None, prefs=list(prefs),
            to_act=state.to_act(), interaction_id=interaction_id,
            post_words={"summary": live.post_summary, "lines": live.post_lines,
                        "news": {str(s): lines for s, lines in live.dm_news.items()}},
        )
        live.clocks, live.stored_clocks = clocks, dict(clocks)
        if status != "running":
            self._forget(live.row)
            if status == "over":
                await self._rate(live.row.id)
        else:
            self._clocks_changed(live.row.id)
        return Outcome(
            live.row.id,
            applied=tuple(batch.applied),
            public_lines=tuple(public_lines),
            private_lines={s: tuple(v) for s, v in private_lines.items()},
            to_act=tuple(sorted(state.to_act())),
            status=status,
            turn_goes_on=frozenset(state.to_act()) - paused - set(new_turn),
        )

    async def _commit(self, live: LiveGame, first_n: int, applied: list[tuple[int, str]],
                      posts: list[PendingPost], **fields: Any) -> None:
        """THE commit of a batch: its moves, the snapshot after them, the posts they owe (and the
        seats, clocks and preferences they changed) in one transaction. If it fails, the memory is
        ahead of the store: the copy is dropped and the next use reloads the truth."""
        try:
            await self.store.record_moves(live.row.id, first_n, list(applied), live.state.to_json(), posts, **fields)
        except BaseException:
            self._live.pop(live.row.id, None)
            raise

    async def _rate(self, game_id: int) -> None:
        """The finished game's rating update, right after its end commits (once: the ledger's key).
        A failure does not undo the end: the next sweep (rate_pending) applies the update."""
        try:
            await rating_store.apply_game(self.store, game_id)
        except Exception:
            log.exception("rating update of game %s failed; the next sweep applies it", game_id)

    async def rate_pending(self, ended_since: float | None = None) -> int:
        """Apply the rating updates of finished games that missed theirs (a crash between a game's end
        and its update, games finished before ratings existed), in the order they ended."""
        return await rating_store.apply_pending(self.store, ended_since)

    @staticmethod
    def _stand_in(live: LiveGame) -> str:
        """The level that plays for a player who timed out, conceded or stepped away: the table's."""
        return level_of(live.row.stand_in)

    async def _think(self, definition: GameDefinition, state: GameState, seat: int, kind: str | None) -> Move:
        """An AI's decision off the event loop, so other games keep their replies meanwhile: in the AI
        pool's worker process when it takes it (a searching level holds the GIL for seconds; a policy
        goes there too unless searches fill every worker: bot.ai_pool), else in a thread (Ticket to
        Ride's exact ticket search can take over half a second). The AI only reads the state; the move
        is applied back on the loop, under the game's lock."""
        level = level_of(kind)
        if self.ai_pool is not None and self.ai_pool.takes(definition, level):
            return await self.ai_pool.decide(definition, state, seat, level)
        return await asyncio.to_thread(ai_move, state, seat, definition.ai(level))

