"""What an Off the Rails player reads, gathered from seeded games: every event, decision, refusal, result word and
image text, for the Japanese and German tests (tests/i18n/test_off_the_rails_ja.py, _de.py)."""

from __future__ import annotations

import functools

from rules.engine import GameState, IllegalMove, RandomAI, ai_move
from rules.off_the_rails import DEFINITION, board
from rules.words import Msg, Term

# Options that change what the engine writes: bumper carts (no drops), the rift die (die rolls),
# the automatic split (no split decision) and no missions (no claims).
OPTION_SETS = ({}, {"bumper_carts": True, "rift_die": True}, {"auto_split": True, "missions": False})
PHASES = {"action-mining", "action-collapse", "action-chasm", "run", "take", "go", "split", "pick", "claim", "rift",
          "over"}
# What a player types, right or wrong, in any phase: each refusal a player can meet.
TYPED = ("dig e5", "lay z9 ns", "lay e5 nes", "upgrade e5 nesw", "cart red a1", "speed white sideways", "go up",
         "take coal", "pick middle", "claim fame", "run white", "end now", "", "split", "speed white up",
         "cart white e5", "lay e5 ns", "lay a1 ns", "upgrade c3 nes", "go n", "take ruby", "split ruby ruby ruby",
         "pick left", "claim red-leader", "rift a1", "run black", "end", "undo", "speed black down")
# Notation and names the images draw as they are in every language: columns a-n (edges n e s w among them),
# cart letters W/B, clan letters R/Y/B/G, mission ids (what `claim` reads).
NOTATION = (*board.MISSION_IDS, "run white", "run black")


@functools.cache
def played(games: int = 2) -> tuple[tuple[Msg, ...], tuple[GameState, ...]]:
    """Every event message of seeded games at 1-4 players and each option set, and their final states."""
    lines: list[Msg] = []
    states: list[GameState] = []
    for seats in (1, 2, 3, 4):
        for options in OPTION_SETS if seats in (2, 3) else OPTION_SETS[:1]:
            for seed in range(games):
                state = DEFINITION.new_game(seats, options, seed)
                brains = {s: DEFINITION.ai() if (s + seed) % 2 else RandomAI() for s in range(seats)}
                while state.to_act():
                    seat = min(state.to_act())
                    lines += [event.msg for event in state.apply(seat, ai_move(state, seat, brains[seat]))]
                states.append(state)
    return tuple(lines), tuple(states)


@functools.cache
def in_every_phase() -> tuple[GameState, ...]:
    """One state waiting in each decision (run, take, go, split, pick, claim, rift), in each stage, and the end."""
    wanted: dict[str, GameState] = {}
    for seed in range(40):
        state = DEFINITION.new_game(4 if seed % 2 else 3, {}, seed)
        brains = {s: DEFINITION.ai() if (s + seed) % 2 else RandomAI() for s in range(state.num_seats)}
        while state.to_act():
            seat = min(state.to_act())
            state.apply(seat, ai_move(state, seat, brains[seat]))
            key = state.phase if state.phase != "action" else f"action-{state.stage}"
            if key not in wanted:
                wanted[key] = state.copy()
        wanted.setdefault("over", state)
        if set(wanted) >= PHASES:
            break
    return tuple(wanted.values())


def decisions() -> list[Msg]:
    return [state.decision_msg() for state in in_every_phase() if state.to_act()]


def refusals() -> list[Msg]:
    """The reason of every typed move refused in every phase (a crash other than IllegalMove fails)."""
    out: dict[str, Msg] = {}
    for state in in_every_phase():
        for seat in sorted(state.to_act()):
            for text in TYPED:
                trial = state.copy()
                try:
                    trial.apply(seat, trial.parse_move(text))
                except IllegalMove as refused:
                    out.setdefault(str(refused.reason), refused.reason)
    return list(out.values())


def result_words() -> list[Msg]:
    """The words an end-of-game post shows for this game: each result label, detail key and value."""
    _, states = played()
    words: set[str] = {"colour", "gems", "nothing"}
    for state in states:
        result = state.result()
        words |= set(result.labels.values())
        for line in result.seats:
            words |= set(line.details) | {line.details["colour"], *line.details["gems"]}
    return [Msg("{text}", text=Term(word)) for word in sorted(words) if word != "carts_in_reserve"]
