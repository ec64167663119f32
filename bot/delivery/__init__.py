"""Delivery: what the outbox owes (posts, edits, DMs, reminders), sent to Discord."""
