"""The game-host service, Tables: one class composed of the service's jobs (each a module of bot.service)."""

from __future__ import annotations

from bot.service.history import ReadModels
from bot.service.hygiene import LobbyHygiene
from bot.service.outbox import Outbox
from bot.service.rematch import Rematches
from bot.service.seats import Seats
from bot.service.timeouts import Timeouts
from bot.service.types import DAMAGED, Outcome, Refused
from bot.store import GameRow
from rules.words import Msg


class Tables(Rematches, LobbyHygiene, Seats, Timeouts, ReadModels, Outbox):
    """The game-host service over a Store and a registry of game definitions; no discord imports.

    Each base is one job, all on the same live games (bot.service.live.LiveGames: the lock, the
    in-memory copies): Rematches (a finished game's rematch lobby), LobbyHygiene (idle lobbies closed,
    a minimum reliability), both over Lobby (open, join, start, cancel), Turns (a move, the AI loop, the commit;
    the base of the next three), Seats (hand-overs), Timeouts (clocks due, clock settings),
    ReadModels (views, log, standings) and Outbox (the owed posts for delivery). What a batch owes
    (bot.service.owed) and deadline arithmetic (bot.service.clocks) are pure functions they call.
    """

    async def end_by_admin(self, game_id: int) -> Outcome | GameRow:
        """A server admin ends a game: a lobby is cancelled, a running game ends with its standings."""
        row = await self._row(game_id)
        if row.status == "lobby":
            return await self.cancel(game_id, row.creator_id, admin=True)
        async with self.lock(game_id):
            try:
                live = await self._running(game_id)
            except Refused as refused:
                if refused.reason.id != DAMAGED:
                    raise
            else:
                return await self._end_early(live, Msg("A server admin ended the game: final standings as they are."))
        # Neither its snapshot nor its log can rebuild the game: it ends without standings.
        return await self.cancel(game_id, row.creator_id, admin=True)
