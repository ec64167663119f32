"""Ratings in the store: moved to bot.store.ratings (issue 24); this name stays for its callers."""

from bot.store.ratings import apply_game, apply_pending, game_record, pending_games, rating

__all__ = ["apply_game", "apply_pending", "game_record", "pending_games", "rating"]
