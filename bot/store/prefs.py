"""Preferences: a seat's (mute, timeouts, vacation), a user's (time zone, quiet hours, DMs) and a server's settings."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bot.db import Tx
from bot.store.base import StorePart
from bot.store.rows import DM_CHOICES, SeatPrefs, UserPrefs, _dumps


class PrefsPart(StorePart):
    """Seat, user and server preferences."""

    async def _write_prefs(self, tx: Tx, game_id: int, prefs: Iterable[SeatPrefs]) -> None:
        await tx.executemany(
            "INSERT INTO seat_prefs (game_id, seat, muted, timeouts, vacation_until, vacation_used,"
            " away_user_id, away_name, timeouts_total) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET muted = excluded.muted, timeouts = excluded.timeouts,"
            " vacation_until = excluded.vacation_until, vacation_used = excluded.vacation_used,"
            " away_user_id = excluded.away_user_id, away_name = excluded.away_name,"
            " timeouts_total = excluded.timeouts_total",
            [(game_id, p.seat, int(p.muted), p.timeouts, p.vacation_until, p.vacation_used, p.away_user_id,
              p.away_name, p.timeouts_total) for p in prefs],
        )

    async def seat_prefs(self, game_id: int) -> dict[int, SeatPrefs]:
        rows = await self._db.fetch(
            "SELECT seat, muted, timeouts, vacation_until, vacation_used, away_user_id, away_name, timeouts_total"
            " FROM seat_prefs WHERE game_id = ?", (game_id,))
        return {r[0]: SeatPrefs(r[0], bool(r[1]), r[2], r[3], r[4], r[5], r[6], r[7]) for r in rows}

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

    async def set_user_prefs(self, prefs: UserPrefs) -> None:
        """The user's time zone and quiet hours (their choice of DMs is set by set_user_dms)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO user_prefs (user_id, tz, quiet_start, quiet_end) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET tz = excluded.tz, quiet_start = excluded.quiet_start,"
                " quiet_end = excluded.quiet_end",
                (prefs.user_id, prefs.tz, prefs.quiet_start, prefs.quiet_end))

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

    async def all_guild_settings(self) -> dict[int, dict[str, Any]]:
        """Every server's settings (few rows: one per server that changed one), for caches at start."""
        rows = await self._db.fetch("SELECT guild_id, settings FROM guild_settings")
        return {row[0]: json.loads(row[1]) for row in rows}

