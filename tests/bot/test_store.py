"""Store: migrations, one open game per place, move log with its snapshot, outbox, settings."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import MIGRATIONS, PendingPost, SeatRow, StaleGame, Store, StoreError


async def _game(store: Store, channel: int = 10) -> int:
    return await store.create_game("guess", {"rounds": 1}, 7, guild_id=1, channel_id=channel, thread_id=None,
                                   creator_id=100, seat_order="join", first_seat=(100, None, "Ann"))


async def test_migrations_run_once_and_wal(sqlite_path):
    db_path = sqlite_path
    store = await Store.open(db_path)
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    store = await Store.open(db_path)  # reopening must not re-run migration 1
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("SELECT count(*) FROM schema_version").fetchone()[0] == len(MIGRATIONS)


async def test_one_open_game_per_channel(store):
    game_id = await _game(store)
    with pytest.raises(StoreError):
        await _game(store)
    assert (await store.open_game_at(10)).id == game_id
    await store.set_game_fields(game_id, status="cancelled")
    assert await store.open_game_at(10) is None
    await _game(store)  # the channel is free again


async def test_moves_snapshot_and_posts_are_one_transaction(store):
    game_id = await _game(store)
    seats = [SeatRow(0, 100, None, "Ann"), SeatRow(1, None, "random", "AI 1")]
    await store.start_game(game_id, seats, {"n": 0}, [PendingPost("board", None, {"lines": ["go"]})])
    await store.record_moves(game_id, 0, [(0, "bid 1"), (1, "bid 2")], {"n": 2},
                             [PendingPost("dm", 0, {"lines": ["You bid 1."]})])
    assert [(m.n, m.seat, m.notation) for m in await store.moves(game_id)] == [(0, 0, "bid 1"), (1, 1, "bid 2")]
    assert await store.snapshot(game_id) == (2, {"n": 2})
    # Applying move 1 again is refused (the store is past it) and leaves snapshot, log and outbox as they were.
    with pytest.raises(StaleGame):
        await store.record_moves(game_id, 1, [(1, "bid 3")], {"n": 99}, [PendingPost("board", None, {})])
    assert await store.snapshot(game_id) == (2, {"n": 2})
    assert len(await store.moves(game_id)) == 2
    posts = await store.pending_posts(game_id)
    assert [(p.kind, p.seat) for p in posts] == [("board", None), ("dm", 0)]
    await store.posts_done([posts[0].id])
    assert [p.kind for p in await store.pending_posts()] == ["dm"]
    assert [s.name for s in await store.seats(game_id)] == ["Ann", "AI 1"]
    assert (await store.game(game_id)).status == "running"


async def test_guild_settings_round_trip(store):
    assert await store.guild_settings(5) == {}
    await store.set_guild_settings(5, {"turn_hours": 24})
    await store.set_guild_settings(5, {"turn_hours": 48})
    assert await store.guild_settings(5) == {"turn_hours": 48}


async def test_only_games_where_an_ai_may_owe_a_move_are_resumed(store):
    """A restart loads the states of running games whose seats to act include an AI, or are unknown."""
    ids = []
    for number, to_act in enumerate(([0], [1], None)):
        game_id = await store.create_game("guess", {}, number, guild_id=1, channel_id=100 + number,
                                          thread_id=None, creator_id=1, seat_order="join")
        seats = [SeatRow(0, 1, None, "Ann"), SeatRow(1, None, "random", "AI")]
        await store.start_game(game_id, seats, {"n": 0}, [PendingPost("board", None, {})], to_act=to_act)
        ids.append(game_id)
    human_turn, ai_turn, unknown = ids
    assert await store.games_owing_ai() == [ai_turn, unknown]
    await store.record_moves(ai_turn, 0, [(1, "x")], {"n": 1}, [], to_act=[0])
    assert await store.games_owing_ai() == [unknown]


async def test_a_shown_post_marks_its_rows_done_and_keeps_its_id_in_one_write(store):
    """Store.posts_shown (issue 29): the rows' delete and the live post's id and words are one
    transaction; fields that do not change are not written (no new version)."""
    game_id = await _game(store)
    seats = [SeatRow(0, 100, None, "Ann"), SeatRow(1, None, "random", "AI 1")]
    await store.start_game(game_id, seats, {"n": 0}, [PendingPost("board", None, {"lines": ["go"]}),
                                                      PendingPost("dm", 0, {"lines": []})])
    board, dm = await store.pending_posts(game_id)
    words = {"lines": ["go"], "through": board.id, "own": 1}
    row = await store.posts_shown(game_id, [board.id], board_message_id=55, board_words=words)
    assert (row.board_message_id, row.board_words) == (55, words)
    assert [p.id for p in await store.pending_posts(game_id)] == [dm.id]
    version = (await store.game(game_id)).version
    assert row.version == version
    again = await store.posts_shown(game_id, [], board_message_id=55, board_words=words)  # a retried edit
    assert again.version == version and (await store.game(game_id)).version == version
    assert await store.posts_shown(game_id + 1000, [dm.id], board_words=words) is None
    assert [p.id for p in await store.pending_posts(game_id)] == [dm.id]  # a failed call deletes nothing


async def test_claiming_posts_reads_them_and_a_missing_game_claims_none(store):
    game_id = await _game(store)
    seats = [SeatRow(0, 100, None, "Ann"), SeatRow(1, None, "random", "AI 1")]
    await store.start_game(game_id, seats, {"n": 0}, [PendingPost("board", None, {"lines": ["go"]})])
    owed = await store.claim_posts(game_id, "me", lease=60)
    assert [p.kind for p in owed] == ["board"]
    await store.posts_done([owed[0].id])
    assert await store.claim_posts(game_id, "me", lease=60) == []
    await store.release_posts(game_id, "me")
    assert await store.claim_posts(game_id + 1000, "me", lease=60) is None
