"""The render pool draws in worker processes and survives a worker that dies."""

from __future__ import annotations

import os
import signal

from bot.render_pool import RenderPool
from tests.bot.guess_game import board, hand

VIEW = {"game": "guess", "seat": 0, "round": 1, "phase": "bid", "scores": [0, 0], "secret": 2}


def _pid(view, names) -> bytes:
    return str(os.getpid()).encode()


async def test_renders_in_another_process_and_recovers_from_a_dead_worker():
    pool = RenderPool(board=_pid, hand=hand, workers=1)
    try:
        worker = int(await pool.board(VIEW, ["Ann", "Bob"]))
        assert worker != os.getpid()
        assert (await pool.hand(VIEW, ["Ann", "Bob"])).startswith(b"\x89PNG")
        os.kill(worker, signal.SIGKILL)
        again = int(await pool.board(VIEW, ["Ann", "Bob"]))
        assert again not in (worker, os.getpid())
    finally:
        pool.close()


async def test_thread_mode_for_tests():
    pool = RenderPool(board=board, hand=hand, workers=0)
    assert (await pool.board(VIEW, ["Ann", "Bob"])).startswith(b"\x89PNG")
    pool.close()
