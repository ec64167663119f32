"""Seats: concede, hand a seat to the AI and take it back, offer a seat to another member and hand it over."""

from __future__ import annotations

from dataclasses import replace

from bot.service.turn import Batch, Turns
from bot.service.types import NOT_SEATED, Outcome, Refused, safe_name
from bot.store import PendingPost, SeatPrefs, SeatRow
from bot.words import lines_json
from rules.words import N_, Msg

SEAT_OFFER_HOURS = 24


class Seats(Turns):
    """Who holds a seat of a running game; each change commits with the AI moves it lets happen."""

    async def concede(self, game_id: int, user_id: int) -> Outcome:
        """A player leaves a running game: the AI plays their seat; with no human left, it ends."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            seat = live.seat_of(user_id)
            if seat is None:
                raise Refused(NOT_SEATED)
            old = live.seats[seat]
            live.seats[seat] = SeatRow(seat, None, self._stand_in(live), f"{old.name} (AI)")
            line = Msg("{name} left the game; the AI plays their seat.", name=old.name)
            if all(s.is_ai for s in live.seats):
                await self.store.replace_seats(game_id, live.seats)
                await self.store.add_posts(
                    game_id, [PendingPost("board", None, {"lines": lines_json([line, Msg("No player is left: the game ends.")])})],
                    status="cancelled",
                )
                self._forget(live.row)
                return Outcome(game_id, public_lines=(line.to_json(),), status="cancelled")
            # The seat change commits with the AI's moves: a failure leaves the seat with its player.
            return await self._conclude(live, Batch(), extra_lines=[line], seats_changed=True)

    async def seat_to_ai(self, game_id: int, user_id: int) -> Outcome:
        """The caller hands their seat to the AI, and may take it back with seat_back."""
        async with self.lock(game_id):
            live, seat = await self._seated_live(game_id, user_id)
            old = live.seats[seat]
            live.seats[seat] = SeatRow(seat, None, self._stand_in(live), f"{old.name} (AI)")
            prefs = replace(live.prefs.get(seat, SeatPrefs(seat)), away_user_id=user_id, away_name=old.name,
                            timeouts=0)
            live.prefs[seat] = prefs
            line = Msg("{who} hands their seat to the AI for now (/seat back takes it back).", who=old.name)
            return await self._conclude(live, Batch(), extra_lines=[line], seats_changed=True, prefs=[prefs])

    async def seat_back(self, game_id: int, user_id: int) -> Outcome:
        """A player takes back the seat they (or their timeouts) handed to the AI."""
        async with self.lock(game_id):
            live = await self._running(game_id)
            if live.seat_of(user_id) is not None:
                raise Refused(N_("You already hold a seat in this game."))
            seat = next((s for s, p in live.prefs.items() if p.away_user_id == user_id and live.seats[s].is_ai), None)
            if seat is None:
                raise Refused(N_("You have no seat with the AI in this game."))
            prefs = live.prefs[seat]
            live.seats[seat] = SeatRow(seat, user_id, None, prefs.away_name or live.seats[seat].name)
            prefs = replace(prefs, away_user_id=None, away_name=None, timeouts=0)
            live.prefs[seat] = prefs
            live.dm_sent.pop(seat, None)
            line = Msg("{who} takes their seat back from the AI.", who=live.seats[seat].name)
            return await self._conclude(live, Batch(), extra_lines=[line], seats_changed=True, prefs=[prefs],
                                        dm_seats=(seat,))

    async def check_hand_over(self, game_id: int, from_user: int, to_user: int, to_is_bot: bool = False) -> int:
        """The seat `from_user` may offer to `to_user` (Refused with a reason otherwise)."""
        live, seat = await self._seated_live(game_id, from_user)
        if to_is_bot:
            raise Refused(N_("A bot cannot take a seat; use /seat ai to let the AI play it."))
        if to_user == from_user or live.seat_of(to_user) is not None:
            raise Refused(N_("That member already holds a seat in this game."))
        return seat

    async def offer_seat(self, game_id: int, from_user: int, to_user: int, to_is_bot: bool = False) -> int:
        """Offer `from_user`'s seat to `to_user`, stored server side (the button carries only its id);
        a new offer of the seat replaces the last one. Returns the offer id."""
        seat = await self.check_hand_over(game_id, from_user, to_user, to_is_bot)
        return await self.store.add_seat_offer(game_id, seat, from_user, to_user,
                                               self.now() + SEAT_OFFER_HOURS * 3600)

    async def accept_seat_offer(self, game_id: int, offer_id: int, user_id: int,
                                user_name: str) -> tuple[Outcome, int]:
        """`user_id` accepts a stored offer: only the member it was made to, once, before it expires.
        Returns the outcome and who gave the seat."""
        taken = await self.store.take_seat_offer(offer_id, game_id, user_id, self.now())
        if taken is None:
            raise Refused(N_("This seat is offered to someone else, or the offer was used or has expired."))
        seat, giver = taken
        return await self.hand_over(game_id, seat, giver, user_id, user_name), giver

    async def hand_over(self, game_id: int, seat: int, from_user: int, to_user: int, to_name: str) -> Outcome:
        """`to_user` accepts `from_user`'s seat: the seat, its clock and its secrets are theirs now."""
        to_name = safe_name(to_name)
        async with self.lock(game_id):
            live = await self._running(game_id)
            if not 0 <= seat < len(live.seats) or live.seats[seat].user_id != from_user:
                raise Refused(N_("This offer is no longer valid."))
            if live.seat_of(to_user) is not None:
                raise Refused(N_("You already hold a seat in this game."))
            old = live.seats[seat]
            live.seats[seat] = SeatRow(seat, to_user, None, to_name)
            live.user_prefs[to_user] = await self.store.user_prefs(to_user)
            prefs = replace(live.prefs.get(seat, SeatPrefs(seat)), muted=False, timeouts=0, vacation_until=None)
            live.prefs[seat] = prefs
            live.dm_sent.pop(seat, None)
            line = Msg("{who} handed their seat to {other}.", who=old.name, other=to_name)
            return await self._conclude(live, Batch(), extra_lines=[line], seats_changed=True, prefs=[prefs],
                                        dm_seats=(seat,))

