"""The texts of rematches, lobby hygiene and seasons that other modules' messages include (the `community` domain).

Each is `t(locale, "English with {placeholders}", ...)`: its translations are in
locales/<lang>/LC_MESSAGES/community.po (locales/catalogs.py lists this module as a source of that domain).
"""

from __future__ import annotations

from typing import Any

from bot.i18n import t, tn
from bot.service.rematch import open_seats, waiting
from bot.tables import TableInfo


def minimum_lines(info: TableInfo, locale: Any) -> list[str]:
    """A lobby's minimum reliability, if it asks for one."""
    if not info.min_reliability:
        return []
    return [t(locale, "Players need a reliability of at least {min}% (games finished, not left to the AI).",
              min=info.min_reliability)]


def rematch_lines(info: TableInfo, locale: Any) -> list[str]:
    """A rematch lobby's own lines: whose answer it waits for, who declined, the seats open to anyone."""
    pending = waiting(info)
    declined = [i for i in info.invites if i.answer == "no" and info.seat_of(i.user_id) is None]
    free = open_seats(info)
    lines = [t(locale, "Rematch of game #{old}.", old=info.rematch.from_game_id)]
    if pending:
        lines.append(t(locale, "Waiting for: {players}", players=", ".join(f"<@{i.user_id}>" for i in pending)))
    if declined:
        lines.append(t(locale, "Declined: {players}", players=", ".join(i.name for i in declined)))
    if free:
        lines.append(tn(locale, "{n} seat of the last game is open to anyone: **Join**.",
                        "{n} seats of the last game are open to anyone: **Join**.", n=free))
    lines.append(t(locale, "The players of the last game answer with **Confirm** or **Decline**. The game starts by"
                           " itself once all have confirmed and every seat is taken; <@{creator}> can start it"
                           " sooner with **Start**.", creator=info.row.creator_id))
    return lines


def lobby_days_line(locale: Any, days: int) -> str:
    """The server setting of idle lobbies, for /admin settings."""
    if days == 0:
        return t(locale, "Idle lobbies close: never")
    return tn(locale, "Idle lobbies close after {days} day without activity",
              "Idle lobbies close after {days} days without activity", n=days, days=days)
