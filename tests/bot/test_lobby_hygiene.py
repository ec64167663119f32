"""Lobby hygiene through the service, on SQLite and PostgreSQL, with the injected clock: an idle lobby closes
itself once after the server's time; a player's reliability; a lobby's minimum refused in one line."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service.hygiene import DAY
from bot.store import Store
from bot.store.reliability import Reliability, reliability
from bot.tables import Refused, Tables
from rules.words import Msg
from tests.bot.guess_game import GAMES
from tests.bot.test_deadlines import HOUR, T0, Clock
from tests.bot.test_tables import ANN, BOB, CID, DAN, NAMES, play_one


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def timed(store, clock):
    tables = Tables(store, games=GAMES, now=clock)
    await tables.load()
    return tables


async def open_lobby(tables: Tables, users=(ANN,), channel=50, **kw) -> int:
    info = await tables.create("guess", guild_id=9, channel_id=channel, user_id=users[0], user_name=NAMES[users[0]],
                               seat_order="join", **kw)
    for user in users[1:]:
        await tables.join(info.row.id, user, NAMES[user])
    return info.row.id


async def finish(tables: Tables, game_id: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    while (await tables.info(game_id)).row.status == "running":
        await play_one(tables, game_id, rng)


async def finished_and_conceded(tables: Tables, first: tuple[int, ...] = (ANN, CID)) -> None:
    """A game `first` play to the end, then one Ann and Cid start that Cid concedes (the AI plays his seat)."""
    done = await open_lobby(tables, users=first, options={"rounds": 1})
    await tables.start(done, ANN)
    await finish(tables, done)
    left = await open_lobby(tables, users=(ANN, CID), channel=51, options={"rounds": 1})
    await tables.start(left, ANN)
    await tables.leave(left, CID)
    await finish(tables, left)


async def closing_lines(store: Store) -> list[tuple[int, str]]:
    stored = [(p.game_id, str(Msg.from_json(line))) for p in await store.pending_posts()
              for line in p.payload.get("lines", []) if isinstance(line, dict)]
    return [(game_id, line) for game_id, line in stored if "without activity" in line]


async def test_an_idle_lobby_closes_once_after_seven_days_and_activity_moves_its_time(timed, store, clock):
    game_id = await open_lobby(timed)
    assert await timed.due_times() == {game_id: T0 + 7 * DAY}
    scheduled = {}
    timed.on_clocks = lambda game, due: scheduled.__setitem__(game, due)
    clock.advance(5 * 24)
    await timed.join(game_id, BOB, "Bob")  # activity: the week starts again
    clock.advance(2 * 24 + 1)  # a week after the lobby opened, five days after Bob joined
    assert await timed.fire_due(game_id) is None
    assert scheduled == {game_id: T0 + 12 * DAY} and (await timed.info(game_id)).row.status == "lobby"
    clock.advance(5 * 24)
    outcome = await timed.fire_due(game_id)
    assert outcome is not None and outcome.status == "cancelled"
    assert (await timed.info(game_id)).row.status == "cancelled"
    assert await closing_lines(store) == [
        (game_id, f"The lobby of Guess (game #{game_id}) closed after 7 days without activity.")]
    assert await timed.fire_due(game_id) is None  # closed once
    assert await timed.open_game_at(50) is None and await timed.due_times() == {}
    assert len(await closing_lines(store)) == 1


async def test_the_servers_time_applies_and_zero_keeps_lobbies_open(timed, store, clock):
    await store.set_guild_settings(9, {"lobby_days": 1})
    game_id = await open_lobby(timed)
    assert await timed.due_times() == {game_id: T0 + DAY}
    clock.advance(24)
    assert (await timed.fire_due(game_id)).status == "cancelled"
    assert await closing_lines(store) == [
        (game_id, f"The lobby of Guess (game #{game_id}) closed after 1 day without activity.")]
    await store.set_guild_settings(9, {"lobby_days": 0})
    kept = await open_lobby(timed, channel=51)
    assert kept not in await timed.due_times()
    clock.advance(365 * 24)
    assert await timed.fire_due(kept) is None and (await timed.info(kept)).row.status == "lobby"


async def test_a_started_game_is_not_closed_by_its_lobby_time(timed, store, clock):
    game_id = await open_lobby(timed, users=(ANN, BOB))
    await timed.start(game_id, ANN)
    clock.advance(8 * 24)
    await timed.fire_due(game_id)
    assert (await timed.info(game_id)).row.status == "running" and await closing_lines(store) == []


async def test_two_processes_closing_one_idle_lobby_close_it_once(db_path, clock):
    """PostgreSQL: two stores (two shard processes) fire the same lobby at once; SQLite: two calls."""
    first = await Store.open(db_path)
    second = await Store.open(db_path) if first.shared else first
    try:
        one, two = Tables(first, games=GAMES, now=clock), Tables(second, games=GAMES, now=clock)
        await one.load()
        await two.load()
        lobbies = [await open_lobby(one, channel=60 + i) for i in range(4)]
        clock.advance(7 * 24)
        results = await asyncio.gather(*(t.fire_due(g) for g in lobbies for t in (one, two, one, two)))
        assert sum(r is not None for r in results) == len(lobbies)
        assert sorted(g for g, _ in await closing_lines(first)) == lobbies
    finally:
        if second is not first:
            await second.close()
        await first.close()


async def test_reliability_counts_finished_games_games_left_to_the_ai_and_timeouts(timed, store, clock):
    assert await reliability(store, CID) == Reliability(0, 0, 0) and Reliability().percent == 100
    await finished_and_conceded(timed, (ANN, BOB, CID))
    slow = await open_lobby(timed, users=(ANN, DAN), channel=52, clock={"turn_hours": 1, "max_timeouts": 2})
    await timed.start(slow, ANN)
    await timed.play(slow, ANN, "bid 1")
    clock.advance(1)
    await timed.fire_due(slow)  # Dan's first timeout: the AI bids for him
    assert await reliability(store, DAN) == Reliability(0, 0, 1)
    assert await reliability(store, ANN) == Reliability(2, 0, 0)
    assert await reliability(store, CID) == Reliability(1, 1, 0)
    assert (await reliability(store, CID)).percent == 50 and (await reliability(store, ANN)).percent == 100
    assert await reliability(store, CID, guild_id=8) == Reliability(0, 0, 0)
    # Dan's next turn times out too: the AI takes his seat for good (abandoned, two timeouts).
    while (await timed.info(slow)).row.status == "running" and await reliability(store, DAN) != Reliability(0, 1, 2):
        info = await timed.info(slow)
        if 0 in info.to_act:
            _, token, legal = await timed.legal_moves(slow, ANN)
            await timed.play(slow, ANN, legal[0], token=token)
        else:
            clock.advance(1)
            await timed.fire_due(slow)
    assert await reliability(store, DAN) == Reliability(0, 1, 2)


async def test_a_lobby_with_a_minimum_refuses_players_below_it_in_one_line(timed, store):
    left = await open_lobby(timed, users=(ANN, CID), channel=51, options={"rounds": 1})
    await timed.start(left, ANN)
    await timed.leave(left, CID)
    await finish(timed, left)
    with pytest.raises(Refused, match="1 to 100 percent"):
        await open_lobby(timed, channel=52, min_reliability=101)
    with pytest.raises(Refused) as refused:
        await open_lobby(timed, users=(CID,), channel=52, min_reliability=80)
    assert str(refused.value.reason) == "This table asks for a reliability of at least 80%; yours is 0% (0 finished, 1 left to the AI)."
    assert refused.value.reason.id.startswith("This table asks for a reliability of at least {min}%")
    game_id = await open_lobby(timed, channel=52, min_reliability=80)
    assert (await timed.info(game_id)).min_reliability == 80
    with pytest.raises(Refused, match="at least 80%; yours is 0%"):
        await timed.join(game_id, CID, "Cid")
    await timed.join(game_id, BOB, "Bob")  # a newcomer is trusted
    assert [s.user_id for s in (await timed.info(game_id)).seats] == [ANN, BOB]


async def test_timeouts_total_survives_a_move_that_ends_the_run(timed, store, clock):
    game_id = await open_lobby(timed, users=(ANN, BOB), clock={"turn_hours": 1})
    await timed.start(game_id, ANN)
    await timed.play(game_id, ANN, "bid 1")
    clock.advance(1)
    await timed.fire_due(game_id)
    prefs = (await store.seat_prefs(game_id))[1]
    assert (prefs.timeouts, prefs.timeouts_total) == (1, 1)
    while 1 not in (await timed.info(game_id)).to_act:
        _, token, legal = await timed.legal_moves(game_id, ANN)
        await timed.play(game_id, ANN, legal[0], token=token)
    _, token, legal = await timed.legal_moves(game_id, BOB)
    await timed.play(game_id, BOB, legal[0], token=token)  # his own move ends the run, not the total
    prefs = (await store.seat_prefs(game_id))[1]
    assert (prefs.timeouts, prefs.timeouts_total) == (0, 1)
    assert HOUR  # the clock moves in hours
