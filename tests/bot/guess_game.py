"""A tiny but real game for the platform tests: secrets per seat, a simultaneous step, turns.

"Guess": every round each seat secretly draws a number 1..span. First all seats bid at once
(simultaneous step) how many points they expect; then in seat order each seat either guesses
another seat's number (`guess sN V`) or passes. A right guess scores 2 and reveals the number
only to the guesser; at round end a seat whose bid equals its number scores 1 more. After
`rounds` rounds the highest score wins (tie-break: lower seat).
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
    private,
    public,
    rank_by,
    seat_token,
)

KEY = "guess"


@dataclass(frozen=True)
class Bid(Move):
    amount: int

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True)
class Guess(Move):
    target: int
    value: int

    def __str__(self) -> str:
        return f"guess s{self.target + 1} {self.value}"


@dataclass(frozen=True)
class Pass(Move):
    def __str__(self) -> str:
        return "pass"


class GuessState(GameState):
    key = KEY

    def __init__(self, num_seats: int, options: dict[str, Any], seed: int) -> None:
        super().__init__(num_seats, options, seed)
        self.round = 1
        self.scores = [0] * num_seats
        self.phase = "bid"
        self.bids: list[int | None] = [None] * num_seats
        self.turn = 0
        self.secrets: list[int] = []
        self.known: list[list[int]] = [[] for _ in range(num_seats)]  # seats each seat has guessed right
        self._deal()

    def _deal(self) -> None:
        self.secrets = [self.rng.randint(1, self.options["span"]) for _ in range(self.num_seats)]
        self.bids = [None] * self.num_seats
        self.known = [[] for _ in range(self.num_seats)]
        self.phase = "bid"

    def to_act(self) -> frozenset[int]:
        if self.phase == "over":
            return frozenset()
        if self.phase == "bid":
            return frozenset(s for s in range(self.num_seats) if self.bids[s] is None)
        return frozenset((self.turn,))

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        if self.phase == "bid":
            moves: list[Move] = [Bid(a) for a in range(0, 4)]
        else:
            moves = [Pass()] + [
                Guess(t, v) for t in range(self.num_seats) if t != seat for v in range(1, self.options["span"] + 1)
            ]
        return sorted(moves)

    def parse_move(self, text: str) -> Move:
        words = text.lower().split()
        if words == ["pass"]:
            return Pass()
        if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
            return Bid(int(words[1]))
        if len(words) == 3 and words[0] == "guess" and re.fullmatch(r"s\d+", words[1]) and words[2].isdigit():
            return Guess(int(words[1][1:]) - 1, int(words[2]))
        raise IllegalMove(f"I cannot read {text!r}; try bid 2, guess s2 3 or pass.")

    def _apply(self, seat: int, move: Move) -> list[Event]:
        if self.phase == "bid":
            if not isinstance(move, Bid) or not 0 <= move.amount <= 3:
                raise IllegalMove("Bid 0 to 3 now.")
            self.bids[seat] = move.amount
            events = [private(seat, f"You bid {move.amount}."), public(f"{seat_token(seat)} has bid.")]
            if all(b is not None for b in self.bids):
                self.phase = "guess"
                self.turn = 0
                events.append(public("Bids: " + ", ".join(f"{seat_token(s)} {b}" for s, b in enumerate(self.bids))))
            return events
        if isinstance(move, Bid):
            raise IllegalMove("Bidding is over; guess or pass.")
        events: list[Event] = []
        if isinstance(move, Guess):
            if move.target == seat or not 0 <= move.target < self.num_seats:
                raise IllegalMove(f"{seat_token(seat)} cannot guess that seat.")
            if not 1 <= move.value <= self.options["span"]:
                raise IllegalMove(f"Numbers go from 1 to {self.options['span']}.")
            right = self.secrets[move.target] == move.value
            events.append(public(f"{seat_token(seat)} guesses {seat_token(move.target)}: "
                                 + ("right" if right else "wrong") + "."))
            if right:
                self.scores[seat] += 2
                self.known[seat].append(move.target)
                events.append(private(seat, f"{seat_token(move.target)} holds {move.value}."))
        else:
            events.append(public(f"{seat_token(seat)} passes."))
        self.turn += 1
        if self.turn == self.num_seats:
            for s in range(self.num_seats):
                if self.bids[s] == self.secrets[s]:
                    self.scores[s] += 1
            events.append(public(f"Round {self.round} ends. Numbers: "
                                 + ", ".join(f"{seat_token(s)} {v}" for s, v in enumerate(self.secrets))))
            if self.round == self.options["rounds"]:
                self.phase = "over"
            else:
                self.round += 1
                self._deal()
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        view = self.base_view(seat)
        view.update(round=self.round, phase=self.phase, scores=list(self.scores),
                    has_bid=[b is not None for b in self.bids])
        if self.phase != "bid":
            view["bids"] = list(self.bids)
        if seat is not None:
            view["secret"] = self.secrets[seat]
            view["my_bid"] = self.bids[seat]
            view["known"] = {str(t): self.secrets[t] for t in self.known[seat]}
        return view

    def result(self) -> Result | None:
        if self.phase != "over":
            return None
        ranks = rank_by({s: (self.scores[s], -s) for s in range(self.num_seats)})
        lines = sorted((SeatResult(s, self.scores[s], {"points": self.scores[s]}, ranks[s])
                        for s in range(self.num_seats)), key=lambda r: r.rank)
        return Result(tuple(lines), ended_by="Last round played.")

    def to_json(self) -> dict[str, Any]:
        return {
            **self.base_json(), "round": self.round, "scores": self.scores, "phase": self.phase, "bids": self.bids,
            "turn": self.turn, "secrets": self.secrets, "known": self.known,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GuessState:
        state = cls.from_base_json(data)
        state.round = data["round"]
        state.scores = list(data["scores"])
        state.phase = data["phase"]
        state.bids = list(data["bids"])
        state.turn = data["turn"]
        state.secrets = list(data["secrets"])
        state.known = [list(k) for k in data["known"]]
        return state


DEFINITION = GameDefinition(
    key=KEY,
    title="Guess",
    min_players=2,
    max_players=4,
    options=(
        Option("rounds", "int", 2, "Rounds to play", minimum=1, maximum=5),
        Option("span", "int", 3, "Secret numbers go from 1 to this", minimum=2, maximum=30),
        Option("open_bids", "bool", False, "Unused flag, for option parsing tests"),
        Option("pace", "choice", "calm", "Unused choice, for option parsing tests", choices=("calm", "fast")),
    ),
    state_class=GuessState,
    create=lambda n, options, seed: GuessState(n, options, seed),
    ais={"random": RandomAI},
    summary="Bid on your secret number, then guess the others'.",
)

GAMES = {KEY: DEFINITION}


def _png(text: str) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (320, 60), "white")
    ImageDraw.Draw(image).text((6, 6), text, fill="black")
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The test renderer (top level, so the process pool can pickle it)."""
    return _png(f"round {view['round']} {view['phase']} scores {view['scores']}")


def hand(view: dict[str, Any], names: list[str]) -> bytes:
    return _png(f"{names[view['seat']]} holds {view['secret']}")
