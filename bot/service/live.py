"""Live games: each game's lock, the open games by place, and the running games in memory (loaded, checked, repaired)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from bot.ai_pool import AIPool
from bot.db import LockedGame
from bot.service.types import (
    CURRENT_GAME,
    DAMAGED,
    NOT_LOBBY,
    NOT_RUNNING,
    NOT_SEATED,
    LiveGame,
    Refused,
    TableInfo,
)
from bot.store import GameRow, Store
from rules.engine import GameDefinition, GameState, replay
from rules.words import N_, Msg

log = logging.getLogger("bot.tables")  # the service's log keeps its name (operators filter by it)

# Seconds a process may take to send a game's owed posts before another process may take them over
# (shared database only): longer than a slow board render and upload, short enough that the posts of
# a process that died go out soon after.
POST_LEASE = 60.0


class _GameLock:
    """A game's lock that drops the game's in-memory copy when the work under it fails.

    A batch applies the player's move, then AI moves or timeouts, to the live state and commits
    them once at the end; an error anywhere before that commit (an AI that raises, a store that
    cannot write, a cancelled task) would leave memory ahead of the store. Dropping the copy makes
    the next use reload the truth. A Refused is raised before anything changes: the copy stays.
    """

    def __init__(self, lock: asyncio.Lock, live: dict[int, Any], game_id: int, store: Store,
                 drop_if_stale: Callable[[int, int | None], None], interaction_id: int | None = None) -> None:
        self._lock, self._live, self._game_id = lock, live, game_id
        self._store, self._drop_if_stale = store, drop_if_stale
        self._interaction_id = interaction_id
        self._held: contextlib.AbstractAsyncContextManager[LockedGame | None] | None = None
        self.played = False  # whether `interaction_id` already led to a move (read under the lock)

    async def __aenter__(self) -> _GameLock:
        await self._lock.acquire()
        try:
            # On a shared database, the game's lock in every process (PostgreSQL advisory lock),
            # with the game's version and the interaction's check read under it in one round trip.
            self._held = self._store.game_lock(self._game_id, self._interaction_id)
            locked = await self._held.__aenter__()
        except BaseException:
            self._held = None
            self._lock.release()
            raise
        try:
            if locked is not None:
                self._drop_if_stale(self._game_id, locked.version)
                self.played = locked.played
            elif self._interaction_id is not None:
                self.played = await self._store.interaction_played(self._interaction_id)
        except BaseException as error:
            await self.__aexit__(type(error), error, error.__traceback__)
            raise
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        try:
            if error is not None and not isinstance(error, Refused):
                self._live.pop(self._game_id, None)
        finally:
            try:
                if self._held is not None:
                    await self._held.__aexit__(kind, error, trace)
            finally:
                self._held = None
                self._lock.release()


class LiveGames:
    """The games this process holds: the base every job of the service (bot.service.host.Tables) builds on.

    `now` is the clock (epoch seconds) behind every deadline; tests pass one they move by hand.
    `on_clocks(game_id, next_due | None)` is called whenever a game's clocks change (the scheduler).
    """

    def __init__(self, store: Store, games: Mapping[str, GameDefinition] | None = None,
                 now: Callable[[], float] | None = None, ai_pool: AIPool | None = None) -> None:
        if games is None:
            from rules.registry import GAMES

            games = GAMES
        self.store = store
        self.games = games
        self.now: Callable[[], float] = now or time.time
        store.now = self.now
        store.on_version = self._on_version
        self.ai_pool = ai_pool  # AI decisions it takes think there; None: every AI thinks in a thread
        self.on_clocks: Callable[[int, float | None], None] | None = None
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._index: dict[int, int] = {}  # place (channel or thread id) -> open game id
        self._live: dict[int, LiveGame] = {}  # running games in play, loaded on first use
        # Who claims owed posts (a lease per game, for processes sharing a database) and for how long.
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.post_lease = POST_LEASE

    # ------------------------------------------------------------------ index

    async def load(self) -> list[int]:
        """Load the index of open games (not their states); return the running games an AI may owe
        a move (only those need their state loaded now)."""
        rows = await self.store.games_with_status("lobby", "running")
        self._index = {row.place_id: row.id for row in rows}
        return await self.owing_ai()

    async def owing_ai(self) -> list[int]:
        """The running games whose turn is an AI seat's (after a restart: a move it owes; `load` gives
        them too, for a caller that loads the index and resumes at once)."""
        return await self.store.games_owing_ai()

    async def open_game_at(self, place_id: int) -> int | None:
        """The open game (lobby or running) of a channel or thread, if any. On a shared database the
        store decides: another process may have opened or ended it since this one looked."""
        if not self.store.shared:
            return self._index.get(place_id)
        row = await self.store.open_game_at(place_id)
        return None if row is None else row.id

    async def find_game(self, place_id: int | None, user_id: int | None = None) -> int:
        """The game a command means: the open (else the latest) game of this channel or thread, or,
        in DMs, the caller's newest running game."""
        if place_id is not None:
            if place_id in self._index and not self.store.shared:  # shared: other processes open games too
                return self._index[place_id]
            row = await self.store.latest_game_at(place_id)
            if row is not None:
                return row.id
        if user_id is not None:
            rows = await self.store.games_of_user(user_id, "running")
            if rows:
                return rows[0].id
        raise Refused(N_("There is no game here. Open one with /game new."))

    def lock(self, game_id: int, interaction_id: int | None = None) -> _GameLock:
        """Hold the game in this process and, on a shared database, in every other one (a copy that
        another process made stale meanwhile is dropped: the next use reloads it). With
        `interaction_id`, the lock's `played` says whether that interaction already led to a move."""
        return _GameLock(self._locks[game_id], self._live, game_id, self.store, self._drop_if_stale, interaction_id)

    def _drop_if_stale(self, game_id: int, version: int | None) -> None:
        live = self._live.get(game_id)
        if live is not None and live.version != version:
            del self._live[game_id]

    async def _check_fresh(self, game_id: int) -> None:
        """On a shared database, outside the lock: drop the game's copy if another process wrote
        the game since (a board post must show the game as it is, not as this process last saw it)."""
        if self.store.shared and game_id in self._live:
            self._drop_if_stale(game_id, await self.store.game_version(game_id))

    def _on_version(self, game_id: int, version: int) -> None:
        """The store wrote this game (in this process): the copy follows if it was current."""
        live = self._live.get(game_id)
        if live is not None:
            live.version = version if live.version == version - 1 else -1

    def loaded(self) -> frozenset[int]:
        """Ids of the game states held in memory (only games in play)."""
        return frozenset(self._live)

    def definition(self, game_key: str) -> GameDefinition:
        try:
            return self.games[game_key]
        except KeyError:
            raise Refused(Msg("Unknown game {name}.", name=repr(game_key))) from None

    def _refresh_row(self, game_id: int, row: GameRow | None) -> None:
        """Give the live copy (if any) the row as the store just wrote it (no read again)."""
        live = self._live.get(game_id)
        if live is not None and row is not None:
            live.row = row

    async def _lobby_details(self, info: TableInfo) -> None:
        """A hook: fill in what a lobby's message shows beyond its seats (bot.service.hygiene: its minimum
        reliability; bot.service.rematch: what it is a rematch of, its invitations). Only lobbies: a
        running game's reads never pass through it."""

    def _forget(self, row: GameRow) -> None:
        if self._index.get(row.place_id) == row.id:
            del self._index[row.place_id]
        self._live.pop(row.id, None)
        if self.on_clocks is not None:
            self.on_clocks(row.id, None)

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise Refused(N_("There is no such game."))
        CURRENT_GAME.set(row.game_key)
        return row

    async def _lobby(self, game_id: int) -> TableInfo:
        row = await self._row(game_id)
        if row.status != "lobby":
            raise Refused(NOT_LOBBY if row.status == "running" else N_("This game is finished."))
        return TableInfo(row, self.definition(row.game_key), await self.store.seats(game_id))

    async def _running(self, game_id: int, locked: bool = False) -> LiveGame:
        """The game in play. `locked`: called under the game's lock, which checked the copy already."""
        if not locked:
            await self._check_fresh(game_id)
        live = self._live.get(game_id)
        if live is not None:
            CURRENT_GAME.set(live.row.game_key)
            return live
        row = await self._row(game_id)
        if row.status != "running":
            raise Refused(NOT_RUNNING if row.status == "lobby" else N_("This game is finished."))
        return await self._load_live(game_id)

    async def _load_live(self, game_id: int) -> LiveGame:
        """Load a running game's state from its snapshot (lazily, on first use after start)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = await self._row(game_id)
        definition = self.definition(row.game_key)
        seats = await self.store.seats(game_id)
        moves = await self.store.moves(game_id)
        state = await self._stored_state(row, definition, len(seats), moves)
        seat_moves = [0] * len(seats)
        for move in moves:
            seat_moves[move.seat] += 1
        live = LiveGame(row, definition, seats, state, seat_moves, version=row.version)
        live.clocks = {c.seat: c for c in await self.store.clocks(game_id)}
        live.stored_clocks = dict(live.clocks)
        live.prefs = await self.store.seat_prefs(game_id)
        live.dm_sent = await self.store.dm_digests(game_id)
        words = await self.store.post_words(game_id)
        live.post_summary, live.post_lines = list(words["summary"]), list(words["lines"])
        live.dm_news = {int(s): list(lines) for s, lines in words.get("news", {}).items()}
        live.user_prefs = {s.user_id: await self.store.user_prefs(s.user_id) for s in seats if not s.is_ai}
        if row.status == "running":
            self._live[game_id] = live
        return live

    async def _stored_state(self, row: GameRow, definition: GameDefinition, num_seats: int,
                            moves: list[Any]) -> GameState:
        """The state after the logged moves: its snapshot, or, when the snapshot is missing,
        unreadable or out of step with the log, the log replayed (the log is the truth; the
        snapshot is rewritten). Refused(DAMAGED) if the log does not replay either."""
        try:
            snap = await self.store.snapshot(row.id)
            if snap is None:
                problem = "no snapshot"
            else:
                state = definition.from_json(snap[1])
                if snap[0] == len(moves) == state.moves_applied:
                    return state
                problem = f"snapshot after {snap[0]} moves, log has {len(moves)}"
        except Exception as error:
            problem = f"unreadable snapshot ({type(error).__name__}: {str(error)[:200]})"
        try:
            state = replay(definition, num_seats, row.options, row.seed, ((m.seat, m.notation) for m in moves))
        except Exception:
            log.exception("game %s: %s, and its move log does not replay", row.id, problem)
            raise Refused(Msg(DAMAGED, id=row.id)) from None
        if await self.store.replace_snapshot(row.id, len(moves), state.to_json()):
            log.warning("game %s: %s; rebuilt from its log of %d moves", row.id, problem, len(moves))
        else:
            # Read while another process moved (the log, then the snapshot, outside the game's
            # lock): nothing is damaged. This copy is older than the store; its version says so,
            # and the next use under the lock reloads it.
            log.info("game %s: %s, read while another process moved; nothing rewritten", row.id, problem)
        return state

    async def _final_or_live_state(self, game_id: int) -> tuple[GameState, list[str]]:
        await self._check_fresh(game_id)
        live = self._live.get(game_id)
        if live is not None:
            return live.state, live.names
        row = await self._row(game_id)
        if row.status == "lobby":
            raise Refused(NOT_RUNNING)
        live = await self._load_live(game_id)
        return live.state, live.names

    async def _seated_live(self, game_id: int, user_id: int) -> tuple[LiveGame, int]:
        live = await self._running(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise Refused(NOT_SEATED)
        return live, seat

    def _clocks_changed(self, game_id: int) -> None:
        """Tell the scheduler (if any) the game's next clock event, or None when it has none."""
        if self.on_clocks is not None:
            live = self._live.get(game_id)
            due = min((c.next_due for c in live.clocks.values()), default=None) if live else None
            self.on_clocks(game_id, due)
