"""AI decisions off the bot's process: a hard decision, and the policies' while a worker is free of searches."""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.workers import spawn_pool
from rules.engine import AI_ALIASES, GameDefinition, GameState, Move, ai_move

log = logging.getLogger("bot.ai")

# Levels that search (up to a second or two of CPU per decision, all of it holding the GIL): a thread would stall
# every other game's replies, so they always go to a process.
SEARCH_LEVELS = frozenset({"hard"})
# The policies (easy, normal) answer in milliseconds (Trans Europa's normal: 1-4 ms). They go to the
# worker too, so a burst of AI replies does not hold the GIL the event loop needs (issue 29: with 200
# games at once, their AI replies in threads took 1.9 s of the process's GIL in a 4.5 s burst), but
# not while searches fill every worker: they would wait seconds behind them, so they think in a thread
# meanwhile.
# Where a decision is computed never changes it: the worker rebuilds the same state, and the AI's seed
# comes from the state.
WORKERS_SETTING = "JUNCTION_AI_WORKERS"


def workers_from_env(default: int = 1) -> int:
    """The number of AI worker processes (JUNCTION_AI_WORKERS; 0 searches in a thread instead)."""
    raw = os.environ.get(WORKERS_SETTING, "").strip()
    if not raw:
        return default
    try:
        return max(0, int(raw))
    except ValueError:
        raise SystemExit(f"{WORKERS_SETTING} must be a whole number of processes, not {raw!r}.") from None


def level_of(kind: str | None) -> str:
    """A seat's stored AI kind as a level key (tables made before the levels stored greedy/random)."""
    kind = kind or "easy"
    return AI_ALIASES.get(kind, kind)


def _decide(game_key: str, state_json: dict[str, Any], seat: int, level: str) -> str:
    """In a worker: rebuild the state from its JSON and decide (top level, so the pool can pickle it).
    The notation travels back: a Move object is the engine's, the text is the contract's."""
    from rules.registry import GAMES

    definition = GAMES[game_key]
    return str(ai_move(definition.from_json(state_json), seat, definition.ai(level)))


def _warm() -> int:
    # Importing the registry (every engine and its data) is most of a worker's start: do it now.
    from rules.registry import GAMES

    return len(GAMES)


class AIPool:
    """AI decisions in `workers` spawned processes that die with the bot.

    Only games of the registry go to a process (a worker rebuilds the state from the registry's
    definition); `takes` says whether a decision belongs here: a search always, a policy while fewer
    searches than workers are in the pool.
    """

    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = self._new_pool()
        self._searches = 0  # searches in the pool now (see takes)

    def _new_pool(self) -> ProcessPoolExecutor | None:
        if self._workers <= 0:
            return None
        return spawn_pool(self._workers)  # a SIGKILLed bot leaves no search running

    def takes(self, definition: GameDefinition, level: str) -> bool:
        if self._pool is None:
            return False
        if self._searches >= self._workers and level_of(level) not in SEARCH_LEVELS:
            return False
        from rules.registry import GAMES

        return GAMES.get(definition.key) is definition

    async def warm_up(self) -> None:
        """Start a worker and import the engines, so the first decision there does not pay for it."""
        if self._pool is not None:
            await asyncio.get_running_loop().run_in_executor(self._pool, _warm)

    async def decide(self, definition: GameDefinition, state: GameState, seat: int, level: str) -> Move:
        """The move `ai_move` would give in-process (same state, same AI seed), computed in a worker."""
        if self._pool is None:
            raise RuntimeError("the AI pool is closed")
        searching = level_of(level) in SEARCH_LEVELS
        self._searches += searching
        try:
            return await self._decide(definition, state, seat, level_of(level))
        finally:
            self._searches -= searching

    async def _decide(self, definition: GameDefinition, state: GameState, seat: int, level: str) -> Move:
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        args = (definition.key, state.to_json(), seat, level)
        try:
            notation = await loop.run_in_executor(self._pool, _decide, *args)
        except BrokenProcessPool:
            # A worker died (killed for memory, say): a fresh pool, and one more try.
            log.warning("an AI worker died; starting a new pool")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            if self._pool is None:
                raise
            notation = await loop.run_in_executor(self._pool, _decide, *args)
        return state.parse_move(notation)

    def close(self) -> None:
        self._workers = 0
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
