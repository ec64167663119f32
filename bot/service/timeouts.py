"""Timeouts and the players' clock settings: reminders and timeouts as they fall due, vacation, mute, quiet hours, DMs."""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.service.clocks import (
    REMIND_BEFORE,
    dms_of,
    out_of_quiet,
    parse_hhmm,
    parse_tz,
    reminder_points,
    replan,
    shift,
    synced_clocks,
    user_prefs_of,
)
from bot.service.history import current_standings
from bot.service.owed import result_msgs
from bot.service.turn import Batch, Turns
from bot.service.types import LiveGame, Outcome, Refused
from bot.store import DM_CHOICES, ClockRow, PendingPost, SeatPrefs, SeatRow, StaleGame, UserPrefs
from bot.words import lines_json
from rules.engine import GameState, Move
from rules.words import N_, Items, Msg, Seat

log = logging.getLogger("bot.tables")  # the service's log keeps its name (operators filter by it)

_MAX_TIMEOUT_MOVES = 500  # runaway guard for a seat's pending decisions on timeout


class Timeouts(Turns):
    """What the clocks owe (bot.scheduler calls fire_due) and the settings that move them."""

    async def due_times(self) -> dict[int, float]:
        """Every running game's next clock event, from the store alone (no state is loaded)."""
        return await self.store.next_due_by_game()

    async def _save_clocks(self, live: LiveGame, clocks: dict[int, ClockRow], prefs: list[SeatPrefs] = (),
                           posts: list[PendingPost] = (), seats_changed: bool = False) -> None:
        await self.store.save_clock_state(live.row.id, clocks=list(clocks.values()), prefs=list(prefs),
                                          seats=live.seats if seats_changed else None, posts=list(posts),
                                          expected=None if live.stored_clocks is None
                                          else list(live.stored_clocks.values()))
        live.clocks, live.stored_clocks = clocks, dict(clocks)
        for p in prefs:
            live.prefs[p.seat] = p
        self._clocks_changed(live.row.id)

    async def fire_due(self, game_id: int) -> Outcome | None:
        """Do what the game's clocks owe now: reminders, then timeouts. None if nothing was due.

        Each fires once: its write is fenced (the clocks or the move count it was built on), so a
        process that lost the game's lock mid-work writes nothing if another fired it meanwhile;
        it then looks again at the game as stored (nothing is due any more, or what is left)."""
        try:
            return await self._fire_due(game_id)
        except StaleGame as stale:
            log.info("game %s: %s; its clocks are read again", game_id, stale)
            return await self._fire_due(game_id)

    async def _fire_due(self, game_id: int) -> Outcome | None:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status != "running":
                if self.on_clocks is not None:
                    self.on_clocks(game_id, None)
                return None
            live = await self._running(game_id)
            now = self.now()
            clocks = synced_clocks(live, now)
            timed_out = [s for s, c in clocks.items() if now >= c.deadline]
            if timed_out:
                live.clocks = clocks
                return await self._timeout(live, timed_out)
            posts, reminded = [], []
            for seat, clock in list(clocks.items()):
                if clock.next_due > now:
                    continue
                points = reminder_points(clock.started_at, clock.deadline)
                due = [i for i in range(clock.reminders_sent, len(points)) if shift(live, seat, points[i]) <= now]
                if not due:
                    continue
                muted = live.prefs.get(seat, SeatPrefs(seat)).muted
                if not muted:
                    # One reminder even if several came due while the bot was down; one channel
                    # mention per turn (the DM carries the rest).
                    # No DM for a player who chose none (/clock dms off): the channel mention only.
                    posts.append(PendingPost("remind", seat, {"deadline": clock.deadline,
                                                              "channel": not clock.channel_told,
                                                              **({"dm": False} if dms_of(live, seat) == "off"
                                                                 else {})}))
                    reminded.append(seat)
                clocks[seat] = replan(live, replace(clock, reminders_sent=due[-1] + 1,
                                                          channel_told=clock.channel_told or not muted))
            if clocks == live.clocks and not posts:
                self._clocks_changed(game_id)
                return None
            await self._save_clocks(live, clocks, posts=posts)
            return Outcome(game_id, to_act=tuple(sorted(live.state.to_act())), reminded=tuple(reminded))

    async def _timeout(self, live: LiveGame, seats: list[int]) -> Outcome:
        """The table's action for seats whose time ran out (under the game lock)."""
        row, names = live.row, live.names
        if row.timeout_action == "end":
            return await self._end_early(live, Msg("Time ran out for {who}: the game ends with the current standings.",
                                                   who=Items([Seat(s) for s in seats], "comma")))
        was_to_act = live.state.to_act()
        batch = Batch()
        lines: list[Msg] = []
        changed: list[SeatPrefs] = []
        seats_changed = False
        for seat in seats:
            name = names[seat]
            skipped = await self._play_timed_out(live, batch, seat)
            batch.paused.add(seat)
            prefs = live.prefs.get(seat, SeatPrefs(seat))
            prefs = replace(prefs, timeouts=prefs.timeouts + 1, timeouts_total=prefs.timeouts_total + 1)
            lines.append(Msg("Time ran out for {who}: {what}", who=name,
                             what=Msg("their turn is skipped.") if skipped else Msg("the AI played for them.")))
            if prefs.timeouts >= row.max_timeouts:
                user = live.seats[seat].user_id
                live.seats[seat] = SeatRow(seat, None, self._stand_in(live), f"{name} (AI)")
                prefs = replace(prefs, timeouts=0, away_user_id=user, away_name=name)
                seats_changed = True
                lines.append(Msg("{who} timed out {n} times in a row: the AI takes the seat for good ({owner} can take"
                                 " it back with /seat back).", who=name, n=row.max_timeouts, owner=name))
            changed.append(prefs)
            live.prefs[seat] = prefs
        if all(s.is_ai for s in live.seats):
            return await self._end_early(live, Msg("No player is left: the game ends with the current standings."),
                                         applied=batch.applied, extra_lines=lines, prefs=changed)
        return await self._conclude(live, batch, extra_lines=lines, was_to_act=was_to_act,
                                    seats_changed=seats_changed, prefs=changed)

    async def _play_timed_out(self, live: LiveGame, batch: Batch, seat: int) -> bool:
        """Play the timed-out seat's pending decisions through the AI loop: the rules' skip where the
        table skips and the rules allow one, else the table's stand-in AI. True if a skip was played."""
        skipped = False

        async def decide(state: GameState, seat: int) -> Move:
            nonlocal skipped
            move = state.timeout_move(seat) if live.row.timeout_action == "skip" else None
            if move is None:  # the rules allow no skip here: the AI decides instead
                return await self._think(live.definition, state, seat, live.row.stand_in)
            skipped = True
            return move

        await self._play_seats(live, batch, lambda state: seat if seat in state.to_act() else None, decide,
                               _MAX_TIMEOUT_MOVES)
        return skipped

    async def _end_early(self, live: LiveGame, line: Msg, *, applied: list[tuple[int, str]] = (),
                         extra_lines: list[Msg] = (), prefs: list[SeatPrefs] = ()) -> Outcome:
        """Stop a running game with the standings as they are (timeout action `end`, an admin's end).
        The result keeps `line` as the message that says how the game ended."""
        result = current_standings(live.state, line)
        board = {"lines": lines_json([*extra_lines, line]),
                 "result": lines_json(result_msgs(replace(result, ended_by="")))}
        first_n = live.state.moves_applied - len(applied)
        await self._commit(live, first_n, applied, [PendingPost("board", None, board)], status="over",
                           result=result.to_json(), seats=live.seats, prefs=list(prefs))
        self._forget(live.row)
        if self.on_clocks is not None:
            self.on_clocks(live.row.id, None)
        await self._rate(live.row.id)
        return Outcome(live.row.id, applied=tuple(applied), public_lines=tuple(board["lines"]), status="over")

    async def pause_clock(self, game_id: int, user_id: int, hours: float) -> float:
        """Vacation: stop the caller's clock for `hours` (within the table's allowance); returns its end."""
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            if not live.row.turn_hours:
                raise Refused(N_("This game has no turn timer."))
            prefs = live.prefs.get(seat, SeatPrefs(seat))
            left = live.row.vacation_hours - prefs.vacation_used
            if hours <= 0 or hours > left + 1e-9:
                raise Refused(Msg("You can pause your clock for at most {h} more hours in this game.", h=f"{left:g}"))
            now = self.now()
            until = max(now, prefs.vacation_until or 0) + hours * 3600
            prefs = replace(prefs, vacation_until=until, vacation_used=prefs.vacation_used + hours)
            live.prefs[seat] = prefs
            clocks = dict(live.clocks)
            if seat in clocks:
                clock = clocks[seat]
                deadline = out_of_quiet(clock.deadline + hours * 3600, user_prefs_of(live, seat))
                clocks[seat] = replan(live, replace(clock, deadline=deadline))
            await self._save_clocks(live, clocks, [prefs])
            return until

    async def resume_clock(self, game_id: int, user_id: int) -> float:
        """End a vacation early: the unused hours come back and the deadline moves forward by them."""
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            prefs = live.prefs.get(seat, SeatPrefs(seat))
            now = self.now()
            if prefs.vacation_until is None or prefs.vacation_until <= now:
                raise Refused(N_("Your clock is not paused."))
            refund = prefs.vacation_until - now
            prefs = replace(prefs, vacation_until=None, vacation_used=max(0.0, prefs.vacation_used - refund / 3600))
            live.prefs[seat] = prefs
            clocks = dict(live.clocks)
            if seat in clocks:
                clock = clocks[seat]
                deadline = max(clock.deadline - refund, now + REMIND_BEFORE)
                clocks[seat] = replan(live, replace(clock, deadline=deadline,
                                                          started_at=min(clock.started_at, now)))
            await self._save_clocks(live, clocks, [prefs])
            return refund / 3600

    async def set_muted(self, game_id: int, user_id: int, muted: bool) -> None:
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            prefs = replace(live.prefs.get(seat, SeatPrefs(seat)), muted=muted)
            live.prefs[seat] = prefs
            clocks = {s: replan(live, c) for s, c in live.clocks.items()}
            await self._save_clocks(live, clocks, [prefs])

    async def set_quiet_hours(self, user_id: int, tz: str, start: str, end: str) -> UserPrefs:
        """Quiet hours in the user's zone, for all their games: no reminder inside them, and a
        deadline that would fall inside them moves to their end (for turns that start from now on)."""
        parse_tz(tz)
        prefs = replace(await self.store.user_prefs(user_id), tz=tz.strip(), quiet_start=parse_hhmm(start),
                        quiet_end=parse_hhmm(end))
        await self.store.set_user_prefs(prefs)
        for row in await self.store.games_of_user(user_id, "running"):
            async with self.lock(row.id):
                live = await self._running(row.id)
                live.user_prefs[user_id] = prefs
                await self._save_clocks(live, {s: replan(live, c) for s, c in live.clocks.items()})
        return prefs

    async def set_dms(self, user_id: int, dms: str) -> UserPrefs:
        """Which DMs the user gets in all their games: `all` (the welcome with the hand, one when
        their turn begins, one at the end), `turn` (only when their turn begins, with the private
        news since) or `off` (none; a welcome in words says where the hand is: /hand, My hand).
        Turn reminders come by DM unless `off` (the channel mention stays)."""
        if dms not in DM_CHOICES:
            raise Refused(Msg("DMs can be {choices}.", choices=", ".join(DM_CHOICES)))
        await self.store.set_user_dms(user_id, dms)
        prefs = await self.store.user_prefs(user_id)
        for row in await self.store.games_of_user(user_id, "running"):
            async with self.lock(row.id):
                live = await self._running(row.id)
                live.user_prefs[user_id] = prefs
                await self.store.touch_game(row.id)  # other processes holding the game reload it
        return prefs

