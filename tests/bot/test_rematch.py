"""Rematch through the service, on SQLite and PostgreSQL: one lobby per finished game (also two processes at
once), the same title, options and players; invited players confirm or decline; the seats of players who
left are open to others; it starts by itself once all confirmed and every seat is taken."""

from __future__ import annotations

import asyncio

import pytest

from bot.service.rematch import open_seats, waiting
from bot.store import Store
from bot.store.lobbies import rematch_of
from bot.tables import Refused, Tables
from tests.bot.guess_game import GAMES
from tests.bot.test_lobby_hygiene import finish, open_lobby
from tests.bot.test_tables import ANN, BOB, CID, DAN

EVE, FAY = 5, 6


async def finished_game(tables: Tables, users=(ANN, BOB, CID, DAN), leaver=CID, channel=50, **kw) -> int:
    """A finished Guess game of these players in join order, `leaver` conceding after the start."""
    game_id = await open_lobby(tables, users=users, channel=channel, options={"rounds": 1, "span": 5}, **kw)
    await tables.start(game_id, users[0])
    if leaver is not None:
        await tables.leave(game_id, leaver)
    await finish(tables, game_id)
    return game_id


async def test_a_rematch_keeps_title_options_and_players_and_opens_leavers_seats(tables, store):
    old = await finished_game(tables, clock={"turn_hours": 12, "timeout_action": "skip"})
    with pytest.raises(Refused, match=f"Only the players of game #{old}"):
        await tables.rematch(old, CID, "Cid")  # he left the game
    info = await tables.rematch(old, BOB, "Bob")
    assert info.row.id != old and info.row.status == "lobby" and info.row.game_key == "guess"
    assert info.row.options == {"rounds": 1, "span": 5, "open_bids": False, "pace": "calm"}
    assert (info.row.turn_hours, info.row.timeout_action, info.row.seat_order) == (12, "skip", "join")
    assert info.row.creator_id == BOB and [s.user_id for s in info.seats] == [BOB]
    assert [(i.user_id, i.answer) for i in info.invites] == [(ANN, None), (DAN, None)]
    assert info.rematch.from_game_id == old and info.rematch.seats == 4 and open_seats(info) == 1
    with pytest.raises(Refused) as again:
        await tables.rematch(old, ANN, "Ann")
    assert str(again.value.reason) == f"Game #{old} has had its rematch already: game #{info.row.id}."

    await tables.join(info.row.id, EVE, "Eve")  # Cid's seat is open to anyone
    with pytest.raises(Refused, match=f"kept for the players of game #{old} until they answer"):
        await tables.join(info.row.id, FAY, "Fay")
    with pytest.raises(Refused, match="Only the players of game"):
        await tables.answer_rematch(info.row.id, EVE, "Eve", True)
    info, ready = await tables.answer_rematch(info.row.id, ANN, "Ann", True)
    assert not ready and [i.user_id for i in waiting(info)] == [DAN]
    with pytest.raises(Refused, match="Waiting for Dan to answer"):
        await tables.start(info.row.id, ANN)  # only the creator starts without Dan
    info, ready = await tables.answer_rematch(info.row.id, DAN, "Dan", True)
    assert ready and [s.user_id for s in info.seats] == [BOB, EVE, ANN, DAN]
    await tables.start(info.row.id, DAN)
    assert (await tables.info(info.row.id)).row.status == "running"


async def test_a_declined_seat_opens_and_the_creator_starts_with_those_who_confirmed(tables, store):
    old = await finished_game(tables, users=(ANN, BOB, CID), leaver=None)
    info = await tables.rematch(old, ANN, "Ann")
    game_id = info.row.id
    info, ready = await tables.answer_rematch(game_id, BOB, "Bob", True)
    info, ready = await tables.answer_rematch(game_id, BOB, "Bob", False)  # changes his mind: his seat opens
    assert not ready and [s.user_id for s in info.seats] == [ANN] and open_seats(info) == 1
    info, ready = await tables.answer_rematch(game_id, CID, "Cid", True)
    assert not ready  # Bob's seat is not taken
    await tables.start(game_id, ANN)
    info = await tables.info(game_id)
    assert info.row.status == "running" and sorted(s.user_id for s in info.seats) == [ANN, CID]


async def test_ai_seats_come_back_and_a_minimum_is_kept(tables, store):
    game_id = await open_lobby(tables, users=(ANN, BOB), options={"rounds": 1}, min_reliability=50)
    await tables.add_ai(game_id, ANN, "hard")
    await tables.start(game_id, ANN)
    await finish(tables, game_id)
    info = await tables.rematch(game_id, ANN, "Ann")
    assert [(s.user_id, s.ai_kind) for s in info.seats] == [(ANN, None), (None, "hard")]
    assert info.min_reliability == 50 and info.rematch.seats == 3
    info, ready = await tables.answer_rematch(info.row.id, BOB, "Bob", True)
    assert ready


async def test_a_rematch_cancelled_before_it_started_lets_rematch_open_a_new_one(tables, store):
    old = await finished_game(tables, users=(ANN, BOB), leaver=None)
    first = (await tables.rematch(old, ANN, "Ann")).row.id
    await tables.cancel(first, ANN)
    second = (await tables.rematch(old, BOB, "Bob")).row.id
    assert second != first and (await tables.info(second)).row.creator_id == BOB
    await tables.answer_rematch(second, ANN, "Ann", True)
    await tables.start(second, BOB)
    with pytest.raises(Refused, match=f"had its rematch already: game #{second}"):
        await tables.rematch(old, ANN, "Ann")  # started: it stays the game's rematch


async def test_only_a_finished_game_has_a_rematch(tables):
    game_id = await open_lobby(tables, users=(ANN, BOB))
    with pytest.raises(Refused, match="Only a finished game"):
        await tables.rematch(game_id, ANN, "Ann")


async def test_clicks_at_once_in_two_processes_open_one_rematch(db_path):
    """PostgreSQL: two stores (two shard processes) take every player's click at once; SQLite: one store."""
    first = await Store.open(db_path)
    second = await Store.open(db_path) if first.shared else first
    try:
        one, two = Tables(first, games=GAMES), Tables(second, games=GAMES)
        await one.load()
        await two.load()
        games = [await finished_game(one, users=(ANN, BOB, DAN), leaver=None, channel=60 + i) for i in range(3)]
        clicks = [t.rematch(g, u, "X") for g in games for t in (one, two) for u in (ANN, BOB, DAN, ANN)]
        results = await asyncio.gather(*clicks, return_exceptions=True)
        opened = [r for r in results if not isinstance(r, BaseException)]
        assert len(opened) == len(games), results
        assert all(isinstance(r, Refused) and "had its rematch already" in str(r.reason)
                   for r in results if isinstance(r, BaseException))
        lobbies = await first.db.fetch("SELECT count(*) FROM games WHERE status = 'lobby'")
        assert lobbies[0][0] == len(games)
        assert sorted([(await rematch_of(first, g)).game_id for g in games]) == sorted(r.row.id for r in opened)
    finally:
        if second is not first:
            await second.close()
        await first.close()
