"""The shared engine contract: options, seat names, events, ranking, RNG persistence, apply guards."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import (
    Event,
    GameDefinition,
    GameState,
    IllegalMove,
    Move,
    Option,
    RandomAI,
    Result,
    SeatResult,
    ai_rng,
    derived_seed,
    name_seats,
    play_out,
    rank_by,
    replay,
    rng_from_json,
    rng_to_json,
)


def test_bool_option_reads_on_off_words():
    option = Option("vexation", "bool", False, "coloured tracks")
    assert option.validate("on") is True
    assert option.validate("OFF") is False
    assert option.validate(True) is True
    with pytest.raises(ValueError, match="vexation must be on or off"):
        option.validate("maybe")


def test_choice_and_int_options_refuse_bad_values_with_a_reason():
    refill = Option("refill", "choice", "game", "when tracks come back", choices=("game", "round"))
    assert refill.validate("ROUND") == "round"
    with pytest.raises(ValueError, match="one of: game, round"):
        refill.validate("never")
    score = Option("start_score", "int", 13, "points", minimum=5, maximum=25)
    assert score.validate("7") == 7
    for bad in (4, 26, "x", 7.5, True):
        with pytest.raises(ValueError):
            score.validate(bad)


def test_an_option_with_an_invalid_default_cannot_be_declared():
    with pytest.raises(ValueError):
        Option("start_score", "int", 30, "points", minimum=5, maximum=25)


def test_name_seats_fills_in_names_and_falls_back_to_seat_numbers():
    text = "{s0} lays a track; {s2} is complete."
    assert name_seats(text, ["Ann", "Bob", "Cid"]) == "Ann lays a track; Cid is complete."
    assert name_seats(text) == "Seat 1 lays a track; Seat 3 is complete."


def test_event_visibility_and_json():
    everyone = Event("Round 1 starts.")
    secret = Event("Your cities: Paris", frozenset({1}))
    assert everyone.visible_to(None) and everyone.visible_to(2)
    assert secret.visible_to(1) and not secret.visible_to(0) and not secret.visible_to(None)
    assert Event.from_json(json.loads(json.dumps(secret.to_json()))) == secret


def test_rank_by_shares_ranks_between_equal_keys():
    assert rank_by({0: (4,), 1: (-1,), 2: (4,)}) == {0: 1, 2: 1, 1: 3}
    assert rank_by({0: (3, 1), 1: (3, 2), 2: (1, 9)}) == {1: 1, 0: 2, 2: 3}


@given(st.integers(min_value=0, max_value=2**63), st.integers(min_value=0, max_value=50))
@settings(deadline=None, max_examples=50)
def test_rng_survives_json(seed, draws):
    rng = random.Random(seed)
    for _ in range(draws):
        rng.random()
    copy = rng_from_json(json.loads(json.dumps(rng_to_json(rng))))
    assert [copy.random() for _ in range(5)] == [rng.random() for _ in range(5)]


def test_derived_seeds_are_stable_and_distinct():
    assert derived_seed("ai", 7, 0, 3) == derived_seed("ai", 7, 0, 3)
    assert derived_seed("ai", 7, 0, 3) != derived_seed("ai", 7, 1, 3)
    assert ai_rng(7, 0, 3).random() == ai_rng(7, 0, 3).random()


# A tiny real game to exercise the provided parts of GameState: each seat in turn adds 1 or 2 to a
# shared counter; whoever makes it reach 7 wins. Seat 1 also holds a secret number.


@dataclass(frozen=True)
class Add(Move):
    amount: int

    def __str__(self) -> str:
        return f"add {self.amount}"


class Race(GameState):
    key = "race"

    def __init__(self, num_seats: int, options: dict[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        self.counter = 0
        self.turn = 0
        self.winner: int | None = None

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.winner is not None else frozenset({self.turn})

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        return [Add(n) for n in (1, 2) if self.counter + n <= self.options["target"]]

    def parse_move(self, text: str) -> Move:
        words = text.lower().split()
        if len(words) != 2 or words[0] != "add" or words[1] not in ("1", "2"):
            raise IllegalMove(f"Unknown move {text!r}.")
        return Add(int(words[1]))

    def _apply(self, seat: int, move: Move) -> list[Event]:
        assert isinstance(move, Add)
        if move not in self.legal_moves(seat):
            raise IllegalMove("That would pass the target.")
        self.counter += move.amount
        if self.counter == self.options["target"]:
            self.winner = seat
        self.turn = (self.turn + 1) % self.num_seats
        return [Event(f"{{s{seat}}} adds {move.amount}.")]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {**self.base_view(seat), "counter": self.counter}

    def result(self) -> Result | None:
        if self.winner is None:
            return None
        ranks = rank_by({s: (int(s == self.winner),) for s in range(self.num_seats)})
        return Result(tuple(
            SeatResult(s, int(s == self.winner), {"win": int(s == self.winner)}, ranks[s])
            for s in sorted(ranks, key=ranks.get)
        ))

    def to_json(self) -> dict[str, Any]:
        return {**self.base_json(), "counter": self.counter, "turn": self.turn, "winner": self.winner}

    @classmethod
    def from_json(cls, data: Any) -> Race:
        state = cls.from_base_json(data)
        for k in ("counter", "turn", "winner"):
            setattr(state, k, data[k])
        return state


RACE = GameDefinition(
    key="race", title="Race to 7", min_players=2, max_players=3,
    options=(Option("target", "int", 7, "the number to reach", minimum=3, maximum=20),),
    state_class=Race, create=Race, ais={"random": RandomAI},
)


def test_definition_fills_defaults_and_refuses_unknown_options_and_seat_counts():
    assert RACE.resolve_options({}) == {"target": 7}
    assert RACE.resolve_options({"target": "9"}) == {"target": 9}
    with pytest.raises(ValueError, match="no option 'speed'"):
        RACE.resolve_options({"speed": 3})
    with pytest.raises(ValueError, match="2 to 3 players"):
        RACE.new_game(4)


def test_apply_refuses_the_wrong_seat_and_a_finished_game_without_changing_state():
    state = RACE.new_game(2, {}, 1)
    before = state.to_json()
    with pytest.raises(IllegalMove, match="not your turn"):
        state.apply(1, "add 1")
    with pytest.raises(IllegalMove, match="Unknown move"):
        state.apply(0, "jump")
    assert state.to_json() == before
    state.apply(0, "add 2")
    assert state.moves_applied == 1 and state.view(None)["to_act"] == [1]
    log = play_out(state, {0: RandomAI(), 1: RandomAI()})
    assert state.is_over() and state.result() is not None and log
    with pytest.raises(IllegalMove, match="The game is over."):
        state.apply(0, "add 1")


def test_the_shared_json_header_keeps_the_table_settings_the_move_count_and_the_rng():
    state = RACE.new_game(3, {"target": 9}, 5)
    state.apply(0, "add 2")
    state.rng.random()  # the RNG has moved on from its seed: the saved state must carry where it is
    data = json.loads(json.dumps(state.to_json()))
    header = {k: data[k] for k in ("key", "num_seats", "options", "seed", "moves_applied")}
    assert header == {"key": "race", "num_seats": 3, "options": {"target": 9}, "seed": 5, "moves_applied": 1}
    again = Race.from_json(data)
    assert again == state and again.counter == 2 and again.moves_applied == 1
    assert again.rng.random() == state.rng.random()


def test_play_out_is_deterministic_and_replay_rebuilds_the_state():
    first = RACE.new_game(3, {"target": 15}, 42)
    log = play_out(first, {s: RandomAI() for s in range(3)})
    second = RACE.new_game(3, {"target": 15}, 42)
    assert play_out(second, {s: RandomAI() for s in range(3)}) == log
    assert replay(RACE, 3, {"target": 15}, 42, [(0, "add 2"), (1, "add 1")]).counter == 3
    rebuilt = replay(RACE, 3, {"target": 15}, 42, log)
    assert rebuilt == first and rebuilt.copy() == first
