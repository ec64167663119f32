"""Issue 12, finding 2: one bot process per database. A second `python -m bot` on a database in use
refuses to start in one line; the lock never outlives its process (SIGKILL); two first starts on a
new file neither hang nor crash."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.store import MIGRATIONS, Store, StoreOpenError
from tests.e2e.test_platform import make_bot, open_table

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

# A process that opens the store, says so, and holds it (what a running bot does with its lock).
# `at`: when to open (epoch seconds), so that two holders start at the same instant.
HOLDER = textwrap.dedent("""
    import asyncio, sys, time
    from bot.store import Store

    async def main():
        time.sleep(max(0.0, float(sys.argv[3]) - time.time()))
        try:
            store = await Store.open(sys.argv[1])
        except Exception as error:
            said = "refused" if type(error).__name__ == "StoreOpenError" else "crashed"
            print(f"{said}: {type(error).__name__}: {error}", flush=True)
            return
        print("open", flush=True)
        await asyncio.sleep(float(sys.argv[2]))
        await store.close()

    asyncio.run(main())
""")


def holder(db: str, seconds: float, at: float = 0.0) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", HOLDER, db, str(seconds), str(at)], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def test_a_second_bot_on_the_same_database_refuses_to_start(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "junction.db")
    await fake.start_bot(make_bot(fake, db))
    general = fake.channel("general")
    ann = fake.user("Ann")

    env = {**ENV, "DISCORD_TOKEN": "not.a.token", "JUNCTION_DB": db}
    started = time.monotonic()
    second = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
                                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, err = await asyncio.wait_for(second.communicate(), 30)
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert second.returncode == 1 and time.monotonic() - started < 15
    assert lines == [f"{db} is in use by another Junction process (pid {os.getpid()}): run one bot per database;"
                     " stop the other one first."]

    # The first bot is unharmed: it answers and writes as before.
    await open_table(fake, general, [ann])
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT count(*) FROM games").fetchone()[0] == 1


async def test_a_killed_instance_leaves_no_stale_lock(tmp_path):
    db = str(tmp_path / "junction.db")
    process = holder(db, 60)
    try:
        assert await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 30) == "open\n"
        with pytest.raises(StoreOpenError, match=rf"in use by another Junction process \(pid {process.pid}\)"):
            await Store.open(db)
        process.send_signal(signal.SIGKILL)
        await asyncio.to_thread(process.wait, 10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    store = await Store.open(db)  # the kernel dropped the lock with the process
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_two_first_starts_on_a_new_file_neither_hang_nor_crash(tmp_path):
    db = str(tmp_path / "fresh.db")
    at = time.time() + 3  # both interpreters are up by then, even on a busy machine
    processes = [holder(db, 1.0, at) for _ in range(2)]
    outputs = []
    try:
        for process in processes:
            out, err = await asyncio.wait_for(asyncio.to_thread(process.communicate), 30)
            outputs.append((process.returncode, out.strip(), err.strip()))
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert all(code == 0 and not err for code, _, err in outputs), outputs
    said = sorted(out.split(":")[0] for _, out, _ in outputs)
    # Both open (one after the other) or one is refused while the other holds the file.
    assert said in (["open", "open"], ["open", "refused"]), outputs
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [
            (n,) for n in range(1, len(MIGRATIONS) + 1)]
