"""The lobby: open a table, join, leave, add or remove AI seats, start (deal, welcome DMs) and cancel."""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.ai_pool import level_of
from bot.db import DatabaseUnavailable, Tx
from bot.service.clocks import ClockSettings, dms_of, synced_clocks
from bot.service.owed import secret_digest, secret_parts, welcome_owed
from bot.service.turn import Batch, Turns
from bot.service.types import NOT_SEATED, START_FAILED, LiveGame, Outcome, Refused, TableInfo, safe_name
from bot.store import GameRow, PendingPost, SeatRow, StoreError
from bot.words import engine_msg, event_msg, lines_json
from rules.engine import AI_LEVELS, DEFAULT_AI_LEVEL, derived_seed
from rules.words import N_, Items, Msg, Seat, Term

log = logging.getLogger("bot.tables")  # the service's log keeps its name (operators filter by it)


class Lobby(Turns):
    """A table before its game runs, and the start that deals it (AI seats that open play at once)."""

    async def create(
        self,
        game_key: str,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        user_name: str,
        thread_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        seat_order: str = "shuffle",
        seed: int | None = None,
        clock: Mapping[str, Any] | None = None,
        also: Callable[[Tx, int], Awaitable[None]] | None = None,
    ) -> TableInfo:
        """Open a lobby with its creator in the first seat.

        `clock`: ClockSettings fields; what is not given comes from the guild settings (keys
        `turn_hours`, `timeout_action`, `max_timeouts`, `vacation_hours`, `stand_in`), else the defaults.
        `also(tx, game_id)`: more rows of the lobby, written in its transaction (a rematch, a minimum).
        """
        definition = self.definition(game_key)
        settings = ClockSettings.resolve(clock, await self.store.guild_settings(guild_id) if guild_id else None)
        try:
            resolved = definition.resolve_options(options)
        except ValueError as error:  # the engine's words for a bad option (a message)
            raise Refused(engine_msg(error.args[0] if error.args else str(error))) from None
        if seat_order not in ("shuffle", "join"):
            raise Refused(N_("Seat order must be shuffle or join."))
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        try:
            game_id = await self.store.create_game(
                game_key, resolved, seed, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
                creator_id=user_id, seat_order=seat_order, first_seat=(user_id, None, safe_name(user_name)),
                turn_hours=settings.turn_hours, timeout_action=settings.timeout_action,
                max_timeouts=settings.max_timeouts, vacation_hours=settings.vacation_hours,
                stand_in=settings.stand_in, also=also,
            )
        except StoreError as error:
            raise Refused(N_(str(error))) from None
        info = await self.info(game_id)
        self._index[info.row.place_id] = game_id
        await self._lobby_opened(info)
        return info

    async def _lobby_opened(self, info: TableInfo) -> None:
        """A hook: a lobby was just opened (bot.service.hygiene schedules its closing)."""

    async def _may_join(self, info: TableInfo, user_id: int) -> None:
        """A hook: Refused if this user may not take a seat at this lobby (a minimum reliability, the
        seats a rematch keeps for its invited players)."""

    async def _may_start(self, info: TableInfo, user_id: int, admin: bool) -> None:
        """A hook: Refused if this user may not start this lobby now (a rematch still waiting)."""

    async def join(self, game_id: int, user_id: int, user_name: str) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is not None:
                raise Refused(N_("You have already joined."))
            if len(info.seats) >= info.definition.max_players:
                raise Refused(Msg("The table is full ({n} players).", n=info.definition.max_players))
            await self._may_join(info, user_id)
            seats = [*info.seats, SeatRow(len(info.seats), user_id, None, safe_name(user_name))]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def leave(self, game_id: int, user_id: int) -> TableInfo | Outcome:
        """Leave a lobby, or concede a running game (the AI takes the seat over)."""
        row = await self._row(game_id)
        if row.status == "running":
            return await self.concede(game_id, user_id)
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is None:
                raise Refused(NOT_SEATED)
            kept = [s for s in info.seats if s.user_id != user_id]
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(kept)]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def check_add_ai(self, game_id: int, user_id: int) -> TableInfo:
        """Refused now if this user could not add an AI (before they are asked which level)."""
        info = await self._lobby(game_id)
        self._may_add_ai(info, user_id)
        return info

    @staticmethod
    def _may_add_ai(info: TableInfo, user_id: int) -> None:
        if info.seat_of(user_id) is None and user_id != info.row.creator_id:
            raise Refused(NOT_SEATED)
        if len(info.seats) >= info.definition.max_players:
            raise Refused(Msg("The table is full ({n} players).", n=info.definition.max_players))

    async def add_ai(self, game_id: int, user_id: int, kind: str | None = None) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            self._may_add_ai(info, user_id)
            # The seat keeps the level key; old kind names (greedy, random) are read as their level.
            kind = level_of(kind or DEFAULT_AI_LEVEL)
            if kind not in AI_LEVELS and kind not in info.definition.ais:
                raise Refused(Msg("Unknown AI level {name}; choose from {choices}.", name=repr(kind),
                                  choices=", ".join(AI_LEVELS)))
            taken = {s.name for s in info.seats}
            number = next(i for i in range(1, 100) if f"AI {i}" not in taken)
            seats = [*info.seats, SeatRow(len(info.seats), None, kind, f"AI {number}")]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def remove_ai(self, game_id: int, user_id: int) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is None and user_id != info.row.creator_id:
                raise Refused(NOT_SEATED)
            ai_seats = [s for s in info.seats if s.is_ai]
            if not ai_seats:
                raise Refused(N_("There is no AI seat to remove."))
            kept = [s for s in info.seats if s is not ai_seats[-1]]
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(kept)]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def start(self, game_id: int, user_id: int, *, admin: bool = False) -> Outcome:
        """Deal the game: seat order, first snapshot, welcome DMs and the first board are owed.

        AI seats that open the game play in the same commit: if one fails, the game stays a lobby
        (Refused START_FAILED) instead of running with an AI turn nobody will play.
        """
        try:
            return await self._start(game_id, user_id, admin)
        except (Refused, DatabaseUnavailable):
            raise
        except Exception:
            log.exception("game %s: start failed; the lobby is kept", game_id)
            raise Refused(START_FAILED) from None

    async def _start(self, game_id: int, user_id: int, admin: bool) -> Outcome:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if user_id != info.row.creator_id and not admin and info.seat_of(user_id) is None:
                raise Refused(NOT_SEATED)
            await self._may_start(info, user_id, admin)
            definition = info.definition
            count = len(info.seats)
            if not definition.min_players <= count <= definition.max_players:
                raise Refused(Msg("{title} needs {min} to {max} players; there are {n}.", title=Term(definition.title),
                                  min=definition.min_players, max=definition.max_players, n=count))
            if all(s.is_ai for s in info.seats):
                raise Refused(N_("At least one player must sit at the table."))
            ordered = list(info.seats)
            if info.row.seat_order == "shuffle":
                random.Random(derived_seed("seats", info.row.seed)).shuffle(ordered)
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(ordered)]
            state = definition.new_game(count, info.row.options, info.row.seed)
            opening = state.opening_events()
            opening_lines = tuple(lines_json([
                Msg("{title} begins. Seats: {seats}.", title=Term(definition.title),
                    seats=Items([Seat(s.seat) for s in seats], "comma")),
                *(event_msg(e) for e in opening if e.seats is None)]))
            posts = [PendingPost("board", None, {"lines": list(opening_lines)})]
            live = LiveGame(info.row, definition, seats, state, [0] * count)
            live.user_prefs = {s.user_id: await self.store.user_prefs(s.user_id) for s in seats if not s.is_ai}
            humans = [s.seat for s in seats if not s.is_ai]
            secrets = secret_parts(state, humans)
            welcome = welcome_owed(humans=humans, choices={seat: dms_of(live, seat) for seat in humans},
                                   opening=opening, to_act=state.to_act(), secrets=secrets,
                                   at=state.moves_applied)
            posts += welcome.posts
            live.dm_news = welcome.news
            live.clocks = synced_clocks(live, self.now())
            ai_opens = any(seats[s].is_ai for s in state.to_act())
            # The copy matches the lobby's stored version; the commit below (the start, or the AI's
            # moves with it) moves it on through _on_version.
            live.version = info.row.version
            live.post_summary = list(opening_lines)
            if not ai_opens:
                # The opening post's words and the owed DM news commit with the start (issue 29).
                await self.store.start_game(game_id, seats, state.to_json(), posts,
                                            clocks=list(live.clocks.values()), to_act=state.to_act(),
                                            post_words={"summary": live.post_summary, "lines": [],
                                                        "news": {str(s): lines for s, lines
                                                                 in live.dm_news.items() if lines}})
                live.version = info.row.version + 1  # start_game writes the game once
                live.stored_clocks = dict(live.clocks)
            live.row = replace(info.row, status="running")
            # The welcome DMs carry the opening hands.
            live.dm_sent = {seat: secret_digest(secrets[seat]) for seat in welcome.welcomed}
            self._live[game_id] = live
            if ai_opens:
                # AI seats that open the game play now; their DMs merge with the welcome DMs, and
                # the deal commits with their moves.
                # The opening lines lead the first post's words; that post pings whoever must act.
                live.post_lines = list(opening_lines)
                outcome = await self._conclude(live, Batch(), starting=posts[1:],
                                               seats_changed=True, opening=True)
                return Outcome(game_id, outcome.applied, (*opening_lines, *outcome.public_lines),
                               outcome.private_lines, outcome.to_act, outcome.status)
            self._clocks_changed(game_id)
            return Outcome(game_id, public_lines=opening_lines,
                           to_act=tuple(sorted(state.to_act())))

    async def cancel(self, game_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status not in ("lobby", "running"):
                raise Refused(N_("This game is already finished."))
            if user_id != row.creator_id and not admin:
                raise Refused(N_("Only the player who created the game (or a moderator) can cancel it."))
            if row.status == "running":
                # Players of a running game learn it where they play, not only on the old lobby.
                await self.store.add_posts(game_id, [PendingPost("board", None, {"lines": [Msg("The game was cancelled.").to_json()]})],
                                           status="cancelled")
            else:
                await self.store.set_game_fields(game_id, status="cancelled")
            self._forget(row)
            return await self._row(game_id)

