"""The store's games and seats: lobbies created, rows read and set, seat lists and seat offers, a server's games."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot.db import Tx
from bot.store.base import StorePart
from bot.store.rows import _GAME_COLUMNS, STAND_IN_KEY, GameRow, SeatRow, StoreError, _dumps, _game
from rules.words import N_

# With every seat write of a started game: each seat whose holder changed gets a seat_holders row from
# the game's current move count on (migration 10; a second change at the same count replaces the first).
_NOTE_SEAT_HOLDERS = (
    "INSERT INTO seat_holders (game_id, seat, from_n, user_id, ai_kind)"
    " SELECT s.game_id, s.seat, coalesce(p.n, 0), s.user_id, s.ai_kind FROM seats s"
    " JOIN games g ON g.id = s.game_id LEFT JOIN snapshots p ON p.game_id = s.game_id"
    " WHERE s.game_id = ? AND g.status <> 'lobby' AND NOT EXISTS (SELECT 1 FROM seat_holders h"
    " WHERE h.game_id = s.game_id AND h.seat = s.seat AND h.user_id IS NOT DISTINCT FROM s.user_id"
    " AND h.ai_kind IS NOT DISTINCT FROM s.ai_kind AND h.from_n = (SELECT max(l.from_n) FROM seat_holders l"
    " WHERE l.game_id = s.game_id AND l.seat = s.seat))"
    " ON CONFLICT (game_id, seat, from_n) DO UPDATE SET user_id = excluded.user_id, ai_kind = excluded.ai_kind")


class GamesPart(StorePart):
    """Games, their seats and seat offers."""

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
        also: Callable[[Tx, int], Awaitable[None]] | None = None,
    ) -> int:
        """Insert a lobby (and its creator's seat, if any); StoreError if the place has an open game.
        `also(tx, game_id)`: more rows of the new lobby, written in its transaction (a rematch's ledger
        row, a minimum reliability): the lobby is made with them or not at all."""
        now = self.now()
        try:
            async with self._db.transaction() as tx:
                rows = await tx.fetch(
                    "INSERT INTO games (game_key, options, seed, status, seat_order, guild_id, channel_id,"
                    " thread_id, creator_id, created_at, updated_at, turn_hours, timeout_action, max_timeouts,"
                    " vacation_hours) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (game_key, _dumps({**options, STAND_IN_KEY: stand_in}), seed, seat_order, guild_id, channel_id,
                     thread_id,
                     creator_id, now, now, turn_hours, timeout_action, max_timeouts, vacation_hours),
                )
                game_id = rows[0][0]
                if first_seat is not None:
                    user_id, ai_kind, name = first_seat
                    await tx.execute(
                        "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, 0, ?, ?, ?)",
                        (game_id, user_id, ai_kind, name),
                    )
                if also is not None:
                    await also(tx, game_id)
        except self._db.integrity_errors as error:
            raise StoreError(N_("There is already an open game here.")) from error
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._db.fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    async def open_game_at(self, place_id: int) -> GameRow | None:
        """The lobby or running game of a channel or thread."""
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE coalesce(thread_id, channel_id) = ?"
            " AND status IN ('lobby', 'running')",
            (place_id,),
        )
        return _game(rows[0]) if rows else None

    async def latest_game_at(self, place_id: int) -> GameRow | None:
        """The newest game of a channel or thread, open or finished (for status, log and board)."""
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE coalesce(thread_id, channel_id) = ? ORDER BY id DESC LIMIT 1",
            (place_id,),
        )
        return _game(rows[0]) if rows else None

    async def games_of_user(self, user_id: int, *statuses: str) -> list[GameRow]:
        """Games where the user holds a seat, newest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch(
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLUMNS.split(','))} FROM games g"
            f" JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status IN ({marks}) ORDER BY g.id DESC",
            (user_id, *statuses),
        )
        return [_game(row) for row in rows]

    async def games_owing_ai(self) -> list[int]:
        """Running games where an AI seat is to act, or where that is unknown (to_act NULL)."""
        rows = await self._db.fetch(
            "SELECT g.id, g.to_act, s.seat FROM games g"
            " LEFT JOIN seats s ON s.game_id = g.id AND s.user_id IS NULL"
            " WHERE g.status = 'running' ORDER BY g.id"
        )
        to_act: dict[int, str | None] = {}
        ai: defaultdict[int, set[int]] = defaultdict(set)
        for game_id, waiting, seat in rows:
            to_act[game_id] = waiting
            if seat is not None:
                ai[game_id].add(seat)
        return [g for g, waiting in to_act.items() if waiting is None or ai[g] & set(json.loads(waiting))]

    async def games_with_status(self, *statuses: str) -> list[GameRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ({marks}) ORDER BY id", statuses
        )
        return [_game(row) for row in rows]

    async def set_game_fields(self, game_id: int, **fields: Any) -> GameRow | None:
        """Update plain columns (message ids, status, ...); the row as written (None: no such game).
        Names come from code, never from users."""
        # One statement, which returns the row as written (the caller need not read it again).
        rows = await self._db.write(*self._field_update(game_id, fields))
        if not rows:
            return None
        row = _game(rows[0])
        self._saw(game_id, row.version)
        return row

    def _field_update(self, game_id: int, fields: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        """The UPDATE of set_game_fields (statement and arguments), returning the row as written."""
        allowed = {"lobby_message_id", "board_message_id", "status", "dm_closed_told", "result",
                   "turn_hours", "turn_deadline", "timeout_action", "board_posted_at", "board_words"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"bad fields {sorted(fields)}")
        values = [(_dumps(sorted(v)) if k == "dm_closed_told" else
                   _dumps(v) if k in ("result", "board_words") and v is not None else v) for k, v in fields.items()]
        sets = "".join(f"{k} = ?, " for k in fields)
        return (f"UPDATE games SET {sets}updated_at = ?, version = version + 1 WHERE id = ? RETURNING {_GAME_COLUMNS}",
                (*values, self.now(), game_id))

    # ------------------------------------------------------------------ seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._db.fetch(
            "SELECT seat, user_id, ai_kind, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow(*row) for row in rows]

    async def replace_seats(self, game_id: int, seats: Iterable[SeatRow]) -> None:
        """Rewrite a lobby's seat list (join order is the seat number until start)."""
        async with self._db.transaction() as tx:
            await self._write_seats(tx, game_id, seats)
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)

    async def _write_seats(self, tx: Tx, game_id: int, seats: Iterable[SeatRow]) -> None:
        await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        await tx.executemany(
            "INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in seats],
        )
        await tx.execute(_NOTE_SEAT_HOLDERS, (game_id,))

    async def post_words(self, game_id: int) -> dict[str, Any]:
        """The words of the game's current board post (migration 8): {"summary": [...], "lines": [...]}."""
        rows = await self._db.fetch("SELECT post_words FROM games WHERE id = ?", (game_id,))
        return json.loads(rows[0][0]) if rows and rows[0][0] else {"summary": [], "lines": []}

    # ------------------------------------------------------------------ seat offers

    async def add_seat_offer(self, game_id: int, seat: int, giver_id: int, taker_id: int, expires_at: float) -> int:
        """Store an offer (replacing the giver's earlier offers of that seat); returns its id."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM seat_offers WHERE game_id = ? AND seat = ?", (game_id, seat))
            rows = await tx.fetch(
                "INSERT INTO seat_offers (game_id, seat, giver_id, taker_id, expires_at) VALUES (?, ?, ?, ?, ?)"
                " RETURNING id", (game_id, seat, giver_id, taker_id, expires_at))
        return int(rows[0][0])

    async def take_seat_offer(self, offer_id: int, game_id: int, taker_id: int, now: float) -> tuple[int, int] | None:
        """Consume the offer if it is this taker's, for this game and not expired: (seat, giver) or None.

        The delete is the claim: of two clicks (in one process or two), only one deletes the row."""
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "DELETE FROM seat_offers WHERE id = ? AND game_id = ? AND taker_id = ?"
                " RETURNING seat, giver_id, expires_at", (offer_id, game_id, taker_id))
        if not rows:
            return None
        seat, giver, expires_at = rows[0]
        return (seat, giver) if expires_at > now else None

    async def touch_game(self, game_id: int) -> None:
        """Move a game's version on without other change (a setting of one of its players changed),
        so that every process holding the game reloads it before its next use."""
        async with self._db.transaction() as tx:
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)

    # ------------------------------------------------------------------ server admin (part B)

    async def games_in_guild(self, guild_id: int, *statuses: str, limit: int = 50) -> list[GameRow]:
        """A server's games with these statuses, newest first (for /game list and /admin end)."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._db.fetch(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT ?",
            (guild_id, *statuses, limit))
        return [_game(row) for row in rows]

    async def guild_stats(self, guild_id: int) -> dict[str, Any]:
        """Counts for /admin stats: games by status and by game, moves played, distinct players."""
        by_status = dict(await self._db.fetch(
            "SELECT status, count(*) FROM games WHERE guild_id = ? GROUP BY status", (guild_id,)))
        by_game = dict(await self._db.fetch(
            "SELECT game_key, count(*) FROM games WHERE guild_id = ? GROUP BY game_key ORDER BY count(*) DESC",
            (guild_id,)))
        moves = (await self._db.fetch(
            "SELECT count(*) FROM moves m JOIN games g ON g.id = m.game_id WHERE g.guild_id = ?", (guild_id,)))[0][0]
        players = (await self._db.fetch(
            "SELECT count(DISTINCT s.user_id) FROM seats s JOIN games g ON g.id = s.game_id"
            " WHERE g.guild_id = ? AND s.user_id IS NOT NULL", (guild_id,)))[0][0]
        return {"by_status": by_status, "by_game": by_game, "moves": moves, "players": players}

