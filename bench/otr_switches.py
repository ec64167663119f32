"""Off the Rails hard level: are its switches right? Full greedy games judge where a search leaves the greedy move.

    PYTHONPATH=$PWD python bench/otr_switches.py --players 4 --seeds 20000 20004 --every 1 --games 24 --where late
    PYTHONPATH=$PWD python bench/otr_switches.py --players 4 --seeds 20000 20008 --games 100 --where early --as-played

Greedy games (every seat normal) are played from each seed; at every `every`-th decision in the chosen
part of the game (`mining`: before the collapse card and outside `endgame`; `early`: mining inside
`endgame` before the deck's last two layers; `zone`: mining in those; `late`: after the collapse card)
the hard level's search runs with switch_z 0 and records
the paired gain of its best move over the greedy move and its size in standard errors (z). Where it
would switch (gain over the switch margin), both moves are played on in `games` worlds the seat could be
in (determinize, the same world and seed for both), every seat greedy to the end, and the line shows the
mean difference in outcome value (search.outcome_value) and in wins. One core; minutes per seed.

With `--as-played`, seat 0 plays the hard level as it is (its budgets, its switch_z) against normal
seats, and each switch it makes in that part is judged the same way.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.engine import GameState, Move, ai_move  # noqa: E402
from rules.off_the_rails import DEFINITION  # noqa: E402
from rules.off_the_rails.ai import CLOSE_DECK, SCORE_SCALE, GreedyAI, HardAI, endgame, hard_ai  # noqa: E402
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
    if not endgame(state):
        return "mining"
    return "early" if len(state.deck) > CLOSE_DECK else "zone"


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


def _report(
    seed: int, number: int, state: OffTheRailsState, greedy: Move, search: Move,
    probe: tuple[float, float] | None, diffs: list[tuple[float, float]],
) -> None:
    value = statistics.fmean(d[0] for d in diffs)
    error = statistics.stdev(d[0] for d in diffs) / math.sqrt(len(diffs))
    win = statistics.fmean(d[1] for d in diffs)
    found = "" if probe is None else f"gain={probe[0]:.2f} z={probe[1]:.2f} "
    print(
        f"{seed} {number} {state.stage} {state.phase} deck={len(state.deck)} greedy={greedy} search={search} "
        f"{found}-> full games: value {value:+.3f} ± {error:.3f}, wins {win:+.3f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs=2, default=[20000, 20002], help="first and past-last seed")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--games", type=int, default=24, help="full games per move where the search switches")
    parser.add_argument("--where", choices=("mining", "early", "zone", "late"), default="late")
    parser.add_argument(
        "--as-played", action="store_true",
        help="seat 0 plays the hard level itself (its budgets and switch_z); judge the switches it makes",
    )
    args = parser.parse_args()
    for seed in range(*args.seeds):
        state = DEFINITION.new_game(args.players, {}, seed)
        assert isinstance(state, OffTheRailsState)
        greedy = GreedyAI()
        hard = hard_ai()
        hard.trace = []
        number = 0
        while state.to_act():
            actor = min(state.to_act())
            legal = state.legal_moves(actor)
            if args.as_played and actor == 0:
                part, made = _part(state), len(hard.trace)
                move = ai_move(state, actor, hard)
                if part == args.where and len(hard.trace) > made:
                    candidates, _means, _counts, choice = hard.trace[-1]
                    if choice != candidates[0]:
                        diffs = judge(state, actor, [candidates[0], choice], args.games, seed * 1000 + number)
                        _report(seed, number, state, candidates[0], choice, None, diffs)
                state.apply(actor, move)
                number += 1
                continue
            if not args.as_played and len(legal) > 1 and number % args.every == 0 and _part(state) == args.where:
                probe = _probe()
                probe.trace = []
                probe.decide(state.copy(), actor, legal, random.Random(number))
                if probe.trace and probe.last is not None:
                    candidates, _means, _counts, choice = probe.trace[0]
                    gain, z = probe.last
                    if choice != candidates[0]:
                        diffs = judge(state, actor, [candidates[0], choice], args.games, seed * 1000 + number)
                        _report(seed, number, state, candidates[0], choice, (gain, z), diffs)
            if len(legal) == 1:
                move = legal[0]
            elif args.as_played:
                move = ai_move(state, actor, greedy)
            else:
                move = greedy.decide(state, actor, legal, random.Random(number))
            state.apply(actor, move)
            number += 1


if __name__ == "__main__":
    main()
