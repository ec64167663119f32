"""Rendering off the event loop: a process pool (drawing holds the GIL, so threads do not scale)."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import importlib.util
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import locales
import render
from bot.render_queue import ASKED, BOARD, DM, RenderQueue
from bot.workers import spawn_pool

__all__ = ["ASKED", "BOARD", "DM", "RenderPool"]

Renderer = Callable[[dict[str, Any], list[str]], bytes]
# Boards drawn lately, by view, names and language: a board post drawn for an edit that turned into
# a new post, a /board asked meanwhile, a "since your last turn" of a single move show the same
# position again.
BOARD_CACHE = 64
# A board post's interludes lately drawn (by its board's key, with the view before them): an edit whose
# moves ended a round becomes a new post, which shows the same interludes (a round-end summary).
INTERLUDE_CACHE = 8
# Drawings handed to the pool at once, per worker: the one it draws and the next, waiting in the pool's
# own queue, so a worker starts the next drawing as soon as it finishes one. Handed out one at a time,
# each next drawing waited for the event loop to hear that the last was done: under a burst of moves
# one turn of the loop (100-200 ms, several drawings' time) while the worker stood idle (issue 29).
QUEUED_PER_WORKER = 2
# Drawings at once in thread mode (workers=0, tests): threads share the GIL, the line only orders them.
THREAD_SLOTS = 4


def _warm() -> int:
    return 0


def _describe(view: dict[str, Any], names: list[str], lang: str | None = None) -> str:
    """render.describe in `lang`; a game's own describe failing must not cost the board post its image."""
    try:
        return render.describe(view, names, lang)
    except Exception:
        logging.getLogger("bot.render").warning("describe failed for %s; generic text used", view.get("game"),
                                                exc_info=True)
        from render.describe import clip, generic

        return clip(render.in_language(lang, view["game"], generic, view, names))


def _interludes(previous: dict[str, Any] | None, view: dict[str, Any], names: list[str],
                lang: str | None = None) -> list[bytes]:
    """render.interlude_pngs, or none for a game without a render module (test games)."""
    if importlib.util.find_spec(f"render.{view['game']}") is None:
        return []
    return render.interlude_pngs(previous, view, names, lang)


def _post_images(view: dict[str, Any], names: list[str], lang: str | None, previous: dict[str, Any] | None,
                 board: Renderer | None) -> tuple[bytes | None, list[bytes]]:
    """A board post's images, in one trip to a worker: (the board drawn with `board`, None when the
    caller has it already; the interlude images since `previous`, none without it)."""
    png = None if board is None else _drawn_in(lang, board, view, names)
    return png, ([] if previous is None else _interludes(previous, view, names, lang))


def _drawn_in(lang: str | None, function: Callable[..., Any], view: dict[str, Any], names: list[str]) -> Any:
    """`function(view, names)` with its labels in `lang` (top level, so the pool can pickle it): PNG
    bytes, or the drawing not yet encoded (render.board_image, for a strip)."""
    if lang is None or locales.language_of(lang) == locales.SOURCE:
        return function(view, names)
    return render.in_language(lang, view["game"], function, view, names)


def _strip(views: list[dict[str, Any]], names: list[str], lang: str | None, draw: Callable[..., Any]) -> bytes:
    """A "since your last turn" strip of `views`, in one trip to a worker: `draw` is
    render.board_image (each board drawn and scaled down, never encoded on its own: a PNG encoding
    is two thirds of a board's cost, and the strip shows it 120 px high) or an injected board
    renderer's PNGs (games under test)."""
    from render import replay

    return replay.strip(_drawn_in(lang, draw, view, names) for view in views)


class RenderPool:
    """board/hand PNGs drawn in worker processes, which keep each game kind's static map cached.

    `workers=0` draws in a thread instead (tests that do not care about the GIL); the renderers are
    injectable (top-level functions, so the pool can pickle them) for games under test.
    Every drawing waits in one line (bot.render_queue), most urgent first: a board post before the
    images of a DM; `QUEUED_PER_WORKER` drawings per worker are in the pool at once.
    """

    def __init__(self, board: Renderer | None = None, hand: Renderer | None = None, workers: int = 1) -> None:
        self._board = board or render.board_png
        # Drawings not yet encoded, for the strips that only scale them down; an injected renderer gives PNGs.
        self._board_image: Callable[..., Any] = render.board_image if board is None else board
        self._hand = hand or render.hand_png
        self._workers = workers
        self._pool: Executor | None = self._new_pool()
        self._boards: OrderedDict[bytes, bytes] = OrderedDict()
        self._interludes: OrderedDict[bytes, tuple[dict[str, Any], list[bytes]]] = OrderedDict()
        self.queue = RenderQueue(workers * QUEUED_PER_WORKER if workers > 0 else THREAD_SLOTS)
        self._describer: ThreadPoolExecutor | None = ThreadPoolExecutor(1, thread_name_prefix="junction-describe")

    def _new_pool(self) -> Executor | None:
        if self._workers <= 0:
            return None
        return spawn_pool(self._workers)

    async def warm_up(self) -> None:
        """Start the workers now, so the first board post does not pay for it."""
        if self._pool is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, _warm)

    # `lang` (a code of locales.LANGUAGES) is the language of the image's labels: the channel's for public
    # images, the reader's for a hand.
    async def board(self, view: dict[str, Any], names: list[str], lang: str | None = None,
                    priority: int = BOARD) -> bytes:
        key = self._board_key(view, names, lang)
        drawn = self._cached(key)
        if drawn is None:
            drawn = await self.call(_drawn_in, lang, self._board, view, list(names), priority=priority)
            self._keep(key, drawn)
        return drawn

    async def post_images(self, view: dict[str, Any], names: list[str], lang: str | None = None,
                          previous: dict[str, Any] | None = None) -> tuple[bytes, str, list[bytes]]:
        """A board post's board, alt text and interludes (`previous`: the public view before the
        moves it shows; None: no interludes): the images in ONE trip to a worker, the alt text in
        the describer's thread meanwhile (in this process, which knows every language installed,
        also at run time). Under a burst of moves each trip waits a turn of the busy event loop
        (100-200 ms) to be handed out and another to be heard back from; three trips one after the
        other made a post take a second or more (issue 29). A board and interludes drawn lately
        (an edit whose moves ended a round, then posted anew) make no trip at all."""
        key = self._board_key(view, names, lang)
        drawn = self._cached(key)
        # The view before them is compared, not hashed: no second key to serialize for every post on
        # the event loop, for a case that comes once a round.
        kept = None if previous is None else self._interludes.get(key)
        interludes = [] if previous is None else (kept[1] if kept is not None and kept[0] == previous else None)
        if drawn is not None and interludes is not None:  # nothing to draw: no trip at all
            return drawn, await self.describe(view, names, lang), interludes
        (png, fresh), alt = await asyncio.gather(
            self.call(_post_images, view, list(names), lang, previous if interludes is None else None,
                      self._board if drawn is None else None),
            self.describe(view, names, lang))
        if drawn is None:
            drawn = png
            self._keep(key, drawn)
        if interludes is None:
            interludes = fresh
            self._interludes[key] = (previous, fresh)
            while len(self._interludes) > INTERLUDE_CACHE:
                self._interludes.popitem(last=False)
        return drawn, alt, interludes

    @staticmethod
    def _board_key(view: dict[str, Any], names: list[str], lang: str | None) -> bytes:
        return hashlib.blake2b(json.dumps([view, list(names), lang], sort_keys=True, default=str).encode(),
                               digest_size=16).digest()

    def _cached(self, key: bytes) -> bytes | None:
        drawn = self._boards.get(key)
        if drawn is not None:
            self._boards.move_to_end(key)
        return drawn

    def _keep(self, key: bytes, drawn: bytes) -> None:
        self._boards[key] = drawn
        while len(self._boards) > BOARD_CACHE:
            self._boards.popitem(last=False)

    async def hand(self, view: dict[str, Any], names: list[str], lang: str | None = None,
                   priority: int = ASKED) -> bytes:
        return await self.call(_drawn_in, lang, self._hand, view, list(names), priority=priority)

    async def strip(self, views: list[dict[str, Any]], names: list[str], lang: str | None = None,
                    priority: int = DM) -> bytes:
        """The boards of `views` side by side, small ("since your last turn"), in one trip to a worker."""
        return await self.call(_strip, views, list(names), lang, self._board_image, priority=priority)

    async def replay(self, views: list[dict[str, Any]], names: list[str], lang: str | None = None) -> bytes:
        """An animated GIF of sampled public views, drawn with this pool's board renderer."""
        from render.replay import replay_gif

        return await self.call(replay_gif, views, list(names), functools.partial(_drawn_in, lang, self._board),
                               priority=ASKED)

    async def describe(self, view: dict[str, Any], names: list[str], lang: str | None = None) -> str:
        """Alt text for a public board in `lang` (cheap: in a thread, not worth a process hop). The pool's own
        thread, not asyncio's default one: under load that one is busy with moves and AI decisions,
        and a board post waited seconds behind them for its alt text (issue 29)."""
        if self._describer is None:
            return await asyncio.to_thread(_describe, view, list(names), lang)
        return await asyncio.get_running_loop().run_in_executor(self._describer, _describe, view, list(names), lang)

    async def call(self, function: Callable[..., Any], *args: Any, priority: int = BOARD) -> Any:
        """Run any picklable top-level drawing function in the pool (a thread when workers=0),
        when its turn in line comes (`priority`: bot.render_queue's BOARD, ASKED or DM)."""
        async with self.queue.slot(priority):
            return await self._run(function, *args)

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        if self._pool is None:
            return await asyncio.to_thread(function, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, function, *args)
        except BrokenProcessPool:
            # A worker died (e.g. killed for memory): start a fresh pool and try once more.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, function, *args)

    def close(self) -> None:
        self._workers = 0
        if self._describer is not None:
            self._describer.shutdown(wait=False)
            self._describer = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
