"""Off the Rails hard level: are its switches right? Full greedy games judge where a search leaves the greedy move.

    PYTHONPATH=$PWD python bench/otr_switches.py --players 4 --seeds 20000 20004 --every 1 --games 24 --where late

Greedy games (every seat normal) are played from each seed; at every `every`-th decision in the chosen
part of the game (`mining`: before the collapse card and outside `endgame`; `zone`: mining inside
`endgame`; `late`: after the collapse card) the hard level's search runs with switch_z 0 and records
the paired gain of its best move over the greedy move and its size in standard errors (z). Where it
would switch (gain over the switch margin), both moves are played on in `games` worlds the seat could be
in (determinize, the same world and seed for both), every seat greedy to the end, and the line shows the
mean difference in outcome value (search.outcome_value) and in wins. One core; minutes per seed.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.engine import GameState, Move  # noqa: E402
from rules.off_the_rails import DEFINITION  # noqa: E402
from rules.off_the_rails.ai import SCORE_SCALE, GreedyAI, HardAI, endgame, hard_ai  # noqa: E402
from rules.off_the_rails.state import OffTheRailsState  # noqa: E402
from rules.search import outcome_value  # noqa: E402


class Probe(HardAI):
    """The hard level that remembers its last paired comparison and switches on any gain over the margin."""

    last: tuple[float, float] | None = None

    def _clearly_better(self, challenger: list[float], favourite: list[float], switch_z: float) -> bool:
        diffs = [a - b for a, b in zip(challenger, favourite, strict=True)]
        gain = statistics.fmean(diffs)
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        z = gain / (sd / math.sqrt(len(diffs))) if sd > 0 else math.copysign(99.0, gain)
        self.last = (gain, z)
        return gain > self.switch_margin


def _probe() -> Probe:
    hard = hard_ai()
    assert isinstance(hard, HardAI)
    return Probe(
        hard.mining_budgets,
        hard.late_budgets,
        hard.early_budgets,
        evaluate=hard.evaluate,
        score_scale=hard.score_scale,
        stop=hard.stop,
        switch_z=0.0,
    )


def _part(state: OffTheRailsState) -> str:
    if state.stage != "mining":
        return "late"
    return "zone" if endgame(state) else "mining"


def judge(state: GameState, seat: int, moves: list[Move], games: int, seed: int) -> list[tuple[float, float]]:
    """(outcome value, win) of the second move minus the first, per world."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        world = state.determinize(seat, rng)
        rollout_seed = rng.getrandbits(64)
        row = []
        for move in moves:
            game = world.copy()
            game.apply(seat, move)
            policy, policy_rng = GreedyAI(), random.Random(rollout_seed)
            while game.to_act():
                actor = min(game.to_act())
                legal = game.legal_moves(actor)
                game.apply(actor, legal[0] if len(legal) == 1 else policy.decide(game, actor, legal, policy_rng))
            result = game.result()
            assert result is not None
            winners = [s.seat for s in result.seats if s.rank == 1]
            row.append((outcome_value(result, seat, SCORE_SCALE), 1.0 / len(winners) if seat in winners else 0.0))
        out.append((row[1][0] - row[0][0], row[1][1] - row[0][1]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs=2, default=[20000, 20002], help="first and past-last seed")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--games", type=int, default=24, help="full games per move where the search switches")
    parser.add_argument("--where", choices=("mining", "zone", "late"), default="late")
    args = parser.parse_args()
    for seed in range(*args.seeds):
        state = DEFINITION.new_game(args.players, {}, seed)
        assert isinstance(state, OffTheRailsState)
        greedy = GreedyAI()
        number = 0
        while state.to_act():
            actor = min(state.to_act())
            legal = state.legal_moves(actor)
            if len(legal) > 1 and number % args.every == 0 and _part(state) == args.where:
                probe = _probe()
                probe.trace = []
                probe.decide(state.copy(), actor, legal, random.Random(number))
                if probe.trace and probe.last is not None:
                    candidates, _means, _counts, choice = probe.trace[0]
                    gain, z = probe.last
                    if choice != candidates[0]:
                        diffs = judge(state, actor, [candidates[0], choice], args.games, seed * 1000 + number)
                        value = statistics.fmean(d[0] for d in diffs)
                        error = statistics.stdev(d[0] for d in diffs) / math.sqrt(len(diffs))
                        win = statistics.fmean(d[1] for d in diffs)
                        print(
                            f"{seed} {number} {state.stage} {state.phase} greedy={candidates[0]} search={choice} "
                            f"gain={gain:.2f} z={z:.2f} -> full games: value {value:+.3f} ± {error:.3f}, wins {win:+.3f}",
                            flush=True,
                        )
            move = legal[0] if len(legal) == 1 else greedy.decide(state, actor, legal, random.Random(number))
            state.apply(actor, move)
            number += 1


if __name__ == "__main__":
    main()
