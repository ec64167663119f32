"""SQLite persistence for Junction (aiosqlite, WAL, numbered migrations): the store is the truth."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

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
    stand_in: str = "normal"  # the AI level that plays for a player who timed out or left

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
    """A user's time zone and quiet hours (minutes after local midnight; start == end: none)."""

    user_id: int
    tz: str | None = None
    quiet_start: int | None = None
    quiet_end: int | None = None


@dataclass(frozen=True)
class PendingPost:
    """A post owed after a commit, written in the same transaction as the moves behind it."""

    kind: str
    seat: int | None
    payload: dict[str, Any]


_GAME_COLUMNS = (
    "id, game_key, options, seed, status, seat_order, guild_id, channel_id, thread_id, creator_id, "
    "lobby_message_id, board_message_id, dm_closed_told, result, created_at, updated_at, "
    "turn_hours, turn_deadline, timeout_action, max_timeouts, vacation_hours, board_posted_at"
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
        stand_in=stand_in,
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


class Store:
    """One aiosqlite connection. Writes are serialized by a lock: a transaction spans several awaits."""

    def __init__(self, db: aiosqlite.Connection, lock_path: str | None = None) -> None:
        self._db = db
        self._lock_path = lock_path
        self._write = asyncio.Lock()
        self.commit_seconds: list[float] = []  # time of each move commit, read by the bench
        self.now: Callable[[], float] = time.time  # the service injects its clock (tests move it)

    @classmethod
    async def open(cls, path: str) -> Store:
        """Open (or create) the database, migrate it, and hold its single-instance lock until close.

        StoreOpenError with one line for the operator when it cannot be used: another process
        holds it, an empty or corrupt file, a schema from a newer Junction, a locked file. On any
        failure the connection (and its thread, which would keep the interpreter alive) is closed.
        """
        lock_path = acquire_instance_lock(path)
        db: aiosqlite.Connection | None = None
        try:
            first_here = lock_path is None or _HELD_LOCKS[lock_path][1] == 1  # not a file this process is creating
            if first_here and path != ":memory:" and os.path.isfile(path) and os.path.getsize(path) == 0:
                # SQLite would take it for a new database and start empty: if this was a real
                # database truncated by accident, its games would silently vanish.
                raise StoreOpenError(f"{path} is an empty file (0 bytes), not a Junction database: restore it from a"
                                     " backup, or delete it to start with a new empty database.")
            db = await aiosqlite.connect(path)
            # First, so every later statement waits for a busy file instead of failing at once.
            await db.execute("PRAGMA busy_timeout=5000")
            await db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable across application crashes in WAL mode (only power loss may drop the
            # last commits) and saves an fsync per move.
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            store = cls(db, lock_path)
            await store._migrate(path)
            return store
        except BaseException as error:
            if db is not None:
                await db.close()
            release_instance_lock(lock_path)
            if isinstance(error, sqlite3.Error):
                raise _open_error(path, error) from error
            raise

    async def close(self) -> None:
        try:
            await self._db.close()
        finally:
            release_instance_lock(self._lock_path)
            self._lock_path = None

    # ------------------------------------------------------------------ schema

    async def _migrate(self, path: str = "") -> None:
        """Bring the schema up to date in one IMMEDIATE transaction: two processes starting at once
        on a new file take turns (the second finds the work done) instead of both creating tables."""
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            await self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            rows = await self._db.execute_fetchall("SELECT max(version) FROM schema_version")
            current = rows[0][0] or 0
            if current > len(MIGRATIONS):
                raise StoreOpenError(
                    f"{path or 'The database'} has schema version {current}, newer than this Junction knows"
                    f" ({len(MIGRATIONS)}): it was written by a newer release. Update Junction, or use a backup"
                    " made by this version.")
            for number, script in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                for statement in _statements(script):
                    await self._db.execute(statement)
                await self._db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
            await self._db.commit()
        except BaseException:
            await self._db.rollback()
            raise

    async def schema_version(self) -> int:
        rows = await self._db.execute_fetchall("SELECT max(version) FROM schema_version")
        return rows[0][0] or 0

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
        async with self._write:
            try:
                cursor = await self._db.execute(
                    "INSERT INTO games (game_key, options, seed, status, seat_order, guild_id, channel_id,"
                    " thread_id, creator_id, created_at, updated_at, turn_hours, timeout_action, max_timeouts,"
                    " vacation_hours) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game_key, _dumps({**options, STAND_IN_KEY: stand_in}), seed, seat_order, guild_id, channel_id, thread_id,
                     creator_id, now, now, turn_hours, timeout_action, max_timeouts, vacation_hours),
                )
                game_id = cursor.lastrowid
                assert game_id is not None
                if first_seat is not None:
                    user_id, ai_kind, name = first_seat
                    await self._db.execute(
                        "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, 0, ?, ?, ?)",
                        (game_id, user_id, ai_kind, name),
                    )
                await self._db.commit()
            except aiosqlite.IntegrityError as error:
                await self._db.rollback()
                raise StoreError("There is already an open game here.") from error
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._db.execute_fetchall(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def open_game_at(self, place_id: int) -> GameRow | None:
        """The lobby or running game of a channel or thread."""
        rows = await self._db.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE coalesce(thread_id, channel_id) = ?"
            " AND status IN ('lobby', 'running')",
            (place_id,),
        )
        return _game(rows[0]) if rows else None

    async def latest_game_at(self, place_id: int) -> GameRow | None:
        """The newest game of a channel or thread, open or finished (for status, log and board)."""
        rows = await self._db.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE coalesce(thread_id, channel_id) = ? ORDER BY id DESC LIMIT 1",
            (place_id,),
        )
        return _game(rows[0]) if rows else None

    async def games_of_user(self, user_id: int, *statuses: str) -> list[GameRow]:
        """Games where the user holds a seat, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.execute_fetchall(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id DESC",
            (user_id, *statuses),
        )
        return [_game(row) for row in rows]

    async def games_owing_ai(self) -> list[int]:
        """Running games where an AI seat is to act, or where that is unknown (to_act NULL)."""
        rows = await self._db.execute_fetchall(
            "SELECT g.id, g.to_act, group_concat(s.seat) FROM games g"
            " LEFT JOIN seats s ON s.game_id = g.id AND s.user_id IS NULL"
            " WHERE g.status = 'running' GROUP BY g.id ORDER BY g.id"
        )
        owing = []
        for game_id, to_act, ai_seats in rows:
            ai = {int(seat) for seat in ai_seats.split(",")} if ai_seats else set()
            if to_act is None or ai & set(json.loads(to_act)):
                owing.append(game_id)
        return owing

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_game(row) for row in rows]

    async def set_game_fields(self, game_id: int, **fields: Any) -> None:
        """Update plain columns (message ids, status, ...). Names come from code, never from users."""
        allowed = {"lobby_message_id", "board_message_id", "status", "dm_closed_told", "result",
                   "turn_hours", "turn_deadline", "timeout_action", "board_posted_at"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"bad fields {sorted(fields)}")
        values = [(_dumps(sorted(v)) if k == "dm_closed_told" else
                   _dumps(v) if k == "result" and v is not None else v) for k, v in fields.items()]
        sets = ", ".join(f"{k} = ?" for k in fields)
        async with self._write:
            await self._db.execute(
                f"UPDATE games SET {sets}, updated_at = ? WHERE id = ?", (*values, self.now(), game_id)
            )
            await self._db.commit()

    # ------------------------------------------------------------------ seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._db.execute_fetchall(
            "SELECT seat, user_id, ai_kind, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(*row) for row in rows]

    async def replace_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None:
        """Rewrite a lobby's seat list (join order is the seat number until start)."""
        async with self._write:
            await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in seats],
            )
            await self._db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self.now(), game_id))
            await self._db.commit()

    # ------------------------------------------------------------------ play

    async def start_game(
        self, game_id: int, seats: Sequence[SeatRow], state: dict[str, Any], posts: Sequence[PendingPost],
        clocks: Sequence[ClockRow] = (), to_act: Sequence[int] | None = None,
    ) -> None:
        """Lobby -> running: final seat order, first snapshot and the posts owed, in one transaction."""
        now = self.now()
        async with self._write:
            await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in seats],
            )
            await self._db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, n, state, at) VALUES (?, 0, ?, ?)",
                (game_id, _dumps(state), now),
            )
            await self._insert_posts(game_id, posts, now)
            await self._db.execute(
                "UPDATE games SET status = 'running', to_act = ?, updated_at = ? WHERE id = ?",
                (_to_act(to_act), now, game_id),
            )
            await self._write_clocks(game_id, clocks)
            await self._db.commit()

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
    ) -> None:
        """Append moves first_n.. with the snapshot after them and the posts they owe: one transaction.

        With them, if given: the game's clocks (all replaced), its seats and changed seat prefs, so
        a timeout's move, the seat it takes over and the clock it clears commit together.
        The (game, n) primary key makes a move applied twice fail loudly instead of being stored.
        `interaction_id`: the Discord interaction behind the moves; RepeatedInteraction (nothing
        written) if it already led to a move, here or in another process.
        """
        now = self.now()
        started = time.perf_counter()
        async with self._write:
            try:
                if interaction_id is not None:
                    try:
                        await self._db.execute(
                            "INSERT INTO interactions (interaction_id, game_id, n, at) VALUES (?, ?, ?, ?)",
                            (interaction_id, game_id, first_n, now))
                    except aiosqlite.IntegrityError as error:
                        raise RepeatedInteraction(f"interaction {interaction_id} was already played") from error
                await self._db.executemany(
                    "INSERT INTO moves (game_id, n, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, first_n + i, seat, text, now) for i, (seat, text) in enumerate(moves)],
                )
                await self._db.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, n, state, at) VALUES (?, ?, ?, ?)",
                    (game_id, first_n + len(moves), _dumps(state), now),
                )
                await self._insert_posts(game_id, posts, now)
                await self._db.execute(
                    "UPDATE games SET status = ?, result = ?, to_act = ?, updated_at = ? WHERE id = ?",
                    (status, None if result is None else _dumps(result), _to_act(to_act), now, game_id),
                )
                if seats is not None:
                    await self._write_seats(game_id, seats)
                await self._write_prefs(game_id, prefs)
                if clocks is not None or status != "running":
                    await self._write_clocks(game_id, () if status != "running" else clocks or ())
                await self._db.commit()
            except BaseException:
                await self._db.rollback()
                raise
        if moves:
            self.commit_seconds.append((time.perf_counter() - started) / len(moves))

    async def _insert_posts(self, game_id: int, posts: Sequence[PendingPost], now: float) -> None:
        if posts:
            await self._db.executemany(
                "INSERT INTO outbox (game_id, kind, seat, payload, at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, p.kind, p.seat, _dumps(p.payload), now) for p in posts],
            )
            # The hand a DM carries counts as sent once owed: the outbox delivers it exactly once.
            await self._db.executemany(
                "INSERT OR REPLACE INTO dm_state (game_id, seat, digest) VALUES (?, ?, ?)",
                [(game_id, p.seat, p.payload["digest"]) for p in posts if p.kind == "dm" and "digest" in p.payload],
            )

    async def dm_digests(self, game_id: int) -> dict[int, str]:
        """Seat -> digest of the private view last owed to it by DM (see migration 4)."""
        rows = await self._db.execute_fetchall("SELECT seat, digest FROM dm_state WHERE game_id = ?", (game_id,))
        return {seat: digest for seat, digest in rows}

    # ------------------------------------------------------------------ seat offers

    async def add_seat_offer(self, game_id: int, seat: int, giver_id: int, taker_id: int, expires_at: float) -> int:
        """Store an offer (replacing the giver's earlier offers of that seat); returns its id."""
        async with self._write:
            await self._db.execute("DELETE FROM seat_offers WHERE game_id = ? AND seat = ?", (game_id, seat))
            cursor = await self._db.execute(
                "INSERT INTO seat_offers (game_id, seat, giver_id, taker_id, expires_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, giver_id, taker_id, expires_at),
            )
            await self._db.commit()
            return int(cursor.lastrowid or 0)

    async def take_seat_offer(self, offer_id: int, game_id: int, taker_id: int, now: float) -> tuple[int, int] | None:
        """Consume the offer if it is this taker's, for this game and not expired: (seat, giver) or None.

        The delete is the claim: of two clicks, only one finds the row."""
        async with self._write:
            rows = await self._db.execute_fetchall(
                "SELECT seat, giver_id, taker_id, expires_at FROM seat_offers WHERE id = ? AND game_id = ?",
                (offer_id, game_id),
            )
            if not rows or rows[0][2] != taker_id:
                return None
            seat, giver, _, expires_at = rows[0]
            await self._db.execute("DELETE FROM seat_offers WHERE id = ?", (offer_id,))
            await self._db.commit()
        return (seat, giver) if expires_at > now else None

    async def add_posts(self, game_id: int, posts: Sequence[PendingPost], status: str | None = None) -> None:
        async with self._write:
            await self._insert_posts(game_id, posts, self.now())
            if status is not None:
                await self._db.execute(
                    "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, self.now(), game_id)
                )
            await self._db.commit()

    async def interaction_played(self, interaction_id: int) -> bool:
        """Whether this interaction id already led to a committed move."""
        rows = await self._db.execute_fetchall(
            "SELECT 1 FROM interactions WHERE interaction_id = ?", (interaction_id,))
        return bool(rows)

    async def replace_snapshot(self, game_id: int, n: int, state: dict[str, Any]) -> None:
        """Overwrite a game's snapshot with one rebuilt from its move log (a repair)."""
        async with self._write:
            await self._db.execute("INSERT OR REPLACE INTO snapshots (game_id, n, state, at) VALUES (?, ?, ?, ?)",
                                   (game_id, n, _dumps(state), self.now()))
            await self._db.commit()

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._db.execute_fetchall(
            "SELECT n, seat, notation, at FROM moves WHERE game_id = ? ORDER BY n", (game_id,)
        )
        return [MoveRow(*row) for row in rows]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        rows = await self._db.execute_fetchall("SELECT n, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    # ------------------------------------------------------------------ outbox

    async def pending_posts(self, game_id: int | None = None) -> list[OutboxRow]:
        if game_id is None:
            rows = await self._db.execute_fetchall(
                "SELECT id, game_id, kind, seat, payload, batch FROM outbox ORDER BY id")
        else:
            rows = await self._db.execute_fetchall(
                "SELECT id, game_id, kind, seat, payload, batch FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
            )
        return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    async def claim_batch(self, post_ids: Sequence[int]) -> int:
        """Mark rows as sent together, before sending; the batch id (their first id) seeds the nonces."""
        batch = min(post_ids)
        async with self._write:
            await self._db.executemany("UPDATE outbox SET batch = ? WHERE id = ? AND batch IS NULL",
                                       [(batch, i) for i in post_ids])
            await self._db.commit()
        return batch

    async def posts_done(self, post_ids: Iterable[int]) -> None:
        ids = [(i,) for i in post_ids]
        if not ids:
            return
        async with self._write:
            await self._db.executemany("DELETE FROM outbox WHERE id = ?", ids)
            await self._db.commit()

    # ------------------------------------------------------------------ guild settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._db.execute_fetchall("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async with self._write:
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, _dumps(settings)),
            )
            await self._db.commit()

    # ------------------------------------------------------------------ clocks and preferences

    async def _write_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None:
        await self._db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await self._db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in seats],
        )

    async def _write_clocks(self, game_id: int, clocks: Iterable[ClockRow]) -> None:
        clocks = list(clocks)
        await self._db.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        await self._db.executemany(
            "INSERT INTO clocks (game_id, seat, token, started_at, deadline, reminders_sent, channel_told,"
            " next_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, c.seat, c.token, c.started_at, c.deadline, c.reminders_sent, int(c.channel_told),
              c.next_due) for c in clocks],
        )
        await self._db.execute("UPDATE games SET turn_deadline = ? WHERE id = ?",
                               (min((c.deadline for c in clocks), default=None), game_id))

    async def _write_prefs(self, game_id: int, prefs: Iterable[SeatPrefs]) -> None:
        await self._db.executemany(
            "INSERT OR REPLACE INTO seat_prefs (game_id, seat, muted, timeouts, vacation_until, vacation_used,"
            " away_user_id, away_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
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
    ) -> None:
        """Clocks (all replaced), seat prefs, seats and the posts they owe, in one transaction (a
        reminder is marked sent in the same commit that owes it: it is never sent twice)."""
        async with self._write:
            try:
                if seats is not None:
                    await self._write_seats(game_id, seats)
                await self._write_prefs(game_id, prefs)
                if clocks is not None:
                    await self._write_clocks(game_id, clocks)
                await self._insert_posts(game_id, posts, self.now())
                await self._db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (self.now(), game_id))
                await self._db.commit()
            except BaseException:
                await self._db.rollback()
                raise

    async def clocks(self, game_id: int) -> list[ClockRow]:
        rows = await self._db.execute_fetchall(
            "SELECT seat, token, started_at, deadline, reminders_sent, channel_told, next_due FROM clocks"
            " WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ClockRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def next_due_by_game(self) -> dict[int, float]:
        """Each running game's earliest clock event (reminder or deadline): what a restart schedules."""
        rows = await self._db.execute_fetchall(
            "SELECT c.game_id, min(c.next_due) FROM clocks c JOIN games g ON g.id = c.game_id"
            " WHERE g.status = 'running' GROUP BY c.game_id")
        return {r[0]: r[1] for r in rows}

    async def seat_prefs(self, game_id: int) -> dict[int, SeatPrefs]:
        rows = await self._db.execute_fetchall(
            "SELECT seat, muted, timeouts, vacation_until, vacation_used, away_user_id, away_name FROM seat_prefs"
            " WHERE game_id = ?", (game_id,))
        return {r[0]: SeatPrefs(r[0], bool(r[1]), r[2], r[3], r[4], r[5], r[6]) for r in rows}

    async def user_prefs(self, user_id: int) -> UserPrefs:
        rows = await self._db.execute_fetchall(
            "SELECT tz, quiet_start, quiet_end FROM user_prefs WHERE user_id = ?", (user_id,))
        return UserPrefs(user_id, *rows[0]) if rows else UserPrefs(user_id)

    async def set_user_prefs(self, prefs: UserPrefs) -> None:
        async with self._write:
            await self._db.execute(
                "INSERT OR REPLACE INTO user_prefs (user_id, tz, quiet_start, quiet_end) VALUES (?, ?, ?, ?)",
                (prefs.user_id, prefs.tz, prefs.quiet_start, prefs.quiet_end))
            await self._db.commit()

    # ------------------------------------------------------------------ server admin (part B)

    async def games_in_guild(self, guild_id: int, *statuses: str, limit: int = 50) -> list[GameRow]:
        """A server's games with these statuses, newest first (for /game list and /admin end)."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.execute_fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT ?",
            (guild_id, *statuses, limit))
        return [_game(row) for row in rows]

    async def guild_stats(self, guild_id: int) -> dict[str, Any]:
        """Counts for /admin stats: games by status and by game, moves played, distinct players."""
        by_status = dict(await self._db.execute_fetchall(
            "SELECT status, count(*) FROM games WHERE guild_id = ? GROUP BY status", (guild_id,)))
        by_game = dict(await self._db.execute_fetchall(
            "SELECT game_key, count(*) FROM games WHERE guild_id = ? GROUP BY game_key ORDER BY count(*) DESC",
            (guild_id,)))
        moves = (await self._db.execute_fetchall(
            "SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id WHERE g.guild_id = ?", (guild_id,)))[0][0]
        players = (await self._db.execute_fetchall(
            "SELECT count(DISTINCT s.user_id) FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.guild_id = ? AND s.user_id IS NOT NULL", (guild_id,)))[0][0]
        return {"by_status": by_status, "by_game": by_game, "moves": moves, "players": players}

    async def all_guild_settings(self) -> dict[int, dict[str, Any]]:
        """Every server's settings (few rows: one per server that changed one), for caches at start."""
        rows = await self._db.execute_fetchall("SELECT guild_id, settings FROM guild_settings")
        return {row[0]: json.loads(row[1]) for row in rows}
