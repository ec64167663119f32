"""Tx.write_rows, the one way the store writes a commit's rows on both backends (statement by statement
on SQLite, one statement on PostgreSQL): the same rows, ids in order, the same counts."""

from __future__ import annotations

import pytest

from bot.db import Rows


async def _game(store) -> int:
    return await store.create_game("guess", {}, 1, guild_id=1, channel_id=10, thread_id=None, creator_id=5,
                                   seat_order="join")


def _outbox(game_id: int, kinds: list[str]) -> Rows:
    return Rows("outbox", ("game_id", "kind", "seat", "payload", "at"),
                ("bigint", "text", "integer", "text", "double precision"),
                [(game_id, kind, None if i % 2 else i, "{}", 1.5) for i, kind in enumerate(kinds)])


def _digest(game_id: int, seat: int, digest: str) -> Rows:
    return Rows("dm_state", ("game_id", "seat", "digest"), ("bigint", "integer", "text"),
                [(game_id, seat, digest)], "ON CONFLICT (game_id, seat) DO UPDATE SET digest = excluded.digest")


def _interaction(game_id: int, interaction_id: int) -> Rows:
    return Rows("interactions", ("interaction_id", "game_id", "n", "at"),
                ("bigint", "bigint", "integer", "double precision"),
                [(interaction_id, game_id, 0, 2.0)], "ON CONFLICT (interaction_id) DO NOTHING")


async def test_rows_of_several_tables_and_the_last_statement(store):
    game_id = await _game(store)
    kinds = [f"k{i}" for i in range(7)]
    async with store.db.transaction() as tx:
        added, rows = await tx.write_rows(
            [_interaction(game_id, 2**62), _outbox(game_id, []), _outbox(game_id, kinds), _digest(game_id, 0, "a")],
            "UPDATE games SET version = version + 5 WHERE id = ? RETURNING version, game_key", (game_id,))
    assert added == [1, 0, 7, 1]
    assert rows == [(5, "guess")]
    posts = await store.pending_posts(game_id)
    assert [p.kind for p in posts] == kinds  # ids follow the rows' order
    assert [p.seat for p in posts] == [None if i % 2 else i for i in range(7)]
    assert await store.dm_digests(game_id) == {0: "a"}


async def test_conflicts_count_as_the_backend_says(store):
    game_id = await _game(store)
    async with store.db.transaction() as tx:
        await tx.write_rows([_interaction(game_id, 7), _digest(game_id, 1, "a")])
    async with store.db.transaction() as tx:
        added, rows = await tx.write_rows([_interaction(game_id, 7), _digest(game_id, 1, "b")])
    assert added == [0, 1] and rows == []  # nothing done on the conflict; an update is a row written
    assert await store.dm_digests(game_id) == {1: "b"}


async def test_nothing_to_write(store):
    game_id = await _game(store)
    async with store.db.transaction() as tx:
        assert await tx.write_rows([_outbox(game_id, [])]) == ([0], [])
        assert await tx.write_rows([], "SELECT id FROM games WHERE id = ?", (game_id,)) == ([], [(game_id,)])


async def test_a_failing_row_writes_nothing(store):
    game_id = await _game(store)
    with pytest.raises(store.db.integrity_errors):
        async with store.db.transaction() as tx:
            await tx.write_rows([_outbox(game_id, ["a", "b"]), _outbox(game_id + 1000, ["c"])])
    assert await store.pending_posts(game_id) == []
