"""The move commit, written once for both backends: a game started, its moves appended with their snapshot and owed posts in one transaction, and read back."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from bot.db import Rows
from bot.store.base import StorePart
from bot.store.rows import (
    ClockRow,
    MoveRow,
    PendingPost,
    RepeatedInteraction,
    SeatPrefs,
    SeatRow,
    StaleGame,
    _dumps,
    _to_act,
)


def _snapshot(game_id: int, n: int, state: dict[str, Any], at: float) -> Rows:
    """A game's snapshot after `n` moves, replacing the one before."""
    return Rows("snapshots", ("game_id", "n", "state", "at"), ("bigint", "integer", "text", "double precision"),
                [(game_id, n, _dumps(state), at)],
                "ON CONFLICT (game_id) DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at")


class MovesPart(StorePart):
    """Starts, moves, snapshots and the interactions behind moves."""

    # ------------------------------------------------------------------ play

    async def start_game(
        self, game_id: int, seats: Sequence[SeatRow], state: dict[str, Any], posts: Sequence[PendingPost],
        clocks: Sequence[ClockRow] = (), to_act: Sequence[int] | None = None,
        post_words: dict[str, Any] | None = None,
    ) -> None:
        """Lobby -> running: final seat order, first snapshot, the posts owed and the words of the
        opening post (`post_words`, see migration 8), in one transaction: a crash right after the
        start never leaves the first post without its opening lines."""
        now = self.now()
        async with self._db.transaction() as tx:
            # Only a lobby starts: a second process that started it first wins, this one writes nothing.
            status = await tx.fetch(f"SELECT status FROM games WHERE id = ?{self._db.for_update()}", (game_id,))
            if not status or status[0][0] != "lobby":
                raise StaleGame(f"game {game_id} is no longer a lobby")
            words = () if post_words is None else (_dumps(post_words),)
            version = await self._bump(tx, game_id, "status = 'running', to_act = ?, "
                                       + ("post_words = ?, " if words else ""), (_to_act(to_act), *words))
            await self._write_seats(tx, game_id, seats)
            await tx.execute("INSERT INTO snapshots (game_id, n, state, at) VALUES (?, 0, ?, ?)",
                             (game_id, _dumps(state), now))
            await self._insert_posts(tx, game_id, posts, now)
            await self._write_clocks(tx, game_id, clocks)
        self._saw(game_id, version)

    async def record_moves(
        self,
        game_id: int,
        first_n: int,
        moves: Sequence[tuple[int, str]],
        state: dict[str, Any],
        posts: Sequence[PendingPost],
        *,
        status: str = "running",
        result: dict[str, Any] | None = None,
        clocks: Sequence[ClockRow] | None = None,
        seats: Sequence[SeatRow] | None = None,
        prefs: Sequence[SeatPrefs] = (),
        to_act: Sequence[int] | None = None,
        interaction_id: int | None = None,
        post_words: dict[str, Any] | None = None,
    ) -> None:
        """Append moves first_n.. with the snapshot after them and the posts they owe: one transaction.

        With them, if given: the game's clocks (all replaced), its seats and changed seat prefs, so
        a timeout's move, the seat it takes over and the clock it clears commit together.
        The snapshot must stand at first_n: a batch built on an older copy of the game (applied twice,
        or after another process's moves) raises StaleGame and writes nothing.
        `interaction_id`: the Discord interaction behind the moves; RepeatedInteraction (nothing
        written) if it already led to a move, here or in another process.
        """
        now = self.now()
        started = time.perf_counter()
        write_clocks = clocks is not None or status != "running"
        clocks = list(clocks or ()) if status == "running" else []
        async with self._db.transaction() as tx:
            # The game row first, locked on PostgreSQL, so the check below cannot race another writer
            # (the game's moves are written under its advisory lock, so its snapshot row cannot
            # change while this statement waits for the row).
            row = await tx.fetch("SELECT g.status, s.n FROM games g LEFT JOIN snapshots s ON s.game_id = g.id"
                                 f" WHERE g.id = ?{self._db.for_update('g')}", (game_id,))
            stored_n = row[0][1] if row else None
            # A lobby has no snapshot: its first moves (AI seats that open the game) commit the start.
            starting = stored_n is None and first_n == 0 and bool(row) and row[0][0] == "lobby"
            if not starting and stored_n != first_n:
                raise StaleGame(f"game {game_id}: moves from {first_n} built on a stale copy "
                                f"(the store has {'no' if stored_n is None else stored_n} moves)")
            if not starting and row[0][0] != "running":
                # Ended meanwhile (a timeout's "end" fired by a process that took the lock over): a
                # batch without moves must not end it twice.
                raise StaleGame(f"game {game_id} is {row[0][0]}, no longer running")
            # The game row's new fields, set last, which returns its new version.
            fields: dict[str, Any] = {"status": status, "result": None if result is None else _dumps(result),
                                      "to_act": _to_act(to_act)}
            if post_words is not None:
                fields["post_words"] = _dumps(post_words)
            if write_clocks:
                fields["turn_deadline"] = min((c.deadline for c in clocks), default=None)
            # One round trip on PostgreSQL (one statement), calls within the process on SQLite. The
            # interaction: ON CONFLICT DO NOTHING, not a caught error (a failed statement aborts a
            # PostgreSQL transaction); the rows it added say the same thing on both backends.
            added, rows = await tx.write_rows(
                [Rows("interactions", ("interaction_id", "game_id", "n", "at"),
                      ("bigint", "bigint", "integer", "double precision"),
                      [] if interaction_id is None else [(interaction_id, game_id, first_n, now)],
                      "ON CONFLICT (interaction_id) DO NOTHING"),
                 Rows("moves", ("game_id", "n", "seat", "notation", "at"),
                      ("bigint", "integer", "integer", "text", "double precision"),
                      [(game_id, first_n + i, seat, text, now) for i, (seat, text) in enumerate(moves)]),
                 _snapshot(game_id, first_n + len(moves), state, now),
                 *self._post_rows(game_id, posts, now)],
                f"UPDATE games SET {''.join(f'{name} = ?, ' for name in fields)}updated_at = ?,"
                " version = version + 1 WHERE id = ? RETURNING version", (*fields.values(), now, game_id))
            if interaction_id is not None and rows and added[0] == 0:
                raise RepeatedInteraction(f"interaction {interaction_id} was already played")
            version = rows[0][0] if rows else 0
            if seats is not None:
                await self._write_seats(tx, game_id, seats)
            await self._write_prefs(tx, game_id, prefs)
            if write_clocks:
                await self._write_clocks(tx, game_id, clocks, deadline=False)
        self._saw(game_id, version)
        if moves:
            self.commit_seconds.append((time.perf_counter() - started) / len(moves))

    async def interaction_played(self, interaction_id: int) -> bool:
        """Whether this interaction id already led to a committed move."""
        rows = await self._db.fetch("SELECT 1 FROM interactions WHERE interaction_id = ?", (interaction_id,))
        return bool(rows)

    async def played_move(self, game_id: int, interaction_id: int) -> tuple[int, str] | None:
        """The move an interaction led to in a game, as (seat, notation); None if it led to none.
        What decides the answer when the connection was lost during a move's COMMIT: the game's row
        is locked first (PostgreSQL), so a commit still under way on the server ends, one way or the
        other, before the interaction is looked up."""
        async with self._db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{self._db.for_update()}", (game_id,))
            rows = await tx.fetch(
                "SELECT m.seat, m.notation FROM interactions i JOIN moves m ON m.game_id = i.game_id AND m.n = i.n"
                " WHERE i.interaction_id = ? AND i.game_id = ?", (interaction_id, game_id))
        return (rows[0][0], rows[0][1]) if rows else None

    async def replace_snapshot(self, game_id: int, n: int, state: dict[str, Any]) -> bool:
        """Overwrite a game's snapshot with one rebuilt from its move log of `n` moves (a repair),
        if the log still has `n` moves; else (another process moved since the log was read, and its
        commit wrote a snapshot of its own) nothing is written: False.

        The game's row is locked first (PostgreSQL), as record_moves locks it: the count cannot
        change before this commits, so an older state never replaces a newer snapshot."""
        async with self._db.transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{self._db.for_update()}", (game_id,))
            if (await tx.fetch("SELECT count(*) FROM moves WHERE game_id = ?", (game_id,)))[0][0] != n:
                return False
            await tx.write_rows([_snapshot(game_id, n, state, self.now())])
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)
        return True

    async def moves(self, game_id: int) -> list[MoveRow]:
        rows = await self._db.fetch(
            "SELECT n, seat, notation, at FROM moves WHERE game_id = ? ORDER BY n", (game_id,)
        )
        return [MoveRow(*row) for row in rows]

    async def snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        rows = await self._db.fetch("SELECT n, state FROM snapshots WHERE game_id = ?", (game_id,))
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

