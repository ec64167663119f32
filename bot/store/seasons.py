"""Server seasons in the store (migration 12): start, stop, the season a game counts in, standings, and the end handled once.

A season is a span of weeks of one server. Its games are rated in the scope `season:<id>` as well
(bot/store/ratings.py asks `season_scopes`), where everyone starts from the base rating, so its
standings are the season's own. At its end one process closes it, in one transaction with the ratings'
lock (a game's update lands wholly before or after the end) and the next season of the same length
and channel. The results post is then owed: claimed under a lease (another process takes it over after
a crash), sent under a stable nonce, and marked sent with its message id, so it is posted once.

A season's ranked list is the leaderboard's (`bot.store.stats.board_page` in the scope `season:<id>`): the
leaderboard's `season` option, `/season standings` and the podium all read it. For other modules:
`running_season`, `season_numbered`, `seasons_of`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.db import Tx
from bot.store.core import Store
from bot.store.rows import RATINGS_LOCK, StoreError
from bot.store.stats import PAGE_SIZE, Standing, board_page

WEEK = 7 * 24 * 3600.0
MAX_WEEKS = 52
PODIUM = 3  # the places a season's end posts
PODIUM_GAMES = 1  # rated games of the season a player needs for its podium (the leaderboard needs MIN_RATED_GAMES)
_COLUMNS = "id, guild_id, number, weeks, channel_id, starts_at, ends_at, status, results_message_id"


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    number: int  # 1, 2, ... per server
    weeks: int
    channel_id: int  # where its results are posted
    starts_at: float
    ends_at: float
    status: str  # running | over | stopped
    results_message_id: int | None = None

    @property
    def scope(self) -> str:
        """The ratings scope of its games."""
        return f"season:{self.id}"


async def start_season(store: Store, guild_id: int, weeks: int, channel_id: int) -> Season:
    """Start the server's seasons now; StoreError if one is running already."""
    if not 1 <= weeks <= MAX_WEEKS:
        raise StoreError(f"A season lasts 1 to {MAX_WEEKS} weeks.")
    now = store.now()
    try:
        async with store.db.transaction() as tx:
            number = (await tx.fetch("SELECT coalesce(max(number), 0) + 1 FROM seasons WHERE guild_id = ?",
                                     (guild_id,)))[0][0]
            rows = await tx.fetch(
                "INSERT INTO seasons (guild_id, number, weeks, channel_id, starts_at, ends_at, status)"
                f" VALUES (?, ?, ?, ?, ?, ?, 'running') RETURNING {_COLUMNS}",
                (guild_id, number, weeks, channel_id, now, now + weeks * WEEK))
    except store.db.integrity_errors as error:
        raise StoreError("A season is running on this server already; stop it first.") from error
    return Season(*rows[0])


async def stop_season(store: Store, guild_id: int) -> Season | None:
    """Stop the server's running season (no results are posted, no next season starts); None if none ran."""
    async with store.db.transaction() as tx:
        await tx.take_turns(RATINGS_LOCK)
        rows = await tx.fetch(f"UPDATE seasons SET status = 'stopped', ends_at = ? WHERE guild_id = ?"
                              f" AND status = 'running' RETURNING {_COLUMNS}", (store.now(), guild_id))
    return Season(*rows[0]) if rows else None


async def running_season(store: Store, guild_id: int) -> Season | None:
    rows = await store.db.fetch(f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND status = 'running'",
                                (guild_id,))
    return Season(*rows[0]) if rows else None


async def season(store: Store, season_id: int) -> Season | None:
    rows = await store.db.fetch(f"SELECT {_COLUMNS} FROM seasons WHERE id = ?", (season_id,))
    return Season(*rows[0]) if rows else None


async def season_numbered(store: Store, guild_id: int, number: int) -> Season | None:
    """The server's season by its number (1, 2, ...)."""
    rows = await store.db.fetch(f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? AND number = ?", (guild_id, number))
    return Season(*rows[0]) if rows else None


async def seasons_of(store: Store, guild_id: int, limit: int = 25) -> list[Season]:
    """The server's seasons, the latest first."""
    rows = await store.db.fetch(f"SELECT {_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT ?",
                                (guild_id, limit))
    return [Season(*r) for r in rows]


async def season_scopes(tx: Tx, guild_id: int | None, ended_at: float) -> tuple[str, ...]:
    """The season scope a game of this server that ended then counts in (inside the ratings' transaction)."""
    if guild_id is None:
        return ()
    rows = await tx.fetch("SELECT id FROM seasons WHERE guild_id = ? AND status = 'running' AND starts_at <= ?"
                          " AND ? < ends_at", (guild_id, ended_at, ended_at))
    return tuple(f"season:{r[0]}" for r in rows)


async def due_seasons(store: Store, before: float | None = None) -> dict[int, float]:
    """Each running season's end (`before`: only those ending by then)."""
    rows = await store.db.fetch("SELECT id, ends_at FROM seasons WHERE status = 'running'"
                                + (" AND ends_at <= ?" if before is not None else ""),
                                () if before is None else (before,))
    return {r[0]: r[1] for r in rows}


async def end_season(store: Store, season_id: int) -> tuple[Season, Season] | None:
    """Close the season if its time has come, and open the next one (same length and channel; from its
    end, or from now if that next one would be over already): (ended, next), or None when it is not due
    or another process closed it first."""
    now = store.now()
    async with store.db.transaction() as tx:
        await tx.take_turns(RATINGS_LOCK)
        rows = await tx.fetch(f"UPDATE seasons SET status = 'over' WHERE id = ? AND status = 'running'"
                              f" AND ends_at <= ? RETURNING {_COLUMNS}", (season_id, now))
        if not rows:
            return None
        ended = Season(*rows[0])
        starts = ended.ends_at if now < ended.ends_at + ended.weeks * WEEK else now
        following = await tx.fetch(
            "INSERT INTO seasons (guild_id, number, weeks, channel_id, starts_at, ends_at, status)"
            f" VALUES (?, ?, ?, ?, ?, ?, 'running') RETURNING {_COLUMNS}",
            (ended.guild_id, ended.number + 1, ended.weeks, ended.channel_id, starts, starts + ended.weeks * WEEK))
    return ended, Season(*following[0])


async def results_owed(store: Store) -> list[int]:
    """Ended seasons whose results post is not sent and not claimed by a live process."""
    rows = await store.db.fetch("SELECT id FROM seasons WHERE status = 'over' AND results_message_id IS NULL"
                                " AND (results_until IS NULL OR results_until < ?) ORDER BY id", (store.now(),))
    return [r[0] for r in rows]


async def claim_results(store: Store, season_id: int, owner: str, lease: float) -> bool:
    """Take the season's results post for `lease` seconds; False if it is sent or another process holds it."""
    rows = await store.db.write(
        "UPDATE seasons SET results_owner = ?, results_until = ? WHERE id = ? AND status = 'over'"
        " AND results_message_id IS NULL AND (results_until IS NULL OR results_until < ? OR results_owner = ?)"
        " RETURNING id", (owner, store.now() + lease, season_id, store.now(), owner))
    return bool(rows)


async def results_sent(store: Store, season_id: int, message_id: int) -> None:
    await store.db.write("UPDATE seasons SET results_message_id = ?, results_owner = NULL, results_until = NULL"
                         " WHERE id = ? RETURNING id", (message_id, season_id))


async def release_results(store: Store, season_id: int, owner: str) -> None:
    """Give the claim back (the post failed): it is tried again at the next look."""
    await store.db.write("UPDATE seasons SET results_owner = NULL, results_until = NULL WHERE id = ?"
                         " AND results_owner = ? RETURNING id", (season_id, owner))


async def season_titles(store: Store, season_id: int) -> list[str]:
    """The titles rated in a season, most played first."""
    rows = await store.db.fetch("SELECT game_key, sum(games) FROM ratings WHERE scope = ? GROUP BY game_key"
                                " ORDER BY sum(games) DESC, game_key", (f"season:{season_id}",))
    return [r[0] for r in rows]


async def podium(store: Store, season_id: int, game_key: str) -> list[Standing]:
    """A title's podium: the season's leaderboard (with PODIUM_GAMES) read up to its players ranked 1 to 3,
    ties included."""
    places: list[Standing] = []
    page = 0
    while True:
        rows = await board_page(store, f"season:{season_id}", game_key, page, min_games=PODIUM_GAMES)
        places += [row for row in rows if row.rank <= PODIUM]
        if len(rows) < PAGE_SIZE or rows[-1].rank > PODIUM:
            return places
        page += 1


async def top_three(store: Store, season_id: int) -> dict[str, list[Standing]]:
    """Each title's podium: the players ranked 1 to 3 (ties included)."""
    return {key: await podium(store, season_id, key) for key in await season_titles(store, season_id)}
