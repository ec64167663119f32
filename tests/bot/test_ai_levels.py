"""AI levels at the table: seats keep their level, the stand-in is the table's, hard thinks in a worker process."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot import texts
from bot.ai_pool import AIPool
from bot.store import Store
from bot.tables import Refused, Tables
from bot.words import say
from rules.engine import AIPlayer, Move, RandomAI, ai_move, play_out
from rules.registry import GAMES as REGISTRY
from tests.bot.guess_game import DEFINITION

ANN, BOB = 1, 2
HOUR = 3600.0
T0 = 1_800_000_000.0


class FirstMove(AIPlayer):
    name = "first"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        return legal[0]


class LastMove(AIPlayer):
    name = "last"

    def choose(self, view: dict[str, Any], legal: list[Move], rng: random.Random) -> Move:
        return legal[-1]


# Levels a test can tell apart by their moves: in the bid phase normal bids 0 and hard bids 3.
LEVELLED = dataclasses.replace(DEFINITION, ais={"easy": RandomAI, "normal": FirstMove, "hard": LastMove})
GAMES = {LEVELLED.key: LEVELLED}


class Clock:
    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> float:
        return self.at


async def lobby(tables: Tables, *, clock: dict[str, Any] | None = None, channel: int = 10) -> int:
    info = await tables.create("guess", guild_id=9, channel_id=channel, user_id=ANN, user_name="Ann",
                               seat_order="join", options={"rounds": 1}, clock=clock)
    return info.row.id


async def test_add_ai_keeps_the_chosen_level_and_the_lobby_says_it(store):
    tables = Tables(store, games=GAMES)
    game_id = await lobby(tables)
    await tables.add_ai(game_id, ANN, "hard")
    await tables.add_ai(game_id, ANN)  # the button's default and /seat ai's: normal
    info = await tables.add_ai(game_id, ANN, "greedy")  # an old kind name is read as its level
    assert [s.ai_kind for s in info.seats[1:]] == ["hard", "normal", "normal"]
    await tables.remove_ai(game_id, ANN)
    with pytest.raises(Refused, match="Unknown AI level 'genius'; choose from easy, normal, hard"):
        await tables.add_ai(game_id, ANN, "genius")
    text = texts.lobby_text(await tables.info(game_id))
    assert "2. AI 1 (hard)" in text and "3. AI 2 (normal)" in text
    assert [s.ai_kind for s in await store.seats(game_id)] == [None, "hard", "normal"]


async def test_a_hard_seat_plays_hard_moves(store):
    tables = Tables(store, games=GAMES)
    game_id = await lobby(tables)
    await tables.add_ai(game_id, ANN, "hard")
    await tables.start(game_id, ANN)
    outcome = await tables.play(game_id, ANN, "bid 1")
    names = (await tables.info(outcome.game_id)).names
    assert "Bids: Ann 1, AI 1 3" in [say(line, "en", names) for line in outcome.public_lines]  # normal would bid 0


async def test_the_tables_stand_in_plays_a_timed_out_turn_then_keeps_the_seat(db_path):
    clock = Clock()
    store = await Store.open(db_path)
    try:
        tables = Tables(store, games=GAMES, now=clock)
        with pytest.raises(Refused, match="easy, normal, hard"):
            await lobby(tables, clock={"stand_in": "genius"})
        hard_table = await lobby(tables, clock={"turn_hours": 1, "max_timeouts": 1, "stand_in": "hard"})
        plain_table = await lobby(tables, clock={"turn_hours": 1, "max_timeouts": 1}, channel=11)
        for game_id in (hard_table, plain_table):
            await tables.join(game_id, BOB, "Bob")
            await tables.start(game_id, ANN)
            await tables.play(game_id, ANN, "bid 1")
        clock.at += 1.01 * HOUR
        hard = await tables.fire_due(hard_table)
        plain = await tables.fire_due(plain_table)
        assert hard.applied[0] == (1, "bid 3") and plain.applied[0] == (1, "bid 0")  # hard, and normal by default
        assert "on timeout the AI (hard) plays" in texts.lobby_text(await tables.info(hard_table))
    finally:
        await store.close()
    # After a restart: the setting and the seat the stand-in took over are still hard, and the game's
    # options reach the engine without it.
    store = await Store.open(db_path)
    try:
        row = await store.game(hard_table)
        assert row.stand_in == "hard" and row.options == {**LEVELLED.resolve_options({"rounds": 1})}
        assert (await store.game(plain_table)).stand_in == "normal"
        assert [s.ai_kind for s in await store.seats(hard_table)] == [None, "hard"]
        assert [s.ai_kind for s in await store.seats(plain_table)] == [None, "normal"]
    finally:
        await store.close()


def position(key: str, moves: int, seed: int = 4) -> Any:
    """A 2-player game of `key` after `moves` decisions of normal AIs (a late position: short rollouts)."""
    definition = REGISTRY[key]
    state = definition.new_game(2, {}, seed)
    play_out(state, {0: definition.ai("normal"), 1: definition.ai("normal")}, max_moves=moves)
    return state


async def test_a_hard_decision_in_the_worker_is_the_one_made_in_process():
    pool = AIPool(1)
    try:
        # The two cheapest searches (Trans Europa's is checked by the test below); the worker rebuilds
        # any registry game from its JSON the same way.
        for key, moves in (("ttr_cards", 90), ("great_western", 40)):
            definition = REGISTRY[key]
            state = position(key, moves)
            seat = min(state.to_act())
            assert pool.takes(definition, "hard")
            before = state.to_json()
            in_worker = await pool.decide(definition, state, seat, "hard")
            assert state.to_json() == before
            assert str(in_worker) == str(ai_move(state, seat, definition.ai("hard"))), key
    finally:
        pool.close()


async def test_a_policy_decision_in_the_worker_is_the_one_made_in_process():
    """Every game's easy and normal decisions go to the worker when it has room (issue 29: a burst of
    AI replies in threads held the GIL the event loop needed) and come back the same."""
    pool = AIPool(1)
    try:
        for key, definition in REGISTRY.items():
            state = position(key, 12)
            seat = min(state.to_act())
            for level in ("easy", "normal"):
                assert pool.takes(definition, level), (key, level)
                assert str(await pool.decide(definition, state, seat, level)) == str(
                    ai_move(state, seat, definition.ai(level))), (key, level)
    finally:
        pool.close()


async def test_a_policy_waits_behind_no_search():
    """A policy decision thinks in a thread while searches fill every worker (it would wait seconds
    behind them), in the pool otherwise; a search always goes to the pool."""
    pool, two = AIPool(1), AIPool(2)
    await pool.warm_up()
    definition = REGISTRY["trans_europa"]
    try:
        state = position("trans_europa", 6)
        seat = min(state.to_act())
        hard = asyncio.create_task(pool.decide(definition, state, seat, "hard"))
        other = asyncio.create_task(two.decide(definition, state, seat, "hard"))
        await asyncio.sleep(0)
        assert pool.takes(definition, "hard") and not pool.takes(definition, "normal")
        assert not pool.takes(definition, "easy")
        assert two.takes(definition, "normal")  # its second worker is free
        await asyncio.gather(hard, other)
        assert pool.takes(definition, "normal") and pool.takes(definition, "easy")
        policies = [asyncio.create_task(pool.decide(definition, state, seat, "normal")) for _ in range(3)]
        await asyncio.sleep(0)
        assert pool.takes(definition, "easy")  # policies wait behind policies: milliseconds each
        await asyncio.gather(*policies)
        assert not pool.takes(DEFINITION, "normal")  # not a registry game: the worker could not rebuild it
    finally:
        pool.close()
        two.close()


async def test_other_games_are_answered_while_a_hard_ai_thinks(store):
    """A hard Trans Europa decision (seconds of search) runs in the worker; meanwhile another game's
    status and a move with its AI reply are served, before the hard AI's move is applied."""
    pool = AIPool(1)
    await pool.warm_up()
    thinking = asyncio.Event()
    decide = pool.decide

    async def watched(*args: Any) -> Move:
        if args[-1] == "hard":  # the easy AI's decisions may go to the pool too, while it has room
            thinking.set()
        return await decide(*args)

    pool.decide = watched  # type: ignore[method-assign]
    tables = Tables(store, games=REGISTRY, ai_pool=pool)
    try:
        slow = (await tables.create("trans_europa", guild_id=9, channel_id=20, user_id=ANN, user_name="Ann",
                                    seat_order="join", options={"first_player": "seat0"}, seed=3)).row.id
        await tables.add_ai(slow, ANN, "hard")
        await tables.start(slow, ANN)
        quick = (await tables.create("ttr_cards", guild_id=9, channel_id=21, user_id=BOB, user_name="Bob",
                                     seat_order="join", seed=3)).row.id
        await tables.add_ai(quick, BOB, "easy")
        await tables.start(quick, BOB)

        # Ann's first decision hands the turn to the hard AI; the task ends once its move is applied.
        _, token, legal = await tables.legal_moves(slow, ANN)
        opening = asyncio.create_task(tables.play(slow, ANN, legal[0], token=token))
        await asyncio.wait_for(thinking.wait(), 30)
        assert not opening.done()
        live = tables._live[slow]
        moves_before = live.state.moves_applied
        # Meanwhile: the other table's status, and Bob's move with its (easy) AI's answer.
        status = await tables.info(quick)
        assert status.row.status == "running" and not opening.done()
        _, bob_token, bob_legal = await tables.legal_moves(quick, BOB)
        reply = await tables.play(quick, BOB, bob_legal[0], token=bob_token)
        assert reply.applied[0] == (0, bob_legal[0])
        assert not opening.done() and live.state.moves_applied == moves_before  # the hard AI is still thinking
        answered = await asyncio.wait_for(opening, 60)
        # Ann's move, then the hard AI's: the move ai_move makes in-process from the same position.
        assert [seat for seat, _ in answered.applied] == [0, 1]
        replayed = REGISTRY["trans_europa"].new_game(2, live.row.options, live.row.seed)
        replayed.apply(0, replayed.parse_move(legal[0]))
        assert answered.applied[1][1] == str(ai_move(replayed, 1, REGISTRY["trans_europa"].ai("hard")))
    finally:
        pool.close()


async def test_a_dead_worker_is_replaced_and_the_decision_still_made():
    pool = AIPool(1)
    try:
        await pool.warm_up()
        worker = await asyncio.get_running_loop().run_in_executor(pool._pool, os.getpid)
        os.kill(worker, signal.SIGKILL)
        definition = REGISTRY["ttr_cards"]
        state = position("ttr_cards", 90)
        seat = min(state.to_act())
        move = await pool.decide(definition, state, seat, "hard")
        assert str(move) == str(ai_move(state, seat, definition.ai("hard")))
    finally:
        pool.close()


BOT_WITH_POOL = """
import asyncio, os, sys, time
from bot.ai_pool import AIPool

async def main():
    pool = AIPool(1)
    await pool.warm_up()
    worker = await asyncio.get_running_loop().run_in_executor(pool._pool, os.getpid)
    print(worker, flush=True)
    time.sleep(600)

asyncio.run(main())
"""


def test_ai_workers_end_when_the_bot_is_killed():
    """A SIGKILLed bot cannot shut its pool down: its worker notices the parent is gone and exits."""
    root = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen([sys.executable, "-c", BOT_WITH_POOL], stdout=subprocess.PIPE, text=True,
                           env={**os.environ, "PYTHONPATH": str(root)}, cwd=root)
    try:
        worker = int(bot.stdout.readline())
        os.kill(worker, 0)  # alive while the bot is
    finally:
        bot.kill()
        bot.wait()
        bot.stdout.close()
    for _ in range(200):  # the worker checks every 0.5 s; allow a loaded machine 20 s
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(worker, signal.SIGKILL)
    pytest.fail(f"AI worker {worker} outlived its bot")
