"""The game-host service: lobbies, seats, moves, AI turns and owed posts; no discord imports.

Every mutation of one game runs under that game's asyncio.Lock, so two clicks at once apply one
move and the other is refused with a reason. A move, the snapshot after it and the posts it owes
(outbox rows) are committed in one transaction before anything is posted: the store is the truth.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.store import GameRow, OutboxRow, PendingPost, SeatRow, Store, StoreError
from rules.engine import GameDefinition, GameState, IllegalMove, Result, ai_move, derived_seed, name_seats

NOT_YOUR_TURN = "It is not your turn."
STALE_MOVE = "That move is no longer possible."
NOT_SEATED = "You are not playing in this game."
NOT_RUNNING = "This game is not running."
NOT_LOBBY = "This game has already started."

# Keys every view carries (rules.engine.GameState.base_view): they change on every move, so
# they are not part of what makes a private view "changed".
_BASE_VIEW_KEYS = frozenset({"game", "seat", "num_seats", "to_act", "over", "moves_applied"})

# Runaway guard for AI loops (an engine bug must not hang the bot).
_MAX_AI_MOVES_PER_CALL = 20_000


class Refused(Exception):
    """A request the service refuses; `reason` is one line for the player (seat names filled in)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    """What one service call changed, for the adapter to turn into posts (also kept in the outbox)."""

    game_id: int
    applied: tuple[tuple[int, str], ...] = ()  # (seat, notation) in order, AI moves included
    public_lines: tuple[str, ...] = ()
    private_lines: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    views_changed: frozenset[int] = frozenset()  # human seats whose private view changed
    to_act: tuple[int, ...] = ()
    status: str = "running"


@dataclass
class TableInfo:
    """A snapshot of one table for status lines and lobby messages."""

    row: GameRow
    definition: GameDefinition
    seats: list[SeatRow]
    to_act: tuple[int, ...] = ()
    moves: int = 0

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


@dataclass
class _Live:
    """A running game held in memory while in play."""

    row: GameRow
    definition: GameDefinition
    seats: list[SeatRow]
    state: GameState
    seat_moves: list[int]  # decisions made per seat: the staleness token of pickers
    # The private part each seat was last sent by DM (memory only: after a restart a seat simply
    # gets its view again when its turn comes).
    dm_sent: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)


def secret_part(state: GameState, seat: int, public_view: dict[str, Any]) -> dict[str, Any]:
    """What a seat's view holds beyond the public view: the part worth a DM when it changes."""
    own = state.view(seat)
    return {k: v for k, v in own.items() if k not in _BASE_VIEW_KEYS and public_view.get(k, _MISSING) != v}


_MISSING = object()


def result_lines(result: Result, names: list[str]) -> list[str]:
    """Final standings in words, with each seat's breakdown."""
    lines = []
    for line in result.seats:
        parts = ", ".join(f"{k} {v}" for k, v in line.breakdown.items())
        lines.append(f"{line.rank}. {names[line.seat]}: {line.score}" + (f" ({parts})" if parts else ""))
    if result.ended_by:
        lines.append(name_seats(result.ended_by, names))
    return lines


class Tables:
    """The game-host service over a Store and a registry of game definitions."""

    def __init__(self, store: Store, games: Mapping[str, GameDefinition] | None = None) -> None:
        if games is None:
            from rules.registry import GAMES

            games = GAMES
        self.store = store
        self.games = games
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._index: dict[int, int] = {}  # place (channel or thread id) -> open game id
        self._live: dict[int, _Live] = {}  # running games in play, loaded on first use

    # ------------------------------------------------------------------ index

    async def load(self) -> list[int]:
        """Load the index of open games (not their states); return the running game ids."""
        rows = await self.store.games_with_status("lobby", "running")
        self._index = {row.place_id: row.id for row in rows}
        return [row.id for row in rows if row.status == "running"]

    def game_at(self, place_id: int) -> int | None:
        return self._index.get(place_id)

    async def find_game(self, place_id: int | None, user_id: int | None = None) -> int:
        """The game a command means: the open (else the latest) game of this channel or thread, or,
        in DMs, the caller's newest running game."""
        if place_id is not None:
            if place_id in self._index:
                return self._index[place_id]
            row = await self.store.latest_game_at(place_id)
            if row is not None:
                return row.id
        if user_id is not None:
            rows = await self.store.games_of_user(user_id, "running")
            if rows:
                return rows[0].id
        raise Refused("There is no game here. Open one with /game new.")

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    def loaded(self) -> frozenset[int]:
        """Ids of the game states held in memory (only games in play)."""
        return frozenset(self._live)

    def definition(self, game_key: str) -> GameDefinition:
        try:
            return self.games[game_key]
        except KeyError:
            raise Refused(f"Unknown game {game_key!r}.") from None

    # ------------------------------------------------------------------ reading

    async def info(self, game_id: int) -> TableInfo:
        live = self._live.get(game_id)
        if live is not None:
            return TableInfo(live.row, live.definition, list(live.seats), tuple(sorted(live.state.to_act())),
                             live.state.moves_applied)
        row = await self._row(game_id)
        info = TableInfo(row, self.definition(row.game_key), await self.store.seats(game_id))
        if row.status == "running":
            live = await self._load_live(game_id)
            info.to_act, info.moves = tuple(sorted(live.state.to_act())), live.state.moves_applied
        elif row.status == "over":
            snap = await self.store.snapshot(game_id)
            info.moves = snap[0] if snap else 0
        return info

    async def public_view(self, game_id: int) -> tuple[dict[str, Any], list[str]]:
        state, names = await self._final_or_live_state(game_id)
        return state.view(None), names

    async def private_view(self, game_id: int, user_id: int) -> tuple[int, dict[str, Any], list[str]]:
        state, names = await self._final_or_live_state(game_id)
        seats = await self.store.seats(game_id)
        seat = next((s.seat for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise Refused(NOT_SEATED)
        return seat, state.view(seat), names

    async def legal_moves(self, game_id: int, user_id: int) -> tuple[int, int, list[str]]:
        """(seat, staleness token, notations) of the caller's legal moves; Refused if not to act."""
        live = await self._running(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise Refused(NOT_SEATED)
        if seat not in live.state.to_act():
            raise Refused(NOT_YOUR_TURN)
        return seat, live.seat_moves[seat], [str(m) for m in live.state.legal_moves(seat)]

    async def log(self, game_id: int) -> list[str]:
        row = await self._row(game_id)
        seats = await self.store.seats(game_id)
        names = [s.name for s in seats]
        del row
        return [f"{m.n + 1}. {names[m.seat] if m.seat < len(names) else m.seat}: {m.notation}"
                for m in await self.store.moves(game_id)]

    # ------------------------------------------------------------------ lobby

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
    ) -> TableInfo:
        """Open a lobby with its creator in the first seat."""
        definition = self.definition(game_key)
        try:
            resolved = definition.resolve_options(options)
        except ValueError as error:
            raise Refused(str(error)) from None
        if seat_order not in ("shuffle", "join"):
            raise Refused("Seat order must be shuffle or join.")
        if seed is None:
            seed = random.SystemRandom().getrandbits(62)
        try:
            game_id = await self.store.create_game(
                game_key, resolved, seed, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
                creator_id=user_id, seat_order=seat_order, first_seat=(user_id, None, user_name),
            )
        except StoreError as error:
            raise Refused(str(error)) from None
        info = await self.info(game_id)
        self._index[info.row.place_id] = game_id
        return info

    async def join(self, game_id: int, user_id: int, user_name: str) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is not None:
                raise Refused("You have already joined.")
            if len(info.seats) >= info.definition.max_players:
                raise Refused(f"The table is full ({info.definition.max_players} players).")
            seats = [*info.seats, SeatRow(len(info.seats), user_id, None, user_name)]
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

    async def add_ai(self, game_id: int, user_id: int, kind: str | None = None) -> TableInfo:
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if info.seat_of(user_id) is None and user_id != info.row.creator_id:
                raise Refused(NOT_SEATED)
            if len(info.seats) >= info.definition.max_players:
                raise Refused(f"The table is full ({info.definition.max_players} players).")
            kinds = list(info.definition.ais) or ["random"]
            kind = kind or ("greedy" if "greedy" in kinds else kinds[0])
            if kind not in kinds:
                raise Refused(f"Unknown AI {kind!r}; choose from {', '.join(kinds)}.")
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
                raise Refused("There is no AI seat to remove.")
            kept = [s for s in info.seats if s is not ai_seats[-1]]
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(kept)]
            await self.store.replace_seats(game_id, seats)
            info.seats = seats
            return info

    async def start(self, game_id: int, user_id: int, *, admin: bool = False) -> Outcome:
        """Deal the game: seat order, first snapshot, welcome DMs and the first board are owed."""
        async with self.lock(game_id):
            info = await self._lobby(game_id)
            if user_id != info.row.creator_id and not admin and info.seat_of(user_id) is None:
                raise Refused(NOT_SEATED)
            definition = info.definition
            count = len(info.seats)
            if not definition.min_players <= count <= definition.max_players:
                raise Refused(f"{definition.title} needs {definition.min_players} to {definition.max_players}"
                              f" players; there are {count}.")
            if all(s.is_ai for s in info.seats):
                raise Refused("At least one player must sit at the table.")
            ordered = list(info.seats)
            if info.row.seat_order == "shuffle":
                random.Random(derived_seed("seats", info.row.seed)).shuffle(ordered)
            seats = [SeatRow(i, s.user_id, s.ai_kind, s.name) for i, s in enumerate(ordered)]
            state = definition.new_game(count, info.row.options, info.row.seed)
            names = [s.name for s in seats]
            order = ", ".join(names)
            posts = [PendingPost("board", None, {"lines": [f"{definition.title} begins. Seats: {order}."]})]
            posts += [PendingPost("dm", s.seat, {"lines": [], "welcome": True}) for s in seats if not s.is_ai]
            await self.store.start_game(game_id, seats, state.to_json(), posts)
            row = await self._row(game_id)
            live = _Live(row, definition, seats, state, [0] * count)
            live.dm_sent = self._secrets(live)  # the welcome DMs carry the opening hands
            self._live[game_id] = live
            humans = frozenset(s.seat for s in seats if not s.is_ai)
            if any(seats[s].is_ai for s in state.to_act()):
                # AI seats that open the game play now; their DMs merge with the welcome DMs.
                outcome = await self._run_ai(live, [], [], self._secrets(live))
                return Outcome(game_id, outcome.applied, (posts[0].payload["lines"][0], *outcome.public_lines),
                               outcome.private_lines, humans, outcome.to_act, outcome.status)
            return Outcome(game_id, public_lines=(posts[0].payload["lines"][0],), views_changed=humans,
                           to_act=tuple(sorted(state.to_act())))

    async def cancel(self, game_id: int, user_id: int, *, admin: bool = False) -> GameRow:
        async with self.lock(game_id):
            row = await self._row(game_id)
            if row.status not in ("lobby", "running"):
                raise Refused("This game is already finished.")
            if user_id != row.creator_id and not admin:
                raise Refused("Only the player who created the game (or a moderator) can cancel it.")
            if row.status == "running":
                # Players of a running game learn it where they play, not only on the old lobby.
                await self.store.add_posts(game_id, [PendingPost("board", None, {"lines": ["The game was cancelled."]})],
                                           status="cancelled")
            else:
                await self.store.set_game_fields(game_id, status="cancelled")
            self._forget(row)
            return await self._row(game_id)

    # ------------------------------------------------------------------ play

    async def play(self, game_id: int, user_id: int, text: str, *, token: int | None = None) -> Outcome:
        """Apply the caller's move (then any AI turns) and commit it; Refused with a reason otherwise.

        `token` is the seat's decision count when a picker was built: if the seat has decided since,
        the click is stale (this is what makes a double click apply once).
        """
        async with self.lock(game_id):
            live = await self._running(game_id)
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refused(NOT_SEATED)
            state = live.state
            if seat not in state.to_act():
                raise Refused(NOT_YOUR_TURN)
            if token is not None and token != live.seat_moves[seat]:
                raise Refused(STALE_MOVE)
            before = self._secrets(live)
            was_to_act = state.to_act()
            try:
                move = state.parse_move(text)
                events = state.apply(seat, move)
            except IllegalMove as error:
                raise Refused(name_seats(error.reason, live.names)) from None
            applied = [(seat, str(move))]
            live.seat_moves[seat] += 1
            return await self._run_ai(live, applied, events, before, was_to_act=was_to_act)

    async def concede(self, game_id: int, user_id: int) -> Outcome:
        """A player leaves a running game: the AI plays their seat; with no human left, it ends."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refused(NOT_SEATED)
            old = live.seats[seat]
            kinds = list(live.definition.ais) or ["random"]
            kind = "greedy" if "greedy" in kinds else kinds[0]
            live.seats[seat] = SeatRow(seat, None, kind, f"{old.name} (AI)")
            await self.store.replace_seats(game_id, live.seats)
            line = f"{old.name} left the game; the AI plays their seat."
            if all(s.is_ai for s in live.seats):
                await self.store.add_posts(
                    game_id, [PendingPost("board", None, {"lines": [line, "No player is left: the game ends."]})],
                    status="cancelled",
                )
                self._forget(live.row)
                return Outcome(game_id, public_lines=(line,), status="cancelled")
            before = self._secrets(live)
            outcome = await self._run_ai(live, [], [], before, extra_lines=[line])
            return outcome

    async def resume(self, game_id: int) -> Outcome | None:
        """After a restart: let AI seats take the turns they owe (None if nothing was owed)."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            if not any(live.seats[s].is_ai for s in live.state.to_act()):
                return None
            return await self._run_ai(live, [], [], self._secrets(live))

    # ------------------------------------------------------------------ outbox

    async def owed_posts(self, game_id: int | None = None) -> list[OutboxRow]:
        return await self.store.pending_posts(game_id)

    async def posts_done(self, post_ids: list[int]) -> None:
        await self.store.posts_done(post_ids)

    async def note_dm_closed(self, game_id: int, user_id: int) -> bool:
        """Remember that a user's DMs are closed; True the first time (tell the channel once)."""
        row = await self._row(game_id)
        if user_id in row.dm_closed_told:
            return False
        await self.store.set_game_fields(game_id, dm_closed_told=row.dm_closed_told | {user_id})
        if game_id in self._live:
            self._live[game_id].row = await self._row(game_id)
        return True

    async def set_message(self, game_id: int, **ids: int | None) -> None:
        await self.store.set_game_fields(game_id, **ids)
        if game_id in self._live:
            self._live[game_id].row = await self._row(game_id)

    # ------------------------------------------------------------------ internals

    async def _run_ai(
        self,
        live: _Live,
        applied: list[tuple[int, str]],
        events: list,
        before: dict[int, dict[str, Any]],
        extra_lines: list[str] | None = None,
        was_to_act: frozenset[int] | None = None,
    ) -> Outcome:
        """Play AI seats until a human must act or the game ends, then commit everything at once."""
        state = live.state
        was_to_act = was_to_act if was_to_act is not None else state.to_act()
        first_n = state.moves_applied - len(applied)
        events = list(events)
        for _ in range(_MAX_AI_MOVES_PER_CALL):
            waiting = sorted(s for s in state.to_act() if live.seats[s].is_ai)
            if not waiting:
                break
            seat = waiting[0]
            move = ai_move(state, seat, live.definition.ai(live.seats[seat].ai_kind or "random"))
            events += state.apply(seat, move)
            applied.append((seat, str(move)))
            live.seat_moves[seat] += 1
        names = live.names
        public_lines = [*(extra_lines or []), *(name_seats(e.text, names) for e in events if e.seats is None)]
        private_lines: dict[int, list[str]] = defaultdict(list)
        for event in events:
            for seat in sorted(event.seats or ()):
                private_lines[seat].append(name_seats(event.text, names))
        after = self._secrets(live)
        humans = [s.seat for s in live.seats if not s.is_ai]
        changed = frozenset(s for s in humans if s in private_lines or before.get(s) != after.get(s))
        # When a DM goes out: at once for private news (events only that seat sees); otherwise a
        # changed view is sent when it matters, as the seat's turn begins or the game ends, so a
        # player is not sent a DM after every move of every other player (their view may change
        # with each public move, e.g. a count derived from the board).
        to_act_now = state.to_act()
        dm_now = sorted(s for s in humans if s in private_lines or (
            (state.is_over() or (s in to_act_now and s not in was_to_act)) and after.get(s) != live.dm_sent.get(s)))
        for seat in dm_now:
            live.dm_sent[seat] = after[seat]
        result = state.result()
        status = "over" if state.is_over() else "running"
        board: dict[str, Any] = {"lines": public_lines}
        if result is not None:
            board["result"] = result_lines(result, names)
        posts = [PendingPost("board", None, board)] if (applied or extra_lines) else []
        posts += [PendingPost("dm", s, {"lines": private_lines.get(s, [])}) for s in dm_now]
        try:
            await self.store.record_moves(
                live.row.id, first_n, applied, state.to_json(), posts,
                status=status, result=None if result is None else result.to_json(),
            )
        except BaseException:
            # The memory is ahead of the store: drop it, the next use reloads the truth.
            self._live.pop(live.row.id, None)
            raise
        if status != "running":
            self._forget(live.row)
        return Outcome(
            live.row.id,
            applied=tuple(applied),
            public_lines=tuple(public_lines),
            private_lines={s: tuple(v) for s, v in private_lines.items()},
            views_changed=changed,
            to_act=tuple(sorted(state.to_act())),
            status=status,
        )

    def _secrets(self, live: _Live) -> dict[int, dict[str, Any]]:
        public_view = live.state.view(None)
        return {s.seat: secret_part(live.state, s.seat, public_view) for s in live.seats if not s.is_ai}

    def _forget(self, row: GameRow) -> None:
        if self._index.get(row.place_id) == row.id:
            del self._index[row.place_id]
        self._live.pop(row.id, None)

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.game(game_id)
        if row is None:
            raise Refused("There is no such game.")
        return row

    async def _lobby(self, game_id: int) -> TableInfo:
        row = await self._row(game_id)
        if row.status != "lobby":
            raise Refused(NOT_LOBBY if row.status == "running" else "This game is finished.")
        return TableInfo(row, self.definition(row.game_key), await self.store.seats(game_id))

    async def _running(self, game_id: int) -> _Live:
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = await self._row(game_id)
        if row.status != "running":
            raise Refused(NOT_RUNNING if row.status == "lobby" else "This game is finished.")
        return await self._load_live(game_id)

    async def _load_live(self, game_id: int) -> _Live:
        """Load a running game's state from its snapshot (lazily, on first use after start)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        row = await self._row(game_id)
        definition = self.definition(row.game_key)
        seats = await self.store.seats(game_id)
        snap = await self.store.snapshot(game_id)
        moves = await self.store.moves(game_id)
        if snap is None:
            raise Refused("This game has no saved state.")
        state = definition.from_json(snap[1])
        if snap[0] != len(moves) or state.moves_applied != len(moves):
            raise RuntimeError(f"game {game_id}: snapshot after {snap[0]} moves, log has {len(moves)}")
        seat_moves = [0] * len(seats)
        for move in moves:
            seat_moves[move.seat] += 1
        live = _Live(row, definition, seats, state, seat_moves)
        if row.status == "running":
            self._live[game_id] = live
        return live

    async def _final_or_live_state(self, game_id: int) -> tuple[GameState, list[str]]:
        live = self._live.get(game_id)
        if live is not None:
            return live.state, live.names
        row = await self._row(game_id)
        if row.status == "lobby":
            raise Refused(NOT_RUNNING)
        live = await self._load_live(game_id)
        return live.state, live.names
