"""Rendering off the event loop: a process pool (drawing holds the GIL, so threads do not scale)."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import render

Renderer = Callable[[dict[str, Any], list[str]], bytes]


def _warm() -> int:
    return 0


class RenderPool:
    """board/hand PNGs drawn in worker processes, which keep each game kind's static map cached.

    `workers=0` draws in a thread instead (tests that do not care about the GIL); the renderers are
    injectable (top-level functions, so the pool can pickle them) for games under test.
    """

    def __init__(self, board: Renderer | None = None, hand: Renderer | None = None, workers: int = 1) -> None:
        self._board = board or render.board_png
        self._hand = hand or render.hand_png
        self._workers = workers
        self._pool: Executor | None = self._new_pool()

    def _new_pool(self) -> Executor | None:
        if self._workers <= 0:
            return None
        # forkserver: workers do not inherit the bot's threads and sockets (fork would).
        return ProcessPoolExecutor(max_workers=self._workers, mp_context=multiprocessing.get_context("forkserver"))

    async def warm_up(self) -> None:
        """Start the workers now, so the first board post does not pay for it."""
        if self._pool is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, _warm)

    async def board(self, view: dict[str, Any], names: list[str]) -> bytes:
        return await self._run(self._board, view, names)

    async def hand(self, view: dict[str, Any], names: list[str]) -> bytes:
        return await self._run(self._hand, view, names)

    async def _run(self, function: Renderer, view: dict[str, Any], names: list[str]) -> bytes:
        if self._pool is None:
            return await asyncio.to_thread(function, view, names)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, function, view, list(names))
        except BrokenProcessPool:
            # A worker died (e.g. killed for memory): start a fresh pool and try once more.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, function, view, list(names))

    def close(self) -> None:
        self._workers = 0
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
