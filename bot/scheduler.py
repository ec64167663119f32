"""Wakes for the next due clock event of any game and hands it to a callback; the clock is injectable.

One asyncio task sleeps until the earliest due time (at most `max_sleep` real seconds, so a clock
that tests move by hand, or a changed system clock, is noticed), then fires every game whose time
has come. `schedule(game_id, due)` replaces a game's due time (None drops it); `wake()` makes the
loop look again at once (tests call it after moving their clock, or await `run_due()` directly).
A game is popped before it fires, so one due time fires once; the callback reschedules through
the service's `on_clocks` hook.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
from collections.abc import Awaitable, Callable

from bot.db import DatabaseUnavailable

log = logging.getLogger("bot.scheduler")

RETRY_AFTER = 60.0  # seconds before a failed firing is tried again


class Scheduler:
    def __init__(self, fire: Callable[[int], Awaitable[object]], now: Callable[[], float],
                 max_sleep: float = 300.0) -> None:
        self._fire = fire
        self.now = now
        self.max_sleep = max_sleep
        self._due: dict[int, float] = {}
        self._heap: list[tuple[float, int]] = []  # lazy: an entry counts only if it matches _due
        self._wake = asyncio.Event()
        self._running = asyncio.Lock()
        self._task: asyncio.Task | None = None
        self._stopping = False
        self.fired: list[tuple[float, int]] = []  # (clock time, game) of every firing, for tests and logs

    def schedule(self, game_id: int, due: float | None) -> None:
        if due is None:
            self._due.pop(game_id, None)
            return
        if self._due.get(game_id) == due:
            return
        self._due[game_id] = due
        heapq.heappush(self._heap, (due, game_id))
        self._wake.set()

    def due(self, game_id: int) -> float | None:
        return self._due.get(game_id)

    def next_due(self) -> tuple[float, int] | None:
        while self._heap and self._due.get(self._heap[0][1]) != self._heap[0][0]:
            heapq.heappop(self._heap)
        return self._heap[0] if self._heap else None

    def pending(self) -> int:
        return len(self._due)

    def wake(self) -> None:
        self._wake.set()

    async def run_due(self) -> list[int]:
        """Fire every game due by now (each once per call); return their ids."""
        fired: list[int] = []
        async with self._running:
            now = self.now()
            # Take everything due first: a game that reschedules itself into the past waits for
            # the next call instead of starving the others.
            while (head := self.next_due()) is not None and head[0] <= now:
                heapq.heappop(self._heap)
                del self._due[head[1]]
                fired.append(head[1])
            for game_id in fired:
                self.fired.append((now, game_id))
                try:
                    await self._fire(game_id)
                except Exception as error:
                    if isinstance(error, DatabaseUnavailable):  # an outage, not a bug: no traceback
                        log.warning("clock event of game %s: the database is out of reach (%s); retrying in %s s",
                                    game_id, error, RETRY_AFTER)
                    else:
                        log.exception("clock event of game %s failed; retrying in %s s", game_id, RETRY_AFTER)
                    if game_id not in self._due:
                        self.schedule(game_id, now + RETRY_AFTER)
        return fired

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="junction-scheduler")

    async def stop(self) -> None:
        if self._task is not None:
            # The flag too: Python 3.11's wait_for can swallow a cancel that lands as it returns.
            self._stopping = True
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=5)
            self._task = None

    async def _loop(self) -> None:
        while not self._stopping:
            self._wake.clear()
            await self.run_due()
            head = self.next_due()
            wait = self.max_sleep if head is None else min(self.max_sleep, max(0.0, head[0] - self.now()))
            if head is not None and wait == 0.0:
                await asyncio.sleep(0)  # due again at once (rescheduled into the past): let others run
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
