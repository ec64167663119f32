"""The render line (bot.render_queue): board posts draw before DM images, in order, without starving
the DMs; checked step by step, with no clock but an injected one."""

from __future__ import annotations

import asyncio

from bot.render_queue import ASKED, BOARD, DM, RenderQueue


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def _line_up(queue: RenderQueue, asks: list[tuple[str, int]], order: list[str],
                   clock: Clock | None = None, step: float = 0.0) -> tuple[asyncio.Event, list[asyncio.Task]]:
    """Hold the one slot, then ask for drawings in the given order (each records when it draws)."""
    held, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with queue.slot(BOARD):
            held.set()
            await release.wait()

    async def draw(name: str, priority: int) -> None:
        async with queue.slot(priority):
            order.append(name)

    tasks = [asyncio.create_task(holder())]
    await held.wait()
    for name, priority in asks:
        tasks.append(asyncio.create_task(draw(name, priority)))
        await _settle()
        if clock is not None:
            clock.now += step
    return release, tasks


async def test_board_posts_draw_before_dm_images_first_come_first_served_within_a_priority():
    queue, order = RenderQueue(1, aging=1e9), []
    release, tasks = await _line_up(queue, [("dm1", DM), ("board1", BOARD), ("asked", ASKED), ("dm2", DM),
                                            ("board2", BOARD)], order)
    assert order == [] and queue.waiting == {BOARD: 2, ASKED: 1, DM: 2}
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["board1", "board2", "asked", "dm1", "dm2"]
    assert queue.waiting == {BOARD: 0, ASKED: 0, DM: 0}


async def test_a_drawing_that_waited_long_goes_first_whatever_its_priority():
    clock = Clock()
    queue, order = RenderQueue(1, aging=30.0, clock=clock), []
    # dm1 asks at 0 s, board1 at 20 s, dm2 at 40 s, board2 at 60 s; the slot frees at 80 s.
    release, tasks = await _line_up(queue, [("dm1", DM), ("board1", BOARD), ("dm2", DM), ("board2", BOARD)], order,
                                    clock, step=20.0)
    release.set()
    await asyncio.gather(*tasks)
    # At 80 s dm1 (80 s), board1 (60 s) and dm2 (40 s) waited past 30 s: they go in order of arrival;
    # board2 (20 s) last.
    assert order == ["dm1", "board1", "dm2", "board2"]


async def test_a_young_dm_still_waits_for_boards_asked_after_it():
    clock = Clock()
    queue, order = RenderQueue(1, aging=30.0, clock=clock), []
    release, tasks = await _line_up(queue, [("dm", DM), ("board1", BOARD), ("board2", BOARD)], order, clock, step=5.0)
    release.set()
    await asyncio.gather(*tasks)
    assert order == ["board1", "board2", "dm"]  # the DM had waited 15 s of its 30


async def test_a_cancelled_waiter_gives_up_its_place_and_never_holds_a_slot():
    queue, order = RenderQueue(1, aging=1e9), []
    release, tasks = await _line_up(queue, [("gone", BOARD), ("dm", DM)], order)
    tasks[1].cancel()
    await _settle()
    release.set()
    await asyncio.gather(tasks[0], tasks[2])
    assert order == ["dm"]
    async with queue.slot(BOARD):  # the slot is free again
        order.append("after")
    assert order == ["dm", "after"]


async def test_several_slots_and_a_turn_that_steps_aside():
    queue, order = RenderQueue(2, aging=1e9), []

    async def draw(name: str, priority: int, hold: asyncio.Event | None = None) -> None:
        async with queue.slot(priority):
            order.append(name)
            if hold is not None:
                await hold.wait()

    hold = asyncio.Event()
    busy = [asyncio.create_task(draw(f"busy{i}", BOARD, hold)) for i in range(2)]
    await _settle()
    assert order == ["busy0", "busy1"]  # two at once

    async def dm_sender() -> None:
        await queue.turn(DM)  # its turn comes after the board asked later ...
        order.append("dm turn")
        await draw("dm image", DM)

    sender = asyncio.create_task(dm_sender())
    await _settle()
    board = asyncio.create_task(draw("board", BOARD))
    await _settle()
    hold.set()
    await asyncio.gather(*busy, sender, board)
    assert order == ["busy0", "busy1", "board", "dm turn", "dm image"]
