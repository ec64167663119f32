"""Two bot processes on one PostgreSQL, as the service sees them: two stores (two connection pools,
so two sets of advisory locks) and two Tables over one database. One move at a time per game, a
stale copy reloaded, each deadline and each owed post handled by one of them, each interaction once."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from bot.store import RepeatedInteraction, Store
from bot.tables import NOT_YOUR_TURN, STALE_MOVE, Refused, Tables
from tests.bot.test_deadlines import HOUR, SKIP_DEFINITION, Clock
from tests.pg_server import fresh_database

ANN, BOB = 1, 2
_numbers = itertools.count(1)


@pytest.fixture
async def two(pg_server):
    """Two services ("processes") on one fresh PostgreSQL database, sharing one clock."""
    url = await fresh_database(pg_server, f"junction_shared_{next(_numbers)}")
    clock = Clock()
    stores = [await Store.open(url), await Store.open(url)]
    services = [Tables(s, games={"guess": SKIP_DEFINITION}, now=clock) for s in stores]
    for service in services:
        await service.load()
    yield services[0], services[1], clock
    for s in stores:
        await s.close()


async def _started(a: Tables, b: Tables, turn_hours: int = 0) -> int:
    info = await a.create("guess", guild_id=9, channel_id=50, user_id=ANN, user_name="Ann", seat_order="join",
                          options={"rounds": 2}, clock={"turn_hours": turn_hours})
    await b.join(info.row.id, BOB, "Bob")  # the lobby too is shared: B sees A's game by its channel
    assert await b.find_game(50) == info.row.id
    await a.start(info.row.id, ANN)
    return info.row.id


async def test_clicks_on_both_processes_apply_each_move_once(two):
    a, b, _ = two
    game_id = await _started(a, b)
    # Both load the game, then the same seat's click reaches both at once (a retried interaction
    # delivered to two processes): one move is stored, the other is refused.
    _, token_a, _ = await a.legal_moves(game_id, ANN)
    _, token_b, _ = await b.legal_moves(game_id, ANN)
    results = await asyncio.gather(a.play(game_id, ANN, "bid 2", token=token_a),
                                   b.play(game_id, ANN, "bid 2", token=token_b), return_exceptions=True)
    refused = [r for r in results if isinstance(r, Refused)]
    assert len(refused) == 1, results
    assert str(refused[0].reason).startswith((NOT_YOUR_TURN, STALE_MOVE))
    assert [m.notation for m in await a.store.moves(game_id)] == ["bid 2"]
    # B's copy was loaded before A's move: B's next move is checked against the stored game.
    for service, user in itertools.islice(itertools.cycle([(b, BOB), (a, ANN)]), 20):
        info = await service.info(game_id)
        if info.row.status != "running":
            break
        if info.seats[info.to_act[0]].user_id != user:
            continue
        _, token, legal = await service.legal_moves(game_id, user)
        await service.play(game_id, user, legal[0], token=token)
    moves = await a.store.moves(game_id)
    assert [m.n for m in moves] == list(range(len(moves)))  # no gap, no double
    snapshot_n, _ = await b.store.snapshot(game_id)
    assert snapshot_n == len(moves)


async def test_an_interaction_applies_once_across_processes(two):
    a, b, _ = two
    game_id = await _started(a, b)
    await a.store.record_moves(game_id, 0, [(0, "bid 1")], {"n": 1}, [], interaction_id=777)
    with pytest.raises(RepeatedInteraction):
        await b.store.record_moves(game_id, 1, [(0, "bid 1")], {"n": 2}, [], interaction_id=777)
    assert len(await a.store.moves(game_id)) == 1


async def test_a_deadline_fires_on_one_process_only(two):
    a, b, clock = two
    game_id = await _started(a, b, turn_hours=24)
    await b.info(game_id)  # B holds a copy too
    clock.advance(25)
    outcomes = await asyncio.gather(a.fire_due(game_id), b.fire_due(game_id))
    acted = [o for o in outcomes if o is not None and o.applied]
    assert len(acted) == 1, outcomes
    moves = await a.store.moves(game_id)
    assert len(moves) == len(acted[0].applied)
    # Firing again later on either process finds the new clocks, not the old deadline.
    assert await a.fire_due(game_id) is None or not (await a.fire_due(game_id)).applied
    assert await a.store.moves(game_id) == moves
    assert clock() < min((await a.store.next_due_by_game()).values()) <= clock() + 24 * HOUR


async def test_owed_posts_are_claimed_by_one_process_and_taken_over_after_the_lease(two):
    a, b, clock = two
    game_id = await _started(a, b)
    owed = await a.store.claim_posts(game_id, "process-a", lease=60)
    assert owed and {p.kind for p in owed} >= {"board"}
    assert await b.store.claim_posts(game_id, "process-b", lease=60) is None  # A holds them
    assert game_id not in await b.store.games_owing_posts()
    clock.advance(61 / HOUR)  # A died while sending: its lease runs out
    assert game_id in await b.store.games_owing_posts()
    taken = await b.store.claim_posts(game_id, "process-b", lease=60)
    assert [p.id for p in taken] == [p.id for p in owed]
    await b.store.posts_done([p.id for p in taken])
    await b.store.release_posts(game_id, "process-b")
    assert await a.store.pending_posts(game_id) == []


async def test_concurrent_claims_give_the_posts_to_exactly_one(two):
    a, b, _ = two
    game_id = await _started(a, b)
    claims = await asyncio.gather(*(s.store.claim_posts(game_id, f"p{i}", lease=60)
                                    for i, s in enumerate([a, b, a, b])))
    assert sum(1 for c in claims if c) == 1, claims


async def test_a_claim_is_held_until_released_even_with_nothing_owed_and_the_holder_may_claim_again(two):
    """The claim is one statement on PostgreSQL: taking a free lease with no posts owed answers an
    empty list (claimed), not None (held by another process), and the holder's own claim renews."""
    a, b, _ = two
    game_id = await _started(a, b)
    owed = await a.store.claim_posts(game_id, "process-a", lease=60)
    await a.store.posts_done([p.id for p in owed])
    await a.store.release_posts(game_id, "process-a")
    assert await a.store.claim_posts(game_id, "process-a", lease=60) == []
    assert await a.store.claim_posts(game_id, "process-a", lease=60) == []  # its own lease
    assert await b.store.claim_posts(game_id, "process-b", lease=60) is None
    await b.store.release_posts(game_id, "process-b")  # not the holder: changes nothing
    assert await b.store.claim_posts(game_id, "process-b", lease=60) is None
    await a.store.release_posts(game_id, "process-a")
    assert await b.store.claim_posts(game_id, "process-b", lease=60) == []


async def test_a_dm_choice_made_on_one_process_is_followed_by_the_other(two):
    a, b, _ = two
    game_id = await _started(a, b)
    await b.info(game_id)  # B holds the game (its copy knows Bob's choice: all)
    await a.set_dms(BOB, "off")  # the command reaches A; every move then reaches B
    while (await b.info(game_id)).row.status == "running":
        info = await b.info(game_id)
        seat = info.to_act[0]
        user = info.seats[seat].user_id
        _, token, legal = await b.legal_moves(game_id, user)
        await b.play(game_id, user, legal[0], token=token)
    owed = await b.owed_posts(game_id)
    assert [p for p in owed if p.kind == "dm" and p.seat == 1 and not p.payload.get("welcome")] == []
    assert any(p.kind == "dm" and p.seat == 0 for p in owed)  # Ann kept hers
