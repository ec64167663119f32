"""ttr_cards moves: refusals with the spec's reasons (state unchanged), the lenient notation, properties."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import IllegalMove, RandomAI, ai_move, play_out
from rules.ttr_cards import DEFINITION
from rules.ttr_cards.cards import KINDS
from rules.ttr_cards.moves import Take, yard_move
from rules.ttr_cards.scoring import best_completion, fits, weight
from tests.rules.ttr_cards.helpers import legal, position, refuse


def turn_position():
    return position(
        3,
        hands={0: {"red": 2, "blue": 1, "loco": 1}},
        display="red green blue white loco",
        deck="black " * 6,
        ticket_deck=[1, 2, 3, 4, 5],
    )


def test_refusals_in_the_action_step() -> None:
    state = turn_position()
    refuse(state, 1, "draw deck", "It is not your turn.")
    refuse(state, 0, "take purple", "there is no purple in the display")
    refuse(state, 0, "yard red red red", "you do not have 3 red in your hand (you have 2)")
    refuse(
        state,
        0,
        "yard red",
        "play 2+ cards of one colour (locomotives allowed) or 3 cards of 3 different colours",
    )
    refuse(state, 0, "keep 3", "you have no drawn tickets to keep: draw with `tickets` first")
    refuse(state, 0, "complete 3", "`complete`, `undo` and `done` are only for choosing tickets at a scoring")
    refuse(
        state,
        0,
        "fly to the moon",
        "unknown move 'fly to the moon': try `draw deck`, `take red`, `yard red red`, `tickets`, `keep 7 44`",
    )
    refuse(state, 0, "take 9", "the display has slots 1 to 5")
    refuse(state, 0, "yard 3", "unreadable cards: a number must be followed by a card")


def test_refusals_in_the_second_draw_and_keep_steps() -> None:
    state = turn_position()
    state.apply(0, "take red")
    refuse(state, 0, "yard red red", "take your second card first: `draw deck` or `take KIND`")
    refuse(state, 0, "tickets", "take your second card first: `draw deck` or `take KIND`")
    refuse(state, 0, "take loco", "a face-up locomotive counts as two cards: take it only as your first card")
    state.apply(0, "draw deck")
    state.apply(1, "tickets")
    refuse(state, 1, "draw deck", "first choose which drawn tickets to keep, e.g. `keep 7 44` or `keep none`")
    refuse(state, 1, "keep 9", "ticket 9 is not among the tickets you drew")
    state.apply(1, "keep all")
    assert state.tickets[1] == [1, 2, 3, 4]


def test_empty_decks_refuse_draws_first() -> None:
    state = position(2, display="red green blue white loco", hands={0: {"red": 2}}, final_round=[0, 1])
    refuse(state, 0, "take purple", "the train deck is empty: play to your rail yard or draw tickets")
    refuse(state, 0, "draw deck", "the train deck is empty: play to your rail yard or draw tickets")
    refuse(state, 0, "tickets", "the ticket deck is empty")
    assert legal(state, 0) == ["yard red red"]


def test_setup_refusals_and_game_over() -> None:
    state = DEFINITION.new_game(2, {}, 3)
    refuse(state, 0, "draw deck", "first choose which of your 6 tickets to keep, e.g. `keep 3 17`")
    missing = next(t for t in range(1, 47) if t not in state.pending[0])
    refuse(state, 0, f"keep {missing}", f"ticket {missing} is not among the tickets you drew")
    state.apply(0, "keep all")
    refuse(state, 0, "keep all", "It is not your turn.")
    assert state.setup_choice[0] == sorted(state.pending[0])
    play_out(state, {0: RandomAI(), 1: RandomAI()})
    refuse(state, 0, "draw deck", "The game is over.")
    assert state.legal_moves(0) == [] and state.timeout_move(0) is None


def test_take_slot_refills_that_slot_not_the_leftmost_card_of_its_kind() -> None:
    """Section 10: `take N` takes the card in slot N and that slot is refilled."""
    state = position(
        3, hands={0: {"blue": 1}}, display="red green blue red loco", deck="black white " * 3,
        ticket_deck=[1, 2, 3, 4, 5],
    )
    assert str(state.parse_move("take 4")) == "take 4"  # the second red: its own move
    assert str(state.parse_move("take 1")) == "take red"  # the leftmost red: the same as `take red`
    events = state.apply(0, "take 4")
    assert state.display == ["red", "green", "blue", "black", "loco"]
    assert state.hands[0]["red"] == 1
    assert "{s0} takes red from the display; black fills slot 4." in [str(e.text) for e in events]
    state.apply(0, "take 1")
    assert state.display == ["white", "green", "blue", "black", "loco"]


def test_take_slot_keeps_the_locomotive_and_slot_rules() -> None:
    state = position(
        3, hands={0: {"blue": 1}}, display="loco green red red loco", deck="black white " * 3,
        ticket_deck=[1, 2, 3, 4, 5],
    )
    state.apply(0, "take 4")
    assert state.display == ["loco", "green", "red", "black", "loco"]
    refuse(state, 0, "take 5", "a face-up locomotive counts as two cards: take it only as your first card")
    refuse(state, 0, "take 6", "the display has slots 1 to 5")
    # A hand-built slot move whose slot no longer holds that kind is refused, not applied elsewhere.
    refuse(state, 0, Take("red", 3), "there is no red in slot 4 of the display")


def test_lenient_notation() -> None:
    state = turn_position()
    assert str(state.parse_move("  YARD 2 red 1 Locomotive ")) == "yard red red loco"
    assert str(state.parse_move("yard loco red red")) == "yard red red loco"
    assert str(state.parse_move("yard white pink black")) == "yard black purple white"
    assert str(state.parse_move("yard red wild")) == "yard red loco"
    assert str(state.parse_move("take 5")) == "take loco"
    assert str(state.parse_move("draw 2")) == "take green"
    assert str(state.parse_move("Draw  Deck")) == "draw deck"
    assert str(state.parse_move("keep 44 7 7")) == "keep 7 44"
    assert str(state.parse_move("keep none")) == "keep none"
    assert str(state.parse_move("take locomotive")) == "take loco"
    assert str(state.parse_move("complete 15")) == "complete 15"


def test_timeout_skips_only_the_keep_step() -> None:
    state = turn_position()
    assert state.timeout_move(0) is None
    state.apply(0, "tickets")
    assert str(state.timeout_move(0)) == "keep none"


# ---------------------------------------------------------------------------- properties


def random_position(seed: int, moves: int):
    """A state reached by `moves` random moves from a seeded new game."""
    options = {"completion": ("auto", "choose")[seed % 2], "open_track_stack": bool(seed % 3 == 0)}
    state = DEFINITION.new_game(2 + seed % 3, options, seed)
    player = RandomAI()
    for _ in range(moves):
        if state.is_over():
            break
        seat = min(state.to_act())
        state.apply(seat, ai_move(state, seat, player))
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 150), st.lists(st.sampled_from(KINDS), min_size=1, max_size=6))
def test_yard_plays_are_legal_exactly_when_listed(seed: int, moves: int, cards: list[str]) -> None:
    state = random_position(seed, moves)
    if state.phase != "turn" or state.step != "action":
        return
    seat = state.active
    move = yard_move(cards)
    listed = str(move) in legal(state, seat)
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        state.apply(seat, str(move))
    except IllegalMove as error:
        assert not listed, error.reason
        assert json.dumps(state.to_json(), sort_keys=True) == before
    else:
        assert listed


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 200))
def test_every_listed_move_applies_and_others_are_refused(seed: int, moves: int) -> None:
    state = random_position(seed, moves)
    for seat in range(state.num_seats):
        listed = legal(state, seat)
        for text in listed:
            state.copy().apply(seat, text)
        # A few moves that are not listed must be refused without a trace.
        for text in ("draw deck", "take loco", "tickets", "keep none", "done", "undo", "yard red red"):
            if text not in listed:
                copy = state.copy()
                with pytest.raises(IllegalMove):
                    copy.apply(seat, text)
                assert copy == state


def brute_force(tickets: list[int], track: dict[str, int]) -> list[int]:
    best: tuple[int, list[int]] = (-1, [])
    for size in range(len(tickets) + 1):
        for combo in itertools.combinations(tickets, size):
            if fits(combo, track):
                value = sum(weight(t) for t in combo)
                if value > best[0]:
                    best = (value, sorted(combo))
    return best[1]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(1, 46), unique=True, max_size=11),
    st.fixed_dictionaries({kind: st.integers(0, 5) for kind in KINDS}),
)
def test_best_completion_is_exact(tickets: list[int], track: dict[str, int]) -> None:
    assert best_completion(tickets, track) == brute_force(tickets, track)


def test_best_completion_handles_a_hoarded_hand() -> None:
    rng = random.Random(4)
    for _ in range(5):
        tickets = rng.sample(range(1, 47), 30)
        track = {kind: rng.randint(0, 6) for kind in KINDS}
        chosen = best_completion(tickets, track)
        assert fits(chosen, track)
        # Maximal: no further ticket fits on top of the best set.
        assert not any(fits([*chosen, t], track) for t in tickets if t not in chosen)
