"""Clocks: a table's clock settings, time zones and quiet hours, reminder points and each seat's turn clock (pure)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.service.types import LiveGame, Refused
from bot.store import ClockRow, UserPrefs
from rules.engine import AI_LEVELS, DEFAULT_AI_LEVEL
from rules.words import N_, Msg

TIMEOUT_ACTIONS = ("ai", "skip", "end")
REMIND_BEFORE = 3600.0  # the last reminder comes this long before the deadline


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock options, chosen at /game new (guild defaults fill what is not given)."""

    turn_hours: int = 24  # 0: no timer
    timeout_action: str = "ai"
    max_timeouts: int = 3
    vacation_hours: int = 72
    stand_in: str = DEFAULT_AI_LEVEL  # the AI level that plays for a player who timed out or left

    @classmethod
    def resolve(cls, given: Mapping[str, Any] | None, defaults: Mapping[str, Any] | None = None) -> ClockSettings:
        """Validated settings; Refused with one readable line for a bad value."""
        values = {**{k: v for k, v in (defaults or {}).items() if k in cls.__dataclass_fields__},
                  **{k: v for k, v in (given or {}).items() if v is not None}}
        unknown = set(values) - set(cls.__dataclass_fields__)
        if unknown:
            raise Refused(Msg("Unknown clock setting {name}.", name=repr(sorted(unknown)[0])))
        settings = cls(**values)
        if not 0 <= settings.turn_hours <= 24 * 30:
            raise Refused(N_("The turn timer goes from 0 (off) to 720 hours."))
        if settings.timeout_action not in TIMEOUT_ACTIONS:
            raise Refused(N_("On timeout the table can choose ai, skip or end."))
        if not 1 <= settings.max_timeouts <= 20:
            raise Refused(N_("Timeouts in a row before the AI takes over: 1 to 20."))
        if not 0 <= settings.vacation_hours <= 24 * 60:
            raise Refused(N_("Vacation per player goes from 0 to 1440 hours."))
        if settings.stand_in not in AI_LEVELS:
            raise Refused(Msg("The stand-in AI plays at one of these levels: {levels}.", levels=", ".join(AI_LEVELS)))
        return settings


def parse_tz(text: str) -> tzinfo:
    """A time zone from `Europe/Paris`, `UTC`, `+9`, `-05:30` or `UTC+9`; Refused if unreadable."""
    raw = text.strip()
    offset = re.fullmatch(r"(?:utc|gmt)?\s*([+-])(\d{1,2})(?::?(\d{2}))?", raw, re.IGNORECASE)
    if offset:
        sign = -1 if offset[1] == "-" else 1
        minutes = int(offset[2]) * 60 + int(offset[3] or 0)
        if minutes > 14 * 60:
            raise Refused(N_("Time zone offsets go from -14:00 to +14:00."))
        return timezone(sign * timedelta(minutes=minutes))
    if raw.upper() in ("UTC", "GMT", "Z"):
        return UTC
    try:
        return ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refused(Msg("Unknown time zone {tz}; write e.g. Europe/Paris, Asia/Tokyo or +09:00.", tz=repr(text))) from None


def parse_hhmm(text: str) -> int:
    """Minutes after midnight from `22`, `22:30` or `7:05`; Refused if unreadable."""
    match = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?\s*", text)
    if not match or int(match[1]) > 23 or int(match[2] or 0) > 59:
        raise Refused(Msg("Write times as HH or HH:MM (24 h), not {value}.", value=repr(text)))
    return int(match[1]) * 60 + int(match[2] or 0)


def in_quiet(at: float, prefs: UserPrefs | None) -> bool:
    if prefs is None or prefs.quiet_start is None or prefs.quiet_end is None or prefs.quiet_start == prefs.quiet_end:
        return False
    local = datetime.fromtimestamp(at, parse_tz(prefs.tz or "UTC"))
    minute = local.hour * 60 + local.minute
    start, end = prefs.quiet_start, prefs.quiet_end
    return start <= minute < end if start < end else (minute >= start or minute < end)


def out_of_quiet(at: float, prefs: UserPrefs | None) -> float:
    """`at`, or the end of the user's quiet hours if `at` falls inside them."""
    if not in_quiet(at, prefs):
        return at
    assert prefs is not None and prefs.quiet_end is not None
    local = datetime.fromtimestamp(at, parse_tz(prefs.tz or "UTC"))
    end = local.replace(hour=prefs.quiet_end // 60, minute=prefs.quiet_end % 60, second=0, microsecond=0)
    if end <= local:
        end += timedelta(days=1)
    return end.timestamp()


def reminder_points(started: float, deadline: float) -> list[float]:
    """When reminders are due: half time and one hour before the deadline (those inside the turn)."""
    points = {started + (deadline - started) / 2, deadline - REMIND_BEFORE}
    return sorted(p for p in points if started < p < deadline)


# ---- a seat's turn clock

def user_prefs_of(live: LiveGame, seat: int) -> UserPrefs | None:
    """The quiet hours and DM choice of the seat's holder (None for an AI seat)."""
    user = live.seats[seat].user_id
    return None if user is None else live.user_prefs.get(user)


def dms_of(live: LiveGame, seat: int) -> str:
    """Which DMs the seat's holder chose: all, turn or off (/clock dms)."""
    prefs = user_prefs_of(live, seat)
    return prefs.dms if prefs is not None else "all"


def shift(live: LiveGame, seat: int, at: float) -> float:
    """A reminder time moved past the seat's vacation and out of its holder's quiet hours."""
    prefs = live.prefs.get(seat)
    if prefs is not None and prefs.vacation_until is not None:
        at = max(at, prefs.vacation_until)
    return out_of_quiet(at, user_prefs_of(live, seat))


def replan(live: LiveGame, clock: ClockRow) -> ClockRow:
    """The clock with its next event: the next reminder still worth sending, else the deadline."""
    prefs = live.prefs.get(clock.seat)
    if prefs is None or not prefs.muted:
        for index, point in enumerate(reminder_points(clock.started_at, clock.deadline)):
            if index < clock.reminders_sent:
                continue
            at = shift(live, clock.seat, point)
            if at < clock.deadline:
                return replace(clock, next_due=at)
    return replace(clock, next_due=clock.deadline)


def new_clock(live: LiveGame, seat: int, now: float) -> ClockRow:
    """A new turn's clock for the seat, from now (or the end of its vacation)."""
    prefs = live.prefs.get(seat)
    start = max(now, (prefs.vacation_until or 0) if prefs else 0)
    # A deadline inside the player's quiet hours moves to their end: nobody times out asleep.
    deadline = out_of_quiet(start + live.row.turn_hours * 3600, user_prefs_of(live, seat))
    return replan(live, ClockRow(seat, live.seat_moves[seat], start, deadline, 0, False, deadline))


def synced_clocks(live: LiveGame, now: float, turn_goes_on: set[int] = frozenset()) -> dict[int, ClockRow]:
    """One clock per human seat to act: kept while the seat has not decided, else started anew.

    A seat in `turn_goes_on` decided but was awaited all along (the second track of a turn, the
    next action of four): its turn goes on, so its clock does too. A new clock per decision would
    let a player stall a game by making one small decision per timer period.
    """
    if not live.row.turn_hours or live.state.is_over():
        return {}
    clocks = {}
    for seat in sorted(live.state.to_act()):
        if live.seats[seat].is_ai:
            continue
        old = live.clocks.get(seat)
        if old is not None and old.token == live.seat_moves[seat]:
            clocks[seat] = old
        elif old is not None and seat in turn_goes_on:
            clocks[seat] = replace(old, token=live.seat_moves[seat])
        else:
            clocks[seat] = new_clock(live, seat, now)
    return clocks
