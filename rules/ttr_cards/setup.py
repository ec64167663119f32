"""A new game of Ticket to Ride: The Card Game (section 3): deal, display, tickets, keep step."""

from __future__ import annotations

from typing import Any

from rules.engine import Event
from rules.ttr_cards.cards import (
    COLOURS,
    DISPLAY_SIZE,
    HAND_DEAL,
    LOCO,
    SETUP_TICKETS,
    TICKET_IDS,
    describe,
    full_set,
)
from rules.ttr_cards.state import TTRCardsState
from rules.words import Items, Msg, Term


def create(num_seats: int, options: dict[str, Any], seed: int) -> TTRCardsState:
    state = TTRCardsState(num_seats, options, seed)
    rng = state.rng
    # Each seat starts with one face-up Locomotive; the rest is shuffled and dealt in blocks (D3).
    counts = full_set()
    counts[LOCO] -= num_seats
    cards = [kind for kind in (*COLOURS, LOCO) for _ in range(counts[kind])]
    rng.shuffle(cards)
    for seat in range(num_seats):
        state.hands[seat][LOCO] += 1
        for card in cards[seat * HAND_DEAL : (seat + 1) * HAND_DEAL]:
            state.hands[seat][card] += 1
    start = num_seats * HAND_DEAL
    state.display = cards[start : start + DISPLAY_SIZE]
    state.deck = cards[start + DISPLAY_SIZE :]
    tickets = list(TICKET_IDS)
    rng.shuffle(tickets)
    for seat in range(num_seats):
        state.pending[seat] = tickets[seat * SETUP_TICKETS : (seat + 1) * SETUP_TICKETS]
    state.ticket_deck = tickets[num_seats * SETUP_TICKETS :]
    state.phase = "keep_setup"
    # The first post of a new game (read by the platform through GameState.opening_events).
    opening = [
        Event(Msg("Each player holds 1 Locomotive and 7 cards. Display: {display}. "
                  "Everyone keeps 1 to 6 of their 6 tickets (simultaneously): `keep ID ID ...`.",
                  display=Items((Term(card) for card in state.display), "comma")))
    ]
    for seat in range(num_seats):
        opening.append(
            Event(Msg("Your cards: {cards}. Your tickets to choose from: {ids}.", cards=describe(state.hands[seat]),
                      ids=Items(sorted(state.pending[seat]), "comma")), frozenset((seat,)))
        )
    state._opening_events = opening
    return state
