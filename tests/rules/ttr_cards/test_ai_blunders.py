"""Ticket to Ride greedy AI: the blunders of issue 15 stay fixed (positions from seeded games)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import registry
from rules.engine import ai_move, replay
from rules.ttr_cards.ai import GreedyAI
from rules.ttr_cards.cards import COLOURS, LOCO, TICKETS, empty_counts
from rules.ttr_cards.moves import DrawDeck, Keep, Take, Yard
from rules.ttr_cards.scoring import best_completion
from rules.ttr_cards.state import TTRCardsState

DEFINITION = registry.get("ttr_cards")

# 4 players, seed 15: the greedy moves of main before issue 15, up to its move 152, where seat 3 drew
# tickets on its last turn and kept 30 and 41, which its final track stack cannot complete (-33).
SEED_15_MOVES = (
    "0:keep 38 43;1:keep 7 13 18 40;2:keep 10 21 23 42;3:keep 8 15 22 31;0:take loco;"
    "1:yard blue blue blue loco;2:yard green green loco loco loco;3:take loco;0:take loco;1:take red;"
    "1:draw deck;2:take purple;2:take purple;3:yard blue blue loco loco;0:yard black loco loco loco;"
    "1:take loco;2:yard purple purple purple;3:take yellow;3:take white;0:take blue;0:draw deck;1:take orange;"
    "1:draw deck;2:take loco;3:yard yellow yellow yellow;0:yard blue blue blue;1:take loco;2:draw deck;"
    "2:draw deck;3:take green;3:draw deck;0:draw deck;0:draw deck;1:yard orange orange loco loco;2:take yellow;"
    "2:take green;3:take red;3:draw deck;0:take black;0:take black;1:draw deck;1:draw deck;"
    "2:yard yellow yellow loco;3:yard white white white loco;0:take black;0:take black;1:take red;1:take red;"
    "2:take orange;2:take orange;3:take green;3:take yellow;0:yard white white white white;"
    "1:yard red red red red loco;2:yard orange orange orange;3:take yellow;3:take white;"
    "0:yard black black black black;1:take loco;2:take green;2:take purple;3:take red;3:take purple;0:tickets;"
    "0:keep 5 39;1:take orange;1:take orange;2:take purple;2:take purple;3:take loco;0:take blue;0:take blue;"
    "1:yard orange orange loco;2:yard purple purple purple purple;3:yard red red red loco;0:take purple;"
    "0:draw deck;1:yard green white yellow;2:yard green green;3:yard yellow yellow;0:yard blue blue;1:take red;"
    "1:take green;2:take orange;2:take white;3:yard green green;0:take black;1:tickets;1:keep none;2:tickets;"
    "2:keep 1;3:tickets;3:keep none;0:yard black orange yellow;1:tickets;1:keep none;2:draw deck;2:draw deck;"
    "3:take green;3:take white;0:take black;0:take black;1:tickets;1:keep none;2:tickets;2:keep none;"
    "3:take green;3:take white;0:yard black black black black;1:tickets;1:keep none;2:tickets;2:keep none;"
    "3:yard green green green;0:take purple;0:take purple;1:tickets;1:keep none;2:tickets;2:keep none;"
    "3:tickets;3:keep 11;0:yard purple purple purple;1:tickets;1:keep none;2:tickets;2:keep none;3:take orange;"
    "3:take red;0:tickets;0:keep 36;1:tickets;1:keep none;2:tickets;2:keep none;3:take orange;3:take white;"
    "0:take black;0:take black;1:take yellow;1:take yellow;2:draw deck;2:draw deck;"
    "3:yard white white white white white;0:yard black blue red;1:yard yellow yellow yellow yellow;"
    "2:yard red red red;3:yard orange orange orange orange;0:take purple;1:yard black blue green;"
    "2:yard blue blue;3:tickets"
)


def _seed_15_position() -> TTRCardsState:
    moves = [(int(seat), text) for seat, text in (entry.split(":") for entry in SEED_15_MOVES.split(";"))]
    state = replay(DEFINITION, 4, {}, 15, moves)
    assert isinstance(state, TTRCardsState)
    return state


def test_last_turn_keeps_no_ticket_the_final_track_stack_cannot_complete() -> None:
    state = _seed_15_position()
    assert state.step == "keep" and state.final_round is not None and state.active == 3
    assert sorted(state.pending[3]) == [19, 24, 30, 41]
    move = ai_move(state, 3, DEFINITION.ai("normal"))
    assert move == Keep(())
    before = state.to_json()
    state.apply(3, move)
    state.copy()  # the game goes on to its final scoring from here
    assert state.to_json() != before


def _turn_position(seed: int = 5) -> TTRCardsState:
    """A 2-player game right after the ticket choice, seat 0 in its action step."""
    state = DEFINITION.new_game(2, {}, seed)
    assert isinstance(state, TTRCardsState)
    state.apply(0, Keep(tuple(sorted(state.pending[0])[:1])))
    state.apply(1, Keep(tuple(sorted(state.pending[1])[:1])))
    assert state.active == 0 and state.step == "action"
    return state


def test_remembers_its_track_stack_and_draws_what_is_still_missing() -> None:
    state = _turn_position()
    # The covered colour is the one the ticket needs most: without memory it would be drawn first.
    ticket = next(t for t in TICKETS.values() if len(t.cards) == 2 and len(set(t.cards.values())) == 2)
    covered, missing = sorted(ticket.cards, key=lambda c: -ticket.cards[c])
    state.tickets[0] = [ticket.id]
    state.hands[0] = empty_counts()
    state.tracks[0] = empty_counts() | {covered: ticket.cards[covered]}  # already on the track stack
    state.display = [covered, covered, missing, *(c for c in COLOURS if c not in (covered, missing))][:6]
    assert LOCO not in state.display
    move = ai_move(state, 0, DEFINITION.ai("normal"))
    assert move == Take(missing), f"drew {move} although the stack holds the {covered} cards"


def test_does_not_lay_a_row_no_ticket_needs() -> None:
    state = _turn_position()
    ticket = TICKETS[state.tickets[0][0]]
    spare = next(c for c in COLOURS if c not in ticket.cards)
    state.hands[0] = empty_counts() | {spare: 5}
    state.yards = [{}, {}]
    move = ai_move(state, 0, DEFINITION.ai("normal"))
    assert not (isinstance(move, Yard) and spare in move.colours), move
    assert isinstance(move, (Take, DrawDeck)) or not isinstance(move, Yard)


def test_robs_a_row_even_in_a_colour_it_does_not_need() -> None:
    state = _turn_position()
    ticket = TICKETS[state.tickets[0][0]]
    spare = next(c for c in COLOURS if c not in ticket.cards)
    state.hands[0] = empty_counts() | {spare: 5}
    state.yards = [{}, {spare: [0, 4]}]
    move = ai_move(state, 0, DEFINITION.ai("normal"))
    assert isinstance(move, Yard) and set(move.colours) == {spare} and len(move.cards) == 5


def _keep_last_by_every_subset(view: dict) -> Keep:
    """The last-turn keep as the spec of `_keep_last` states it: an exact completion per subset."""
    track = view["seats"][view["seat"]]["track"]
    held = list(view["tickets"])

    def score(kept: tuple[int, ...]) -> tuple[int, int]:
        tickets = [*held, *kept]
        done = set(best_completion(tickets, track))
        return sum(TICKETS[t].points if t in done else -TICKETS[t].points for t in tickets), -len(kept)

    pending = sorted(view["pending"])
    subsets = [c for size in range(len(pending) + 1) for c in itertools.combinations(pending, size)]
    return Keep(max(subsets, key=score))


@settings(max_examples=300, deadline=None)
@given(
    tickets=st.lists(st.sampled_from(sorted(TICKETS)), min_size=5, max_size=22, unique=True),
    held_count=st.integers(0, 18),
    cards=st.lists(st.integers(0, 9), min_size=len(COLOURS) + 1, max_size=len(COLOURS) + 1),
)
def test_last_turn_keep_is_the_best_subset_the_bounds_skip_nothing_better(
    tickets: list[int], held_count: int, cards: list[int]
) -> None:
    """The bounds of `_keep_last` only skip subsets: the same choice as trying every subset, ties
    included, for hands of up to 18 tickets and stacks from empty to plentiful."""
    split = min(held_count, len(tickets) - 1)  # at least one drawn ticket
    held, pending = tickets[:split], tickets[split:][:4]
    track = dict(zip([*COLOURS, LOCO], cards, strict=True))
    view = {"seat": 0, "seats": [{"track": track}], "tickets": held, "pending": pending}
    assert GreedyAI._keep_last(view) == _keep_last_by_every_subset(view)
