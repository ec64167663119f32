"""Two bot processes on one PostgreSQL, each serving half of the shards of a fake Discord: guild
events reach the process of the guild's shard, DMs reach shard 0's process. A game whose clicks
land on both, a reminder's DM button handled by the other process, one process killed (SIGKILL)
mid-game and the game finished on the other: nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import asyncpg
import pytest

from bot import i18n
from bot.tables import DB_DOWN
from tests.bot.test_deadlines import HOUR, T0
from tests.e2e.fake_discord import DISCORD_EPOCH_MS, FakeDiscord, shard_of
from tests.e2e.test_platform import board_posts, started_game
from tests.pg_server import control, fresh_database, throwaway_server

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
# A guild whose events go to shard 1: the process serving shard 0 gets only the DMs.
GUILD_ID = ((1_767_225_600_001 - DISCORD_EPOCH_MS) << 22) + 4242


class Process:
    """One bot process (tests/e2e/shard_process.py) and its log."""

    def __init__(self, fake: FakeDiscord, db: str, clock_file: Path, shard: int, log: Path,
                 shard_count: int = SHARDS) -> None:
        self.shard = shard
        self.log = log
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.shard_process", fake.base_url, db, str(clock_file),
             "--shards", str(shard), "--shard-count", str(shard_count)],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=log.open("w"), stderr=subprocess.STDOUT)

    def errors(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if " ERROR " in line or "Traceback" in line]


def stop_all(processes: Iterable[Process]) -> None:
    """SIGTERM every process still running (a graceful stop), SIGKILL what is not gone in 15 s."""
    processes = list(processes)
    for process in processes:
        if process.popen.poll() is None:
            process.popen.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.popen.wait(15)
        except subprocess.TimeoutExpired:
            process.popen.kill()


async def _rows(db: str, sql: str, *args):
    conn = await asyncpg.connect(db)
    try:
        return [tuple(r) for r in await conn.fetch(sql, *args)]
    finally:
        await conn.close()


def set_clock(clock_file: Path, at: float) -> None:
    """Move every process's clock at once (atomically: a process never reads a half-written file)."""
    tmp = clock_file.with_suffix(".tmp")
    tmp.write_text(repr(at))
    os.replace(tmp, clock_file)


async def _nothing_owed(db: str, timeout: float = 20.0) -> None:
    """Wait until every owed post of the database was sent (the outbox is empty)."""
    for _ in range(int(timeout / 0.05)):
        if not await _rows(db, "SELECT id FROM outbox"):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"posts still owed after {timeout} s: {await _rows(db, 'SELECT game_id, kind FROM outbox')}")


async def test_two_processes_share_a_game_and_one_survives_the_others_death(pg_server, tmp_path):
    assert shard_of(GUILD_ID, SHARDS) == 1
    fake = FakeDiscord(guild_id=GUILD_ID, shard_count=SHARDS)
    await fake.start()
    db = await fresh_database(pg_server, "junction_e2e_shards")
    clock_file = tmp_path / "clock"
    set_clock(clock_file, T0)
    processes = {s: Process(fake, db, clock_file, s, tmp_path / f"shard{s}.log") for s in range(SHARDS)}
    try:
        await fake.wait_for(lambda: fake.shards_connected() == {0, 1} and fake.commands(), timeout=60,
                            what="both processes on the gateway")
        ann, bob = fake.user("Ann"), fake.user("Bob")
        general = fake.channel("general")
        board = await started_game(fake, [ann, bob], general, options="rounds=2", timer=24)
        assert "Ann" in board.text

        # Round 1 bids: Ann in the channel (shard 1), Bob in his DMs (shard 0).
        ix = await fake.slash(ann, general, "play", options={"move": "bid 1"})
        assert ix.shards == [1] and ix.text == "You played `bid 1`."
        ix = await fake.slash(bob, fake.dm_channel(bob), "play", options={"move": "bid 2"})
        assert ix.shards == [0] and ix.text == "You played `bid 2`.", ix.text

        # Ann's guessing turn: half her time passes, the reminder DM comes (from either process);
        # its "Take turn" button goes to shard 0, the process that is not the guild's.
        set_clock(clock_file, T0 + 12 * HOUR)
        reminder = await fake.wait_for(lambda: [m for m in fake.dms(ann) if m.text.startswith("⏰")],
                                       what="Ann's reminder DM")
        assert len(reminder) == 1
        ix = await fake.click(ann, reminder[0], label="Take turn")
        assert ix.shards == [0] and ix.ephemeral and "Your move" in ix.text, ix.text
        ix = await fake.select(ann, ix.reply, ["m:pass"])
        assert ix.shards == [0] and ix.text == "You played `pass`.", ix.text
        ix = await fake.slash(bob, general, "play", options={"move": "pass"})
        assert ix.shards == [1] and ix.text == "You played `pass`.", ix.text
        moves_before_kill = len(await _rows(db, "SELECT n FROM moves"))
        await _nothing_owed(db)

        # The guild's process dies mid-game: no goodbye, its connections just drop.
        processes[1].popen.send_signal(signal.SIGKILL)
        processes[1].popen.wait(10)
        await fake.wait_for(lambda: fake.shards_connected() == {0}, what="shard 1 gone")

        # Round 2 on the survivor, through DMs: both bids, then a timeout it fires alone.
        for user, move in ((ann, "bid 0"), (bob, "bid 3")):
            ix = await fake.slash(user, fake.dm_channel(user), "play", options={"move": move})
            assert ix.shards == [0] and ix.text == f"You played `{move}`.", ix.text
        set_clock(clock_file, T0 + 40 * HOUR)  # Ann's guessing turn times out: the AI plays it
        await fake.wait_for(lambda: any("Time ran out for Ann" in m.text for m in board_posts(general)),
                            timeout=20, what="the timeout on the surviving process")
        ix = await fake.slash(bob, fake.dm_channel(bob), "play", options={"move": "pass"})
        assert ix.shards == [0] and ix.text == "You played `pass`.", ix.text
        final = await fake.wait_for(lambda: [m for m in board_posts(general) if "Game over" in m.text],
                                    timeout=20, what="the final board")

        moves = await _rows(db, "SELECT n, seat, notation FROM moves WHERE game_id = 1 ORDER BY n")
        assert [n for n, _, _ in moves] == list(range(len(moves)))  # none lost, none doubled
        assert len(moves) == moves_before_kill + 4 == 8
        assert await _rows(db, "SELECT status FROM games") == [("over",)]
        snapshot = await _rows(db, "SELECT n, state FROM snapshots WHERE game_id = 1")
        assert snapshot[0][0] == len(moves) and json.loads(snapshot[0][1])
        await _nothing_owed(db)
        assert len(final) == 1
        posts = Counter(m.text for m in board_posts(general))
        assert max(posts.values()) == 1, posts  # no board post twice
        assert len([m for m in fake.dms(ann) if m.text.startswith("⏰")]) == 1  # the reminder once
        assert not processes[0].errors(), processes[0].log.read_text()[-3000:]
    finally:
        stop_all(processes.values())
        await fake.stop()
    assert not fake.errors, fake.errors


# Three processes, one shard each; the guild's events go to shard 2, DMs to shard 0, and shard 1's
# process sees no event at all: it takes its part in deadlines and owed posts through the database.
THREE = 3
GUILD_OF_SHARD_2 = next(GUILD_ID + (n << 22) for n in range(THREE) if shard_of(GUILD_ID + (n << 22), THREE) == 2)


async def _terminate_bot_connections(db: str) -> int:
    """Every connection of the bots to their database, terminated from the server side (a reaper, a
    failover, an operator's pg_terminate_backend); how many there were."""
    conn = await asyncpg.connect(db)
    try:
        return len(await conn.fetch("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    finally:
        await conn.close()


async def test_three_processes_play_on_through_a_database_restart_and_terminated_connections(pg_server, tmp_path):
    """A server restart and every bot connection terminated, mid-game: each move is answered as it
    was stored, the reminder comes once, a command while the server is down is answered in one
    line, a repeated delivery is answered quietly, and the channel whose game ended by a DM (on
    another process) takes a new game at once."""
    fake = FakeDiscord(guild_id=GUILD_OF_SHARD_2, shard_count=THREE)
    await fake.start()
    with throwaway_server() as own:  # a server of its own: this test restarts it
        db = await fresh_database(own, "junction_e2e_faults")
        clock_file = tmp_path / "clock"
        set_clock(clock_file, T0)
        processes = {s: Process(fake, db, clock_file, s, tmp_path / f"shard{s}.log", shard_count=THREE)
                     for s in range(THREE)}
        try:
            await fake.wait_for(lambda: fake.shards_connected() == {0, 1, 2} and fake.commands(), timeout=60,
                                what="three processes on the gateway")
            ann, bob = fake.user("Ann"), fake.user("Bob")
            general = fake.channel("general")
            await started_game(fake, [ann, bob], general, options="rounds=2", timer=24)

            async def play(user, channel, move: str, shard: int) -> None:
                ix = await fake.slash(user, channel, "play", options={"move": move}, timeout=20)
                assert ix.shards == [shard] and ix.text == f"You played `{move}`.", ix.text

            await play(ann, general, "bid 1", 2)
            await asyncio.to_thread(control(db).restart)  # a fast restart: every session ends
            await play(bob, fake.dm_channel(bob), "bid 2", 0)
            await play(ann, general, "pass", 2)
            assert await _terminate_bot_connections(db) >= THREE
            await play(bob, fake.dm_channel(bob), "pass", 0)  # round 2 begins
            await play(ann, fake.dm_channel(ann), "bid 0", 0)
            await play(bob, general, "bid 3", 2)
            # Ann's guessing turn, half her time gone: one reminder, whichever process fires it.
            set_clock(clock_file, T0 + 12 * HOUR)
            await fake.wait_for(lambda: [m for m in fake.dms(ann) if m.text.startswith("⏰")],
                                timeout=20, what="Ann's reminder DM")
            assert await _terminate_bot_connections(db) >= THREE
            await play(ann, fake.dm_channel(ann), "pass", 0)
            await play(bob, fake.dm_channel(bob), "pass", 0)  # the game ends on shard 0's process
            await fake.wait_for(lambda: [m for m in board_posts(general) if "Game over" in m.text],
                                timeout=20, what="the final board")

            # The database goes away for a while: a command is answered in one line, in the reader's
            # language, after the bot tried again for a few seconds (it deferred meanwhile).
            await _nothing_owed(db)
            await asyncio.to_thread(control(db).stop)
            try:
                ix = await fake.slash(ann, general, "game new", options={"game": "guess"}, locale="ja", timeout=30)
                assert ix.shards == [2] and ix.text == i18n.t("ja", DB_DOWN), ix.text
            finally:
                await asyncio.to_thread(control(db).start)
            # The channel's process (shard 2) did not end the game, and opens the next one at once.
            ix = await fake.slash(ann, general, "game new", options={"game": "guess"})
            assert ix.shards == [2] and "Lobby for Guess opened" in ix.text, ix.text
            lobby = next(m for m in reversed(general.messages) if "Lobby open" in m.text)
            join = await fake.click(bob, lobby, label="Join")
            assert join.response_type == 7
            # Discord delivers the click again: the second answer is refused, and that is no error.
            await fake.dispatch("INTERACTION_CREATE", join.payload)
            await fake.wait_for(lambda: any(code == 40060 for code, _ in fake.refusals), timeout=10,
                                what="the repeated delivery answered")

            moves = await _rows(db, "SELECT n, seat, notation FROM moves WHERE game_id = 1 ORDER BY n")
            assert [n for n, _, _ in moves] == list(range(8))  # none lost, none doubled
            assert await _rows(db, "SELECT status FROM games ORDER BY id") == [("over",), ("lobby",)]
            await _nothing_owed(db)
            posts = Counter(m.text for m in board_posts(general))
            assert max(posts.values()) == 1, posts  # no board post twice
            assert len([m for m in fake.dms(ann) if m.text.startswith("⏰")]) == 1  # the reminder once
            await fake.sync()
            for process in processes.values():
                assert not process.errors(), process.log.read_text()[-3000:]
        finally:
            stop_all(processes.values())
            await fake.stop()
    assert not fake.errors, fake.errors


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
