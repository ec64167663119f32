"""Lobbies in the store (migration 11): a finished game's one rematch and its invitations, idle lobbies closed once.

Exactly once, also with several processes on PostgreSQL: a rematch's row in `rematches` is written in the
new lobby's own transaction, and its key (the finished game) refuses a second one, so a double click or
two processes open one lobby. A rematch whose lobby was cancelled before it started is released (its row
deleted) by the next Rematch click, which then opens a new one. An idle lobby is closed by one conditional UPDATE (still a lobby, not
written since it was found idle), with its line in the outbox in the same transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.db import Tx
from bot.store.core import Store
from bot.store.rows import SeatRow
from rules.words import Msg


@dataclass(frozen=True)
class Invite:
    """A former player asked to a rematch: their answer is None (not yet), "yes" or "no"."""

    user_id: int
    name: str
    answer: str | None = None


@dataclass(frozen=True)
class Rematch:
    """The rematch lobby of a finished game: the old game, the new one, the old game's seat count."""

    from_game_id: int
    game_id: int
    seats: int


def write_rematch(from_game_id: int, seats: int, extra: list[SeatRow], invites: list[Invite], at: float):
    """The rows of a rematch lobby beyond its creator's seat, for `create_game(also=...)`: the ledger row
    (whose key refuses a second rematch of the game), the AI seats and the invitations."""

    async def write(tx: Tx, game_id: int) -> None:
        await tx.execute("INSERT INTO rematches (from_game_id, game_id, seats, at) VALUES (?, ?, ?, ?)",
                         (from_game_id, game_id, seats, at))
        await tx.executemany("INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
                             [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in extra])
        await tx.executemany("INSERT INTO rematch_invites (game_id, user_id, name, answer) VALUES (?, ?, ?, ?)",
                             [(game_id, i.user_id, i.name, i.answer) for i in invites])

    return write


async def seats_left_to_ai(store: Store, game_id: int) -> set[int]:
    """The seats of a game that a human held and the AI holds now (a concede, timeouts for good, /seat ai):
    from seat_holders (migration 10), and for older games from seat_prefs.away_user_id."""
    rows = await store.db.fetch(
        "SELECT s.seat FROM seats s WHERE s.game_id = ? AND s.user_id IS NULL AND (EXISTS (SELECT 1 FROM"
        " seat_holders h WHERE h.game_id = s.game_id AND h.seat = s.seat AND h.user_id IS NOT NULL) OR EXISTS"
        " (SELECT 1 FROM seat_prefs p WHERE p.game_id = s.game_id AND p.seat = s.seat"
        " AND p.away_user_id IS NOT NULL))", (game_id,))
    return {r[0] for r in rows}


async def rematch_of(store: Store, from_game_id: int) -> Rematch | None:
    """The rematch opened for a finished game, if any."""
    rows = await store.db.fetch("SELECT from_game_id, game_id, seats FROM rematches WHERE from_game_id = ?",
                                (from_game_id,))
    return Rematch(*rows[0]) if rows else None


async def release_cancelled_rematch(store: Store, from_game_id: int) -> bool:
    """Forget a game's rematch whose lobby was cancelled before it started (by its creator, for
    inactivity, or because its post failed), so that Rematch opens a new one; False if there is none
    such (no rematch, one that started, or another click released it first)."""
    rows = await store.db.write(
        "DELETE FROM rematches WHERE from_game_id = ? AND game_id IN (SELECT id FROM games WHERE status = 'cancelled')"
        " RETURNING game_id", (from_game_id,))
    return bool(rows)


async def rematch_lobby(store: Store, game_id: int) -> Rematch | None:
    """The rematch a lobby is (None: an ordinary lobby)."""
    rows = await store.db.fetch("SELECT from_game_id, game_id, seats FROM rematches WHERE game_id = ?", (game_id,))
    return Rematch(*rows[0]) if rows else None


async def invites(store: Store, game_id: int) -> list[Invite]:
    rows = await store.db.fetch("SELECT user_id, name, answer FROM rematch_invites WHERE game_id = ? ORDER BY name",
                                (game_id,))
    return [Invite(*row) for row in rows]


async def answer(store: Store, game_id: int, user_id: int, seats: list[SeatRow] | None, yes: bool) -> int:
    """Write an invited player's answer, with the lobby's new seat list (`seats`; None: unchanged) in the
    same transaction; the game's new version (0: the lobby is gone)."""
    async with store.db.transaction() as tx:
        rows = await tx.fetch("UPDATE games SET updated_at = ?, version = version + 1 WHERE id = ?"
                              " AND status = 'lobby' RETURNING version", (store.now(), game_id))
        if not rows:
            return 0
        await tx.execute("UPDATE rematch_invites SET answer = ? WHERE game_id = ? AND user_id = ?",
                         ("yes" if yes else "no", game_id, user_id))
        if seats is not None:
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await tx.executemany("INSERT INTO seats (game_id, seat, user_id, ai_kind, name) VALUES (?, ?, ?, ?, ?)",
                                 [(game_id, s.seat, s.user_id, s.ai_kind, s.name) for s in seats])
    return rows[0][0]


async def lobbies(store: Store) -> list[tuple[int, int | None, float]]:
    """Every open lobby: (game, server, last written)."""
    return [tuple(r) for r in await store.db.fetch(
        "SELECT id, guild_id, updated_at FROM games WHERE status = 'lobby' ORDER BY id")]


async def close_idle_lobby(store: Store, game_id: int, idle_since: float, line: Msg) -> bool:
    """Cancel a lobby that nobody touched since `idle_since` (its updated_at when found idle) and owe
    `line` in its channel, in one transaction; False when it was written meanwhile, started, or closed
    already (by another process): then nothing is written."""
    async with store.db.transaction() as tx:
        rows = await tx.fetch(
            "UPDATE games SET status = 'cancelled', updated_at = ?, version = version + 1"
            " WHERE id = ? AND status = 'lobby' AND updated_at = ? RETURNING version",
            (store.now(), game_id, idle_since))
        if not rows:
            return False
        await tx.execute("INSERT INTO outbox (game_id, kind, seat, payload, at) VALUES (?, 'board', NULL, ?, ?)",
                         (game_id, json.dumps({"lines": [line.to_json()]}), store.now()))
    return True
