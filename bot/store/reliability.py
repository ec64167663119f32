"""A player's reliability read from the store (migration 11): games finished, games left to the AI, timeouts; a lobby's minimum.

The query other modules use (/profile shows it; a lobby with a minimum checks it on join):

    record = await reliability(store, user_id)            # every server
    record = await reliability(store, user_id, guild_id)  # one server's games only
    record.finished, record.abandoned, record.timeouts, record.percent

- finished: games that ended (status `over`) with the player still in their seat.
- abandoned: games (running, ended or cancelled) whose seat the player held and left to the AI, holding no
  seat in it now: a concede (`/game leave`), timeouts in a row up to the table's limit, `/seat ai` without
  `/seat back`. A lobby left before the start is not a game.
- timeouts: every time their clock ran out in a game they hold a seat in or left to the AI (counted
  per seat since migration 11: a seat handed over with `/seat give` brings its count along).
- percent: finished / (finished + abandoned), rounded; 100 for a player with neither yet (a newcomer is
  trusted until they leave a game).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.db import Tx
from bot.store.core import Store

_STARTED = " AND g.status IN ('running', 'over', 'cancelled')"
# The seats a player holds in started games: (game, status, the seat's timeouts).
_HELD = ("SELECT s.game_id, g.status, coalesce(p.timeouts_total, 0) FROM seats s JOIN games g ON g.id = s.game_id"
         " LEFT JOIN seat_prefs p ON p.game_id = s.game_id AND p.seat = s.seat WHERE s.user_id = ?" + _STARTED)
# The seats a player held (seat_holders, migration 10) that the AI holds now, in games where they hold no
# other seat: left to the AI (a concede, timeouts for good, /seat ai without /seat back).
_LEFT = ("SELECT h.game_id, g.status, coalesce(p.timeouts_total, 0) FROM seat_holders h"
         " JOIN games g ON g.id = h.game_id JOIN seats s ON s.game_id = h.game_id AND s.seat = h.seat"
         " LEFT JOIN seat_prefs p ON p.game_id = h.game_id AND p.seat = h.seat"
         " WHERE h.user_id = ? AND s.user_id IS NULL" + _STARTED
         + " AND NOT EXISTS (SELECT 1 FROM seats m WHERE m.game_id = h.game_id AND m.user_id = h.user_id)")
# The same for games older than seat_holders: the seats the AI holds for a player (seat_prefs.away_user_id).
_AWAY = ("SELECT p.game_id, g.status, p.timeouts_total FROM seat_prefs p JOIN games g ON g.id = p.game_id"
         " JOIN seats s ON s.game_id = p.game_id AND s.seat = p.seat"
         " WHERE p.away_user_id = ? AND s.user_id IS NULL" + _STARTED)


@dataclass(frozen=True)
class Reliability:
    """A player's record: games finished, games abandoned (left to the AI), timeouts."""

    finished: int = 0
    abandoned: int = 0
    timeouts: int = 0

    @property
    def percent(self) -> int:
        """Games finished of games finished or abandoned, in percent (100 before either)."""
        settled = self.finished + self.abandoned
        return 100 if settled == 0 else round(100 * self.finished / settled)


async def reliability(store: Store, user_id: int, guild_id: int | None = None) -> Reliability:
    """The player's reliability over every server (or one server's games, with `guild_id`)."""
    where = " AND g.guild_id = ?" if guild_id is not None else ""
    args = (user_id, guild_id) if guild_id is not None else (user_id,)
    held = await store.db.fetch(_HELD + where, args)
    left: dict[int, int] = {}  # game -> the timeouts of the seat left in it (both queries may find it)
    for query in (_LEFT, _AWAY):
        for game_id, _, count in await store.db.fetch(query + where, args):
            left[game_id] = max(left.get(game_id, 0), count)
    finished = sum(1 for _, status, _ in held if status == "over")
    timeouts = sum(count for _, _, count in held) + sum(left.values())
    return Reliability(finished, len(left), timeouts)


async def min_reliability(store: Store, game_id: int) -> int | None:
    """The lobby's minimum reliability in percent (None: anyone may join)."""
    rows = await store.db.fetch("SELECT min_reliability FROM lobby_rules WHERE game_id = ?", (game_id,))
    return rows[0][0] if rows else None


def lobby_rule(percent: int) -> Callable[[Tx, int], Awaitable[None]]:
    """A new lobby's minimum reliability, for `create_game(also=...)`: written in the lobby's own
    transaction, so nobody can join it before its minimum holds."""

    async def write(tx: Tx, game_id: int) -> None:
        await tx.execute("INSERT INTO lobby_rules (game_id, min_reliability) VALUES (?, ?)", (game_id, percent))

    return write
