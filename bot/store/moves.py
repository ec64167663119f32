"""The move commit: a game started, its moves appended with their snapshot and owed posts in one transaction, and read back."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from bot.db import Tx
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
            # The game row's new fields, the same for both ways of writing the commit.
            fields: dict[str, Any] = {"status": status, "result": None if result is None else _dumps(result),
                                      "to_act": _to_act(to_act)}
            if post_words is not None:
                fields["post_words"] = _dumps(post_words)
            if write_clocks:
                fields["turn_deadline"] = min((c.deadline for c in clocks), default=None)
            write = self._write_moves_at_once if self._db.array_writes else self._write_moves
            version = await write(tx, game_id, first_n, moves, state, posts, now, interaction_id, fields)
            if seats is not None:
                await self._write_seats(tx, game_id, seats)
            await self._write_prefs(tx, game_id, prefs)
            if write_clocks:
                await self._write_clocks(tx, game_id, clocks, deadline=False)
        self._saw(game_id, version)
        if moves:
            self.commit_seconds.append((time.perf_counter() - started) / len(moves))

    async def _write_moves(self, tx: Tx, game_id: int, first_n: int, moves: Sequence[tuple[int, str]],
                           state: dict[str, Any], posts: Sequence[PendingPost], now: float,
                           interaction_id: int | None, fields: dict[str, Any]) -> int:
        """record_moves' writes, statement by statement (SQLite: calls within the process); the new version.
        RepeatedInteraction if the interaction was already played (nothing is written)."""
        version = await self._bump(tx, game_id, "".join(f"{name} = ?, " for name in fields), tuple(fields.values()))
        if interaction_id is not None:
            # ON CONFLICT DO NOTHING, not a caught error: a failed statement aborts a PostgreSQL
            # transaction, and the row count says the same thing on both backends.
            added = await tx.execute(
                "INSERT INTO interactions (interaction_id, game_id, n, at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (interaction_id) DO NOTHING", (interaction_id, game_id, first_n, now))
            if added == 0:
                raise RepeatedInteraction(f"interaction {interaction_id} was already played")
        await tx.executemany(
            "INSERT INTO moves (game_id, n, seat, notation, at) VALUES (?, ?, ?, ?, ?)",
            [(game_id, first_n + i, seat, text, now) for i, (seat, text) in enumerate(moves)],
        )
        await tx.execute(
            "INSERT INTO snapshots (game_id, n, state, at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id)"
            " DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at",
            (game_id, first_n + len(moves), _dumps(state), now))
        await self._insert_posts(tx, game_id, posts, now)
        return version

    async def _write_moves_at_once(self, tx: Tx, game_id: int, first_n: int, moves: Sequence[tuple[int, str]],
                                   state: dict[str, Any], posts: Sequence[PendingPost], now: float,
                                   interaction_id: int | None, fields: dict[str, Any]) -> int:
        """record_moves' writes in one PostgreSQL statement (one round trip instead of five or six):
        the interaction, the moves, the snapshot, the owed posts and DM digests, the game row; the
        new version. RepeatedInteraction if the interaction was already played (the transaction
        rolls back, nothing is written)."""
        digests = {p.seat: p.payload["digest"] for p in posts if p.kind == "dm" and "digest" in p.payload}
        args: list[Any] = [interaction_id, game_id, first_n, now, [seat for seat, _ in moves],
                           [text for _, text in moves], _dumps(state), [p.kind for p in posts],
                           [p.seat for p in posts], [_dumps(p.payload) for p in posts],
                           list(digests), list(digests.values()), *fields.values()]
        sets = "".join(f"{name} = ${13 + i}, " for i, name in enumerate(fields))
        rows = await tx.fetch(
            "WITH played AS ("
            " INSERT INTO interactions (interaction_id, game_id, n, at)"
            " SELECT $1::bigint, $2::bigint, $3::integer, $4::double precision WHERE $1 IS NOT NULL"
            " ON CONFLICT (interaction_id) DO NOTHING RETURNING 1),"
            " moved AS (INSERT INTO moves (game_id, n, seat, notation, at)"
            " SELECT $2, $3 + m.i - 1, m.seat, m.notation, $4"
            " FROM unnest($5::integer[], $6::text[]) WITH ORDINALITY AS m (seat, notation, i)),"
            " snapped AS (INSERT INTO snapshots (game_id, n, state, at)"
            " VALUES ($2, $3 + cardinality($5::integer[]), $7, $4)"
            " ON CONFLICT (game_id) DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at),"
            # ids in the posts' order: the rows are numbered as the SELECT yields them
            " owed AS (INSERT INTO outbox (game_id, kind, seat, payload, at) SELECT $2, p.kind, p.seat, p.payload, $4"
            " FROM unnest($8::text[], $9::integer[], $10::text[]) WITH ORDINALITY AS p (kind, seat, payload, i)"
            " ORDER BY p.i),"
            # the hand a DM carries counts as sent once owed (see _insert_posts)
            " told AS (INSERT INTO dm_state (game_id, seat, digest) SELECT $2, d.seat, d.digest"
            " FROM unnest($11::integer[], $12::text[]) AS d (seat, digest)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET digest = excluded.digest)"
            f" UPDATE games SET {sets}updated_at = $4, version = version + 1 WHERE id = $2"
            " RETURNING version, (SELECT count(*) FROM played)", args)
        if interaction_id is not None and rows and rows[0][1] == 0:
            raise RepeatedInteraction(f"interaction {interaction_id} was already played")
        return rows[0][0] if rows else 0

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
            await tx.execute(
                "INSERT INTO snapshots (game_id, n, state, at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET n = excluded.n, state = excluded.state, at = excluded.at",
                (game_id, n, _dumps(state), self.now()))
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

