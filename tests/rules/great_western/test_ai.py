"""Great Western Railway bots: the greedy bot beats the random one; both only make legal moves."""

from __future__ import annotations

import os
import random

from rules.engine import play_out
from rules.great_western import DEFINITION
from rules.great_western.ai import GreedyAI, RandomGWAI, greedy_plan

GAMES = int(os.environ.get("JUNCTION_AI_GAMES", "60"))


def greedy_win_rate(games: int, first_seed: int = 50_000) -> float:
    """Greedy in one seat (rotating), the spec's random bot in the others; shared wins do not count."""
    wins = 0
    for game in range(games):
        seats = 2 + game % 3
        mine = (game // 3) % seats
        state = DEFINITION.new_game(seats, {}, first_seed + game)
        play_out(state, {s: GreedyAI() if s == mine else RandomGWAI() for s in range(seats)})
        result = state.result()
        assert result is not None
        winners = [s.seat for s in result.seats if s.rank == 1]
        wins += winners == [mine]
    return wins / games


def test_greedy_beats_random_clearly() -> None:
    assert greedy_win_rate(GAMES) >= 0.85


def test_greedy_plan_takes_the_best_value_first() -> None:
    # From London with 3 passengers and 10 available: Oxford (gold 3, route 3) scores 3 - 1.5 + 0.6.
    assert greedy_plan({}, 0, 3, 0, 10)[0] == "oxford"
    # Without passengers nothing can be built.
    assert greedy_plan({}, 0, 0, 3, 10) == []


def test_random_bot_bids_near_the_lowest_amount() -> None:
    state = DEFINITION.new_game(3, {}, 4)
    bot = RandomGWAI()
    for n in range(50):
        seat = min(state.to_act())
        move = bot.choose(state.view(seat), state.legal_moves(seat), random.Random(n))
        assert str(move).startswith("bid") and move.amount <= 3
