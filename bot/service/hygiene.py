"""Lobby hygiene: an idle lobby closes itself after the server's time (default 7 days), once; a lobby's minimum reliability.

A lobby's closing time is its last write (`updated_at`: a join, a leave, an AI seat, a rematch answer)
plus the server's `lobby_days` (guild setting; 0: never). It is scheduled on the same scheduler as the
turn clocks, under the game's id (a lobby has no clocks): when it fires, the lobby is read again, and
closed only if nobody touched it since; the store's conditional write makes one process close it and
owe its one line, also when several processes fire it together.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.db import Tx
from bot.service.lobby import Lobby
from bot.service.types import Outcome, Refused, TableInfo
from bot.store.lobbies import close_idle_lobby, lobbies
from bot.store.reliability import lobby_rule, min_reliability, reliability
from rules.words import N_, Msg, Plural, Term

log = logging.getLogger("bot.tables")

DAY = 24 * 3600.0
DEFAULT_LOBBY_DAYS = 7
MAX_LOBBY_DAYS = 90


def lobby_days(settings: Mapping[str, Any] | None) -> int:
    """Days of no activity after which a lobby of this server closes (0: never)."""
    value = (settings or {}).get("lobby_days")
    return DEFAULT_LOBBY_DAYS if value is None else int(value)


def closing_line(title: str, game_id: int, days: int) -> Msg:
    """The one line an idle lobby leaves in its channel: a message the outbox keeps, translated when the post is
    made (the service imports no bot.i18n: it imports discord)."""
    return Plural("The lobby of {title} (game #{id}) closed after {days} day without activity.",
                  "The lobby of {title} (game #{id}) closed after {days} days without activity.",
                  n=days, title=Term(title), id=game_id, days=days)


class LobbyHygiene(Lobby):
    """Idle lobbies closed by the scheduler; a minimum reliability checked when a player takes a seat."""

    # ------------------------------------------------------------------ idle lobbies

    async def _lobby_opened(self, info: TableInfo) -> None:
        await super()._lobby_opened(info)
        due = await self._closing_time(info.row.guild_id, info.row.updated_at)
        if due is not None and self.on_clocks is not None:
            self.on_clocks(info.row.id, due)

    async def _closing_time(self, guild_id: int | None, updated_at: float) -> float | None:
        days = await self._lobby_days(guild_id)
        return None if days <= 0 else updated_at + days * DAY

    async def _lobby_days(self, guild_id: int | None) -> int:
        return lobby_days(await self.store.guild_settings(guild_id) if guild_id is not None else None)

    async def lobby_due_times(self, before: float | None = None) -> dict[int, float]:
        """Each open lobby's closing time (`before`: only those due by then), from the store alone."""
        settings = await self.store.all_guild_settings()
        due: dict[int, float] = {}
        for game_id, guild_id, updated_at in await lobbies(self.store):
            days = lobby_days(settings.get(guild_id)) if guild_id is not None else DEFAULT_LOBBY_DAYS
            if days > 0 and (before is None or updated_at + days * DAY <= before):
                due[game_id] = updated_at + days * DAY
        return due

    async def due_times(self) -> dict[int, float]:
        """The turn clocks' next events and the lobbies' closing times (a restart schedules both)."""
        return {**await super().due_times(), **await self.lobby_due_times()}

    async def fire_due(self, game_id: int) -> Outcome | None:
        """A lobby's closing time, or a running game's clocks."""
        row = await self.store.game(game_id)
        if row is not None and row.status == "lobby":
            return await self._close_if_idle(game_id)
        return await super().fire_due(game_id)

    async def _close_if_idle(self, game_id: int) -> Outcome | None:
        """Close the lobby if nobody touched it for the server's time; else schedule the new time."""
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != "lobby":
                return None
            days = await self._lobby_days(row.guild_id)
            if days <= 0:
                return None
            due = row.updated_at + days * DAY
            if self.now() < due:  # touched since it was scheduled
                if self.on_clocks is not None:
                    self.on_clocks(game_id, due)
                return None
            line = closing_line(self.definition(row.game_key).title, game_id, days)
            if not await close_idle_lobby(self.store, game_id, row.updated_at, line):
                log.info("lobby %s: closed or touched by another process meanwhile", game_id)
                return None
            self._forget(row)
            log.info("lobby %s closed after %s days without activity", game_id, days)
            return Outcome(game_id, public_lines=(line,), status="cancelled")

    # ------------------------------------------------------------------ minimum reliability

    async def create(self, game_key: str, *, min_reliability: int | None = None,
                     also: Callable[[Tx, int], Awaitable[None]] | None = None, **table: Any) -> TableInfo:
        """Open a lobby (Lobby.create's `table` arguments) that may ask for a minimum reliability
        (percent), which its creator must meet too; the minimum is written with the lobby."""
        if min_reliability is not None and not 1 <= min_reliability <= 100:
            raise Refused(N_("A minimum reliability goes from 1 to 100 percent."))
        await self.check_reliability(table["user_id"], min_reliability)
        rule = lobby_rule(min_reliability) if min_reliability else None

        async def rows(tx: Tx, game_id: int) -> None:
            for write in (also, rule):
                if write is not None:
                    await write(tx, game_id)

        return await super().create(game_key, also=rows, **table)

    async def check_reliability(self, user_id: int, minimum: int | None) -> None:
        """Refused, with the player's record, when their reliability is below `minimum` (percent)."""
        if not minimum:
            return
        record = await reliability(self.store, user_id)
        if record.percent < minimum:
            raise Refused(Msg("This table asks for a reliability of at least {min}%; yours is {yours}%"
                              " ({finished} finished, {abandoned} left to the AI).", min=minimum, yours=record.percent,
                              finished=record.finished, abandoned=record.abandoned))

    async def _may_join(self, info: TableInfo, user_id: int) -> None:
        await super()._may_join(info, user_id)
        await self.check_reliability(user_id, await min_reliability(self.store, info.row.id))

    async def _lobby_details(self, info: TableInfo) -> None:
        await super()._lobby_details(info)
        info.min_reliability = await min_reliability(self.store, info.row.id)
