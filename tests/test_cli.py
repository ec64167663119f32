"""A newcomer's bad start is one clear line, a shutdown finishes the move in flight, and a killed bot
leaves no render process behind (issue 12, finding 8)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from bot.__main__ import BAD_TOKEN, main, serve
from tests.e2e import conftest as e2e
from tests.e2e.fake_discord import TOKEN
from tests.e2e.test_platform import db_moves, make_bot, started_game, store_fingerprint

fake_discord, log_guard = e2e.fake_discord, e2e.log_guard  # the e2e fixtures, used here too


@pytest.mark.parametrize(("argv", "said"), [
    (["demo", "--game", "ticket_to_ride"],
     "unknown game 'ticket_to_ride'; choose from ttr_cards, great_western, trans_europa, off_the_rails, santa_fe, all"),
    (["demo", "--players", "9"], "Trans Europa (trans_europa) takes 2 to 6 players, not 9"),
    (["demo", "--game", "santa_fe", "--players", "1"], "Santa Fe (santa_fe) takes 2 to 5 players, not 1"),
    (["invite", "not-a-number"], "'not-a-number' is not an application id"),
    (["invite", "9" * 92], "is not an application id"),
])
def test_bad_arguments_get_one_argparse_line(argv, said, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    [line] = [line for line in err.splitlines() if "error:" in line]
    assert said in line


def test_invite_still_prints_the_url(capsys):
    assert main(["invite", "123456789012345678"]) == 0
    assert "client_id=123456789012345678" in capsys.readouterr().out


def run_in_thread(argv):
    """main(argv) in a thread with its own event loop (the fake Discord runs in the test's loop)."""
    return asyncio.to_thread(main, argv)


async def test_a_wrong_token_is_one_line_about_env(fake_discord, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "not-the-token")
    monkeypatch.setenv("JUNCTION_DB", str(tmp_path / "j.db"))
    monkeypatch.setenv("JUNCTION_DEV_GUILD", "")
    started = time.monotonic()
    assert await run_in_thread(["run"]) == 1
    err = capsys.readouterr().err
    assert err.strip() == BAD_TOKEN and "DISCORD_TOKEN" in err and ".env" in err
    assert time.monotonic() - started < 15


async def test_a_shutdown_during_a_move_finishes_and_answers_it(fake_discord, tmp_path, log_guard):
    """SIGTERM/SIGINT (here: serve's stop event, which the signal handlers set) while a /play is in
    flight: the move is committed and answered, then the bot closes; no 'no active connection'."""
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = make_bot(fake, db)
    stop = asyncio.Event()
    serving = asyncio.create_task(serve(bot, TOKEN, stop))
    await fake.wait_for(lambda: bot.is_ready(), timeout=20, what="the bot ready")
    ann, bob = fake.user("Ann"), fake.user("Bob")
    general = fake.channel("general")
    await started_game(fake, [ann, bob], general, options="rounds=1 span=20")
    await fake.wait_for(lambda: not store_fingerprint(db)[2], what="opening posts")

    thinking, go_on = asyncio.Event(), asyncio.Event()
    play = bot.tables.play

    async def slow_play(*args, **kwargs):  # a move that takes a while (a slow AI, a slow disk)
        thinking.set()
        await go_on.wait()
        return await play(*args, **kwargs)

    bot.tables.play = slow_play
    ix = await fake.slash(ann, general, "play", options={"move": "bid 1"}, wait=False)
    await asyncio.wait_for(thinking.wait(), 10)
    stop.set()  # what SIGTERM does
    for _ in range(50):  # give the shutdown a second to (wrongly) close the store under the move
        if bot.store is None:
            break
        await asyncio.sleep(0.02)
    assert not serving.done() and bot.store is not None
    go_on.set()
    await asyncio.wait_for(serving, 20)
    await ix.wait()
    assert ix.text == "You played `bid 1`."
    assert [(seat, move) for _, seat, move in db_moves(db)] == [(0, "bid 1")]
    assert bot.is_closed() and not log_guard.records


PROBE = textwrap.dedent("""
    import asyncio, sys
    from bot.render_pool import RenderPool

    async def main():
        pool = RenderPool(workers=2)
        await pool.warm_up()
        await asyncio.gather(pool.call(abs, -1), pool.call(abs, -2))
        print("ready", flush=True)
        await asyncio.sleep(120)

    if __name__ == "__main__":
        asyncio.run(main())
""")


def descendants_in_group(group: int, leader: int) -> list[int]:
    """Live processes of a process group, but its leader (a zombie waiting to be reaped is gone)."""
    out = subprocess.run(["ps", "-eo", "pid=,pgid=,stat="], capture_output=True, text=True, check=True).stdout
    return [int(pid) for pid, pgid, stat in (line.split()[:3] for line in out.splitlines())
            if int(pgid) == group and int(pid) != leader and not stat.startswith("Z")]


def test_render_workers_exit_after_the_bot_is_killed(tmp_path):
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    bot = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, env=env, start_new_session=True)
    try:
        assert bot.stdout.readline().strip() == "ready"
        helpers = descendants_in_group(bot.pid, bot.pid)
        assert len(helpers) >= 2  # the workers (and the resource tracker)
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait()
        deadline = time.monotonic() + 5
        while descendants_in_group(bot.pid, bot.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert descendants_in_group(bot.pid, bot.pid) == []
    finally:
        for pid in descendants_in_group(bot.pid, bot.pid):  # never leave strays behind a failed test
            os.kill(pid, signal.SIGKILL)
        if bot.poll() is None:
            bot.kill()


def test_render_workers_default_to_one_per_spare_core_but_at_least_two():
    """Two even on a 2-core machine: a burst's board posts are drawn after its moves, while the
    bot's loop is idle (issue 29, docs/benchmarks-outbox.md)."""
    from bot.app import default_render_workers

    assert [default_render_workers(cores) for cores in (1, 2, 3, 4, 5, 8)] == [2, 2, 2, 3, 4, 4]
