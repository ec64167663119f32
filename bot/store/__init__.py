"""Persistence for Junction (SQLite by default, PostgreSQL for several processes; numbered migrations): the store is the truth.

One job per module: `rows` (rows and errors), `schema` (the migrations, one source for both backends),
`lock` (an SQLite file's single-instance lock, operator messages), `core` (Store: open, migrate,
close), and the Store's parts: `games`, `moves` (the move commit), `outbox`, `clocks`, `prefs`,
`copying` (migrate-db). The backends' differences live in bot.db.
"""

from bot.store.copying import COPIED_TABLES
from bot.store.core import Store
from bot.store.lock import acquire_instance_lock, release_instance_lock
from bot.store.rows import (
    DM_CHOICES,
    OPEN_STATUSES,
    STAND_IN_KEY,
    ClockRow,
    GameRow,
    MoveRow,
    OutboxRow,
    PendingPost,
    RepeatedInteraction,
    SeatPrefs,
    SeatRow,
    StaleGame,
    StoreError,
    StoreOpenError,
    UserPrefs,
)
from bot.store.schema import MIGRATIONS, POSTGRES_MIGRATIONS

__all__ = [
    "COPIED_TABLES", "DM_CHOICES", "MIGRATIONS", "OPEN_STATUSES", "POSTGRES_MIGRATIONS", "STAND_IN_KEY", "ClockRow",
    "GameRow", "MoveRow", "OutboxRow", "PendingPost", "RepeatedInteraction", "SeatPrefs", "SeatRow", "StaleGame",
    "Store", "StoreError", "StoreOpenError", "UserPrefs", "acquire_instance_lock", "release_instance_lock",
]
