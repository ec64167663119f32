"""Issue 12, findings 1-2: an error anywhere in a move batch leaves memory equal to the store, the
player is told, the game goes on and a restart loads it; a repeated interaction never applies twice."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

import bot.service.turn as turn_module
from bot.store import RepeatedInteraction, Store
from bot.tables import MOVE_FAILED, START_FAILED, Refused, Repeated, Tables
from rules.engine import replay
from tests.bot.guess_game import GAMES, GuessState

ANN, BOB = 1, 2


class Faults:
    """Failures armed by a test: `kind` says where the next batch breaks."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: Store, ai_seats: frozenset[int] = frozenset({1})) -> None:
        self.kind: str | None = None
        self.fired = 0
        real_apply, real_ai, real_prefs = GuessState._apply, turn_module.ai_move, store._write_prefs

        def apply(state, seat, move):
            events = real_apply(state, seat, move)
            # After the state changed: an engine bug that raises half way is the worst case.
            if self.kind == ("ai_apply" if seat in ai_seats else "player_apply"):
                self._fire(RuntimeError(f"engine broke on {move}"))
            return events

        def ai(state, seat, player):
            if self.kind == "ai_think":
                self._fire(RuntimeError("the AI broke while thinking"))
            if self.kind == "cancel":
                self._fire(asyncio.CancelledError())
            return real_ai(state, seat, player)

        async def write_prefs(tx, game_id, prefs):
            if self.kind == "store_sql":  # inside the transaction, after the moves and posts were written
                self._fire(sqlite3.OperationalError("disk I/O error"))
            return await real_prefs(tx, game_id, prefs)

        real_record = store.record_moves

        async def record_moves(*args, **kwargs):
            if self.kind == "store_write":
                self._fire(sqlite3.OperationalError("database or disk is full"))
            return await real_record(*args, **kwargs)

        monkeypatch.setattr(GuessState, "_apply", apply)
        monkeypatch.setattr(turn_module, "ai_move", ai)
        monkeypatch.setattr(store, "_write_prefs", write_prefs)
        monkeypatch.setattr(store, "record_moves", record_moves)

    def _fire(self, error: BaseException) -> None:
        self.kind = None  # once: the retry goes through
        self.fired += 1
        raise error


async def assert_memory_is_store(tables: Tables, store: Store, game_id: int) -> None:
    """What players see from the service equals the stored snapshot, which equals the log replayed."""
    info = await tables.info(game_id)
    n, data = await store.snapshot(game_id)
    moves = await store.moves(game_id)
    assert n == len(moves) == info.moves
    definition = GAMES["guess"]
    logged = replay(definition, len(info.seats), info.row.options, info.row.seed, [(m.seat, m.notation) for m in moves])
    assert logged.to_json() == data
    stored = definition.from_json(data)
    view, _ = await tables.public_view(game_id)
    assert view == stored.view(None)
    assert info.to_act == tuple(sorted(stored.to_act()))
    for seat in info.seats:
        if seat.user_id is not None:
            assert (await tables.private_view(game_id, seat.user_id))[1] == stored.view(seat.seat)
            if seat.seat in stored.to_act():
                # The picker token is the seat's decision count in the log (a stale one would refuse).
                _, token, _ = await tables.legal_moves(game_id, seat.user_id)
                assert token == sum(1 for m in moves if m.seat == seat.seat)


async def new_game(tables: Tables, channel: int = 50, rounds: int = 2) -> int:
    """Ann in seat 0, the AI in seat 1, Bob in seat 2."""
    info = await tables.create("guess", guild_id=9, channel_id=channel, user_id=ANN, user_name="Ann",
                               seat_order="join", options={"rounds": rounds, "span": 3}, seed=channel)
    await tables.add_ai(info.row.id, ANN)
    await tables.join(info.row.id, BOB, "Bob")
    return info.row.id


@pytest.mark.parametrize("kind", ["player_apply", "ai_think", "ai_apply", "store_write", "store_sql", "cancel"])
async def test_an_error_anywhere_in_a_batch_leaves_memory_equal_to_the_store(db_path, monkeypatch, kind):
    """Every human move of a whole game first meets the fault; the player is told the move was not
    played, memory equals the store, the same move then goes through, and a restart loads cleanly.
    The bid step is simultaneous (the AI and both humans act together), the guesses in turn."""
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    faults = Faults(monkeypatch, store)
    game_id = await new_game(tables)
    await tables.start(game_id, ANN)
    rng = random.Random(kind)
    for _ in range(40):
        info = await tables.info(game_id)
        if info.row.status != "running":
            break
        seat = info.to_act[0]
        user = info.seats[seat].user_id
        _, token, legal = await tables.legal_moves(game_id, user)
        move = rng.choice(legal)
        faults.kind = kind
        fired = faults.fired
        try:
            await tables.play(game_id, user, move, token=token)
        except asyncio.CancelledError:
            assert kind == "cancel"
        except Refused as refused:
            assert str(refused.reason) == MOVE_FAILED
        else:
            assert faults.fired == fired  # the fault had nothing to break in this batch (no AI moved)
        faults.kind = None
        await assert_memory_is_store(tables, store, game_id)
        if faults.fired > fired:  # the game goes on: the same move, from a fresh picker
            _, token, _ = await tables.legal_moves(game_id, user)
            await tables.play(game_id, user, move, token=token)
            await assert_memory_is_store(tables, store, game_id)
    assert faults.fired >= 3
    assert (await tables.info(game_id)).row.status == "over"
    await store.close()

    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    await tables.load()
    await assert_memory_is_store(tables, store, game_id)
    await store.close()


@pytest.mark.parametrize("kind", ["ai_think", "ai_apply", "store_write"])
async def test_a_failed_ai_opening_keeps_the_lobby(store, monkeypatch, kind):
    """The AI bids as the game opens; if its move fails, the game did not start (it is not left
    running with an AI turn nobody plays): the player is told, and Start works next time."""
    tables = Tables(store, games=GAMES)
    faults = Faults(monkeypatch, store, ai_seats=frozenset({2}))
    info = await tables.create("guess", guild_id=9, channel_id=7, user_id=ANN, user_name="Ann", seat_order="join")
    await tables.join(info.row.id, BOB, "Bob")
    await tables.add_ai(info.row.id, ANN)  # the bid step: everyone, the AI included, acts at once
    faults.kind = kind
    with pytest.raises(Refused) as refused:
        await tables.start(info.row.id, ANN)
    assert str(refused.value.reason) == START_FAILED and faults.fired == 1
    assert (await tables.info(info.row.id)).row.status == "lobby"
    assert await store.snapshot(info.row.id) is None and await store.moves(info.row.id) == []
    outcome = await tables.start(info.row.id, ANN)
    assert [seat for seat, _ in outcome.applied] == [2]
    await assert_memory_is_store(tables, store, info.row.id)


async def test_a_failed_concede_leaves_the_seat_with_its_player(store, monkeypatch):
    tables = Tables(store, games=GAMES)
    faults = Faults(monkeypatch, store, ai_seats=frozenset({1, 2}))
    game_id = await new_game(tables, rounds=1)
    await tables.start(game_id, ANN)
    faults.kind = "ai_apply"  # Bob's seat, now the AI's, bids and breaks
    with pytest.raises(RuntimeError):
        await tables.concede(game_id, BOB)
    info = await tables.info(game_id)
    assert info.seats[2].user_id == BOB and [s.user_id for s in await store.seats(game_id)][2] == BOB
    await assert_memory_is_store(tables, store, game_id)


async def test_a_failed_timeout_leaves_memory_equal_to_the_store(store, monkeypatch):
    now = [1_800_000_000.0]
    tables = Tables(store, games=GAMES, now=lambda: now[0])
    faults = Faults(monkeypatch, store)
    info = await tables.create("guess", guild_id=9, channel_id=8, user_id=ANN, user_name="Ann", seat_order="join",
                               clock={"turn_hours": 1, "timeout_action": "ai"})
    game_id = info.row.id
    await tables.add_ai(game_id, ANN)
    await tables.join(game_id, BOB, "Bob")
    await tables.start(game_id, ANN)
    now[0] += 2 * 3600
    faults.kind = "player_apply"  # the AI's move for a timed-out human breaks the engine
    with pytest.raises(RuntimeError):
        await tables.fire_due(game_id)
    await assert_memory_is_store(tables, store, game_id)
    outcome = await tables.fire_due(game_id)  # the scheduler retries: now it goes through
    assert outcome is not None and {seat for seat, _ in outcome.applied} == {0, 2}
    await assert_memory_is_store(tables, store, game_id)


async def test_a_repeated_interaction_never_applies_twice(store):
    """The same /play delivered again (a client or gateway retry) is ignored, even when the move
    it carries would be legal again (Ann's "bid 1" in round 2)."""
    tables = Tables(store, games=GAMES)
    info = await tables.create("guess", guild_id=9, channel_id=9, user_id=ANN, user_name="Ann", seat_order="join",
                               options={"rounds": 2})
    game_id = info.row.id
    await tables.add_ai(game_id, ANN)
    await tables.start(game_id, ANN)  # the AI bids
    await tables.play(game_id, ANN, "bid 1", interaction_id=1001)
    with pytest.raises(Repeated):
        await tables.play(game_id, ANN, "bid 1", interaction_id=1001)  # at once: not "not your turn"
    await tables.play(game_id, ANN, "pass", interaction_id=1002)  # the AI passes, round 2, the AI bids
    assert "bid 1" in (await tables.legal_moves(game_id, ANN))[2]
    with pytest.raises(Repeated):
        await tables.play(game_id, ANN, "bid 1", interaction_id=1001)
    assert [(m.seat, m.notation) for m in await store.moves(game_id)][1:3] == [(0, "bid 1"), (0, "pass")]
    assert len(await store.moves(game_id)) == 5
    await assert_memory_is_store(tables, store, game_id)


async def test_a_second_service_on_the_same_file_cannot_apply_an_interaction_again(db_path):
    """Two services (as two shards would) with their own memory: the one that commits second is
    refused by the store in the move's transaction, and writes nothing."""
    first = await Store.open(db_path)
    second = await Store.open(db_path)
    try:
        tables_a, tables_b = Tables(first, games=GAMES), Tables(second, games=GAMES)
        info = await tables_a.create("guess", guild_id=9, channel_id=10, user_id=ANN, user_name="Ann",
                                     seat_order="join")
        await tables_a.join(info.row.id, BOB, "Bob")
        await tables_a.start(info.row.id, ANN)
        await tables_b.info(info.row.id)  # b holds the state in memory now
        await tables_a.play(info.row.id, ANN, "bid 2", interaction_id=2001)
        n = len(await first.moves(info.row.id))
        with pytest.raises(RepeatedInteraction):  # b's memory is behind; the store still says no
            await second.record_moves(info.row.id, n, [(0, "bid 2")], {}, [], interaction_id=2001)
        assert len(await first.moves(info.row.id)) == n
        with pytest.raises(Repeated):
            await tables_b.play(info.row.id, ANN, "bid 2", interaction_id=2001)
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("kind", ["ai_think", "ai_apply"])
async def test_santa_fe_an_ai_failing_beside_a_human_leaves_the_game_as_stored(db_path, monkeypatch, kind):
    """The issue's case on a real engine: Santa Fe's simultaneous steps await the AI and the human
    together; an AI failing there (thinking, or half way through its move) must not leave the
    human's move applied in memory only. Then a restart loads the game."""
    from rules.registry import GAMES as REAL

    definition = REAL["santa_fe"]
    state_class = type(definition.new_game(2, definition.resolve_options({}), 1))
    real_apply, real_ai = state_class._apply, turn_module.ai_move
    armed = {"on": False, "fired": 0, "together": 0}

    def fire(awaited: frozenset[int]) -> None:
        armed["on"] = False
        armed["fired"] += 1
        armed["together"] += awaited == {0, 1}  # the AI broke while the human was awaited too
        raise RuntimeError("the AI broke")

    def ai(state, seat, player):
        if armed["on"] and kind == "ai_think":
            fire(state.to_act())
        return real_ai(state, seat, player)

    def apply(state, seat, move):
        awaited = state.to_act()
        events = real_apply(state, seat, move)
        if armed["on"] and kind == "ai_apply" and seat == 1:
            fire(awaited)
        return events

    monkeypatch.setattr(turn_module, "ai_move", ai)
    monkeypatch.setattr(state_class, "_apply", apply)
    store = await Store.open(db_path)
    tables = Tables(store, games=REAL)
    info = await tables.create("santa_fe", guild_id=9, channel_id=11, user_id=ANN, user_name="Ann",
                               seat_order="join", seed=5)
    game_id = info.row.id
    await tables.add_ai(game_id, ANN, "easy")
    await tables.start(game_id, ANN)
    rng = random.Random(5)

    async def check() -> None:
        n, data = await store.snapshot(game_id)
        moves = await store.moves(game_id)
        seats = await store.seats(game_id)
        logged = replay(definition, 2, info.row.options, info.row.seed, [(m.seat, m.notation) for m in moves])
        assert n == len(moves) and logged.to_json() == data
        assert (await tables.public_view(game_id))[0] == logged.view(None)
        assert (await tables.private_view(game_id, ANN))[1] == logged.view(0)
        assert (await tables.info(game_id)).to_act == tuple(sorted(logged.to_act())) and len(seats) == 2

    for _ in range(60):
        current = await tables.info(game_id)
        if current.row.status != "running":
            break
        _, token, legal = await tables.legal_moves(game_id, ANN)
        move = rng.choice(legal)
        armed["on"], fired = True, armed["fired"]
        try:
            await tables.play(game_id, ANN, move, token=token)
        except Refused as refused:
            assert str(refused.reason) == MOVE_FAILED
        armed["on"] = False
        await check()
        if armed["fired"] > fired:
            _, token, _ = await tables.legal_moves(game_id, ANN)
            await tables.play(game_id, ANN, move, token=token)
            await check()
    assert armed["fired"] >= 5 and armed["together"] >= 1
    await store.close()

    store = await Store.open(db_path)
    tables = Tables(store, games=REAL)
    await tables.load()
    await check()
    await store.close()
