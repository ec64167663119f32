"""The outbox: posts owed by a commit, claimed under a lease, sent in batches and marked done."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.db import IDS, Rows, Tx
from bot.store.base import StorePart
from bot.store.rows import _GAME_COLUMNS, GameRow, OutboxRow, PendingPost, _dumps, _game


class OutboxPart(StorePart):
    """Owed posts and the DM digests written with them."""

    async def _insert_posts(self, tx: Tx, game_id: int, posts: Sequence[PendingPost], now: float) -> None:
        await tx.write_rows(self._post_rows(game_id, posts, now))

    @staticmethod
    def _post_rows(game_id: int, posts: Sequence[PendingPost], now: float) -> list[Rows]:
        """The outbox rows of owed posts, in order (their ids follow it), and the DM digests they carry:
        the hand a DM carries counts as sent once owed, for the outbox delivers it exactly once."""
        digests = {p.seat: p.payload["digest"] for p in posts if p.kind == "dm" and "digest" in p.payload}
        return [Rows("outbox", ("game_id", "kind", "seat", "payload", "at"),
                     ("bigint", "text", "integer", "text", "double precision"),
                     [(game_id, p.kind, p.seat, _dumps(p.payload), now) for p in posts]),
                Rows("dm_state", ("game_id", "seat", "digest"), ("bigint", "integer", "text"),
                     [(game_id, seat, digest) for seat, digest in digests.items()],
                     "ON CONFLICT (game_id, seat) DO UPDATE SET digest = excluded.digest")]

    async def dm_digests(self, game_id: int) -> dict[int, str]:
        """Seat -> digest of the private view last owed to it by DM (see migration 4)."""
        rows = await self._db.fetch("SELECT seat, digest FROM dm_state WHERE game_id = ?", (game_id,))
        return {seat: digest for seat, digest in rows}

    async def add_posts(self, game_id: int, posts: Sequence[PendingPost], status: str | None = None) -> None:
        async with self._db.transaction() as tx:
            await self._insert_posts(tx, game_id, posts, self.now())
            version = await self._bump(tx, game_id, "status = ?, " if status is not None else "",
                                       (status,) if status is not None else ())
        self._saw(game_id, version)

    # ------------------------------------------------------------------ outbox

    async def pending_posts(self, game_id: int | None = None) -> list[OutboxRow]:
        if game_id is None:
            rows = await self._db.fetch("SELECT id, game_id, kind, seat, payload, batch FROM outbox ORDER BY id")
        else:
            rows = await self._db.fetch(
                "SELECT id, game_id, kind, seat, payload, batch FROM outbox WHERE game_id = ? ORDER BY id",
                (game_id,))
        return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    async def claim_batch(self, post_ids: Sequence[int]) -> int:
        """Mark rows as sent together, before sending; the batch id (their first id) seeds the nonces."""
        batch = min(post_ids)
        # PostgreSQL: one statement, one round trip, whatever the number of rows.
        await self._db.write_ids(f"UPDATE outbox SET batch = ? WHERE {IDS} AND batch IS NULL", (batch,), post_ids)
        return batch

    async def games_owing_posts(self, older_than: float | None = None) -> list[int]:
        """Games with owed posts whose flush lease is free (optionally only posts owed before a time:
        the sweep of a process that picks up what a dead one left)."""
        now = self.now()
        rows = await self._db.fetch(
            "SELECT DISTINCT o.game_id FROM outbox o JOIN games g ON g.id = o.game_id"
            " WHERE (g.flush_until IS NULL OR g.flush_until < ?) AND o.at <= ? ORDER BY o.game_id",
            (now, now if older_than is None else older_than))
        return [r[0] for r in rows]

    async def claim_posts(self, game_id: int, owner: str, lease: float) -> list[OutboxRow] | None:
        """Take the game's owed posts for `lease` seconds: None if another process holds them.

        A game's posts go out in order, so the claim is per game (its row), not per post: SKIP LOCKED
        lets a process pass over a game another one is claiming (or moving) instead of waiting for
        it. The lease lets another process take over the posts of one that died while sending them.
        """
        now = self.now()
        if self.shared:
            # A lease binds other processes only. One statement (one round trip): take the lease if it is free, and read the posts.
            # A claim reads the posts committed before it; a move committing meanwhile holds the
            # game row, so the claim skips the game, and that move's own flush comes back later.
            rows = await self._db.write(
                "WITH claimed AS (UPDATE games SET flush_owner = ?, flush_until = ? WHERE id = ("
                " SELECT id FROM games WHERE id = ? AND (flush_owner IS NULL OR flush_owner = ?"
                " OR flush_until IS NULL OR flush_until < ?) FOR UPDATE SKIP LOCKED) RETURNING id)"
                " SELECT o.id, o.game_id, o.kind, o.seat, o.payload, o.batch FROM claimed"
                " LEFT JOIN outbox o ON o.game_id = claimed.id ORDER BY o.id",
                (owner, now + lease, game_id, owner, now))
            if not rows:
                return None
            return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows if r[0] is not None]
        # A lease binds other processes only: an SQLite file has one process (a holder named there is
        # this process's own earlier run, whose posts are owed to this one now), so the claim writes
        # nothing (issue 29). It reads in a transaction all the same: the file's one connection
        # would otherwise read the rows of a move whose commit is under way, and may yet roll back.
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "SELECT o.id, o.game_id, o.kind, o.seat, o.payload, o.batch FROM games g"
                " LEFT JOIN outbox o ON o.game_id = g.id WHERE g.id = ? ORDER BY o.id", (game_id,))
        if not rows:
            return None
        return [OutboxRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows if r[0] is not None]

    async def release_posts(self, game_id: int, owner: str) -> None:
        if self.shared:  # SQLite: the claim wrote nothing (see claim_posts)
            await self._db.write("UPDATE games SET flush_owner = NULL, flush_until = NULL"
                                 " WHERE id = ? AND flush_owner = ?", (game_id, owner))

    async def posts_done(self, post_ids: Iterable[int]) -> None:
        ids = list(post_ids)
        if not ids:
            return
        await self._db.write_ids(f"DELETE FROM outbox WHERE {IDS}", (), ids)

    async def posts_shown(self, game_id: int, post_ids: Sequence[int], **fields: Any) -> GameRow | None:
        """A board post or edit Discord took: its rows leave the outbox and the game keeps the live
        post's id and words (`fields`, as set_game_fields takes them), in ONE transaction (one turn
        at the write lock instead of two; a crash leaves both undone, and the retry under the same
        nonce or the idempotent edit finds the post). Only the fields that change are written: a
        retried edit that shows the same words adds no version. The row as it is now (None: no
        such game)."""
        async with self._db.transaction() as tx:
            rows = await tx.fetch(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
            if not rows:
                return None
            if post_ids:
                await tx.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in post_ids])
            row = _game(rows[0])
            changed = {k: v for k, v in fields.items() if getattr(row, k) != v}
            if changed:
                rows = await tx.fetch(*self._field_update(game_id, changed))
                row = _game(rows[0])
        if changed:
            self._saw(game_id, row.version)
        return row

