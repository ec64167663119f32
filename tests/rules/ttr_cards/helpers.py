"""Helpers for the ttr_cards tests: build positions directly, count components, check views."""

from __future__ import annotations

import json
import random
from typing import Any

from rules.engine import IllegalMove, Move, name_seats
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.cards import COLOURS, KINDS, LOCO, TICKET_IDS, empty_counts, full_set
from rules.ttr_cards.state import TTRCardsState

NAMES = ["S0", "S1", "S2", "S3"]


def position(
    n: int,
    *,
    active: int = 0,
    display: str = "",
    deck: str = "",
    hands: dict[int, dict[str, int]] | None = None,
    yards: dict[int, dict[str, tuple[int, int]]] | None = None,
    tickets: dict[int, list[int]] | None = None,
    ticket_deck: list[int] | None = None,
    tracks: dict[int, dict[str, int]] | None = None,
    discard: dict[str, int] | None = None,
    final_round: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> TTRCardsState:
    """A state in phase `turn`, step `action`, with exactly what is given (the rest empty)."""
    state = TTRCardsState(n, DEFINITION.resolve_options(options), seed=7)
    state.rng = random.Random(7)
    state.phase = "turn"
    state.step = "action"
    state.active = active
    state.turn = 1
    state.display = display.split()
    state.deck = deck.split()
    for seat, hand in (hands or {}).items():
        state.hands[seat].update(hand)
    for seat, yard in (yards or {}).items():
        state.yards[seat] = {colour: [locos, coloured] for colour, (locos, coloured) in yard.items()}
    for seat, ids in (tickets or {}).items():
        state.tickets[seat] = sorted(ids)
    state.ticket_deck = list(ticket_deck or [])
    for seat, track in (tracks or {}).items():
        state.tracks[seat].update(track)
    state.discard.update(discard or {})
    state.final_round = final_round
    return state


def card_totals(state: TTRCardsState) -> dict[str, int]:
    """Every train card wherever it is (deck, display, piles, hands, yards, track stacks)."""
    totals = empty_counts()
    for card in state.deck + state.display:
        totals[card] += 1
    for pile in (state.discard, state.closed, state.set_aside, *state.hands, *state.tracks):
        for kind in KINDS:
            totals[kind] += pile[kind]
    for yard in state.yards:
        for colour, (locos, coloured) in yard.items():
            totals[LOCO] += locos
            totals[colour] += coloured
    return totals


def ticket_places(state: TTRCardsState) -> list[int]:
    ids = list(state.ticket_deck)
    for seat in range(state.num_seats):
        ids += state.tickets[seat] + state.pending[seat] + state.completed[seat]
    return sorted(ids)


def check_invariants(state: TTRCardsState) -> None:
    """The state invariants of spec section 9 (cheap enough for every move)."""
    assert card_totals(state) == full_set(), card_totals(state)
    assert ticket_places(state) == list(TICKET_IDS)
    assert len(state.display) == 5
    owners: dict[str, int] = {}
    for seat, yard in enumerate(state.yards):
        for colour, (locos, coloured) in yard.items():
            assert colour in COLOURS and coloured >= 1 and locos >= 0
            assert colour not in owners, f"{colour} in two yards"
            owners[colour] = seat
    if state.phase not in ("keep_setup",) and state.step != "keep":
        assert not any(state.pending)
    assert (not state.to_act()) == (state.phase == "over")
    if not state.deck:
        for seat in state.to_act():
            assert not any(
                str(m) == "draw deck" or str(m).startswith("take ") for m in state.legal_moves(seat)
            )


# Secrets a view must not hold: another seat's hand, tickets, pending tickets, picks; any track
# contents while they are face down; the deck and ticket deck order.
def check_views(state: TTRCardsState) -> None:
    public = state.view(None)
    text = json.dumps(public)
    json.loads(text)
    assert "hand" not in public and "tickets" not in public and "pending" not in public
    tracks_open = state.options["open_track_stack"] or state.phase in ("choose", "over")
    for entry in public["seats"]:
        assert entry["hand_count"] == sum(state.hands[entry["seat"]].values())
        if not tracks_open:
            assert entry["track"] is None
        if state.phase == "keep_setup":
            assert entry["tickets_count"] is None and entry["pending_count"] is None
    for seat in range(state.num_seats):
        own = state.view(seat)
        json.dumps(own)
        assert own["hand"] == state.hands[seat]
        assert own["tickets"] == state.tickets[seat]
        assert own["pending"] == state.pending[seat]
        # The private view adds only the seat's own secrets to the public one.
        stripped = {
            k: v
            for k, v in own.items()
            if k not in ("hand", "tickets", "pending", "setup_choice", "picks", "pickable", "seat")
        }
        assert stripped == {k: v for k, v in public.items() if k != "seat"}
    assert "deck" not in public and "ticket_deck" not in public


def refuse(state: TTRCardsState, seat: int, move: str | Move, reason: str) -> None:
    """The move is refused with exactly this reason (seat names as S0..) and the state is unchanged."""
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        state.apply(seat, move)
    except IllegalMove as error:
        assert name_seats(error.reason, NAMES) == reason, error.reason
    else:
        raise AssertionError(f"{move!r} was accepted")
    assert json.dumps(state.to_json(), sort_keys=True) == before


def legal(state: TTRCardsState, seat: int) -> list[str]:
    return [str(m) for m in state.legal_moves(seat)]
