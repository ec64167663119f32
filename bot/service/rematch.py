"""Rematch: a finished game's players asked to the same table again; each confirms or declines with one click.

A rematch is an ordinary lobby (same title, options, clock settings and seat order, a new seed) in the
same channel or thread, opened by a player of the finished game, who takes the first seat. The AI seats
come back as they were; the other players still seated at the end are invited (their seats are kept for
them until they answer); the seats of players who left the game (to the AI) are open to anyone. The
lobby starts by itself when the last invited player confirms and every seat of the last game is taken
again; before that its creator (or a moderator) may start it with those who confirmed.

Once per finished game, also with a double click or two processes: bot.store.lobbies writes the
rematch's ledger row in the lobby's own transaction. A rematch lobby cancelled before it started (by its
creator, for inactivity) lets the next Rematch click open a new one.
"""

from __future__ import annotations

from bot.service.lobby import Lobby
from bot.service.types import NOT_LOBBY, Refused, TableInfo, safe_name
from bot.store import SeatRow
from bot.store.lobbies import (
    Invite,
    answer,
    invites,
    release_cancelled_rematch,
    rematch_lobby,
    rematch_of,
    seats_left_to_ai,
    write_rematch,
)
from bot.store.reliability import min_reliability
from rules.words import N_, Items, Msg

ALREADY = N_("Game #{old} has had its rematch already: game #{new}.")


def waiting(info: TableInfo) -> list[Invite]:
    """The invited players who have not answered (a player who took a seat with Join has answered)."""
    return [i for i in info.invites if i.answer is None and info.seat_of(i.user_id) is None]


def open_seats(info: TableInfo) -> int:
    """Seats of the last game that nobody holds or keeps: those of players who left it, or declined."""
    if info.rematch is None:
        return 0
    return max(0, info.rematch.seats - len(info.seats) - len(waiting(info)))


class Rematches(Lobby):
    """Open a finished game's rematch, answer its invitation, and the rules of its lobby."""

    async def rematch(self, game_id: int, user_id: int, user_name: str) -> TableInfo:
        """Open the rematch of a finished game; Refused if it has one already, or the caller did not play it."""
        row = await self._row(game_id)
        if row.status != "over":
            raise Refused(N_("Only a finished game can be played again."))
        existing = await rematch_of(self.store, game_id)
        if existing is not None and not await release_cancelled_rematch(self.store, game_id):
            existing = await rematch_of(self.store, game_id) or existing
            raise Refused(Msg(ALREADY, old=game_id, new=existing.game_id))
        seats = await self.store.seats(game_id)
        if all(s.user_id != user_id for s in seats):
            raise Refused(Msg("Only the players of game #{id} can ask for a rematch.", id=game_id))
        left = await seats_left_to_ai(self.store, game_id)
        ai_seats = [s for s in seats if s.is_ai and s.seat not in left]
        extra = [SeatRow(1 + i, None, s.ai_kind, s.name) for i, s in enumerate(ai_seats)]
        asked = [Invite(s.user_id, s.name) for s in seats if not s.is_ai and s.user_id != user_id]
        minimum = await min_reliability(self.store, game_id)
        also = write_rematch(game_id, len(seats), extra, asked, self.now())
        clock = {"turn_hours": row.turn_hours, "timeout_action": row.timeout_action,
                 "max_timeouts": row.max_timeouts, "vacation_hours": row.vacation_hours, "stand_in": row.stand_in}
        try:
            return await self.create(row.game_key, guild_id=row.guild_id, channel_id=row.channel_id,
                                     thread_id=row.thread_id, user_id=user_id, user_name=user_name,
                                     options=row.options, seat_order=row.seat_order, clock=clock, also=also,
                                     min_reliability=minimum)
        except Refused:
            existing = await rematch_of(self.store, game_id)  # a second click, or another process, was first
            if existing is not None:
                raise Refused(Msg(ALREADY, old=game_id, new=existing.game_id)) from None
            raise

    async def answer_rematch(self, game_id: int, user_id: int, user_name: str, yes: bool) -> tuple[TableInfo, bool]:
        """An invited player confirms (takes their seat) or declines (gives it up); the lobby as it is
        now, and whether it is ready to start by itself (nobody left to answer, every seat taken)."""
        async with self.lock(game_id):
            info = await self.info(game_id)
            if info.row.status != "lobby":
                raise Refused(NOT_LOBBY if info.row.status == "running" else N_("This game is finished."))
            if info.rematch is None or all(i.user_id != user_id for i in info.invites):
                raise Refused(Msg("Only the players of game #{old} were asked; take a seat with Join.",
                                  old=info.rematch.from_game_id if info.rematch else game_id))
            seat = info.seat_of(user_id)
            seats = None
            if yes and seat is None:
                if len(info.seats) >= info.definition.max_players:
                    raise Refused(Msg("The table is full ({n} players).", n=info.definition.max_players))
                await self._may_join(info, user_id)
                seats = [*info.seats, SeatRow(len(info.seats), user_id, None, safe_name(user_name))]
            elif not yes and seat is not None:
                kept = [s for s in info.seats if s.user_id != user_id]
                seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(kept)]
            version = await answer(self.store, game_id, user_id, seats, yes)
            if not version:
                raise Refused(NOT_LOBBY)
            info = await self.info(game_id)
        ready = (yes and not waiting(info) and open_seats(info) == 0
                 and info.definition.min_players <= len(info.seats) <= info.definition.max_players)
        return info, ready

    async def _may_join(self, info: TableInfo, user_id: int) -> None:
        """At a rematch, a player who was not invited takes only a seat nobody keeps."""
        await super()._may_join(info, user_id)
        if info.rematch is None:
            info.rematch = await rematch_lobby(self.store, info.row.id)
            info.invites = tuple(await invites(self.store, info.row.id)) if info.rematch else ()
        if info.rematch is None or any(i.user_id == user_id for i in info.invites):
            return
        if len(info.seats) + len(waiting(info)) >= info.definition.max_players:
            raise Refused(Msg("The other seats are kept for the players of game #{old} until they answer.",
                              old=info.rematch.from_game_id))

    async def _may_start(self, info: TableInfo, user_id: int, admin: bool) -> None:
        """While invited players have not answered, only the creator (or a moderator) starts without them."""
        await super()._may_start(info, user_id, admin)
        if admin or user_id == info.row.creator_id:
            return
        info.rematch = await rematch_lobby(self.store, info.row.id)
        info.invites = tuple(await invites(self.store, info.row.id)) if info.rematch else ()
        pending = waiting(info)
        if pending:
            raise Refused(Msg("Waiting for {names} to answer; only the player who opened the rematch can start"
                              " without them.", names=Items([i.name for i in pending], "comma")))

    async def _lobby_details(self, info: TableInfo) -> None:
        await super()._lobby_details(info)
        info.rematch = await rematch_lobby(self.store, info.row.id)
        if info.rematch is not None:
            info.invites = tuple(await invites(self.store, info.row.id))
