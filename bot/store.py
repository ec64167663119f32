"""Persistence for Junction (SQLite by default, PostgreSQL for several processes; numbered migrations): the store is the truth."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.db import Database, LockedGame, PostgresDatabase, SqliteDatabase, Tx, is_postgres

try:
    import fcntl
except ImportError:  # Windows: no flock; one instance per database is then the operator's care
    fcntl = None  # type: ignore[assignment]

# Numbered migrations. A shipped migration is never edited: add a new one at the end.
MIGRATIONS: tuple[str, ...] = (
    # 1: everything the first release needs.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_key TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'over', 'cancelled')),
        seat_order TEXT NOT NULL DEFAULT 'shuffle' CHECK (seat_order IN ('shuffle', 'join')),
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        creator_id INTEGER NOT NULL,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        dm_closed_told TEXT NOT NULL DEFAULT '[]',
        result TEXT,
        turn_hours INTEGER,
        turn_deadline REAL,
        timeout_action TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_by_status ON games (status);
    -- one open game per channel or thread
    CREATE UNIQUE INDEX games_one_open_per_place ON games (coalesce(thread_id, channel_id))
        WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        ai_kind TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id),
        CHECK ((user_id IS NULL) <> (ai_kind IS NULL))
    ) WITHOUT ROWID;
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    CREATE TABLE snapshots (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        n INTEGER NOT NULL,
        state TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        kind TEXT NOT NULL,
        seat INTEGER,
        payload TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX outbox_by_game ON outbox (game_id, id);
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # 2: asynchronous play: table clock options, per-seat turn clocks, seat and user preferences.
    # turn_hours (0 = no timer), turn_deadline (the earliest running deadline, for listings) and
    # timeout_action come from migration 1; games made before this migration keep no timer.
    """
    ALTER TABLE games ADD COLUMN max_timeouts INTEGER NOT NULL DEFAULT 3;
    ALTER TABLE games ADD COLUMN vacation_hours INTEGER NOT NULL DEFAULT 72;
    ALTER TABLE games ADD COLUMN board_posted_at REAL;
    -- One running turn clock per seat that must act. `token` is the seat's decision count when
    -- the clock started: a clock whose token is behind the seat's moves is stale, never fired.
    CREATE TABLE clocks (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        token INTEGER NOT NULL,
        started_at REAL NOT NULL,
        deadline REAL NOT NULL,
        reminders_sent INTEGER NOT NULL DEFAULT 0,
        channel_told INTEGER NOT NULL DEFAULT 0,
        next_due REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX clocks_by_due ON clocks (next_due);
    CREATE TABLE seat_prefs (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        muted INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        vacation_until REAL,
        vacation_used REAL NOT NULL DEFAULT 0,
        away_user_id INTEGER,
        away_name TEXT,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        tz TEXT,
        quiet_start INTEGER,
        quiet_end INTEGER
    );
    """,
    # 3: which seats a running game awaits, so a restart resumes only games where an AI owes a
    # move instead of loading every running game's state (NULL: unknown, check on next start).
    """
    ALTER TABLE games ADD COLUMN to_act TEXT;
    """,
    # 4: what must not be doubled or forged. dm_state: a digest of the private view each seat was
    # last DM'd, written with the DM's outbox row, so a restart does not send an unchanged hand
    # again. seat_offers: a seat offered by its holder to one member, kept server side so a
    # forged "accept" id cannot give a seat away; an offer is used once and expires.
    """
    CREATE TABLE dm_state (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE seat_offers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        giver_id INTEGER NOT NULL,
        taker_id INTEGER NOT NULL,
        expires_at REAL NOT NULL
    );
    """,
    # 5: each interaction that led to a move, written in the move's transaction: a repeated
    # interaction id (a client or gateway retry, a second process) never applies twice.
    """
    CREATE TABLE interactions (
        interaction_id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 6: outbox.batch: the first row id of the post that is sending this row, set before sending,
    # so a retry after a crash sends the same rows under the same message nonces (Discord then
    # returns the first message instead of posting a second one).
    """
    ALTER TABLE outbox ADD COLUMN batch INTEGER;
    """,
    # 7: several processes on one database (PostgreSQL): `version` counts the writes to a game, so a
    # process holding an older copy knows to reload it; the flush lease says which process is sending
    # a game's owed posts, and until when (another process takes them over after that).
    """
    ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN flush_owner TEXT;
    ALTER TABLE games ADD COLUMN flush_until REAL;
    """,
    # 8: the words of a game's current board post (the previous turn summed up, and this turn's
    # lines so far: edits of the post grow them, a restart keeps them), and each user's choice of
    # DMs: all (default), turn (only when their turn begins, with the private news of the turn) or off.
    """
    ALTER TABLE games ADD COLUMN post_words TEXT;
    ALTER TABLE user_prefs ADD COLUMN dms TEXT;
    """,
    # 9: the lines the game's live board post shows (JSON), stored with its message id: an edit of
    # that post keeps them, also when the post gathered a backlog of several owed posts (issue 29).
    """
    ALTER TABLE games ADD COLUMN board_words TEXT;
    """,
    # 10: ratings (bot/rating_store.py). seat_holders: who held each seat of a started game from which
    # move on (written with every seat change), so a finished game knows each human's share of a seat
    # and who left it to the AI. ratings: one per (scope, title, user); scope 'global' or 'guild:<id>'
    # (later 'season:<id>'). rated_games: the ledger, one row per game and scope, whose key makes each
    # game's update happen once. rating_changes: each update (history; recomputing a scope from its base).
    """
    CREATE TABLE seat_holders (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        from_n INTEGER NOT NULL,
        user_id INTEGER,
        ai_kind TEXT,
        PRIMARY KEY (game_id, seat, from_n)
    ) WITHOUT ROWID;
    CREATE TABLE ratings (
        scope TEXT NOT NULL,
        game_key TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        last_game_id INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (scope, game_key, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE rated_games (
        game_id INTEGER NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        rated INTEGER NOT NULL,
        applied_at REAL NOT NULL,
        PRIMARY KEY (game_id, scope)
    ) WITHOUT ROWID;
    CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        rank INTEGER NOT NULL,
        weight REAL NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, scope, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, game_key, at);
    -- the sweep for finished games not rated yet looks only at games written lately
    CREATE INDEX games_over_by_update ON games (updated_at) WHERE status = 'over';
    """,
)

# The same migrations, number for number, in PostgreSQL's dialect: Discord ids need BIGINT (SQLite's
# INTEGER is 64-bit already), times are DOUBLE PRECISION, ids come from BIGSERIAL. Same tables,
# columns, keys and constraints (a test compares the two schemas).
POSTGRES_MIGRATIONS: tuple[str, ...] = (
    # 1
    """
    CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        game_key TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'over', 'cancelled')),
        seat_order TEXT NOT NULL DEFAULT 'shuffle' CHECK (seat_order IN ('shuffle', 'join')),
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        thread_id BIGINT,
        creator_id BIGINT NOT NULL,
        lobby_message_id BIGINT,
        board_message_id BIGINT,
        dm_closed_told TEXT NOT NULL DEFAULT '[]',
        result TEXT,
        turn_hours INTEGER,
        turn_deadline DOUBLE PRECISION,
        timeout_action TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_by_status ON games (status);
    CREATE UNIQUE INDEX games_one_open_per_place ON games ((coalesce(thread_id, channel_id)))
        WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id BIGINT,
        ai_kind TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id),
        CHECK ((user_id IS NULL) <> (ai_kind IS NULL))
    );
    CREATE TABLE moves (
        game_id BIGINT NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE snapshots (
        game_id BIGINT PRIMARY KEY REFERENCES games (id),
        n INTEGER NOT NULL,
        state TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE outbox (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        kind TEXT NOT NULL,
        seat INTEGER,
        payload TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX outbox_by_game ON outbox (game_id, id);
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # 2
    """
    ALTER TABLE games ADD COLUMN max_timeouts INTEGER NOT NULL DEFAULT 3;
    ALTER TABLE games ADD COLUMN vacation_hours INTEGER NOT NULL DEFAULT 72;
    ALTER TABLE games ADD COLUMN board_posted_at DOUBLE PRECISION;
    CREATE TABLE clocks (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        token INTEGER NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        deadline DOUBLE PRECISION NOT NULL,
        reminders_sent INTEGER NOT NULL DEFAULT 0,
        channel_told INTEGER NOT NULL DEFAULT 0,
        next_due DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX clocks_by_due ON clocks (next_due);
    CREATE TABLE seat_prefs (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        muted INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        vacation_until DOUBLE PRECISION,
        vacation_used DOUBLE PRECISION NOT NULL DEFAULT 0,
        away_user_id BIGINT,
        away_name TEXT,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE user_prefs (
        user_id BIGINT PRIMARY KEY,
        tz TEXT,
        quiet_start INTEGER,
        quiet_end INTEGER
    );
    """,
    # 3
    """
    ALTER TABLE games ADD COLUMN to_act TEXT;
    """,
    # 4
    """
    CREATE TABLE dm_state (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE seat_offers (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        giver_id BIGINT NOT NULL,
        taker_id BIGINT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    );
    """,
    # 5
    """
    CREATE TABLE interactions (
        interaction_id BIGINT PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    """,
    # 6
    """
    ALTER TABLE outbox ADD COLUMN batch BIGINT;
    """,
    # 7
    """
    ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN flush_owner TEXT;
    ALTER TABLE games ADD COLUMN flush_until DOUBLE PRECISION;
    """,
    # 8
    """
    ALTER TABLE games ADD COLUMN post_words TEXT;
    ALTER TABLE user_prefs ADD COLUMN dms TEXT;
    """,
    # 9
    """
    ALTER TABLE games ADD COLUMN board_words TEXT;
    """,
    # 10
    """
    CREATE TABLE seat_holders (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        from_n INTEGER NOT NULL,
        user_id BIGINT,
        ai_kind TEXT,
        PRIMARY KEY (game_id, seat, from_n)
    );
    CREATE TABLE ratings (
        scope TEXT NOT NULL,
        game_key TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        last_game_id BIGINT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (scope, game_key, user_id)
    );
    CREATE TABLE rated_games (
        game_id BIGINT NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        rated INTEGER NOT NULL,
        applied_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, scope)
    );
    CREATE TABLE rating_changes (
        game_id BIGINT NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        rank INTEGER NOT NULL,
        weight DOUBLE PRECISION NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, scope, user_id)
    );
    CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, game_key, at);
    -- the sweep for finished games not rated yet looks only at games written lately
    CREATE INDEX games_over_by_update ON games (updated_at) WHERE status = 'over';
    """,
)

OPEN_STATUSES = ("lobby", "running")


@dataclass(frozen=True)
class GameRow:
    id: int
    game_key: str
    options: dict[str, Any]
    seed: int
    status: str
    seat_order: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    creator_id: int
    lobby_message_id: int | None
    board_message_id: int | None
    dm_closed_told: frozenset[int]
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    turn_hours: int = 0  # 0: no turn timer
    turn_deadline: float | None = None  # the earliest running deadline (listings)
    timeout_action: str = "ai"  # ai | skip | end
    max_timeouts: int = 3  # timeouts in a row before the AI takes the seat for good
    vacation_hours: int = 72  # clock pause each seat may take in this game
    board_posted_at: float | None = None
    version: int = 0  # writes to this game so far (migration 7): a copy older than this is stale
    stand_in: str = "normal"  # the AI level that plays for a player who timed out or left
    board_words: list[str] | None = None  # the lines the live board post shows (migration 9)

    @property
    def place_id(self) -> int:
        """Where the game is played: its thread if it has one, else its channel."""
        return self.thread_id or self.channel_id


@dataclass(frozen=True)
class SeatRow:
    seat: int
    user_id: int | None
    ai_kind: str | None
    name: str

    @property
    def is_ai(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True)
class MoveRow:
    n: int
    seat: int
    notation: str
    at: float


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: int
    kind: str
    seat: int | None
    payload: dict[str, Any]
    batch: int | None = None  # the post sending it (migration 6); None: not tried yet


@dataclass(frozen=True)
class ClockRow:
    """A seat's running turn clock (see migration 2)."""

    seat: int
    token: int
    started_at: float
    deadline: float
    reminders_sent: int
    channel_told: bool
    next_due: float


@dataclass(frozen=True)
class SeatPrefs:
    """A seat's reminder mute, timeouts in a row, clock pause, and who handed it to the AI."""

    seat: int
    muted: bool = False
    timeouts: int = 0
    vacation_until: float | None = None
    vacation_used: float = 0.0  # hours
    away_user_id: int | None = None
    away_name: str | None = None


@dataclass(frozen=True)
class UserPrefs:
    """A user's time zone and quiet hours (minutes after local midnight; start == end: none), and
    which DMs they get: `all`, `turn` (only when their turn begins) or `off` (see DM_CHOICES)."""

    user_id: int
    tz: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None
    dms: str = "all"


DM_CHOICES = ("all", "turn", "off")


@dataclass(frozen=True)
class PendingPost:
    """A post owed after a commit, written in the same transaction as the moves behind it."""

    kind: str
    seat: int | None
    payload: dict[str, Any]


_GAME_COLUMNS = (
    "id, game_key, options, seed, status, seat_order, guild_id, channel_id, thread_id, creator_id, "
    "lobby_message_id, board_message_id, dm_closed_told, result, created_at, updated_at, "
    "turn_hours, turn_deadline, timeout_action, max_timeouts, vacation_hours, board_posted_at, version, board_words"
)


# The table's stand-in AI level rides in the options column under this key (no migration for one
# word); GameRow.options is only the game's own options, as the engine validates them.
STAND_IN_KEY = "_stand_in"


def _game(row: Sequence[Any]) -> GameRow:
    options = json.loads(row[2])
    stand_in = options.pop(STAND_IN_KEY, None) or "normal"
    return GameRow(
        id=row[0],
        game_key=row[1],
        options=options,
        seed=row[3],
        status=row[4],
        seat_order=row[5],
        guild_id=row[6],
        channel_id=row[7],
        thread_id=row[8],
        creator_id=row[9],
        lobby_message_id=row[10],
        board_message_id=row[11],
        dm_closed_told=frozenset(json.loads(row[12])),
        result=None if row[13] is None else json.loads(row[13]),
        created_at=row[14],
        updated_at=row[15],
        turn_hours=row[16] or 0,
        turn_deadline=row[17],
        timeout_action=row[18] or "ai",
        max_timeouts=row[19],
        vacation_hours=row[20],
        board_posted_at=row[21],
        version=row[22],
        stand_in=stand_in,
        board_words=None if row[23] is None else json.loads(row[23]),
    )


def _to_act(seats: Sequence[int] | None) -> str | None:
    return None if seats is None else _dumps(sorted(seats))


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class StoreError(Exception):
    """A write the store refused (e.g. a second open game in one channel)."""


class StoreOpenError(Exception):
    """The database cannot be used: the message is one line for the operator, what is wrong and
    what to do (python -m bot prints it and exits non-zero)."""


class RepeatedInteraction(StoreError):
    """An interaction id that already led to a move (a retry, or another process got it first)."""


# Lock files this process holds: real path -> [file descriptor, holders]. Counted, so the CLI's
# process-long lock and the bot's own Store.open in the same process share one flock.
_HELD_LOCKS: dict[str, list[int]] = {}


def acquire_instance_lock(db_path: str) -> str | None:
    """Take the single-instance lock of a SQLite database (`<db>.lock`), or StoreOpenError.

    An exclusive flock, not a pid file: the kernel drops it when the process dies, SIGKILL
    included, so a crash never leaves a stale lock behind. Returns the lock's path (for release).
    """
    if fcntl is None or db_path == ":memory:" or db_path.startswith("file:"):
        return None
    lock_path = os.path.realpath(db_path) + ".lock"
    held = _HELD_LOCKS.get(lock_path)
    if held is not None:
        held[1] += 1
        return lock_path
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise StoreOpenError(f"Cannot create the lock file {lock_path} ({error.strerror}): check that the"
                             " database's folder exists and is writable (JUNCTION_DB).") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        who = f" (pid {other})" if other.isdigit() else ""
        raise StoreOpenError(f"{db_path} is in use by another Junction process{who}: run one bot per database;"
                             " stop the other one first.") from None
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())  # for the message above only: the flock is the lock
    _HELD_LOCKS[lock_path] = [fd, 1]
    return lock_path


def release_instance_lock(lock_path: str | None) -> None:
    held = _HELD_LOCKS.get(lock_path) if lock_path else None
    if held is None:
        return
    held[1] -= 1
    if held[1] == 0:
        del _HELD_LOCKS[lock_path]
        # The file stays: deleting it would race with a process that just opened it.
        os.close(held[0])


def _open_error(path: str, error: BaseException) -> StoreOpenError:
    """One line for an operator from what SQLite said while opening or migrating."""
    said = str(error)
    text = said.lower()
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        what = (f"{path} is not a usable SQLite database ({said}): restore it from a backup, or move it"
                " away to start with a new empty database.")
    elif "locked" in text or "busy" in text:
        what = (f"{path} is locked by another program ({said}): close whatever holds it (another bot,"
                " a sqlite3 shell in a transaction) and start again.")
    elif "unable to open" in text or "readonly" in text or "read-only" in text:
        what = (f"Cannot open {path} for writing ({said}): check that the folder exists and the bot may"
                " write there (JUNCTION_DB).")
    elif "full" in text:
        what = f"{path}: the disk is full ({said}): free some space and start again."
    else:
        what = f"Cannot open the database {path} ({type(error).__name__}: {said})."
    return StoreOpenError(what)


def _statements(script: str) -> list[str]:
    """A migration script cut into single statements (sqlite3.complete_statement knows where
    comments and strings end), so they can run inside one explicit transaction."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not all(
            part.strip().startswith("--") or not part.strip() for part in pending.splitlines()):
        raise ValueError(f"incomplete statement in a migration: {pending.strip()[:60]!r}")
    return statements


# With every seat write of a started game: each seat whose holder changed gets a seat_holders row from
# the game's current move count on (migration 9; a second change at the same count replaces the first).
_NOTE_SEAT_HOLDERS = (
    "INSERT INTO seat_holders (game_id, seat, from_n, user_id, ai_kind)"
    " SELECT s.game_id, s.seat, coalesce(p.n, 0), s.user_id, s.ai_kind FROM seats s"
    " JOIN games g ON g.id = s.game_id LEFT JOIN snapshots p ON p.game_id = s.game_id"
    " WHERE s.game_id = ? AND g.status <> 'lobby' AND NOT EXISTS (SELECT 1 FROM seat_holders h"
    " WHERE h.game_id = s.game_id AND h.seat = s.seat AND h.user_id IS NOT DISTINCT FROM s.user_id"
    " AND h.ai_kind IS NOT DISTINCT FROM s.ai_kind AND h.from_n = (SELECT max(l.from_n) FROM seat_holders l"
    " WHERE l.game_id = s.game_id AND l.seat = s.seat))"
    " ON CONFLICT (game_id, seat, from_n) DO UPDATE SET user_id = excluded.user_id, ai_kind = excluded.ai_kind")


class StaleGame(StoreError):
    """A commit built on an out-of-date copy of a game (another process moved first); nothing was written."""


# Key of the advisory lock that serializes migrations of processes starting together on PostgreSQL.
_MIGRATION_LOCK = 16_000_016


class Store:
    """The store over one backend (bot.db): SQLite by default, PostgreSQL for several processes.

    Every write that changes a game bumps its `version` (migration 4); `on_version(game_id, version)`
    hears the new value, so the service can tell its own writes from another process's.
    """

    def __init__(self, db: Database, lock_path: str | None = None) -> None:
        self._db = db
        self._lock_path = lock_path  # SQLite's single-instance lock file, held until close
        self.commit_seconds: list[float] = []  # time of each move commit, read by the bench
        self.now: Callable[[], float] = time.time  # the service injects its clock (tests move it)
        self.on_version: Callable[[int, int], None] | None = None

    @classmethod
    async def open(cls, target: str, **pool: int) -> Store:
        """Open (or create) the database and migrate it: a file path opens SQLite and holds its
        single-instance lock until close; a postgresql:// URL opens PostgreSQL (pool sizes in `pool`),
        which several processes share.

        StoreOpenError with one line for the operator when it cannot be used: another process
        holds the SQLite file, an empty or corrupt file, a schema from a newer Junction, a locked
        file, an unreachable server. On any failure the connections (and aiosqlite's thread, which
        would keep the interpreter alive) are closed.
        """
        if is_postgres(target):
            return await cls._open_postgres(target, **pool)
        lock_path = acquire_instance_lock(target)
        try:
            first_here = lock_path is None or _HELD_LOCKS[lock_path][1] == 1  # not a file this process is creating
            if first_here and target != ":memory:" and os.path.isfile(target) and os.path.getsize(target) == 0:
                # SQLite would take it for a new database and start empty: if this was a real
                # database truncated by accident, its games would silently vanish.
                raise StoreOpenError(f"{target} is an empty file (0 bytes), not a Junction database: restore it"
                                     " from a backup, or delete it to start with a new empty database.")
            db = await SqliteDatabase.open(target)
            store = cls(db, lock_path)
            try:
                await store._migrate(target)
            except BaseException:
                await db.close()
                raise
            return store
        except BaseException as error:
            release_instance_lock(lock_path)
            if isinstance(error, sqlite3.Error):
                raise _open_error(target, error) from error
            raise

    @classmethod
    async def _open_postgres(cls, url: str, **pool: int) -> Store:
        where = url.split("@")[-1]  # never print a password
        try:
            db = await PostgresDatabase.open(url, **pool)
        except (OSError, TimeoutError) as error:
            raise StoreOpenError(f"Cannot reach PostgreSQL at {where} ({error}): check JUNCTION_DB and that the"
                                 " server runs.") from error
        except Exception as error:
            if type(error).__module__.startswith("asyncpg"):
                raise StoreOpenError(f"PostgreSQL at {where} refused the connection ({type(error).__name__}:"
                                     f" {error}): check the user, password and database in JUNCTION_DB.") from error
            raise
        store = cls(db)
        try:
            await store._migrate(where)
        except BaseException:
            await db.close()
            raise
        return store

    @property
    def dialect(self) -> str:
        return self._db.dialect

    @property
    def db(self) -> Database:
        """The backend, for modules that keep tables of their own in this store (bot/rating_store.py)."""
        return self._db

    @property
    def shared(self) -> bool:
        """True when other processes may write the same database (PostgreSQL)."""
        return self._db.shared

    def game_lock(self, game_id: int, interaction_id: int | None = None
                  ) -> contextlib.AbstractAsyncContextManager[LockedGame | None]:
        """Hold the game against every other process (PostgreSQL advisory lock; a no-op on SQLite).
        Yields the game's stored version read under the lock, and whether `interaction_id` already
        led to a move, in the same round trip (None on SQLite: ask interaction_played)."""
        return self._db.game_lock(game_id, interaction_id)

    async def close(self) -> None:
        try:
            await self._db.close()
        finally:
            release_instance_lock(self._lock_path)
            self._lock_path = None

    # ------------------------------------------------------------------ schema

    def migrations(self) -> tuple[str, ...]:
        return POSTGRES_MIGRATIONS if self.dialect == "postgresql" else MIGRATIONS

    @staticmethod
    def _check_not_newer(current: int, where: str) -> None:
        if current > len(MIGRATIONS):
            raise StoreOpenError(
                f"{where or 'The database'} has schema version {current}, newer than this Junction knows"
                f" ({len(MIGRATIONS)}): it was written by a newer release. Update Junction, or use a backup"
                " made by this version.")

    async def _migrate(self, where: str = "") -> None:
        """Bring the schema up to date in one transaction, which processes starting together take in
        turns (the second finds the work done) instead of both creating tables."""
        if isinstance(self._db, SqliteDatabase):
            conn = self._db.conn
            await conn.execute("BEGIN IMMEDIATE")
            try:
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                rows = await conn.execute_fetchall("SELECT max(version) FROM schema_version")
                current = rows[0][0] or 0
                self._check_not_newer(current, where)
                for number, script in enumerate(MIGRATIONS, start=1):
                    if number <= current:
                        continue
                    for statement in _statements(script):
                        await conn.execute(statement)
                    await conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
                await conn.commit()
            except BaseException:
                await conn.rollback()
                raise
            return
        # PostgreSQL: DDL is transactional; an advisory lock makes processes take turns.
        async with self._db.transaction() as tx:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            await tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = (await tx.fetch("SELECT max(version) FROM schema_version"))[0][0] or 0
            self._check_not_newer(current, where)
            for number, script in enumerate(POSTGRES_MIGRATIONS, start=1):
                if number > current:
                    await tx.execute(script)
                    await tx.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))

    async def schema_version(self) -> int:
        rows = await self._db.fetch("SELECT max(version) FROM schema_version")
        return rows[0][0] or 0

    async def _bump(self, tx: Tx, game_id: int, sets: str = "", args: Sequence[Any] = ()) -> int:
        """UPDATE the game row (with `sets`, e.g. "status = ?, "), its updated_at and version; returns
        the new version."""
        rows = await tx.fetch(
            f"UPDATE games SET {sets}updated_at = ?, version = version + 1 WHERE id = ? RETURNING version",
            (*args, self.now(), game_id))
        return rows[0][0] if rows else 0

    def _saw(self, game_id: int, version: int) -> None:
        if self.on_version is not None and version:
            self.on_version(game_id, version)

    async def game_version(self, game_id: int) -> int | None:
        rows = await self._db.fetch("SELECT version FROM games WHERE id = ?", (game_id,))
        return rows[0][0] if rows else None

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        game_key: str,
        options: dict[str, Any],
        seed: int,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        creator_id: int,
        seat_order: str,
        first_seat: tuple[int | None, str | None, str] | None = None,
        turn_hours: int = 0,
        timeout_action: str = "ai",
        max_timeouts: int = 3,
        vacation_hours: int = 72,
        stand_in: str = "normal",
    ) -> int:
        """Insert a lobby (and its creator's seat, if any); StoreError if the place has an open game."""
        now = self.now()
        try:
            async with self._db.transaction() as tx:
                rows = await tx.fetch(
                    "INSERT INTO games (game_key, options, seed, status, seat_order, guild_id, channel_id,"
                    " thread_id, creator_id, created_at, updated_at, turn_hours, timeout_action, max_timeouts,"
                    " vacation_hours) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (game_key, _dumps({**options, STAND_IN_KEY: stand_in}), seed, seat_order, guild_id, channel_id,
                     thread_id,
                     creator_id, now, now, turn_hours, timeout_action, max_timeouts, vacation_hours),
                )
                game_id = rows[0][0]
                if first_seat is not None:
                    user_id, ai_kind, name = first_seat
                    await tx.execute(
                        "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, 0, ?, ?, ?)",
                        (game_id, user_id, ai_kind, name),
                    )
        except self._db.integrity_errors as error:
            raise StoreError("There is already an open game here.") from error
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._db.fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def open_game_at(self, place_id: int) -> GameRow | None:
        """The lobby or running game of a channel or thread."""
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE coalesce(thread_id, channel_id) = ?"
            " AND status IN ('lobby', 'running')",
            (place_id,),
        )
        return _game(rows[0]) if rows else None

    async def latest_game_at(self, place_id: int) -> GameRow | None:
        """The newest game of a channel or thread, open or finished (for status, log and board)."""
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE coalesce(thread_id, channel_id) = ? ORDER BY id DESC LIMIT 1",
            (place_id,),
        )
        return _game(rows[0]) if rows else None

    async def games_of_user(self, user_id: int, *statuses: str) -> list[GameRow]:
        """Games where the user holds a seat, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id DESC",
            (user_id, *statuses),
        )
        return [_game(row) for row in rows]

    async def games_owing_ai(self) -> list[int]:
        """Running games where an AI seat is to act, or where that is unknown (to_act NULL)."""
        rows = await self._db.fetch(
            "SELECT g.id, g.to_act, s.seat FROM games g"
            " LEFT JOIN seats s ON s.game_id = g.id AND s.user_id IS NULL"
            " WHERE g.status = 'running' ORDER BY g.id"
        )
        to_act: dict[int, str | None] = {}
        ai: defaultdict[int, set[int]] = defaultdict(set)
        for game_id, waiting, seat in rows:
            to_act[game_id] = waiting
            if seat is not None:
                ai[game_id].add(seat)
        return [g for g, waiting in to_act.items() if waiting is None or ai[g] & set(json.loads(waiting))]

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_game(row) for row in rows]

    async def set_game_fields(self, game_id: int, **fields: Any) -> GameRow | None:
        """Update plain columns (message ids, status, ...); the row as written (None: no such game).
        Names come from code, never from users."""
        allowed = {"lobby_message_id", "board_message_id", "status", "dm_closed_told", "result",
                   "turn_hours", "turn_deadline", "timeout_action", "board_posted_at", "board_words"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"bad fields {sorted(fields)}")
        values = [(_dumps(sorted(v)) if k == "dm_closed_told" else
                   _dumps(v) if k in ("result", "board_words") and v is not None else v) for k, v in fields.items()]
        sets = "".join(f"{k} = ?, " for k in fields)
        # One statement, which returns the row as written (the caller need not read it again).
        rows = await self._db.write(
            f"UPDATE games SET {sets}updated_at = ?, version = version + 1 WHERE id = ? RETURNING {_GAME_COLUMNS}",
            (*values, self.now(), game_id))
        if not rows:
            return None
        row = _game(rows[0])
        self._saw(game_id, row.version)
        return row

    # ------------------------------------------------------------------ seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._db.fetch(
            "SELECT seat, user_id, ai_kind, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(*row) for row in rows]

    async def replace_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None:
        """Rewrite a lobby's seat list (join order is the seat number until start)."""
        async with self._db.transaction() as tx:
            await self._write_seats(tx, game_id, seats)
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)

    # ------------------------------------------------------------------ play

    async def start_game(
        self, game_id: int, seats: Sequence[SeatRow], state: dict[str, Any], posts: Sequence[PendingPost],
        clocks: Sequence[ClockRow] = (), to_act: Sequence[int] | None = None,
        post_words: dict[str, Any] | None = None,
    ) -> None:
        """Lobby -> running: final seat order, first snapshot, the posts owed and the words of the
        opening post (`post_words`, see migration 8), in one transaction: a crash right after the
        start never leaves the first post without its opening lines."""
        now = self.now()
        async with self._db.transaction() as tx:
            # Only a lobby starts: a second process that started it first wins, this one writes nothing.
            lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
            status = await tx.fetch(f"SELECT status FROM games WHERE id = ?{lock}", (game_id,))
            if not status or status[0][0] != "lobby":
                raise StaleGame(f"game {game_id} is no longer a lobby")
            words = () if post_words is None else (_dumps(post_words),)
            version = await self._bump(tx, game_id, "status = 'running', to_act = ?, "
                                       + ("post_words = ?, " if words else ""), (_to_act(to_act), *words))
            await self._write_seats(tx, game_id, seats)
            await tx.execute("INSERT INTO snapshots (game_id, n, state, at) VALUES (?, 0, ?, ?)",
                             (game_id, _dumps(state), now))
            await self._insert_posts(tx, game_id, posts, now)
            await self._write_clocks(tx, game_id, clocks)
        self._saw(game_id, version)

    async def record_moves(
        self,
        game_id: int,
        first_n: int,
        moves: Sequence[tuple[int, str]],
        state: dict[str, Any],
        posts: Sequence[PendingPost],
        *,
        status: str = "running",
        result: dict[str, Any] | None = None,
        clocks: Sequence[ClockRow] | None = None,
        seats: Sequence[SeatRow] | None = None,
        prefs: Sequence[SeatPrefs] = (),
        to_act: Sequence[int] | None = None,
        interaction_id: int | None = None,
        post_words: dict[str, Any] | None = None,
    ) -> None:
        """Append moves first_n.. with the snapshot after them and the posts they owe: one transaction.

        With them, if given: the game's clocks (all replaced), its seats and changed seat prefs, so
        a timeout's move, the seat it takes over and the clock it clears commit together.
        The snapshot must stand at first_n: a batch built on an older copy of the game (applied twice,
        or after another process's moves) raises StaleGame and writes nothing.
        `interaction_id`: the Discord interaction behind the moves; RepeatedInteraction (nothing
        written) if it already led to a move, here or in another process.
        """
        now = self.now()
        started = time.perf_counter()
        lock = " FOR UPDATE OF g" if self.dialect == "postgresql" else ""
        write_clocks = clocks is not None or status != "running"
        clocks = list(clocks or ()) if status == "running" else []
        async with self._db.transaction() as tx:
            # The game row first, locked on PostgreSQL, so the check below cannot race another writer
            # (the game's moves are written under its advisory lock, so its snapshot row cannot
            # change while this statement waits for the row).
            row = await tx.fetch("SELECT g.status, s.n FROM games g LEFT JOIN snapshots s ON s.game_id = g.id"
                                 f" WHERE g.id = ?{lock}", (game_id,))
            stored_n = row[0][1] if row else None
            # A lobby has no snapshot: its first moves (AI seats that open the game) commit the start.
            starting = stored_n is None and first_n == 0 and bool(row) and row[0][0] == "lobby"
            if not starting and stored_n != first_n:
                raise StaleGame(f"game {game_id}: moves from {first_n} built on a stale copy "
                                f"(the store has {'no' if stored_n is None else stored_n} moves)")
            if not starting and row[0][0] != "running":
                # Ended meanwhile (a timeout's "end" fired by a process that took the lock over): a
                # batch without moves must not end it twice.
                raise StaleGame(f"game {game_id} is {row[0][0]}, no longer running")
            words = () if post_words is None else (_dumps(post_words),)
            deadline = (min((c.deadline for c in clocks), default=None),) if write_clocks else ()
            if self.dialect == "postgresql":
                version = await self._write_moves_pg(
                    tx, game_id, first_n, moves, state, posts, now, interaction_id,
                    {"status": status, "result": None if result is None else _dumps(result), "to_act": _to_act(to_act),
                     **({"post_words": words[0]} if words else {}), **({"turn_deadline": deadline[0]} if deadline else {})})
            else:
                version = await self._write_moves(tx, game_id, first_n, moves, state, posts, now, interaction_id,
                                                  status, result, to_act, words, deadline)
            if seats is not None:
                await self._write_seats(tx, game_id, seats)
            await self._write_prefs(tx, game_id, prefs)
            if write_clocks:
                await self._write_clocks(tx, game_id, clocks, deadline=False)
        self._saw(game_id, version)
        if moves:
            self.commit_seconds.append((time.perf_counter() - started) / len(moves))

    async def _write_moves(self, tx: Tx, game_id: int, first_n: int, moves: Sequence[tuple[int, str]],
                           state: dict[str, Any], posts: Sequence[PendingPost], now: float,
                           interaction_id: int | None, status: str, result: dict[str, Any] | None,
                           to_act: Sequence[int] | None, words: tuple[str, ...], deadline: tuple[float | None, ...]
                           ) -> int:
        """record_moves' writes, statement by statement (SQLite: calls within the process)."""
        version = await self._bump(tx, game_id, "status = ?, result = ?, to_act = ?, "
                                   + ("post_words = ?, " if words else "")
                                   + ("turn_deadline = ?, " if deadline else ""),
                                   (status, None if result is None else _dumps(result), _to_act(to_act),
                                    *words, *deadline))
        if interaction_id is not None:
            # ON CONFLICT DO NOTHING, not a caught error: a failed statement aborts a PostgreSQL
            # transaction, and the row count says the same thing on both backends.
            added = await tx.execute(
                "INSERT INTO interactions (interaction_id, game_id, n, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (interaction_id) DO NOTHING", (interaction_id, game_id, first_n, now))
            if added == 0:
                raise RepeatedInteraction(f"interaction {interaction_id} was already played")
        await tx.executemany(
            "INSERT INTO moves (game_id, n, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, first_n + i, seat, text, now) for i, (seat, text) in enumerate(moves)],
        )
        await tx.execute(
            "INSERT INTO snapshots (game_id, n, state, at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id)"
            " DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at",
            (game_id, first_n + len(moves), _dumps(state), now))
        await self._insert_posts(tx, game_id, posts, now)
        return version

    async def _write_moves_pg(self, tx: Tx, game_id: int, first_n: int, moves: Sequence[tuple[int, str]],
                              state: dict[str, Any], posts: Sequence[PendingPost], now: float,
                              interaction_id: int | None, fields: dict[str, Any]) -> int:
        """record_moves' writes in one PostgreSQL statement (one round trip instead of five or six):
        the interaction, the moves, the snapshot, the owed posts and DM digests, the game row; the
        new version. RepeatedInteraction if the interaction was already played (the transaction
        rolls back, nothing is written)."""
        digests = {p.seat: p.payload["digest"] for p in posts if p.kind == "dm" and "digest" in p.payload}
        args: list[Any] = [interaction_id, game_id, first_n, now, [seat for seat, _ in moves],
                           [text for _, text in moves], _dumps(state), [p.kind for p in posts],
                           [p.seat for p in posts], [_dumps(p.payload) for p in posts],
                           list(digests), list(digests.values()), *fields.values()]
        sets = "".join(f"{name} = ${13 + i}, " for i, name in enumerate(fields))
        rows = await tx.fetch(
            "WITH played AS ("
            " INSERT INTO interactions (interaction_id, game_id, n, at)"
            " SELECT $1::bigint, $2::bigint, $3::integer, $4::double precision WHERE $1 IS NOT NULL"
            " ON CONFLICT (interaction_id) DO NOTHING RETURNING 1),"
            " moved AS (INSERT INTO moves (game_id, n, seat, notation, at)"
            " SELECT $2, $3 + m.i - 1, m.seat, m.notation, $4"
            " FROM unnest($5::integer[], $6::text[]) WITH ORDINALITY AS m (seat, notation, i)),"
            " snapped AS (INSERT INTO snapshots (game_id, n, state, at)"
            " VALUES ($2, $3 + cardinality($5::integer[]), $7, $4)"
            " ON CONFLICT (game_id) DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at),"
            # ids in the posts' order: the rows are numbered as the SELECT yields them
            " owed AS (INSERT INTO outbox (game_id, kind, seat, payload, at) SELECT $2, p.kind, p.seat, p.payload, $4"
            " FROM unnest($8::text[], $9::integer[], $10::text[]) WITH ORDINALITY AS p (kind, seat, payload, i)"
            " ORDER BY p.i),"
            # the hand a DM carries counts as sent once owed (see _insert_posts)
            " told AS (INSERT INTO dm_state (game_id, seat, digest) SELECT $2, d.seat, d.digest"
            " FROM unnest($11::integer[], $12::text[]) AS d (seat, digest)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET digest = excluded.digest)"
            f" UPDATE games SET {sets}updated_at = $4, version = version + 1 WHERE id = $2"
            " RETURNING version, (SELECT count(*) FROM played)", args)
        if interaction_id is not None and rows and rows[0][1] == 0:
            raise RepeatedInteraction(f"interaction {interaction_id} was already played")
        return rows[0][0] if rows else 0

    async def _insert_posts(self, tx: Tx, game_id: int, posts: Sequence[PendingPost], now: float) -> None:
        await tx.executemany(
            "INSERT INTO outbox (game_id, kind, seat, payload, at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, p.kind, p.seat, _dumps(p.payload), now) for p in posts],
        )
        # The hand a DM carries counts as sent once owed: the outbox delivers it exactly once.
        await tx.executemany(
            "INSERT INTO dm_state (game_id, seat, digest) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET digest = excluded.digest",
            [(game_id, p.seat, p.payload["digest"]) for p in posts if p.kind == "dm" and "digest" in p.payload],
        )

    async def post_words(self, game_id: int) -> dict[str, Any]:
        """The words of the game's current board post (migration 8): {"summary": [...], "lines": [...]}."""
        rows = await self._db.fetch("SELECT post_words FROM games WHERE id = ?", (game_id,))
        return json.loads(rows[0][0]) if rows and rows[0][0] else {"summary": [], "lines": []}

    async def dm_digests(self, game_id: int) -> dict[int, str]:
        """Seat -> digest of the private view last owed to it by DM (see migration 4)."""
        rows = await self._db.fetch("SELECT seat, digest FROM dm_state WHERE game_id = ?", (game_id,))
        return {seat: digest for seat, digest in rows}

    # ------------------------------------------------------------------ seat offers

    async def add_seat_offer(self, game_id: int, seat: int, giver_id: int, taker_id: int, expires_at: float) -> int:
        """Store an offer (replacing the giver's earlier offers of that seat); returns its id."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM seat_offers WHERE game_id = ? AND seat = ?", (game_id, seat))
            rows = await tx.fetch(
                "INSERT INTO seat_offers (game_id, seat, giver_id, taker_id, expires_at) VALUES (?, ?, ?, ?, ?)"
                " RETURNING id", (game_id, seat, giver_id, taker_id, expires_at))
        return int(rows[0][0])

    async def take_seat_offer(self, offer_id: int, game_id: int, taker_id: int, now: float) -> tuple[int, int] | None:
        """Consume the offer if it is this taker's, for this game and not expired: (seat, giver) or None.

        The delete is the claim: of two clicks (in one process or two), only one deletes the row."""
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "DELETE FROM seat_offers WHERE id = ? AND game_id = ? AND taker_id = ?"
                " RETURNING seat, giver_id, expires_at", (offer_id, game_id, taker_id))
        if not rows:
            return None
        seat, giver, expires_at = rows[0]
        return (seat, giver) if expires_at > now else None

    async def interaction_played(self, interaction_id: int) -> bool:
        """Whether this interaction id already led to a committed move."""
        rows = await self._db.fetch("SELECT 1 FROM interactions WHERE interaction_id = ?", (interaction_id,))
        return bool(rows)

    async def played_move(self, game_id: int, interaction_id: int) -> tuple[int, str] | None:
        """The move an interaction led to in a game, as (seat, notation); None if it led to none.
        What decides the answer when the connection was lost during a move's COMMIT: the game's row
        is locked first (PostgreSQL), so a commit still under way on the server ends, one way or the
        other, before the interaction is looked up."""
        lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
        async with self._db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{lock}", (game_id,))
            rows = await tx.fetch(
                "SELECT m.seat, m.notation FROM interactions i JOIN moves m ON m.game_id = i.game_id AND m.n = i.n"
                " WHERE i.interaction_id = ? AND i.game_id = ?", (interaction_id, game_id))
        return (rows[0][0], rows[0][1]) if rows else None

    async def replace_snapshot(self, game_id: int, n: int, state: dict[str, Any]) -> bool:
        """Overwrite a game's snapshot with one rebuilt from its move log of `n` moves (a repair),
        if the log still has `n` moves; else (another process moved since the log was read, and its
        commit wrote a snapshot of its own) nothing is written: False.

        The game's row is locked first (PostgreSQL), as record_moves locks it: the count cannot
        change before this commits, so an older state never replaces a newer snapshot."""
        lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
        async with self._db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{lock}", (game_id,))
            if (await tx.fetch("SELECT count(*) FROM moves WHERE game_id = ?", (game_id,)))[0][0] != n:
                return False
            await tx.execute(
                "INSERT INTO snapshots (game_id, n, state, at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at",
                (game_id, n, _dumps(state), self.now()))
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)
        return True

    async def add_posts(self, game_id: int, posts: Sequence[PendingPost], status: str | None = None) -> None:
        async with self._db.transaction() as tx:
            await self._insert_posts(tx, game_id, posts, self.now())
            version = await self._bump(tx, game_id, "status = ?, " if status is not None else "",
                                       (status,) if status is not None else ())
        self._saw(game_id, version)

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._db.fetch(
            "SELECT n, seat, notation, at FROM moves WHERE game_id = ? ORDER BY n", (game_id,)
        )
        return [MoveRow(*row) for row in rows]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        rows = await self._db.fetch("SELECT n, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    # ------------------------------------------------------------------ outbox

    async def pending_posts(self, game_id: int | None = None) -> list[OutboxRow]:
        if game_id is None:
            rows = await self._db.fetch("SELECT id, game_id, kind, seat, payload, batch FROM outbox ORDER BY id")
        else:
            rows = await self._db.fetch(
                "SELECT id, game_id, kind, seat, payload, batch FROM outbox WHERE game_id = ? ORDER BY id",
                (game_id,))
        return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    async def claim_batch(self, post_ids: Sequence[int]) -> int:
        """Mark rows as sent together, before sending; the batch id (their first id) seeds the nonces."""
        batch = min(post_ids)
        if self.dialect == "postgresql":  # one statement, one round trip, whatever the number of rows
            await self._db.write("UPDATE outbox SET batch = ? WHERE id = ANY(?::bigint[]) AND batch IS NULL",
                                 (batch, list(post_ids)))
            return batch
        async with self._db.transaction() as tx:
            await tx.executemany("UPDATE outbox SET batch = ? WHERE id = ? AND batch IS NULL",
                                 [(batch, i) for i in post_ids])
        return batch

    async def games_owing_posts(self, older_than: float | None = None) -> list[int]:
        """Games with owed posts whose flush lease is free (optionally only posts owed before a time:
        the sweep of a process that picks up what a dead one left)."""
        now = self.now()
        rows = await self._db.fetch(
            "SELECT DISTINCT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id"
            " WHERE (g.flush_until IS NULL OR g.flush_until < ?) AND o.at <= ? ORDER BY o.game_id",
            (now, now if older_than is None else older_than))
        return [r[0] for r in rows]

    async def claim_posts(self, game_id: int, owner: str, lease: float) -> list[OutboxRow] | None:
        """Take the game's owed posts for `lease` seconds: None if another process holds them.

        A game's posts go out in order, so the claim is per game (its row), not per post: SKIP LOCKED
        lets a process pass over a game another one is claiming (or moving) instead of waiting for
        it. The lease lets another process take over the posts of one that died while sending them.
        """
        now = self.now()
        if self.dialect == "postgresql":
            # One statement (one round trip): take the lease if it is free, and read the posts.
            # A claim reads the posts committed before it; a move committing meanwhile holds the
            # game row, so the claim skips the game, and that move's own flush comes back later.
            rows = await self._db.write(
                "WITH claimed AS (UPDATE games SET flush_owner = ?, flush_until = ? WHERE id = ("
                " SELECT id FROM games WHERE id = ? AND (flush_owner IS NULL OR flush_owner = ?"
                " OR flush_until IS NULL OR flush_until < ?) FOR UPDATE SKIP LOCKED) RETURNING id)"
                " SELECT o.id, o.game_id, o.kind, o.seat, o.payload, o.batch FROM claimed"
                " LEFT JOIN outbox o ON o.game_id = claimed.id ORDER BY o.id",
                (owner, now + lease, game_id, owner, now))
            if not rows:
                return None
            return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows if r[0] is not None]
        async with self._db.transaction() as tx:
            free = await tx.fetch("SELECT flush_owner, flush_until FROM games WHERE id = ?", (game_id,))
            if not free:
                return None
            # A lease binds other processes only: an SQLite file has one process, and a holder
            # named there is this process's own earlier run (its posts are owed to this one now).
            await tx.execute("UPDATE games SET flush_owner = ?, flush_until = ? WHERE id = ?",
                             (owner, now + lease, game_id))
            rows = await tx.fetch(
                "SELECT id, game_id, kind, seat, payload, batch FROM outbox WHERE game_id = ? ORDER BY id",
                (game_id,))
        return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    async def release_posts(self, game_id: int, owner: str) -> None:
        await self._db.write("UPDATE games SET flush_owner = NULL, flush_until = NULL"
                             " WHERE id = ? AND flush_owner = ?", (game_id, owner))

    async def posts_done(self, post_ids: Iterable[int]) -> None:
        ids = list(post_ids)
        if not ids:
            return
        if self.dialect == "postgresql":
            await self._db.write("DELETE FROM outbox WHERE id = ANY(?::bigint[])", (ids,))
            return
        async with self._db.transaction() as tx:
            await tx.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])

    # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._db.fetch("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, _dumps(settings)),
            )

    # ------------------------------------------------------------------ clocks and preferences

    async def _write_seats(self, tx: Tx, game_id: int, seats: Iterable[SeatRow]) -> None:
        await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await tx.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in seats],
        )
        await tx.execute(_NOTE_SEAT_HOLDERS, (game_id,))

    async def _write_clocks(self, tx: Tx, game_id: int, clocks: Iterable[ClockRow], deadline: bool = True) -> None:
        """Replace the game's clocks; `deadline`: also set games.turn_deadline (False: the caller sets
        it in its own UPDATE of the game row)."""
        clocks = list(clocks)
        await tx.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        await tx.executemany(
            "INSERT INTO clocks (game_id, seat, token, started_at, deadline, reminders_sent, channel_told,"
            " next_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, c.seat, c.token, c.started_at, c.deadline, c.reminders_sent, int(c.channel_told),
              c.next_due) for c in clocks],
        )
        if deadline:
            await tx.execute("UPDATE games SET turn_deadline = ? WHERE id = ?",
                             (min((c.deadline for c in clocks), default=None), game_id))

    async def _write_prefs(self, tx: Tx, game_id: int, prefs: Iterable[SeatPrefs]) -> None:
        await tx.executemany(
            "INSERT INTO seat_prefs (game_id, seat, muted, timeouts, vacation_until, vacation_used,"
            " away_user_id, away_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET muted = excluded.muted, timeouts = excluded.timeouts,"
            " vacation_until = excluded.vacation_until, vacation_used = excluded.vacation_used,"
            " away_user_id = excluded.away_user_id, away_name = excluded.away_name",
            [(game_id, p.seat, int(p.muted), p.timeouts, p.vacation_until, p.vacation_used, p.away_user_id,
              p.away_name) for p in prefs],
        )

    async def save_clock_state(
        self,
        game_id: int,
        *,
        clocks: Sequence[ClockRow] | None = None,
        prefs: Sequence[SeatPrefs] = (),
        seats: Sequence[SeatRow] | None = None,
        posts: Sequence[PendingPost] = (),
        expected: Sequence[ClockRow] | None = None,
    ) -> None:
        """Clocks (all replaced), seat prefs, seats and the posts they owe, in one transaction (a
        reminder is marked sent in the same commit that owes it: it is never sent twice).

        `expected`: the clocks as the caller read them under the game's lock, the fence of this
        write: if the stored clocks differ (another process took the game's lock after this one lost
        it, and fired the reminder or the timeout itself), StaleGame and nothing is written.
        """
        async with self._db.transaction() as tx:
            if expected is not None:
                # The game row first, locked on PostgreSQL: a writer that took the game's lock over
                # commits before this reads its clocks, or waits until this one has committed.
                lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
                await tx.fetch(f"SELECT id FROM games WHERE id = ?{lock}", (game_id,))
                stored = [ClockRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in await tx.fetch(
                    "SELECT seat, token, started_at, deadline, reminders_sent, channel_told, next_due FROM clocks"
                    " WHERE game_id = ? ORDER BY seat", (game_id,))]
                if stored != sorted(expected, key=lambda c: c.seat):
                    raise StaleGame(f"game {game_id}: its clocks changed since they were read")
            if seats is not None:
                await self._write_seats(tx, game_id, seats)
            await self._write_prefs(tx, game_id, prefs)
            if clocks is not None:
                await self._write_clocks(tx, game_id, clocks)
            await self._insert_posts(tx, game_id, posts, self.now())
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)

    async def clocks(self, game_id: int) -> list[ClockRow]:
        rows = await self._db.fetch(
            "SELECT seat, token, started_at, deadline, reminders_sent, channel_told, next_due FROM clocks"
            " WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ClockRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def next_due_by_game(self, before: float | None = None) -> dict[int, float]:
        """Each running game's earliest clock event (reminder or deadline): what a restart schedules
        (`before`: only events due by then, what a process polls for on a shared database)."""
        rows = await self._db.fetch(
            "SELECT c.game_id, min(c.next_due) FROM clocks c JOIN games g ON g.id = c.game_id"
            " WHERE g.status = 'running'" + (" AND c.next_due <= ?" if before is not None else "")
            + " GROUP BY c.game_id", () if before is None else (before,))
        return {r[0]: r[1] for r in rows}

    async def seat_prefs(self, game_id: int) -> dict[int, SeatPrefs]:
        rows = await self._db.fetch(
            "SELECT seat, muted, timeouts, vacation_until, vacation_used, away_user_id, away_name FROM seat_prefs"
            " WHERE game_id = ?", (game_id,))
        return {r[0]: SeatPrefs(r[0], bool(r[1]), r[2], r[3], r[4], r[5], r[6]) for r in rows}

    async def user_prefs(self, user_id: int) -> UserPrefs:
        rows = await self._db.fetch(
            "SELECT tz, quiet_start, quiet_end, dms FROM user_prefs WHERE user_id = ?", (user_id,))
        if not rows:
            return UserPrefs(user_id)
        tz, start, end, dms = rows[0]
        return UserPrefs(user_id, tz, start, end, dms if dms in DM_CHOICES else "all")

    async def set_user_dms(self, user_id: int, dms: str) -> None:
        """The user's choice of DMs (one of DM_CHOICES), leaving their quiet hours as they are."""
        if dms not in DM_CHOICES:
            raise ValueError(f"dms must be one of {DM_CHOICES}, not {dms!r}")
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO user_prefs (user_id, dms) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET dms = excluded.dms", (user_id, dms))

    async def touch_game(self, game_id: int) -> None:
        """Move a game's version on without other change (a setting of one of its players changed),
        so that every process holding the game reloads it before its next use."""
        async with self._db.transaction() as tx:
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)

    async def set_user_prefs(self, prefs: UserPrefs) -> None:
        """The user's time zone and quiet hours (their choice of DMs is set by set_user_dms)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO user_prefs (user_id, tz, quiet_start, quiet_end) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end",
                (prefs.user_id, prefs.tz, prefs.quiet_start, prefs.quiet_end))

    # ------------------------------------------------------------------ server admin (part B)

    async def games_in_guild(self, guild_id: int, *statuses: str, limit: int = 50) -> list[GameRow]:
        """A server's games with these statuses, newest first (for /game list and /admin end)."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT ?",
            (guild_id, *statuses, limit))
        return [_game(row) for row in rows]

    async def guild_stats(self, guild_id: int) -> dict[str, Any]:
        """Counts for /admin stats: games by status and by game, moves played, distinct players."""
        by_status = dict(await self._db.fetch(
            "SELECT status, count(*) FROM games WHERE guild_id = ? GROUP BY status", (guild_id,)))
        by_game = dict(await self._db.fetch(
            "SELECT game_key, count(*) FROM games WHERE guild_id = ? GROUP BY game_key ORDER BY count(*) DESC",
            (guild_id,)))
        moves = (await self._db.fetch(
            "SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id WHERE g.guild_id = ?", (guild_id,)))[0][0]
        players = (await self._db.fetch(
            "SELECT count(DISTINCT s.user_id) FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.guild_id = ? AND s.user_id IS NOT NULL", (guild_id,)))[0][0]
        return {"by_status": by_status, "by_game": by_game, "moves": moves, "players": players}

    async def all_guild_settings(self) -> dict[int, dict[str, Any]]:
        """Every server's settings (few rows: one per server that changed one), for caches at start."""
        rows = await self._db.fetch("SELECT guild_id, settings FROM guild_settings")
        return {row[0]: json.loads(row[1]) for row in rows}

    # ------------------------------------------------------------------ copying (migrate-db)

    async def table_rows(self, table: str) -> tuple[list[str], list[tuple[Any, ...]]]:
        """Every row of one of the store's tables, with its column names (tests; small tables)."""
        columns = await self._columns(table)
        rows = [r async for batch in self._table_batches(table, columns, 10_000) for r in batch]
        return columns, rows

    def _table_batches(self, table: str, columns: Sequence[str], batch: int) -> AsyncIterator[list[tuple[Any, ...]]]:
        if table not in COPIED_TABLES:
            raise ValueError(f"unknown table {table!r}")
        return self._db.stream(f"SELECT {', '.join(columns)} FROM {table}", batch)

    async def _columns(self, table: str) -> list[str]:
        if self.dialect == "postgresql":
            rows = await self._db.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ? AND table_schema ="
                " current_schema() ORDER BY ordinal_position", (table,))
        else:
            rows = [(r[1],) for r in await self._db.fetch(f"PRAGMA table_info({table})")]
        return [r[0] for r in rows]

    async def is_empty(self) -> bool:
        rows = await self._db.fetch("SELECT count(*) FROM games")
        return rows[0][0] == 0

    async def copy_from(self, source: Store, batch: int = 50_000) -> dict[str, int]:
        """Copy every row of `source` into this (empty) store in one transaction; row counts by table."""
        if not await self.is_empty():
            raise StoreError("The target database already holds games; migrate-db copies only into an empty one.")
        counts: dict[str, int] = {}
        async with self._db.transaction() as tx:
            for table in COPIED_TABLES:
                target = set(await self._columns(table))
                shared = [c for c in await source._columns(table) if c in target]
                counts[table] = 0
                async for rows in source._table_batches(table, shared, batch):
                    await tx.copy_rows(table, shared, rows)
                    counts[table] += len(rows)
            if self.dialect == "postgresql":
                # Copied ids were given explicitly: move the id sequences past them.
                for table in ("games", "outbox", "seat_offers"):
                    await tx.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")
        return counts


# Parents before children (foreign keys); schema_version is the target's own.
COPIED_TABLES = ("games", "seats", "moves", "snapshots", "outbox", "guild_settings", "clocks", "seat_prefs",
                 "user_prefs", "dm_state", "seat_offers", "interactions", "seat_holders", "ratings", "rated_games",
                 "rating_changes")
