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
        again = int(await pool.board({**VIEW, "round": 2}, ["Ann", "Bob"]))  # a position not drawn yet
        assert again not in (worker, os.getpid())
    finally:
        pool.close()


async def test_thread_mode_for_tests():
    pool = RenderPool(board=board, hand=hand, workers=0)
    assert (await pool.board(VIEW, ["Ann", "Bob"])).startswith(b"\x89PNG")
    pool.close()


DRAWN: list[int] = []


def _counted(view, names) -> bytes:
    DRAWN.append(view["round"])
    return f"board of round {view['round']}".encode()


async def test_a_position_drawn_lately_is_drawn_once():
    """A board post and the "since your last turn" strips of the same flush show the same positions."""
    pool = RenderPool(board=_counted, hand=hand, workers=0)
    DRAWN.clear()
    first = await pool.board(VIEW, ["Ann", "Bob"])
    assert await pool.board(dict(VIEW), ["Ann", "Bob"]) == first
    assert await pool.board({**VIEW, "round": 2}, ["Ann", "Bob"]) == b"board of round 2"
    assert await pool.board(VIEW, ["Bob", "Ann"]) == first  # other names: drawn again
    assert DRAWN == [1, 2, 1]
    pool.close()


def _count_trips(pool: RenderPool) -> list[tuple]:
    """The arguments of every trip the pool makes to its workers from now on."""
    trips: list[tuple] = []
    call = pool.call

    async def counted(function, *args, **keywords):
        trips.append(args)
        return await call(function, *args, **keywords)

    pool.call = counted  # type: ignore[method-assign]
    return trips


async def test_a_post_of_a_board_drawn_lately_makes_no_trip_to_a_worker():
    """A board post whose board is in the cache and that owes no interludes draws nothing: no trip
    to the pool (under a burst each trip waits turns of the busy event loop)."""
    pool = RenderPool(board=_counted, hand=hand, workers=0)
    DRAWN.clear()
    first = await pool.board(VIEW, ["Ann", "Bob"])
    trips = _count_trips(pool)
    png, alt, interludes = await pool.post_images(dict(VIEW), ["Ann", "Bob"])
    assert (png, interludes, trips, DRAWN) == (first, [], [], [1]) and alt
    png, _, _ = await pool.post_images({**VIEW, "round": 2}, ["Ann", "Bob"])  # not drawn yet: one trip
    assert png == b"board of round 2" and len(trips) == 1 and DRAWN == [1, 2]
    pool.close()


async def test_interludes_drawn_for_an_edit_are_not_drawn_again_for_the_post_it_becomes():
    """An edit whose moves ended a round draws the board and the round's interludes, then gives way
    to a new post (a round end keeps its own post), which shows the same images: no second trip."""
    pool = RenderPool(board=_counted, hand=hand, workers=0)
    DRAWN.clear()
    trips = _count_trips(pool)
    before = {**VIEW, "phase": "guess"}
    first = await pool.post_images(VIEW, ["Ann", "Bob"], "en", before)
    assert len(trips) == 1 and DRAWN == [1]
    assert await pool.post_images(dict(VIEW), ["Ann", "Bob"], "en", dict(before)) == first
    assert len(trips) == 1 and DRAWN == [1]  # no trip: board and interludes drawn already
    await pool.post_images(VIEW, ["Ann", "Bob"], "en", {**VIEW, "phase": "bid"})  # other moves shown
    assert len(trips) == 2 and trips[1][-1] is None and DRAWN == [1]  # the interludes only: the board is kept
    pool.close()


async def test_a_strip_of_boards_is_one_trip_that_encodes_one_png(monkeypatch):
    """"Since your last turn": the boards of every position are drawn, scaled down and joined in one
    trip to the pool, and only the strip is encoded (a PNG per board cost two thirds of its drawing,
    for an image shown 120 px high)."""
    import io

    from PIL import Image

    from render import kit, replay
    from rules.engine import play_out
    from rules.registry import get

    definition = get("trans_europa")
    state = definition.new_game(3, {}, 4)
    views = []
    play_out(state, {seat: definition.ai("greedy") for seat in range(3)},
             on_move=lambda *_: views.append(state.view(None)) if len(views) < 3 else None)
    pool = RenderPool(workers=0)
    trips, encoded = [], []
    run, encode = pool._run, kit.encode
    monkeypatch.setattr(pool, "_run", lambda function, *args: trips.append(function) or run(function, *args))
    monkeypatch.setattr(kit, "encode", lambda image, exact=False: encoded.append(image.size) or encode(image, exact))
    try:
        data = await pool.strip(views, ["A", "B", "C"], "ja")
    finally:
        pool.close()
    image = Image.open(io.BytesIO(data))
    assert len(trips) == 1 and encoded == [image.size] and image.height == replay.STRIP_HEIGHT
    assert image.width > 3 * replay.STRIP_HEIGHT / 2  # three boards side by side
