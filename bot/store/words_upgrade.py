"""The store's side of the words upgrade (migration 14): which games still hold lines stored before messages,
and one game's stored words read and rewritten in the transaction that takes its row off the list."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.store.base import StorePart
from bot.store.rows import _GAME_COLUMNS, GameRow, _dumps, _game


@dataclass
class StoredWords:
    """Everything a game stores in words, and what its lines can be rebuilt from (the game, its seats and
    moves). The rewrite changes `post_words`, `board_words` and the outbox payloads in place."""

    game: GameRow
    names: list[str]  # each seat's name as stored now
    away_names: dict[int, str]  # a seat's name before the AI took it for good (seat_prefs.away_name)
    moves: list[tuple[int, str]]  # (seat, notation) in order
    post_words: dict[str, Any] | None  # migration 8: {"summary": [...], "lines": [...], "news": {seat: [...]}}
    board_words: dict[str, Any] | None  # migration 9: {"lines": [...], "through": the last outbox row shown}
    outbox: dict[int, dict[str, Any]] = field(default_factory=dict)  # row id -> payload
    result: dict[str, Any] | None = None  # the finished game's result (its `ended_by` may be a stored line)


class WordsUpgradePart(StorePart):
    """Migration 14's list of games, worked off one game per transaction."""

    async def words_to_upgrade(self) -> list[int]:
        """The games whose stored words were not looked at since the upgrade (oldest first)."""
        return [r[0] for r in await self._db.fetch("SELECT game_id FROM words_upgrade ORDER BY game_id")]

    async def upgrade_words(self, game_id: int, rewrite: Callable[[StoredWords], None]) -> bool:
        """Take `game_id` off the list and, in the same transaction, read its stored words, let `rewrite`
        change them and write back what changed. False when the game was not on the list (done already,
        or by another process: on PostgreSQL the second process waits on the row until the first commits,
        then finds it gone). Safe to call twice."""
        async with self._db.transaction() as tx:
            if await tx.execute("DELETE FROM words_upgrade WHERE game_id = ?", (game_id,)) == 0:
                return False
            rows = await tx.fetch(f"SELECT {_GAME_COLUMNS}, post_words FROM games WHERE id = ?", (game_id,))
            if not rows:
                return True
            seats = await tx.fetch("SELECT seat, name FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
            away = await tx.fetch("SELECT seat, away_name FROM seat_prefs WHERE game_id = ? AND away_name IS NOT NULL",
                                  (game_id,))
            moves = await tx.fetch("SELECT seat, notation FROM moves WHERE game_id = ? ORDER BY n", (game_id,))
            outbox = await tx.fetch("SELECT id, payload FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
            post_words, game = rows[0][-1], _game(rows[0][:-1])
            words = StoredWords(game, [r[1] for r in seats], {r[0]: r[1] for r in away},
                                [(r[0], r[1]) for r in moves], None if post_words is None else json.loads(post_words),
                                None if rows[0][-2] is None else json.loads(rows[0][-2]),
                                {r[0]: json.loads(r[1]) for r in outbox}, copy.deepcopy(game.result))
            outbox_before = _dumps(words.outbox)
            game_before = _dumps([words.post_words, words.board_words])
            result_before = _dumps(words.result)
            rewrite(words)
            changed = [(_dumps(p), i) for i, p in words.outbox.items()] if _dumps(words.outbox) != outbox_before else []
            await tx.executemany("UPDATE outbox SET payload = ? WHERE id = ?", changed)
            if _dumps([words.post_words, words.board_words]) != game_before:
                # The version tells a process holding the game that it changed; updated_at stays (it orders
                # /history and the rating sweep by when the game was played).
                await tx.execute("UPDATE games SET post_words = ?, board_words = ?, version = version + 1 WHERE id = ?",
                                 (None if words.post_words is None else _dumps(words.post_words),
                                  None if words.board_words is None else _dumps(words.board_words), game_id))
            if _dumps(words.result) != result_before:  # what the game's end report and /game record read
                await tx.execute("UPDATE games SET result = ? WHERE id = ?", (_dumps(words.result), game_id))
        return True
