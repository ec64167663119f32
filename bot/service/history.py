"""History and read models: a table's status, the views, legal moves, the move log, since-your-last-turn and standings."""

from __future__ import annotations

from typing import Any

from bot.service.live import LiveGames
from bot.service.types import CURRENT_GAME, NOT_SEATED, Refused, SinceReport, TableInfo, not_your_turn
from bot.words import event_msg, sentences
from rules.engine import GameState, Result, SeatResult, rank_by, replay
from rules.words import N_, Msg, Plural, Seat

EARLY = "early"  # the `ended_by` key of a game stopped early (its words are the line that stopped it)
POINTS = N_("points")  # the one breakdown category of standings taken early


def current_standings(state: GameState, ended_by: Msg) -> Result:
    """The standings of a game stopped early (`ended_by`: how, as a message): its result if over, else the
    score its public view shows (`scores` as a list or a dict by seat, or per-seat entries of
    `seats`/`players` with `score`, `points` or `gold`), ranked; a game showing none ranks everyone equal.
    (The engine contract has no "standings so far"; the public view is what every game shares.)"""
    final = state.result()
    if final is not None:
        return final
    view = state.view(None)
    raw = view.get("scores")
    scores: dict[int, int] = {s: 0 for s in range(state.num_seats)}
    if isinstance(raw, list):
        scores.update({s: int(v) for s, v in enumerate(raw) if isinstance(v, int | float)})
    elif isinstance(raw, dict):
        scores.update({int(k): int(v) for k, v in raw.items() if str(k).isdigit() and isinstance(v, int | float)})
    else:
        entries = [e for key in ("seats", "players") if isinstance(view.get(key), list)
                   for e in view[key] if isinstance(e, dict) and isinstance(e.get("seat"), int)]
        for field_name in ("score", "points", "gold"):
            found = {e["seat"]: e[field_name] for e in entries if isinstance(e.get(field_name), int | float)}
            if found:
                scores.update({s: int(v) for s, v in found.items() if s in scores})
                break
    ranks = rank_by({s: (scores[s],) for s in scores})
    lines = sorted((SeatResult(s, scores[s], {"points": scores[s]}, ranks[s]) for s in scores), key=lambda r: r.rank)
    return Result(tuple(lines), ended_by=EARLY, labels={EARLY: ended_by, "points": POINTS})


class ReadModels(LiveGames):
    """What players and spectators read: nothing here changes a game."""

    async def info(self, game_id: int) -> TableInfo:
        await self._check_fresh(game_id)
        live = self._live.get(game_id)
        if live is not None:
            CURRENT_GAME.set(live.row.game_key)
            return TableInfo(live.row, live.definition, list(live.seats), tuple(sorted(live.state.to_act())),
                             live.state.moves_applied, {s: c.deadline for s, c in live.clocks.items()})
        row = await self._row(game_id)
        info = TableInfo(row, self.definition(row.game_key), await self.store.seats(game_id))
        if row.status == "running":
            live = await self._load_live(game_id)
            info.to_act, info.moves = tuple(sorted(live.state.to_act())), live.state.moves_applied
            info.deadlines = {s: c.deadline for s, c in live.clocks.items()}
        elif row.status == "over":
            snap = await self.store.snapshot(game_id)
            info.moves = snap[0] if snap else 0
        elif row.status == "lobby":
            await self._lobby_details(info)
        return info

    async def public_view(self, game_id: int) -> tuple[dict[str, Any], list[str]]:
        state, names = await self._final_or_live_state(game_id)
        return state.view(None), names

    async def private_view(self, game_id: int, user_id: int, at: int | None = None) -> tuple[int, dict[str, Any], list[str]]:
        """(seat, view, names) of the caller's seat; `at`: as it was after the game's first `at` moves
        (what a DM owed then shows), replayed from the log (the engines are deterministic)."""
        state, names = await self._final_or_live_state(game_id)
        if at is not None and at < state.moves_applied:
            row = await self._row(game_id)
            moves = await self.store.moves(game_id)
            state = replay(self.definition(row.game_key), state.num_seats, row.options, row.seed,
                           ((m.seat, m.notation) for m in moves[:at]))
        seats = await self.store.seats(game_id)
        seat = next((s.seat for s in seats if s.user_id == user_id), None)
        if seat is None:
            raise Refused(NOT_SEATED)
        return seat, state.view(seat), names

    async def revealed_views(self, game_id: int) -> dict[int, dict[str, Any]]:
        """Every seat's own view, hands and tickets included: only once the game is over."""
        row = await self._row(game_id)
        if row.status != "over":
            raise Refused(N_("Hands are shown only when the game is over."))
        state, _ = await self._final_or_live_state(game_id)
        return {seat: state.view(seat) for seat in range(state.num_seats)}

    async def legal_moves(self, game_id: int, user_id: int) -> tuple[int, int, list[str]]:
        """(seat, staleness token, notations) of the caller's legal moves; Refused if not to act."""
        live = await self._running(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise Refused(NOT_SEATED)
        if seat not in live.state.to_act():
            raise not_your_turn(live)
        return seat, live.seat_moves[seat], [str(m) for m in live.state.legal_moves(seat)]

    async def turn_choices(self, game_id: int, user_id: int) -> tuple[int, int, list[str], list[str]]:
        """legal_moves, and the engine's shortcuts among them (what a turn panel offers first)."""
        seat, token, moves = await self.legal_moves(game_id, user_id)
        live = await self._running(game_id)
        return seat, token, moves, [str(m) for m in live.state.shortcuts(seat)]

    async def log(self, game_id: int, viewer: int | None = None) -> list[Msg]:
        """The moves in words for `viewer` (a user id, or None for a spectator), as messages whose seats the
        reader's side names (`names` of the game).

        Once the game is over every notation is shown. While it runs, a move that drew a private
        event (a secret bid, a kept ticket) is shown by its public lines only, except to the player
        who made it: a notation may carry the secret itself, and the channel must never see one.
        """
        row = await self._row(game_id)
        seats = await self.store.seats(game_id)
        moves = await self.store.moves(game_id)

        def line(n: int, seat: int, said: Msg | str) -> Msg:
            return Msg("{n}. {who}: {said}", n=n + 1, who=Seat(seat), said=said)

        if row.status == "over" or not moves:
            return [line(m.n, m.seat, m.notation) for m in moves]
        mine = next((s.seat for s in seats if viewer is not None and s.user_id == viewer), None)
        state = self.definition(row.game_key).new_game(len(seats), row.options, row.seed)
        lines = []
        for m in moves:
            events = state.apply(m.seat, m.notation)
            if m.seat == mine or all(e.seats is None for e in events):
                lines.append(line(m.n, m.seat, m.notation))
            else:
                said = sentences([event_msg(e) for e in events if e.seats is None])
                lines.append(line(m.n, m.seat, said or Msg("(a hidden decision)")))
        return lines

    async def since_last_turn(self, game_id: int, user_id: int, max_lines: int = 30,
                              max_views: int = 4, at: int | None = None) -> SinceReport:
        """What happened since the caller's seat last acted, replayed from the move log: the moves
        with the events that seat may see, and a few public views from then to now (`at`: to the
        game's first `at` moves, when a DM owed then was owed)."""
        live, seat = await self._seated_live(game_id, user_id)
        moves = await self.store.moves(game_id)
        if at is not None:
            moves = moves[:at]
        own = [m.n for m in moves if m.seat == seat]
        start = own[-1] + 1 if own else 0
        row = live.row
        state = replay(live.definition, len(live.seats), row.options, row.seed,
                       ((m.seat, m.notation) for m in moves[:start]))
        names = live.names
        views = [state.view(None)]
        lines = []
        later = moves[start:]
        keep = {round(i * (len(later) - 1) / max(1, max_views - 2)) for i in range(max_views - 1)} if later else set()
        for index, move in enumerate(later):
            events = state.apply(move.seat, move.notation)
            said = sentences([event_msg(e) for e in events if e.visible_to(seat)])
            # A move that drew a private event may carry the secret in its notation (a hidden bid):
            # others see only what its events tell them (as in /game log).
            if move.seat == seat or all(e.seats is None for e in events):
                lines.append(Msg("{who}: `{move}` — {said}", who=Seat(move.seat), move=move.notation, said=said)
                             if said else Msg("{who}: `{move}`", who=Seat(move.seat), move=move.notation))
            else:
                lines.append(Msg("{who} — {said}", who=Seat(move.seat), said=said or Msg("(a hidden decision)")))
            if index in keep:
                views.append(state.view(None))
        if len(lines) > max_lines:
            earlier = len(lines) - max_lines + 1
            lines = [Plural("… {n} earlier move", "… {n} earlier moves", n=earlier), *lines[-(max_lines - 1):]]
        return SinceReport(seat, tuple(lines), tuple(views), tuple(names), len(later))
