"""The store's rows and errors: what its methods take and return, and their JSON encoding."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

OPEN_STATUSES = ("lobby", "running")
# Key of the lock under which rating updates and season ends take turns (an advisory lock on PostgreSQL):
# two games sharing a player never both read the player's old rating; a season ends between two updates.
RATINGS_LOCK = 16_000_026


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
    timeouts_total: int = 0  # every timeout of the seat (`timeouts` starts again after a move)


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




class StaleGame(StoreError):
    """A commit built on an out-of-date copy of a game (another process moved first); nothing was written."""

