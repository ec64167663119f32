"""The game state of Ticket to Ride: The Card Game: turns, yards, track stacks, scorings, views."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from rules.engine import (
    Event,
    GameState,
    IllegalMove,
    Move,
    Result,
    SeatResult,
    quote,
    rank_by,
)
from rules.ttr_cards.cards import (
    BIG_CITIES,
    COLOURS,
    KINDS,
    LOCO,
    RESTART_DEAL,
    TICKET_DRAW,
    TICKETS,
    cards_played,
    counts_of,
    describe,
    empty_counts,
)
from rules.ttr_cards.moves import (
    Complete,
    Done,
    DrawDeck,
    DrawTickets,
    Keep,
    Take,
    Undo,
    Yard,
    parse,
    yard_move,
)
from rules.ttr_cards.scoring import (
    RESULT_LABELS,
    assign_cards,
    best_completion,
    big_city_winners,
    city_counts,
    fits,
    fitting_alone,
)
from rules.words import N_, Items, Msg, Plural, Seat, Term

DECK_EMPTY = N_("the train deck is empty: play to your rail yard or draw tickets")
SHAPE = N_("play 2+ cards of one colour (locomotives allowed) or 3 cards of 3 different colours")
LOCO_SECOND = N_("a face-up locomotive counts as two cards: take it only as your first card")
# How a list of this game's lines separates its items (Items kind "comma": card lists, seats, standings).
N_(", ")


def per_seat(parts: dict[int, Any]) -> Items:
    """A line's part per seat: "{s0}: blue 2; {s1}: nothing" (the separators are catalog entries too)."""
    return Items((Items((Seat(s), part), sep=N_(": ")) for s, part in parts.items()), sep=N_("; "))


def seats(seat_list: list[int]) -> Items:
    """Seats named in a line, joined with commas ("{s0}, {s2}")."""
    return Items((Seat(s) for s in seat_list), "comma")


class TTRCardsState(GameState):
    """Everything on the table. Decks are lists, top card first; piles of face-up cards are counts."""

    key: ClassVar[str] = "ttr_cards"

    def __init__(self, num_seats: int, options: dict[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        n = num_seats
        self.phase = "keep_setup"  # keep_setup | turn | choose | over
        self.step: str | None = None  # action | second_draw | keep (phase turn)
        self.active = 0
        self.turn = 0
        self.deck: list[str] = []
        self.display: list[str] = []
        self.discard = empty_counts()
        self.closed = empty_counts()
        self.set_aside = empty_counts()
        self.hands = [empty_counts() for _ in range(n)]
        self.tickets: list[list[int]] = [[] for _ in range(n)]
        self.pending: list[list[int]] = [[] for _ in range(n)]
        self.setup_choice: list[list[int] | None] = [None] * n
        self.ticket_deck: list[int] = []
        # colour -> [locos, coloured]; locomotives lie on top and leave first (D5).
        self.yards: list[dict[str, list[int]]] = [{} for _ in range(n)]
        self.tracks = [empty_counts() for _ in range(n)]
        self.completed: list[list[int]] = [[] for _ in range(n)]
        self.deck1_points = [0] * n
        self.deck_number = 1
        self.trigger = False  # the deck ran out (or was closed) this turn: final round at its end
        self.final_round: list[int] | None = None  # seats still to play, the active one first
        self.stall = 0
        self.scoring_kind: str | None = None  # during phase choose: intermediate | final
        self.picks: list[list[int]] = [[] for _ in range(n)]
        self.deciding: list[bool] = [False] * n
        self.scorings: list[dict[str, Any]] = []
        self.last_action: dict[str, Any] | None = None
        self.passes = 0

    # ------------------------------------------------------------------ persistence

    _FIELDS: ClassVar[tuple[str, ...]] = (
        "phase", "step", "active", "turn", "deck", "display", "discard", "closed", "set_aside", "hands",
        "tickets", "pending", "setup_choice", "ticket_deck", "yards", "tracks", "completed", "deck1_points",
        "deck_number", "trigger", "final_round", "stall", "scoring_kind", "picks", "deciding", "scorings",
        "last_action", "passes",
    )  # fmt: skip  (the table settings and the RNG are GameState.base_json's)

    def to_json(self) -> dict[str, Any]:
        return self.base_json() | _copy_fields({name: getattr(self, name) for name in self._FIELDS})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TTRCardsState:
        state = cls.from_base_json(data)
        for name, value in _copy_fields({name: data[name] for name in cls._FIELDS}).items():
            setattr(state, name, value)
        return state

    # ------------------------------------------------------------------ sampled worlds (search AI)

    def determinize(self, seat: int, rng: random.Random) -> TTRCardsState:
        """Other seats' hands, tickets and choices, the deck orders, the closed cards and the RNG resampled.

        Kept: everything in `seat`'s view and every track stack (their cards left public yards in step 1,
        so a player with perfect memory knows them, spec D7). Pools are sorted before `rng` shuffles
        them, so the worlds depend on what `seat` knows, never on the hidden values themselves.
        """
        world = self.reseeded_copy(rng)
        assert isinstance(world, TTRCardsState)
        others = [s for s in range(self.num_seats) if s != seat]
        cards = [kind for s in others for kind in KINDS for _ in range(self.hands[s][kind])]
        cards += [*self.deck, *(kind for kind in KINDS for _ in range(self.closed[kind]))]
        cards.sort()
        rng.shuffle(cards)
        for s in others:
            size = sum(self.hands[s].values())
            world.hands[s] = counts_of(cards[:size])
            del cards[:size]
        world.deck = cards[: len(self.deck)]
        world.closed = counts_of(cards[len(self.deck) :])
        final_reveal = self.phase == "over" or (self.phase == "choose" and self.scoring_kind == "final")
        if final_reveal:
            return world  # every ticket is on the table now
        tickets = sorted([*self.ticket_deck, *(t for s in others for t in (*self.tickets[s], *self.pending[s]))])
        rng.shuffle(tickets)
        for s in others:
            size = len(self.tickets[s])
            world.tickets[s] = sorted(tickets[:size])
            del tickets[:size]
            size = len(self.pending[s])
            world.pending[s] = tickets[:size]
            del tickets[:size]
            if self.setup_choice[s] is not None:
                # How many they kept is secret too: most players keep two or three.
                kept = min(len(world.pending[s]), rng.choice((2, 2, 3)))
                world.setup_choice[s] = sorted(world.pending[s][:kept])
            world.picks[s] = []  # picks in an intermediate scoring are private until confirmed
        world.ticket_deck = tickets
        return world

    # ------------------------------------------------------------------ whose decision

    def to_act(self) -> frozenset[int]:
        if self.phase == "keep_setup":
            return frozenset(s for s in range(self.num_seats) if self.setup_choice[s] is None)
        if self.phase == "turn":
            return frozenset((self.active,))
        if self.phase == "choose":
            return frozenset(s for s in range(self.num_seats) if self.deciding[s])
        return frozenset()

    def timeout_move(self, seat: int) -> Move | None:
        # Keeping no drawn ticket is the one decision that can be skipped without a cost.
        if self.phase == "turn" and self.step == "keep" and seat == self.active:
            return Keep(())
        return None

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        moves: list[Move] = []
        if self.phase == "keep_setup":
            pending = sorted(self.pending[seat])
            for size in range(1, len(pending) + 1):
                moves.extend(Keep(combo) for combo in itertools.combinations(pending, size))
        elif self.phase == "choose":
            pickable = self._pickable(seat)
            moves.extend(Complete(t) for t in pickable)
            if self.picks[seat]:
                moves.append(Undo())
            if not pickable:
                moves.append(Done())
        elif self.step == "keep":
            pending = sorted(self.pending[seat])
            for size in range(len(pending) + 1):
                moves.extend(Keep(combo) for combo in itertools.combinations(pending, size))
        else:
            if self.deck:
                moves.append(DrawDeck())
                for kind in set(self.display):
                    if not (self.step == "second_draw" and kind == LOCO):
                        moves.append(Take(kind))
            if self.step == "action":
                moves.extend(self._yard_moves(seat))
                if self.ticket_deck:
                    moves.append(DrawTickets())
        return sorted(moves, key=str)

    def _yard_moves(self, seat: int) -> list[Move]:
        hand = self.hands[seat]
        locos = hand[LOCO]
        moves: list[Move] = []
        for colour in COLOURS:
            if not hand[colour] or colour in self.yards[seat]:
                continue
            beat = self._largest_other_row(seat, colour)
            for k in range(1, hand[colour] + 1):
                for extra in range(locos + 1):
                    if k + extra >= 2 and k + extra > beat:
                        moves.append(yard_move([colour] * k + [LOCO] * extra))
        free = [c for c in COLOURS if hand[c] and not any(c in yard for yard in self.yards)]
        moves.extend(Yard(combo) for combo in itertools.combinations(free, 3))
        return moves

    def _largest_other_row(self, seat: int, colour: str) -> int:
        sizes = [
            sum(self.yards[s][colour]) for s in range(self.num_seats) if s != seat and colour in self.yards[s]
        ]
        return max(sizes, default=0)

    def _pickable(self, seat: int) -> list[int]:
        picks = self.picks[seat]
        track = self.tracks[seat]
        return [t for t in sorted(self.tickets[seat]) if t not in picks and fits([*picks, t], track)]

    def _has_legal_move(self, seat: int) -> bool:
        # Only called at the start of a turn: a draw is legal whenever the deck holds a card.
        return bool(self.deck) or bool(self.ticket_deck) or bool(self._yard_moves(seat))

    # ------------------------------------------------------------------ reading moves

    def parse_move(self, text: str) -> Move:
        move = parse(text, self.display)
        if isinstance(move, Keep) and move.every and self.phase == "turn" and self.step == "keep":
            return Keep(tuple(sorted(self.pending[self.active])))
        return move

    # ------------------------------------------------------------------ applying moves

    def _apply(self, seat: int, move: Move) -> list[Event]:
        if self.phase == "keep_setup":
            if not isinstance(move, Keep):
                raise IllegalMove(Msg("first choose which of your 6 tickets to keep, e.g. `keep 3 17`"))
            return self._setup_keep(seat, move)
        if self.phase == "choose":
            if isinstance(move, Complete):
                return self._complete(seat, move.ticket)
            if isinstance(move, Undo):
                return self._undo(seat)
            if isinstance(move, Done):
                return self._done(seat)
            raise IllegalMove(Msg("the scoring is on: pick tickets with `complete ID`, `undo` or `done`"))
        if isinstance(move, (Complete, Undo, Done)):
            raise IllegalMove(Msg("`complete`, `undo` and `done` are only for choosing tickets at a scoring"))
        if self.step == "keep":
            if not isinstance(move, Keep):
                raise IllegalMove(Msg("first choose which drawn tickets to keep, e.g. `keep 7 44` or `keep none`"))
            return self._keep(seat, move)
        if isinstance(move, Keep):
            raise IllegalMove(Msg("you have no drawn tickets to keep: draw with `tickets` first"))
        if self.step == "second_draw" and not isinstance(move, (DrawDeck, Take)):
            raise IllegalMove(Msg("take your second card first: `draw deck` or `take KIND`"))
        if isinstance(move, DrawDeck):
            return self._draw_deck(seat)
        if isinstance(move, Take):
            return self._take(seat, move.kind, move.slot)
        if isinstance(move, Yard):
            return self._yard(seat, move)
        if isinstance(move, DrawTickets):
            return self._draw_tickets(seat)
        raise IllegalMove(Msg("that move is not possible now"))

    # -- setup

    def _setup_keep(self, seat: int, move: Keep) -> list[Event]:
        ids = tuple(sorted(self.pending[seat])) if move.every else move.ids
        for tid in ids:
            if tid not in self.pending[seat]:
                raise IllegalMove(Msg("ticket {id} is not among the tickets you drew", id=tid))
        if not ids:
            raise IllegalMove(Msg("keep at least 1 ticket"))
        self.setup_choice[seat] = sorted(ids)
        events = [
            Event(Msg("{who} has chosen their tickets.", who=Seat(seat))),
            Event(Msg("You keep tickets {ids}.", ids=Items(sorted(ids), "comma")), frozenset((seat,))),
        ]
        self._last({"seat": seat, "type": "setup"}, Msg("{who} has chosen", who=Seat(seat)))
        if all(choice is not None for choice in self.setup_choice):
            returned: list[int] = []
            for s in range(self.num_seats):
                kept = self.setup_choice[s] or []
                self.tickets[s] = sorted(kept)
                returned.extend(t for t in self.pending[s] if t not in kept)
                self.pending[s] = []
            self.ticket_deck.extend(returned)
            self.rng.shuffle(self.ticket_deck)
            counts = Items((Msg("{who} {n}", who=Seat(s), n=len(self.tickets[s])) for s in range(self.num_seats)),
                           "comma")
            events.append(Event(Msg("Everyone has chosen. Tickets kept: {who}.", who=counts)))
            self.phase = "turn"
            self._start_turn(0, events)
        return events

    # -- draws

    def _check_draw(self, seat: int) -> None:
        if self.step not in ("action", "second_draw"):
            raise IllegalMove(Msg("you cannot draw train cards now"))
        if not self.deck:
            raise IllegalMove(Msg(DECK_EMPTY))

    def _draw_deck(self, seat: int) -> list[Event]:
        self._check_draw(seat)
        card = self.deck.pop(0)
        self.hands[seat][card] += 1
        events = [
            Event(Msg("{who} draws a card from the deck.", who=Seat(seat))),
            Event(Msg("You drew {card}.", card=Term(card)), frozenset((seat,))),
        ]
        self._last({"seat": seat, "type": "draw_deck"}, Msg("{who} drew from the deck", who=Seat(seat)))
        self._after_card(seat, first_loco=False, events=events)
        return events

    def _take(self, seat: int, kind: str, slot: int | None = None) -> list[Event]:
        self._check_draw(seat)
        if kind not in self.display:
            raise IllegalMove(Msg("there is no {kind} in the display", kind=Term(kind)))
        if slot is not None and not (0 <= slot < len(self.display) and self.display[slot] == kind):
            raise IllegalMove(Msg("there is no {kind} in slot {slot} of the display", kind=Term(kind), slot=slot + 1))
        if self.step == "second_draw" and kind == LOCO:
            raise IllegalMove(Msg(LOCO_SECOND))
        if slot is None:
            slot = self.display.index(kind)
        self.hands[seat][kind] += 1
        refill = self.deck.pop(0)
        self.display[slot] = refill
        events = [Event(Msg("{who} takes {kind} from the display; {refill} fills slot {slot}.", who=Seat(seat),
                            kind=Term(kind), refill=Term(refill), slot=slot + 1))]
        self._last({"seat": seat, "type": "take", "kind": kind, "slot": slot, "refill": refill},
                   Msg("{who} took {kind} (slot {slot})", who=Seat(seat), kind=Term(kind), slot=slot + 1))
        self._after_card(seat, first_loco=kind == LOCO and self.step == "action", events=events)
        return events

    def _after_card(self, seat: int, first_loco: bool, events: list[Event]) -> None:
        if not self.deck:
            self.trigger = True
            events.append(Event(Msg("The train deck is empty: the draw ends.")))
            self._end_turn(seat, events, idle=False)
        elif first_loco or self.step == "second_draw":
            self._end_turn(seat, events, idle=False)
        else:
            self.step = "second_draw"

    # -- yard

    def yard_reason(self, seat: int, move: Yard) -> Msg | None:
        """Why this yard play is illegal for the seat (checks in the spec's order), or None."""
        hand = self.hands[seat]
        unknown = next((card for card in move.cards if card not in KINDS), None)
        if unknown is not None:  # a hand-built move: no such card
            return Msg("there is no card called {card}", card=quote(str(unknown)))
        wanted = counts_of(list(move.cards))
        for kind in KINDS:
            if wanted[kind] > hand[kind]:
                return Msg("you do not have {n} {kind} in your hand (you have {have})", n=wanted[kind],
                           kind=Term(kind), have=hand[kind])
        colours = move.colours
        distinct = sorted(set(colours))
        if not colours:
            return Msg("a set needs at least one coloured card")
        if len(distinct) == 1 and len(move.cards) >= 2:
            colour = distinct[0]
            if colour in self.yards[seat]:
                return Msg("you already have a {colour} row", colour=Term(colour))
            size = len(move.cards)
            for other in range(self.num_seats):
                row = self.yards[other].get(colour)
                if other != seat and row is not None and sum(row) >= size:
                    return Msg("your {colour} set must be larger than {other}'s {colour} row ({n} cards)",
                               colour=Term(colour), other=Seat(other), n=sum(row))
            return None
        if len(distinct) == 3 and len(move.cards) == 3:
            for colour in distinct:
                if colour in self.yards[seat]:
                    return Msg("you already have a {colour} row", colour=Term(colour))
            for colour in distinct:
                if any(colour in self.yards[s] for s in range(self.num_seats) if s != seat):
                    return Msg("{colour} is in another rail yard: a single card cannot beat that row",
                               colour=Term(colour))
            return None
        return Msg(SHAPE)

    def _yard(self, seat: int, move: Yard) -> list[Event]:
        reason = self.yard_reason(seat, move)
        if reason is not None:
            raise IllegalMove(reason)
        for card in move.cards:
            self.hands[seat][card] -= 1
        distinct = sorted(set(move.colours))
        robbed: list[dict[str, Any]] = []
        if len(distinct) == 1:
            colour = distinct[0]
            for other in range(self.num_seats):
                row = self.yards[other].pop(colour, None) if other != seat else None
                if row is not None:
                    self.discard[LOCO] += row[0]
                    self.discard[colour] += row[1]
                    robbed.append({"seat": other, "colour": colour, "locos": row[0], "coloured": row[1]})
            self.yards[seat][colour] = [move.locos, len(move.colours)]
        else:
            for colour in distinct:
                self.yards[seat][colour] = [0, 1]
        # A colour lies in one rail yard at most (a row of it is robbed, a trio may not add it), so a play robs
        # one row at most.
        assert len(robbed) <= 1
        played = {"who": Seat(seat), "cards": cards_played(move.cards)}
        if not robbed:
            line = Msg("{who} plays {cards} to the rail yard.", **played)
            last = Msg("{who} plays {cards}", **played)
        else:
            rob = robbed[0]
            rows = {"victim": Seat(rob["seat"]), "colour": Term(rob["colour"]), "n": rob["coloured"]}
            if rob["locos"]:
                line = Msg("{who} plays {cards} to the rail yard, robbing {victim}'s {colour} row ({n} {colour} + {m} "
                           "loco).", m=rob["locos"], **played, **rows)
                last = Msg("{who} plays {cards}, robbing {victim}'s {colour} row ({n} {colour} + {m} loco)",
                           m=rob["locos"], **played, **rows)
            else:
                line = Msg("{who} plays {cards} to the rail yard, robbing {victim}'s {colour} row ({n} {colour}).",
                           **played, **rows)
                last = Msg("{who} plays {cards}, robbing {victim}'s {colour} row ({n} {colour})", **played, **rows)
        events = [Event(line)]
        self._last({"seat": seat, "type": "yard", "cards": list(move.cards), "rows": distinct, "robbed": robbed},
                   last)
        self._end_turn(seat, events, idle=False)
        return events

    # -- tickets

    def _draw_tickets(self, seat: int) -> list[Event]:
        if not self.ticket_deck:
            raise IllegalMove(Msg("the ticket deck is empty"))
        drawn = self.ticket_deck[:TICKET_DRAW]
        del self.ticket_deck[:TICKET_DRAW]
        self.pending[seat] = drawn
        self.step = "keep"
        self._last({"seat": seat, "type": "tickets", "count": len(drawn)},
                   Msg("{who} drew {n} tickets", who=Seat(seat), n=len(drawn)))
        return [
            Event(Msg("{who} draws {n} tickets.", who=Seat(seat), n=len(drawn))),
            Event(Msg("You drew tickets {ids}.", ids=Items(drawn, "comma")), frozenset((seat,))),
        ]

    def _keep(self, seat: int, move: Keep) -> list[Event]:
        pending = self.pending[seat]
        ids = tuple(sorted(pending)) if move.every else move.ids
        for tid in ids:
            if tid not in pending:
                raise IllegalMove(Msg("ticket {id} is not among the tickets you drew", id=tid))
        self.tickets[seat] = sorted(self.tickets[seat] + list(ids))
        # Returned tickets go to the bottom in the order they were drawn (D17).
        self.ticket_deck.extend(t for t in pending if t not in ids)
        self.pending[seat] = []
        events = [Event(Plural("{who} keeps {n} ticket.", "{who} keeps {n} tickets.", n=len(ids), who=Seat(seat)))]
        if ids:
            events.append(Event(Msg("You keep tickets {ids}.", ids=Items(ids, "comma")), frozenset((seat,))))
        self._last({"seat": seat, "type": "keep", "count": len(ids)},
                   Msg("{who} kept {n} of the drawn tickets", who=Seat(seat), n=len(ids)))
        self._end_turn(seat, events, idle=not ids)
        return events

    def _last(self, action: dict[str, Any], said: Msg) -> None:
        """What the images show as the last action: its facts, and what happened as message data."""
        self.last_action = {**action, "msg": said.to_json()}

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self, seat: int, events: list[Event]) -> None:
        """Step 1 (yard to track stack), then the action step; an automatic pass if nothing is legal."""
        self.active = seat
        self.step = "action"
        self.turn += 1
        yard = self.yards[seat]
        moved = empty_counts()
        for colour in COLOURS:
            row = yard.get(colour)
            if row is None:
                continue
            if row[0]:
                row[0] -= 1
                moved[LOCO] += 1
            else:
                row[1] -= 1
                moved[colour] += 1
            if row[0] + row[1] == 0:
                del yard[colour]
        count = sum(moved.values())
        if count:
            for kind in KINDS:
                self.tracks[seat][kind] += moved[kind]
            total = sum(self.tracks[seat].values())
            if self.options["open_track_stack"]:
                events.append(Event(Plural(
                    "{who} moves {n} card to the track stack (now {total}): {moved}.",
                    "{who} moves {n} cards to the track stack (now {total}): {moved}.",
                    n=count, who=Seat(seat), total=total, moved=describe(moved))))
            else:
                events.append(Event(Plural("{who} moves {n} card to the track stack (now {total}).",
                                           "{who} moves {n} cards to the track stack (now {total}).",
                                           n=count, who=Seat(seat), total=total)))
        if not self._has_legal_move(seat):
            self.passes += 1
            events.append(Event(Msg("{who} has no legal move and passes.", who=Seat(seat))))
            self._last({"seat": seat, "type": "pass"}, Msg("{who} passed (no legal move)", who=Seat(seat)))
            self._end_turn(seat, events, idle=False)

    def _end_turn(self, seat: int, events: list[Event], idle: bool) -> None:
        n = self.num_seats
        self.step = None
        if self.final_round is None:
            self.stall = self.stall + 1 if idle else 0
            if self.stall >= 4 * n and not self.trigger:
                for card in self.deck:
                    self.closed[card] += 1
                closed = len(self.deck)
                self.deck = []
                self.trigger = True
                events.append(Event(Msg(
                    "{turns} turns in a row kept no ticket: the deck is closed ({n} cards set face down).",
                    turns=4 * n, n=closed)))
        if self.final_round is not None:
            self.final_round.pop(0)
            if not self.final_round:
                self._start_scoring(seat, events)
                return
            self._start_turn(self.final_round[0], events)
            return
        if self.trigger:
            self.trigger = False
            self.final_round = [(seat + k) % n for k in range(1, n + 1)]
            events.append(Event(Msg("Final round: {who} play one more turn each.", who=seats(self.final_round))))
            self._start_turn(self.final_round[0], events)
            return
        self._start_turn((seat + 1) % n, events)

    # ------------------------------------------------------------------ scoring

    def _start_scoring(self, last_seat: int, events: list[Event]) -> None:
        kind = "intermediate" if self.num_seats == 4 and self.deck_number == 1 else "final"
        self.scoring_kind = kind
        self.active = last_seat
        self.step = None
        self.final_round = None
        stacks = per_seat({s: describe(self.tracks[s]) for s in range(self.num_seats)})
        if kind == "intermediate":
            events.append(Event(Msg("Intermediate scoring. Track stacks: {stacks}.", stacks=stacks)))
        else:
            events.append(Event(Msg("Final scoring. Track stacks: {stacks}.", stacks=stacks)))
        if kind == "final":
            hands = per_seat({s: Items(self.tickets[s], "comma") if self.tickets[s] else Term(N_("none"))
                              for s in range(self.num_seats)})
            events.append(Event(Msg("Tickets in hand: {hands}.", hands=hands)))
        for seat in range(self.num_seats):
            if self.options["completion"] == "choose":
                fitting = fitting_alone(self.tickets[seat], self.tracks[seat])
                if fits(fitting, self.tracks[seat]):
                    self.picks[seat] = fitting
                else:
                    self.picks[seat] = []
                    self.deciding[seat] = True
            else:
                self.picks[seat] = best_completion(self.tickets[seat], self.tracks[seat])
        if any(self.deciding):
            self.phase = "choose"
            waiting = seats([s for s in range(self.num_seats) if self.deciding[s]])
            events.append(Event(Msg("Choosing completed tickets: {who}.", who=waiting)))
            return
        self._resolve_scoring(events)

    def _complete(self, seat: int, ticket: int) -> list[Event]:
        if ticket not in self.tickets[seat]:
            raise IllegalMove(Msg("ticket {id} is not in your hand", id=ticket))
        if ticket in self.picks[seat]:
            raise IllegalMove(Msg("you already picked ticket {id}", id=ticket))
        if not fits([*self.picks[seat], ticket], self.tracks[seat]):
            raise IllegalMove(Msg("ticket {id} does not fit together with your picks", id=ticket))
        self.picks[seat].append(ticket)
        return [Event(Msg("You pick ticket {id}.", id=ticket), frozenset((seat,)))]

    def _undo(self, seat: int) -> list[Event]:
        if not self.picks[seat]:
            raise IllegalMove(Msg("there is no pick to undo"))
        ticket = self.picks[seat].pop()
        return [Event(Msg("You drop ticket {id}.", id=ticket), frozenset((seat,)))]

    def _done(self, seat: int) -> list[Event]:
        if self._pickable(seat):
            raise IllegalMove(Msg("another ticket still fits: pick it (completing more never costs you)"))
        self.deciding[seat] = False
        events = [Event(Msg("{who} has chosen.", who=Seat(seat)))]
        if not any(self.deciding):
            self._resolve_scoring(events)
        return events

    def _resolve_scoring(self, events: list[Event]) -> None:
        kind = self.scoring_kind
        record: dict[str, Any] = {"kind": kind, "deck_number": self.deck_number, "seats": []}
        for seat in range(self.num_seats):
            chosen = sorted(self.picks[seat])
            track = dict(self.tracks[seat])
            assignment = assign_cards(chosen, track)
            points = sum(TICKETS[t].points for t in chosen)
            self.completed[seat].extend(chosen)
            self.tickets[seat] = [t for t in self.tickets[seat] if t not in chosen]
            entry = {
                "seat": seat, "track": track, "completed": chosen, "points": points,
                "assignment": {str(t): cards for t, cards in assignment.items()},
            }  # fmt: skip
            if kind == "final":
                entry["failed"] = list(self.tickets[seat])
                entry["failed_points"] = -sum(TICKETS[t].points for t in self.tickets[seat])
            record["seats"].append(entry)
            if chosen:
                events.append(Event(Msg("{who} completes {ids} for {points} points.", who=Seat(seat),
                                        ids=Items(chosen, "comma"), points=points)))
            else:
                events.append(Event(Msg("{who} completes nothing for {points} points.", who=Seat(seat),
                                        points=points)))
            self.picks[seat] = []
        if kind == "intermediate":
            self.scorings.append(record)
            self._restart(events)
            return
        winners = big_city_winners(self.completed)
        record["big_cities"] = winners
        self.scorings.append(record)
        for city, winners_of in winners.items():
            if winners_of:
                events.append(Event(Msg("{city} bonus ({value}): {who}.", city=city, value=BIG_CITIES[city][0],
                                        who=seats(winners_of))))
        self.phase = "over"
        self.step = None
        self.scoring_kind = None
        self._last({"seat": None, "type": "scoring"}, Msg("Final scoring"))
        result = self.result()
        assert result is not None
        # "1. {s2} 61, 2. {s0} 47": rank, name and score as they are in every language
        standings = Items((Items((f"{s.rank}.", Seat(s.seat), s.score), sep=" ") for s in result.seats), "comma")
        events.append(Event(Msg("Game over: {who}.", who=standings)))

    def _restart(self, events: list[Event]) -> None:
        """4 players after deck 1 (7.2): set aside used cards, rebuild the deck, deal 4 each."""
        n = self.num_seats
        record = self.scorings[-1]
        for seat in range(n):
            self.deck1_points[seat] = record["seats"][seat]["points"]
            left = dict(self.tracks[seat])
            for cards in record["seats"][seat]["assignment"].values():
                for kind, number in cards.items():
                    self.set_aside[kind] += number
                    left[kind] -= number
            for kind in KINDS:
                self.discard[kind] += left[kind]
            for colour, (locos, coloured) in self.yards[seat].items():
                self.discard[LOCO] += locos
                self.discard[colour] += coloured
            self.yards[seat] = {}
            self.tracks[seat] = empty_counts()
        deck = [kind for kind in KINDS for _ in range(self.discard[kind] + self.closed[kind])]
        self.rng.shuffle(deck)
        self.deck = deck
        self.discard = empty_counts()
        self.closed = empty_counts()
        start = (self.active + 1) % n
        order = [(start + k) % n for k in range(n)]
        dealt = [empty_counts() for _ in range(n)]
        for _ in range(RESTART_DEAL):
            for seat in order:
                if self.deck:
                    card = self.deck.pop(0)
                    self.hands[seat][card] += 1
                    dealt[seat][card] += 1
        self.deck_number = 2
        self.stall = 0
        self.trigger = False
        self.scoring_kind = None
        self.phase = "turn"
        events.append(Event(Msg("Deck 2: {n} cards after dealing up to {deal} to each seat.", n=len(self.deck),
                                deal=RESTART_DEAL)))
        for seat in range(n):
            events.append(Event(Msg("You are dealt {cards}.", cards=describe(dealt[seat])), frozenset((seat,))))
        self._last({"seat": None, "type": "scoring"}, Msg("Intermediate scoring; deck 2 dealt"))
        if not self.deck:
            self.final_round = list(order)
            events.append(Event(Msg("The new deck is empty. Final round: {who}.", who=seats(order))))
        self._start_turn(start, events)

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        final = self.scorings[-1]
        winners = final["big_cities"]
        lines = {}
        keys = {}
        for seat in range(self.num_seats):
            entry = final["seats"][seat]
            cards = [city for city, seats in winners.items() if seat in seats]
            breakdown = {
                "tickets_deck1": self.deck1_points[seat],
                "tickets_final": entry["points"],
                "tickets_failed": entry["failed_points"],
                "big_cities": sum(BIG_CITIES[city][0] for city in cards),
            }
            total = sum(breakdown.values())
            details = {
                "big_city_cards": cards,
                "completed": len(self.completed[seat]),
                "completed_ids": sorted(self.completed[seat]),
                "failed_ids": list(entry["failed"]),
            }
            lines[seat] = (total, breakdown, details)
            keys[seat] = (total, len(self.completed[seat]), len(cards))
        ranks = rank_by(keys)
        seats = [
            SeatResult(seat, lines[seat][0], lines[seat][1], ranks[seat], lines[seat][2])
            for seat in range(self.num_seats)
        ]
        seats.sort(key=lambda s: (s.rank, s.seat))
        return Result(tuple(seats), ended_by="deck", labels=RESULT_LABELS)

    # ------------------------------------------------------------------ views

    def _tracks_public(self) -> bool:
        return bool(self.options["open_track_stack"]) or self.phase in ("choose", "over")

    def view(self, seat: int | None) -> dict[str, Any]:
        view = self.base_view(seat)
        setup = self.phase == "keep_setup"
        final_reveal = self.phase == "over" or (self.phase == "choose" and self.scoring_kind == "final")
        result = self.result()
        seats = []
        for s in range(self.num_seats):
            entry: dict[str, Any] = {
                "seat": s,
                "hand_count": sum(self.hands[s].values()),
                "tickets_count": None if setup else len(self.tickets[s]),
                "pending_count": None if setup else len(self.pending[s]),
                "setup": ("done" if self.setup_choice[s] is not None else "choosing") if setup else None,
                "yard": [
                    {"colour": c, "locos": self.yards[s][c][0], "coloured": self.yards[s][c][1]}
                    for c in COLOURS
                    if c in self.yards[s]
                ],
                "track_count": sum(self.tracks[s].values()),
                "track": dict(self.tracks[s]) if self._tracks_public() else None,
                "completed": list(self.completed[s]),
                # Points so far: the final score once the game is over, else deck 1's tickets.
                "points": result.score_of(s) if result is not None else self.deck1_points[s],
                "city_counts": city_counts(self.completed[s]),
                "deciding": self.deciding[s] if self.phase == "choose" else False,
                "revealed_tickets": list(self.tickets[s]) if final_reveal else None,
            }
            seats.append(entry)
        view.update(
            {
                "options": dict(self.options),
                "phase": self.phase,
                "step": self.step,
                "active": self.active if self.phase == "turn" else None,
                "turn": self.turn,
                "deck_number": self.deck_number,
                "decks_total": 2 if self.num_seats == 4 else 1,
                "deck_count": len(self.deck),
                "closed_count": sum(self.closed.values()),
                "display": list(self.display),
                "discard": dict(self.discard),
                "set_aside": dict(self.set_aside),
                "ticket_deck_count": len(self.ticket_deck),
                "final_round": list(self.final_round) if self.final_round is not None else None,
                "stall": self.stall,
                "scoring_kind": self.scoring_kind,
                "big_cities": [
                    {
                        "city": city,
                        "value": value,
                        "colour": colour,
                        "winners": self.scorings[-1]["big_cities"][city] if self.phase == "over" else None,
                    }
                    for city, (value, colour) in BIG_CITIES.items()
                ],
                "seats": seats,
                "last_action": dict(self.last_action) if self.last_action else None,
                "scorings": [_json_copy(record) for record in self.scorings],
                "result": result.to_json() if result else None,
            }
        )
        if seat is not None:
            view["hand"] = dict(self.hands[seat])
            view["tickets"] = list(self.tickets[seat])
            view["pending"] = list(self.pending[seat])
            view["setup_choice"] = (
                list(self.setup_choice[seat]) if self.setup_choice[seat] is not None else None
            )
            view["picks"] = list(self.picks[seat]) if self.phase == "choose" else []
            view["pickable"] = self._pickable(seat) if self.phase == "choose" else []
        return view


def _copy_fields(data: dict[str, Any]) -> dict[str, Any]:
    """An independent copy of the state's fields, field by field (deepcopy is far slower)."""
    out = dict(data)
    for name in ("deck", "display", "ticket_deck", "deck1_points", "deciding"):
        out[name] = list(data[name])
    out["setup_choice"] = [None if ids is None else list(ids) for ids in data["setup_choice"]]
    for name in ("discard", "closed", "set_aside"):
        out[name] = dict(data[name])
    for name in ("hands", "tracks"):
        out[name] = [dict(counts) for counts in data[name]]
    for name in ("tickets", "pending", "completed", "picks"):
        out[name] = [list(ids) for ids in data[name]]
    out["yards"] = [{colour: list(row) for colour, row in yard.items()} for yard in data["yards"]]
    out["final_round"] = None if data["final_round"] is None else list(data["final_round"])
    out["scorings"] = _json_copy(data["scorings"])
    out["last_action"] = _json_copy(data["last_action"])
    return out


def _json_copy(data: Any) -> Any:
    return json.loads(json.dumps(data))
