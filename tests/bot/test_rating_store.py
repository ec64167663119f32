"""Ratings in the store (bot/rating_store.py), on SQLite and PostgreSQL: a finished game updates each
player once per scope, also when two processes race, after a crash between the end and the update,
and when the backfill runs twice; hand-overs and concessions are recorded for the shares."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
import subprocess
import sys

import pytest

from bot import rating_store
from bot.ratings import Rating, rate_game
from bot.store import Store
from bot.tables import Tables
from tests.bot.guess_game import GAMES
from tests.bot.test_tables import ANN, BOB, CID, DAN, NAMES, lobby, play_one
from tests.pg_server import fresh_database

GUILD = "guild:9"
_race_numbers = itertools.count(1)  # tests.bot.test_tables.lobby opens its games in guild 9


async def finish(tables: Tables, game_id: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    while (await tables.info(game_id)).row.status == "running":
        await play_one(tables, game_id, rng)


async def played_game(tables: Tables, users=(ANN, BOB), channel: int = 50, seed: int = 11) -> int:
    game_id = await lobby(tables, users=users, channel=channel, seed=seed, seat_order="join")
    await tables.start(game_id, users[0])
    await finish(tables, game_id)
    return game_id


async def ratings_table(store: Store) -> list[tuple]:
    return sorted(await store.db.fetch("SELECT scope, game_key, user_id, mu, sigma, games, last_game_id FROM ratings"))


async def ledger(store: Store) -> list[tuple]:
    return sorted(await store.db.fetch("SELECT game_id, scope, rated FROM rated_games"))


async def test_a_finished_game_updates_both_players_once_in_each_scope(tables, store):
    game_id = await played_game(tables)
    ranks = {s["seat"]: s["rank"] for s in (await store.game(game_id)).result["seats"]}
    record = await rating_store.game_record(store, game_id)
    expected = rate_game(record, {})
    assert set(expected) == {ANN, BOB}
    for scope in ("global", GUILD):
        for user in (ANN, BOB):
            assert await rating_store.rating(store, scope, "guess", user) == expected[user]
    assert await ledger(store) == [(game_id, "global", 1), (game_id, GUILD, 1)]
    winner = ANN if ranks[0] < ranks[1] else BOB
    assert ranks[0] == ranks[1] or expected[winner].mu > 25
    before = await ratings_table(store)
    # Applying it again, or sweeping, changes nothing.
    assert not await rating_store.apply_game(store, game_id)
    assert await tables.rate_pending() == 0
    assert await ratings_table(store) == before
    changes = await store.db.fetch("SELECT scope, user_id, rank, weight FROM rating_changes WHERE game_id = ?", (game_id,))
    assert sorted(changes) == sorted((scope, user, ranks[seat], 1.0) for scope in ("global", GUILD)
                                     for seat, user in enumerate((ANN, BOB)))


async def test_a_game_with_one_human_is_in_the_ledger_unrated(tables, store):
    game_id = await lobby(tables, users=(ANN,), seed=5)
    await tables.add_ai(game_id, ANN, "normal")
    await tables.start(game_id, ANN)
    await finish(tables, game_id)
    assert await ledger(store) == [(game_id, "global", 0), (game_id, GUILD, 0)]
    assert await ratings_table(store) == []


async def test_a_crash_between_the_end_and_the_update_is_caught_up_once_after_a_restart(db_path, monkeypatch):
    store = await Store.open(db_path)
    tables = Tables(store, games=GAMES)
    await tables.load()

    async def crash(store, game_id):  # the process dies right after the end's commit
        raise RuntimeError("killed")

    monkeypatch.setattr(rating_store, "apply_game", crash)
    game_id = await played_game(tables)
    assert (await store.game(game_id)).status == "over" and await ledger(store) == []
    await store.close()
    monkeypatch.undo()

    store = await Store.open(db_path)  # the restart
    try:
        tables = Tables(store, games=GAMES)
        await tables.load()
        assert await rating_store.pending_games(store) == [game_id]
        assert await tables.rate_pending() == 1
        after = await ratings_table(store)
        assert {(r[0], r[2], r[5]) for r in after} == {(s, u, 1) for s in ("global", GUILD) for u in (ANN, BOB)}
        assert await tables.rate_pending() == 0 and await ratings_table(store) == after
    finally:
        await store.close()


async def test_two_processes_racing_apply_each_game_once_and_lose_no_update(db_path):
    """PostgreSQL: two stores (two pools, like two shard processes) apply the same games at once, and
    games sharing a player at once; SQLite (one process per file): concurrent calls in one store."""
    first = await Store.open(db_path)
    second = await Store.open(db_path) if first.shared else first
    try:
        tables = Tables(first, games=GAMES)
        await tables.load()
        monkey = rating_store.apply_game
        rating_store.apply_game = _no_update  # finish the games without their updates
        try:
            games = [await played_game(tables, users=users, channel=60 + i, seed=20 + i)
                     for i, users in enumerate([(ANN, BOB), (ANN, CID), (BOB, CID), (ANN, DAN)])]
        finally:
            rating_store.apply_game = monkey
        assert await ledger(first) == []
        stores = [first, second] * 4
        results = await asyncio.gather(*(rating_store.apply_game(s, g) for g in games for s in (first, second)),
                                       *(rating_store.apply_pending(s) for s in stores))
        applied = sum(results[:2 * len(games)]) + sum(results[2 * len(games):])
        assert applied == len(games)
        assert len(await ledger(first)) == 2 * len(games)
        # Every update read the one before it: the counts say each player's games, and the mu of each
        # matches a replay of the games in the ledger's order.
        rows = {(r[0], r[2]): r for r in await ratings_table(first)}
        assert rows[("global", ANN)][5] == 3 and rows[("global", BOB)][5] == 2 and rows[("global", CID)][5] == 2
        await assert_chains(first)
    finally:
        if second is not first:
            await second.close()
        await first.close()


async def _no_update(store, game_id):
    return False


async def assert_chains(store: Store) -> None:
    """Every player's updates form one chain per scope and title: each starts from the rating the one
    before it left (a lost update would start two from the same rating), the last one is the stored
    rating, and the stored count of games is the number of updates."""
    steps: dict[tuple, list[tuple[float, float]]] = {}
    for scope, key, user, mu_before, mu in await store.db.fetch(
            "SELECT scope, game_key, user_id, mu_before, mu FROM rating_changes"):
        steps.setdefault((scope, key, user), []).append((mu_before, mu))
    stored = {(r[0], r[1], r[2]): (r[3], r[5]) for r in await ratings_table(store)}
    assert set(stored) == set(steps)
    for who, chain in steps.items():
        befores, afters = [b for b, _ in chain], [a for _, a in chain]
        assert len(set(befores)) == len(chain) and set(befores) - set(afters) == {25.0}, (who, chain)
        assert set(afters) - set(befores) == {stored[who][0]} and stored[who][1] == len(chain), (who, chain)


_APPLY_IN_A_PROCESS = """
import asyncio, sys
from bot.rating_store import apply_pending
from bot.store import Store

async def main():
    store = await Store.open(sys.argv[1])
    if sys.argv[2:] == ["stall"]:  # the process to kill: it says when a game is applied, then stalls mid-sweep
        import bot.store.ratings as ratings
        real = ratings.apply_game

        async def apply_then_stall(store, game_id):
            done = await real(store, game_id)
            print("applied", flush=True)
            await asyncio.sleep(60)
            return done

        ratings.apply_game = apply_then_stall
    try:
        print(await apply_pending(store))
    finally:
        await store.close()

asyncio.run(main())
"""


async def unrated_games(tables: Tables, count: int, first_channel: int) -> list[int]:
    """Finished games among four players whose updates did not happen (as if each process died)."""
    players = [(ANN, BOB), (ANN, CID), (BOB, CID, DAN), (ANN, DAN), (CID, DAN), (ANN, BOB, CID)]
    real = rating_store.apply_game
    rating_store.apply_game = _no_update
    try:
        return [await played_game(tables, users=players[i % len(players)], channel=first_channel + i, seed=40 + i)
                for i in range(count)]
    finally:
        rating_store.apply_game = real


async def test_processes_racing_and_one_killed_apply_each_game_once(pg_server):
    """Three OS processes sweep the same pending games at once on PostgreSQL, one of them is killed
    (SIGKILL) while sweeping: afterwards each game is in the ledger once per scope and every player's
    updates form one chain."""
    url = await fresh_database(pg_server, f"junction_ratings_race_{next(_race_numbers)}")
    store = await Store.open(url)
    try:
        tables = Tables(store, games=GAMES)
        await tables.load()
        games = await unrated_games(tables, 18, 100)
        env = {**os.environ, "PYTHONPATH": os.getcwd()}
        def start(*extra: str) -> subprocess.Popen:
            return subprocess.Popen([sys.executable, "-c", _APPLY_IN_A_PROCESS, url, *extra], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        # Killed mid-sweep whatever the machine's speed: the process to kill starts first and applies one
        # game; only then do the other two start sweeping, and it is killed while they sweep. (Started
        # together, a loaded machine let the other two finish every game before the first one began.)
        spawn = [start("stall")]
        assert (await asyncio.to_thread(spawn[0].stdout.readline)).strip() == "applied"
        spawn += [start(), start()]
        await asyncio.sleep(0.2)
        spawn[0].send_signal(signal.SIGKILL)
        outs = [p.communicate(timeout=60) for p in spawn]
        assert spawn[0].returncode == -signal.SIGKILL
        assert all(p.returncode == 0 for p in spawn[1:]), [o[1] for o in outs]
        by_others = sum(int(out.strip()) for out, _ in outs[1:])
        done = await rating_store.apply_pending(store)  # what the killed one may have left: nothing left
        assert done == 0
        assert by_others <= len(games)
        assert sorted(await ledger(store)) == sorted(itertools.chain.from_iterable(
            ((g, "global", 1), (g, GUILD, 1)) for g in games))
        await assert_chains(store)
    finally:
        await store.close()


async def test_backfill_rates_games_finished_before_ratings_in_order_and_twice_changes_nothing(tables, store):
    games = [await played_game(tables, users=users, channel=70 + i, seed=30 + i)
             for i, users in enumerate([(ANN, BOB), (BOB, ANN), (ANN, BOB, CID)])]
    live = await ratings_table(store)
    # The database as it was before migration 9's data: no ledger, no ratings, no seat holders.
    async with store.db.transaction() as tx:
        for table in ("rating_changes", "rated_games", "ratings", "seat_holders"):
            await tx.execute(f"DELETE FROM {table}")
    assert await rating_store.pending_games(store) == games  # in the order they ended
    assert await rating_store.apply_pending(store) == 3
    assert await ratings_table(store) == live  # the same as updates made at each end
    assert await rating_store.apply_pending(store) == 0
    assert await ratings_table(store) == live


def test_ratings_backfill_command_runs_twice_without_change(tmp_path, monkeypatch, capsys):
    from bot.__main__ import main

    path = str(tmp_path / "junction.db")

    async def setup() -> None:
        store = await Store.open(path)
        tables = Tables(store, games=GAMES)
        await tables.load()
        rating_store_apply = rating_store.apply_game
        rating_store.apply_game = _no_update
        try:
            await played_game(tables)
        finally:
            rating_store.apply_game = rating_store_apply
            await store.close()

    async def table() -> list[tuple]:
        store = await Store.open(path)
        try:
            return await ratings_table(store)
        finally:
            await store.close()

    asyncio.run(setup())
    monkeypatch.setenv("JUNCTION_DB", path)
    assert main(["ratings-backfill"]) == 0
    assert "1 finished games applied" in capsys.readouterr().out
    once = asyncio.run(table())
    assert len(once) == 4
    assert main(["ratings-backfill"]) == 0
    assert "nothing to apply" in capsys.readouterr().out
    assert asyncio.run(table()) == once


async def test_hand_over_and_concede_are_recorded_for_the_shares(tables, store):
    game_id = await lobby(tables, users=(ANN, BOB, CID), seat_order="join", seed=7, options={"rounds": 4})
    await tables.start(game_id, ANN)
    rng = random.Random(5)
    for _ in range(4):
        await play_one(tables, game_id, rng)
    offer = await tables.offer_seat(game_id, BOB, DAN)
    await tables.accept_seat_offer(game_id, offer, DAN, NAMES[DAN])
    for _ in range(3):
        await play_one(tables, game_id, rng)
    await tables.leave(game_id, CID)  # Cid concedes: the AI plays his seat to the end
    await finish(tables, game_id, seed=8)
    record = await rating_store.game_record(store, game_id)
    moves = await store.moves(game_id)
    seat0, seat1, seat2 = record.seats
    assert [(h.user_id, h.gone) for h in seat0.holders] == [(ANN, False)] and seat0.holders[0].moves == seat0.moves
    assert [h.user_id for h in seat1.holders] == [BOB, DAN]
    assert sum(h.moves for h in seat1.holders) == seat1.moves == sum(1 for m in moves if m.seat == 1)
    assert all(h.moves > 0 for h in seat1.holders)
    assert [(h.user_id, h.gone) for h in seat2.holders] == [(CID, True)]
    after = {u: await rating_store.rating(store, "global", "guess", u) for u in (ANN, BOB, CID, DAN)}
    assert after == rate_game(record, {})
    assert after[CID].mu < Rating().mu  # last, below every seat
    weights = dict(await store.db.fetch(
        "SELECT user_id, weight FROM rating_changes WHERE game_id = ? AND scope = 'global'", (game_id,)))
    assert weights[ANN] == 1.0 and weights[CID] == 1.0
    assert weights[BOB] + weights[DAN] == pytest.approx(1.0) and 0 < weights[BOB] < 1
