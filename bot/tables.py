"""The game-host service: lobbies, seats, moves, AI turns and owed posts; no discord imports.

Every mutation of one game runs under that game's lock, so two clicks at once apply one move and
the other is refused with a reason. The lock is an asyncio.Lock, and on a shared database
(PostgreSQL, several processes) also the game's advisory lock there: a process that finds the game
written by another since it loaded it drops its copy and reloads the truth. A move, the snapshot after it and the posts it owes
(outbox rows) are committed in one transaction before anything is posted: the store is the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import json
import logging
import os
import random
import re
import secrets
import socket
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import rating_store
from bot.ai_pool import AIPool, level_of
from bot.db import DatabaseUnavailable, LockedGame
from bot.store import (
    DM_CHOICES,
    ClockRow,
    GameRow,
    OutboxRow,
    PendingPost,
    RepeatedInteraction,
    SeatPrefs,
    SeatRow,
    StaleGame,
    Store,
    StoreError,
    UserPrefs,
)
from rules.engine import (
    AI_LEVELS,
    DEFAULT_AI_LEVEL,
    Catalog,
    Event,
    GameDefinition,
    GameState,
    IllegalMove,
    Move,
    Result,
    SeatResult,
    ai_move,
    derived_seed,
    name_seats,
    rank_by,
    replay,
    seat_token,
)

# The game the current task is working on, set whenever the service touches one: the bot translates
# with that game's Japanese catalog, so the same English in two games never takes the other's words.
CURRENT_GAME: ContextVar[str | None] = ContextVar("junction_current_game", default=None)

NOT_YOUR_TURN = "It is not your turn."
STALE_MOVE = "That move is no longer possible."
NOT_SEATED = "You are not playing in this game."
NOT_RUNNING = "This game is not running."
NOT_LOBBY = "This game has already started."
MOVE_FAILED = "Something went wrong on our side and your move was not played; the game is as it was. Try again."
# The database cannot be reached (a restart, a failover, a network cut), and the work was not
# committed: the same line for every command and button.
DB_DOWN = "Junction can't reach its database right now; nothing was changed, try again in a minute."
# The connection was lost during a move's COMMIT and the database could not be asked since.
MOVE_UNKNOWN = ("Junction lost its database connection while saving your move and cannot tell yet whether it was"
                " played. Look at the game in a minute before you play again.")
# The same for any other change (a start, a seat, a setting).
SAVE_UNKNOWN = ("Junction lost its database connection while saving this and cannot tell yet whether it was"
                " saved. Look again in a minute before you try again.")
START_FAILED = "Something went wrong on our side and the game did not start. Try again."
DAMAGED = ("Game #{id} cannot be loaded: its saved state and its move log are both damaged."
           " A server admin can end it with /admin end.")

log = logging.getLogger("bot.tables")

# Keys every view carries (rules.engine.GameState.base_view): they change on every move, so
# they are not part of what makes a private view "changed".
_BASE_VIEW_KEYS = frozenset({"game", "seat", "num_seats", "to_act", "over", "moves_applied"})

# Seconds a process may take to send a game's owed posts before another process may take them over
# (shared database only): longer than a slow board render and upload, short enough that the posts of
# a process that died go out soon after.
POST_LEASE = 60.0

# Runaway guard for AI loops (an engine bug must not hang the bot).
_MAX_AI_MOVES_PER_CALL = 20_000


class Refused(Exception):
    """A request the service refuses; `reason` is one line for the player (seat names filled in)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Repeated(Refused):
    """An interaction that already led to a move (a client or gateway retry): nothing to answer."""

    def __init__(self) -> None:
        super().__init__("That move was already played.")


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


def _not_your_turn(live: _Live) -> str:
    """The refusal names whose decision it is ("it is Blue's decision", as the specs have it)."""
    waiting = ", ".join(live.names[s] for s in sorted(live.state.to_act()))
    return f"{NOT_YOUR_TURN} Waiting for {waiting}." if waiting else NOT_YOUR_TURN


@dataclass(frozen=True)
class Outcome:
    """What one service call changed, for the adapter to turn into posts (also kept in the outbox)."""

    game_id: int
    applied: tuple[tuple[int, str], ...] = ()  # (seat, notation) in order, AI moves included
    public_lines: tuple[str, ...] = ()
    private_lines: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    views_changed: frozenset[int] = frozenset()  # human seats whose private view changed
    to_act: tuple[int, ...] = ()
    status: str = "running"
    reminded: tuple[int, ...] = ()  # seats sent a turn reminder (clock events)
    # Seats awaited before and after these moves, never released in between: their turn goes on
    # (the next decision of the same turn; a turn panel stays open for it).
    turn_goes_on: frozenset[int] = frozenset()


@dataclass
class _Table:
    """A game's row, definition and seats, with who sits where (shared by TableInfo and _Live)."""

    row: GameRow
    definition: GameDefinition
    seats: list[SeatRow]

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass
class TableInfo(_Table):
    """A snapshot of one table for status lines and lobby messages."""

    to_act: tuple[int, ...] = ()
    moves: int = 0
    deadlines: dict[int, float] = field(default_factory=dict)  # seat -> turn deadline (epoch seconds)


@dataclass
class _Live(_Table):
    """A running game held in memory while in play."""

    state: GameState
    seat_moves: list[int]  # decisions made per seat: the staleness token of pickers
    # A digest of the private part each seat was last owed by DM (stored with the DM's outbox row,
    # loaded with the game: a restart does not send an unchanged hand again).
    dm_sent: dict[int, str] = field(default_factory=dict)
    clocks: dict[int, ClockRow] = field(default_factory=dict)  # as stored, or as about to be stored
    # The clocks as last written to (or read from) the store; None: unknown. A commit whose clocks
    # equal these does not write them again.
    stored_clocks: dict[int, ClockRow] | None = None
    prefs: dict[int, SeatPrefs] = field(default_factory=dict)  # as stored
    user_prefs: dict[int, UserPrefs] = field(default_factory=dict)  # quiet hours of the seated users
    version: int = -1  # the game's stored version this copy matches (-1: unknown, reload before use)
    # The words of the board post in the channel: the previous turn summed up (fixed when the post
    # is made) and this turn's lines so far (grown by each edit); stored with the moves.
    post_summary: list[str] = field(default_factory=list)
    post_lines: list[str] = field(default_factory=list)
    dm_news: dict[int, list[str]] = field(default_factory=dict)  # private news waiting for its seat's next DM


MAX_NAME = 32  # Discord's own display-name limit
SEAT_OFFER_HOURS = 24


def safe_name(name: str) -> str:
    """A display name as it may appear in posts: it can never mention anyone (`<@id>`, `<@&role>`,
    `@everyone` lose their power: a zero-width space follows each @), nor break a line."""
    name = "".join(ch if ch.isprintable() else " " for ch in name).strip()
    return (name.replace("@", "@\u200b")[:MAX_NAME] or "Player").strip()


def secret_digest(part: dict[str, Any] | None) -> str:
    """A short stable fingerprint of a seat's secret part: equal parts, equal digests."""
    return hashlib.sha256(json.dumps(part, sort_keys=True, default=str).encode()).hexdigest()[:20]


def secret_part(state: GameState, seat: int, public_view: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the public view: the part worth a DM when it changes."""
    own = state.view(seat)
    return {k: v for k, v in own.items() if k not in _BASE_VIEW_KEYS and public_view.get(k, _MISSING) != v}


_MISSING = object()


def result_lines(result: Result | Mapping[str, Any], names: list[str],
                 word: Callable[[str], str] = str) -> list[str]:
    """Final standings in words, with each seat's breakdown (`word` translates a category's name)."""
    data = result.to_json() if isinstance(result, Result) else result
    labels = data.get("labels") or {}  # the engine's words for its keys (older stored results have none)

    def label(key: str) -> str:
        return word(labels.get(key, key))

    lines = []
    for line in data["seats"]:
        parts = ", ".join(f"{label(k)} {v}" for k, v in line.get("breakdown", {}).items())
        name = name_seats(seat_token(line["seat"]), names)
        lines.append(f"{line['rank']}. {name}: {line['score']}" + (f" ({parts})" if parts else ""))
    if data.get("ended_by"):
        lines.append(name_seats(label(data["ended_by"]), names))
    return lines


# --------------------------------------------------------------------------- turn clocks

TIMEOUT_ACTIONS = ("ai", "skip", "end")
REMIND_BEFORE = 3600.0  # the last reminder comes this long before the deadline
_MAX_TIMEOUT_MOVES = 500  # runaway guard for a seat's pending decisions on timeout


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock options, chosen at /game new (guild defaults fill what is not given)."""

    turn_hours: int = 24  # 0: no timer
    timeout_action: str = "ai"
    max_timeouts: int = 3
    vacation_hours: int = 72
    stand_in: str = DEFAULT_AI_LEVEL  # the AI level that plays for a player who timed out or left

    @classmethod
    def resolve(cls, given: Mapping[str, Any] | None, defaults: Mapping[str, Any] | None = None) -> ClockSettings:
        """Validated settings; Refused with one readable line for a bad value."""
        values = {**{k: v for k, v in (defaults or {}).items() if k in cls.__dataclass_fields__},
                  **{k: v for k, v in (given or {}).items() if v is not None}}
        unknown = set(values) - set(cls.__dataclass_fields__)
        if unknown:
            raise Refused(f"Unknown clock setting {sorted(unknown)[0]!r}.")
        settings = cls(**values)
        if not 0 <= settings.turn_hours <= 24 * 30:
            raise Refused("The turn timer goes from 0 (off) to 720 hours.")
        if settings.timeout_action not in TIMEOUT_ACTIONS:
            raise Refused("On timeout the table can choose ai, skip or end.")
        if not 1 <= settings.max_timeouts <= 20:
            raise Refused("Timeouts in a row before the AI takes over: 1 to 20.")
        if not 0 <= settings.vacation_hours <= 24 * 60:
            raise Refused("Vacation per player goes from 0 to 1440 hours.")
        if settings.stand_in not in AI_LEVELS:
            raise Refused(f"The stand-in AI plays at one of these levels: {', '.join(AI_LEVELS)}.")
        return settings


def parse_tz(text: str) -> tzinfo:
    """A time zone from `Europe/Paris`, `UTC`, `+9`, `-05:30` or `UTC+9`; Refused if unreadable."""
    raw = text.strip()
    offset = re.fullmatch(r"(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?", raw, re.IGNORECASE)
    if offset:
        sign = -1 if offset[1] == "-" else 1
        minutes = int(offset[2]) * 60 + int(offset[3] or 0)
        if minutes > 14 * 60:
            raise Refused("Time zone offsets go from -14:00 to +14:00.")
        return timezone(sign * timedelta(minutes=minutes))
    if raw.upper() in ("UTC", "GMT", "Z"):
        return UTC
    try:
        return ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refused(f"Unknown time zone {text!r}; write e.g. Europe/Paris, Asia/Tokyo or +09:00.") from None


def parse_hhmm(text: str) -> int:
    """Minutes after midnight from `22`, `22:30` or `7:05`; Refused if unreadable."""
    match = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*", text)
    if not match or int(match[1]) > 23 or int(match[2] or 0) > 59:
        raise Refused(f"Write times as HH or HH:MM (24 h), not {text!r}.")
    return int(match[1]) * 60 + int(match[2] or 0)


def in_quiet(at: float, prefs: UserPrefs | None) -> bool:
    if prefs is None or prefs.quiet_start is None or prefs.quiet_end is None or prefs.quiet_start == prefs.quiet_end:
        return False
    local = datetime.fromtimestamp(at, parse_tz(prefs.tz or "UTC"))
    minute = local.hour * 60 + local.minute
    start, end = prefs.quiet_start, prefs.quiet_end
    return start <= minute < end if start < end else (minute >= start or minute < end)


def out_of_quiet(at: float, prefs: UserPrefs | None) -> float:
    """`at`, or the end of the user's quiet hours if `at` falls inside them."""
    if not in_quiet(at, prefs):
        return at
    assert prefs is not None and prefs.quiet_end is not None
    local = datetime.fromtimestamp(at, parse_tz(prefs.tz or "UTC"))
    end = local.replace(hour=prefs.quiet_end // 60, minute=prefs.quiet_end % 60, second=0, microsecond=0)
    if end <= local:
        end += timedelta(days=1)
    return end.timestamp()


def reminder_points(started: float, deadline: float) -> list[float]:
    """When reminders are due: half time and one hour before the deadline (those inside the turn)."""
    points = {started + (deadline - started) / 2, deadline - REMIND_BEFORE}
    return sorted(p for p in points if started < p < deadline)


def current_standings(state: GameState, ended_by: str) -> Result:
    """The standings of a game stopped early: its result if over, else the score its public view
    shows (`scores` as a list or a dict by seat, or per-seat entries of `seats`/`players` with
    `score`, `points` or `gold`), ranked; a game showing none ranks everyone equal.
    (The engine contract has no "standings so far"; the public view is what every game shares.)"""
    final = state.result()
    if final is not None:
        return final
    view = state.view(None)
    raw = view.get("scores")
    scores: dict[int, int] = {s: 0 for s in range(state.num_seats)}
    if isinstance(raw, list):
        scores.update({s: int(v) for s, v in enumerate(raw) if isinstance(v, int | float)})
    elif isinstance(raw, dict):
        scores.update({int(k): int(v) for k, v in raw.items() if str(k).isdigit() and isinstance(v, int | float)})
    else:
        entries = [e for key in ("seats", "players") if isinstance(view.get(key), list)
                   for e in view[key] if isinstance(e, dict) and isinstance(e.get("seat"), int)]
        for field_name in ("score", "points", "gold"):
            found = {e["seat"]: e[field_name] for e in entries if isinstance(e.get(field_name), int | float)}
            if found:
                scores.update({s: int(v) for s, v in found.items() if s in scores})
                break
    ranks = rank_by({s: (scores[s],) for s in scores})
    lines = sorted((SeatResult(s, scores[s], {"points": scores[s]}, ranks[s]) for s in scores), key=lambda r: r.rank)
    return Result(tuple(lines), ended_by=ended_by)


@dataclass(frozen=True)
class SinceReport:
    """What happened since a seat last acted: lines in words, and public views to draw (oldest first)."""

    seat: int
    lines: tuple[str, ...]
    views: tuple[dict[str, Any], ...]
    names: tuple[str, ...]
    moves: int


class Tables:
    """The game-host service over a Store and a registry of game definitions.

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
        self.ai_pool = ai_pool  # searching levels think there; None: every AI thinks in a thread
        self.on_clocks: Callable[[int, float | None], None] | None = None
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._index: dict[int, int] = {}  # place (channel or thread id) -> open game id
        self._live: dict[int, _Live] = {}  # running games in play, loaded on first use
        # Who claims owed posts (a lease per game, for processes sharing a database) and for how long.
        self.process_id = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.post_lease = POST_LEASE

    # ------------------------------------------------------------------ index

    async def load(self) -> list[int]:
        """Load the index of open games (not their states); return the running games an AI may owe
        a move (only those need their state loaded now)."""
        rows = await self.store.games_with_status("lobby", "running")
        self._index = {row.place_id: row.id for row in rows}
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
        raise Refused("There is no game here. Open one with /game new.")

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
            raise Refused(f"Unknown game {game_key!r}.") from None

    # ------------------------------------------------------------------ reading

    async def info(self, game_id: int) -> TableInfo:
        await self._check_fresh(game_id)
        live = self._live.get(game_id)
        if live is not None:
            CURRENT_GAME.set(live.row.game_key)
            return TableInfo(live.row, live.definition, list(live.seats), tuple(sorted(live.state.to_act())),
                             live.state.moves_applied, {s: c.deadline for s, c in live.clocks.items()})
        row = await self._row(game_id)
        info = TableInfo(row, self.definition(row.game_key), await self.store.seats(game_id))
        if row.status == "running":
            live = await self._load_live(game_id)
            info.to_act, info.moves = tuple(sorted(live.state.to_act())), live.state.moves_applied
            info.deadlines = {s: c.deadline for s, c in live.clocks.items()}
        elif row.status == "over":
            snap = await self.store.snapshot(game_id)
            info.moves = snap[0] if snap else 0
        return info

    async def public_view(self, game_id: int) -> tuple[dict[str, Any], list[str]]:
        state, names = await self._final_or_live_state(game_id)
        return state.view(None), names

    async def private_view(self, game_id: int, user_id: int) -> tuple[int, dict[str, Any], list[str]]:
        state, names = await self._final_or_live_state(game_id)
        seats = await self.store.seats(game_id)
        seat = next((s.seat for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise Refused(NOT_SEATED)
        return seat, state.view(seat), names

    async def revealed_views(self, game_id: int) -> dict[int, dict[str, Any]]:
        """Every seat's own view, hands and tickets included: only once the game is over."""
        row = await self._row(game_id)
        if row.status != "over":
            raise Refused("Hands are shown only when the game is over.")
        state, _ = await self._final_or_live_state(game_id)
        return {seat: state.view(seat) for seat in range(state.num_seats)}

    async def legal_moves(self, game_id: int, user_id: int) -> tuple[int, int, list[str]]:
        """(seat, staleness token, notations) of the caller's legal moves; Refused if not to act."""
        live = await self._running(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise Refused(NOT_SEATED)
        if seat not in live.state.to_act():
            raise Refused(_not_your_turn(live))
        return seat, live.seat_moves[seat], [str(m) for m in live.state.legal_moves(seat)]

    async def turn_choices(self, game_id: int, user_id: int) -> tuple[int, int, list[str], list[str]]:
        """legal_moves, and the engine's shortcuts among them (what a turn panel offers first)."""
        seat, token, moves = await self.legal_moves(game_id, user_id)
        live = await self._running(game_id)
        return seat, token, moves, [str(m) for m in live.state.shortcuts(seat)]

    async def log(self, game_id: int, viewer: int | None = None) -> list[str]:
        """The moves in words for `viewer` (a user id, or None for a spectator).

        Once the game is over every notation is shown. While it runs, a move that drew a private
        event (a secret bid, a kept ticket) is shown by its public lines only, except to the player
        who made it: a notation may carry the secret itself, and the channel must never see one.
        """
        row = await self._row(game_id)
        seats = await self.store.seats(game_id)
        names = [s.name for s in seats]
        moves = await self.store.moves(game_id)

        def who(seat: int) -> str:
            return names[seat] if seat < len(names) else str(seat)

        if row.status == "over" or not moves:
            return [f"{m.n + 1}. {who(m.seat)}: {m.notation}" for m in moves]
        mine = next((s.seat for s in seats if viewer is not None and s.user_id == viewer), None)
        state = self.definition(row.game_key).new_game(len(seats), row.options, row.seed)
        lines = []
        for m in moves:
            events = state.apply(m.seat, m.notation)
            if m.seat == mine or all(e.seats is None for e in events):
                lines.append(f"{m.n + 1}. {who(m.seat)}: {m.notation}")
            else:
                said = Catalog.JOIN.join(name_seats(e.text, names) for e in events if e.seats is None)
                lines.append(f"{m.n + 1}. {who(m.seat)}: {said or '(a hidden decision)'}")
        return lines

    # ------------------------------------------------------------------ lobby

    async def create(
        self,
        game_key: str,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        user_name: str,
        thread_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        seat_order: str = "shuffle",
        seed: int | None = None,
        clock: Mapping[str, Any] | None = None,
    ) -> TableInfo:
        """Open a lobby with its creator in the first seat.

        `clock`: ClockSettings fields; what is not given comes from the guild settings (keys
        `turn_hours`, `timeout_action`, `max_timeouts`, `vacation_hours`, `stand_in`), else the defaults.
        """
        definition = self.definition(game_key)
        settings = ClockSettings.resolve(clock, await self.store.guild_settings(guild_id) if guild_id else None)
        try:
            resolved = definition.resolve_options(options)
        except ValueError as error:
            raise Refused(str(error)) from None
        if seat_order not in ("shuffle", "join"):
            raise Refused("Seat order must be shuffle or join.")
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        try:
            game_id = await self.store.create_game(
                game_key, resolved, seed, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
                creator_id=user_id, seat_order=seat_order, first_seat=(user_id, None, safe_name(user_name)),
                turn_hours=settings.turn_hours, timeout_action=settings.timeout_action,
                max_timeouts=settings.max_timeouts, vacation_hours=settings.vacation_hours,
                stand_in=settings.stand_in,
            )
        except StoreError as error:
            raise Refused(str(error)) from None
        info = await self.info(game_id)
        self._index[info.row.place_id] = game_id
        return info

    async def join(self, game_id: int, user_id: int, user_name: str) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is not None:
                raise Refused("You have already joined.")
            if len(info.seats) >= info.definition.max_players:
                raise Refused(f"The table is full ({info.definition.max_players} players).")
            seats = [*info.seats, SeatRow(len(info.seats), user_id, None, safe_name(user_name))]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def leave(self, game_id: int, user_id: int) -> TableInfo | Outcome:
        """Leave a lobby, or concede a running game (the AI takes the seat over)."""
        row = await self._row(game_id)
        if row.status == "running":
            return await self.concede(game_id, user_id)
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is None:
                raise Refused(NOT_SEATED)
            kept = [s for s in info.seats if s.user_id != user_id]
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(kept)]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def check_add_ai(self, game_id: int, user_id: int) -> TableInfo:
        """Refused now if this user could not add an AI (before they are asked which level)."""
        info = await self._lobby(game_id)
        self._may_add_ai(info, user_id)
        return info

    @staticmethod
    def _may_add_ai(info: TableInfo, user_id: int) -> None:
        if info.seat_of(user_id) is None and user_id != info.row.creator_id:
            raise Refused(NOT_SEATED)
        if len(info.seats) >= info.definition.max_players:
            raise Refused(f"The table is full ({info.definition.max_players} players).")

    async def add_ai(self, game_id: int, user_id: int, kind: str | None = None) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._may_add_ai(info, user_id)
            # The seat keeps the level key; old kind names (greedy, random) are read as their level.
            kind = level_of(kind or DEFAULT_AI_LEVEL)
            if kind not in AI_LEVELS and kind not in info.definition.ais:
                raise Refused(f"Unknown AI level {kind!r}; choose from {', '.join(AI_LEVELS)}.")
            taken = {s.name for s in info.seats}
            number = next(i for i in range(1, 100) if f"AI {i}" not in taken)
            seats = [*info.seats, SeatRow(len(info.seats), None, kind, f"AI {number}")]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def remove_ai(self, game_id: int, user_id: int) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is None and user_id != info.row.creator_id:
                raise Refused(NOT_SEATED)
            ai_seats = [s for s in info.seats if s.is_ai]
            if not ai_seats:
                raise Refused("There is no AI seat to remove.")
            kept = [s for s in info.seats if s is not ai_seats[-1]]
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(kept)]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def start(self, game_id: int, user_id: int, *, admin: bool = False) -> Outcome:
        """Deal the game: seat order, first snapshot, welcome DMs and the first board are owed.

        AI seats that open the game play in the same commit: if one fails, the game stays a lobby
        (Refused START_FAILED) instead of running with an AI turn nobody will play.
        """
        try:
            return await self._start(game_id, user_id, admin)
        except (Refused, DatabaseUnavailable):
            raise
        except Exception:
            log.exception("game %s: start failed; the lobby is kept", game_id)
            raise Refused(START_FAILED) from None

    async def _start(self, game_id: int, user_id: int, admin: bool) -> Outcome:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if user_id != info.row.creator_id and not admin and info.seat_of(user_id) is None:
                raise Refused(NOT_SEATED)
            definition = info.definition
            count = len(info.seats)
            if not definition.min_players <= count <= definition.max_players:
                raise Refused(f"{definition.title} needs {definition.min_players} to {definition.max_players}"
                              f" players; there are {count}.")
            if all(s.is_ai for s in info.seats):
                raise Refused("At least one player must sit at the table.")
            ordered = list(info.seats)
            if info.row.seat_order == "shuffle":
                random.Random(derived_seed("seats", info.row.seed)).shuffle(ordered)
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(ordered)]
            state = definition.new_game(count, info.row.options, info.row.seed)
            names = [s.name for s in seats]
            order = ", ".join(names)
            opening = state.opening_events()
            opening_lines = (f"{definition.title} begins. Seats: {order}.",
                             *(name_seats(e.text, names) for e in opening if e.seats is None))
            posts = [PendingPost("board", None, {"lines": list(opening_lines)})]
            public_view = state.view(None)
            live = _Live(info.row, definition, seats, state, [0] * count)
            live.user_prefs = {s.user_id: await self.store.user_prefs(s.user_id) for s in seats if not s.is_ai}
            # The welcome DM with the opening hand. A player who chose DMs only when their turn begins
            # gets it then (the opening news waits for it); one who chose none gets a welcome in
            # words only, saying where their hand is (/hand, My hand).
            welcomed: list[int] = []
            for s in seats:
                if s.is_ai:
                    continue
                news = [name_seats(e.text, names) for e in opening if e.seats is not None and s.seat in e.seats]
                dms = self._dms(live, s.seat)
                if dms == "off":
                    posts.append(PendingPost("dm", s.seat, {"lines": [], "welcome": True, "dms": "off"}))
                elif dms == "turn" and s.seat not in state.to_act():
                    live.dm_news[s.seat] = news
                else:
                    welcomed.append(s.seat)
                    posts.append(PendingPost("dm", s.seat, {
                        "lines": news, "welcome": True,
                        "digest": secret_digest(secret_part(state, s.seat, public_view))}))
            live.clocks = self._synced_clocks(live, self.now())
            ai_opens = any(seats[s].is_ai for s in state.to_act())
            # The copy matches the lobby's stored version; the commit below (the start, or the AI's
            # moves with it) moves it on through _on_version.
            live.version = info.row.version
            live.post_summary = list(opening_lines)
            if not ai_opens:
                # The opening post's words and the owed DM news commit with the start (issue 29).
                await self.store.start_game(game_id, seats, state.to_json(), posts,
                                            clocks=list(live.clocks.values()), to_act=state.to_act(),
                                            post_words={"summary": live.post_summary, "lines": [],
                                                        "news": {str(s): lines for s, lines
                                                                 in live.dm_news.items() if lines}})
                live.version = info.row.version + 1  # start_game writes the game once
                live.stored_clocks = dict(live.clocks)
            live.row = replace(info.row, status="running")
            # The welcome DMs carry the opening hands.
            live.dm_sent = {seat: secret_digest(part) for seat, part in self._secrets(live).items()
                            if seat in welcomed}
            self._live[game_id] = live
            humans = frozenset(s.seat for s in seats if not s.is_ai)
            if ai_opens:
                # AI seats that open the game play now; their DMs merge with the welcome DMs, and
                # the deal commits with their moves.
                # The opening lines lead the first post's words; that post pings whoever must act.
                live.post_lines = list(opening_lines)
                outcome = await self._run_ai(live, [], [], self._secrets(live), starting=posts[1:],
                                             seats_changed=True, opening=True)
                return Outcome(game_id, outcome.applied, (*opening_lines, *outcome.public_lines),
                               outcome.private_lines, humans, outcome.to_act, outcome.status)
            self._clocks_changed(game_id)
            return Outcome(game_id, public_lines=opening_lines, views_changed=humans,
                           to_act=tuple(sorted(state.to_act())))

    async def cancel(self, game_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status not in ("lobby", "running"):
                raise Refused("This game is already finished.")
            if user_id != row.creator_id and not admin:
                raise Refused("Only the player who created the game (or a moderator) can cancel it.")
            if row.status == "running":
                # Players of a running game learn it where they play, not only on the old lobby.
                await self.store.add_posts(game_id, [PendingPost("board", None, {"lines": ["The game was cancelled."]})],
                                           status="cancelled")
            else:
                await self.store.set_game_fields(game_id, status="cancelled")
            self._forget(row)
            return await self._row(game_id)

    # ------------------------------------------------------------------ play

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
                raise Refused(_not_your_turn(live))
            if token is not None and token != live.seat_moves[seat]:
                raise Refused(STALE_MOVE)
            before = self._secrets(live)
            was_to_act = state.to_act()
            previous_view = state.view(None)  # for the images a move calls for (round-end summary)
            try:
                move = state.parse_move(text)
                live.state, events = await _apply(state, seat, move)
            except IllegalMove as error:
                raise Refused(name_seats(error.reason, live.names)) from None
            applied = [(seat, str(move))]
            live.seat_moves[seat] += 1
            prefs = live.prefs.get(seat)
            reset = [replace(prefs, timeouts=0)] if prefs is not None and prefs.timeouts else []
            for p in reset:  # a move of their own ends a player's run of timeouts
                live.prefs[seat] = p
            return await self._run_ai(live, applied, events, before, was_to_act=was_to_act,
                                      previous_view=previous_view, prefs=reset, interaction_id=interaction_id)

    async def concede(self, game_id: int, user_id: int) -> Outcome:
        """A player leaves a running game: the AI plays their seat; with no human left, it ends."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refused(NOT_SEATED)
            old = live.seats[seat]
            live.seats[seat] = SeatRow(seat, None, self._stand_in(live), f"{old.name} (AI)")
            line = f"{old.name} left the game; the AI plays their seat."
            if all(s.is_ai for s in live.seats):
                await self.store.replace_seats(game_id, live.seats)
                await self.store.add_posts(
                    game_id, [PendingPost("board", None, {"lines": [line, "No player is left: the game ends."]})],
                    status="cancelled",
                )
                self._forget(live.row)
                return Outcome(game_id, public_lines=(line,), status="cancelled")
            before = self._secrets(live)
            # The seat change commits with the AI's moves: a failure leaves the seat with its player.
            return await self._run_ai(live, [], [], before, extra_lines=[line], seats_changed=True)

    async def resume(self, game_id: int) -> Outcome | None:
        """After a restart: let AI seats take the turns they owe (None if nothing was owed)."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            if not any(live.seats[s].is_ai for s in live.state.to_act()):
                return None
            return await self._run_ai(live, [], [], self._secrets(live))

    # ------------------------------------------------------------------ outbox

    async def owed_posts(self, game_id: int | None = None) -> list[OutboxRow]:
        return await self.store.pending_posts(game_id)

    async def posts_done(self, post_ids: list[int]) -> None:
        await self.store.posts_done(post_ids)

    async def claim_posts(self, game_id: int) -> list[OutboxRow] | None:
        """The game's owed posts, for this process to send now (None: another process is sending
        them; its lease of `post_lease` seconds lets this one take over if it dies)."""
        return await self.store.claim_posts(game_id, self.process_id, self.post_lease)

    async def release_posts(self, game_id: int) -> None:
        await self.store.release_posts(game_id, self.process_id)

    async def games_owing_posts(self, older_than: float | None = None) -> list[int]:
        return await self.store.games_owing_posts(older_than)

    async def note_dm_closed(self, game_id: int, user_id: int) -> bool:
        """Remember that a user's DMs are closed; True the first time (tell the channel once)."""
        row = await self._row(game_id)
        if user_id in row.dm_closed_told:
            return False
        self._refresh_row(game_id, await self.store.set_game_fields(
            game_id, dm_closed_told=row.dm_closed_told | {user_id}))
        return True

    async def set_message(self, game_id: int, **ids: Any) -> None:
        """Store a message id of the game (`lobby_message_id`, `board_message_id`) and, with a board
        post or edit, `board_words`: {"lines": what the post shows, "through": the last owed row
        it shows}; a board post stored without them shows nothing an edit must keep."""
        if ids.get("board_message_id") is not None:
            ids = {"board_words": None, **ids, "board_posted_at": self.now()}  # a board older than an hour is reposted
        self._refresh_row(game_id, await self.store.set_game_fields(game_id, **ids))

    # ------------------------------------------------------------------ internals

    def _refresh_row(self, game_id: int, row: GameRow | None) -> None:
        """Give the live copy (if any) the row as the store just wrote it (no read again)."""
        live = self._live.get(game_id)
        if live is not None and row is not None:
            live.row = row

    async def _run_ai(
        self,
        live: _Live,
        applied: list[tuple[int, str]],
        events: list,
        before: dict[int, dict[str, Any]],
        extra_lines: list[str] | None = None,
        was_to_act: frozenset[int] | None = None,
        previous_view: dict[str, Any] | None = None,
        seats_changed: bool = False,
        prefs: list[SeatPrefs] = (),
        dm_seats: tuple[int, ...] = (),
        paused: set[int] | None = None,
        starting: list[PendingPost] = (),
        interaction_id: int | None = None,
        opening: bool = False,
    ) -> Outcome:
        """Play AI seats until a human must act or the game ends, then commit everything at once.

        `previous_view` is the public view before the first move of the batch (taken here when the
        batch starts with AI moves); it rides in the board post so interlude images survive a restart.
        `paused`: seats that were not awaited at some point of the moves already applied (a timed-out
        seat counts as one: its turn was played for it), so they start a new clock when next awaited.
        """
        state = live.state
        if previous_view is None and not applied:
            previous_view = state.view(None)
        was_to_act = was_to_act if was_to_act is not None else state.to_act()
        first_n = state.moves_applied - len(applied)
        events = list(events)
        # Seats that stopped being awaited at some point of this batch: their next decision is a new
        # turn with a new clock. The others' turn goes on, decision after decision, on the same clock.
        paused = set(paused or ()) | (set(range(len(live.seats))) - state.to_act())
        for _ in range(_MAX_AI_MOVES_PER_CALL):
            waiting = sorted(s for s in state.to_act() if live.seats[s].is_ai)
            if not waiting:
                break
            seat = waiting[0]
            move = await self._think(live.definition, state, seat, live.seats[seat].ai_kind)
            live.state, moved = await _apply(state, seat, move)
            state = live.state
            events += moved
            applied.append((seat, str(move)))
            live.seat_moves[seat] += 1
            paused |= set(range(len(live.seats))) - state.to_act()
        names = live.names
        public_lines = [*(extra_lines or []), *(name_seats(e.text, names) for e in events if e.seats is None)]
        private_lines: dict[int, list[str]] = defaultdict(list)
        for event in events:
            for seat in sorted(event.seats or ()):
                private_lines[seat].append(name_seats(event.text, names))
        after = self._secrets(live)
        humans = [s.seat for s in live.seats if not s.is_ai]
        changed = frozenset(s for s in humans if s in private_lines or before.get(s) != after.get(s))
        to_act_now = state.to_act()
        # A new channel post (with a ping) only when a turn begins: a seat is awaited that was not
        # awaited before, or stopped being awaited during the batch (its turn passed and came back).
        # Decisions inside a turn and simultaneous choices edit the current post, which never pings.
        new_turn = sorted(s for s in to_act_now if opening or s in paused or s not in was_to_act)
        # DMs that matter: private news (events only that seat sees) waits, batched, for the seat's
        # next DM, which goes out when its turn begins (with its hand if it changed since the last
        # DM, and what happened since) or when the game ends; never for someone else's public move.
        # Each player's choice (/clock dms): `all` as above; `turn` not at the end of the game; `off`
        # none (news is not kept), only a welcome in words when they take a seat back or over.
        dms = {s: self._dms(live, s) for s in humans}
        for seat in humans:
            live.dm_news[seat] = ([] if dms[seat] == "off" else
                                  [*live.dm_news.get(seat, []), *private_lines.get(seat, [])])
        since = {s for s in humans if s in new_turn and any(mover != s for mover, _ in applied)}
        dm_now = sorted(s for s in humans if dms[s] != "off" and (s in dm_seats or (
            ((state.is_over() and dms[s] == "all") or s in new_turn) and (
                s in since or live.dm_news[s] or secret_digest(after.get(s)) != live.dm_sent.get(s)))))
        welcome_in_words = [s for s in dm_seats if dms.get(s) == "off"]
        news = {s: live.dm_news.pop(s) for s in dm_now}
        live.dm_news = {s: lines for s, lines in live.dm_news.items() if lines}
        for seat in dm_now:
            live.dm_sent[seat] = secret_digest(after.get(seat))
        result = state.result()
        status = "over" if state.is_over() else "running"
        edit = bool(applied) and not opening and not extra_lines and not state.is_over() and not new_turn
        if edit:
            live.post_lines += public_lines
            board: dict[str, Any] = {"lines": [*live.post_summary, *live.post_lines], "edit": True}
        else:
            # The new post sums up the turn that just passed (its decisions were edits of the last post).
            summary = [*live.post_lines, *public_lines]
            live.post_summary, live.post_lines = summary, []
            board = {"lines": summary, "ping": new_turn}
        # How many of its last lines this post says for the first time (the rest sums up the turn
        # before it): a backlog sent as one post shows each of them once (issue 29).
        board["fresh"] = len(public_lines)
        if applied and previous_view is not None:
            board["previous_view"] = previous_view
        if result is not None:
            board["result"] = result_lines(result, names)
        posts = [PendingPost("board", None, board)] if (applied or extra_lines) else []
        posts += [PendingPost("dm", s, {"lines": news[s],
                                        **({"since": True} if s in since else {}),
                                        **({"welcome": True} if s in dm_seats else {}),
                                        "digest": live.dm_sent[s]}) for s in dm_now]
        posts += [PendingPost("dm", s, {"lines": [], "welcome": True, "dms": "off"}) for s in welcome_in_words]
        clocks = self._synced_clocks(live, self.now(), turn_goes_on=set(state.to_act()) - paused)
        try:
            await self.store.record_moves(
                live.row.id, first_n, applied, state.to_json(), [*starting, *posts],
                status=status, result=None if result is None else result.to_json(),
                # Clocks as stored already (a decision inside a turn, a game without a timer) are
                # not written again: the copy matches the store under the game's lock.
                clocks=None if clocks == live.stored_clocks else list(clocks.values()),
                seats=live.seats if seats_changed else None, prefs=list(prefs),
                to_act=state.to_act(), interaction_id=interaction_id,
                post_words={"summary": live.post_summary, "lines": live.post_lines,
                            "news": {str(s): lines for s, lines in live.dm_news.items()}},
            )
        except BaseException:
            # The memory is ahead of the store: drop it, the next use reloads the truth.
            self._live.pop(live.row.id, None)
            raise
        live.clocks, live.stored_clocks = clocks, dict(clocks)
        if status != "running":
            self._forget(live.row)
            if status == "over":
                await self._rate(live.row.id)
        else:
            self._clocks_changed(live.row.id)
        return Outcome(
            live.row.id,
            applied=tuple(applied),
            public_lines=tuple(public_lines),
            private_lines={s: tuple(v) for s, v in private_lines.items()},
            views_changed=changed,
            to_act=tuple(sorted(state.to_act())),
            status=status,
            turn_goes_on=frozenset(state.to_act()) - paused - set(new_turn),
        )

    def _secrets(self, live: _Live) -> dict[int, dict[str, Any]]:
        public_view = live.state.view(None)
        return {s.seat: secret_part(live.state, s.seat, public_view) for s in live.seats if not s.is_ai}

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

    def _forget(self, row: GameRow) -> None:
        if self._index.get(row.place_id) == row.id:
            del self._index[row.place_id]
        self._live.pop(row.id, None)
        if self.on_clocks is not None:
            self.on_clocks(row.id, None)

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise Refused("There is no such game.")
        CURRENT_GAME.set(row.game_key)
        return row

    async def _lobby(self, game_id: int) -> TableInfo:
        row = await self._row(game_id)
        if row.status != "lobby":
            raise Refused(NOT_LOBBY if row.status == "running" else "This game is finished.")
        return TableInfo(row, self.definition(row.game_key), await self.store.seats(game_id))

    async def _running(self, game_id: int, locked: bool = False) -> _Live:
        """The game in play. `locked`: called under the game's lock, which checked the copy already."""
        if not locked:
            await self._check_fresh(game_id)
        live = self._live.get(game_id)
        if live is not None:
            CURRENT_GAME.set(live.row.game_key)
            return live
        row = await self._row(game_id)
        if row.status != "running":
            raise Refused(NOT_RUNNING if row.status == "lobby" else "This game is finished.")
        return await self._load_live(game_id)

    async def _load_live(self, game_id: int) -> _Live:
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
        live = _Live(row, definition, seats, state, seat_moves, version=row.version)
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
            raise Refused(DAMAGED.format(id=row.id)) from None
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

    # ------------------------------------------------------------------ turn clocks

    def _clocks_changed(self, game_id: int) -> None:
        """Tell the scheduler (if any) the game's next clock event, or None when it has none."""
        if self.on_clocks is not None:
            live = self._live.get(game_id)
            due = min((c.next_due for c in live.clocks.values()), default=None) if live else None
            self.on_clocks(game_id, due)

    async def due_times(self) -> dict[int, float]:
        """Every running game's next clock event, from the store alone (no state is loaded)."""
        return await self.store.next_due_by_game()

    def _user_prefs(self, live: _Live, seat: int) -> UserPrefs | None:
        user = live.seats[seat].user_id
        return None if user is None else live.user_prefs.get(user)

    def _dms(self, live: _Live, seat: int) -> str:
        """Which DMs the seat's holder chose: all, turn or off (/clock dms)."""
        prefs = self._user_prefs(live, seat)
        return prefs.dms if prefs is not None else "all"

    def _shift(self, live: _Live, seat: int, at: float) -> float:
        """A reminder time moved past the seat's vacation and out of its holder's quiet hours."""
        prefs = live.prefs.get(seat)
        if prefs is not None and prefs.vacation_until is not None:
            at = max(at, prefs.vacation_until)
        return out_of_quiet(at, self._user_prefs(live, seat))

    def _replan(self, live: _Live, clock: ClockRow) -> ClockRow:
        """The clock with its next event: the next reminder still worth sending, else the deadline."""
        prefs = live.prefs.get(clock.seat)
        if prefs is None or not prefs.muted:
            for index, point in enumerate(reminder_points(clock.started_at, clock.deadline)):
                if index < clock.reminders_sent:
                    continue
                at = self._shift(live, clock.seat, point)
                if at < clock.deadline:
                    return replace(clock, next_due=at)
        return replace(clock, next_due=clock.deadline)

    def _new_clock(self, live: _Live, seat: int, now: float) -> ClockRow:
        prefs = live.prefs.get(seat)
        start = max(now, (prefs.vacation_until or 0) if prefs else 0)
        # A deadline inside the player's quiet hours moves to their end: nobody times out asleep.
        deadline = out_of_quiet(start + live.row.turn_hours * 3600, self._user_prefs(live, seat))
        return self._replan(live, ClockRow(seat, live.seat_moves[seat], start, deadline, 0, False, deadline))

    def _synced_clocks(self, live: _Live, now: float, turn_goes_on: set[int] = frozenset()) -> dict[int, ClockRow]:
        """One clock per human seat to act: kept while the seat has not decided, else started anew.

        A seat in `turn_goes_on` decided but was awaited all along (the second track of a turn, the
        next action of four): its turn goes on, so its clock does too. A new clock per decision would
        let a player stall a game by making one small decision per timer period.
        """
        if not live.row.turn_hours or live.state.is_over():
            return {}
        clocks = {}
        for seat in sorted(live.state.to_act()):
            if live.seats[seat].is_ai:
                continue
            old = live.clocks.get(seat)
            if old is not None and old.token == live.seat_moves[seat]:
                clocks[seat] = old
            elif old is not None and seat in turn_goes_on:
                clocks[seat] = replace(old, token=live.seat_moves[seat])
            else:
                clocks[seat] = self._new_clock(live, seat, now)
        return clocks

    async def _save_clocks(self, live: _Live, clocks: dict[int, ClockRow], prefs: list[SeatPrefs] = (),
                           posts: list[PendingPost] = (), seats_changed: bool = False) -> None:
        await self.store.save_clock_state(live.row.id, clocks=list(clocks.values()), prefs=list(prefs),
                                          seats=live.seats if seats_changed else None, posts=list(posts),
                                          expected=None if live.stored_clocks is None
                                          else list(live.stored_clocks.values()))
        live.clocks, live.stored_clocks = clocks, dict(clocks)
        for p in prefs:
            live.prefs[p.seat] = p
        self._clocks_changed(live.row.id)

    async def fire_due(self, game_id: int) -> Outcome | None:
        """Do what the game's clocks owe now: reminders, then timeouts. None if nothing was due.

        Each fires once: its write is fenced (the clocks or the move count it was built on), so a
        process that lost the game's lock mid-work writes nothing if another fired it meanwhile;
        it then looks again at the game as stored (nothing is due any more, or what is left)."""
        try:
            return await self._fire_due(game_id)
        except StaleGame as stale:
            log.info("game %s: %s; its clocks are read again", game_id, stale)
            return await self._fire_due(game_id)

    async def _fire_due(self, game_id: int) -> Outcome | None:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != "running":
                if self.on_clocks is not None:
                    self.on_clocks(game_id, None)
                return None
            live = await self._running(game_id)
            now = self.now()
            clocks = self._synced_clocks(live, now)
            timed_out = [s for s, c in clocks.items() if now >= c.deadline]
            if timed_out:
                live.clocks = clocks
                return await self._timeout(live, timed_out)
            posts, reminded = [], []
            for seat, clock in list(clocks.items()):
                if clock.next_due > now:
                    continue
                points = reminder_points(clock.started_at, clock.deadline)
                due = [i for i in range(clock.reminders_sent, len(points)) if self._shift(live, seat, points[i]) <= now]
                if not due:
                    continue
                muted = live.prefs.get(seat, SeatPrefs(seat)).muted
                if not muted:
                    # One reminder even if several came due while the bot was down; one channel
                    # mention per turn (the DM carries the rest).
                    # No DM for a player who chose none (/clock dms off): the channel mention only.
                    posts.append(PendingPost("remind", seat, {"deadline": clock.deadline,
                                                              "channel": not clock.channel_told,
                                                              **({"dm": False} if self._dms(live, seat) == "off"
                                                                 else {})}))
                    reminded.append(seat)
                clocks[seat] = self._replan(live, replace(clock, reminders_sent=due[-1] + 1,
                                                          channel_told=clock.channel_told or not muted))
            if clocks == live.clocks and not posts:
                self._clocks_changed(game_id)
                return None
            await self._save_clocks(live, clocks, posts=posts)
            return Outcome(game_id, to_act=tuple(sorted(live.state.to_act())), reminded=tuple(reminded))

    async def _timeout(self, live: _Live, seats: list[int]) -> Outcome:
        """The table's action for seats whose time ran out (under the game lock)."""
        state, row = live.state, live.row
        names = live.names
        if row.timeout_action == "end":
            who = ", ".join(names[s] for s in seats)
            return await self._end_early(live, f"Time ran out for {who}: the game ends with the current standings.")
        before = self._secrets(live)
        was_to_act = state.to_act()
        applied: list[tuple[int, str]] = []
        events: list = []
        lines: list[str] = []
        changed: list[SeatPrefs] = []
        seats_changed = False
        paused: set[int] = set()
        for seat in seats:
            name = names[seat]
            skipped = False
            for _ in range(_MAX_TIMEOUT_MOVES):
                if seat not in state.to_act():
                    break
                move = state.timeout_move(seat) if row.timeout_action == "skip" else None
                if move is None:  # the rules allow no skip here: the AI decides instead
                    move = await self._think(live.definition, state, seat, live.row.stand_in)
                else:
                    skipped = True
                live.state, moved = await _apply(state, seat, move)
                state = live.state
                events += moved
                applied.append((seat, str(move)))
                live.seat_moves[seat] += 1
                paused |= set(range(len(live.seats))) - state.to_act()
            paused.add(seat)
            prefs = live.prefs.get(seat, SeatPrefs(seat))
            prefs = replace(prefs, timeouts=prefs.timeouts + 1)
            lines.append(f"Time ran out for {name}: " + ("their turn is skipped." if skipped
                                                         else "the AI played for them."))
            if prefs.timeouts >= row.max_timeouts:
                user = live.seats[seat].user_id
                live.seats[seat] = SeatRow(seat, None, self._stand_in(live), f"{name} (AI)")
                prefs = replace(prefs, timeouts=0, away_user_id=user, away_name=name)
                seats_changed = True
                lines.append(f"{name} timed out {row.max_timeouts} times in a row: the AI takes the seat for good"
                             f" ({name} can take it back with /seat back).")
            changed.append(prefs)
            live.prefs[seat] = prefs
        if all(s.is_ai for s in live.seats):
            return await self._end_early(live, "No player is left: the game ends with the current standings.",
                                         applied=applied, extra_lines=lines, prefs=changed)
        return await self._run_ai(live, applied, events, before, extra_lines=lines, was_to_act=was_to_act,
                                  seats_changed=seats_changed, prefs=changed, paused=paused)

    async def _end_early(self, live: _Live, line: str, *, applied: list[tuple[int, str]] = (),
                         extra_lines: list[str] = (), prefs: list[SeatPrefs] = ()) -> Outcome:
        """Stop a running game with the standings as they are (timeout action `end`)."""
        result = current_standings(live.state, line)
        names = live.names
        board = {"lines": [*extra_lines, line], "result": result_lines(replace(result, ended_by=""), names)}
        first_n = live.state.moves_applied - len(applied)
        try:
            await self.store.record_moves(live.row.id, first_n, list(applied), live.state.to_json(),
                                          [PendingPost("board", None, board)], status="over",
                                          result=result.to_json(), seats=live.seats, prefs=list(prefs))
        except BaseException:
            self._live.pop(live.row.id, None)
            raise
        self._forget(live.row)
        if self.on_clocks is not None:
            self.on_clocks(live.row.id, None)
        await self._rate(live.row.id)
        return Outcome(live.row.id, applied=tuple(applied), public_lines=tuple(board["lines"]), status="over")

    async def end_by_admin(self, game_id: int) -> Outcome | GameRow:
        """A server admin ends a game: a lobby is cancelled, a running game ends with its standings."""
        row = await self._row(game_id)
        if row.status == "lobby":
            return await self.cancel(game_id, row.creator_id, admin=True)
        async with self.lock(game_id):
            try:
                live = await self._running(game_id)
            except Refused as refused:
                if refused.reason != DAMAGED.format(id=game_id):
                    raise
            else:
                return await self._end_early(live, "A server admin ended the game: final standings as they are.")
        # Neither its snapshot nor its log can rebuild the game: it ends without standings.
        return await self.cancel(game_id, row.creator_id, admin=True)

    @staticmethod
    def _stand_in(live: _Live) -> str:
        """The level that plays for a player who timed out, conceded or stepped away: the table's."""
        return level_of(live.row.stand_in)

    async def _think(self, definition: GameDefinition, state: GameState, seat: int, kind: str | None) -> Move:
        """An AI's decision off the event loop, so other games keep their replies meanwhile: a searching
        level in the AI pool's worker process (it holds the GIL for seconds), a policy in a thread (Ticket
        to Ride's exact ticket search can take over half a second). The AI only reads the state; the move
        is applied back on the loop, under the game's lock."""
        level = level_of(kind)
        if self.ai_pool is not None and self.ai_pool.takes(definition, level):
            return await self.ai_pool.decide(definition, state, seat, level)
        return await asyncio.to_thread(ai_move, state, seat, definition.ai(level))

    async def _seated_live(self, game_id: int, user_id: int) -> tuple[_Live, int]:
        live = await self._running(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise Refused(NOT_SEATED)
        return live, seat

    async def pause_clock(self, game_id: int, user_id: int, hours: float) -> float:
        """Vacation: stop the caller's clock for `hours` (within the table's allowance); returns its end."""
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            if not live.row.turn_hours:
                raise Refused("This game has no turn timer.")
            prefs = live.prefs.get(seat, SeatPrefs(seat))
            left = live.row.vacation_hours - prefs.vacation_used
            if hours <= 0 or hours > left + 1e-9:
                raise Refused(f"You can pause your clock for at most {left:g} more hours in this game.")
            now = self.now()
            until = max(now, prefs.vacation_until or 0) + hours * 3600
            prefs = replace(prefs, vacation_until=until, vacation_used=prefs.vacation_used + hours)
            live.prefs[seat] = prefs
            clocks = dict(live.clocks)
            if seat in clocks:
                clock = clocks[seat]
                deadline = out_of_quiet(clock.deadline + hours * 3600, self._user_prefs(live, seat))
                clocks[seat] = self._replan(live, replace(clock, deadline=deadline))
            await self._save_clocks(live, clocks, [prefs])
            return until

    async def resume_clock(self, game_id: int, user_id: int) -> float:
        """End a vacation early: the unused hours come back and the deadline moves forward by them."""
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            prefs = live.prefs.get(seat, SeatPrefs(seat))
            now = self.now()
            if prefs.vacation_until is None or prefs.vacation_until <= now:
                raise Refused("Your clock is not paused.")
            refund = prefs.vacation_until - now
            prefs = replace(prefs, vacation_until=None, vacation_used=max(0.0, prefs.vacation_used - refund / 3600))
            live.prefs[seat] = prefs
            clocks = dict(live.clocks)
            if seat in clocks:
                clock = clocks[seat]
                deadline = max(clock.deadline - refund, now + REMIND_BEFORE)
                clocks[seat] = self._replan(live, replace(clock, deadline=deadline,
                                                          started_at=min(clock.started_at, now)))
            await self._save_clocks(live, clocks, [prefs])
            return refund / 3600

    async def set_muted(self, game_id: int, user_id: int, muted: bool) -> None:
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            prefs = replace(live.prefs.get(seat, SeatPrefs(seat)), muted=muted)
            live.prefs[seat] = prefs
            clocks = {s: self._replan(live, c) for s, c in live.clocks.items()}
            await self._save_clocks(live, clocks, [prefs])

    async def set_quiet_hours(self, user_id: int, tz: str, start: str, end: str) -> UserPrefs:
        """Quiet hours in the user's zone, for all their games: no reminder inside them, and a
        deadline that would fall inside them moves to their end (for turns that start from now on)."""
        parse_tz(tz)
        prefs = replace(await self.store.user_prefs(user_id), tz=tz.strip(), quiet_start=parse_hhmm(start),
                        quiet_end=parse_hhmm(end))
        await self.store.set_user_prefs(prefs)
        for row in await self.store.games_of_user(user_id, "running"):
            async with self.lock(row.id):
                live = await self._running(row.id)
                live.user_prefs[user_id] = prefs
                await self._save_clocks(live, {s: self._replan(live, c) for s, c in live.clocks.items()})
        return prefs

    async def set_dms(self, user_id: int, dms: str) -> UserPrefs:
        """Which DMs the user gets in all their games: `all` (the welcome with the hand, one when
        their turn begins, one at the end), `turn` (only when their turn begins, with the private
        news since) or `off` (none; a welcome in words says where the hand is: /hand, My hand).
        Turn reminders come by DM unless `off` (the channel mention stays)."""
        if dms not in DM_CHOICES:
            raise Refused(f"DMs can be {', '.join(DM_CHOICES)}.")
        await self.store.set_user_dms(user_id, dms)
        prefs = await self.store.user_prefs(user_id)
        for row in await self.store.games_of_user(user_id, "running"):
            async with self.lock(row.id):
                live = await self._running(row.id)
                live.user_prefs[user_id] = prefs
                await self.store.touch_game(row.id)  # other processes holding the game reload it
        return prefs

    async def seat_to_ai(self, game_id: int, user_id: int) -> Outcome:
        """The caller hands their seat to the AI, and may take it back with seat_back."""
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            old = live.seats[seat]
            before = self._secrets(live)
            live.seats[seat] = SeatRow(seat, None, self._stand_in(live), f"{old.name} (AI)")
            prefs = replace(live.prefs.get(seat, SeatPrefs(seat)), away_user_id=user_id, away_name=old.name,
                            timeouts=0)
            live.prefs[seat] = prefs
            line = f"{old.name} hands their seat to the AI for now (/seat back takes it back)."
            return await self._run_ai(live, [], [], before, extra_lines=[line], seats_changed=True, prefs=[prefs])

    async def seat_back(self, game_id: int, user_id: int) -> Outcome:
        """A player takes back the seat they (or their timeouts) handed to the AI."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            if live.seat_of(user_id) is not None:
                raise Refused("You already hold a seat in this game.")
            seat = next((s for s, p in live.prefs.items() if p.away_user_id == user_id and live.seats[s].is_ai), None)
            if seat is None:
                raise Refused("You have no seat with the AI in this game.")
            prefs = live.prefs[seat]
            before = self._secrets(live)
            live.seats[seat] = SeatRow(seat, user_id, None, prefs.away_name or live.seats[seat].name)
            prefs = replace(prefs, away_user_id=None, away_name=None, timeouts=0)
            live.prefs[seat] = prefs
            live.dm_sent.pop(seat, None)
            line = f"{live.seats[seat].name} takes their seat back from the AI."
            return await self._run_ai(live, [], [], before, extra_lines=[line], seats_changed=True, prefs=[prefs],
                                      dm_seats=(seat,))

    async def check_hand_over(self, game_id: int, from_user: int, to_user: int, to_is_bot: bool = False) -> int:
        """The seat `from_user` may offer to `to_user` (Refused with a reason otherwise)."""
        live, seat = await self._seated_live(game_id, from_user)
        if to_is_bot:
            raise Refused("A bot cannot take a seat; use /seat ai to let the AI play it.")
        if to_user == from_user or live.seat_of(to_user) is not None:
            raise Refused("That member already holds a seat in this game.")
        return seat

    async def offer_seat(self, game_id: int, from_user: int, to_user: int, to_is_bot: bool = False) -> int:
        """Offer `from_user`'s seat to `to_user`, stored server side (the button carries only its id);
        a new offer of the seat replaces the last one. Returns the offer id."""
        seat = await self.check_hand_over(game_id, from_user, to_user, to_is_bot)
        return await self.store.add_seat_offer(game_id, seat, from_user, to_user,
                                               self.now() + SEAT_OFFER_HOURS * 3600)

    async def accept_seat_offer(self, game_id: int, offer_id: int, user_id: int,
                                user_name: str) -> tuple[Outcome, int]:
        """`user_id` accepts a stored offer: only the member it was made to, once, before it expires.
        Returns the outcome and who gave the seat."""
        taken = await self.store.take_seat_offer(offer_id, game_id, user_id, self.now())
        if taken is None:
            raise Refused("This seat is offered to someone else, or the offer was used or has expired.")
        seat, giver = taken
        return await self.hand_over(game_id, seat, giver, user_id, user_name), giver

    async def hand_over(self, game_id: int, seat: int, from_user: int, to_user: int, to_name: str) -> Outcome:
        """`to_user` accepts `from_user`'s seat: the seat, its clock and its secrets are theirs now."""
        to_name = safe_name(to_name)
        async with self.lock(game_id):
            live = await self._running(game_id)
            if not 0 <= seat < len(live.seats) or live.seats[seat].user_id != from_user:
                raise Refused("This offer is no longer valid.")
            if live.seat_of(to_user) is not None:
                raise Refused("You already hold a seat in this game.")
            old = live.seats[seat]
            before = self._secrets(live)
            live.seats[seat] = SeatRow(seat, to_user, None, to_name)
            live.user_prefs[to_user] = await self.store.user_prefs(to_user)
            prefs = replace(live.prefs.get(seat, SeatPrefs(seat)), muted=False, timeouts=0, vacation_until=None)
            live.prefs[seat] = prefs
            live.dm_sent.pop(seat, None)
            line = f"{old.name} handed their seat to {to_name}."
            return await self._run_ai(live, [], [], before, extra_lines=[line], seats_changed=True, prefs=[prefs],
                                      dm_seats=(seat,))

    async def since_last_turn(self, game_id: int, user_id: int, max_lines: int = 30,
                              max_views: int = 4) -> SinceReport:
        """What happened since the caller's seat last acted, replayed from the move log: the moves
        with the events that seat may see, and a few public views from then to now."""
        live, seat = await self._seated_live(game_id, user_id)
        moves = await self.store.moves(game_id)
        own = [m.n for m in moves if m.seat == seat]
        start = own[-1] + 1 if own else 0
        row = live.row
        state = replay(live.definition, len(live.seats), row.options, row.seed,
                       ((m.seat, m.notation) for m in moves[:start]))
        names = live.names
        views = [state.view(None)]
        lines = []
        later = moves[start:]
        keep = {round(i * (len(later) - 1) / max(1, max_views - 2)) for i in range(max_views - 1)} if later else set()
        for index, move in enumerate(later):
            events = state.apply(move.seat, move.notation)
            said = Catalog.JOIN.join(name_seats(e.text, names) for e in events if e.visible_to(seat))
            # A move that drew a private event may carry the secret in its notation (a hidden bid):
            # others see only what its events tell them (as in /game log).
            if move.seat == seat or all(e.seats is None for e in events):
                lines.append(f"{names[move.seat]}: `{move.notation}`" + (f" — {said}" if said else ""))
            else:
                lines.append(f"{names[move.seat]} — {said or '(a hidden decision)'}")
            if index in keep:
                views.append(state.view(None))
        if len(lines) > max_lines:
            earlier = len(lines) - max_lines + 1
            lines = [f"… {earlier} earlier {'move' if earlier == 1 else 'moves'}", *lines[-(max_lines - 1):]]
        return SinceReport(seat, tuple(lines), tuple(views), tuple(names), len(later))
