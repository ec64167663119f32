"""Turn clocks: each running seat's clock, replaced with the seats, prefs and posts a reminder or timeout changes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.db import Tx
from bot.store.base import StorePart
from bot.store.rows import ClockRow, PendingPost, SeatPrefs, SeatRow, StaleGame


class ClocksPart(StorePart):
    """Turn clocks and the writes that go with them."""

    async def _write_clocks(self, tx: Tx, game_id: int, clocks: Iterable[ClockRow], deadline: bool = True) -> None:
        """Replace the game's clocks; `deadline`: also set games.turn_deadline (False: the caller sets
        it in its own UPDATE of the game row)."""
        clocks = list(clocks)
        await tx.execute("DELETE FROM clocks WHERE game_id = ?", (game_id,))
        await tx.executemany(
            "INSERT INTO clocks (game_id, seat, token, started_at, deadline, reminders_sent, channel_told,"
            " next_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, c.seat, c.token, c.started_at, c.deadline, c.reminders_sent, int(c.channel_told),
              c.next_due) for c in clocks],
        )
        if deadline:
            await tx.execute("UPDATE games SET turn_deadline = ? WHERE id = ?",
                             (min((c.deadline for c in clocks), default=None), game_id))

    async def save_clock_state(
        self,
        game_id: int,
        *,
        clocks: Sequence[ClockRow] | None = None,
        prefs: Sequence[SeatPrefs] = (),
        seats: Sequence[SeatRow] | None = None,
        posts: Sequence[PendingPost] = (),
        expected: Sequence[ClockRow] | None = None,
    ) -> None:
        """Clocks (all replaced), seat prefs, seats and the posts they owe, in one transaction (a
        reminder is marked sent in the same commit that owes it: it is never sent twice).

        `expected`: the clocks as the caller read them under the game's lock, the fence of this
        write: if the stored clocks differ (another process took the game's lock after this one lost
        it, and fired the reminder or the timeout itself), StaleGame and nothing is written.
        """
        async with self._db.transaction() as tx:
            if expected is not None:
                # The game row first, locked on PostgreSQL: a writer that took the game's lock over
                # commits before this reads its clocks, or waits until this one has committed.
                await tx.fetch(f"SELECT id FROM games WHERE id = ?{self._db.for_update()}", (game_id,))
                stored = [ClockRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in await tx.fetch(
                    "SELECT seat, token, started_at, deadline, reminders_sent, channel_told, next_due FROM clocks"
                    " WHERE game_id = ? ORDER BY seat", (game_id,))]
                if stored != sorted(expected, key=lambda c: c.seat):
                    raise StaleGame(f"game {game_id}: its clocks changed since they were read")
            if seats is not None:
                await self._write_seats(tx, game_id, seats)
            await self._write_prefs(tx, game_id, prefs)
            if clocks is not None:
                await self._write_clocks(tx, game_id, clocks)
            await self._insert_posts(tx, game_id, posts, self.now())
            version = await self._bump(tx, game_id)
        self._saw(game_id, version)

    async def clocks(self, game_id: int) -> list[ClockRow]:
        rows = await self._db.fetch(
            "SELECT seat, token, started_at, deadline, reminders_sent, channel_told, next_due FROM clocks"
            " WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ClockRow(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def next_due_by_game(self, before: float | None = None) -> dict[int, float]:
        """Each running game's earliest clock event (reminder or deadline): what a restart schedules
        (`before`: only events due by then, what a process polls for on a shared database)."""
        rows = await self._db.fetch(
            "SELECT c.game_id, min(c.next_due) FROM clocks c JOIN games g ON g.id = c.game_id"
            " WHERE g.status = 'running'" + (" AND c.next_due <= ?" if before is not None else "")
            + " GROUP BY c.game_id", () if before is None else (before,))
        return {r[0]: r[1] for r in rows}

