"""Who draws next: the render pool's waiting line, most urgent first (issue 29).

A busy bot asks for far more drawings than its render workers make at once, and most of them are
for DMs (a hand, a "since your last turn" strip of several boards), while a channel waits for its
board post. The line serves the most urgent priority first, first come first served within one;
a drawing that has waited `aging` seconds goes first whatever its priority, so DMs are late under
a burst but never starved. A sender making a board post holds `ahead(BOARD)` for the whole post:
between its drawings it reads the store and talks to Discord, and a DM's drawing started meanwhile
would make the next board wait for it.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

BOARD = 0  # what a channel waits for: board posts and edits, their interludes, the end's hands
ASKED = 1  # what a player asked for and waits on: /hand, /game board, a turn panel, a replay
DM = 2  # the images of a DM: a hand, a "since your last turn" strip (they may wait, and merge)
PRIORITIES = (BOARD, ASKED, DM)
AGING = 30.0


class RenderQueue:
    """At most `slots` drawings at once; the others wait in line (see the module's doc)."""

    def __init__(self, slots: int, aging: float = AGING, clock: Callable[[], float] = time.monotonic) -> None:
        self._slots = max(1, slots)
        self._aging = aging
        self._clock = clock
        self._busy = 0
        self._seq = itertools.count()
        # Per priority, the waiting drawings in order of arrival: (arrival number, since, future).
        self._lines: dict[int, deque[tuple[int, float, asyncio.Future[None]]]] = {p: deque() for p in PRIORITIES}
        self._ahead = dict.fromkeys(PRIORITIES, 0)  # senders holding `ahead`, by priority

    @property
    def waiting(self) -> dict[int, int]:
        """How many drawings wait, by priority (cancelled ones left out)."""
        return {p: sum(not f.done() for _, _, f in line) for p, line in self._lines.items()}

    @asynccontextmanager
    async def slot(self, priority: int = BOARD) -> AsyncIterator[None]:
        """Hold one of the slots while drawing; wait for it in line."""
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    @contextmanager
    def ahead(self, priority: int) -> Iterator[None]:
        """While held, drawings less urgent than `priority` wait (unless they waited `aging` seconds),
        even when no drawing of `priority` is waiting right now."""
        self._ahead[priority] += 1
        try:
            yield
        finally:
            self._ahead[priority] -= 1
            self._wake()

    async def turn(self, priority: int) -> None:
        """Wait until a drawing of this priority asked for now would start, then step aside: a
        sender that reads what to draw only once its turn comes (so that what was owed meanwhile
        joins it) and then asks for its drawings."""
        async with self.slot(priority):
            pass

    async def _acquire(self, priority: int) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._lines[priority].append((next(self._seq), self._clock(), future))
        self._wake()  # a free slot goes to the first in line: maybe this one
        if priority != BOARD and not future.done():
            asyncio.get_running_loop().call_later(self._aging, self._wake)  # it may go first then
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()  # the slot was given just as the waiter was cancelled: pass it on
            raise

    def _release(self) -> None:
        self._busy -= 1
        self._wake()

    def _next(self) -> asyncio.Future[None] | None:
        """The next waiting drawing: the oldest of those that waited `aging` seconds, else the
        first of the most urgent priority that no sender holds drawings back from (None: none)."""
        for line in self._lines.values():
            while line and line[0][2].done():
                line.popleft()  # cancelled while waiting
        heads = [(line[0], priority) for priority, line in self._lines.items() if line]
        now = self._clock()
        aged = [head for head in heads if now - head[0][1] >= self._aging]
        free = [head for head in heads if not any(self._ahead[p] for p in PRIORITIES if p < head[1])]
        if aged:
            (_, _, future), priority = min(aged, key=lambda h: h[0][0])
        elif free:
            (_, _, future), priority = min(free, key=lambda h: h[1])
        else:
            return None
        self._lines[priority].popleft()
        return future

    def _wake(self) -> None:
        while self._busy < self._slots:
            future = self._next()
            if future is None:
                return
            self._busy += 1
            future.set_result(None)
