"""The owed posts as delivery sees them: claim, send, mark done, and the message ids a game keeps."""

from __future__ import annotations

from typing import Any

from bot.service.live import LiveGames
from bot.store import OutboxRow


class Outbox(LiveGames):
    """The outbox rows a batch committed, handed to delivery (bot.cogs) exactly once."""

    async def owed_posts(self, game_id: int | None = None) -> list[OutboxRow]:
        return await self.store.pending_posts(game_id)

    async def posts_done(self, post_ids: list[int]) -> None:
        await self.store.posts_done(post_ids)

    async def claim_posts(self, game_id: int) -> list[OutboxRow] | None:
        """The game's owed posts, for this process to send now (None: another process is sending
        them; its lease of `post_lease` seconds lets this one take over if it dies)."""
        return await self.store.claim_posts(game_id, self.process_id, self.post_lease)

    async def release_posts(self, game_id: int) -> None:
        await self.store.release_posts(game_id, self.process_id)

    async def games_owing_posts(self, older_than: float | None = None) -> list[int]:
        return await self.store.games_owing_posts(older_than)

    async def note_dm_closed(self, game_id: int, user_id: int) -> bool:
        """Remember that a user's DMs are closed; True the first time (tell the channel once)."""
        row = await self._row(game_id)
        if user_id in row.dm_closed_told:
            return False
        self._refresh_row(game_id, await self.store.set_game_fields(
            game_id, dm_closed_told=row.dm_closed_told | {user_id}))
        return True

    async def set_message(self, game_id: int, **ids: Any) -> None:
        """Store a message id of the game (`lobby_message_id`, `board_message_id`) and, with a board
        post or edit, `board_words`: {"lines": what the post shows, "through": the last owed row
        it shows}; a board post stored without them shows nothing an edit must keep."""
        self._refresh_row(game_id, await self.store.set_game_fields(game_id, **self._board_fields(ids)))

    async def board_shown(self, game_id: int, post_ids: list[int], **ids: Any) -> None:
        """A board post or edit Discord took: set_message's `ids` and the owed rows it showed done
        (`post_ids`), in one write."""
        self._refresh_row(game_id, await self.store.posts_shown(game_id, post_ids, **self._board_fields(ids)))

    def _board_fields(self, ids: dict[str, Any]) -> dict[str, Any]:
        if ids.get("board_message_id") is not None:
            ids = {"board_words": None, **ids, "board_posted_at": self.now()}  # a board older than an hour is reposted
        return ids

