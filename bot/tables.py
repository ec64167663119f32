"""The game-host service's import path: re-exports the public names of bot.service so callers keep working."""

from bot.service.clocks import (
    REMIND_BEFORE,
    TIMEOUT_ACTIONS,
    ClockSettings,
    in_quiet,
    out_of_quiet,
    parse_hhmm,
    parse_tz,
    reminder_points,
)
from bot.service.history import current_standings
from bot.service.host import Tables
from bot.service.live import POST_LEASE
from bot.service.owed import result_msgs, secret_digest, secret_part
from bot.service.seats import SEAT_OFFER_HOURS
from bot.service.types import (
    CURRENT_GAME,
    DAMAGED,
    DB_DOWN,
    MAX_NAME,
    MOVE_FAILED,
    MOVE_UNKNOWN,
    NOT_LOBBY,
    NOT_RUNNING,
    NOT_SEATED,
    NOT_YOUR_TURN,
    SAVE_UNKNOWN,
    STALE_MOVE,
    START_FAILED,
    Outcome,
    Refused,
    Repeated,
    SinceReport,
    TableInfo,
    safe_name,
)

__all__ = [
    "CURRENT_GAME", "DAMAGED", "DB_DOWN", "MAX_NAME", "MOVE_FAILED", "MOVE_UNKNOWN", "NOT_LOBBY", "NOT_RUNNING",
    "NOT_SEATED", "NOT_YOUR_TURN", "POST_LEASE", "REMIND_BEFORE", "SAVE_UNKNOWN", "SEAT_OFFER_HOURS", "STALE_MOVE",
    "START_FAILED", "TIMEOUT_ACTIONS", "ClockSettings", "Outcome", "Refused", "Repeated", "SinceReport", "TableInfo",
    "Tables", "current_standings", "in_quiet", "out_of_quiet", "parse_hhmm", "parse_tz", "reminder_points",
    "result_msgs", "safe_name", "secret_digest", "secret_part",
]
